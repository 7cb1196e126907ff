"""Honest estimates: cross-fitting against a slow reference that deals rows, the refit
bootstrap's draws against their distribution, and the recommendation on data with no signal
(it must not ship) and with a known signal (it must, and its interval must cover the truth)."""

from __future__ import annotations

import math
import warnings
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costlib
from costlib.binary import decision as D
from costlib.binary import folds as F
from costlib.binary import honest as H
from costlib.binary.folds import CROSS_FOLDS, FOLDS, SPLITS, cross_fit, deal_shape, make_folds
from costlib.binary.refits import poisson_cells
from costlib.core import rules as R
from costlib.core.sweep import argbest

# ---------------------------------------------------------------------------------------
# Folds and cross-fitting


def _folds(ms, seed=0, k=FOLDS, split=0):
    return make_folds(ms.fit, ms.fit_pooled, ms.pooled_index("fit"), k=k, seed=seed, split=split)


def _dealt_rows(ms, folds):
    """Rows (y, score, group, fold) that the fold counts stand for: the slow reference deals these."""
    y, s, g, f = [], [], [], []
    gs = ms.fit
    for i, name in enumerate(gs.groups):
        lo, hi = int(gs.offsets[i]), int(gs.offsets[i + 1])
        t = gs.thresholds[lo + 1 : hi]
        for label, cum in ((1, folds.tp), (0, folds.fp)):
            per_fold = np.diff(cum[:, lo:hi], axis=1)
            for k in range(per_fold.shape[0]):
                n = per_fold[k].astype(int)
                y += [label] * int(n.sum())
                s += list(np.repeat(t, n))
                g += [name] * int(n.sum())
                f += [k] * int(n.sum())
    return np.array(y), np.array(s, dtype=float), np.array(g), np.array(f)


def _cost(y, s, g, cut, costs):
    out = {}
    for name in np.unique(g):
        sel = g == name
        flagged = s[sel] >= cut[name]
        c_fp, c_fn = costs[name]
        out[name] = (np.sum(flagged & (y[sel] == 0)), np.sum(~flagged & (y[sel] == 1)))
    return out


def _reference(y, s, g, fold, costs, min_rows):
    """Cross-fitted FP and FN of both fitted rules, fitting on rows (the slow way)."""
    names = sorted(set(g))
    total = {rule: {n: np.zeros(2) for n in names} for rule in ("single", "group")}
    for k in np.unique(fold):
        fit, test = fold != k, fold == k
        yf, sf, gf = y[fit], s[fit], g[fit]
        candidates = np.concatenate(([np.inf], np.unique(sf)[::-1]))
        totals = []
        for t in candidates:
            c = _cost(yf, sf, gf, dict.fromkeys(names, t), costs)
            totals.append(sum(costs[n][0] * fp + costs[n][1] * fn for n, (fp, fn) in c.items()))
        single = float(candidates[argbest(np.array(totals) / len(yf))])
        per = {}
        for n in names:
            sel = gf == n
            own = yf[sel].sum() >= min_rows and (1 - yf[sel]).sum() >= min_rows
            per[n] = (
                costlib.optimal_threshold(yf[sel], sf[sel], c_fp=costs[n][0], c_fn=costs[n][1])[0] if own else single
            )
        for rule, cut in (("single", dict.fromkeys(names, single)), ("group", per)):
            for n, (fp, fn) in _cost(y[test], s[test], g[test], cut, costs).items():
                total[rule][n] += (fp, fn)
    return total


rows = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 6), st.sampled_from("ab")), min_size=12, max_size=60)
price = st.integers(0, 5)


