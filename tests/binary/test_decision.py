"""Sweep once, price many: costlib.binary.decision against slow references that read rows."""

from __future__ import annotations

import warnings
from pathlib import Path
from unittest.mock import patch

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costlib
from costlib.binary import decision as D
from costlib.binary import folds as F
from costlib.binary import honest as H
from costlib.core import rules as R
from costlib.core.sweep import argbest, best_indices
from costlib.loading.samples import SAMPLES
from costlib.stats import bootstrap

SAMPLE_DIR = costlib.__path__[0] + "/samples/"


def _rows_cost(y, s, g, cut: dict, costs: dict) -> float:
    """Total price of the mistakes when group x is flagged iff its score >= cut[x] (rows)."""
    total = 0.0
    for name in np.unique(g):
        sel = g == name
        flagged = s[sel] >= cut[name]
        c_fp, c_fn = costs[name]
        total += c_fp * np.sum(flagged & (y[sel] == 0)) + c_fn * np.sum(~flagged & (y[sel] == 1))
    return total


def _brute_single(y, s, g, costs: dict) -> float:
    """The cheapest single cutoff over +inf and every distinct score; ties: the larger one."""
    candidates = np.concatenate(([np.inf], np.unique(s)[::-1]))
    totals = np.array([_rows_cost(y, s, g, dict.fromkeys(np.unique(g), t), costs) for t in candidates])
    return float(candidates[argbest(totals / len(y))])


rows = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 7), st.sampled_from("abc")), min_size=6, max_size=40)
price = st.integers(0, 6)


@settings(max_examples=80, deadline=None)
@given(
    data=rows,
    prices=st.lists(st.tuples(price, price), min_size=3, max_size=3),
    split_seed=st.integers(0, 9),
    min_rows=st.sampled_from([1, 2, 3]),
)
def test_rules_equal_brute_force_on_rows(data, prices, split_seed, min_rows):
    y = np.array([d[0] for d in data])
    s = np.array([d[1] for d in data]) / 7.0
    g = np.array([d[2] for d in data])
    fit = np.random.default_rng(split_seed).random(len(y)) < 0.6
    costs = {name: (float(a), float(b)) for name, (a, b) in zip("abc", prices, strict=True)}
    present = {k: costs[k] for k in np.unique(g)}
    ms = D.sweep_model(y, s, g, fit=fit, judge=~fit)
    p = D.prices_for(ms.groups, present)
    with warnings.catch_warnings(), patch.object(F, "MIN_CLASS_ROWS", min_rows):
        warnings.simplefilter("ignore", costlib.DegenerateWarning)
        cut = D.model_rule_cutoffs(ms, p)
    yf, sf, gf = y[fit], s[fit], g[fit]
    single = np.nan
    if len(yf) and 0 < yf.sum() < len(yf):
        single = _brute_single(yf, sf, gf, present)
        assert cut[R.SINGLE][0] == single
    for i, name in enumerate(ms.groups):
        sel = gf == name
        own = yf[sel].sum() >= min_rows and (1 - yf[sel]).sum() >= min_rows
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", costlib.DegenerateWarning)
            expected, _ = (
                costlib.optimal_threshold(yf[sel], sf[sel], c_fp=present[name][0], c_fn=present[name][1])
                if own
                else (single, np.nan)  # too few of a class on the fit rows: the cutoff for everyone
            )
        np.testing.assert_equal(cut[R.COST_OPTIMAL][i], expected)
    # judged on the other rows: counts equal the rows' counts, rule by rule and group by group
    counts = D.count_rules(ms.judge, cut)
    for r_i, rule in enumerate(counts.rules):
        for g_i, name in enumerate(ms.groups):
            t = cut[rule][g_i]
            sel = (g == name) & ~fit
            if np.isnan(t):
                assert np.isnan(counts.fp[r_i, g_i])
                continue
            flagged = s[sel] >= t
            assert counts.fp[r_i, g_i] == np.sum(flagged & (y[sel] == 0))
            assert counts.fn[r_i, g_i] == np.sum(~flagged & (y[sel] == 1))


