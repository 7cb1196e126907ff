"""The simulation's truth against a large sample, and the Wald comparator against a slow
reference that fits each fold's cutoff by trying every score (issue 43)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from costlib.binary.simulation import Design, wald_interval


@pytest.mark.parametrize(("auc", "rate", "c_fn"), [(0.7, 0.3, 1.0), (0.96, 0.1, 10.0), (0.7, 0.3, 3.0)])
def test_true_costs_and_the_best_cutoff_agree_with_a_million_rows(auc, rate, c_fn):
    d = Design(1_000_000, auc, rate, 1.0, c_fn)
    y, s, _ = d.draw(0)
    # the AUC of the drawn scores (Mann-Whitney, by ranks)
    ranks = np.argsort(np.argsort(s)) + 1.0
    pos = y == 1
    auc_hat = (ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum())
    assert abs(auc_hat - auc) < 0.003
    for t in (-1.0, 0.3, 1.7):
        flagged = s >= t
        per_row = np.where(flagged, 1.0 * ~pos, c_fn * pos)
        assert abs(per_row.mean() - float(d.cost(t))) < 5 * per_row.std() / 1000  # five standard errors
    # the best cutoff's saving is the largest over a fine grid of cutoffs
    grid = np.linspace(-6, 8, 28_001)
    assert d.best_saving == pytest.approx(d.baseline - float(np.min(d.cost(grid))), abs=1e-6)


def test_no_signal_has_no_saving_to_find():
    d = Design(100, 0.5, 0.3, 1.0, 2.0, (0.6, 0.4))
    assert d.best_saving == 0.0
    assert d.saving([0.0, math.inf]) < 0  # flagging anyone without a signal costs more than nobody's baseline
    assert d.saving(math.inf) == pytest.approx(0.0, abs=1e-12)  # flag nobody: the baseline (0.3 * 2 < 0.7)


def _slow_wald(y, s, fold, c_fp, c_fn):
    base = c_fn * y if c_fn * y.mean() <= c_fp * (1 - y.mean()) else c_fp * (1 - y)
    saving = np.zeros(y.size)
    for f in np.unique(fold):
        fit = fold != f
        candidates = [math.inf, *sorted(set(s[fit]), reverse=True)]
        costs = [
            c_fp * np.sum((s[fit] >= t) & (y[fit] == 0)) + c_fn * np.sum((s[fit] < t) & (y[fit] == 1))
            for t in candidates
        ]
        t = candidates[int(np.argmin(costs))]  # the first of equal costs: the larger cutoff
        test = ~fit
        saving[test] = base[test] - np.where(s[test] >= t, c_fp * (1 - y[test]), c_fn * y[test])
    return saving.mean(), saving.std(ddof=1) / math.sqrt(y.size)


@pytest.mark.parametrize("seed", range(4))
def test_the_wald_comparator_equals_fitting_every_fold_the_slow_way(seed):
    from costlib.binary import simulation as S

    rng = np.random.default_rng(seed)
    y = (rng.random(120) < 0.35).astype(np.int64)
    s = np.round(rng.normal(0, 1, 120) + y, 1)  # ties
    c_fn = (1.0, 3.0, 10.0, 0.5)[seed]
    fold = S._folds(y, 5, np.random.default_rng([seed, 5]))
    assert all(abs(np.sum((fold == f) & (y == 1)) - y.sum() / 5) < 1 for f in range(5))  # stratified
    est, lo, hi = wald_interval(y, s, c_fp=1.0, c_fn=c_fn, seed=seed)
    ref, se = _slow_wald(y, s, fold, 1.0, c_fn)
    assert est == pytest.approx(ref, abs=1e-12)
    assert (lo, hi) == pytest.approx((ref - 1.96 * se, ref + 1.96 * se), abs=1e-12)
