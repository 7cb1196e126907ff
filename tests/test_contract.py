"""The spec's worked example, other hand-computed examples, the identities the spec states,
and the package's doctests.

Every expected number below was worked out by hand from shared/spec/costlib.md; the
arithmetic is in the comments.
"""

from __future__ import annotations

import doctest
import importlib
import math
import pkgutil
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

import costlib
from costlib import DegenerateWarning

# The spec's worked example (rows numbered 1..6 in the comments, as in the spec).
Y = [0, 0, 1, 1, 0, 1]
P = [0.1, 0.4, 0.35, 0.8, 0.65, 0.9]


# --------------------------------------------------------------------------------------
# Worked example: binary costs
# --------------------------------------------------------------------------------------


def test_example_elkan_threshold():
    # c_fp / (c_fp + c_fn) = 1 / (1 + 3) = 0.25
    assert costlib.elkan_threshold(1, 3) == 0.25


def test_example_cost_at_elkan_threshold():
    # Flag p >= 0.25: rows 2..6 (0.4, 0.35, 0.8, 0.65, 0.9).
    # FP = 2 (rows 2 and 5: 0.4, 0.65), FN = 0 -> (2 * 1 + 0 * 3) / 6 = 2/6
    y_pred = [int(p >= 0.25) for p in P]
    assert y_pred == [0, 1, 1, 1, 1, 1]
    assert costlib.expected_cost(Y, y_pred, c_fp=1, c_fn=3) == pytest.approx(2 / 6)


def test_example_threshold_sweep():
    s = costlib.threshold_sweep(Y, P)
    # distinct scores descending, +inf first
    assert_array_equal(s.thresholds, [np.inf, 0.9, 0.8, 0.65, 0.4, 0.35, 0.1])
    # walking down: 0.9 (y=1) 0.8 (y=1) 0.65 (y=0) 0.4 (y=0) 0.35 (y=1) 0.1 (y=0)
    assert_array_equal(s.tp, [0, 1, 2, 2, 2, 3, 3])
    assert_array_equal(s.fp, [0, 0, 0, 1, 2, 2, 3])
    assert_array_equal(s.fn, [3, 2, 1, 1, 1, 0, 0])  # 3 positives - tp
    assert_array_equal(s.tn, [3, 3, 3, 2, 1, 1, 0])  # 3 negatives - fp


def test_example_cost_curve():
    thresholds, cost = costlib.cost_curve(Y, P, c_fp=1, c_fn=3)
    assert_array_equal(thresholds, [np.inf, 0.9, 0.8, 0.65, 0.4, 0.35, 0.1])
    # (fp * 1 + fn * 3) / 6 with fp, fn from the sweep above:
    # inf: 0 + 9 = 9; 0.9: 0 + 6 = 6; 0.8: 0 + 3 = 3; 0.65: 1 + 3 = 4;
    # 0.4: 2 + 3 = 5; 0.35: 2 + 0 = 2; 0.1: 3 + 0 = 3
    assert_allclose(cost, np.array([9, 6, 3, 4, 5, 2, 3]) / 6, rtol=1e-12)


def test_example_optimal_threshold():
    # t = 0.25 and t = 0.35 flag the same rows (cost 2/6); 0.35 is the larger threshold
    # and is a distinct score, so the exact optimum is (0.35, 1/3).
    t, cost = costlib.optimal_threshold(Y, P, c_fp=1, c_fn=3)
    assert t == 0.35
    assert cost == pytest.approx(1 / 3)


def test_example_flag_nobody():
    # Nobody flagged: FN = 3 -> 3 * 3 / 6 = 1.5
    assert costlib.expected_cost(Y, [0] * 6, c_fp=1, c_fn=3) == pytest.approx(1.5)
    thresholds, cost = costlib.cost_curve(Y, P, c_fp=1, c_fn=3)
    assert thresholds[0] == np.inf
    assert cost[0] == pytest.approx(1.5)


# --------------------------------------------------------------------------------------
# Worked example: value of a selective classifier
# --------------------------------------------------------------------------------------