def test_sweep_model_equals_the_kernel_on_each_part():
    rng = np.random.default_rng(0)
    n = 500
    y, s, g = rng.integers(0, 2, n), rng.integers(0, 30, n) / 29, rng.choice(["x", "y"], n)
    fit = rng.random(n) < 0.5
    ms = D.sweep_model(y, s, g, fit=fit, judge=~fit)
    assert ms.judged_on == "test" and ms.groups == ("x", "y")
    for part, mask in ((ms.fit, fit), (ms.judge, ~fit)):
        ref = costlib.grouped_sweep(y[mask], s[mask], g[mask])
        for name in ("x", "y"):
            np.testing.assert_array_equal(part[name].thresholds, ref[name].thresholds)
            np.testing.assert_array_equal(part[name].tp, ref[name].tp)
            np.testing.assert_array_equal(part[name].fp, ref[name].fp)
    pooled = costlib.threshold_sweep(y[fit], s[fit])
    np.testing.assert_array_equal(ms.fit_pooled.fp, pooled.fp)
    same = D.sweep_model(y, s, g)
    assert same.judged_on == "all" and same.judge is same.fit


def test_a_group_absent_from_one_split_has_an_empty_sweep():
    y, s, g = [0, 1, 0, 1, 1], [0.1, 0.9, 0.2, 0.8, 0.7], ["a", "a", "a", "a", "b"]
    fit = np.array([True, True, True, True, False])
    ms = D.sweep_model(y, s, g, fit=fit, judge=~fit)
    assert ms.fit["b"].total == 0 and ms.fit["b"].thresholds.tolist() == [np.inf]
    assert ms.judge["a"].total == 0 and ms.judge["b"].total == 1


def test_worked_example_of_the_spec():
    # y = [0, 0, 1, 1, 0, 1], p = [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], c_fp = 1, c_fn = 3:
    # best cutoff 0.35 (FP = 2: 0.4 and 0.65; FN = 0): 2/6 per case. Flag nobody: 3 * 3 / 6 = 1.5;
    # flag everyone: 3 negatives * 1 / 6 = 0.5, the cheaper no-model choice. Saving 0.5 - 1/3 = 1/6.
    ms = D.sweep_model([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9])
    rec = D.recommend(ms, (1, 3), n_resamples=0)
    assert rec.cutoffs == {"everyone": 0.35}
    in_sample = D.count_rules(ms.judge, {"r": np.array([0.35])}).cost(rec.prices)
    assert float(in_sample.sum()) / 6 == pytest.approx(2 / 6)
    assert (rec.baseline, rec.baseline_cost) == ("flag everyone", pytest.approx(0.5))
    # fitted and judged on the same six rows: the cost shown is cross-fitted, and without an
    # interval the model is at best not clearly better
    assert rec.judged_on == "all" and rec.estimate == H.CROSS_FITTED
    assert rec.saving == pytest.approx(rec.baseline_cost - rec.cost)
    assert not rec.ship_model and rec.verdict in (R.NOT_CLEARLY, R.DO_NOT)
    assert costlib.no_model_baseline([0, 0, 1, 1, 0, 1], c_fp=1, c_fn=3) == ("flag everyone", 0.5)


def test_no_model_baseline_ties_go_to_flag_nobody_and_weights_count():
    # 1 positive, 1 negative, equal prices: both cost 0.5 per case: a tie, so "flag nobody".
    assert costlib.no_model_baseline([0, 1], c_fp=1, c_fn=1) == ("flag nobody", 0.5)
    # weights 3 (negative) and 1 (positive): nobody costs 1 * 1 / 4, everyone 1 * 3 / 4
    assert costlib.no_model_baseline([0, 1], c_fp=1, c_fn=1, sample_weight=[3, 1]) == ("flag nobody", 0.25)
    with pytest.raises(ValueError, match="c_fn must be non-negative"):
        costlib.no_model_baseline([0, 1], c_fp=1, c_fn=-1)


def _offensive() -> pd.DataFrame:
    return pd.read_csv(SAMPLE_DIR + SAMPLES["offensive"].filename)


