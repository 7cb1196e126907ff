"""Cross-fitting on the rows (`binary.row_crossfit`), held against a brute-force loop."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from costlib.binary import row_crossfit as X


def _median_pick(scores):
    """A rule picked on the fitting rows: flag iff the score is at least their median."""

    def pick(fit):
        t = float(np.median(scores[fit]))
        return lambda rows: scores[rows] >= t

    return pick


@given(st.integers(6, 60), st.integers(0, 10_000), st.integers(2, 5), st.integers(1, 3))
def test_cross_fit_judges_each_row_by_the_rule_picked_without_its_fold(n, seed, folds, deals):
    rng = np.random.default_rng(seed)
    labels = rng.random(n) < 0.4
    scores = rng.standard_normal(n)
    got = X.cross_fit(
        _median_pick(scores), labels, lambda rows, dec: (dec != labels[rows]).astype(float), folds=folds, deals=deals,
        seed=seed,
    )  # fmt: skip
    want = np.zeros((deals, n))
    for d in range(deals):
        fold = X.stratified_folds(labels, folds, np.random.default_rng([seed, d]))
        for i in range(n):
            others = fold != fold[i]
            t = np.median(scores[others])
            want[d, i] = float((scores[i] >= t) != labels[i])
    np.testing.assert_array_equal(got.deals, want)
    np.testing.assert_allclose(got.cost, want.mean(axis=0))


@given(st.integers(0, 10_000), st.integers(2, 7))
def test_folds_hold_each_label_evenly(seed, folds):
    labels = np.random.default_rng(seed).random(97) < 0.3
    f = X.stratified_folds(labels, folds, np.random.default_rng(seed))
    for value in (False, True):
        counts = np.bincount(f[labels == value], minlength=folds)
        assert counts.max() - counts.min() <= 1


def test_weighted_saving_by_hand_and_with_deals():
    # rows of weight 1, 3; the base costs 1 on both; two deals: the rule costs (1, 0) then (0, 0)
    cf = X.CrossFitted(np.array([0.5, 0.0]), np.array([[1.0, 0.0], [0.0, 0.0]]))
    saving, low, high = X.weighted_saving(np.array([1.0, 1.0]), cf, np.array([1.0, 3.0]))
    # diff (0.5, 1): saving (0.5 + 3) / 4 = 0.875; rows: (1 x -0.375)^2 + (3 x 0.125)^2 = 0.28125,
    # / 16 x 2 = 0.03515625; deals' savings 3/4 and 1, variance 0.03125
    assert saving == 0.875
    half = 1.959963984540054 * math.sqrt(0.03515625 + 0.03125)
    assert math.isclose(low, 0.875 - half) and math.isclose(high, 0.875 + half)
    one = X.CrossFitted(np.zeros(1), np.zeros((1, 1)))
    assert all(math.isnan(x) for x in X.weighted_saving(np.array([1.0]), one, np.ones(1)))


@given(st.integers(1, 80), st.integers(0, 10_000), st.booleans(), st.booleans())
def test_a_subsets_sweep_from_one_sort_is_the_sweep_of_its_rows(n, seed, ties, weighted):
    from costlib.core.sweep import sweep_arrays

    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    s = rng.integers(0, 6, n).astype(float) if ties else rng.standard_normal(n)
    s[rng.random(n) < 0.1] = -0.0 if ties else s[0]
    w = rng.exponential(1.0, n) * (rng.random(n) > 0.1) if weighted else None
    rows = rng.random(n) < 0.7
    got = X.SubsetSweeps(y, s, w).sweep(rows)
    want = sweep_arrays(y[rows], s[rows], None if w is None else w[rows])
    np.testing.assert_array_equal(got[0], want[0])
    assert [str(t) for t in got[0]] == [str(t) for t in want[0]]  # no -0.0 where the sort has 0.0
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got[2], want[2], rtol=1e-12, atol=1e-12)
    assert got[3] == pytest.approx(want[3]) and got[4] == pytest.approx(want[4])
