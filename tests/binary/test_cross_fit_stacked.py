"""The cross-fit of every deal at once (issue 39: `folds._fit_deals` prices all deals' folds in one
array and picks with `argbest_rows`) against the fold-by-fold loop it replaced, kept here as the
reference: every count, every deal's cost and the rows between the two rules' cutoffs bit for bit,
at uniform and per-group prices, with folds that cannot be fitted, ties and groups too small for a
cutoff of their own."""

from __future__ import annotations

import warnings
from unittest.mock import patch

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import costlib
from costlib.binary import decision as D
from costlib.binary import folds as F
from costlib.core.prices import mistakes_cost
from costlib.core.sweep import argbest


def reference_cross_fit(gs, pooled, index, folds, prices):
    """`folds.cross_fit` without a review limit as it was before issue 39: one fold at a time."""
    g_n = len(gs.groups)
    k = folds.tp.shape[0]
    sizes = np.diff(gs.offsets)
    c_fp_e, c_fn_e = np.repeat(prices.c_fp, sizes), np.repeat(prices.c_fn, sizes)
    all_cost = mistakes_cost(gs.fp, np.repeat(gs.positives, sizes) - gs.tp, c_fp_e, c_fn_e)
    pooled_all = pooled.errors_cost(prices.c_fp[0], prices.c_fn[0]) if prices.uniform else None
    out = {name: {"tp": np.zeros(g_n), "fp": np.zeros(g_n), "fn": np.zeros(g_n)} for name in ("single", "group")}
    between = {"pos": np.zeros(g_n), "neg": np.zeros(g_n)}  # the fold's rows between its two cutoffs
    fitted = True
    for f in range(k):
        c_pos = gs.positives - folds.positives[f]
        c_neg = gs.negatives - folds.negatives[f]
        total = float(c_pos.sum() + c_neg.sum())
        if not (c_pos.sum() > 0 and c_neg.sum() > 0):
            fitted = False
            continue
        fold_cost = mistakes_cost(folds.fp[f], np.repeat(folds.positives[f], sizes) - folds.tp[f], c_fp_e, c_fn_e)
        comp = all_cost - fold_cost
        if prices.uniform:
            fold_pooled = mistakes_cost(
                folds.pooled_fp[f], folds.positives[f].sum() - folds.pooled_tp[f], prices.c_fp[0], prices.c_fn[0]
            )
            single_cost = pooled_all - fold_pooled
        else:
            single_cost = np.zeros(pooled.thresholds.size)
            for i in range(g_n):
                single_cost += comp[int(gs.offsets[i]) + index[i]]
        j_single = argbest(single_cost / total)
        own = F.own_cutoff(c_pos, c_neg)
        for i in range(g_n):
            lo, hi = int(gs.offsets[i]), int(gs.offsets[i + 1])
            at_single = lo + int(index[i][j_single])
            at_group = lo + argbest(comp[lo:hi] / float(c_pos[i] + c_neg[i])) if own[i] else at_single
            for name, at in (("single", at_single), ("group", at_group)):
                t_p = float(folds.tp[f, at])
                out[name]["tp"][i] += t_p
                out[name]["fp"][i] += float(folds.fp[f, at])
                out[name]["fn"][i] += float(folds.positives[f, i]) - t_p
            for c, counts in (("pos", folds.tp), ("neg", folds.fp)):
                between[c][i] += abs(float(counts[f, at_group]) - float(counts[f, at_single]))
    return out["single"], out["group"], fitted, between


def reference_repeated(gs, pooled, index, deals, prices):
    """`folds.repeated_cross_fit` before issue 39: the mean of the reference over the deals."""
    fits = [reference_cross_fit(gs, pooled, index, folds, prices) for folds in deals]
    total = float(np.sum(gs.positives) + np.sum(gs.negatives))
    out = {}
    for r, name in enumerate(("single", "per_group")):
        each = [fit[r] for fit in fits]
        out[name] = {c: np.mean([e[c] for e in each], axis=0) for c in ("tp", "fp", "fn")}
        with np.errstate(invalid="ignore", divide="ignore"):
            out[name]["splits"] = np.array(
                [float(np.sum(mistakes_cost(e["fp"], e["fn"], prices.c_fp, prices.c_fn))) / total for e in each]
            )
    between = {c: np.mean([fit[3][c] for fit in fits], axis=0) for c in ("pos", "neg")}
    return out, all(fit[2] for fit in fits), between


rows = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 9), st.sampled_from("abc")), min_size=3, max_size=120)
price = st.one_of(st.integers(0, 5).map(float), st.floats(0.01, 1e6))


@settings(max_examples=80, deadline=None)
@given(
    data=rows,
    prices=st.lists(st.tuples(price, price), min_size=3, max_size=3),
    uniform=st.booleans(),
    seed=st.integers(0, 50),
    deals=st.integers(1, 4),
    k=st.sampled_from([2, 5, 10]),
    min_rows=st.sampled_from([1, 3, 20]),
)
def test_all_deals_at_once_equal_one_fold_at_a_time(data, prices, uniform, seed, deals, k, min_rows):
    y = np.array([d[0] for d in data])
    s = np.array([d[1] for d in data]) / 9.0
    g = np.array([d[2] for d in data])
    ms = D.sweep_model(y, s, g)
    costs = {n: prices[0] if uniform else prices[i] for i, n in enumerate("abc")}
    p = D.prices_for(ms.groups, {n: costs[n] for n in ms.groups})
    index = ms.pooled_index("fit")
    dealt = tuple(F.make_folds(ms.fit, ms.fit_pooled, index, k=k, seed=seed, split=i) for i in range(deals))
    with patch.object(F, "MIN_CLASS_ROWS", min_rows), warnings.catch_warnings():
        warnings.simplefilter("ignore", costlib.DegenerateWarning)
        got = F.repeated_cross_fit(ms.fit, ms.fit_pooled, index, dealt, p)
        again = F.repeated_cross_fit(ms.fit, ms.fit_pooled, index, dealt, p)  # from the stacked deals kept
        one = F.cross_fit(ms.fit, ms.fit_pooled, index, dealt[0], p)
        ref, fitted, between = reference_repeated(ms.fit, ms.fit_pooled, index, dealt, p)
        ref_one = reference_cross_fit(ms.fit, ms.fit_pooled, index, dealt[0], p)
    assert got.fitted == again.fitted == fitted
    assert one.fitted == ref_one[2]
    for name in ("single", "per_group"):
        for c in ("tp", "fp", "fn", "splits"):
            np.testing.assert_array_equal(getattr(got, name)[c], ref[name][c], err_msg=f"{name} {c}")
            np.testing.assert_array_equal(getattr(again, name)[c], ref[name][c], err_msg=f"{name} {c}")
    for r, name in enumerate(("single", "per_group")):
        for c in ("tp", "fp", "fn"):
            np.testing.assert_array_equal(getattr(one, name)[c], ref_one[r][c], err_msg=f"one deal {name} {c}")
    for c in ("pos", "neg"):  # the rows the two rules judge differently (the extra saving's rows' variance)
        np.testing.assert_array_equal(got.between[c], between[c], err_msg=f"between {c}")
        np.testing.assert_array_equal(again.between[c], between[c], err_msg=f"between {c}")
        np.testing.assert_array_equal(one.between[c], ref_one[3][c], err_msg=f"one deal between {c}")
