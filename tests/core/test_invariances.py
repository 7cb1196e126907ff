"""Invariances: row order, strictly increasing transforms of scores, zero weight versus a
dropped row, and lists / numpy arrays / pandas objects as inputs."""

from __future__ import annotations

import dataclasses
import inspect
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

import costlib
from costlib import DegenerateWarning

SCORES = st.sampled_from([-2.0, -0.5, 0.0, 0.125, 0.25, 0.5, 0.75, 0.9, 1.0, 3.0])
EIGHTHS = st.integers(0, 8).map(lambda i: i / 8)
WEIGHTS = st.sampled_from([0, 0, 1, 2, 3])
GROUPS = st.sampled_from(["a", "b", "c"])
DELTAS = st.sampled_from([-3.0, -1.0, -0.5, 0.0, 0.25, 1.0, 2.0])
COSTS = {"a": (1, 3), "b": (2, 1), "c": (0, 4)}


@st.composite
def rows(draw, *, min_size=1, max_size=25, scores=SCORES):
    """Columns y (0/1), s (score), p (probability), w (weight), g (group), d (delta)."""
    n = draw(st.integers(min_size, max_size))

    def col(strategy):
        return draw(st.lists(strategy, min_size=n, max_size=n))

    return {
        "y": col(st.integers(0, 1)),
        "s": col(scores),
        "p": col(EIGHTHS),
        "w": col(WEIGHTS),
        "g": col(GROUPS),
        "d": col(DELTAS),
    }


def take(data, order):
    return {key: [col[i] for i in order] for key, col in data.items()}


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        return fn(*args, **kwargs)


def canon(x):
    """A comparable form of any costlib result."""
    if isinstance(x, costlib.Sweep):
        return {k: getattr(x, k) for k in ("thresholds", "tp", "fp", "fn", "tn")}
    if isinstance(x, costlib.GroupedSweep):
        return {"groups": list(x.groups), "frame": x.to_frame()}
    if dataclasses.is_dataclass(x):
        return {k: canon(v) for k, v in dataclasses.asdict(x).items()}
    if isinstance(x, dict):
        return {k: canon(v) for k, v in x.items()}
    if isinstance(x, tuple | list):
        return [canon(v) for v in x]
    return x


def assert_same(a, b, *, exact=True, path="result"):
    a, b = canon(a), canon(b)
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b, check_exact=exact, rtol=1e-9)
    elif isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), path
        for k in a:
            assert_same(a[k], b[k], exact=exact, path=f"{path}.{k}")
    elif isinstance(a, list) and not isinstance(b, np.ndarray):
        assert isinstance(b, list) and len(a) == len(b), path
        for i, (u, v) in enumerate(zip(a, b, strict=True)):
            assert_same(u, v, exact=exact, path=f"{path}[{i}]")
    elif isinstance(a, np.ndarray | list):
        if exact:
            assert_array_equal(a, b, err_msg=path)
        else:
            assert_allclose(a, b, rtol=1e-9, atol=1e-12, err_msg=path)
    elif isinstance(a, float | np.floating) and math.isnan(a):
        assert isinstance(b, float | np.floating) and math.isnan(b), path
    elif exact:
        assert a == b, (path, a, b)
    else:
        assert a == pytest.approx(b, rel=1e-9, abs=1e-12), path


# --------------------------------------------------------------------------------------
# Row shuffles
# --------------------------------------------------------------------------------------