def test_offensive_sample_is_measured_against_flag_everyone():
    df = _offensive()  # 83% positive: flagging everyone is the cheap choice without a model
    fit, judge = (df["split"] == "train").to_numpy(), (df["split"] == "test").to_numpy()
    ms = D.sweep_model(df["label"], df["score_lr"], fit=fit, judge=judge)
    rec = D.recommend(ms, (1, 3), n_resamples=200)
    y_test = df["label"].to_numpy()[judge]
    assert (rec.baseline, rec.baseline_cost) == costlib.no_model_baseline(y_test, c_fp=1, c_fn=3)
    assert rec.baseline == "flag everyone"
    t, _ = costlib.optimal_threshold(df["label"][fit], df["score_lr"][fit], c_fp=1, c_fn=3)
    assert rec.cutoffs["everyone"] == t
    pred = df["score_lr"].to_numpy()[judge] >= t
    assert rec.cost == pytest.approx(costlib.expected_cost(y_test, pred, c_fp=1, c_fn=3))
    assert rec.saving == pytest.approx(rec.baseline_cost - rec.cost)


def test_adds_nothing_when_the_best_cutoff_flags_everyone():
    df = pd.read_csv(SAMPLE_DIR + "compas.csv")
    fit, judge = (df["split"] == "train").to_numpy(), (df["split"] == "test").to_numpy()
    ms = D.sweep_model(df["two_year_recid"], df["p_recid"], df["race"], fit=fit, judge=judge)
    rec = D.recommend(ms, (1, 10), n_resamples=100)
    # at c_fn = 10 the cheapest cutoff on the train rows is the lowest score: everyone is flagged
    assert set(rec.cutoffs.values()) == {df["p_recid"][fit].min()}
    assert rec.status == D.ADDS_NOTHING and rec.no_model_action == "flag everyone"
    rec = D.recommend(ms, (20, 1), n_resamples=100)
    assert rec.status == D.ADDS_NOTHING and rec.no_model_action == "flag nobody"


def test_per_group_cutoffs_only_when_their_saving_is_clear():
    rng = np.random.default_rng(3)
    n = 20_000
    g = rng.choice(["north", "south"], n)
    # two groups whose scores mean different things: the best cutoffs differ a lot
    s = rng.random(n)
    p_true = np.where(g == "north", s**3, np.sqrt(s))
    y = (rng.random(n) < p_true).astype(int)
    split = rng.random(n) < 0.5
    ms = D.sweep_model(y, s, g, fit=split, judge=~split)
    rec = D.recommend(ms, (1, 1), n_resamples=400)
    assert rec.rule == R.COST_OPTIMAL
    est, lo, hi = rec.group_gain
    assert lo > 0 and est > 0
    # the same score meaning in both groups: one cutoff for everyone
    y2 = (rng.random(n) < s).astype(int)
    rec2 = D.recommend(D.sweep_model(y2, s, g, fit=split, judge=~split), (1, 1), n_resamples=400)
    assert rec2.rule == R.SINGLE
    assert rec2.group_gain[1] <= 0


def test_best_indices_equal_best_for_every_price_pair():
    rng = np.random.default_rng(5)
    for _ in range(300):
        n = int(rng.integers(2, 40))
        y, s = rng.integers(0, 2, n), rng.integers(0, 8, n) / 7
        if y.min() == y.max():
            continue
        w = rng.integers(1, 4, n) * 0.1 if rng.random() < 0.5 else None
        sw = costlib.threshold_sweep(y, s, sample_weight=w)
        fp, fn = rng.integers(0, 5, 12) * 0.1, rng.integers(0, 5, 12) * 0.3
        assert best_indices(sw, fp, fn).tolist() == [sw.best(a, b) for a, b in zip(fp, fn, strict=True)]


def test_cell_bootstrap_has_the_row_bootstrap_distribution():
    rng = np.random.default_rng(7)
    n = 600
    y, s, g = rng.integers(0, 2, n), rng.random(n), rng.choice(["a", "b"], n)
    ms = D.sweep_model(y, s, g)
    prices = D.prices_for(ms.groups, (1.0, 3.0))
    cut = {"r": np.array([0.3, 0.6])}
    res = bootstrap.cell_bootstrap(ms.judge, cut, n_resamples=3000, seed=1)
    boot = res.cost(prices)[:, 0, :].sum(axis=1) / n
    # reference: resample the rows themselves, stratified by group
    row_cost = _row_costs(y, s, g, {"a": 0.3, "b": 0.6}, 1.0, 3.0)
    ref = np.empty(3000)
    r2 = np.random.default_rng(2)
    idx_a, idx_b = np.flatnonzero(g == "a"), np.flatnonzero(g == "b")
    for b in range(3000):
        pick = np.concatenate((r2.choice(idx_a, idx_a.size), r2.choice(idx_b, idx_b.size)))
        ref[b] = row_cost[pick].mean()
    assert boot.mean() == pytest.approx(row_cost.mean(), abs=0.01)
    assert boot.std() == pytest.approx(ref.std(), rel=0.1)
    # group sizes are kept: every resample has the same number of rows per group
    assert np.all(res.n == [np.sum(g == "a"), np.sum(g == "b")])