@settings(max_examples=60, deadline=None)
@given(
    data=rows, prices=st.tuples(price, price, price, price), seed=st.integers(0, 50), min_rows=st.sampled_from([1, 3])
)
def test_cross_fitting_equals_fitting_on_the_dealt_rows(data, prices, seed, min_rows):
    y = np.array([d[0] for d in data])
    s = np.array([d[1] for d in data]) / 6.0
    g = np.array([d[2] for d in data])
    # every fold's other folds need both classes: the reference cannot fit otherwise
    for label in (0, 1):
        if (y == label).sum() < 2 * FOLDS:
            return
    ms = D.sweep_model(y, s, g)
    costs = {"a": prices[:2], "b": prices[2:]}
    present = {n: tuple(map(float, costs[n])) for n in ms.groups}
    folds = _folds(ms, seed)
    yy, ss, gg, ff = _dealt_rows(ms, folds)
    assert len(yy) == len(y)
    with patch.object(F, "MIN_CLASS_ROWS", min_rows), warnings.catch_warnings():
        warnings.simplefilter("ignore", costlib.DegenerateWarning)
        cf = cross_fit(ms.fit, ms.fit_pooled, ms.pooled_index("fit"), folds, D.prices_for(ms.groups, present))
        ref = _reference(yy, ss, gg, ff, present, min_rows)
    assert cf.fitted
    for rule, got in (("single", cf.single), ("group", cf.per_group)):
        for i, n in enumerate(ms.groups):
            assert (got["fp"][i], got["fn"][i]) == tuple(ref[rule][n]), (rule, n)


def test_folds_are_stratified_and_add_up_to_the_rows():
    rng = np.random.default_rng(3)
    y, s, g = rng.integers(0, 2, 503), rng.integers(0, 40, 503) / 39, rng.choice(["x", "y", "z"], 503)
    ms = D.sweep_model(y, s, g)
    folds = _folds(ms)
    np.testing.assert_array_equal(folds.tp.sum(axis=0), ms.fit.tp)
    np.testing.assert_array_equal(folds.fp.sum(axis=0), ms.fit.fp)
    np.testing.assert_array_equal(folds.pooled_tp.sum(axis=0), ms.fit_pooled.tp)
    for counts in (folds.positives, folds.negatives):
        assert (counts.max(axis=0) - counts.min(axis=0) <= 1).all()  # each group and class split evenly
    other = _folds(ms, seed=1)
    assert not np.array_equal(other.tp, folds.tp)  # the deal is random (seeded)


def test_the_estimate_is_the_mean_of_independent_deals_and_keeps_each_deals_cost():
    """Without a split the cross-fitted counts are the mean over the deals of `deal_shape` (each
    one `cross_fit`), and each rule keeps every deal's cost per case."""
    y, s, g = _signal(4, 900)
    ms = D.sweep_model(y, s, g)
    prices = D.prices_for(ms.groups, (1.0, 3.0))
    index = ms.pooled_index("fit")
    k, r = deal_shape(ms.fit)
    assert (k, r) == (CROSS_FOLDS, SPLITS)  # 900 rows: ten deals into ten folds fit the budget
    deals = [_folds(ms, seed=2, k=k, split=i) for i in range(r)]
    assert not np.array_equal(deals[0].tp, deals[1].tp)  # independent deals
    each = [cross_fit(ms.fit, ms.fit_pooled, index, f, prices) for f in deals]
    cf = H.judge(ms, prices, n_resamples=0, seed=2).crossfit
    for name in ("single", "per_group"):
        got = getattr(cf, name)
        for c in ("tp", "fp", "fn"):
            np.testing.assert_allclose(got[c], np.mean([getattr(e, name)[c] for e in each], axis=0))
        costs = [np.sum(getattr(e, name)["fp"] * 1.0 + getattr(e, name)["fn"] * 3.0) / 900 for e in each]
        np.testing.assert_allclose(got["splits"], costs)
        assert np.std(costs) > 0  # the deals disagree: their mean removes that noise