def test_example_value_threshold():
    # tau* = k / (k + 1) = 2 / 3
    assert costlib.value_threshold(2) == pytest.approx(2 / 3)
    assert costlib.value_threshold(0) == 0.0


def test_example_value_k2():
    # predictions (p >= 0.5): [0, 0, 0, 1, 1, 1]; truth [0, 0, 1, 1, 0, 1]
    # confidences max(p, 1 - p): [0.9, 0.6, 0.65, 0.8, 0.65, 0.9]
    # accepted at tau* = 2/3: rows 1, 4, 6 -- all correct
    # V = (3 * 1 - 2 * 0 + 3 * 0) / 6 = 0.5; reject rate 3/6 = 0.5; accepted accuracy 3/3
    r = costlib.value_score(Y, P, k=2)
    assert r.value == pytest.approx(0.5)
    assert r.reject_rate == pytest.approx(0.5)
    assert r.accepted_accuracy == pytest.approx(1.0)


def test_example_value_with_reject_value():
    # V = rho * reject_value + (1 - rho) * (alpha - k (1 - alpha))
    #   = 0.5 * 0.25 + 0.5 * (1 - 0) = 0.625
    r = costlib.value_score(Y, P, k=2, reject_value=0.25)
    assert r.value == pytest.approx(0.625)


def test_example_value_at_explicit_tau():
    # tau = 0.6 accepts every row (smallest confidence is 0.6): correct rows 1, 2, 4, 6
    # wrong rows 3, 5 -> V = (4 - 2 * 2) / 6 = 0
    r = costlib.value_score(Y, P, k=2, tau=0.6)
    assert r.value == pytest.approx(0.0)
    assert r.reject_rate == pytest.approx(0.0)
    assert r.accepted_accuracy == pytest.approx(4 / 6)


def test_example_value_curve():
    taus, values = costlib.value_curve(Y, P, k=2)
    # distinct confidences descending: 0.9 (rows 1, 6), 0.8 (row 4), 0.65 (rows 3, 5),
    # 0.6 (row 2); correct = [T, T, F, T, F, T]
    assert_allclose(taus, [np.inf, 0.9, 0.8, 0.65, 0.6], rtol=1e-12)
    # inf: nothing accepted -> 0
    # 0.9: C = 2, W = 0 -> 2/6
    # 0.8: C = 3, W = 0 -> 3/6
    # 0.65: C = 3, W = 2 -> (3 - 4)/6 = -1/6
    # 0.6: C = 4, W = 2 -> (4 - 4)/6 = 0
    assert_allclose(values, [0, 2 / 6, 3 / 6, -1 / 6, 0], rtol=1e-12, atol=1e-15)


def test_example_optimal_value():
    # from the curve above: the best is 3/6 at tau = 0.8
    tau, value = costlib.optimal_value(Y, P, k=2)
    assert tau == 0.8
    assert value == pytest.approx(0.5)
    # reject_value 0.6: V = (C - 2 W + 0.6 R) / 6
    # inf: 3.6/6; 0.9: (2 + 2.4)/6; 0.8: (3 + 1.8)/6 = 0.8; 0.65: (3 - 4 + 0.6)/6; 0.6: 0
    tau, value = costlib.optimal_value(Y, P, k=2, reject_value=0.6)
    assert tau == 0.8
    assert value == pytest.approx(0.8)