def _row_costs(y, s, g, cut, c_fp, c_fn):
    t = np.array([cut[x] for x in g])
    flagged = s >= t
    return np.where(flagged & (y == 0), c_fp, 0.0) + np.where(~flagged & (y == 1), c_fn, 0.0)


def test_paired_difference_of_identical_rules_is_exactly_zero_and_weighted_sweeps_without_rows_have_no_intervals():
    rng = np.random.default_rng(0)
    y, s = rng.integers(0, 2, 300), rng.random(300)
    ms = D.sweep_model(y, s)
    res = D.evaluate_rules(
        ms,
        D.prices_for(ms.groups, (1, 2)),
        {"a": np.array([0.5]), "b": np.array([0.5]), R.NOBODY: np.array([np.inf]), R.EVERYONE: np.array([-np.inf])},
        n_resamples=200,
    )
    assert res.paired("a", "b") == (0.0, 0.0, 0.0)
    # weighted sweeps made elsewhere (a warehouse scan, an aggregate file) come without their rows:
    # they cannot be dealt into folds, so they are judged on the rows they were fitted on, and said so
    weighted = D.model_from_sweeps(D.sweep_model(y, s, sample_weight=np.full(300, 2.0)).fit, weighted=True)
    rec = D.recommend(weighted, (1, 2), n_resamples=200)
    assert not rec.intervals and np.isnan(rec.saving_low) and not rec.ship_model
    assert rec.estimate == H.SAME_ROWS
    in_sample = D.count_rules(ms.judge, {"r": np.array([rec.cutoffs["everyone"]])}).cost(rec.prices)
    assert rec.cost == pytest.approx(float(in_sample.sum()) / 300)
    # with their rows, they are cross-fitted row by row (`weighted_rows`) and have intervals
    rec = D.recommend(D.sweep_model(y, s, sample_weight=np.full(300, 2.0)), (1, 2), n_resamples=200)
    assert rec.intervals and rec.estimate == H.CROSS_FITTED and np.isfinite(rec.saving_low)


def test_a_price_move_reads_only_the_sweeps(monkeypatch):
    """Sweep once, price many: recommending at new prices never sorts or validates rows."""
    rng = np.random.default_rng(1)
    y, s, g = rng.integers(0, 2, 2000), rng.random(2000), rng.choice(["a", "b", "c"], 2000)
    ms = D.sweep_model(y, s, g, fit=rng.random(2000) < 0.5, judge=None)
    import costlib.core.sweep as sweep_mod
    import costlib.core.validation as val

    def forbidden(*args, **kwargs):
        raise AssertionError("a price move must not touch the rows")

    monkeypatch.setattr(sweep_mod, "sweep_arrays", forbidden)
    monkeypatch.setattr(val, "binary_pair", forbidden)
    monkeypatch.setattr(np, "argsort", forbidden)
    for costs in ((1, 3), (2, 1), {"a": (1, 3), "b": (2, 2), "c": (5, 1)}):
        rec = D.recommend(ms, costs, n_resamples=100)
        assert np.isfinite(rec.cost)


