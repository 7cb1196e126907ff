"""Property tests against slow brute-force references written from the spec.

Every reference below is a plain Python loop over every case (and every candidate threshold),
written from shared/spec/costlib.md, not from the implementation. Where the spec fixes a tie
rule, the data are built so that the arithmetic is exact (integer prices, small integer
weights, probabilities that are multiples of 1/8) and the reference works in Fractions.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

import costlib
from costlib import DegenerateWarning
from costlib.core import rules as R

INF = math.inf

# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


def call(expect_degenerate: bool, fn, *args, **kwargs):
    """Run fn, asserting a DegenerateWarning iff the reference says the input is degenerate,
    and that no other warning leaks out."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    degenerate = [w for w in caught if issubclass(w.category, DegenerateWarning)]
    other = [w for w in caught if not issubclass(w.category, DegenerateWarning)]
    assert not other, [str(w.message) for w in other]
    assert bool(degenerate) == expect_degenerate, [str(w.message) for w in degenerate]
    return out


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        return fn(*args, **kwargs)


def same_number(got, want, *, rel=1e-12, abs_=1e-12):
    """want may be a Fraction, a float or NaN."""
    if isinstance(want, float) and math.isnan(want):
        return math.isnan(got)
    return got == pytest.approx(float(want), rel=rel, abs=abs_)


# --------------------------------------------------------------------------------------
# Strategies
# --------------------------------------------------------------------------------------

# a small set of values: many exact ties, negative and above-one scores, 0.0
SCORES = st.sampled_from([-2.0, -0.5, 0.0, 0.125, 0.25, 0.5, 0.75, 0.9, 1.0, 3.0])
EIGHTHS = st.integers(0, 8).map(lambda i: i / 8)
WEIGHTS = st.sampled_from([0, 0, 1, 2, 3])  # zeros are common
GROUPS = st.sampled_from(["a", "b", "c"])


@st.composite
def scored(draw, *, min_size=0, max_size=25, scores=SCORES, weights=True, groups=False):
    n = draw(st.integers(min_size, max_size))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    s = draw(st.lists(scores, min_size=n, max_size=n))
    w = None
    if weights and draw(st.booleans()):
        w = draw(st.lists(WEIGHTS, min_size=n, max_size=n))
    g = draw(st.lists(GROUPS, min_size=n, max_size=n)) if groups else None
    return y, s, w, g


@st.composite
def class_probs(draw, *, n_min=1, n_max=25, k=None):
    """(y, rows): class indices and probability rows whose entries are multiples of 1/8."""
    k = draw(st.integers(2, 4)) if k is None else k
    n = draw(st.integers(n_min, n_max))
    rows = []
    for _ in range(n):
        picks = draw(st.lists(st.integers(0, k - 1), min_size=8, max_size=8))
        rows.append([picks.count(j) / 8 for j in range(k)])
    y = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    return y, rows


@st.composite
def value_data(draw, *, n_min=1, n_max=25):
    """Binary (1-D P(class 1), labels 0/1) or 3-class data, exact in floating point."""
    if draw(st.booleans()):
        n = draw(st.integers(n_min, n_max))
        y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        p = draw(st.lists(EIGHTHS, min_size=n, max_size=n))
        return y, p
    return draw(class_probs(n_min=n_min, n_max=n_max, k=3))


# --------------------------------------------------------------------------------------
# Brute-force references (from the spec)
# --------------------------------------------------------------------------------------


def ref_sweep(y, s, w=None):
    """thresholds (+inf, then distinct scores of rows with weight > 0, descending) and the
    weighted tp, fp, fn, tn when flagging iff score >= threshold."""
    w = [1] * len(y) if w is None else w
    rows = [(yi, si, wi) for yi, si, wi in zip(y, s, w, strict=True) if wi > 0]
    thresholds = [INF] + sorted({si for _, si, _ in rows}, reverse=True)
    out = {"thresholds": thresholds, "tp": [], "fp": [], "fn": [], "tn": []}
    for t in thresholds:
        tp = fp = fn = tn = 0
        for yi, si, wi in rows:
            flagged = si >= t
            if flagged and yi == 1:
                tp += wi
            elif flagged:
                fp += wi
            elif yi == 1:
                fn += wi
            else:
                tn += wi
        for key, val in (("tp", tp), ("fp", fp), ("fn", fn), ("tn", tn)):
            out[key].append(val)
    return out