def test_example_value_against_k():
    df = costlib.value_against_k(Y, P, [0, 1, 5])
    opt = df[df["rule"] == "optimal"].reset_index(drop=True)
    star = df[df["rule"] == "tau*"].reset_index(drop=True)
    none = df[df["rule"] == "no model"].reset_index(drop=True)
    # "optimal" at k = 0: every accepted answer helps: accept all, C = 4 -> 4/6
    # at k = 1: (C - W)/6 over the curve = 0, 2/6, 3/6, 1/6, 2/6 -> 3/6 at tau 0.8
    # at k = 5: 0, 2/6, 3/6, -7/6, -6/6 -> 3/6 at tau 0.8
    assert_allclose(opt["value"], [4 / 6, 3 / 6, 3 / 6], rtol=1e-12)
    assert_allclose(opt["tau"], [0.6, 0.8, 0.8], rtol=1e-12)
    # "tau*": k = 0 -> tau 0 accepts all (4/6); k = 1 -> tau 0.5 accepts all: (4 - 2)/6;
    # k = 5 -> tau 5/6 accepts the two 0.9 rows: 2/6
    assert_allclose(star["value"], [4 / 6, 2 / 6, 2 / 6], rtol=1e-12)
    assert_allclose(none["value"], [0, 0, 0])
    assert np.all(np.isinf(none["tau"]))


def test_example_cost_sensitive_value():
    # k_tp = 2, k_fp = 1, k_fn = 3: tau_pos = 1 / (2 + 1) = 1/3, tau_neg = 3 / (1 + 3) = 3/4
    assert costlib.class_thresholds(k_tp=2, k_fp=1, k_fn=3) == pytest.approx((1 / 3, 0.75))
    # "paper": p >= 0.5 -> rows 4 (0.8, TP), 5 (0.65, FP), 6 (0.9, TP), all >= 1/3: accepted
    # p < 0.5: row 1 (1 - 0.1 = 0.9 >= 0.75: TN accepted), rows 2, 3 (0.6, 0.65 < 0.75) rejected
    # V = (2 * 2 + 1 * 1 - 1 * 1 - 3 * 0) / 6 = 4/6; reject rate 2/6
    r = costlib.cost_sensitive_value(Y, P, k_tp=2, k_fp=1, k_fn=3, rule="paper")
    assert r.value == pytest.approx(4 / 6)
    assert r.reject_rate == pytest.approx(2 / 6)
    # "bayes": EV(pos) = 2p - (1 - p) = 3p - 1; EV(neg) = (1 - p) - 3p = 1 - 4p
    # row 1 p=0.1: pos -0.7, neg 0.6 -> neg, y=0: +1
    # row 2 p=0.4: pos 0.2, neg -0.6 -> pos, y=0: -1
    # row 3 p=0.35: pos 0.05, neg -0.4 -> pos, y=1: +2
    # rows 4, 5, 6 (0.8, 0.65, 0.9): pos; y = 1, 0, 1: +2, -1, +2
    # V = (1 - 1 + 2 + 2 - 1 + 2) / 6 = 5/6; nothing rejected
    r = costlib.cost_sensitive_value(Y, P, k_tp=2, k_fp=1, k_fn=3, rule="bayes")
    assert r.value == pytest.approx(5 / 6)
    assert r.reject_rate == 0.0


def test_example_cost_sensitive_error():
    # predictions [0, 0, 0, 1, 1, 1]: FN = row 3, FP = row 5 -> (3 * 1 + 1 * 1) / 6
    assert costlib.cost_sensitive_error(Y, [0, 0, 0, 1, 1, 1], k_fp=1, k_fn=3) == pytest.approx(4 / 6)


# --------------------------------------------------------------------------------------
# Worked example: groups and rules
# --------------------------------------------------------------------------------------


def test_example_group_costs():
    groups = ["a", "a", "a", "b", "b", "b"]
    # group a: y [0, 0, 1], p [0.1, 0.4, 0.35], prices (1, 3), cutoff 0.25
    #   flagged 0.4 and 0.35: flagged_rate 2/3, FP 1 (0.4), FN 0 -> 100 * 1 / 3
    # group b: y [1, 0, 1], p [0.8, 0.65, 0.9], prices (1, 2), cutoff 0.85
    #   flagged 0.9: flagged_rate 1/3, FP 0, FN 1 (0.8) -> 100 * 2 / 3
    df = costlib.group_costs(Y, P, groups, costs={"a": (1, 3), "b": (1, 2)}, thresholds={"a": 0.25, "b": 0.85})
    assert list(df.columns) == ["group", "n", "threshold", "flagged_rate", "fp", "fn", "cost_per_100"]
    assert list(df["group"]) == ["a", "b"]
    assert_array_equal(df["n"], [3, 3])
    assert_array_equal(df["threshold"], [0.25, 0.85])
    assert_allclose(df["flagged_rate"], [2 / 3, 1 / 3])
    assert_array_equal(df["fp"], [1, 0])
    assert_array_equal(df["fn"], [0, 1])
    assert_allclose(df["cost_per_100"], [100 / 3, 200 / 3])


