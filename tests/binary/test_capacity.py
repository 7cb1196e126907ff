"""Decisions under capacity, held against slow brute-force references written from the spec
("Decisions under capacity"): every candidate cutoff (and, per group, every combination of
cutoffs) is priced in Fractions, so that ties are exact and the tie rule (the larger
threshold) is checked, not approximated."""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import costlib
from costlib import DegenerateWarning

SCORES = st.sampled_from([-1.0, 0.0, 0.125, 0.25, 0.5, 0.75, 0.9, 1.0, 2.0])
CAPS = st.integers(0, 16).map(lambda i: i / 16)
PRICES = st.integers(0, 5)


@st.composite
def cases(draw, *, weights=True, groups=False, max_size=18):
    n = draw(st.integers(1, max_size))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    s = draw(st.lists(SCORES, min_size=n, max_size=n))
    w = (
        draw(st.lists(st.sampled_from([0, 1, 2, 3]), min_size=n, max_size=n))
        if weights and draw(st.booleans())
        else None
    )
    g = draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=n, max_size=n)) if groups else None
    return y, s, w, g


def candidates(y, s, w):
    """(threshold, flagged, fp, fn) of every cutoff: +inf and each distinct score of a row
    with weight, largest first (rows of weight 0 count as dropped)."""
    w = [1] * len(y) if w is None else w
    scores = sorted({si for si, wi in zip(s, w, strict=True) if wi > 0}, reverse=True)
    out = []
    for t in [math.inf, *scores]:
        flagged = sum(wi for si, wi in zip(s, w, strict=True) if si >= t)
        fp = sum(wi for yi, si, wi in zip(y, s, w, strict=True) if si >= t and yi == 0)
        fn = sum(wi for yi, si, wi in zip(y, s, w, strict=True) if si < t and yi == 1)
        out.append((t, flagged, fp, fn))
    return out, sum(w)


def brute_within(y, s, w, c_fp, c_fn, cap):
    """The cheapest cutoff flagging at most `cap` of the weight; ties to the larger threshold."""
    cands, total = candidates(y, s, w)
    best = None
    for t, flagged, fp, fn in cands:  # largest threshold first: a tie keeps the earlier
        if flagged > Fraction(cap) * total:
            continue
        cost = Fraction(fp * c_fp + fn * c_fn, total)
        if best is None or cost < best[1]:
            best = (t, cost)
    return best


def one_class(y, w):
    w = [1] * len(y) if w is None else w
    pos = sum(wi for yi, wi in zip(y, w, strict=True) if yi == 1)
    neg = sum(wi for yi, wi in zip(y, w, strict=True) if yi == 0)
    return pos == 0 or neg == 0


@settings(max_examples=300, deadline=None)
@given(cases(), PRICES, PRICES, CAPS)
def test_optimal_threshold_within_is_the_cheapest_cutoff_within_the_cap(data, c_fp, c_fn, cap):
    y, s, w, _ = data
    assume(sum(w or [1]) > 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        t, cost = costlib.optimal_threshold_within(y, s, c_fp=c_fp, c_fn=c_fn, max_flagged=cap, sample_weight=w)
    if one_class(y, w) and cap > 0:
        assert math.isnan(t) and math.isnan(cost)
        return
    want_t, want_cost = brute_within(y, s, w, c_fp, c_fn, cap)
    assert t == want_t
    assert cost == pytest.approx(float(want_cost), rel=1e-12, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(cases(), PRICES, PRICES)
def test_capacity_curve_is_the_cheapest_within_every_share(data, c_fp, c_fn):
    y, s, w, _ = data
    assume(sum(w or [1]) > 0 and not one_class(y, w))
    curve = costlib.capacity_curve(y, s, c_fp=c_fp, c_fn=c_fn, sample_weight=w)
    cands, total = candidates(y, s, w)
    shares = sorted({Fraction(f, total) for _, f, _, _ in cands})
    assert curve["flagged_share"].tolist() == pytest.approx([float(x) for x in shares], rel=1e-12)
    for row, share in zip(curve.itertuples(), shares, strict=True):
        want_t, want_cost = brute_within(y, s, w, c_fp, c_fn, share)
        assert row.threshold == want_t
        assert row.cost_per_case == pytest.approx(float(want_cost), rel=1e-12, abs=1e-12)
    costs = curve["cost_per_case"].to_numpy()
    assert (np.diff(costs) <= 1e-12).all(), "more capacity never costs more"


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.01, 100), st.floats(0.01, 100))
def test_without_a_binding_cap_it_is_the_unlimited_optimum(seed, c_fp, c_fn):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n) + 0.3 * y, int(rng.integers(1, 4)))  # ties at 1 to 3 decimals
    w = rng.random(n) if rng.random() < 0.5 else None
    assume(0 < y.sum() < n)
    assert costlib.optimal_threshold_within(
        y, s, c_fp=c_fp, c_fn=c_fn, max_flagged=1, sample_weight=w
    ) == costlib.optimal_threshold(y, s, c_fp=c_fp, c_fn=c_fn, sample_weight=w)
    curve = costlib.capacity_curve(y, s, c_fp=c_fp, c_fn=c_fn, sample_weight=w)
    t, cost = costlib.optimal_threshold(y, s, c_fp=c_fp, c_fn=c_fn, sample_weight=w)
    assert curve["threshold"].iloc[-1] == t and curve["cost_per_case"].iloc[-1] == cost
    assert (np.diff(curve["cost_per_case"].to_numpy()) <= 1e-12 * max(1.0, cost)).all()