def ref_cost_curve(y, s, w, c_fp, c_fn):
    ref = ref_sweep(y, s, w)
    total = sum(1 for _ in y) if w is None else sum(w)
    if total == 0:
        return ref["thresholds"], [math.nan] * len(ref["thresholds"])
    cost = [(fp * c_fp + fn * c_fn) / total for fp, fn in zip(ref["fp"], ref["fn"], strict=True)]
    return ref["thresholds"], cost


def ref_optimal_threshold(y, s, w, c_fp, c_fn):
    """Exact minimiser (Fractions), ties to the larger threshold; one class -> NaN."""
    w = [1] * len(y) if w is None else w
    positives = sum(wi for yi, wi in zip(y, w, strict=True) if yi == 1)
    negatives = sum(wi for yi, wi in zip(y, w, strict=True) if yi == 0)
    if positives == 0 or negatives == 0:
        return math.nan, math.nan
    candidates = [INF] + sorted({si for si, wi in zip(s, w, strict=True) if wi > 0}, reverse=True)
    best_t, best_cost = None, None
    for t in candidates:  # descending: a strict improvement is needed to move down
        fp = sum(wi for yi, si, wi in zip(y, s, w, strict=True) if yi == 0 and si >= t)
        fn = sum(wi for yi, si, wi in zip(y, s, w, strict=True) if yi == 1 and si < t)
        cost = Fraction(fp * c_fp + fn * c_fn, positives + negatives)
        if best_cost is None or cost < best_cost:
            best_t, best_cost = t, cost
    return best_t, best_cost


def ref_prediction(p):
    """(predicted class, confidence) of one case: binary p is P(class 1)."""
    if isinstance(p, list):
        best = 0
        for j in range(1, len(p)):
            if p[j] > p[best]:  # lowest index on ties
                best = j
        return best, p[best]
    return (1 if p >= 0.5 else 0), max(p, 1 - p)


def ref_value(y, p, k, tau, reject_value):
    """(value, reject_rate, accepted_accuracy): +1 right, -k wrong, reject_value rejected."""
    total, rejected, accepted, right = 0, 0, 0, 0
    for yi, pi in zip(y, p, strict=True):
        pred, conf = ref_prediction(pi)
        if conf >= tau:
            accepted += 1
            if pred == yi:
                right += 1
                total += 1
            else:
                total -= k
        else:
            rejected += 1
            total += reject_value
    n = len(y)
    acc = right / accepted if accepted else math.nan
    return total / n, rejected / n, acc


def ref_value_curve(y, p, k, reject_value):
    confs = sorted({ref_prediction(pi)[1] for pi in p}, reverse=True)
    taus = [INF] + confs
    return taus, [ref_value(y, p, k, t, reject_value)[0] for t in taus]


def ref_cs_action(p, k_tp, k_fp, k_fn, rule):
    """1 accept positive, 0 accept negative, -1 reject (Fractions: exact)."""
    p = Fraction(p)
    if rule == "paper":
        if p >= Fraction(1, 2):
            return 1 if p >= Fraction(k_fp, k_tp + k_fp) else -1
        return 0 if 1 - p >= Fraction(k_fn, 1 + k_fn) else -1
    ev_pos = p * k_tp - (1 - p) * k_fp
    ev_neg = (1 - p) - p * k_fn
    if max(ev_pos, ev_neg) <= 0:  # ties with reject go to reject
        return -1
    return 1 if ev_pos > ev_neg else 0


def ref_cs_value(y, p, k_tp, k_fp, k_fn, rule):
    total, rejected = Fraction(0), 0
    for yi, pi in zip(y, p, strict=True):
        action = ref_cs_action(pi, k_tp, k_fp, k_fn, rule)
        if action == 1:
            total += k_tp if yi == 1 else -k_fp
        elif action == 0:
            total += 1 if yi == 0 else -k_fn
        else:
            rejected += 1
    return total / len(y), Fraction(rejected, len(y))


def ref_min_cost(rows, cost, h):
    out = []
    for row in rows:
        exp = [sum(Fraction(row[i]) * Fraction(cost[i][j]) for i in range(len(row))) for j in range(len(cost))]
        best = 0
        for j in range(1, len(exp)):
            if exp[j] < exp[best]:
                best = j
        out.append(-1 if h is not None and exp[best] >= h else best)
    return out


def ref_nec(y_pred, delta):
    total = sum(abs(d) for d in delta)
    if total == 0:
        return math.nan
    wrong = sum(abs(d) for p, d in zip(y_pred, delta, strict=True) if p != (1 if d > 0 else 0))
    return wrong / total