def test_a_large_sweep_gets_fewer_deals():
    """A price move passes over at most `SPLIT_BUDGET` entries of the sweep: all `SPLITS` deals
    at 2,000 distinct scores, two at 90,000, one of `FOLDS` folds at a million (as one deal
    was before issue 43)."""
    rng = np.random.default_rng(0)
    for n, want in ((2_000, (CROSS_FOLDS, SPLITS)), (90_000, (CROSS_FOLDS, 2)), (1_000_000, (FOLDS, 1))):
        ms = D.sweep_model(rng.integers(0, 2, n), rng.random(n))
        assert deal_shape(ms.fit) == want, n


def test_the_saving_interval_is_the_fold_aware_one():
    """No split: the saving's interval is the estimate +- 1.96 fold-aware standard errors (the
    rows' and one deal's noise, `row_se`), narrower than the bootstrap of the cross-fitted
    estimate where the signal is weak (300 rows, AUC 0.70, 1:3: issue 43's example)."""
    from costlib.binary.simulation import Design
    from costlib.stats.intervals import centred_interval

    y, s, _ = Design(300, 0.7, 0.3, 1.0, 3.0).draw(4)
    rec = D.recommend(D.sweep_model(y, s, probabilities=False), (1, 3), n_resamples=1000, seed=4)
    res = rec.results
    se = res.row_se[rec.rule]
    c = H.judge(D.sweep_model(y, s, probabilities=False), rec.prices, n_resamples=0, seed=4).crossfit.single
    assert se > H.row_se({k: c[k] for k in ("tp", "fp", "fn")}, rec.baseline, rec.prices, np.array([300.0]))
    np.testing.assert_allclose([rec.saving_low, rec.saving_high], [rec.saving - H.Z95 * se, rec.saving + H.Z95 * se])
    boot = centred_interval(-rec.saving, res.refit[rec.rule] - res.refit["baseline"])
    assert rec.saving_high - rec.saving_low < boot[1] - boot[0]


def test_poisson_cells_have_the_poisson_bootstrap_moments():
    rng = np.random.default_rng(0)
    m = np.array([0, 1, 5, 13, 14, 40, 900])  # both ways of drawing: row by row, and by multinomial
    weight, left = poisson_cells(m, 20_000, rng)
    assert (weight[:, 0] == 0).all() and (left[:, 0] == 0).all()
    np.testing.assert_allclose(weight.mean(axis=0)[1:], m[1:], rtol=0.02)
    np.testing.assert_allclose(weight.var(axis=0)[1:], m[1:], rtol=0.05)
    np.testing.assert_allclose(left.mean(axis=0)[1:], m[1:] * math.exp(-1), rtol=0.03)
    assert (left <= m).all() and (weight >= m - left).all()  # a row drawn at least once weighs at least 1
    # a row left out is never drawn: for one row, left out exactly when its weight is 0
    np.testing.assert_array_equal(left[:, 1] == 1, weight[:, 1] == 0)


# ---------------------------------------------------------------------------------------
# The recommendation on simulated data