def test_a_cap_of_zero_flags_nobody():
    y, s = [0, 1, 1, 0], [0.1, 0.9, 0.8, 0.2]
    assert costlib.optimal_threshold_within(y, s, c_fp=1, c_fn=3, max_flagged=0) == (math.inf, 1.5)


@pytest.mark.parametrize("bad", [-0.1, 1.5, "x", float("nan"), None, True])
def test_a_cap_that_is_not_a_share_is_refused(bad):
    with pytest.raises(ValueError, match="max_flagged"):
        costlib.optimal_threshold_within([0, 1], [0.1, 0.9], c_fp=1, c_fn=1, max_flagged=bad)
    with pytest.raises(ValueError, match="max_flagged"):
        costlib.optimal_cutoffs_within([0, 1], [0.1, 0.9], ["a", "a"], costs={"a": (1, 1)}, max_flagged=bad)


# ---------------------------------------------------------------------------------------
# One cutoff per group under one cap: the knapsack


def brute_groups(y, s, g, costs, cap):
    """(optimum, best single) total cost per case within the cap, over every combination of
    the groups' cutoffs and over one cutoff for everybody."""
    names = sorted(set(g))
    total = len(y)
    per = {}
    for name in names:
        rows = [i for i in range(total) if g[i] == name]
        per[name], _ = candidates([y[i] for i in rows], [s[i] for i in rows], None)
    best = None
    for combo in itertools.product(*(per[n] for n in names)):
        flagged = sum(c[1] for c in combo)
        if flagged > Fraction(cap) * total:
            continue
        cost = sum(Fraction(c[2] * costs[n][0] + c[3] * costs[n][1]) for n, c in zip(names, combo, strict=True))
        best = cost if best is None else min(best, cost)
    single = None
    for t in [math.inf, *sorted(set(s), reverse=True)]:
        flagged = sum(1 for si in s if si >= t)
        if flagged > Fraction(cap) * total:
            continue
        cost = sum(
            Fraction(costs[g[i]][0])
            if (s[i] >= t and y[i] == 0)
            else Fraction(costs[g[i]][1])
            if (s[i] < t and y[i] == 1)
            else 0
            for i in range(total)
        )
        single = cost if single is None else min(single, cost)
    return best / total, single / total