def test_bad_arguments_name_the_argument():
    ms = D.sweep_model([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match="costs c_fp must be non-negative"):
        D.recommend(ms, (-1, 1))
    with pytest.raises(ValueError, match="costs must be a"):
        D.recommend(ms, 5)
    with pytest.raises(ValueError, match="n_resamples"):
        D.recommend(ms, (1, 1), n_resamples=3)
    with pytest.raises(ValueError, match="fit must be a boolean mask"):
        D.sweep_model([0, 1], [0.1, 0.2], fit=[1, 0])


def test_model_from_sweeps_equals_sweep_model_on_the_rows():
    rng = np.random.default_rng(8)
    n = 2000
    y, s, g = rng.integers(0, 2, n), rng.integers(0, 50, n) / 49, rng.choice(["a", "b", "c"], n)
    fit = rng.random(n) < 0.5
    ms = D.sweep_model(y, s, g, fit=fit, judge=~fit)
    other = D.model_from_sweeps(
        costlib.grouped_sweep(y[fit], s[fit], g[fit]), costlib.grouped_sweep(y[~fit], s[~fit], g[~fit])
    )
    for a, b in ((ms.fit_pooled, other.fit_pooled), (ms.judge_pooled, other.judge_pooled)):
        np.testing.assert_array_equal(a.thresholds, b.thresholds)
        np.testing.assert_array_equal(a.tp, b.tp)
        np.testing.assert_array_equal(a.fp, b.fp)
    for costs in ((1, 3), {"a": (1, 2), "b": (3, 1), "c": (1, 1)}):
        ra, rb = D.recommend(ms, costs, n_resamples=200), D.recommend(other, costs, n_resamples=200)
        assert ra.summary() == rb.summary() and ra.saving_low == rb.saving_low


def test_split_cells_keep_the_row_bootstrap_distribution_and_the_base_rules_resamples():
    """Rules outside `base` split the base rules' cells: the base rules keep exactly the
    resamples they get alone, and every rule (paired differences too) keeps the row
    bootstrap's distribution."""
    rng = np.random.default_rng(8)
    n = 600
    y, s, g = rng.integers(0, 2, n), rng.random(n), rng.choice(["a", "b"], n)
    ms = D.sweep_model(y, s, g)
    prices = D.prices_for(ms.groups, (1.0, 3.0))
    base = {"r": np.array([0.3, 0.6])}
    extra = {"x": np.array([0.45, 0.2]), "z": np.array([0.8, 0.55])}
    alone = bootstrap.cell_bootstrap(ms.judge, base, n_resamples=3000, seed=1)
    both = bootstrap.cell_bootstrap(ms.judge, {**base, **extra}, n_resamples=3000, seed=1, base=["r"])
    for field in ("tp", "fp", "fn"):
        np.testing.assert_array_equal(getattr(both, field)[:, :1], getattr(alone, field))
    # the split rules: against a one-stage draw of all the cells, and against the rows
    one_stage = bootstrap.cell_bootstrap(ms.judge, {**base, **extra}, n_resamples=3000, seed=5)
    cost_split = both.cost(prices).sum(axis=2) / n  # (B, rules)
    cost_one = one_stage.cost(prices).sum(axis=2) / n
    row_x = _row_costs(y, s, g, {"a": 0.45, "b": 0.2}, 1.0, 3.0)
    row_r = _row_costs(y, s, g, {"a": 0.3, "b": 0.6}, 1.0, 3.0)
    assert cost_split[:, 1].mean() == pytest.approx(row_x.mean(), abs=0.01)
    assert cost_split[:, 1].std() == pytest.approx(cost_one[:, 1].std(), rel=0.1)
    diff_split, diff_one = cost_split[:, 1] - cost_split[:, 0], cost_one[:, 1] - cost_one[:, 0]
    assert diff_split.mean() == pytest.approx((row_x - row_r).mean(), abs=0.01)
    assert diff_split.std() == pytest.approx(diff_one.std(), rel=0.1)  # the pairing is kept


def test_the_report_and_the_page_give_the_same_intervals():
    """recommend alone (the page) and build_audit with fairness rules (the report)."""
    from costlib.answers.audit import build_audit

    df = pd.read_csv(Path(__file__).resolve().parents[2] / "costlib" / "samples" / "compas.csv")
    fit = (df["split"] == "train").to_numpy()
    ms = D.sweep_model(df["two_year_recid"], df["p_recid"], df["race"], fit=fit, judge=~fit, name="m")
    page = D.recommend({"m": ms}, (1.0, 3.0), n_resamples=500)
    audit = build_audit(ms, (1.0, 3.0), n_resamples=500)
    assert (page.saving_low, page.saving_high) == (audit.recommendation.saving_low, audit.recommendation.saving_high)
    standard = page.results.overall.index
    pd.testing.assert_frame_equal(
        page.results.overall, audit.results.overall.loc[standard, page.results.overall.columns]
    )