def test_example_compare_rules_on_a_split():
    # train: rows 1-4 (y [0, 0, 1, 1], p [0.1, 0.4, 0.35, 0.8]); test: rows 5-6
    # (y [0, 1], p [0.65, 0.9]); one group, prices c_fp = 3, c_fn = 1.
    train = (Y[:4], P[:4], ["all"] * 4)
    test = (Y[4:], P[4:], ["all"] * 2)
    df = costlib.compare_rules(train, test, costs={"all": (3, 1)})
    assert list(df.columns) == ["rule", "group", "threshold", "flagged_rate", "cost_per_100"]
    assert list(df["rule"]) == ["threshold 0.5", "elkan", "cost-optimal", "flag nobody"]
    assert list(df["group"]) == ["all"] * 4
    # cost-optimal on train, cost (3 fp + fn) / 4:
    #   inf: 2/4; 0.8: fn 1 -> 1/4; 0.4: fp 1, fn 1 -> 4/4; 0.35: fp 1 -> 3/4; 0.1: fp 2 -> 6/4
    #   -> 0.8
    # elkan: 3 / (3 + 1) = 0.75
    assert_allclose(df["threshold"], [0.5, 0.75, 0.8, np.inf])
    # judged on test (0.65 is a negative, 0.9 a positive):
    #   0.5 flags both: FP 1 -> 100 * 3 / 2 = 150, flagged 2/2
    #   0.75 and 0.8 flag 0.9 only: no error -> 0, flagged 1/2
    #   flag nobody: FN 1 -> 100 * 1 / 2 = 50, flagged 0
    assert_allclose(df["flagged_rate"], [1.0, 0.5, 0.5, 0.0])
    assert_allclose(df["cost_per_100"], [150, 0, 0, 50])


# --------------------------------------------------------------------------------------
# Other hand-computed examples
# --------------------------------------------------------------------------------------


def test_expected_cost_matrix_by_hand():
    # N = [[5, 1], [2, 2]], C = [[0, 1], [4, 0]]: (1 * 1 + 2 * 4) / 10 = 0.9
    assert costlib.expected_cost_matrix([[5, 1], [2, 2]], [[0, 1], [4, 0]]) == pytest.approx(0.9)
    # 3 classes: N = [[2, 1, 0], [0, 3, 1], [1, 0, 2]], C = [[0, 1, 2], [1, 0, 1], [4, 2, 0]]
    # off-diagonal: 1 * 1 + 1 * 1 + 1 * 4 = 6 over 10 cases
    n = [[2, 1, 0], [0, 3, 1], [1, 0, 2]]
    c = [[0, 1, 2], [1, 0, 1], [4, 2, 0]]
    assert costlib.expected_cost_matrix(n, c) == pytest.approx(0.6)


def test_min_cost_decision_is_not_the_most_probable_class():
    # p = (0.7, 0.3), C = [[0, 1], [5, 0]]: deciding 0 costs 0.3 * 5 = 1.5,
    # deciding 1 costs 0.7 * 1 = 0.7 -> decide 1 although class 0 is more probable
    c = [[0, 1], [5, 0]]
    assert costlib.min_cost_decisions([[0.7, 0.3]], c).tolist() == [1]
    assert costlib.min_cost_decisions([0.3], c).tolist() == [1]  # 1-D is P(class 1)
    # abstain price 0.5: the cheapest answer (0.7) is not below 0.5 -> abstain
    assert costlib.min_cost_decisions([[0.7, 0.3]], c, abstain_cost=0.5).tolist() == [-1]
    # p = (0.75, 0.25): deciding 1 costs 0.75, deciding 0 costs 1.25; abstain price exactly
    # 0.75: the system answers only when strictly cheaper than h -> abstain
    assert costlib.min_cost_decisions([[0.75, 0.25]], c, abstain_cost=0.75).tolist() == [-1]
    assert costlib.min_cost_decisions([[0.7, 0.3]], c, abstain_cost=1).tolist() == [1]


