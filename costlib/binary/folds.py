"""Folds and cross-fitting: every row judged by cutoffs fitted without it (no split column).

The rows of each group and class are dealt into `CROSS_FOLDS` folds; each fold is judged by the
cutoffs fitted on the other folds, at full resolution (every distinct score), so each row is
judged by cutoffs fitted without it. Rows with the same group, label and score are
interchangeable for every cost, so the deal is drawn from the sweep's counts (a multivariate
hypergeometric per fold): the same distribution as dealing rows, and it works from counts
computed anywhere (DuckDB, Spark, an aggregate file). The estimate is the mean over independent
deals (`deal_shape`, `repeated_cross_fit`), which removes the luck of one deal.

Deals do not depend on the prices: they are made once per model and cached (`honest.judge`), and
a price move only reweights them (the deals' passes over the sweep are bounded by `SPLIT_BUDGET`).

A group needs at least `MIN_CLASS_ROWS` positives and as many negatives among the rows a
cutoff is fitted on to get a cutoff of its own (`own_cutoff`); below that it gets the cutoff for
everyone (its own would be a guess from a handful of people).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from costlib.binary import capacity as C
from costlib.core.prices import Prices, mistakes_cost
from costlib.core.sweep import GroupedSweep, Sweep, argbest

FOLDS = 5  # folds of `make_folds` unless asked: the bootstrap's (its draws count them as groups)
CROSS_FOLDS = 10  # folds of each deal of the cross-fitted estimate: each judged by cutoffs fitted on nine
SPLITS = 10  # deals of the rows into folds, at most: the cross-fitted estimate is their mean
SPLIT_BUDGET = 2_000_000  # folds x deals x distinct scores: what a price move passes over, at most
MIN_CLASS_ROWS = 20  # positives and negatives a group needs among its fit rows for a cutoff of its own


# ---------------------------------------------------------------------------------------
# Who gets a cutoff of their own


def own_cutoff(positives, negatives) -> np.ndarray:
    """Whether groups with these counts on their fit rows get a cutoff of their own."""
    return (np.asarray(positives) >= MIN_CLASS_ROWS) & (np.asarray(negatives) >= MIN_CLASS_ROWS)


def pooled_groups(gs: GroupedSweep) -> tuple:
    """The groups of `gs` (fit rows) too small for a cutoff of their own."""
    ok = own_cutoff(gs.positives, gs.negatives)
    return tuple(g for g, keep in zip(gs.groups, ok, strict=True) if not keep)


# ---------------------------------------------------------------------------------------
# Folds: dealt from the counts


@dataclass(frozen=True, eq=False)
class Folds:
    """Stratified folds of a grouped sweep's rows (`make_folds`), as cumulative counts on its grid.

    ``tp[k]`` and ``fp[k]`` run along ``gs.thresholds`` (every group's sweep end to end);
    ``pooled_tp[k]`` along the pooled thresholds; positives and negatives are (K, groups).
    """

    tp: np.ndarray
    fp: np.ndarray
    positives: np.ndarray
    negatives: np.ndarray
    pooled_tp: np.ndarray
    pooled_fp: np.ndarray


DEAL_ROWS = 50_000_000  # up to this many rows, folds are dealt row by row (fast); beyond, level by level


def _deal(levels: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """(k, levels) counts: the rows of each level dealt into k folds of (nearly) equal size,
    every dealing equally likely (rows of one level are interchangeable)."""
    n = int(levels.sum())
    if n <= DEAL_ROWS:
        fold = (np.arange(n) + int(rng.integers(k))) % k  # which folds get the extra row: random
        rng.shuffle(fold)
        level = np.repeat(np.arange(levels.size), levels)
        return np.bincount(fold * levels.size + level, minlength=k * levels.size).reshape(k, levels.size)
    sizes = np.full(k, n // k, dtype=np.int64)
    sizes[: n % k] += 1
    out = np.zeros((k, levels.size), dtype=np.int64)
    remaining = levels.copy()
    for f in range(k - 1):
        if sizes[f] > 0:
            out[f] = rng.multivariate_hypergeometric(remaining, int(sizes[f]))
            remaining -= out[f]
    out[k - 1] = remaining
    return out


def integer_counts(gs: GroupedSweep) -> bool:
    """Whether every count of `gs` is a whole number (unweighted rows: folds can be dealt)."""
    return bool(np.all(gs.tp == np.round(gs.tp)) and np.all(gs.fp == np.round(gs.fp)))


def make_folds(
    gs: GroupedSweep, pooled: Sweep, index: np.ndarray, *, k: int = FOLDS, seed: int = 0, split: int = 0
) -> Folds:
    """Deal the rows of `gs` into `k` folds, stratified by group and label (seeded).

    `index` is each group's sweep index at every pooled threshold (`ModelSweeps.pooled_index`);
    `split` numbers the deals of one seed (`deal_shape`: each is an independent deal).
    """
    g_n = len(gs.groups)
    total = gs.thresholds.size
    dtype = np.int32 if max(float(gs.positives.sum()), float(gs.negatives.sum())) < 2**31 else np.int64
    tp = np.zeros((k, total), dtype=dtype)
    fp = np.zeros((k, total), dtype=dtype)
    pos = np.zeros((k, g_n))
    neg = np.zeros((k, g_n))
    for i in range(g_n):
        lo, hi = int(gs.offsets[i]), int(gs.offsets[i + 1])
        for label, cum, out, tot in ((1, gs.tp, tp, pos), (0, gs.fp, fp, neg)):
            levels = np.round(np.diff(cum[lo:hi])).astype(np.int64)
            key = [int(seed), i, label] + ([int(split)] if split else [])
            dealt = _deal(levels, k, np.random.default_rng(key))
            out[:, lo + 1 : hi] = np.cumsum(dealt, axis=1)
            tot[:, i] = dealt.sum(axis=1)
    p_tp = np.zeros((k, pooled.thresholds.size), dtype=dtype)
    p_fp = np.zeros_like(p_tp)
    for i in range(g_n):
        at = int(gs.offsets[i]) + index[i]
        p_tp += tp[:, at]
        p_fp += fp[:, at]
    return Folds(tp, fp, pos, neg, p_tp, p_fp)


# ---------------------------------------------------------------------------------------
# Cross-fitting: every fold judged by cutoffs fitted on the others


@dataclass(frozen=True, eq=False)
class CrossFit:
    """The fitted rules judged by cross-fitting: counts summed over the folds, (groups,).

    ``single`` and ``per_group`` are dicts with ``tp``, ``fp``, ``fn`` arrays (one per group);
    repeated (`repeated_cross_fit`), those are the mean over the deals (not whole numbers), and
    ``splits`` holds each deal's cost per case, (deals,).
    """

    single: dict
    per_group: dict
    fitted: bool  # False when some fold could not be fitted (one class on its other folds)


def _other_folds(gs: GroupedSweep, folds: Folds, f: int) -> list[Sweep]:
    """Each group's sweep of the rows outside fold `f` (price-free: kept on `folds`, with the
    hulls the capacity fit reads, so that a price move does not rebuild them)."""
    cache = folds.__dict__.setdefault("_other", {})
    if f not in cache:
        bounds = zip(gs.offsets[:-1].tolist(), gs.offsets[1:].tolist(), strict=True)
        cache[f] = [
            Sweep(
                gs.thresholds[lo:hi],
                (gs.tp[lo:hi] - folds.tp[f, lo:hi]).astype(np.float64),
                (gs.fp[lo:hi] - folds.fp[f, lo:hi]).astype(np.float64),
                float(gs.positives[i] - folds.positives[f, i]),
                float(gs.negatives[i] - folds.negatives[f, i]),
            )
            for i, (lo, hi) in enumerate(bounds)
        ]
    return cache[f]


def cross_fit(
    gs: GroupedSweep, pooled: Sweep, index: np.ndarray, folds: Folds, prices: Prices, capacity: float | None = None
) -> CrossFit:
    """Judge the best single cutoff and the best cutoff per group by cross-fitting (exact).

    A fold's other folds cost what all rows cost minus what the fold costs, at every cutoff:
    one pass over all rows' costs per price book, then one over each fold's. Under a
    `capacity` both rules are fitted within it on the other folds (`capacity.group_within`);
    without one, every fold is judged at once (`_fit_deals`)."""
    if not C.binds(capacity):
        return _fit_deals(gs, pooled, index, _stacked(gs, (folds,)), prices)[0]
    g_n = len(gs.groups)
    k = folds.tp.shape[0]
    sizes = np.diff(gs.offsets)
    c_fp_e, c_fn_e = np.repeat(prices.c_fp, sizes), np.repeat(prices.c_fn, sizes)  # each entry's group prices
    all_cost = mistakes_cost(gs.fp, np.repeat(gs.positives, sizes) - gs.tp, c_fp_e, c_fn_e)
    pooled_all = pooled.errors_cost(prices.c_fp[0], prices.c_fn[0]) if prices.uniform else None
    out = {name: {"tp": np.zeros(g_n), "fp": np.zeros(g_n), "fn": np.zeros(g_n)} for name in ("single", "group")}
    fitted = True
    for f in range(k):
        c_pos = gs.positives - folds.positives[f]
        c_neg = gs.negatives - folds.negatives[f]
        total = float(c_pos.sum() + c_neg.sum())
        if not (c_pos.sum() > 0 and c_neg.sum() > 0):
            fitted = False
            continue
        fold_cost = mistakes_cost(folds.fp[f], np.repeat(folds.positives[f], sizes) - folds.tp[f], c_fp_e, c_fn_e)
        comp = all_cost - fold_cost  # the other folds' cost at every cutoff of every group
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
        own = own_cutoff(c_pos, c_neg)
        within = None
        if C.binds(capacity):
            flagged = pooled.flagged - (folds.pooled_tp[f] + folds.pooled_fp[f])  # the other folds' own
            j_single, within, _ = C.group_within(
                _other_folds(gs, folds, f), index, prices, capacity, own, single_cost=single_cost, flagged=flagged
            )
        for i in range(g_n):
            lo, hi = int(gs.offsets[i]), int(gs.offsets[i + 1])
            at_single = lo + int(index[i][j_single])
            if within is not None:
                at_group = lo + int(within.index[i])
            else:
                at_group = lo + argbest(comp[lo:hi] / float(c_pos[i] + c_neg[i])) if own[i] else at_single
            for name, at in (("single", at_single), ("group", at_group)):
                t_p = float(folds.tp[f, at])
                out[name]["tp"][i] += t_p
                out[name]["fp"][i] += float(folds.fp[f, at])
                out[name]["fn"][i] += float(folds.positives[f, i]) - t_p
    return CrossFit(out["single"], out["group"], fitted)


@dataclass(frozen=True, eq=False)
class _Stacked:
    """Deals' folds stacked, (deals, folds, ...): their price-free counts, read by `_fit_deals`.

    ``fp`` and ``fn`` run along ``gs.thresholds`` (``fn``: each group's fold positives minus
    ``tp``); ``pooled_fp`` and ``pooled_fn`` along the pooled thresholds; ``positives`` and
    ``negatives`` are (deals, folds, groups).
    """

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    positives: np.ndarray
    negatives: np.ndarray
    pooled_fp: np.ndarray
    pooled_fn: np.ndarray


def _stacked(gs: GroupedSweep, deals) -> _Stacked:
    """The deals' folds of `gs` stacked (price-free: kept on the first deal's `Folds`, so that a
    price move does not stack them again)."""
    deals = tuple(deals)
    cache = deals[0].__dict__.setdefault("_stacked", [])
    for held, stacked in cache:
        if len(held) == len(deals) and all(a is b for a, b in zip(held, deals, strict=True)):
            return stacked
    sizes = np.diff(gs.offsets)
    tp = np.stack([f.tp for f in deals])
    positives = np.stack([f.positives for f in deals])
    stacked = _Stacked(
        tp=tp,
        fp=np.stack([f.fp for f in deals]).astype(np.float64),  # as pricing converts them, once
        fn=np.repeat(positives, sizes, axis=-1) - tp,
        positives=positives,
        negatives=np.stack([f.negatives for f in deals]),
        pooled_fp=np.stack([f.pooled_fp for f in deals]),
        pooled_fn=np.stack([f.positives.sum(axis=1)[:, None] - f.pooled_tp for f in deals]),
    )
    cache.append((deals, stacked))
    return stacked


def _fit_deals(gs: GroupedSweep, pooled: Sweep, index: np.ndarray, st: _Stacked, prices: Prices) -> list:
    """`cross_fit` without a review limit on every deal of `st` at once: a `CrossFit` per deal.

    Every fold of every deal is priced and its cutoffs picked (`argbest`) in one array of
    (deals, folds, thresholds); the values are those of pricing one fold at a time."""
    g_n = len(gs.groups)
    sizes = np.diff(gs.offsets)
    c_fp_e, c_fn_e = np.repeat(prices.c_fp, sizes), np.repeat(prices.c_fn, sizes)  # each entry's group prices
    all_cost = mistakes_cost(gs.fp, np.repeat(gs.positives, sizes) - gs.tp, c_fp_e, c_fn_e)
    c_pos = gs.positives - st.positives  # (deals, folds, groups): the other folds'
    c_neg = gs.negatives - st.negatives
    fits = (c_pos.sum(axis=-1) > 0) & (c_neg.sum(axis=-1) > 0)  # (deals, folds)
    total = c_pos.sum(axis=-1) + c_neg.sum(axis=-1)
    comp = mistakes_cost(st.fp, st.fn, c_fp_e, c_fn_e)  # each fold's cost at every cutoff, then
    np.subtract(all_cost, comp, out=comp)  # the other folds' (in place: one array of deals x folds x cutoffs)
    if prices.uniform:
        pooled_all = pooled.errors_cost(prices.c_fp[0], prices.c_fn[0])
        single_cost = pooled_all - mistakes_cost(st.pooled_fp, st.pooled_fn, prices.c_fp[0], prices.c_fn[0])
    else:
        single_cost = np.zeros(st.pooled_fp.shape)
        for i in range(g_n):
            single_cost += comp[..., int(gs.offsets[i]) + index[i]]
    with np.errstate(invalid="ignore", divide="ignore"):
        j_single = argbest(single_cost / total[..., None])
    own = own_cutoff(c_pos, c_neg)
    out = {name: {c: np.zeros((st.tp.shape[0], g_n)) for c in ("tp", "fp", "fn")} for name in ("single", "group")}
    for i in range(g_n):
        lo, hi = int(gs.offsets[i]), int(gs.offsets[i + 1])
        at_single = lo + index[i][j_single]
        at_group = at_single
        if own[..., i].any():  # the group's costs per case, in place (its `comp` is read no more)
            with np.errstate(invalid="ignore", divide="ignore"):
                per_case = np.divide(comp[..., lo:hi], (c_pos[..., i] + c_neg[..., i])[..., None], out=comp[..., lo:hi])
            at_group = np.where(own[..., i], lo + argbest(per_case), at_single)
        for name, at in (("single", at_single), ("group", at_group)):
            t_p = np.take_along_axis(st.tp, at[..., None], axis=-1)[..., 0].astype(np.float64)
            f_p = np.take_along_axis(st.fp, at[..., None], axis=-1)[..., 0]
            out[name]["tp"][:, i] = np.where(fits, t_p, 0.0).sum(axis=1)
            out[name]["fp"][:, i] = np.where(fits, f_p, 0.0).sum(axis=1)
            out[name]["fn"][:, i] = np.where(fits, st.positives[..., i] - t_p, 0.0).sum(axis=1)
    return [
        CrossFit(
            {c: out["single"][c][d] for c in ("tp", "fp", "fn")},
            {c: out["group"][c][d] for c in ("tp", "fp", "fn")},
            bool(fits[d].all()),
        )
        for d in range(st.tp.shape[0])
    ]


def deal_shape(gs: GroupedSweep) -> tuple[int, int]:
    """(folds, deals) of the cross-fitted estimate of `gs`: `CROSS_FOLDS` folds and up to
    `SPLITS` deals, as many as keep a price move's passes over the sweep (folds x deals x its
    distinct scores) within `SPLIT_BUDGET`; when not even one deal of `CROSS_FOLDS` fits, one deal
    of `FOLDS` (at a million distinct scores a deal's luck and the smaller fit are both small).

    >>> from costlib.core.sweep import grouped_sweep
    >>> deal_shape(grouped_sweep([0, 1, 1], [0.2, 0.4, 0.9], ["a", "a", "a"]))
    (10, 10)
    """
    deals = SPLIT_BUDGET // max(1, CROSS_FOLDS * gs.thresholds.size)
    if deals < 1:
        return FOLDS, 1
    return CROSS_FOLDS, int(min(deals, SPLITS))


def dealt_folds(gs: GroupedSweep, pooled: Sweep, index: np.ndarray, *, seed: int) -> tuple:
    """The independent deals of `gs`'s rows into folds that `deal_shape` allows, each a
    `make_folds` of its own split: what `repeated_cross_fit` averages over."""
    k, r = deal_shape(gs)
    return tuple(make_folds(gs, pooled, index, k=k, seed=seed, split=i) for i in range(r))


def repeated_cross_fit(
    gs: GroupedSweep, pooled: Sweep, index: np.ndarray, deals, prices: Prices, capacity: float | None = None
) -> CrossFit:
    """`cross_fit` on each deal of the rows into folds (`deals`, a sequence of `Folds`), averaged.

    A single deal's estimate carries the luck of that deal (which rows fitted which fold's
    cutoff); the mean over independent deals keeps the cross-fit's honesty without that noise.
    Each rule's dict gains ``splits``: every deal's cost per case (its spread is the noise of one
    deal, which `row_se` adds to the rows' own)."""
    if C.binds(capacity):
        fits = [cross_fit(gs, pooled, index, folds, prices, capacity) for folds in deals]
    else:
        fits = _fit_deals(gs, pooled, index, _stacked(gs, deals), prices)
    total = float(np.sum(gs.positives) + np.sum(gs.negatives))
    out = {}
    for name in ("single", "per_group"):
        each = [getattr(cf, name) for cf in fits]
        out[name] = {c: np.mean([e[c] for e in each], axis=0) for c in ("tp", "fp", "fn")}
        with np.errstate(invalid="ignore", divide="ignore"):
            out[name]["splits"] = np.array(
                [float(np.sum(mistakes_cost(e["fp"], e["fn"], prices.c_fp, prices.c_fn))) / total for e in each]
            )
    return CrossFit(out["single"], out["per_group"], all(cf.fitted for cf in fits))
