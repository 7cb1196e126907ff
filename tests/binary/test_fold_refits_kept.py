"""Issue 39: the bootstrap of the cross-fitted estimate keeps each fold's other folds' weights
as pricing reads them (`refits.FoldDraws`: negatives flagged and positives not flagged), so a
price move no longer subtracts every fold from the sum; its refits, costs and intervals are
those of the loop it replaced, kept here as the reference, bit for bit (with and without a
review limit, at one price and at prices per group)."""

from __future__ import annotations

import numpy as np
import pytest

from costlib.binary import decision as D
from costlib.binary import folds as F
from costlib.binary import refits as RF
from costlib.binary.capacity import binds, cap_limit
from costlib.core.prices import mistakes_cost


def reference_edges(tp, fp, prices, capacity):
    """`refits._refit_edges` before issue 39's third cut: on the weights flagged, `tp` and `fp`."""
    c_fp, c_fn = prices.c_fp[None, :, None], prices.c_fn[None, :, None]
    p_in, n_in = tp[..., -1], fp[..., -1]
    cost_in = mistakes_cost(fp, p_in[..., None] - tp, c_fp, c_fn)
    own = F.own_cutoff(p_in, n_in)
    if binds(capacity):
        top = 2.0 * float(np.max(prices.c_fp) + np.max(prices.c_fn)) + 1.0
        flagged = (tp + fp).astype(np.float64)
        pooled_flag = flagged.sum(axis=1)
        limit = cap_limit(capacity, 1.0) * pooled_flag[:, -1]
        e_single = np.argmin(np.where(pooled_flag <= limit[:, None], cost_in.sum(axis=1), np.inf), axis=1)
        return e_single, RF._refit_within(cost_in, flagged, own, e_single, limit, top)
    e_single = np.argmin(cost_in.sum(axis=1), axis=1)
    return e_single, np.where(own, np.argmin(cost_in, axis=2), e_single[:, None])


def reference_price_fold_refits(tp, fp, prices, capacity):
    """`refits.price_fold_refits` before issue 39's third cut, on each fold's own weights."""
    c_fp, c_fn = prices.c_fp[None, :], prices.c_fn[None, :]
    parts = {k: [] for k in ("baseline", "single", "per_group", "single_g", "group_g", "alone")}
    for start in range(0, tp.shape[0], RF.CHUNK):
        t, f = tp[start : start + RF.CHUNK], fp[start : start + RF.CHUNK]
        b, k, g_n, e_n = t.shape
        all_tp, all_fp = t.sum(axis=1), f.sum(axis=1)
        fit_tp = (all_tp[:, None] - t).reshape(b * k, g_n, e_n)
        fit_fp = (all_fp[:, None] - f).reshape(b * k, g_n, e_n)
        e_single, e_group = reference_edges(fit_tp, fit_fp, prices, capacity)
        tp_j, fp_j = t.reshape(b * k, g_n, e_n), f.reshape(b * k, g_n, e_n)
        single_g = RF.cost_at(tp_j, fp_j, e_single[:, None], c_fp, c_fn).reshape(b, k, g_n).sum(axis=1)
        group_g = RF.cost_at(tp_j, fp_j, e_group, c_fp, c_fn).reshape(b, k, g_n).sum(axis=1)
        p_j, n_j = all_tp[..., -1].astype(np.float64), all_fp[..., -1].astype(np.float64)
        RF._judged(parts, single_g, group_g, p_j, n_j, prices, capacity)
    return RF._refits(parts)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("costs", [(1.0, 4.25), (0.1, 0.3), (3.0, 1.0), (0.0, 2.0), "per group"])
@pytest.mark.parametrize("capacity", [None, 0.3])
def test_fold_refits_are_those_of_the_loop_they_replaced(seed, costs, capacity):
    rng = np.random.default_rng(seed)
    n = 4000
    y = rng.integers(0, 2, n)
    s = np.round(1 / (1 + np.exp(-(1.2 * (2 * y - 1) + rng.normal(0, 1.1, n)))), 2 + seed % 2)
    g = rng.choice(np.array(["a", "b", "c"]), n, p=[0.6, 0.3, 0.1])
    ms = D.sweep_model(y, s, g)
    folds = F.make_folds(ms.fit, ms.fit_pooled, ms.pooled_index("fit"), seed=seed)
    d = RF.fold_draws(ms.fit, ms.fit_pooled, folds, n_resamples=300, seed=seed)  # two chunks
    if costs == "per group":
        costs = {"a": (1.0, 2.0), "b": (3.0, 0.5), "c": (0.2, 9.0)}
    p = D.prices_for(ms.groups, costs)
    fit_tp = d.fit_fn[..., :1] - d.fit_fn  # each fold's other folds' positives flagged
    tp, fp = d.all_tp[:, None] - fit_tp, d.all_fp[:, None] - d.fit_fp  # each fold's own
    got = RF.price_fold_refits(d, p, capacity)
    ref = reference_price_fold_refits(tp, fp, p, capacity)
    for name in ("baseline", "single", "per_group", "single_by_group", "per_group_by_group"):
        np.testing.assert_array_equal(getattr(got, name), getattr(ref, name), err_msg=name)