@settings(max_examples=250, deadline=None)
@given(
    cases(weights=False, groups=True, max_size=14), st.lists(st.tuples(PRICES, PRICES), min_size=3, max_size=3), CAPS
)
def test_per_group_cutoffs_within_a_cap_are_feasible_bounded_and_never_worse_than_one_cutoff(data, prices, cap):
    y, s, _, g = data
    costs = dict(zip(["a", "b", "c"], prices, strict=True))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        out = costlib.optimal_cutoffs_within(y, s, g, costs=costs, max_flagged=cap)
    optimum, single = brute_groups(y, s, g, costs, cap)
    n = len(y)
    assert out["flagged"].sum() <= cap + 1e-12, "the cutoffs fit the cap"
    got = out.attrs["cost_per_case"]
    # what the rows say the cutoffs cost, at each group's prices
    priced = sum(
        costs[g[i]][0] if (s[i] >= t and y[i] == 0) else costs[g[i]][1] if (s[i] < t and y[i] == 1) else 0
        for i in range(n)
        for t in [float(out.loc[out["group"] == g[i], "threshold"].iloc[0])]
    )
    assert got == pytest.approx(priced / n, rel=1e-12, abs=1e-12)
    assert got >= float(optimum) - 1e-12
    assert got <= float(single) + 1e-12, "never worse than the best single cutoff within the cap"
    assert got <= float(optimum) + out.attrs["gap"] + 1e-9, "the gap bounds the distance to the optimum"
    if out.attrs["proven"]:
        assert got == pytest.approx(float(optimum), rel=1e-9, abs=1e-12)


def test_a_cap_shared_by_two_groups_goes_where_it_saves_most():
    # group a: one very good case, then nothing; group b: two good cases that only fit together
    y = [1, 0, 1, 1, 0]
    s = [0.9, 0.1, 0.8, 0.7, 0.1]
    g = ["a", "a", "b", "b", "b"]
    costs = {"a": (1, 5), "b": (1, 5)}
    out = costlib.optimal_cutoffs_within(y, s, g, costs=costs, max_flagged=0.4)
    optimum, _ = brute_groups(y, s, g, costs, 0.4)
    assert out.attrs["cost_per_case"] == pytest.approx(float(optimum))
    assert out["flagged"].sum() <= 0.4 + 1e-12


# ---------------------------------------------------------------------------------------
# The recommendation within a cap: honest, against the best one can do without a model


def _rows(seed: int, n: int, *, signal: float, base_rate: float = 0.5, groups=("a",)):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < base_rate).astype(int)
    s = 1 / (1 + np.exp(-(signal * (2 * y - 1) + rng.normal(0, 1, n))))
    g = rng.choice(list(groups), n)
    return y, s.round(4), g


def test_capped_recommendation_ships_the_cutoff_of_optimal_threshold_within():
    from costlib.binary import decision as D
    from costlib.core import rules as R

    y, s, g = _rows(1, 3000, signal=1.5)
    ms = D.sweep_model(y, s)
    rec = D.recommend(ms, (1, 3), n_resamples=200, capacity=0.2)
    t, cost = costlib.optimal_threshold_within(y, s, c_fp=1, c_fn=3, max_flagged=0.2)
    assert rec.rule == R.SINGLE and rec.cutoffs["everyone"] == t
    assert rec.capacity == 0.2 and rec.ship_model
    assert (s >= t).mean() <= 0.2
    unlimited = D.recommend(ms, (1, 3), n_resamples=200)
    assert (s >= unlimited.cutoffs["everyone"]).mean() > 0.2, "the cap binds here"
    assert rec.cost > unlimited.cost  # a binding cap costs something
    # a fixed rule that flags more than the cap is never offered instead
    assert all(r not in (R.THRESHOLD_05, R.ELKAN) for r, *_ in rec.cheaper_by_chance)


def test_under_a_cap_no_signal_is_not_sold_as_a_saving_over_flagging_at_random():
    """Positives cost so much that flagging everyone is the cheaper choice without a model,
    but it does not fit the cap: flagging a random 30% saves against flagging nobody, and a
    model without signal does no better than that, so it must not ship."""
    from costlib.binary import decision as D
    from costlib.core import rules as R

    ships = 0
    for seed in range(20):
        y, s, _ = _rows(seed, 1500, signal=0.0, base_rate=0.4)
        rec = D.recommend(D.sweep_model(y, s), (1, 4), n_resamples=200, seed=seed, capacity=0.3)
        assert rec.baseline == R.AT_RANDOM
        nobody = rec.results.overall.loc[R.NOBODY, "cost_per_case"]
        assert rec.cost < nobody, "against flagging nobody the model would look like a saving"
        ships += rec.ship_model
    assert ships <= 1, ships