def _row_results(d):
    y, s, p, w, g, delta = d["y"], d["s"], d["p"], d["w"], d["g"], d["d"]
    pred = [int(q >= 0.5) for q in p]
    return {
        "threshold_sweep": costlib.threshold_sweep(y, s, sample_weight=w),
        "grouped_sweep": costlib.grouped_sweep(y, s, g, sample_weight=w),
        "cost_curve": costlib.cost_curve(y, s, c_fp=1, c_fn=3, sample_weight=w),
        "optimal_threshold": costlib.optimal_threshold(y, s, c_fp=2, c_fn=3),
        "optimal_threshold_within": costlib.optimal_threshold_within(
            y, s, c_fp=2, c_fn=3, max_flagged=0.4, sample_weight=w
        ),
        "capacity_curve": costlib.capacity_curve(y, s, c_fp=2, c_fn=3, sample_weight=w),
        "expected_cost": costlib.expected_cost(y, pred, c_fp=1, c_fn=3),
        "value_score": costlib.value_score(y, p, k=2),
        "value_curve": costlib.value_curve(y, p, k=3, reject_value=0.5),
        "optimal_value": costlib.optimal_value(y, p, k=1.5),
        "value_against_k": costlib.value_against_k(y, p, [0, 0.5, 2, 9]),
        "paper": costlib.cost_sensitive_value(y, p, k_tp=2, k_fp=1, k_fn=3, rule="paper"),
        "bayes": costlib.cost_sensitive_value(y, p, k_tp=2, k_fp=1, k_fn=3, rule="bayes"),
        "cost_sensitive_error": costlib.cost_sensitive_error(y, pred, k_fp=1, k_fn=2),
        "nec": costlib.normalized_excess_cost(pred, delta),
        "error_rate": costlib.error_rate(pred, delta),
        "nec_curve": costlib.nec_curve(s, delta),
        "group_costs": costlib.group_costs(y, s, g, costs=COSTS, thresholds={"a": 0.5, "b": 0.25, "c": 3.0}),
        "cost_optimal_thresholds": costlib.cost_optimal_thresholds(y, s, g, costs=COSTS),
        "compare_rules": costlib.compare_rules((y, s, g), (y, s, g), costs=COSTS),
    }


@given(rows(), st.data())
def test_row_shuffle_changes_nothing(data, draw):
    order = draw.draw(st.permutations(range(len(data["y"]))))
    before = quiet(_row_results, data)
    after = quiet(_row_results, take(data, order))
    for name in before:
        # integer weights and few rows: sums are exact in any order
        assert_same(before[name], after[name], path=name)


@given(st.data())
def test_row_shuffle_multiclass(draw):
    n = draw.draw(st.integers(1, 20))
    probs = [
        [c / 8 for c in np.bincount(draw.draw(st.lists(st.integers(0, 2), min_size=8, max_size=8)), minlength=3)]
        for _ in range(n)
    ]
    y = draw.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    order = draw.draw(st.permutations(range(n)))
    cost = [[0, 1, 4], [2, 0, 1], [3, 3, 0]]

    def results(y, probs):
        return {
            "value_score": costlib.value_score(y, probs, k=1, reject_value=0.25),
            "value_curve": costlib.value_curve(y, probs, k=2),
            "optimal_value": costlib.optimal_value(y, probs, k=2),
            "value_against_k": costlib.value_against_k(y, probs, [0, 1, 4]),
        }

    before = quiet(results, y, probs)
    after = quiet(results, [y[i] for i in order], [probs[i] for i in order])
    for name in before:
        assert_same(before[name], after[name], path=name)
    decided = costlib.min_cost_decisions(probs, cost, abstain_cost=1)
    shuffled = costlib.min_cost_decisions([probs[i] for i in order], cost, abstain_cost=1)
    assert_array_equal(shuffled, decided[list(order)])


def test_row_shuffle_fit_temperature():
    rng = np.random.default_rng(3)
    p = rng.uniform(0.01, 0.99, size=2000)
    y = (rng.random(p.size) < p**1.5).astype(int)
    order = rng.permutation(p.size)
    assert costlib.fit_temperature(y[order], p[order]) == pytest.approx(costlib.fit_temperature(y, p), rel=1e-5)


# --------------------------------------------------------------------------------------
# Strictly increasing transforms of the scores
# --------------------------------------------------------------------------------------

TRANSFORMS = {
    "cubic": lambda x: x**3 + 2 * x,
    "logistic": lambda x: 1 / (1 + np.exp(-x)),
}


def _map(f, t):
    t = np.asarray(t, dtype=float)
    return np.where(np.isinf(t), t, f(np.where(np.isinf(t), 0.0, t)))