def ref_error_rate(y_pred, delta):
    if not delta:
        return math.nan
    wrong = [p != (1 if d > 0 else 0) for p, d in zip(y_pred, delta, strict=True)]
    return sum(wrong) / len(wrong)


def ref_group_costs(y, s, g, costs, thresholds):
    rows = []
    for name in sorted(set(g)):
        idx = [i for i in range(len(y)) if g[i] == name]
        t = thresholds[name]
        c_fp, c_fn = costs[name]
        flagged = [i for i in idx if s[i] >= t]
        fp = sum(1 for i in flagged if y[i] == 0)
        fn = sum(1 for i in idx if s[i] < t and y[i] == 1)
        rows.append(
            {
                "group": name,
                "n": len(idx),
                "threshold": t,
                "flagged_rate": len(flagged) / len(idx),
                "fp": fp,
                "fn": fn,
                "cost_per_100": 100 * (fp * c_fp + fn * c_fn) / len(idx),
            }
        )
    return rows


def assert_rows(df, rows):
    assert len(df) == len(rows)
    for got, want in zip(df.to_dict("records"), rows, strict=True):
        assert set(want) <= set(got)
        for key, val in want.items():
            if isinstance(val, str):
                assert got[key] == val, key
            else:
                assert same_number(got[key], val), (key, got[key], val)


# --------------------------------------------------------------------------------------
# The sweep kernel
# --------------------------------------------------------------------------------------


@given(scored())
def test_threshold_sweep_matches_brute_force(data):
    y, s, w, _ = data
    got = costlib.threshold_sweep(y, s, sample_weight=w)
    ref = ref_sweep(y, s, w)
    assert_array_equal(got.thresholds, ref["thresholds"])
    assert got.thresholds[0] == INF
    assert np.all(np.diff(got.thresholds) < 0)  # strictly descending
    for key in ("tp", "fp", "fn", "tn"):
        assert isinstance(getattr(got, key), np.ndarray), key
        assert_allclose(getattr(got, key), ref[key], rtol=0, atol=1e-12, err_msg=key)


@given(scored(scores=st.floats(-1e6, 1e6, allow_subnormal=False) | SCORES), st.data())
def test_threshold_sweep_with_fractional_weights(data, draw):
    y, s, _, _ = data
    w = draw.draw(st.lists(st.sampled_from([0.0, 0.1, 0.5, 1.7, 2.25]), min_size=len(y), max_size=len(y)))
    got = costlib.threshold_sweep(y, s, sample_weight=w)
    ref = ref_sweep(y, s, w)
    assert_array_equal(got.thresholds, ref["thresholds"])
    for key in ("tp", "fp", "fn", "tn"):
        assert_allclose(getattr(got, key), ref[key], rtol=1e-12, atol=1e-9, err_msg=key)


@given(scored(min_size=1, groups=True))
def test_grouped_sweep_equals_per_group_threshold_sweep(data):
    y, s, w, g = data
    got = costlib.grouped_sweep(y, s, g, sample_weight=w)
    assert tuple(got.groups) == tuple(sorted(set(g)))
    for name in sorted(set(g)):
        idx = [i for i in range(len(y)) if g[i] == name]
        ys, ss = [y[i] for i in idx], [s[i] for i in idx]
        ws = None if w is None else [w[i] for i in idx]
        one = got[name]
        ref = ref_sweep(ys, ss, ws)
        assert_array_equal(one.thresholds, ref["thresholds"])
        for key in ("tp", "fp", "fn", "tn"):
            assert_allclose(getattr(one, key), ref[key], rtol=0, atol=1e-12, err_msg=key)
        alone = costlib.threshold_sweep(ys, ss, sample_weight=ws)
        assert_array_equal(one.thresholds, alone.thresholds)
        assert_array_equal(one.tp, alone.tp)
        assert_array_equal(one.fp, alone.fp)


@given(scored(), st.floats(0, 10), st.floats(0, 10))
def test_cost_curve_matches_brute_force(data, c_fp, c_fn):
    y, s, w, _ = data
    ref_t, ref_cost = ref_cost_curve(y, s, w, c_fp, c_fn)
    degenerate = math.isnan(ref_cost[0])
    t, cost = call(degenerate, costlib.cost_curve, y, s, c_fp=c_fp, c_fn=c_fn, sample_weight=w)
    assert_array_equal(t, ref_t)
    assert_allclose(cost, ref_cost, rtol=1e-12, atol=1e-12)