def test_deltas_and_nec_by_hand():
    # ln((3 + 1) / (0 + 1)) = ln 4; ln(1 / 4); ln(2 / 2) = 0
    assert_allclose(costlib.delta_from_votes([3, 0, 1], [0, 3, 1]), [math.log(4), -math.log(4), 0.0], atol=1e-15)
    assert_allclose(costlib.delta_from_threshold([3.0, 5.5], 4), [-1.0, 1.5])
    assert_allclose(costlib.delta_from_rating([1, 5, 3], 3), [-2, 2, 0])
    # delta [2, -1, 0.5, -0.5] -> labels [1, 0, 1, 0]; y_pred [1, 1, 0, 0]
    # wrong: row 2 (|delta| 1) and row 3 (0.5): NEC = 1.5 / 4 = 0.375; error rate 2/4
    delta = [2, -1, 0.5, -0.5]
    assert costlib.normalized_excess_cost([1, 1, 0, 0], delta) == pytest.approx(0.375)
    assert costlib.error_rate([1, 1, 0, 0], delta) == pytest.approx(0.5)


def test_nec_curve_by_hand():
    # scores [0.9, 0.2, 0.6, 0.1], delta [2, -1, 0.5, -0.5]; total |delta| = 4
    # inf: flag none -> positives missed: 2 + 0.5 = 2.5 -> 0.625
    # 0.9: row 1 right -> missed 0.5 -> 0.125
    # 0.6: row 3 right -> 0
    # 0.2: row 2 wrongly flagged -> 1 / 4 = 0.25
    # 0.1: row 4 wrongly flagged too -> 1.5 / 4 = 0.375
    t, nec = costlib.nec_curve([0.9, 0.2, 0.6, 0.1], [2, -1, 0.5, -0.5])
    assert_array_equal(t, [np.inf, 0.9, 0.6, 0.2, 0.1])
    assert_allclose(nec, [0.625, 0.125, 0.0, 0.25, 0.375], atol=1e-15)


# --------------------------------------------------------------------------------------
# Identities the spec states
# --------------------------------------------------------------------------------------

EIGHTHS = st.integers(0, 8).map(lambda i: i / 8)


@st.composite
def binary_probs(draw, min_size=1, max_size=30):
    n = draw(st.integers(min_size, max_size))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    p = draw(st.lists(EIGHTHS | st.floats(0, 1), min_size=n, max_size=n))
    return y, p


@st.composite
def multiclass_probs(draw, min_size=1, max_size=30):
    n = draw(st.integers(min_size, max_size))
    k = draw(st.integers(2, 4))
    rows = []
    for _ in range(n):
        counts = draw(st.lists(st.integers(0, 4), min_size=k, max_size=k).filter(any))
        rows.append([c / sum(counts) for c in counts])
    y = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    return y, rows


def _accuracy_binary(y, p):
    return float(np.mean([(pi >= 0.5) == bool(yi) for yi, pi in zip(y, p, strict=True)]))


def _accuracy_multiclass(y, rows):
    # argmax with the lowest index on ties, written out
    hits = 0
    for yi, row in zip(y, rows, strict=True):
        best = 0
        for j in range(1, len(row)):
            if row[j] > row[best]:
                best = j
        hits += best == yi
    return hits / len(y)


@given(binary_probs())
def test_value_at_k0_is_accuracy_binary(data):
    y, p = data
    # k = 0: tau* = 0 accepts every answer; V = (C - 0 * W) / n = accuracy
    r = costlib.value_score(y, p, k=0)
    assert r.value == pytest.approx(_accuracy_binary(y, p), rel=1e-12, abs=1e-15)
    assert r.reject_rate == 0.0