@pytest.mark.parametrize("name", list(TRANSFORMS))
@given(data=rows())
def test_increasing_transform_keeps_every_decision(name, data):
    f = TRANSFORMS[name]
    y, s, w, g, delta = data["y"], data["s"], data["w"], data["g"], data["d"]
    fs = f(np.asarray(s))
    # the transform must stay strictly increasing in floating point on these scores
    order = np.argsort(s)
    assume(np.all(np.diff(fs[order])[np.diff(np.asarray(s)[order]) > 0] > 0))

    a = costlib.threshold_sweep(y, s, sample_weight=w)
    b = costlib.threshold_sweep(y, fs, sample_weight=w)
    assert_array_equal(b.tp, a.tp)
    assert_array_equal(b.fp, a.fp)
    assert_array_equal(b.thresholds[1:], f(a.thresholds[1:]))
    assert b.thresholds[0] == np.inf

    ta, ca = quiet(costlib.optimal_threshold, y, s, c_fp=1, c_fn=3, sample_weight=w)
    tb, cb = quiet(costlib.optimal_threshold, y, fs, c_fp=1, c_fn=3, sample_weight=w)
    if math.isnan(ca):
        assert math.isnan(cb)
    else:
        assert cb == ca
        assert tb == _map(f, ta)

    ga = costlib.grouped_sweep(y, s, g)
    gb = costlib.grouped_sweep(y, fs, g)
    assert_array_equal(gb.tp, ga.tp)
    assert_array_equal(gb.fp, ga.fp)

    _, nec_a = quiet(costlib.nec_curve, s, delta)
    _, nec_b = quiet(costlib.nec_curve, fs, delta)
    assert_array_equal(nec_b, nec_a)

    cut = {"a": 0.25, "b": np.inf, "c": -0.5}
    ra = costlib.group_costs(y, s, g, costs=COSTS, thresholds=cut)
    rb = costlib.group_costs(y, fs, g, costs=COSTS, thresholds={k: float(_map(f, v)) for k, v in cut.items()})
    for col in ("n", "flagged_rate", "fp", "fn", "cost_per_100"):
        assert_array_equal(rb[col], ra[col], err_msg=col)

    train_a, train_b = (y, s, g), (y, fs, g)
    half = len(y) // 2
    test_a = (y[half:], s[half:], g[half:])
    test_b = (y[half:], list(fs[half:]), g[half:])
    if half < len(y):
        ka = quiet(costlib.compare_rules, train_a, test_a, costs=COSTS)
        kb = quiet(costlib.compare_rules, train_b, test_b, costs=COSTS)
        for rule in ("cost-optimal", "flag nobody"):
            sa, sb = ka[ka["rule"] == rule], kb[kb["rule"] == rule]
            assert_array_equal(sb["flagged_rate"], sa["flagged_rate"], err_msg=rule)
            assert_array_equal(sb["cost_per_100"], sa["cost_per_100"], err_msg=rule)


# --------------------------------------------------------------------------------------
# Zero weight equals a dropped row
# --------------------------------------------------------------------------------------