@given(scored(), st.integers(0, 4), st.integers(0, 4))
def test_optimal_threshold_and_its_tie_rule(data, c_fp, c_fn):
    y, s, w, _ = data
    ref_t, ref_cost = ref_optimal_threshold(y, s, w, c_fp, c_fn)
    degenerate = isinstance(ref_t, float) and math.isnan(ref_t)
    t, cost = call(degenerate, costlib.optimal_threshold, y, s, c_fp=c_fp, c_fn=c_fn, sample_weight=w)
    if degenerate:
        assert math.isnan(t) and math.isnan(cost)
    else:
        assert t == ref_t  # exact: the tie rule picks one threshold
        assert cost == pytest.approx(float(ref_cost), rel=1e-12, abs=1e-15)


# --------------------------------------------------------------------------------------
# Value of a selective classifier
# --------------------------------------------------------------------------------------


@given(value_data(), st.integers(0, 5) | st.floats(0, 20), st.data())
def test_value_score_matches_brute_force(data, k, draw):
    y, p = data
    confs = sorted({ref_prediction(pi)[1] for pi in p})
    tau = draw.draw(st.none() | st.sampled_from(confs + [0.0, 0.55, 0.7, 1.0, INF]))
    reject_value = draw.draw(st.sampled_from([0.0, 0.0, -1.0, 0.5, 2.0]))
    tau_used = k / (k + 1) if tau is None else tau
    ref = ref_value(y, p, k, tau_used, reject_value)
    nothing_accepted = ref[1] == 1.0
    r = call(nothing_accepted, costlib.value_score, y, p, k=k, tau=tau, reject_value=reject_value)
    assert same_number(r.value, ref[0], rel=1e-12)
    assert same_number(r.reject_rate, ref[1])
    assert same_number(r.accepted_accuracy, ref[2])


@given(value_data(), st.integers(0, 5), st.sampled_from([0, 0, -1, 1, 2]))
def test_value_curve_matches_brute_force(data, k, reject_value):
    y, p = data
    ref_taus, ref_values = ref_value_curve(y, p, k, reject_value)
    taus, values = call(False, costlib.value_curve, y, p, k=k, reject_value=reject_value)
    assert_array_equal(taus, ref_taus)
    assert_allclose(values, ref_values, rtol=1e-12, atol=1e-12)


@given(value_data(), st.integers(0, 5), st.sampled_from([0, 0, -1, 1, 2]))
def test_value_from_counts_is_value_from_rows(data, k, reject_value):
    """Data that exist only as counts (an aggregate, DuckDB) get the same value curve."""
    y, p = data
    assume(np.ndim(p) == 1)
    from costlib.value import sweep_value, value_sweep, value_sweep_from_counts

    rows, counts = value_sweep(y, p), value_sweep_from_counts(costlib.threshold_sweep(y, p))
    assert_array_equal(counts.thresholds, rows.thresholds)
    assert_array_equal(counts.tp, rows.tp)
    assert_array_equal(counts.fp, rows.fp)
    assert (counts.positives, counts.negatives) == (rows.positives, rows.negatives)
    _, ref_values = ref_value_curve(y, p, k, reject_value)
    assert_allclose(sweep_value(counts, k, reject_value), ref_values, rtol=1e-12, atol=1e-12)


@given(value_data(), st.integers(0, 5), st.sampled_from([0, 0, -1, 1, 2]))
def test_optimal_value_and_its_tie_rule(data, k, reject_value):
    y, p = data
    # exact: with integer k and reject_value, n * V is an integer at every tau
    ref_taus, _ = ref_value_curve(y, p, k, reject_value)
    best_tau, best = None, None
    for t in ref_taus:  # descending: ties stay at the larger tau
        total = 0
        for yi, pi in zip(y, p, strict=True):
            pred, conf = ref_prediction(pi)
            total += (1 if pred == yi else -k) if conf >= t else reject_value
        if best is None or total > best:
            best_tau, best = t, total
    tau, value = call(False, costlib.optimal_value, y, p, k=k, reject_value=reject_value)
    assert tau == best_tau
    assert value == pytest.approx(best / len(y), rel=1e-12, abs=1e-15)


