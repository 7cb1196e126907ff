"""The kernel's chunked accumulation gives the same counts whatever the chunk size."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costlib
import costlib.binary.decision
from costlib.core import sweep as sweep_module
from costlib.core import thinning


def brute(y, s, w):
    keep = w > 0
    thresholds = np.concatenate(([np.inf], np.unique(s[keep])[::-1]))
    tp = np.array([w[(s >= t) & y].sum() for t in thresholds])
    fp = np.array([w[(s >= t) & ~y].sum() for t in thresholds])
    return thresholds, tp, fp


@settings(max_examples=80, deadline=None)
@given(
    rows=st.lists(st.tuples(st.booleans(), st.integers(0, 9), st.integers(0, 3)), min_size=0, max_size=60),
    chunk=st.sampled_from([1, 2, 3, 7, 64]),
    weighted=st.booleans(),
)
def test_chunk_size_does_not_change_the_sweep(rows, chunk, weighted):
    y = np.array([r[0] for r in rows], dtype=bool)
    s = np.array([r[1] / 9 for r in rows], dtype=float)
    w = np.array([r[2] for r in rows], dtype=float) if weighted else np.ones(len(rows))
    original = sweep_module.CHUNK
    sweep_module.CHUNK = chunk
    try:
        got = costlib.threshold_sweep(y, s, sample_weight=w if weighted else None)
    finally:
        sweep_module.CHUNK = original
    thresholds, tp, fp = brute(y, s, w)
    np.testing.assert_array_equal(got.thresholds, thresholds)
    np.testing.assert_allclose(got.tp, tp)
    np.testing.assert_allclose(got.fp, fp)


@pytest.mark.parametrize("share", [0.0, 0.1, 0.5, 0.9, 1.0])
def test_merge_by_rank_whichever_class_is_smaller(share):
    rng = np.random.default_rng(int(share * 10))
    s = np.round(rng.random(300), 2)
    y = rng.random(300) < share
    got = costlib.threshold_sweep(y, s)
    thresholds, tp, fp = brute(y, s, np.ones(300))
    np.testing.assert_array_equal(got.thresholds, thresholds)
    np.testing.assert_array_equal(got.tp, tp)
    np.testing.assert_array_equal(got.fp, fp)


@pytest.mark.filterwarnings("ignore::costlib.DegenerateWarning")  # tau = inf accepts nothing: legal
@settings(max_examples=60, deadline=None)
@given(
    fit=st.lists(st.tuples(st.booleans(), st.integers(0, 8)), min_size=1, max_size=30),
    judge=st.lists(st.tuples(st.booleans(), st.integers(0, 8)), min_size=1, max_size=30),
    reject=st.sampled_from([0.0, -0.5, 0.25]),
)
def test_value_against_k_fitted_on_other_rows_equals_value_at_their_best_tau(fit, judge, reject):
    from costlib.value import value_against_k, value_sweep

    yf, pf = np.array([r[0] for r in fit]), np.array([r[1] / 8 for r in fit])
    yj, pj = np.array([r[0] for r in judge]), np.array([r[1] / 8 for r in judge])
    ks = np.array([0.0, 0.5, 1.0, 3.0, 9.0])
    out = value_against_k(None, None, ks, reject_value=reject, sweep=value_sweep(yj, pj), fit_sweep=value_sweep(yf, pf))
    chosen = out[out["rule"] == "optimal"]
    for k, tau, value in zip(ks, chosen["tau"], chosen["value"], strict=True):
        _, best_fit = costlib.optimal_value(yf, pf, k=k, reject_value=reject)
        # the tau chosen is one of the best on the fitting rows ...
        assert costlib.value_score(yf, pf, k=k, tau=tau, reject_value=reject).value == pytest.approx(best_fit, abs=1e-9)
        # ... and the value shown is that tau's value on the judged rows
        want = costlib.value_score(yj, pj, k=k, tau=tau, reject_value=reject).value
        assert value == pytest.approx(want, abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(
    ys=st.lists(st.one_of(st.integers(-5, 5).map(float), st.just(float("nan"))), min_size=1, max_size=200),
    max_points=st.integers(4, 40),
)
def test_thin_index_keeps_every_bucket_ends_and_extremes(ys, max_points):
    y = np.array(ys)
    idx = thinning.thin_index(y, max_points)
    assert np.all(np.diff(idx) > 0) and idx[0] == 0 and idx[-1] == y.size - 1
    if y.size <= max_points:
        np.testing.assert_array_equal(idx, np.arange(y.size))
        return
    buckets = max_points // 4
    assert idx.size <= 4 * buckets
    size = -(-y.size // buckets)
    kept = set(idx.tolist())
    for a in range(0, y.size, size):
        part = y[a : a + size]
        assert {a, a + part.size - 1} <= kept
        finite = part[~np.isnan(part)]
        if finite.size:  # the bucket's lowest and highest values are drawn
            drawn = y[[i for i in idx if a <= i < a + size]]
            assert np.nanmin(drawn) == finite.min() and np.nanmax(drawn) == finite.max()


def test_thinned_cost_curves_are_rows_of_the_exact_ones_with_every_line_minimum():
    rng = np.random.default_rng(3)
    n = 20_000
    g = rng.choice(["a", "b", "c"], n)
    y = rng.random(n) < 0.3
    s = rng.random(n)
    ms = costlib.binary.decision.sweep_model(y, s, g)
    prices = costlib.binary.decision.prices_for(ms.groups, (1.0, 3.0))
    exact = costlib.binary.decision.cost_curves(ms, prices)
    thin = costlib.binary.decision.cost_curves(ms, prices, max_points=400)
    assert len(thin) < len(exact) / 10
    for line in [None, "a", "b", "c"]:
        e = exact[exact["line"].isna()] if line is None else exact[exact["line"] == line]
        t = thin[thin["line"].isna()] if line is None else thin[thin["line"] == line]
        # every stretch of x keeps at most four points, and flag nobody (+inf) is one of its own;
        # group lines are drawn thin behind: half as many
        assert len(t) <= (400 if line is None else 200) + 1
        merged = t.merge(e, on="threshold", suffixes=("", "_exact"), validate="one_to_one")
        assert len(merged) == len(t)
        np.testing.assert_array_equal(merged["cost_per_case"], merged["cost_per_case_exact"])
        np.testing.assert_array_equal(merged["flagged_rate"], merged["flagged_rate_exact"])
        assert t["cost_per_case"].min() == e["cost_per_case"].min()
        assert t["threshold"].iloc[0] == np.inf and t["threshold"].iloc[-1] == e["threshold"].iloc[-1]


@settings(max_examples=150, deadline=None)
@given(
    steps=st.lists(st.tuples(st.integers(1, 9).map(float), st.floats(0, 20, allow_nan=False)), min_size=1, max_size=60),
    weighted=st.booleans(),
)
def test_hull_slopes_are_scikit_learns_decreasing_isotonic_regression_bit_for_bit(steps, weighted):
    """`sweep.hull_slopes` (imported lazily, so that importing costlib loads no SciPy) is the
    weighted decreasing isotonic regression scikit-learn's `isotonic_regression` gave before."""
    from sklearn.isotonic import isotonic_regression

    da = np.array([w if weighted else 1.0 for w, _ in steps])
    dc = np.array([min(c, w if weighted else 1.0) for w, c in steps])  # a sweep's step gains at most its width
    got = sweep_module.hull_slopes(da, dc)
    want = isotonic_regression(dc / da, sample_weight=da, increasing=False)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    assert np.all(np.diff(got) <= 0)