@given(multiclass_probs())
def test_value_at_k0_is_accuracy_multiclass(data):
    y, rows = data
    r = costlib.value_score(y, rows, k=0, tau=0)
    assert r.value == pytest.approx(_accuracy_multiclass(y, rows), rel=1e-12, abs=1e-15)


@given(binary_probs())
def test_value_at_k1_binary_is_two_accuracy_minus_one(data):
    y, p = data
    # k = 1: tau* = 0.5 and max(p, 1 - p) >= 0.5 always: everything accepted
    # V = (C - W) / n = acc - (1 - acc) = 2 acc - 1
    r = costlib.value_score(y, p, k=1)
    assert r.reject_rate == 0.0
    assert r.value == pytest.approx(2 * _accuracy_binary(y, p) - 1, rel=1e-12, abs=1e-12)


@given(
    st.lists(st.integers(0, 1), min_size=1, max_size=30),
    st.floats(0.01, 100),
    st.data(),
)
def test_nec_equals_error_rate_when_all_deltas_have_equal_size(y_pred, size, data):
    signs = data.draw(st.lists(st.sampled_from([-1, 1]), min_size=len(y_pred), max_size=len(y_pred)))
    delta = [s * size for s in signs]
    nec = costlib.normalized_excess_cost(y_pred, delta)
    wrong = [int(p != (d > 0)) for p, d in zip(y_pred, delta, strict=True)]
    assert nec == pytest.approx(costlib.error_rate(y_pred, delta), rel=1e-12, abs=1e-15)
    assert nec == pytest.approx(sum(wrong) / len(wrong), rel=1e-12, abs=1e-15)


@given(st.data())
def test_compare_rules_flag_nobody_costs_c_fn_times_positive_share(data):
    groups_all = ["g1", "g2", "g3"]
    n = data.draw(st.integers(4, 30))
    y = data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    p = data.draw(st.lists(EIGHTHS, min_size=n, max_size=n))
    g = data.draw(st.lists(st.sampled_from(groups_all), min_size=n, max_size=n))
    costs = {name: (data.draw(st.integers(0, 5)), data.draw(st.integers(1, 5))) for name in groups_all}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)  # a train group may be one-class
        df = costlib.compare_rules((y, p, g), (y, p, g), costs=costs)
    nobody = df[df["rule"] == "flag nobody"].set_index("group")
    for name in sorted(set(g)):
        ys = [yi for yi, gi in zip(y, g, strict=True) if gi == name]
        share = sum(ys) / len(ys)
        assert nobody.loc[name, "cost_per_100"] == pytest.approx(100 * costs[name][1] * share)
        assert nobody.loc[name, "flagged_rate"] == 0.0
        assert nobody.loc[name, "threshold"] == np.inf


# "bayes" never loses to "paper" in expectation on calibrated scores


def _expected_value_per_case(p, prices, rule):
    """E[value] of one case with score p when its label is Bernoulli(p), through the API."""
    v1 = costlib.cost_sensitive_value([1], [p], **prices, rule=rule).value
    v0 = costlib.cost_sensitive_value([0], [p], **prices, rule=rule).value
    return p * v1 + (1 - p) * v0


@given(
    k_tp=st.integers(0, 6),
    k_fp=st.integers(1, 6),
    k_fn=st.integers(0, 6),
    p=st.integers(0, 64).map(lambda i: i / 64),
)
def test_bayes_is_never_worse_than_paper_in_expectation_per_case(k_tp, k_fp, k_fn, p):
    prices = {"k_tp": k_tp, "k_fp": k_fp, "k_fn": k_fn}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        bayes = _expected_value_per_case(p, prices, "bayes")
        paper = _expected_value_per_case(p, prices, "paper")
    assert bayes >= paper - 1e-12