@given(
    value_data(),
    st.lists(st.integers(0, 6) | st.floats(0, 30), min_size=1, max_size=6),
    st.sampled_from([0.0, 0.0, -1.0, 0.5, 1.5]),
)
def test_value_against_k_optimal_rule(data, ks, reject_value):
    y, p = data
    df = call(False, costlib.value_against_k, y, p, ks, reject_value=reject_value)
    assert set(df["rule"]) == {"optimal", "tau*", "no model"}
    opt = df[df["rule"] == "optimal"]
    assert_allclose(opt["k"], ks)
    taus, _ = ref_value_curve(y, p, 0, 0)
    for k, tau, value in zip(ks, opt["tau"], opt["value"], strict=True):
        brute = max(ref_value(y, p, k, t, reject_value)[0] for t in taus)
        assert value == pytest.approx(brute, abs=1e-9)
        # the reported tau attains that value
        at_tau = quiet(costlib.value_score, y, p, k=k, tau=tau, reject_value=reject_value)
        assert at_tau.value == pytest.approx(brute, abs=1e-9)


@given(
    value_data(),
    st.lists(st.integers(0, 6) | st.floats(0, 30), min_size=1, max_size=6),
    st.sampled_from([0.0, 0.0, -1.0, 0.5]),
)
def test_value_against_k_formula_and_no_model_rules(data, ks, reject_value):
    y, p = data
    df = call(False, costlib.value_against_k, y, p, ks, reject_value=reject_value)
    star = df[df["rule"] == "tau*"]
    none = df[df["rule"] == "no model"]
    assert_allclose(star["k"], ks)
    for k, tau, value in zip(ks, star["tau"], star["value"], strict=True):
        # the break-even of a calibrated model with a case handed over worth r: (k + r)/(k + 1), k/(k+1) at r = 0
        tau_star = (k + reject_value) / (k + 1)
        want = quiet(costlib.value_score, y, p, k=k, tau=tau_star, reject_value=reject_value)
        assert value == pytest.approx(want.value, abs=1e-9)
        ref = ref_value(y, p, k, tau_star, reject_value)[0]
        assert value == pytest.approx(ref, abs=1e-9)
        # the tau reported accepts the same cases as k / (k + 1)
        at_tau = quiet(costlib.value_score, y, p, k=k, tau=tau, reject_value=reject_value)
        assert at_tau.value == pytest.approx(ref, abs=1e-9)
    assert_allclose(none["value"], reject_value)
    assert np.all(np.isinf(none["tau"]))


# --------------------------------------------------------------------------------------
# Cost-sensitive value (binary)
# --------------------------------------------------------------------------------------


@st.composite
def cs_data(draw):
    n = draw(st.integers(1, 25))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    p = draw(st.lists(EIGHTHS, min_size=n, max_size=n))
    k_tp, k_fp, k_fn = (draw(st.integers(0, 4)) for _ in range(3))
    return y, p, k_tp, k_fp, k_fn


@given(cs_data())
def test_cost_sensitive_value_paper_rule(data):
    y, p, k_tp, k_fp, k_fn = data
    assume(k_tp + k_fp > 0)  # tau_pos = k_fp / (k_tp + k_fp) must exist
    value, reject = ref_cs_value(y, p, k_tp, k_fp, k_fn, "paper")
    r = call(False, costlib.cost_sensitive_value, y, p, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, rule="paper")
    assert r.value == pytest.approx(float(value), rel=1e-12, abs=1e-15)
    assert r.reject_rate == pytest.approx(float(reject), rel=1e-12, abs=1e-15)


@given(cs_data())
def test_cost_sensitive_value_bayes_rule(data):
    y, p, k_tp, k_fp, k_fn = data
    # the spec does not say which answer wins a tie between accepting positive and negative
    for pi in map(Fraction, p):
        ev_pos, ev_neg = pi * k_tp - (1 - pi) * k_fp, (1 - pi) - pi * k_fn
        assume(not (ev_pos == ev_neg and ev_pos > 0))
    value, reject = ref_cs_value(y, p, k_tp, k_fp, k_fn, "bayes")
    r = quiet(costlib.cost_sensitive_value, y, p, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, rule="bayes")
    assert r.value == pytest.approx(float(value), rel=1e-12, abs=1e-15)
    assert r.reject_rate == pytest.approx(float(reject), rel=1e-12, abs=1e-15)


