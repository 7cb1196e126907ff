"""The kernel's chunked accumulation gives the same counts whatever the chunk size."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costlib
from costlib import sweep as sweep_module


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