def test_bayes_beats_paper_on_simulated_calibrated_labels():
    rng = np.random.default_rng(20240611)
    n = 200_000
    grid = np.arange(65) / 64
    p = rng.choice(grid, size=n)
    y = (rng.random(n) < p).astype(int)  # labels drawn from the scores: calibrated
    prices = {"k_tp": 3, "k_fp": 1, "k_fn": 2}  # k_tp != 1: the two rules differ
    bayes = costlib.cost_sensitive_value(y, p, **prices, rule="bayes").value
    paper = costlib.cost_sensitive_value(y, p, **prices, rule="paper").value
    # exact expectation from p directly (per distinct p through the API, then averaged)
    e_case = {
        q: (_expected_value_per_case(q, prices, "bayes"), _expected_value_per_case(q, prices, "paper")) for q in grid
    }
    e_bayes = float(np.mean([e_case[q][0] for q in p]))
    e_paper = float(np.mean([e_case[q][1] for q in p]))
    assert e_bayes > e_paper + 0.01
    # one case's value lies in [-3, 3]: the sample means are within ~0.02 of expectation
    assert bayes == pytest.approx(e_bayes, abs=0.03)
    assert paper == pytest.approx(e_paper, abs=0.03)
    assert bayes - paper > 0.5 * (e_bayes - e_paper)
    # a hand-checked case: p = 0.4, k_tp = 3, k_fp = 1, k_fn = 1
    # paper: p < 0.5 and 1 - p = 0.6 >= tau_neg = 1/2 -> accept negative: E = 0.6 - 0.4 = 0.2
    # bayes: EV(pos) = 0.4 * 3 - 0.6 * 1 = 0.6 > EV(neg) = 0.2 -> positive: E = 0.6
    one = {"k_tp": 3, "k_fp": 1, "k_fn": 1}
    assert _expected_value_per_case(0.4, one, "paper") == pytest.approx(0.2)
    assert _expected_value_per_case(0.4, one, "bayes") == pytest.approx(0.6)


# Temperature scaling


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


@pytest.mark.parametrize("temperature", [0.5, 2.0])
def test_fit_temperature_recovers_binary_temperature(temperature):
    rng = np.random.default_rng(7)
    z = rng.normal(0.0, 2.5, size=40_000)
    reported = _sigmoid(z)  # the model's scores
    truth = _sigmoid(z / temperature)  # how likely the label really is
    y = (rng.random(z.size) < truth).astype(int)
    t_hat = costlib.fit_temperature(y, reported)
    assert t_hat == pytest.approx(temperature, rel=0.10)
    # rescaling by the fitted temperature recovers the true probabilities ...
    scaled = costlib.apply_temperature(reported, t_hat)
    assert np.max(np.abs(scaled - truth)) < 0.05
    # ... and leaves the ranking alone
    assert np.all(np.diff(scaled[np.argsort(reported)]) >= 0)


