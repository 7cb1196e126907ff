"""Illegal input raises ValueError naming the argument and showing the value; degenerate but
legal input warns with DegenerateWarning and returns NaN, never an exception.

Messages are matched on the package's own constants, formatted with the values the spec says
the message must show.
"""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pandas as pd
import pytest

import costlib
from costlib import DegenerateWarning
from costlib.core import validation as v
from costlib.multiclass import MSG_NEGATIVE_MATRIX

Y = [0, 1, 1, 0]
S = [0.2, 0.7, 0.4, 0.9]
G = ["a", "a", "b", "b"]
COSTS = {"a": (1, 2), "b": (2, 1)}
CUT = {"a": 0.5, "b": 0.5}
P3 = [[0.5, 0.25, 0.25], [0.125, 0.375, 0.5]]
NAN, INF = math.nan, math.inf


def raises(fn, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        fn()


def length(a, b, na, nb):
    return v.MSG_LENGTH.format(a=a, b=b, na=na, nb=nb)


def nonfinite(name, count, index, value):
    return v.MSG_NONFINITE.format(name=name, count=count, index=index, value=value)


def negative(name, value):
    return v.MSG_NEGATIVE.format(name=name, value=value)


def price(name, value):
    return v.MSG_NOT_FINITE_PRICE.format(name=name, value=value)


def binary(name, values):
    return v.MSG_BINARY.format(name=name, values=values)


def ndim(name, shape):
    return v.MSG_NDIM.format(name=name, shape=shape)


def prob(name, lo, hi):
    return v.MSG_PROBABILITY.format(name=name, lo=lo, hi=hi)


# --------------------------------------------------------------------------------------
# Every ValueError path
# --------------------------------------------------------------------------------------

CASES = {
    # lengths differ
    "sweep lengths": (lambda: costlib.threshold_sweep([0, 1, 1], [0.1, 0.2]), length("y_true", "y_score", 3, 2)),
    "cost_curve lengths": (
        lambda: costlib.cost_curve([0, 1], [0.1, 0.2, 0.3], c_fp=1, c_fn=1),
        length("y_true", "y_score", 2, 3),
    ),
    "optimal_threshold lengths": (
        lambda: costlib.optimal_threshold([0, 1], [0.1], c_fp=1, c_fn=1),
        length("y_true", "y_score", 2, 1),
    ),
    "weight lengths": (
        lambda: costlib.threshold_sweep(Y, S, sample_weight=[1, 1]),
        length("y_true", "sample_weight", 4, 2),
    ),
    "group lengths": (
        lambda: costlib.group_costs(Y, S, ["a"], costs=COSTS, thresholds=CUT),
        length("y_true", "groups", 4, 1),
    ),
    "grouped_sweep lengths": (lambda: costlib.grouped_sweep(Y, S, ["a", "b"]), length("y_true", "groups", 4, 2)),
    "expected_cost lengths": (
        lambda: costlib.expected_cost([0, 1], [1], c_fp=1, c_fn=1),
        length("y_true", "y_pred", 2, 1),
    ),
    "value_score lengths": (
        lambda: costlib.value_score([0, 1], [0.1, 0.2, 0.3], k=1),
        length("y_true", "y_prob", 2, 3),
    ),
    "value_score 2-D lengths": (lambda: costlib.value_score([0, 1, 2], P3, k=1), length("y_true", "y_prob", 3, 2)),
    "cs_value lengths": (
        lambda: costlib.cost_sensitive_value([0, 1], [0.1], k_tp=1, k_fp=1, k_fn=1),
        length("y_true", "y_prob", 2, 1),
    ),
    "cs_error lengths": (
        lambda: costlib.cost_sensitive_error([0, 1], [0, 1, 1], k_fp=1, k_fn=1),
        length("y_true", "y_pred", 2, 3),
    ),
    "nec lengths": (lambda: costlib.normalized_excess_cost([0, 1], [1.0]), length("y_pred", "delta", 2, 1)),
    "error_rate lengths": (lambda: costlib.error_rate([0], [1.0, -1.0]), length("y_pred", "delta", 1, 2)),
    "nec_curve lengths": (lambda: costlib.nec_curve([0.1, 0.2], [1.0]), length("y_score", "delta", 2, 1)),
    "votes lengths": (lambda: costlib.delta_from_votes([1, 2], [1]), length("n_yes", "n_no", 2, 1)),
    "fit_temperature lengths": (
        lambda: costlib.fit_temperature([0, 1, 1], [0.2, 0.8]),
        length("y_true", "y_prob", 3, 2),
    ),
    # NaN and infinite scores
    "NaN score": (lambda: costlib.threshold_sweep(Y, [0.2, NAN, 0.4, 0.9]), nonfinite("y_score", 1, 1, NAN)),
    "inf score": (
        lambda: costlib.cost_curve(Y, [0.2, 0.7, INF, -INF], c_fp=1, c_fn=1),
        nonfinite("y_score", 2, 2, INF),
    ),
    "NaN score optimal_threshold": (
        lambda: costlib.optimal_threshold(Y, [NAN] * 4, c_fp=1, c_fn=1),
        nonfinite("y_score", 4, 0, NAN),
    ),
    "NaN score group_costs": (
        lambda: costlib.group_costs(Y, [0.2, 0.7, 0.4, NAN], G, costs=COSTS, thresholds=CUT),
        nonfinite("y_score", 1, 3, NAN),
    ),
    "NaN probability": (lambda: costlib.value_score(Y, [0.2, 0.7, NAN, 0.9], k=1), nonfinite("y_prob", 1, 2, NAN)),
    "NaN probability 2-D": (
        lambda: costlib.value_score([0, 1], [[0.5, 0.5], [NAN, 0.5]], k=1),
        nonfinite("y_prob", 1, (1, 0), NAN),
    ),
    "inf delta": (lambda: costlib.normalized_excess_cost([0, 1], [1.0, INF]), nonfinite("delta", 1, 1, INF)),
    "NaN weight": (
        lambda: costlib.threshold_sweep(Y, S, sample_weight=[1, NAN, 1, 1]),
        nonfinite("sample_weight", 1, 1, NAN),
    ),
    # probabilities outside [0, 1]
    "prob > 1 value_score": (lambda: costlib.value_score(Y, [0.2, 1.7, 0.4, 0.9], k=1), prob("y_prob", 0.2, 1.7)),
    "prob < 0 value_curve": (lambda: costlib.value_curve(Y, [-0.1, 0.7, 0.4, 0.9], k=1), prob("y_prob", -0.1, 0.9)),
    "prob optimal_value": (lambda: costlib.optimal_value(Y, [0.2, 0.7, 0.4, 2.0], k=1), prob("y_prob", 0.2, 2.0)),
    "prob value_against_k": (lambda: costlib.value_against_k(Y, [0.2, 0.7, 0.4, 2.0], [1]), prob("y_prob", 0.2, 2.0)),
    "prob 2-D": (lambda: costlib.value_score([0, 1], [[0.5, 0.5], [1.5, -0.5]], k=1), prob("y_prob", -0.5, 1.5)),
    "prob cs_value": (
        lambda: costlib.cost_sensitive_value(Y, [0.2, 0.7, 1.2, 0.9], k_tp=1, k_fp=1, k_fn=1),
        prob("y_prob", 0.2, 1.2),
    ),
    "prob min_cost": (lambda: costlib.min_cost_decisions([0.2, 1.2], [[0, 1], [1, 0]]), prob("y_prob", 0.2, 1.2)),
    "prob fit_temperature": (lambda: costlib.fit_temperature(Y, [0.2, 0.7, 1.2, 0.9]), prob("y_prob", 0.2, 1.2)),
    "prob apply_temperature": (lambda: costlib.apply_temperature([-0.5, 0.5], 2), prob("y_prob", -0.5, 0.5)),
    # negative prices
    "negative c_fp elkan": (lambda: costlib.elkan_threshold(-1, 3), negative("c_fp", -1)),
    "negative c_fn cost_curve": (lambda: costlib.cost_curve(Y, S, c_fp=1, c_fn=-2), negative("c_fn", -2)),
    "negative c_fp optimal": (lambda: costlib.optimal_threshold(Y, S, c_fp=-0.5, c_fn=1), negative("c_fp", -0.5)),
    "negative c_fn expected_cost": (lambda: costlib.expected_cost(Y, Y, c_fp=1, c_fn=-1), negative("c_fn", -1)),
    "negative k": (lambda: costlib.value_score(Y, S, k=-1), negative("k", -1)),
    "negative k threshold": (lambda: costlib.value_threshold(-2), negative("k", -2)),
    "negative ks": (lambda: costlib.value_against_k(Y, S, [1, -3]), negative("ks", -3.0)),
    "negative k_tp": (lambda: costlib.class_thresholds(k_tp=-1, k_fp=1, k_fn=1), negative("k_tp", -1)),
    "negative k_fn cs_value": (
        lambda: costlib.cost_sensitive_value(Y, S, k_tp=1, k_fp=1, k_fn=-4),
        negative("k_fn", -4),
    ),
    "negative k_fp cs_error": (lambda: costlib.cost_sensitive_error(Y, Y, k_fp=-1, k_fn=1), negative("k_fp", -1)),
    "negative abstain": (
        lambda: costlib.min_cost_decisions([0.5], [[0, 1], [1, 0]], abstain_cost=-1),
        negative("abstain_cost", -1),
    ),
    "negative group price": (
        lambda: costlib.group_costs(Y, S, G, costs={"a": (-1, 2), "b": (1, 1)}, thresholds=CUT),
        negative("costs['a'] c_fp", -1),
    ),
    "negative votes": (lambda: costlib.delta_from_votes([1, -2], [0, 0]), negative("n_yes", -2.0)),
    # NaN and infinite prices
    "NaN c_fp": (lambda: costlib.cost_curve(Y, S, c_fp=NAN, c_fn=1), price("c_fp", NAN)),
    "inf c_fn": (lambda: costlib.optimal_threshold(Y, S, c_fp=1, c_fn=INF), price("c_fn", INF)),
    "NaN k": (lambda: costlib.value_score(Y, S, k=NAN), price("k", NAN)),
    "NaN k_fp": (lambda: costlib.cost_sensitive_value(Y, S, k_tp=1, k_fp=NAN, k_fn=1), price("k_fp", NAN)),
    "NaN elkan": (lambda: costlib.elkan_threshold(1, NAN), price("c_fn", NAN)),
    "NaN group price": (
        lambda: costlib.group_costs(Y, S, G, costs={"a": (1, 2), "b": (1, NAN)}, thresholds=CUT),
        price("costs['b'] c_fn", NAN),
    ),
    "NaN cost matrix": (
        lambda: costlib.expected_cost_matrix([[1, 0], [0, 1]], [[0, NAN], [1, 0]]),
        price("cost_matrix[0, 1]", NAN),
    ),
    # labels that are not binary where binary is required
    "labels 0/1/2": (lambda: costlib.threshold_sweep([0, 1, 2, 1], S), binary("y_true", [2])),
    "labels -1": (lambda: costlib.cost_curve([0, 1, -1, 1], S, c_fp=1, c_fn=1), binary("y_true", [-1])),
    "labels value_score 1-D": (lambda: costlib.value_score([0, 1, 2, 1], S, k=1), binary("y_true", [2])),
    "labels words": (lambda: costlib.threshold_sweep(["no", "yes", "no", "yes"], S), binary("y_true", ["no", "yes"])),
    "labels cs_value": (
        lambda: costlib.cost_sensitive_value([0, 3, 1, 0], S, k_tp=1, k_fp=1, k_fn=1),
        binary("y_true", [3]),
    ),
    "labels group_costs": (
        lambda: costlib.group_costs([0, 1, 2, 0], S, G, costs=COSTS, thresholds=CUT),
        binary("y_true", [2]),
    ),
    "y_pred not binary": (lambda: costlib.expected_cost(Y, [0, 1, 2, 0], c_fp=1, c_fn=1), binary("y_pred", [2])),
    "y_pred not binary NEC": (lambda: costlib.normalized_excess_cost([0, 0.5], [1.0, -1.0]), binary("y_pred", [0.5])),
    "labels fit_temperature": (lambda: costlib.fit_temperature([0, 2, 1, 0], S), binary("y_true", [2])),
    # 2-D where 1-D is required
    "2-D scores": (lambda: costlib.threshold_sweep([0, 1], [[0.1, 0.9], [0.2, 0.8]]), ndim("y_score", (2, 2))),
    "2-D labels": (lambda: costlib.threshold_sweep([[0, 1], [1, 0]], [0.1, 0.2]), ndim("y_true", (2, 2))),
    "2-D weights": (
        lambda: costlib.threshold_sweep([0, 1], [0.1, 0.2], sample_weight=[[1, 1]]),
        ndim("sample_weight", (1, 2)),
    ),
    "2-D groups": (lambda: costlib.grouped_sweep([0, 1], [0.1, 0.2], [["a", "b"]]), ndim("groups", (1, 2))),
    "2-D cs_value": (
        lambda: costlib.cost_sensitive_value([0, 1], [[0.5, 0.5], [0.2, 0.8]], k_tp=1, k_fp=1, k_fn=1),
        ndim("y_prob", (2, 2)),
    ),
    "2-D delta": (lambda: costlib.normalized_excess_cost([0, 1], [[1.0, -1.0]]), ndim("delta", (1, 2))),
    "2-D ks": (lambda: costlib.value_against_k(Y, S, [[1, 2]]), ndim("ks", (1, 2))),
    "bad 2-D prob shape": (
        lambda: costlib.value_score([0, 1], [[0.5], [0.5]], k=1),
        v.MSG_SHAPE_2D.format(name="y_prob", shape=(2, 1)),
    ),
    "3-D prob": (
        lambda: costlib.value_score([0], [[[0.5, 0.5]]], k=1),
        v.MSG_SHAPE_2D.format(name="y_prob", shape=(1, 1, 2)),
    ),
    # bad class indices
    "class index too big": (
        lambda: costlib.value_score([0, 3], P3, k=1),
        v.MSG_CLASS_INDEX.format(name="y_true", kmax=2, values=[3]),
    ),
    "class index negative": (
        lambda: costlib.value_curve([-1, 0], P3, k=1),
        v.MSG_CLASS_INDEX.format(name="y_true", kmax=2, values=[-1]),
    ),
    "class index fractional": (
        lambda: costlib.optimal_value([0.5, 1], P3, k=1),
        v.MSG_CLASS_INDEX.format(name="y_true", kmax=2, values=[0.5]),
    ),
    "class index fit_temperature": (
        lambda: costlib.fit_temperature([0, 7], P3),
        v.MSG_CLASS_INDEX.format(name="y_true", kmax=2, values=[7]),
    ),
    # cost matrices
    "non-square cost matrix": (
        lambda: costlib.expected_cost_matrix([[1, 0], [0, 1]], [[0, 1, 2], [1, 0, 2]]),
        v.MSG_MATRIX.format(name="cost_matrix", other="confusion", k=2, shape=(2, 3)),
    ),
    "cost matrix of the wrong size": (
        lambda: costlib.min_cost_decisions(P3, [[0, 1], [1, 0]]),
        v.MSG_MATRIX.format(name="cost_matrix", other="y_prob", k=3, shape=(2, 2)),
    ),
    "non-square confusion": (
        lambda: costlib.expected_cost_matrix([[1, 0, 2]], [[0, 1], [1, 0]]),
        v.MSG_MATRIX.format(name="confusion", other="cost_matrix", k="?", shape=(1, 3)),
    ),
    "negative cost matrix entry": (
        lambda: costlib.expected_cost_matrix([[1, 0], [0, 1]], [[0, 1], [-2, 0]]),
        MSG_NEGATIVE_MATRIX.format(name="cost_matrix", value=-2.0, i=1, j=0),
    ),
    "negative cost matrix entry min_cost": (
        lambda: costlib.min_cost_decisions(P3, [[0, 1, 1], [1, 0, -0.5], [1, 1, 0]]),
        MSG_NEGATIVE_MATRIX.format(name="cost_matrix", value=-0.5, i=1, j=2),
    ),
    "negative confusion count": (
        lambda: costlib.expected_cost_matrix([[1, -1], [0, 1]], [[0, 1], [1, 0]]),
        MSG_NEGATIVE_MATRIX.format(name="confusion", value=-1.0, i=0, j=1),
    ),
    # negative weights
    "negative weight": (
        lambda: costlib.threshold_sweep(Y, S, sample_weight=[1, 2, -1, -3]),
        v.MSG_NEGATIVE_WEIGHT.format(name="sample_weight", count=2, index=2, value=-1.0),
    ),
    "negative weight cost_curve": (
        lambda: costlib.cost_curve(Y, S, c_fp=1, c_fn=1, sample_weight=[-0.5, 1, 1, 1]),
        v.MSG_NEGATIVE_WEIGHT.format(name="sample_weight", count=1, index=0, value=-0.5),
    ),
    # a group without prices or cutoff
    "missing group in costs": (
        lambda: costlib.group_costs(Y, S, G, costs={"a": (1, 1)}, thresholds=CUT),
        v.MSG_MISSING_GROUP.format(name="costs", group="b", present=["a", "b"]),
    ),
    "missing group in thresholds": (
        lambda: costlib.group_costs(Y, S, G, costs=COSTS, thresholds={"b": 0.5}),
        v.MSG_MISSING_GROUP.format(name="thresholds", group="a", present=["a", "b"]),
    ),
    "missing group in compare_rules": (
        lambda: costlib.compare_rules((Y, S, G), (Y, S, G), costs={"b": (1, 1)}),
        v.MSG_MISSING_GROUP.format(name="costs", group="a", present=["a", "b"]),
    ),
    # unknown rule name
    "unknown rule": (
        lambda: costlib.cost_sensitive_value(Y, S, k_tp=1, k_fp=1, k_fn=1, rule="bogus"),
        v.MSG_RULE.format(valid=["paper", "bayes"], value="bogus"),
    ),
    # non-positive temperature
    "zero temperature": (lambda: costlib.apply_temperature(S, 0), v.MSG_TEMPERATURE.format(value=0)),
    "negative temperature": (lambda: costlib.apply_temperature(S, -1.5), v.MSG_TEMPERATURE.format(value=-1.5)),
    "NaN temperature": (lambda: costlib.apply_temperature(P3, NAN), v.MSG_TEMPERATURE.format(value=NAN)),
    "inf temperature": (lambda: costlib.apply_temperature(S, INF), v.MSG_TEMPERATURE.format(value=INF)),
    # a cutoff that is not a number
    "NaN tau": (lambda: costlib.value_score(Y, S, k=1, tau=NAN), v.MSG_THRESHOLD.format(name="tau", value=NAN)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_illegal_input_raises_value_error_with_message(case):
    fn, message = CASES[case]
    raises(fn, message)


def test_messages_name_the_argument_and_show_the_value():
    # independent of the constants: the spec's own words
    with pytest.raises(ValueError) as err:
        costlib.value_score([0, 1], [0.3, 1.7], k=1)
    assert "y_prob" in str(err.value) and "1.7" in str(err.value)
    with pytest.raises(ValueError) as err:
        costlib.cost_curve([0, 1], [0.3, 0.5], c_fp=-4, c_fn=1)
    assert "c_fp" in str(err.value) and "-4" in str(err.value)
    with pytest.raises(ValueError) as err:
        costlib.threshold_sweep([0, 1, 2], [0.3, 0.5, 0.1])
    assert "y_true" in str(err.value) and "2" in str(err.value)
    with pytest.raises(ValueError) as err:
        costlib.threshold_sweep([0, 1, 1], [0.3, 0.5])
    assert "y_true" in str(err.value) and "y_score" in str(err.value)
    assert "3" in str(err.value) and "2" in str(err.value)


def test_pandas_inputs_are_validated_too():
    raises(
        lambda: costlib.threshold_sweep(pd.Series(Y), pd.Series([0.2, NAN, 0.4, 0.9])), nonfinite("y_score", 1, 1, NAN)
    )
    raises(lambda: costlib.value_score(pd.Series([0, 1, 2]), pd.Series([0.1, 0.2, 0.3]), k=1), binary("y_true", [2]))
    raises(lambda: costlib.value_score(np.array(Y), np.array([0.2, 1.7, 0.4, 0.9]), k=1), prob("y_prob", 0.2, 1.7))


def test_input_is_not_mutated_by_validation():
    y, s = np.array(Y), np.array(S)
    w = np.array([1.0, 0.0, 2.0, 1.0])
    y0, s0, w0 = y.copy(), s.copy(), w.copy()
    costlib.threshold_sweep(y, s, sample_weight=w)
    costlib.cost_curve(y, s, c_fp=1, c_fn=2, sample_weight=w)
    costlib.value_curve(y, s, k=1)
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(s, s0)
    np.testing.assert_array_equal(w, w0)


# --------------------------------------------------------------------------------------
# Degenerate but legal input: NaN and a DegenerateWarning, never an exception
# --------------------------------------------------------------------------------------


def test_one_class_in_optimal_threshold():
    with pytest.warns(DegenerateWarning):
        t, cost = costlib.optimal_threshold([1, 1, 1], [0.2, 0.5, 0.9], c_fp=1, c_fn=1)
    assert math.isnan(t) and math.isnan(cost)
    with pytest.warns(DegenerateWarning):
        t, cost = costlib.optimal_threshold([0, 0], [0.2, 0.5], c_fp=1, c_fn=1)
    assert math.isnan(t) and math.isnan(cost)
    # weight 0 on the only positive: one class left
    with pytest.warns(DegenerateWarning):
        t, _ = costlib.optimal_threshold([0, 1], [0.2, 0.5], c_fp=1, c_fn=1, sample_weight=[1, 0])
    assert math.isnan(t)


def test_one_class_group_gives_nan_cost_optimal_row():
    train = ([0, 1, 1, 1], [0.2, 0.7, 0.4, 0.9], ["a", "a", "b", "b"])  # group b: positives only
    with pytest.warns(DegenerateWarning):
        df = costlib.compare_rules(train, (Y, S, G), costs=COSTS)
    row = df[(df["rule"] == "cost-optimal") & (df["group"] == "b")].iloc[0]
    assert math.isnan(row["threshold"]) and math.isnan(row["cost_per_100"])
    other = df[(df["rule"] == "cost-optimal") & (df["group"] == "a")].iloc[0]
    assert not math.isnan(other["cost_per_100"])


def test_group_missing_from_train_gives_nan_cost_optimal_row():
    train = ([0, 1], [0.2, 0.7], ["a", "a"])
    with pytest.warns(DegenerateWarning):
        df = costlib.compare_rules(train, (Y, S, G), costs=COSTS)
    row = df[(df["rule"] == "cost-optimal") & (df["group"] == "b")].iloc[0]
    assert math.isnan(row["cost_per_100"])


def test_nothing_accepted():
    # confidences max(p, 1 - p) are 0.8, 0.7, 0.6, 0.9: none reaches tau = 0.95
    with pytest.warns(DegenerateWarning):
        r = costlib.value_score(Y, S, k=1, tau=0.95, reject_value=0.25)
    assert math.isnan(r.accepted_accuracy)
    assert r.reject_rate == 1.0
    assert r.value == pytest.approx(0.25)  # everything rejected: V = reject_value


def test_all_zero_delta():
    with pytest.warns(DegenerateWarning):
        assert math.isnan(costlib.normalized_excess_cost([0, 1], [0.0, 0.0]))
    with pytest.warns(DegenerateWarning):
        _, nec = costlib.nec_curve([0.1, 0.2], [0.0, -0.0])
    assert np.all(np.isnan(nec))


def test_empty_confusion():
    with pytest.warns(DegenerateWarning):
        assert math.isnan(costlib.expected_cost_matrix([[0, 0], [0, 0]], [[0, 1], [1, 0]]))


def test_zero_total_weight():
    with pytest.warns(DegenerateWarning):
        t, cost = costlib.cost_curve([0, 1], [0.2, 0.4], c_fp=1, c_fn=1, sample_weight=[0, 0])
    assert np.all(np.isnan(cost))
    assert list(t) == [np.inf]


def test_zero_prices_elkan():
    with pytest.warns(DegenerateWarning):
        assert math.isnan(costlib.elkan_threshold(0, 0))


def test_one_class_fit_temperature():
    with pytest.warns(DegenerateWarning):
        assert math.isnan(costlib.fit_temperature([1, 1, 1], [0.2, 0.6, 0.9]))


EMPTY = {
    "threshold_sweep": lambda: costlib.threshold_sweep([], []),
    "cost_curve": lambda: costlib.cost_curve([], [], c_fp=1, c_fn=1),
    "optimal_threshold": lambda: costlib.optimal_threshold([], [], c_fp=1, c_fn=1),
    "expected_cost": lambda: costlib.expected_cost([], [], c_fp=1, c_fn=1),
    "grouped_sweep": lambda: costlib.grouped_sweep([], [], []),
    "cost_optimal_thresholds": lambda: costlib.cost_optimal_thresholds([], [], [], costs={}),
    "group_costs": lambda: costlib.group_costs([], [], [], costs={}, thresholds={}),
    "compare_rules (empty test split)": lambda: costlib.compare_rules((Y, S, G), ([], [], []), costs=COSTS),
    "value_score": lambda: costlib.value_score([], [], k=1),
    "value_curve": lambda: costlib.value_curve([], [], k=1),
    "optimal_value": lambda: costlib.optimal_value([], [], k=1),
    "value_against_k": lambda: costlib.value_against_k([], [], [0, 1]),
    "cost_sensitive_value": lambda: costlib.cost_sensitive_value([], [], k_tp=1, k_fp=1, k_fn=1),
    "cost_sensitive_error": lambda: costlib.cost_sensitive_error([], [], k_fp=1, k_fn=1),
    "normalized_excess_cost": lambda: costlib.normalized_excess_cost([], []),
    "error_rate": lambda: costlib.error_rate([], []),
    "nec_curve": lambda: costlib.nec_curve([], []),
    "min_cost_decisions": lambda: costlib.min_cost_decisions(np.zeros((0, 2)), [[0, 1], [1, 0]]),
    "fit_temperature": lambda: costlib.fit_temperature([], []),
    "expected_calibration_error": lambda: costlib.expected_calibration_error([], []),
}


@pytest.mark.parametrize("name", list(EMPTY))
def test_empty_input_is_degenerate_not_an_error(name):
    """No rows at all is legal: an empty or NaN answer, only DegenerateWarnings, no raise."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        EMPTY[name]()
    other = [str(w.message) for w in caught if not issubclass(w.category, DegenerateWarning)]
    assert not other