@given(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6))
def test_class_thresholds_are_break_even_points(k_tp, k_fp, k_fn):
    assume(k_tp + k_fp > 0)
    tau_pos, tau_neg = call(False, costlib.class_thresholds, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn)
    # accepting a positive at p = tau_pos is worth nothing in expectation:
    # tau_pos * k_tp - (1 - tau_pos) * k_fp = 0
    assert tau_pos * k_tp - (1 - tau_pos) * k_fp == pytest.approx(0, abs=1e-12)
    # accepting a negative when 1 - p = tau_neg: tau_neg * 1 - (1 - tau_neg) * k_fn = 0
    assert tau_neg - (1 - tau_neg) * k_fn == pytest.approx(0, abs=1e-12)
    assert 0 <= tau_pos <= 1 and 0 <= tau_neg < 1


@given(scored(weights=False), st.floats(0, 10), st.floats(0, 10))
def test_cost_sensitive_error_matches_brute_force(data, k_fp, k_fn):
    y, s, _, _ = data
    assume(len(y) > 0)
    y_pred = [int(si >= 0.5) for si in s]
    fn = sum(1 for yi, pi in zip(y, y_pred, strict=True) if yi == 1 and pi == 0)
    fp = sum(1 for yi, pi in zip(y, y_pred, strict=True) if yi == 0 and pi == 1)
    got = call(False, costlib.cost_sensitive_error, y, y_pred, k_fp=k_fp, k_fn=k_fn)
    assert got == pytest.approx((k_fn * fn + k_fp * fp) / len(y), rel=1e-12, abs=1e-15)


@given(scored(weights=False), st.floats(0, 10), st.floats(0, 10))
def test_expected_cost_matches_brute_force(data, c_fp, c_fn):
    y, s, _, _ = data
    assume(len(y) > 0)
    y_pred = [int(si >= 0.25) for si in s]
    cost = sum(
        c_fp if (yi, pi) == (0, 1) else c_fn if (yi, pi) == (1, 0) else 0 for yi, pi in zip(y, y_pred, strict=True)
    )
    got = call(False, costlib.expected_cost, y, y_pred, c_fp=c_fp, c_fn=c_fn)
    assert got == pytest.approx(cost / len(y), rel=1e-12, abs=1e-15)


# --------------------------------------------------------------------------------------
# Multiclass cost matrices
# --------------------------------------------------------------------------------------


@given(st.data())
def test_min_cost_decisions_matches_brute_force(data):
    _, rows = data.draw(class_probs())
    k = len(rows[0])
    cost = data.draw(st.lists(st.lists(st.integers(0, 5), min_size=k, max_size=k), min_size=k, max_size=k))
    h = data.draw(st.none() | st.integers(0, 6) | st.sampled_from([0.5, 1.25, 2.5]))
    got = call(False, costlib.min_cost_decisions, rows, cost, abstain_cost=h)
    assert got.dtype.kind == "i"
    assert got.tolist() == ref_min_cost(rows, cost, h)


@given(st.data())
def test_min_cost_decisions_binary_1d(data):
    p = data.draw(st.lists(EIGHTHS, min_size=1, max_size=25))
    cost = data.draw(st.lists(st.lists(st.integers(0, 5), min_size=2, max_size=2), min_size=2, max_size=2))
    h = data.draw(st.none() | st.integers(0, 6))
    got = call(False, costlib.min_cost_decisions, p, cost, abstain_cost=h)
    assert got.tolist() == ref_min_cost([[1 - q, q] for q in p], cost, h)


@given(st.data())
def test_expected_cost_matrix_matches_brute_force(data):
    k = data.draw(st.integers(1, 4))
    confusion = data.draw(st.lists(st.lists(st.integers(0, 5), min_size=k, max_size=k), min_size=k, max_size=k))
    cost = data.draw(st.lists(st.lists(st.floats(0, 10), min_size=k, max_size=k), min_size=k, max_size=k))
    total = sum(map(sum, confusion))
    got = call(total == 0, costlib.expected_cost_matrix, confusion, cost)
    if total == 0:
        assert math.isnan(got)
    else:
        want = sum(confusion[i][j] * cost[i][j] for i in range(k) for j in range(k)) / total
        assert got == pytest.approx(want, rel=1e-12, abs=1e-15)


# --------------------------------------------------------------------------------------
# Instance-level costs
# --------------------------------------------------------------------------------------

DELTAS = st.sampled_from([-3.0, -1.0, -0.5, 0.0, 0.0, 0.25, 1.0, 2.0])