@given(rows())
def test_zero_weight_equals_dropped_row(data):
    keep = [i for i, wi in enumerate(data["w"]) if wi > 0]
    kept = take(data, keep)
    y, s, w, g = data["y"], data["s"], data["w"], data["g"]
    ky, ks, kw, kg = kept["y"], kept["s"], kept["w"], kept["g"]

    assert_same(costlib.threshold_sweep(y, s, sample_weight=w), costlib.threshold_sweep(ky, ks, sample_weight=kw))
    assert_same(
        quiet(costlib.cost_curve, y, s, c_fp=2, c_fn=1, sample_weight=w),
        quiet(costlib.cost_curve, ky, ks, c_fp=2, c_fn=1, sample_weight=kw),
    )
    assert_same(
        quiet(costlib.optimal_threshold, y, s, c_fp=1, c_fn=1, sample_weight=w),
        quiet(costlib.optimal_threshold, ky, ks, c_fp=1, c_fn=1, sample_weight=kw),
    )

    full = costlib.grouped_sweep(y, s, g, sample_weight=w)
    if keep:
        dropped = costlib.grouped_sweep(ky, ks, kg, sample_weight=kw)
        for name in dropped.groups:
            assert_same(full[name], dropped[name], path=name)
    for name in set(full.groups) - set(kg):  # only zero-weight rows: nobody to flag
        assert_array_equal(full[name].thresholds, [np.inf])
        assert_array_equal(full[name].tp, [0])
        assert_array_equal(full[name].fp, [0])

    if keep:  # (empty input is tested in test_errors.py)
        cut = {"a": 0.25, "b": 0.9, "c": -0.5}
        gf = quiet(costlib.group_costs, y, s, g, costs=COSTS, thresholds=cut, sample_weight=w)
        gd = costlib.group_costs(ky, ks, kg, costs=COSTS, thresholds=cut, sample_weight=kw)
        gf = gf[gf["group"].isin(set(kg))].reset_index(drop=True)
        pd.testing.assert_frame_equal(gf, gd, check_dtype=False)


@given(rows())
def test_zero_delta_equals_dropped_row_for_nec(data):
    keep = [i for i, d in enumerate(data["d"]) if d != 0]
    s, d = data["s"], data["d"]
    pred = [int(q >= 0.5) for q in data["s"]]
    ks, kd, kp = [s[i] for i in keep], [d[i] for i in keep], [pred[i] for i in keep]
    assert_same(quiet(costlib.normalized_excess_cost, pred, d), quiet(costlib.normalized_excess_cost, kp, kd))
    assert_same(quiet(costlib.nec_curve, s, d), quiet(costlib.nec_curve, ks, kd))


# --------------------------------------------------------------------------------------
# Lists, numpy arrays and pandas objects
# --------------------------------------------------------------------------------------

Y = [0, 0, 1, 1, 0, 1, 1, 0]
S = [0.1, 0.4, 0.35, 0.8, 0.65, 0.9, 0.5, 0.5]
W = [1, 2, 0, 1, 3, 1, 1, 2]
G = ["a", "b", "a", "b", "a", "b", "a", "b"]
PRED = [0, 1, 0, 1, 1, 1, 0, 0]
D = [-1.0, 0.5, 2.0, 0.0, -0.25, 3.0, 1.0, -2.0]
Y3 = [0, 2, 1, 1, 0, 2]
P3 = [[0.5, 0.25, 0.25], [0.125, 0.375, 0.5], [0.25, 0.5, 0.25], [0.6, 0.3, 0.1], [0.2, 0.2, 0.6], [0.1, 0.1, 0.8]]
C3 = [[0, 1, 4], [2, 0, 1], [3, 3, 0]]
CONF = [[5, 1, 0], [2, 4, 1], [0, 1, 3]]
COST2 = {"a": (1, 3), "b": (2, 1)}
DATES = ["2026-01-03", "2026-01-09", "2026-02-01", "2026-02-11", "2026-03-01", "2026-03-02", "2026-03-09", "2026-03-30"]


def as_list(x):
    return list(x)


def as_array(x):
    return np.asarray(x)


def as_pandas(x):
    index = np.arange(len(x))[::-1] + 100  # a non-default index: positions, not labels
    if x and isinstance(x[0], list):
        return pd.DataFrame(x, index=index, columns=[f"c{j}" for j in range(len(x[0]))])
    return pd.Series(x, index=index)


CONVERTERS = {"list": as_list, "numpy": as_array, "pandas": as_pandas}

