"""The exact fairness search reads each window's cheapest cost without building a table of
indices (`fair_search._ByRate`, issue 39): the same ranges, minima and chosen cutoffs as the
searchsorted calls and the `_RangeArgmin` table it replaced, and `_distinct` is ``np.unique``;
`fair_cutoffs` then gives the brute-force answer bit for bit."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from costlib.binary.fair_search import FAIRNESS_CRITERIA, _ByRate, _distinct, _RangeArgmin, _rates, fair_cutoffs
from costlib.core.prices import prices_for
from costlib.core.sweep import grouped_sweep

ONE_RATE = [c for c in FAIRNESS_CRITERIA if c != "equalized odds"]


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@st.composite
def rates_and_costs(draw):
    """(rate, cost) of one group: rising (a sweep's rates) or not (accuracy), with ties, and
    whole or real costs, sometimes a NaN (no order: read through `_RangeArgmin`)."""
    m = draw(st.integers(1, 200))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    rate = rng.integers(0, draw(st.integers(1, 40)), m) / 40.0
    if draw(st.booleans()):
        rate = np.sort(rate)
    cost = rng.integers(0, draw(st.integers(1, 10)), m).astype(float)
    if draw(st.booleans()):
        cost = cost * 0.1 + rng.random(m) * draw(st.sampled_from([0.0, 1e-15, 1.0]))
    if draw(st.integers(0, 9)) == 0:
        cost[rng.integers(0, m)] = np.nan
    return rate, cost


@given(rates_and_costs(), st.floats(0.0, 0.3), st.integers(0, 2**32 - 1))
def test_windows_minima_and_picks_are_the_range_argmin_tables(rc, tol, seed):
    rate, cost = rc
    rng = np.random.default_rng(seed)
    starts = _distinct([rate, rng.integers(0, 40, 5) / 40.0])  # every rate, and some more
    ends = starts + tol * (1 + 1e-12) + 1e-15
    by = _ByRate(rate, cost)
    order = np.argsort(rate, kind="stable")
    lo, hi = by.windows(starts, ends)
    np.testing.assert_array_equal(lo, np.searchsorted(rate[order], starts, side="left"))
    np.testing.assert_array_equal(hi, np.searchsorted(rate[order], ends, side="right"))
    best = _RangeArgmin(cost[order], order).query(lo, hi)
    ok = best >= 0
    np.testing.assert_array_equal(by.minima(lo, hi)[ok], cost[order][best[ok]])
    for s in np.flatnonzero(ok):
        assert by.argmin(int(lo[s]), int(hi[s])) == order[best[s]]


@given(st.lists(st.lists(st.sampled_from([0.0, 0.5, 1.0, 0.25, np.nan, 1e-300]), max_size=6), min_size=1, max_size=4))
def test_distinct_is_numpy_unique(runs):
    arrays = [np.sort(np.array(r, dtype=np.float64)) for r in runs]
    np.testing.assert_array_equal(_distinct(arrays), np.unique(np.concatenate(arrays)))


def brute_force(gs, prices, criterion: str, tol: float):
    """Every start (an achievable rate) tried; in each group every cutoff whose rate lies in
    [start, start + tol] (with the search's slack) looked at one by one: the cheapest, ties to
    the larger threshold; the first cheapest start. Returns (thresholds, rates, cost)."""
    parts = []
    for i, g in enumerate(gs.groups):
        sw = gs[g]
        parts.append((sw, _rates(sw, criterion), sw.errors_cost(prices.c_fp[i], prices.c_fn[i])))
    starts = np.unique(np.concatenate([p[1] for p in parts]))
    best_total, best_picks = np.inf, None
    for start in starts.tolist():
        end = start + tol * (1 + 1e-12) + 1e-15
        total, picks = 0.0, []
        for _sw, rate, cost in parts:
            inside = [j for j in range(rate.size) if start <= rate[j] <= end]
            if not inside:
                break
            j = min(inside, key=lambda k: (cost[k], k))
            total += cost[j]
            picks.append(j)
        else:
            if total < best_total:
                best_total, best_picks = total, picks
    n = sum(p[0].total for p in parts)
    thresholds = {g: float(p[0].thresholds[j]) for g, p, j in zip(gs.groups, parts, best_picks, strict=True)}
    rates = {g: float(p[1][j]) for g, p, j in zip(gs.groups, parts, best_picks, strict=True)}
    return thresholds, rates, best_total / n


@given(
    st.integers(20, 120),
    st.integers(1, 4),
    st.sampled_from(ONE_RATE),
    st.sampled_from([0.0, 0.05, 0.2]),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_fair_cutoffs_is_the_brute_force_answer(n, groups, criterion, tol, weighted, seed):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, groups, n)
    s = rng.integers(0, 15, n) / 15
    y = (rng.random(n) < 0.2 + 0.6 * s).astype(int)
    gs = grouped_sweep(y, s, g, sample_weight=rng.random(n) * 2 if weighted else None)
    prices = prices_for(gs.groups, (1.0, 2.5))
    fit = fair_cutoffs(gs, prices, criterion=criterion, tolerance=tol)
    if not np.isfinite(fit.cost):  # a group without the rate's denominator, or nothing feasible
        return
    thresholds, rates, cost = brute_force(gs, prices, criterion, tol)
    assert fit.thresholds == thresholds
    assert fit.rates == rates
    assert fit.cost == cost
