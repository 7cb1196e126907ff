"""Issue 39: at one price for everyone, a price move's cross-fit prices only the cutoffs that can
win (`folds._chains`: each fold's other folds' lower hull, price-free; `folds._windows`: the
cutoffs between the corners next to the cheapest), and picks exactly what pricing every cutoff
picks: every count and every deal's cost bit for bit against the fold-by-fold reference of
tests/binary/test_cross_fit_stacked.py, at exact ties, near ties and zero prices."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.binary import decision as D
from costlib.binary import folds as F
from costlib.core import sweep as S
from tests.binary.test_cross_fit_stacked import reference_repeated


def screening_like(n: int, seed: int, digits: int = 3):
    """`n` rows in three groups, scores rounded to `digits` decimals (many ties, many cutoffs)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(1 / (1 + np.exp(-(1.2 * (2 * y - 1) + rng.normal(0, 1.1, n)))), digits)
    g = rng.choice(np.array(["a", "b", "c"]), n, p=[0.5, 0.35, 0.15])
    return D.sweep_model(y, s, g)


def counted_pricing(monkeypatch) -> list:
    """Patch the cross-fit's pricing to count the cutoffs it prices; the list of their counts."""
    sizes = []
    real = F.mistakes_cost

    def counting(fp, fn, c_fp, c_fn):
        sizes.append(int(np.size(fp)))
        return real(fp, fn, c_fp, c_fn)

    monkeypatch.setattr(F, "mistakes_cost", counting)
    return sizes


def assert_same(got, ref, fitted, between):
    assert got.fitted == fitted
    for name in ("single", "per_group"):
        for c in ("tp", "fp", "fn", "splits"):
            np.testing.assert_array_equal(getattr(got, name)[c], ref[name][c], err_msg=f"{name} {c}")
    for c in ("pos", "neg"):  # the rows between the two rules' cutoffs (the extra saving's rows' variance)
        np.testing.assert_array_equal(got.between[c], between[c], err_msg=f"between {c}")


@pytest.mark.parametrize(
    "costs",
    [
        (1.0, 4.0),
        (1.0, 4.25),
        (0.1, 0.3),  # 3 * 0.1 is not 0.3: values a hair apart, within the tie tolerance
        (3.0, 7.0),  # whole prices on whole counts: exact ties between corners
        (1.0, 1.0),
        (0.0, 2.0),  # a false alarm is free: every cutoff that adds a negative only ties
        (5.0, 0.0),
        (7.3, 0.01),
    ],
)
def test_one_price_prices_only_the_cutoffs_that_can_win(costs, monkeypatch):
    ms = screening_like(20000, seed=3, digits=4)
    index = ms.pooled_index("fit")
    deals = F.dealt_folds(ms.fit, ms.fit_pooled, index, seed=0)
    k, r = F.deal_shape(ms.fit)
    p = D.prices_for(ms.groups, costs)
    ref, fitted, between = reference_repeated(ms.fit, ms.fit_pooled, index, deals, p)
    F.repeated_cross_fit(ms.fit, ms.fit_pooled, index, deals, p)  # the chains are made on the first move
    priced = counted_pricing(monkeypatch)
    got = F.repeated_cross_fit(ms.fit, ms.fit_pooled, index, deals, p)
    assert_same(got, ref, fitted, between)
    every = k * r * (ms.fit.thresholds.size + ms.fit_pooled.thresholds.size)  # pricing every cutoff of every fold
    assert sum(priced) < every / 5, (sum(priced), every)  # 8 to 14% at 20,000 rows; about 6% at 200,000


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(40, 1500),
    seed=st.integers(0, 10_000),
    digits=st.sampled_from([1, 2, 3]),
    c_fp=st.one_of(st.integers(0, 6).map(float), st.floats(0.001, 1e4)),
    c_fn=st.one_of(st.integers(0, 6).map(float), st.floats(0.001, 1e4)),
)
def test_windows_pick_what_every_cutoff_picks(n, seed, digits, c_fp, c_fn):
    ms = screening_like(n, seed, digits)
    index = ms.pooled_index("fit")
    deals = F.dealt_folds(ms.fit, ms.fit_pooled, index, seed=seed)
    p = D.prices_for(ms.groups, (c_fp, c_fn))
    with np.errstate(all="ignore"):
        ref, fitted, between = reference_repeated(ms.fit, ms.fit_pooled, index, deals, p)
        got = F.repeated_cross_fit(ms.fit, ms.fit_pooled, index, deals, p)
    assert_same(got, ref, fitted, between)
    assert F._chains(ms.fit, ms.fit_pooled, F._stacked(ms.fit, deals)) is not None  # priced on the windows


def test_a_wrong_hull_is_caught(monkeypatch):
    """A hull that misses corners fails the exact check: every cutoff is a corner, same picks."""
    ms = screening_like(3000, seed=5)
    index = ms.pooled_index("fit")
    deals = F.dealt_folds(ms.fit, ms.fit_pooled, index, seed=1)
    p = D.prices_for(ms.groups, (1.0, 3.5))
    ref, fitted, between = reference_repeated(ms.fit, ms.fit_pooled, index, deals, p)
    monkeypatch.setattr(F, "hull_of", lambda tp, fp: S.Hull(np.array([0]), np.zeros(0), np.zeros(0)))
    assert_same(F.repeated_cross_fit(ms.fit, ms.fit_pooled, index, deals, p), ref, fitted, between)
    chains = F._chains(ms.fit, ms.fit_pooled, F._stacked(ms.fit, deals))
    assert chains.pooled.shape[1] == ms.fit_pooled.thresholds.size


def test_the_dearest_value_decides_then_the_row_is_priced_everywhere():
    """`argbest`'s tie scale is the dearest value, which a window need not hold: when the dearest
    corner and the bound on every value pick differently, the row is priced everywhere.

    Position 1 (5.0) is the dearest, between the corners 0 and 3; the window about the cheapest
    corners (4 and 5) runs from 3 to 5. At the tie scale 5, 2 + 4e-12 ties with 2 (tolerance
    5e-12): position 4. At the dearest corner's 3.5 it would not (3.5e-12): position 5."""
    values = np.array([[3.0, 5.0, 4.0, 3.5, 2.0 + 4e-12, 2.0]])
    chain = np.array([[0, 3, 4, 5]])

    def value(at, rows):
        return values[rows[:, None], at]

    assert S.argbest(values)[0] == 4
    assert F._windows(value, chain, np.array([10.0]), (0, 6)).tolist() == [4]


def test_the_window_holds_every_value_that_ties_with_the_cheapest():
    """Corners that tie with the cheapest within the tie tolerance (3e-12 at the tie scale 3)
    widen the window: the first of them is `argbest`'s pick (ties go to the lowest position)."""
    values = np.array([[1.0 + 2.5e-12, 1.0 + 1.5e-12, 1.0, 2.0, 3.0]])
    chain = np.array([[0, 1, 2, 3, 4]])

    def value(at, rows):
        return values[rows[:, None], at]

    assert S.argbest(values)[0] == 0
    assert F._windows(value, chain, np.array([3.0]), (0, 5)).tolist() == [0]
