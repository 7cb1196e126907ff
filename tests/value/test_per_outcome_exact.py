"""The per-outcome thresholds of the Value page (`value.per_outcome`) against a brute force written
from its docstrings: each answer's threshold is tried at every distinct confidence of that answer's
rows and at inf (accept none); the pair with the best total worth wins, ties to accepting fewer
(the larger threshold, inf first). ``outcome_row_values`` is read row by row, and its sum at the
fitted thresholds is the brute force's best total.

Prices and the worth of a case handed over are multiples of 1/4, most probabilities multiples of
1/16 (so 0.5 and ties come up often), so every total is exact and the tie rule is tested exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from costlib.value.per_outcome import fit_outcome_thresholds, outcome_row_values

INF = math.inf
QUARTERS = st.integers(-8, 40).map(lambda i: i / 4)
PROB = st.one_of(st.integers(0, 16).map(lambda i: i / 16), st.floats(0.0, 1.0))


@st.composite
def priced_rows(draw, *, n_max=14):
    n = draw(st.integers(0, n_max))
    p = draw(st.lists(PROB, min_size=n, max_size=n))
    kind = draw(st.sampled_from(["mixed", "all positive", "all negative"]))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n)) if kind == "mixed" else [kind == "all positive"] * n
    prices = {
        "k_tp": draw(st.integers(0, 12).map(lambda i: i / 4)),
        "k_fp": draw(st.integers(0, 40).map(lambda i: i / 4)),
        "k_fn": draw(st.integers(0, 40).map(lambda i: i / 4)),
        "r": draw(st.integers(-4, 4).map(lambda i: i / 4)),
    }
    return np.array(y, dtype=bool), np.array(p, dtype=float), prices


def _row_value(y: bool, p: float, t_pos: float, t_neg: float, *, k_tp, k_fp, k_fn, r) -> tuple[float, bool]:
    """One row's worth and whether it is answered, read from the module's docstring."""
    positive = p >= 0.5
    confidence = p if positive else 1.0 - p
    if confidence < (t_pos if positive else t_neg):
        return r, False
    if positive:
        return (k_tp if y else -k_fp), True
    return (-k_fn if y else 1.0), True


def _total(y, p, t_pos, t_neg, prices) -> Fraction:
    return sum((Fraction(_row_value(a, b, t_pos, t_neg, **prices)[0]) for a, b in zip(y, p, strict=True)), Fraction(0))


def _candidates(conf) -> list[float]:
    """inf (accept none) first, then every distinct confidence from the largest: the order of the tie rule."""
    return [INF, *sorted({float(c) for c in conf}, reverse=True)]


def _brute_pair(y, p, prices) -> tuple[tuple[float, float], Fraction]:
    positive = p >= 0.5
    best, best_total = None, None
    for t_pos in _candidates(p[positive]):
        for t_neg in _candidates(1.0 - p[~positive]):
            total = _total(y, p, t_pos, t_neg, prices)
            if best_total is None or total > best_total:  # strictly better only: ties keep the larger (fewer)
                best, best_total = (t_pos, t_neg), total
    return best, best_total


@given(priced_rows())
def test_fitted_thresholds_are_the_best_pair_of_every_pair(data):
    y, p, prices = data
    (t_pos, t_neg), best_total = _brute_pair(y, p, prices)
    assert fit_outcome_thresholds(y, p, **prices) == (t_pos, t_neg)
    rows, accepted = outcome_row_values(y, p, t_pos, t_neg, **prices)
    assert Fraction(float(np.sum(rows))) == best_total  # the rows' worth summed is the brute force's best
    assert accepted.dtype == bool and accepted.shape == y.shape


@given(priced_rows(), st.data())
def test_row_values_read_row_by_row(data, draw):
    y, p, prices = data
    positive = p >= 0.5
    t_pos = draw.draw(st.sampled_from([-INF, *_candidates(p[positive])]))
    t_neg = draw.draw(st.sampled_from([-INF, *_candidates(1.0 - p[~positive])]))
    rows, accepted = outcome_row_values(y, p, t_pos, t_neg, **prices)
    want = [_row_value(a, b, t_pos, t_neg, **prices) for a, b in zip(y, p, strict=True)]
    assert rows.tolist() == [w for w, _ in want]
    assert accepted.tolist() == [a for _, a in want]


def test_the_edges_by_hand():
    prices = {"k_tp": 1.0, "k_fp": 1.0, "k_fn": 10.0, "r": 0.0}
    none = np.array([], dtype=float)
    assert fit_outcome_thresholds(none.astype(bool), none, **prices) == (INF, INF)
    # p exactly 0.5 is a positive answer of confidence 0.5: accepted from 0.5 when it pays
    assert fit_outcome_thresholds(np.array([True]), np.array([0.5]), **prices) == (0.5, INF)
    # a tie that pays nothing goes to accepting none: a right and a wrong positive at one confidence
    assert fit_outcome_thresholds(np.array([True, False]), np.array([0.7, 0.7]), **prices) == (INF, INF)
    # all one class: every negative answer is a false negative, never accepted; positives always
    y = np.ones(5, dtype=bool)
    p = np.array([0.1, 0.3, 0.5, 0.9, 0.9])
    assert fit_outcome_thresholds(y, p, **prices) == (0.5, INF)
    # ties in the scores: the level of three 0.8s is taken whole or not at all
    y = np.array([True, True, False, True, False])
    p = np.array([0.9, 0.8, 0.8, 0.8, 0.6])
    assert fit_outcome_thresholds(y, p, k_tp=1.0, k_fp=3.0, k_fn=1.0, r=0.0) == (0.9, INF)
    assert fit_outcome_thresholds(y, p, k_tp=1.0, k_fp=1.0, k_fn=1.0, r=0.0) == (0.8, INF)