@given(
    st.lists(st.floats(-1e6, 1e6) | st.just(float("nan")), min_size=1, max_size=300),
    st.integers(4, 60),
    st.booleans(),
    st.data(),
)
@settings(max_examples=300, deadline=None)
def test_thinning_by_x_keeps_every_columns_first_last_lowest_and_highest(ys, max_points, descending, data):
    """`thin_index(y, max_points, x=x)` against a loop over the pixel columns: for every run of
    points in one column (equal stretches of x), its first, last, lowest and highest are kept, and
    nothing else but what the consecutive buckets keep (tested above); a non-finite x is a column
    of its own."""
    from costlib.core.thinning import thin_index

    y = np.array(ys)
    n = y.size
    steps = data.draw(st.lists(st.floats(0, 10), min_size=n, max_size=n))
    x = np.cumsum(steps)[::-1] if descending else np.cumsum(steps)
    if data.draw(st.booleans()):
        x = np.r_[np.inf, x[1:]] if descending else x  # a sweep's first threshold: flag nobody
    got = thin_index(y, max_points, x=x)
    if n <= max_points:
        assert got.tolist() == list(range(n))
        return
    buckets = max_points // 4 - max_points // 16
    fin = np.isfinite(x)
    lo, hi = x[fin].min(), x[fin].max()
    width = (hi - lo) / buckets if hi > lo else 1.0
    column = [-1 if not np.isfinite(v) else min(int((v - lo) / width), buckets - 1) for v in x]
    want, i = set(), 0
    while i < n:
        j = i
        while j + 1 < n and column[j + 1] == column[i]:
            j += 1
        run = list(range(i, j + 1))
        want |= {i, j}
        finite = [k for k in run if not np.isnan(y[k])]
        if finite:
            want.add(min(finite, key=lambda k: (y[k], k)))
            want.add(min(finite, key=lambda k: (-y[k], k)))
        else:
            want.add(i)
        i = j + 1
    want |= set(thin_index(y, max(4, max_points // 4)).tolist())
    assert got.tolist() == sorted(want)


def test_a_far_out_score_does_not_squeeze_the_rest_of_the_curve_into_a_few_points():
    """100,000 scores in [0, 1] and one at 1,000: by stretches of x alone, all of [0, 1] is one
    or two columns (a handful of points); the consecutive buckets keep it drawn all along."""
    from costlib.core.thinning import thin_index

    rng = np.random.default_rng(3)
    x = np.r_[1000.0, np.sort(rng.uniform(0, 1, 100_000))[::-1]]  # a sweep's order: descending
    y = np.cumsum(rng.normal(size=x.size))
    got = thin_index(y, 2000, x=x)
    buckets = 2000 // 16  # a quarter of the budget, four points a bucket
    assert np.diff(got).max() <= -(-x.size // buckets)
    assert got.size <= 2000