def _no_signal(seed: int, split: bool):
    """Uniform random scores, 8 groups of 20 to 770 rows, as the issue tried it."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(20, 771, 8)
    g = np.repeat([f"g{i}" for i in range(8)], sizes)
    n = g.size
    y, s = rng.integers(0, 2, n), rng.random(n).round(3)
    fit = judge = None
    if split:
        fit = rng.random(n) < 0.6
        judge = ~fit
    return D.sweep_model(y, s, g, fit=fit, judge=judge)


@pytest.mark.parametrize("split", [False, True])
def test_no_signal_is_not_sold_as_a_saving(split):
    ships = per_group = 0
    for seed in range(40):
        rec = D.recommend(_no_signal(seed, split), (1, 1), n_resamples=1000, seed=seed)
        ships += rec.ship_model
        per_group += rec.ship_model and rec.rule == R.COST_OPTIMAL
    assert ships <= 2, ships  # at most 5% of 40
    assert per_group <= 2, per_group


def _signal(seed: int, n: int, rng=None):
    rng = rng or np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = 1 / (1 + np.exp(-(1.2 * (2 * y - 1) + rng.normal(0, 1, n))))
    g = rng.choice(["a", "b", "c"], n, p=[0.5, 0.3, 0.2])
    return y, s, g


def test_a_clear_signal_ships_and_its_interval_covers_the_true_saving():
    """With a known signal the model ships; the saving's interval covers the saving of the
    shipped cutoff on new cases (measured on a million fresh rows) about 95% of the time."""
    big_y, big_s, _ = _signal(0, 1_000_000, np.random.default_rng(999))
    base = min(big_y.mean() * 3, (1 - big_y.mean()) * 1)  # the cheaper no-model choice at c_fp 1, c_fn 3
    covered = shipped = 0
    runs = 40
    for seed in range(runs):
        y, s, g = _signal(seed, 600)
        split = None if seed % 2 else np.random.default_rng(seed).random(600) < 0.5
        ms = D.sweep_model(y, s, g, fit=split, judge=None if split is None else ~split)
        rec = D.recommend(ms, (1, 3), n_resamples=1000, seed=seed)
        shipped += rec.ship_model
        t = rec.cutoffs["a"]  # one cutoff for everyone (no per-group signal here)
        assert rec.rule == R.SINGLE
        flagged = big_s >= t
        true_cost = (np.sum(flagged & (big_y == 0)) + 3 * np.sum(~flagged & (big_y == 1))) / big_y.size
        covered += rec.saving_low <= base - true_cost <= rec.saving_high
    assert shipped == runs
    assert covered >= 0.875 * runs, covered  # 95% coverage, less the noise of 40 runs


def test_small_groups_get_the_cutoff_for_everyone_and_are_named():
    rng = np.random.default_rng(5)
    y, s, g = _signal(5, 3000, rng)
    g = g.astype(object)
    g[:12] = "tiny"  # 12 people: fewer than MIN_CLASS_ROWS of either class
    ms = D.sweep_model(y, s, g)
    rec = D.recommend(ms, (1, 3), n_resamples=200)
    assert rec.pooled == ("tiny",)
    per_group = rec.results.cutoffs[R.COST_OPTIMAL]
    assert per_group["tiny"] == rec.results.cutoffs[R.SINGLE]["tiny"]
    assert per_group["a"] != per_group["tiny"] or per_group["b"] != per_group["tiny"]


def test_a_price_move_reuses_the_folds_and_draws():
    y, s, g = _signal(1, 2000)
    ms = D.sweep_model(y, s, g)
    D.recommend(ms, (1, 3), n_resamples=200)
    cached = dict(ms.__dict__["_kept"])
    with (
        patch.object(H, "make_folds", side_effect=AssertionError),
        patch.object(H, "refit_draws", side_effect=AssertionError),
        patch.object(H, "fold_draws", side_effect=AssertionError),
    ):
        rec = D.recommend(ms, (1, 4), n_resamples=200)
    assert ms.__dict__["_kept"].keys() == cached.keys()
    assert rec.estimate == H.CROSS_FITTED and rec.intervals


def test_a_chart_marks_a_cross_fitted_cutoff_on_its_curve():
    from costlib.present.cost_figures import markers_frame

    y, s, g = _signal(2, 1500)
    ms = D.sweep_model(y, s, g)
    rec = D.recommend(ms, (1, 3), n_resamples=0)
    curves = D.cost_curves(ms, rec.prices)
    marks = markers_frame(rec)
    single = marks[(marks["rule"] == R.SINGLE) & marks["line"].isna()].iloc[0]
    everybody = curves[curves["line"].isna()]
    on_curve = everybody.loc[everybody["threshold"] == single["threshold"], "cost_per_case"].iloc[0]
    assert single["cost_per_case"] == on_curve  # the marker sits on the curve it marks
    assert rec.cost != on_curve  # while the answer states the cross-fitted cost


def test_the_saving_interval_is_about_the_saving_it_reports():
    """The refit bootstrap prices the same no-model choice as the point estimate (the cheaper on
    the judged rows), so the interval holds the saving it is the interval of."""
    for seed in range(6):
        rng = np.random.default_rng(seed)
        n = 400
        y = rng.random(n) < 0.3
        s, g = rng.random(n) + y * 0.5, np.where(rng.random(n) < 0.5, "a", "b")
        half = np.arange(n) < 200
        for kw in ({}, {"fit": half, "judge": ~half}):
            rec = D.recommend(D.sweep_model(y, s, g, **kw), (1, 2), n_resamples=400, seed=seed)
            assert rec.saving_low <= rec.saving <= rec.saving_high, (seed, kw.keys(), rec.saving_low, rec.saving)


def test_no_cross_fit_means_no_interval_and_a_bad_seed_is_refused():
    rec = D.recommend(D.sweep_model([0, 1], [0.1, 0.4]), (1, 2), n_resamples=50)
    assert rec.status == D.NO_ANSWER and rec.summary()["saving_interval"] == [None, None]
    with pytest.raises(ValueError, match="seed must be a whole number from 0"):
        D.recommend(D.sweep_model([0, 1, 0, 1], [0.1, 0.4, 0.3, 0.8]), (1, 2), n_resamples=0, seed=-1)


def test_each_groups_cost_interval_shrinks_the_bootstraps_excess_over_its_rows():
    """Without a split each group's cost interval is its cross-fitted cost +- 1.96 se, se**2 the
    rows' variance plus 0.632 of what the refit bootstrap's variance adds to it (issue 43): built
    here from the recommendation's own pieces, the cross-fit's counts and the bootstrap's refits,
    it is what `recommend` shows; narrower than the bootstrap's own interval where the bootstrap
    is wider than the rows' noise, and never narrower than the rows' noise alone."""
    from costlib.stats.intervals import centred_intervals

    rng = np.random.default_rng(8)
    n = 1500
    g = rng.choice(["a", "b"], n, p=[0.7, 0.3])
    y = rng.random(n) < np.where(g == "a", 0.2, 0.45)
    s = 1 / (1 + np.exp(-(rng.normal(0, 1, n) + 1.1 * y)))
    ms = D.sweep_model(y, s, g)
    costs = {"a": (1.0, 3.0), "b": (1.0, 3.0)}
    rec = D.recommend({"m": ms}, costs, n_resamples=300, seed=1)
    assert rec.estimate == H.CROSS_FITTED
    prices = rec.prices
    honest = H.judge(ms, prices, n_resamples=300, seed=1)
    for rule, c, per_g in (
        (R.SINGLE, honest.crossfit.single, honest.refits.single_by_group),
        (R.COST_OPTIMAL, honest.crossfit.per_group, honest.refits.per_group_by_group),
    ):
        table = rec.results.by_group
        shown = table[table["rule"] == rule]
        n_g = shown["n"].to_numpy(float)
        cost = shown["cost_per_case"].to_numpy(float)
        lo_b, hi_b = centred_intervals(cost, per_g)
        mean = (prices.c_fp * c["fp"] + prices.c_fn * c["fn"]) / n_g
        rows = ((prices.c_fp**2 * c["fp"] + prices.c_fn**2 * c["fn"]) / n_g - mean**2) / (n_g - 1)
        boot = ((hi_b - lo_b) / (2 * H.Z95)) ** 2
        se = np.sqrt(rows + H.BOOT_SHARE * np.maximum(boot - rows, 0))
        np.testing.assert_allclose(shown["low"], cost - H.Z95 * se, rtol=1e-12)
        np.testing.assert_allclose(shown["high"], cost + H.Z95 * se, rtol=1e-12)
        assert np.all(se >= np.sqrt(rows) - 1e-15)
        assert np.all((se <= np.sqrt(boot) + 1e-15) | (boot < rows))
