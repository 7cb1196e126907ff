"""Calibration within each group (`calibration.group_calibration`): each group's error against a
brute-force computation, its 95% interval's coverage on simulated scores, and the rule that a
group too small is read as too few cases, never as a number."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib import DegenerateWarning
from costlib.binary.folds import MIN_CLASS_ROWS
from costlib.calibration import BinnedScores, ece_draws, group_calibration


def brute_ece(y, p, n_bins):
    """ECE by a loop over the bins: a score on an inner edge falls in the bin below (edges
    linspace(0, 1, n_bins + 1), as scikit-learn's calibration_curve bins)."""
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    total = 0.0
    for b in range(n_bins):
        inside = [i for i in range(len(p)) if (p[i] > edges[b] or b == 0) and (p[i] <= edges[b + 1] or b == n_bins - 1)]
        if inside:
            share_pos = sum(y[i] for i in inside) / len(inside)
            mean_pred = sum(p[i] for i in inside) / len(inside)
            total += len(inside) * abs(share_pos - mean_pred)
    return total / len(p)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_bins=st.integers(2, 30), n_groups=st.integers(2, 4))
def test_each_groups_error_is_the_brute_force_one_and_small_groups_are_too_few(seed, n_bins, n_groups):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(60, 260))
    # scores with ties and scores on the bins' edges (where the bin below takes them)
    p = np.where(rng.random(n) < 0.3, rng.integers(0, n_bins + 1, n) / n_bins, rng.random(n).round(2))
    y = (rng.random(n) < p).astype(int)
    g = rng.choice([f"g{i}" for i in range(n_groups)], size=n, p=rng.dirichlet(np.ones(n_groups)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        gc = group_calibration(y, p, g, n_bins=n_bins, n_resamples=20)
    assert [e.group for e in gc.by_group] == sorted(set(g))
    for e in gc.by_group:
        sel = g == e.group
        pos = int(y[sel].sum())
        assert (e.cases, e.positives, e.negatives) == (int(sel.sum()), pos, int(sel.sum()) - pos)
        assert e.too_few == (pos < MIN_CLASS_ROWS or sel.sum() - pos < MIN_CLASS_ROWS)
        if e.too_few:
            assert math.isnan(e.ece) and math.isnan(e.low) and math.isnan(e.high) and not e.beyond_noise
        else:
            assert e.ece == pytest.approx(brute_ece(y[sel].tolist(), p[sel].tolist(), n_bins), abs=1e-12)
            assert 0.0 <= e.low <= e.high
    read = [e for e in gc.by_group if not e.too_few]
    if read:
        assert gc.worst.ece == max(e.ece for e in read)
    if len(read) > 1:
        assert gc.best.ece == min(e.ece for e in read) and gc.best is not gc.worst
        assert gc.gap == pytest.approx(gc.worst.ece - gc.best.ece)
    else:
        assert gc.best is None and math.isnan(gc.gap)


def test_a_resample_is_the_rows_drawn_again(monkeypatch):
    """The bootstrap draws the rows, each keeping its bin and gap: with one distinct row every
    resample is the data itself, and the exact draw (by counts of the distinct (gap, bin)
    pairs) and the draw by index agree in law."""
    from costlib.stats import bootstrap

    same = BinnedScores.of([1] * 30, [0.8] * 30)
    np.testing.assert_allclose(ece_draws(same, 10, n_resamples=50), 0.2)
    rng = np.random.default_rng(3)
    p = rng.integers(1, 10, 400) / 10  # 9 scores, 18 (gap, bin) pairs: drawn by counts
    binned = BinnedScores.of((rng.random(400) < p).astype(int), p)
    by_counts = ece_draws(binned, 10, n_resamples=4000, seed=1)
    monkeypatch.setattr(bootstrap, "MAX_CATEGORIES", 0)  # every data set drawn by index
    by_index = ece_draws(binned, 10, n_resamples=4000, seed=1)
    assert by_counts.mean() == pytest.approx(by_index.mean(), abs=0.002)
    assert by_counts.std() == pytest.approx(by_index.std(), rel=0.1)
    assert by_index.mean() > binned.ece(10)  # a resample's error reads high: what the interval corrects


def _coverage(make, truth, *, runs, n_per_group, n_bins, seed):
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(runs):
        y, p = make(rng, n_per_group)
        g = np.repeat(["a", "b"], n_per_group)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateWarning)
            gc = group_calibration(y, p, g, n_bins=n_bins, n_resamples=200, seed=int(rng.integers(1 << 30)))
        hits += sum(e.low <= truth <= e.high for e in gc.by_group)
    return hits / (2 * runs)


def _calibrated(rng, n):
    p = np.concatenate([rng.beta(2, 3, n), rng.beta(3, 2, n)])
    return (rng.random(2 * n) < p).astype(int), p


def test_the_interval_covers_zero_for_calibrated_scores():
    """A calibrated group's error is 0 in truth and above 0 in every sample: a plain percentile
    interval of the resampled errors never reaches 0 (it covered 0 in none of these runs);
    this one covers it in at least 90% of them (95% expected)."""
    assert _coverage(_calibrated, 0.0, runs=100, n_per_group=300, n_bins=10, seed=7) >= 0.9


def test_the_interval_covers_a_true_gap_too():
    """Scores 0.1 too low everywhere (away from the ends): the true error is 0.1 in every bin."""

    def shifted(rng, n):
        p = rng.uniform(0.1, 0.8, 2 * n)
        return (rng.random(2 * n) < p + 0.1).astype(int), p

    assert _coverage(shifted, 0.1, runs=100, n_per_group=300, n_bins=10, seed=8) >= 0.85


def test_a_large_group_drawn_by_cells_agrees_with_the_rows_drawn_again(monkeypatch):
    """Past the rows budget the resamples are drawn by (bin, outcome) cells, the scores' sum of
    each cell from its mean and spread: in law the same as the row bootstrap, at every shape
    of miscalibration (here: calibrated, and too confident)."""
    import costlib.calibration as C

    rng = np.random.default_rng(5)
    for make in (lambda p: p, lambda p: 0.5 + (p - 0.5) / 2):
        p = rng.random(3000)
        binned = BinnedScores.of((rng.random(3000) < make(p)).astype(int), p)
        by_rows = ece_draws(binned, 12, n_resamples=3000, seed=2)
        monkeypatch.setattr(C, "ECE_ROWS_BUDGET", 0)
        by_cells = ece_draws(binned, 12, n_resamples=3000, seed=2)
        monkeypatch.undo()
        assert by_cells.mean() == pytest.approx(by_rows.mean(), rel=0.03)
        assert by_cells.std() == pytest.approx(by_rows.std(), rel=0.1)
