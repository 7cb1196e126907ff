"""The per-outcome answer sorts its rows once (`per_outcome.OutcomeSweep`) and a price move only
reweights them: its cross-fit held against refitting every fold on its rows (the way it was computed
before it was read off the level sums), and a second price book that deals, draws and sorts nothing."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.binary import honest as H
from costlib.binary import refit_moves as RM
from costlib.binary.folds import CROSS_FOLDS, SPLIT_BUDGET, SPLITS
from costlib.value import per_outcome as P
from costlib.value import recommendation as VR
from costlib.value.contract import value_sweep


def _refit_each_fold(y, p, prices, seed):
    """Each fold of each deal judged by `fit_outcome_thresholds` refitted on the other folds' rows."""
    n = y.size
    folds = min(CROSS_FOLDS, n)
    splits = int(np.clip(SPLIT_BUDGET // max(n * folds, 1), 2, SPLITS))
    rng = np.random.default_rng(seed)
    deals, handed = np.zeros((splits, n)), np.zeros(n)
    for d in range(splits):
        part = rng.permutation(np.arange(n) % folds)
        for f in range(folds):
            out = part == f
            t_pos, t_neg = P.fit_outcome_thresholds(y[~out], p[~out], **prices)
            deals[d, out], accepted = P.outcome_row_values(y[out], p[out], t_pos, t_neg, **prices)
            handed[out] += ~accepted
    return deals.mean(axis=0), deals.mean(axis=1), handed / splits


@settings(max_examples=120, deadline=None)
@given(
    n=st.integers(1, 60),
    seed=st.integers(0, 2**16),
    levels=st.sampled_from([3, 9, 1000]),
    k_tp=st.integers(0, 8).map(lambda i: i / 4),
    k_fp=st.integers(0, 40).map(lambda i: i / 4),
    k_fn=st.integers(0, 40).map(lambda i: i / 4),
    r=st.integers(-4, 4).map(lambda i: i / 4),
)
def test_the_cross_fit_read_off_level_sums_is_refitting_each_fold(n, seed, levels, k_tp, k_fp, k_fn, r):
    """Prices in quarters keep every sum exact, so the two must agree bit for bit, ties included."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    p = np.round(rng.random(n) * (levels - 1)) / (levels - 1)  # few levels: ties, and 0.5 itself
    prices = {"k_tp": k_tp, "k_fp": k_fp, "k_fn": k_fn, "r": r}
    got = P._cross_fitted_rows(P.outcome_sweep(y, p), prices, seed)
    want = _refit_each_fold(y, p, prices, seed)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)


def _rows(n=3000, seed=1):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    p = 1 / (1 + np.exp(-(rng.normal(0, 1, n) + 1.0 * (2 * y - 1))))
    return y, p


def test_a_price_move_sorts_deals_and_draws_nothing_again():
    y, p = _rows()
    judge = {"m": P.outcome_sweep(y, p)}
    first = P.recommend_sweeps(judge, k_fp=1.0, k_fn=3.0)
    assert first.estimate == H.CROSS_FITTED and np.isfinite(first.gain_low)
    never = {"side_effect": AssertionError("made again at a price move")}
    with (
        patch.object(P, "_deals", **never),
        patch.object(P, "level_draws", **never),
        patch.object(np, "unique", **never),
        patch.object(np, "argsort", **never),
        patch.object(np.random, "default_rng", **never),
    ):
        moved = P.recommend_sweeps(judge, k_fp=1.0, k_fn=5.0)
        P.sweep_curves(judge["m"], moved.tau_pos, moved.tau_neg, k_tp=1.0, k_fp=1.0, k_fn=5.0, r=0.0)
    # and the answer is the one made from scratch at those prices
    fresh = P.recommend_outcome(y, {"m": p}, k_fp=1.0, k_fn=5.0)
    assert (moved.gain, moved.gain_low, moved.gain_high) == (fresh.gain, fresh.gain_low, fresh.gain_high)


def test_a_move_of_k_deals_and_draws_nothing_again():
    y, p = _rows()
    sweeps = {"m": value_sweep(y, p)}
    first = VR.recommend_value(sweeps, k=3.0)
    capped = VR.recommend_value(sweeps, k=3.0, max_reject=0.2)  # within a cap: deals of their own, the same draws
    assert first.estimate == capped.estimate == H.CROSS_FITTED
    never = {"side_effect": AssertionError("made again at a move of k")}
    with patch.object(VR, "_deals", **never), patch.object(RM, "level_draws", **never):
        moved = VR.recommend_value(sweeps, k=4.0)
        moved_capped = VR.recommend_value(sweeps, k=4.0, max_reject=0.2)
    fresh = VR.recommend_value({"m": value_sweep(y, p)}, k=4.0)
    assert (moved.gain, moved.gain_low, moved.gain_high) == (fresh.gain, fresh.gain_low, fresh.gain_high)
    fresh = VR.recommend_value({"m": value_sweep(y, p)}, k=4.0, max_reject=0.2)
    assert (moved_capped.gain_low, moved_capped.gain_high) == (fresh.gain_low, fresh.gain_high)
    # nothing kept holds the sweep itself: dropping it frees it without the cycle collector
    assert all(part is not sweeps["m"] for kept in sweeps["m"].__dict__["_kept"].values() for part in kept)
