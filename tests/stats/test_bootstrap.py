"""The one bootstrap (`costlib.stats.bootstrap`) held against the row bootstrap it claims to draw
exactly, and to the invariants every resample must keep."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.core.sweep import grouped_sweep
from costlib.stats import bootstrap


@st.composite
def grouped_rows(draw):
    n = draw(st.integers(2, 40))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    score = np.array(draw(st.lists(st.sampled_from([0.1, 0.2, 0.3, 0.5, 0.7, 0.9]), min_size=n, max_size=n)))
    groups = np.array(draw(st.lists(st.sampled_from(["a", "b"]), min_size=n, max_size=n)))
    cut_a = draw(st.lists(st.sampled_from([0.0, 0.15, 0.3, 0.6, 1.0]), min_size=3, max_size=3))
    return y, score, groups, cut_a


@settings(max_examples=60, deadline=None)
@given(grouped_rows(), st.integers(0, 10_000))
def test_every_resample_keeps_each_groups_rows_and_each_rules_counts_nest(rows, seed):
    """Stratified by group: a resample has each group's rows; within a resample every rule sees the
    same positives; a lower cutoff flags at least what a higher one flags (the cells are shared)."""
    y, score, groups, cuts = rows
    gs = grouped_sweep(y, score, groups)
    k = len(gs.groups)
    cutoffs = {f"r{i}": np.full(k, c) for i, c in enumerate(sorted(cuts))}
    res = bootstrap.cell_bootstrap(gs, cutoffs, n_resamples=50, seed=seed)
    tn = res.n[None, None, :] - res.tp - res.fp - res.fn
    assert (tn >= 0).all() and (res.tp >= 0).all()
    assert np.allclose(res.tp + res.fp + res.fn + tn, res.n[None, None, :])
    positives = res.tp + res.fn
    assert np.allclose(positives, positives[:, :1, :])
    flagged = res.tp + res.fp
    assert (np.diff(flagged, axis=1) <= 1e-9).all()  # rules in rising cutoff order flag fewer
    assert (np.diff(res.tp, axis=1) <= 1e-9).all()


def _row_bootstrap(y, flagged, b, rng):
    idx = rng.integers(0, y.size, size=(b, y.size))
    yy, ff = y[idx], flagged[idx]
    return (ff & ~yy).sum(axis=1), (~ff & yy).sum(axis=1)


def test_the_cell_draws_have_the_row_bootstraps_distribution():
    """The multinomial of (label, cell) counts is the row bootstrap's distribution: mean and
    spread of FP and FN match a brute-force row resampling (20,000 resamples each)."""
    rng = np.random.default_rng(7)
    y = rng.random(300) < 0.3
    score = np.round(np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1), 2)
    gs = grouped_sweep(y, score, np.zeros(y.size, dtype=int))
    res = bootstrap.cell_bootstrap(gs, {"r": np.array([0.45])}, n_resamples=20_000, seed=3)
    fp_b, fn_b = _row_bootstrap(y, score >= 0.45, 20_000, np.random.default_rng(4))
    for cells, rows in ((res.fp[:, 0, 0], fp_b), (res.fn[:, 0, 0], fn_b)):
        assert cells.mean() == pytest.approx(rows.mean(), rel=0.02)
        assert cells.std() == pytest.approx(rows.std(), rel=0.04)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.integers(0, 1000))
def test_a_stratified_mean_resamples_each_stratum_at_its_size(n_x, n_y, seed):
    """Stratum x holds 10s and stratum y 0s: resampled within strata, every resample keeps n_x
    tens, so the mean never moves (resampling across strata would move it)."""
    values = np.r_[np.full(n_x, 10.0), np.zeros(n_y)]
    strata = np.r_[["x"] * n_x, ["y"] * n_y]
    iv, samples = bootstrap.mean_interval(values, strata=strata, n_resamples=200, seed=seed)
    assert np.allclose(samples, 10.0 * n_x / (n_x + n_y))
    assert iv.low == pytest.approx(iv.estimate) and iv.high == pytest.approx(iv.estimate)
    _, loose = bootstrap.mean_interval(values, n_resamples=200, seed=seed)
    assert np.ptp(loose) > 0


def test_the_counting_and_the_index_paths_draw_the_same_sums():
    """Few distinct values are drawn as multinomial counts, many by row index: both are the row
    bootstrap, so their resampled sums agree in mean and spread."""
    rng = np.random.default_rng(0)
    few = rng.choice([0.0, 1.0, 5.0], size=2 * bootstrap.MAX_CATEGORIES, p=[0.6, 0.3, 0.1])
    many = few + rng.uniform(-1e-9, 1e-9, size=few.size)  # every value distinct: the index path
    assert bootstrap.categories(many, np.ones_like(many))[0] is None
    a, _ = bootstrap.resampled_sums(few, np.ones_like(few), 20_000, np.random.default_rng(1))
    b, den = bootstrap.resampled_sums(many, np.ones_like(many), 20_000, np.random.default_rng(2))
    assert np.all(den == few.size)
    assert a.mean() == pytest.approx(b.mean(), rel=0.01)
    assert a.std() == pytest.approx(b.std(), rel=0.04)


def test_a_paired_difference_keeps_each_rows_pair():
    """Two rules judged on the same rows: when they differ on no row, every resample of the paired
    difference is exactly 0 (unpaired resampling would scatter it)."""
    cost = np.random.default_rng(5).choice([0.0, 1.0, 3.0], size=200)
    iv = bootstrap.paired_difference_interval(cost, cost.copy(), n_resamples=300)
    assert (iv.low, iv.estimate, iv.high) == (0.0, 0.0, 0.0)
