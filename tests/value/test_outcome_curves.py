"""The Value page's first chart at separate prices (`per_outcome.outcome_curves`): each answer's
threshold swept with the other held, exact against recomputing the rule's worth at each threshold
(`outcome_row_values`), and through the held pair's own worth."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from costlib.value.per_outcome import (
    OUTCOME_NEGATIVE,
    OUTCOME_POSITIVE,
    fit_outcome_thresholds,
    outcome_curves,
    outcome_row_values,
)

PROB = st.one_of(st.integers(0, 16).map(lambda i: i / 16), st.floats(0.0, 1.0))
HELD = st.one_of(st.just(math.inf), st.integers(8, 16).map(lambda i: i / 16), st.floats(0.0, 1.0))


@st.composite
def rows_and_pair(draw, n_max=16):
    n = draw(st.integers(1, n_max))
    p = np.array(draw(st.lists(PROB, min_size=n, max_size=n)), dtype=float)
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    prices = {
        "k_tp": draw(st.integers(0, 12).map(lambda i: i / 4)),
        "k_fp": draw(st.integers(0, 40).map(lambda i: i / 4)),
        "k_fn": draw(st.integers(0, 40).map(lambda i: i / 4)),
        "r": draw(st.integers(-4, 4).map(lambda i: i / 4)),
    }
    fitted = draw(st.booleans())
    pair = fit_outcome_thresholds(y, p, **prices) if fitted else (draw(HELD), draw(HELD))
    return y, p, pair, prices


def _worth(y, p, t_pos, t_neg, prices) -> float:
    return float(outcome_row_values(y, p, t_pos, t_neg, **prices)[0].mean())


@given(rows_and_pair())
def test_each_point_is_the_rules_worth_recomputed_at_its_threshold(data):
    y, p, (t_pos, t_neg), prices = data
    curves = outcome_curves(y, p, t_pos, t_neg, **prices)
    positive = p >= 0.5
    for answer, conf, at in (
        (OUTCOME_POSITIVE, p[positive], lambda t: (t, t_neg)),
        (OUTCOME_NEGATIVE, 1.0 - p[~positive], lambda t: (t_pos, t)),
    ):
        part = curves[curves["answer"] == answer]
        # every distinct confidence of that answer's rows, ascending, then inf: no answer of it accepted
        assert part["threshold"].tolist() == [*sorted({float(c) for c in conf}), math.inf]
        for t, v in zip(part["threshold"], part["value"], strict=True):
            assert math.isclose(v, _worth(y, p, *at(t), prices), rel_tol=1e-9, abs_tol=1e-9), (answer, t)


@given(rows_and_pair())
def test_both_lines_pass_through_the_held_pairs_worth(data):
    y, p, (t_pos, t_neg), prices = data
    curves = outcome_curves(y, p, t_pos, t_neg, **prices)
    held = _worth(y, p, t_pos, t_neg, prices)
    for answer, tau in ((OUTCOME_POSITIVE, t_pos), (OUTCOME_NEGATIVE, t_neg)):
        part = curves[curves["answer"] == answer]
        # the first threshold at or above the held one accepts the same rows
        at = part[part["threshold"] >= tau]["value"].iloc[0]
        assert math.isclose(at, held, rel_tol=1e-9, abs_tol=1e-9)


def test_fitted_pair_is_each_lines_highest_point():
    rng = np.random.default_rng(3)
    p = rng.uniform(size=500)
    y = rng.uniform(size=500) < p
    prices = {"k_tp": 1.0, "k_fp": 1.0, "k_fn": 10.0, "r": 0.0}
    t_pos, t_neg = fit_outcome_thresholds(y, p, **prices)
    curves = outcome_curves(y, p, t_pos, t_neg, **prices)
    best = _worth(y, p, t_pos, t_neg, prices)
    assert math.isclose(curves["value"].max(), best)
    assert curves.groupby("answer")["value"].max().map(lambda v: math.isclose(v, best)).all()


def test_no_rows_no_curve():
    assert outcome_curves([], [], 0.6, 0.8, k_tp=1, k_fp=1, k_fn=3, r=0).empty