@pytest.mark.parametrize("temperature", [0.5, 2.0])
def test_fit_temperature_recovers_multiclass_temperature(temperature):
    rng = np.random.default_rng(11)
    z = rng.normal(0.0, 2.0, size=(30_000, 3))

    def softmax(a):
        e = np.exp(a - a.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    reported = softmax(z)
    truth = softmax(z / temperature)
    y = (rng.random((z.shape[0], 1)) > np.cumsum(truth, axis=1)).sum(axis=1)
    t_hat = costlib.fit_temperature(y, reported)
    assert t_hat == pytest.approx(temperature, rel=0.10)
    assert np.max(np.abs(costlib.apply_temperature(reported, t_hat) - truth)) < 0.05


def test_apply_temperature_by_hand():
    # p = 0.8: logit = ln 4; T = 2 -> ln 2 -> sigmoid = 2 / (2 + 1) = 2/3; p = 0.2 -> 1/3
    assert_allclose(costlib.apply_temperature([0.8, 0.2], 2), [2 / 3, 1 / 3], rtol=1e-9)
    # p = 2/3: logit = ln 2; T = 0.5 -> 2 ln 2 = ln 4 -> 4/5
    assert_allclose(costlib.apply_temperature([2 / 3], 0.5), [0.8], rtol=1e-9)
    # multiclass (0.8, 0.2): softmax(log p / 2) = (sqrt 0.8, sqrt 0.2) / sum = (2/3, 1/3)
    assert_allclose(costlib.apply_temperature([[0.8, 0.2]], 2), [[2 / 3, 1 / 3]], rtol=1e-9)
    # (0.5, 0.25, 0.25), T = 0.5: squares (0.25, 0.0625, 0.0625) / 0.375 = (2/3, 1/6, 1/6)
    assert_allclose(costlib.apply_temperature([[0.5, 0.25, 0.25]], 0.5), [[2 / 3, 1 / 6, 1 / 6]], rtol=1e-9)


# away from 0.5 by more than rounding: sigmoid(-1e-17) is 0.5 in floating point
NOT_HALF = st.floats(0, 1).filter(lambda q: abs(q - 0.5) > 1e-9)


@given(st.lists(st.tuples(st.integers(0, 1), EIGHTHS | NOT_HALF), min_size=1, max_size=30), st.floats(0.05, 20))
def test_temperature_keeps_binary_decisions_and_accuracy(rows, temperature):
    y = [r[0] for r in rows]
    p = np.array([r[1] for r in rows])
    scaled = costlib.apply_temperature(p, temperature)
    # p >= 0.5 iff logit(p) >= 0 iff logit(p) / T >= 0
    assert_array_equal(scaled >= 0.5, p >= 0.5)
    acc = costlib.value_score(y, p, k=0).value
    assert costlib.value_score(y, scaled, k=0).value == pytest.approx(acc, abs=1e-15)


@given(multiclass_probs(), st.floats(0.05, 20))
def test_temperature_keeps_multiclass_argmax(data, temperature):
    _, rows = data
    p = np.asarray(rows)
    scaled = costlib.apply_temperature(p, temperature)
    assert_allclose(scaled.sum(axis=1), 1.0, rtol=1e-12)
    top = p.max(axis=1, keepdims=True)
    # every class that was a top class is still a top class (up to rounding), and no other
    # class overtakes it
    stayed_top = np.isclose(scaled, scaled.max(axis=1, keepdims=True), rtol=1e-9, atol=0)
    assert_array_equal(stayed_top, p == top)


@given(st.lists(st.floats(1e-6, 1 - 1e-6), min_size=1, max_size=30))
def test_apply_temperature_one_is_identity(p):
    assert_allclose(costlib.apply_temperature(p, 1), p, rtol=1e-12, atol=0)


def test_apply_temperature_one_is_identity_multiclass():
    p = np.array([[0.2, 0.3, 0.5], [0.125, 0.375, 0.5], [1 / 3, 1 / 3, 1 / 3]])
    assert_allclose(costlib.apply_temperature(p, 1), p, rtol=1e-12, atol=0)


@pytest.mark.parametrize("temperature", [0.5, 1.0, 2.0])
def test_apply_temperature_keeps_certain_probabilities(temperature):
    # sigmoid(logit(0) / T) = sigmoid(-inf) = 0 and sigmoid(+inf) = 1 for every T > 0:
    # a certain answer stays certain (and T = 1 changes nothing at all).
    assert_array_equal(costlib.apply_temperature([0.0, 1.0, 0.5], temperature), [0.0, 1.0, 0.5])
    assert_array_equal(costlib.apply_temperature([[0.0, 1.0]], temperature), [[0.0, 1.0]])


# --------------------------------------------------------------------------------------
# Docstring examples
# --------------------------------------------------------------------------------------

MODULES = sorted(["costlib"] + [f"costlib.{m.name}" for m in pkgutil.iter_modules(costlib.__path__)])


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0


def test_doctests_exist():
    attempted = sum(doctest.testmod(importlib.import_module(name)).attempted for name in MODULES)
    assert attempted >= 5


def test_public_names_are_importable():
    for name in costlib.__all__:
        assert hasattr(costlib, name), name