@given(st.data())
def test_nec_and_error_rate_match_brute_force(data):
    n = data.draw(st.integers(0, 25))
    y_pred = data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    delta = data.draw(st.lists(DELTAS | st.floats(-100, 100), min_size=n, max_size=n))
    want = ref_nec(y_pred, delta)
    got = call(math.isnan(want), costlib.normalized_excess_cost, y_pred, delta)
    assert same_number(got, want)
    want = ref_error_rate(y_pred, delta)
    got = call(math.isnan(want), costlib.error_rate, y_pred, delta)
    assert same_number(got, want)


@given(st.data())
def test_nec_curve_matches_brute_force(data):
    n = data.draw(st.integers(0, 25))
    s = data.draw(st.lists(SCORES, min_size=n, max_size=n))
    delta = data.draw(st.lists(DELTAS, min_size=n, max_size=n))
    # the cost sweep with weights |delta|: rows with delta 0 weigh nothing and are left out
    thresholds = [INF] + sorted({si for si, d in zip(s, delta, strict=True) if d != 0}, reverse=True)
    want = [ref_nec([int(si >= t) for si in s], delta) for t in thresholds]
    degenerate = all(d == 0 for d in delta)
    t, nec = call(degenerate, costlib.nec_curve, s, delta)
    assert_array_equal(t, thresholds)
    assert_allclose(nec, want, rtol=1e-12, atol=1e-12)


@given(st.lists(st.integers(0, 20), max_size=20), st.data())
def test_delta_sources_match_their_formulas(yes, data):
    no = data.draw(st.lists(st.integers(0, 20), min_size=len(yes), max_size=len(yes)))
    got = costlib.delta_from_votes(yes, no)
    assert_allclose(got, [math.log((a + 1) / (b + 1)) for a, b in zip(yes, no, strict=True)], rtol=1e-12, atol=1e-15)
    # more yes than no votes <=> positive label
    assert_array_equal(np.asarray(got) > 0, [a > b for a, b in zip(yes, no, strict=True)])
    z = data.draw(st.lists(st.floats(-50, 50), min_size=1, max_size=10))
    tau = data.draw(st.floats(-50, 50))
    assert_allclose(costlib.delta_from_threshold(z, tau), [zi - tau for zi in z], atol=1e-12)
    assert_allclose(costlib.delta_from_rating(z, tau), [zi - tau for zi in z], atol=1e-12)


# --------------------------------------------------------------------------------------
# Groups and cutoff rules
# --------------------------------------------------------------------------------------

PRICES = st.tuples(st.integers(0, 4), st.integers(0, 4)).filter(lambda c: sum(c) > 0)


@given(scored(min_size=1, weights=False, groups=True), st.data())
def test_group_costs_matches_brute_force(data, draw):
    y, s, _, g = data
    names = sorted(set(g))
    costs = {name: draw.draw(PRICES) for name in names}
    cut = {name: draw.draw(SCORES | st.sampled_from([INF, -INF, 0.3])) for name in names}
    df = call(False, costlib.group_costs, y, s, g, costs=costs, thresholds=cut)
    assert list(df.columns) == ["group", "n", "threshold", "flagged_rate", "fp", "fn", "cost_per_100"]
    assert_rows(df, ref_group_costs(y, s, g, costs, cut))


@given(scored(min_size=1, weights=False, groups=True), scored(min_size=1, weights=False, groups=True), st.data())
def test_compare_rules_matches_brute_force(train, test, draw):
    y_tr, s_tr, _, g_tr = train
    y_te, s_te, _, g_te = test
    costs = {name: draw.draw(PRICES) for name in ["a", "b", "c"]}
    cutoffs = {"threshold 0.5": {}, "elkan": {}, "cost-optimal": {}, "flag nobody": {}}
    degenerate = False
    for name in sorted(set(g_te)):
        c_fp, c_fn = costs[name]
        cutoffs["threshold 0.5"][name] = 0.5
        cutoffs["elkan"][name] = c_fp / (c_fp + c_fn)
        cutoffs["flag nobody"][name] = INF
        # fitted on the training rows of the group, then judged on its test rows
        idx = [i for i in range(len(y_tr)) if g_tr[i] == name]
        t, _ = ref_optimal_threshold([y_tr[i] for i in idx], [s_tr[i] for i in idx], None, c_fp, c_fn)
        cutoffs["cost-optimal"][name] = t
        degenerate |= isinstance(t, float) and math.isnan(t)
    for name in sorted(set(g_tr) - set(g_te)):  # fitted but not judged: may still warn
        idx = [i for i in range(len(y_tr)) if g_tr[i] == name]
        degenerate |= len({y_tr[i] for i in idx}) < 2
    df = call(degenerate, costlib.compare_rules, (y_tr, s_tr, g_tr), (y_te, s_te, g_te), costs=costs)
    assert list(df.columns) == ["rule", "group", "threshold", "flagged_rate", "cost_per_100"]
    want = []
    for rule, cut in cutoffs.items():
        for row in ref_group_costs(y_te, s_te, g_te, costs, cut):
            if isinstance(row["threshold"], float) and math.isnan(row["threshold"]):
                row.update(flagged_rate=math.nan, cost_per_100=math.nan)
            want.append(
                {
                    "rule": rule,
                    "group": row["group"],
                    "threshold": row["threshold"],
                    "flagged_rate": row["flagged_rate"],
                    "cost_per_100": row["cost_per_100"],
                }
            )
    assert_rows(df, want)