# Every public function that takes arrays, called through a converter `a`.
CALLS = {
    "apply_temperature": lambda a: (costlib.apply_temperature(a(S), 1.7), costlib.apply_temperature(a(P3), 0.6)),
    "compare_rules": lambda a: costlib.compare_rules((a(Y[:5]), a(S[:5]), a(G[:5])), (a(Y), a(S), a(G)), costs=COST2),
    "cost_curve": lambda a: costlib.cost_curve(a(Y), a(S), c_fp=1, c_fn=2, sample_weight=a(W)),
    "apply_policy": lambda a: costlib.apply_policy({"rule": "r", "cutoffs": {"a": 0.4, "b": 0.6}}, a(S), groups=a(G)),
    "cost_optimal_thresholds": lambda a: costlib.cost_optimal_thresholds(
        a(Y), a(S), a(G), costs=COST2, sample_weight=a(W)
    ),
    "cost_sensitive_error": lambda a: costlib.cost_sensitive_error(a(Y), a(PRED), k_fp=1, k_fn=2),
    "cost_sensitive_value": lambda a: [
        costlib.cost_sensitive_value(a(Y), a(S), k_tp=2, k_fp=1, k_fn=3, rule=rule) for rule in ("paper", "bayes")
    ],
    "delta_from_rating": lambda a: costlib.delta_from_rating(a([1, 5, 3, 4]), 3),
    "delta_from_threshold": lambda a: costlib.delta_from_threshold(a([1.5, 7.0, 3.0]), 3.5),
    "delta_from_votes": lambda a: costlib.delta_from_votes(a([3, 0, 2]), a([1, 4, 2])),
    "error_rate": lambda a: costlib.error_rate(a(PRED), a(D)),
    "expected_calibration_error": lambda a: costlib.expected_calibration_error(a(Y), a(S), n_bins=4),
    "expected_cost": lambda a: costlib.expected_cost(a(Y), a(PRED), c_fp=1, c_fn=3),
    "expected_cost_matrix": lambda a: costlib.expected_cost_matrix(a(CONF), a(C3)),
    "fit_temperature": lambda a: (costlib.fit_temperature(a(Y), a(S)), costlib.fit_temperature(a(Y3), a(P3))),
    "group_costs": lambda a: costlib.group_costs(
        a(Y), a(S), a(G), costs=COST2, thresholds={"a": 0.4, "b": 0.7}, sample_weight=a(W)
    ),
    "grouped_sweep": lambda a: costlib.grouped_sweep(a(Y), a(S), a(G), sample_weight=a(W)),
    "no_model_baseline": lambda a: costlib.no_model_baseline(a(Y), c_fp=1, c_fn=3, sample_weight=a(W)),
    "recommend": lambda a: _summary(
        costlib.recommend(costlib.sweep_model(a(Y), a(S), a(G), sample_weight=a(W)), COST2, n_resamples=0)
    ),
    "sweep_model": lambda a: costlib.sweep_model(a(Y), a(S), a(G)).judge,
    "min_cost_decisions": lambda a: (
        costlib.min_cost_decisions(a(P3), a(C3), abstain_cost=1),
        costlib.min_cost_decisions(a(S), a([[0, 1], [3, 0]])),
    ),
    "nec_curve": lambda a: costlib.nec_curve(a(S), a(D)),
    "normalized_excess_cost": lambda a: costlib.normalized_excess_cost(a(PRED), a(D)),
    "optimal_cutoffs_by_ratio": lambda a: costlib.optimal_cutoffs_by_ratio(
        a(Y), a(S), ratio_low=0.1, ratio_high=10, sample_weight=a(W), groups=a(G)
    ),
    "optimal_threshold": lambda a: costlib.optimal_threshold(a(Y), a(S), c_fp=1, c_fn=3, sample_weight=a(W)),
    "optimal_threshold_within": lambda a: costlib.optimal_threshold_within(
        a(Y), a(S), c_fp=1, c_fn=3, max_flagged=0.3, sample_weight=a(W)
    ),
    "capacity_curve": lambda a: costlib.capacity_curve(a(Y), a(S), c_fp=1, c_fn=3, sample_weight=a(W)),
    "cost_by_period": lambda a: costlib.cost_by_period(
        a(Y), a(S), a(DATES), c_fp=1, c_fn=2, cutoff=0.5, sample_weight=a(W)
    ),
    "estimate_prior": lambda a: costlib.estimate_prior(a(S), train_prior=0.4),
    "expected_cost_unlabelled": lambda a: costlib.expected_cost_unlabelled(
        a(S), cutoff=0.5, c_fp=1, c_fn=2, prior=0.3, train_prior=0.4
    ),
    "optimal_value_within": lambda a: costlib.optimal_value_within(a(Y), a(S), k=2, max_reject=0.4),
    "optimal_cutoffs_within": lambda a: costlib.optimal_cutoffs_within(a(Y), a(S), a(G), costs=COST2, max_flagged=0.3),
    "optimal_value": lambda a: (
        costlib.optimal_value(a(Y), a(S), k=2),
        costlib.optimal_value(a(Y3), a(P3), k=1, reject_value=0.1),
    ),
    "reliability": lambda a: costlib.reliability(a(Y), a(S), n_bins=4),
    "rule_cutoffs": lambda a: costlib.rule_cutoffs(a(["a", "b"]), costs=COST2, optimal={"a": 0.4, "b": 0.8}),
    "threshold_sweep": lambda a: costlib.threshold_sweep(a(Y), a(S), sample_weight=a(W)),
    "value_against_k": lambda a: (
        costlib.value_against_k(a(Y), a(S), a([0, 1, 3])),
        costlib.value_against_k(a(Y3), a(P3), a([0.5, 2])),
    ),
    "value_curve": lambda a: (costlib.value_curve(a(Y), a(S), k=2), costlib.value_curve(a(Y3), a(P3), k=2)),
    "value_score": lambda a: (costlib.value_score(a(Y), a(S), k=2), costlib.value_score(a(Y3), a(P3), k=1, tau=0.5)),
}
SCALAR_ONLY = {"class_thresholds", "elkan_threshold", "value_threshold"}
# Feature matrices (X, 2-D) and long result tables: their lists / arrays / Series / sparse
# equivalence is tested in tests/training/test_training.py::test_inputs_as_lists_arrays_and_series_alike
# and test_sparse_and_dense_features_give_the_same_comparison.
TRAINING = {"compare_training", "cost_predictability", "training_summary"}
# A fitted scikit-learn model, a table or a file rather than arrays: tests/handoff/test_handoff.py
# holds the scorer and the wrapped model to expected_cost and apply_policy, and the audit of a
# table to the audit command's record.
HANDOFF = {"audit", "cost_scorer", "policy_estimator"}
# Sources (files, queries, Spark frames) rather than arrays: tests/scale/test_scale.py checks each
# scan_* against the in-memory function on pandas frames, Parquet and CSV alike.
SCAN = {"scan_compare_rules", "scan_group_costs", "scan_grouped_sweep", "scan_optimal_thresholds"}