def test_under_a_cap_a_clear_signal_ships_against_flagging_at_random():
    from costlib.binary import decision as D
    from costlib.core import rules as R

    y, s, _ = _rows(3, 1500, signal=1.2, base_rate=0.4)
    rec = D.recommend(D.sweep_model(y, s), (1, 4), n_resamples=200, capacity=0.3)
    assert rec.baseline == R.AT_RANDOM and rec.ship_model
    random = rec.results.overall.loc[R.AT_RANDOM]
    assert random["flagged_rate"] == pytest.approx(0.3)
    assert random["cost_per_case"] == pytest.approx(0.7 * 4 * y.mean() + 0.3 * (1 - y.mean()))


def test_per_group_cutoffs_under_one_cap_share_it():
    from costlib.binary import decision as D
    from costlib.core import rules as R

    y, s, g = _rows(5, 4000, signal=1.0, groups=("a", "b", "c"))
    ms = D.sweep_model(y, s, g)
    costs = {"a": (1, 6), "b": (1, 2), "c": (1, 4)}
    rec = D.recommend(ms, costs, n_resamples=200, capacity=0.25)
    cut = rec.results.cutoffs[R.COST_OPTIMAL]
    flagged = sum(((s >= cut[name]) & (g == name)).sum() for name in ms.groups)
    assert flagged <= 0.25 * len(y)
    want = costlib.optimal_cutoffs_within(y, s, g, costs=costs, max_flagged=0.25)
    assert [cut[name] for name in want["group"]] == want["threshold"].tolist()
    assert rec.capacity_gap == (want.attrs["gap"] if rec.rule == R.COST_OPTIMAL else 0.0)


@pytest.mark.parametrize("cap", [0.1, 0.25, 0.4])
def test_a_refit_repeats_the_capped_fit_it_judges(cap):
    """On a "resample" that draws every row once, the refit bootstrap's per-group cutoffs under
    the cap cost what the shipped ones (`fitted_within`) cost: the interval is about the same
    procedure (every distinct score is a cell here, so nothing is lost to cells)."""
    from costlib.binary import decision as D
    from costlib.binary.capacity import fitted_within
    from costlib.binary.folds import own_cutoff
    from costlib.binary.refits import MAX_CELLS, RefitDraws, _cumulate, cell_counts, cell_edges, price_refits

    rng = np.random.default_rng(11)
    n = 1200
    g = rng.choice(["a", "b", "c"], n)
    y = rng.integers(0, 2, n)
    strength = np.select([g == "a", g == "b"], [2.5, 0.3], 1.0)
    s = np.round(1 / (1 + np.exp(-(strength * (2 * y - 1) + rng.normal(0, 1, n)))), 2)  # < 100 distinct scores
    ms = D.sweep_model(y, s, g)
    prices = D.prices_for(ms.groups, {"a": (1.0, 3.0), "b": (1.0, 5.0), "c": (2.0, 4.0)})
    edges = cell_edges(ms.fit_pooled, MAX_CELLS)
    assert edges.size == ms.fit_pooled.thresholds.size + 1  # every distinct score is a cell
    pos, neg = cell_counts(ms.fit, edges)
    tp, fp = _cumulate(pos[None], neg[None])
    draws = RefitDraws(edges, tp, fp, tp, fp)
    refit = price_refits(draws, prices, cap)
    own = own_cutoff(ms.fit.positives, ms.fit.negatives)
    _, per_group, cut = fitted_within(ms, prices, cap, own)
    shipped = D.count_rules(ms.fit, {"x": per_group}).cost(prices).sum() / n
    assert refit.per_group[0] == pytest.approx(shipped, rel=1e-9)
    assert cut.cost / n == pytest.approx(shipped, rel=1e-9)


def test_no_cases_give_an_empty_answer_with_a_warning():
    with pytest.warns(DegenerateWarning):
        out = costlib.optimal_cutoffs_within([], [], [], costs={}, max_flagged=0.5)
    assert out.empty and list(out.columns) == ["group", "threshold", "flagged", "cost_per_case"]
    assert math.isnan(out.attrs["cost_per_case"])