@given(scored(min_size=1, groups=True), st.data())
def test_cost_optimal_thresholds_per_group(data, draw):
    y, s, w, g = data
    costs = {name: draw.draw(PRICES) for name in ["a", "b", "c"]}
    want, degenerate = {}, False
    for name in sorted(set(g)):
        idx = [i for i in range(len(y)) if g[i] == name]
        t, _ = ref_optimal_threshold(
            [y[i] for i in idx], [s[i] for i in idx], None if w is None else [w[i] for i in idx], *costs[name]
        )
        want[name] = t
        degenerate |= isinstance(t, float) and math.isnan(t)
    got = call(degenerate, costlib.cost_optimal_thresholds, y, s, g, costs=costs, sample_weight=w)
    assert set(got) == set(want)
    for name, t in want.items():
        if isinstance(t, float) and math.isnan(t):
            assert math.isnan(got[name])
        else:
            assert got[name] == t


def _nec_table_brute(models, d, threshold, groups):
    """Row by row: every option's mistakes at the cutoff, overall and per group."""

    def row(dd, pred):
        wrong = pred != (dd > 0)
        total = np.abs(dd).sum()
        err = wrong.mean() if dd.size else np.nan
        nec = np.abs(dd)[wrong].sum() / total if total > 0 else np.nan
        return [dd.size, err, nec, err / nec if nec > 0 else np.nan]

    options = {m: s >= threshold for m, s in models.items()}
    options.update({R.NOBODY: np.zeros(d.size, bool), R.EVERYONE: np.ones(d.size, bool)})
    overall = [[o, *row(d, pred)] for o, pred in options.items()]
    by_group = []
    if groups is not None:
        for o, pred in options.items():
            for g in sorted(set(groups.tolist()), key=str):
                sel = groups == g
                by_group.append([o, g, *row(d[sel], pred[sel])])
    return overall, by_group


@settings(max_examples=120, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(-3, 3), st.sampled_from(["b", "a", "c"])),
        min_size=0,
        max_size=40,
    ),
    threshold=st.sampled_from([-1.0, 0.0, 0.25, 0.5, 0.55, 1.0, 2.0, float("nan")]),
    grouped=st.booleans(),
    clash=st.booleans(),
)
def test_nec_sweeps_read_at_a_cutoff_equal_the_row_by_row_table(rows, threshold, grouped, clash):
    from costlib.instance import NecSweeps

    a = np.array([r[0] / 6 for r in rows])
    b = np.array([r[1] / 6 for r in rows])
    d = np.array([r[2] * 0.1 for r in rows])  # not dyadic: sums in another order round differently
    g = np.array([r[3] for r in rows], dtype=object) if grouped else None
    models = {"a": a, R.NOBODY if clash else "b": b}  # a model may be named like a decision without one
    sweeps = NecSweeps.of(models, d, groups=g)
    for t in (threshold, threshold / 2):  # one sweep, read at several cutoffs
        overall, by_group = sweeps.table(t)
        want_overall, want_by_group = _nec_table_brute(models, d, t, g)
        assert overall["option"].tolist() == [w[0] for w in want_overall]
        np.testing.assert_allclose(overall.iloc[:, 1:].to_numpy(float), [w[1:] for w in want_overall], rtol=1e-12)
        assert len(by_group) == len(want_by_group)
        if want_by_group:
            assert by_group[["option", "group"]].values.tolist() == [w[:2] for w in want_by_group]
            np.testing.assert_allclose(by_group.iloc[:, 2:].to_numpy(float), [w[2:] for w in want_by_group], rtol=1e-12)