def _summary(rec):
    return rec.summary()


def test_every_public_function_is_covered():
    public = {name for name in costlib.__all__ if inspect.isfunction(getattr(costlib, name))}
    assert set(CALLS) | SCALAR_ONLY | TRAINING | SCAN | HANDOFF == public


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("kind", ["numpy", "pandas"])
def test_lists_arrays_and_pandas_give_identical_results(name, kind):
    want = quiet(CALLS[name], as_list)
    got = quiet(CALLS[name], CONVERTERS[kind])
    assert_same(got, want, path=name)


def test_scalar_functions_accept_numpy_scalars():
    assert costlib.elkan_threshold(np.int64(1), np.float64(3)) == costlib.elkan_threshold(1, 3)
    assert costlib.value_threshold(np.int32(2)) == costlib.value_threshold(2)
    assert costlib.class_thresholds(k_tp=np.float32(2), k_fp=np.int64(1), k_fn=np.int8(3)) == costlib.class_thresholds(
        k_tp=2, k_fp=1, k_fn=3
    )


def test_boolean_labels_equal_integer_labels():
    yb = [bool(v) for v in Y]
    assert_same(costlib.threshold_sweep(yb, S), costlib.threshold_sweep(Y, S))
    assert_same(costlib.value_score(yb, S, k=2), costlib.value_score(Y, S, k=2))
    assert_same(costlib.value_score(pd.Series(yb), S, k=2), costlib.value_score(Y, S, k=2))
