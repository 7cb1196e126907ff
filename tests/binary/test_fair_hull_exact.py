"""The lower hull of the randomised fairness search (`fair_random._lower_hull`, issue 39) is
the same list of indices as the loop it replaced, kept here as the reference: on sweeps of
whole counts, weighted sweeps, points with many exact ties and near-collinear points, where
floating-point rounding decides which collinear points the test ``<= 0`` drops.

The reference is the loop of costlib at 781d63d, word for word: its test on NumPy scalars. An
exact hull (rational arithmetic) differs from it on most sweeps of whole counts (collinear
lattice points), so only the same float operations in the same order can give its answer.
"""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from costlib.binary.fair_random import _lower_hull, _lowest_per_x, randomised_cutoffs
from costlib.core.prices import prices_for
from costlib.core.sweep import grouped_sweep

RATES = ("flagged rate", "true positive rate", "false positive rate", "accuracy")


def reference_lower_hull(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """`_lower_hull` as it was: a loop over the points on NumPy scalars."""
    order = np.lexsort((y, x))
    hull: list[int] = []
    for i in order:
        if hull and x[hull[-1]] == x[i]:
            continue
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (x[b] - x[a]) * (y[i] - y[a]) - (y[b] - y[a]) * (x[i] - x[a]) <= 0:
                hull.pop()
            else:
                break
        hull.append(int(i))
    return np.array(hull, dtype=np.int64)


@st.composite
def sweeps(draw):
    """A one-group sweep of random labels, scores with ties (few distinct values) or without,
    whole-count or real weights, and the (rate, cost) points the search reads off it."""
    n = draw(st.integers(1, 300))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    levels = draw(st.sampled_from([2, 5, 30, 0]))  # 0: distinct float scores
    s = rng.random(n) if levels == 0 else rng.integers(0, levels, n) / levels
    y = (rng.random(n) < draw(st.floats(0.0, 1.0)) * s + draw(st.floats(0.0, 0.5))).astype(int)
    weights = draw(st.sampled_from(["none", "whole", "real"]))
    w = None if weights == "none" else rng.integers(0, 4, n) if weights == "whole" else rng.random(n) * 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sw = grouped_sweep(y, s, np.zeros(n), sample_weight=w)[0]
        rate = sw.rate(draw(st.sampled_from(RATES)))
    whole_prices = draw(st.booleans())
    c_fp = draw(st.integers(0, 9)) if whole_prices else draw(st.floats(0.0, 10.0))
    c_fn = draw(st.integers(0, 9)) if whole_prices else draw(st.floats(0.0, 10.0))
    return rate, sw.errors_cost(c_fp, c_fn)


@given(sweeps())
def test_the_hull_of_a_sweep_is_the_reference_loops(points):
    rate, cost = points
    if not np.isfinite(rate).all():  # a rate without a denominator: the search stops before the hull
        return
    np.testing.assert_array_equal(_lower_hull(rate, cost), reference_lower_hull(rate, cost))


@given(
    st.integers(1, 400),
    st.integers(1, 12),
    st.integers(1, 1000),
    st.sampled_from([1.0, 0.1, 3.7, 1e-3]),
    st.integers(0, 2**32 - 1),
)
def test_the_hull_of_lattice_points_in_any_order_is_the_reference_loops(n, spread, total, price, seed):
    """Points (i / total, j * price) of a small lattice, shuffled, repeated and tied in x and
    in y: collinear in exact arithmetic, so rounding decides the test."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, spread * 4, n) / total
    y = rng.integers(-spread, spread + 1, n) * price
    np.testing.assert_array_equal(_lower_hull(x, y), reference_lower_hull(x, y))


@given(st.integers(2, 400), st.integers(0, 2**32 - 1), st.sampled_from([0.0, 1e-16, 1e-9]))
def test_the_hull_of_near_collinear_floats_is_the_reference_loops(n, seed, jitter):
    """Points on a few lines, moved by a relative `jitter` (0: on them, up to rounding)."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.random(n))
    slope = rng.choice([-2.0, 0.5, 3.0], n)
    y = slope * x * (1 + jitter * rng.standard_normal(n)) + rng.choice([0.0, 0.25], n)
    np.testing.assert_array_equal(_lower_hull(x, y), reference_lower_hull(x, y))


def test_the_hull_drops_a_point_on_a_chord():
    """A worked example: (0, 4), (1, 2), (2, 1), (3, 1), (4, 3) has slopes -2, -1, 0, 2, rising:
    every point is a corner. With (1, 2.5) instead, the first two slopes are (2.5 - 4) / 1 =
    -1.5 and (1 - 2.5) / 1 = -1.5: (1, 2.5) lies on the chord from (0, 4) to (2, 1), dropped."""
    x = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    y = np.array([4.0, 2.0, 1.0, 1.0, 3.0])
    assert _lower_hull(x, y).tolist() == [0, 1, 2, 3, 4]
    y[1] = 2.5
    assert _lower_hull(x, y).tolist() == [0, 2, 3, 4]


def test_randomised_cutoffs_read_the_same_hull(monkeypatch):
    """End to end on sweeps of whole counts with ties: the randomised rule is the one the
    reference hull gives (`fair_random._lower_hull` swapped for the reference)."""
    import costlib.binary.fair_random as FR

    rng = np.random.default_rng(7)
    n = 3000
    g = rng.integers(0, 3, n)
    s = rng.integers(0, 400, n) / 400
    y = (rng.random(n) < 0.2 + 0.5 * s).astype(int)
    gs = grouped_sweep(y, s, g)
    prices = prices_for(gs.groups, (1, 4))
    for criterion in ("demographic parity", "equal opportunity", "equal accuracy"):
        now = randomised_cutoffs(gs, prices, criterion=criterion, tolerance=0.01)
        with monkeypatch.context() as m:
            m.setattr(FR, "_lower_hull", reference_lower_hull)
            before = randomised_cutoffs(gs, prices, criterion=criterion, tolerance=0.01)
        assert now == before


@given(st.integers(1, 300), st.integers(1, 20), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_the_hull_of_rising_x_with_ties_is_the_reference_loops(n, xs, ys, seed):
    """x never falls (a sweep's rate, with steps of no weight) and repeats, y ties within a
    run of one x: the first lowest y of each x stands for it, as after ``np.lexsort``."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.integers(0, xs, n)) / xs
    y = rng.integers(0, ys, n) * 0.3
    order = np.lexsort((y, x))
    first = order[np.concatenate(([True], x[order][1:] != x[order][:-1]))]
    np.testing.assert_array_equal(_lowest_per_x(x, y), first)
    np.testing.assert_array_equal(_lower_hull(x, y), reference_lower_hull(x, y))
