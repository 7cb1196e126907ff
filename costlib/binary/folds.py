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
from costlib.core.sweep import TIE_TOLERANCE, GroupedSweep, Sweep, argbest, hull_of

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
    if _one_group(gs, pooled, index):  # the pooled counts are the group's: shared, not copied
        return Folds(tp, fp, pos, neg, tp, fp)
    p_tp = np.zeros((k, pooled.thresholds.size), dtype=dtype)
    p_fp = np.zeros_like(p_tp)
    for i in range(g_n):
        at = int(gs.offsets[i]) + index[i]
        p_tp += tp[:, at]
        p_fp += fp[:, at]
    return Folds(tp, fp, pos, neg, p_tp, p_fp)


def _one_group(gs: GroupedSweep, pooled: Sweep, index: np.ndarray) -> bool:
    """Whether `gs` is one group whose sweep is `pooled`'s, entry for entry (`index` the identity):
    then every pooled count is the group's own, and the folds and their stacks share them."""
    n = pooled.thresholds.size
    return len(gs.groups) == 1 and gs.thresholds.size == n and np.array_equal(index[0], np.arange(n))


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
    between: dict | None = None  # ``pos``, ``neg``: each group's rows between the two rules' cutoffs,
    # summed over the folds (the only rows the two rules judge differently; repeated, the mean over the deals)


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
    between = {"pos": np.zeros(g_n), "neg": np.zeros(g_n)}
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
            between["pos"][i] += abs(float(folds.tp[f, at_group]) - float(folds.tp[f, at_single]))
            between["neg"][i] += abs(float(folds.fp[f, at_group]) - float(folds.fp[f, at_single]))
    return CrossFit(out["single"], out["group"], fitted, between)


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
    # whole counts in the folds' own type (pricing reads them as exactly the float64 they hold);
    # one deal's are views of its folds, not copies: both pages keep these for as long as the data
    tp, fp = _on_deals([f.tp for f in deals]), _on_deals([f.fp for f in deals])
    positives = np.stack([f.positives for f in deals])
    fn = np.repeat(positives.astype(tp.dtype), sizes, axis=-1)
    fn -= tp
    shared = all(f.pooled_tp is f.tp and f.pooled_fp is f.fp for f in deals)  # one group (`make_folds`)
    stacked = _Stacked(
        tp=tp,
        fp=fp,
        fn=fn,
        positives=positives,
        negatives=np.stack([f.negatives for f in deals]),
        pooled_fp=fp if shared else _on_deals([f.pooled_fp for f in deals]),
        pooled_fn=fn if shared else _on_deals([_pooled_fn(f) for f in deals]),
    )
    cache.append((deals, stacked))
    return stacked


def _on_deals(arrays: list) -> np.ndarray:
    """The deals' arrays stacked, (deals, ...): one deal's as a view of its own."""
    return arrays[0][None] if len(arrays) == 1 else np.stack(arrays)


def _pooled_fn(f: Folds) -> np.ndarray:
    """Each fold's false negatives at every pooled cutoff: its positives less `f.pooled_tp`, whole
    counts in their own type."""
    fn = np.repeat(f.positives.sum(axis=1).astype(f.pooled_tp.dtype)[:, None], f.pooled_tp.shape[1], axis=1)
    fn -= f.pooled_tp
    return fn


def _fit_deals(
    gs: GroupedSweep, pooled: Sweep, index: np.ndarray, st: _Stacked, prices: Prices, *, once: bool = False
) -> list:
    """`cross_fit` without a review limit on every deal of `st` at once: a `CrossFit` per deal.

    Every fold of every deal has its cutoffs picked (`argbest`) in one array of (deals, folds,
    ...); the values are those of pricing one fold at a time. At one price for everyone only the
    cutoffs that can win are priced (`_chains`, `_pick_on_chains`); else every cutoff is. `once`:
    the deals are priced at these prices only, so every cutoff is priced at once rather than the
    chains built for later price moves (the same picks, `_pick_on_chains`)."""
    g_n = len(gs.groups)
    sizes = np.diff(gs.offsets)
    c_fp_e, c_fn_e = np.repeat(prices.c_fp, sizes), np.repeat(prices.c_fn, sizes)  # each entry's group prices
    all_cost = mistakes_cost(gs.fp, np.repeat(gs.positives, sizes) - gs.tp, c_fp_e, c_fn_e)
    c_pos = gs.positives - st.positives  # (deals, folds, groups): the other folds'
    c_neg = gs.negatives - st.negatives
    fits = (c_pos.sum(axis=-1) > 0) & (c_neg.sum(axis=-1) > 0)  # (deals, folds)
    total = c_pos.sum(axis=-1) + c_neg.sum(axis=-1)
    own = own_cutoff(c_pos, c_neg)
    priced = prices.uniform and prices.scale > 0 and not once  # priced: not all tie
    chains = _chains(gs, pooled, st) if priced else None
    if chains is not None:
        j_single, group_at = _pick_on_chains(gs, pooled, st, chains, prices, all_cost, total, own)
    else:
        j_single, group_at = _pick_everywhere(gs, pooled, index, st, prices, all_cost, total, own)
    out = {name: {c: np.zeros((st.tp.shape[0], g_n)) for c in ("tp", "fp", "fn")} for name in ("single", "group")}
    between = {c: np.zeros((st.tp.shape[0], g_n)) for c in ("pos", "neg")}
    for i in range(g_n):
        at_single = int(gs.offsets[i]) + index[i][j_single]
        at_group = at_single if group_at[i] is None else np.where(own[..., i], group_at[i], at_single)
        picked = {}
        for name, at in (("single", at_single), ("group", at_group)):
            t_p = np.take_along_axis(st.tp, at[..., None], axis=-1)[..., 0].astype(np.float64)
            f_p = np.take_along_axis(st.fp, at[..., None], axis=-1)[..., 0]
            out[name]["tp"][:, i] = np.where(fits, t_p, 0.0).sum(axis=1)
            out[name]["fp"][:, i] = np.where(fits, f_p, 0.0).sum(axis=1)
            out[name]["fn"][:, i] = np.where(fits, st.positives[..., i] - t_p, 0.0).sum(axis=1)
            picked[name] = t_p, f_p
        (t_s, f_s), (t_g, f_g) = picked["single"], picked["group"]
        between["pos"][:, i] = np.where(fits, np.abs(t_g - t_s), 0.0).sum(axis=1)
        between["neg"][:, i] = np.where(fits, np.abs(f_g - f_s), 0.0).sum(axis=1)
    return [
        CrossFit(
            {c: out["single"][c][d] for c in ("tp", "fp", "fn")},
            {c: out["group"][c][d] for c in ("tp", "fp", "fn")},
            bool(fits[d].all()),
            {c: between[c][d] for c in ("pos", "neg")},
        )
        for d in range(st.tp.shape[0])
    ]


def _pick_everywhere(gs, pooled, index, st: _Stacked, prices: Prices, all_cost, total, own) -> tuple:
    """`_fit_deals`' picks with every cutoff priced: (the single cutoff's pooled index (deals,
    folds), [each group's own cutoff's index into ``gs`` (deals, folds), or None for a group that
    no fold gives a cutoff of its own])."""
    sizes = np.diff(gs.offsets)
    c_fp_e, c_fn_e = np.repeat(prices.c_fp, sizes), np.repeat(prices.c_fn, sizes)
    comp = mistakes_cost(st.fp, st.fn, c_fp_e, c_fn_e)  # each fold's cost at every cutoff, then
    np.subtract(all_cost, comp, out=comp)  # the other folds' (in place: one array of deals x folds x cutoffs)
    if prices.uniform:
        pooled_all = pooled.errors_cost(prices.c_fp[0], prices.c_fn[0])
        single_cost = pooled_all - mistakes_cost(st.pooled_fp, st.pooled_fn, prices.c_fp[0], prices.c_fn[0])
    else:
        single_cost = np.zeros(st.pooled_fp.shape)
        for i in range(len(gs.groups)):
            single_cost += comp[..., int(gs.offsets[i]) + index[i]]
    with np.errstate(invalid="ignore", divide="ignore"):
        j_single = argbest(single_cost / total[..., None])
    c_n = (gs.positives - st.positives) + (gs.negatives - st.negatives)
    group_at = []
    for i in range(len(gs.groups)):
        lo, hi = int(gs.offsets[i]), int(gs.offsets[i + 1])
        at = None
        if own[..., i].any():  # the group's costs per case, in place (its `comp` is read no more)
            with np.errstate(invalid="ignore", divide="ignore"):
                per_case = np.divide(comp[..., lo:hi], c_n[..., i][..., None], out=comp[..., lo:hi])
            at = lo + argbest(per_case)
        group_at.append(at)
    return j_single, group_at


# ---------------------------------------------------------------------------------------
# Pricing only the cutoffs that can win (one price for everyone)
#
# A fold's other folds cost c_fp FP_j + c_fn FN_j at cutoff j, FP rising and FN falling with j:
# a point (FP_j, FN_j) between two corners of the lower hull of the points costs at least the
# cheaper of the two at any prices. So the corners, priced, bound where the cheapest cutoff can
# be: only the cutoffs between the corners next to the cheapest ones (within twice the tie
# tolerance, which covers the rounding) are priced, the same values computed the same way, and
# `argbest` picks among them what it picks among all. Its tie scale is the dearest value, which
# lies between the dearest corner and the dearest cost there can be: where the two give different
# picks (a value within a hair of the tie tolerance), the row is priced everywhere.


def _chain(fp: np.ndarray, fn: np.ndarray) -> np.ndarray:
    """Positions ``0 = c[0] < ... < c[-1] = n - 1`` of a curve's whole-number counts (`fp` not
    falling, `fn` not rising) such that every point between two neighbours ``c[k]``, ``c[k + 1]``
    costs at least the cheaper of the two at any prices: the corners of the lower hull
    (`sweep.hull_of`), checked exactly in whole numbers; every position when the check fails.

    >>> _chain(np.array([0, 0, 1, 2, 4]), np.array([4, 2, 1, 0, 0])).tolist()
    [0, 1, 3, 4]
    """
    n = fp.size
    every = np.arange(n)
    if n < 3:
        return every
    c = np.unique(np.concatenate(([0], hull_of(fn[0] - fn, fp).vertices, [n - 1])))
    seg = np.append(np.repeat(np.arange(c.size - 1), np.diff(c)), c.size - 2)  # each point's corners' segment
    u, w = c[seg], c[seg + 1]
    side = (fp[w] - fp[u]) * (fn - fn[u]) - (fn[w] - fn[u]) * (fp - fp[u])  # >= 0: not toward the origin
    return c if bool(np.all(side >= 0)) else every


def _row_chains(fp: np.ndarray, fn: np.ndarray) -> np.ndarray:
    """The `_chain` of every row of (rows, n) counts, (rows, corners), padded by repeating the
    last corner."""
    chains = [_chain(a, b) for a, b in zip(fp, fn, strict=True)]
    h = max(c.size for c in chains)
    return np.stack([np.pad(c, (0, h - c.size), mode="edge") for c in chains])


@dataclass(frozen=True, eq=False)
class _Chains:
    """Price-free `_chain`s of every fold's other folds, (deals x folds, corners): positions into
    ``gs`` (``groups[i]``: group i's) and into the pooled thresholds (``pooled``)."""

    groups: list
    pooled: np.ndarray


def _chains(gs: GroupedSweep, pooled: Sweep, st: _Stacked) -> _Chains | None:
    """The `_Chains` of `st` (made once, kept on it); None when the counts are not whole numbers
    below 2**31 (their check would not be exact)."""
    cache = st.__dict__
    if "_chains" not in cache:
        cache["_chains"] = None
        whole = integer_counts(gs) and integer_counts(pooled)
        if whole and max(float(gs.positives.sum()), float(gs.negatives.sum()), 1.0) < 2**31:
            r = st.tp.shape[0] * st.tp.shape[1]
            tp, fp = st.tp.reshape(r, -1).astype(np.int64), st.fp.reshape(r, -1).astype(np.int64)
            positives = st.positives.reshape(r, -1).astype(np.int64)
            g_tp, g_fp = np.round(gs.tp).astype(np.int64), np.round(gs.fp).astype(np.int64)
            groups = []
            for i in range(len(gs.groups)):  # the other folds' counts, written over the copies' own slices
                lo, hi = int(gs.offsets[i]), int(gs.offsets[i + 1])
                c_fn, c_fp = tp[:, lo:hi], fp[:, lo:hi]
                np.subtract(c_fn, g_tp[lo:hi], out=c_fn)  # (P - P_fold) - (tp - tp_fold), in place
                c_fn += round(float(gs.positives[i])) - positives[:, i, None]
                np.subtract(g_fp[lo:hi], c_fp, out=c_fp)
                groups.append(lo + _row_chains(c_fp, c_fn))
            del tp, fp, positives
            if st.pooled_fp is st.fp:  # one group (`make_folds`): the pooled chains are its own
                cache["_chains"] = _Chains(groups, groups[0])
                return cache["_chains"]
            p_fp = np.round(pooled.fp).astype(np.int64) - st.pooled_fp.reshape(r, -1).astype(np.int64)
            p_fn = np.round(pooled.fn).astype(np.int64) - np.round(st.pooled_fn.reshape(r, -1)).astype(np.int64)
            cache["_chains"] = _Chains(groups, _row_chains(p_fp, p_fn))
    return cache["_chains"]


def _pick_on_chains(gs, pooled, st: _Stacked, chains: _Chains, prices: Prices, all_cost, total, own) -> tuple:
    """`_pick_everywhere` at one price for everyone, pricing only the cutoffs near the cheapest
    corners of `chains` (`_windows`): the same picks."""
    c_fp, c_fn = prices.c_fp[0], prices.c_fn[0]
    r = st.tp.shape[0] * st.tp.shape[1]
    shape = st.tp.shape[:2]
    fp, fn = st.fp.reshape(r, -1), st.fn.reshape(r, -1)
    pooled_all = pooled.errors_cost(c_fp, c_fn)
    p_fp, p_fn = st.pooled_fp.reshape(r, -1), st.pooled_fn.reshape(r, -1)
    n_single = total.reshape(r)

    def single(at, rows):  # what `_pick_everywhere` computes there, the same way
        flat = at + (rows * p_fp.shape[1])[:, None]
        fold = mistakes_cost(p_fp.take(flat), p_fn.take(flat), c_fp, c_fn)
        return (pooled_all.take(at) - fold) / n_single[rows, None]

    top = mistakes_cost(pooled.negatives, pooled.positives, c_fp, c_fn)
    j_single = _windows(single, chains.pooled, top / n_single, (0, pooled.thresholds.size)).reshape(shape)
    c_n = ((gs.positives - st.positives) + (gs.negatives - st.negatives)).reshape(r, -1)
    group_at = []
    for i in range(len(gs.groups)):
        if not own[..., i].any():
            group_at.append(None)
            continue

        def per_case(at, rows, i=i):
            flat = at + (rows * fp.shape[1])[:, None]
            fold = mistakes_cost(fp.take(flat), fn.take(flat), c_fp, c_fn)
            return (all_cost.take(at) - fold) / c_n[rows, i, None]

        top = mistakes_cost(gs.negatives[i], gs.positives[i], c_fp, c_fn)
        span = (int(gs.offsets[i]), int(gs.offsets[i + 1]))
        group_at.append(_windows(per_case, chains.groups[i], top / c_n[:, i], span).reshape(shape))
    return j_single, group_at


def _windows(value, chain: np.ndarray, top: np.ndarray, span: tuple) -> np.ndarray:
    """Every row's `argbest` position (-1: none) among the values ``value(positions, rows)``
    gives at positions ``span[0]`` to ``span[1] - 1``, priced only between the corners of its
    `chain` next to those within twice the tie tolerance of `top` (rows,) of the cheapest
    corner: there lie the cheapest value and every one `argbest` ties with it. `top` bounds
    every value (``(c_fp N + c_fn P) / n``) and, times 1e-15, its rounding."""
    rows = np.arange(chain.shape[0])
    with np.errstate(invalid="ignore", divide="ignore"):
        v = value(chain, rows)
        edge = v.min(axis=1)
        near = v <= (edge + 2 * TIE_TOLERANCE * top)[:, None]
        h = chain.shape[1]
        a = chain[rows, np.maximum(np.argmax(near, axis=1) - 1, 0)]
        b = chain[rows, np.minimum(h - np.argmax(near[:, ::-1], axis=1), h - 1)]
        b = np.where(np.isfinite(edge), b, a)  # no value to pick from: one position
        at = a[:, None] + np.arange(int((b - a).max()) + 1)
        window = value(np.minimum(at, b[:, None]), rows)  # a short row ends in copies of its last value
        # `argbest`'s tie scale is the dearest value, at least the dearest corner's, at most `top`
        low, high = (argbest(np.column_stack((window, d))) for d in (v.max(axis=1), top * (1 + 1e-14)))
        j = np.where((low >= 0) & (low <= b - a), a + low, -1)  # else no value to pick (never a fitted fold's)
        again = np.flatnonzero(low != high)
        if again.size:  # the dearest value decides: these rows are priced everywhere
            at = np.broadcast_to(np.arange(*span), (again.size, span[1] - span[0]))
            j[again] = span[0] + argbest(value(at, again))
    return j


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
    gs: GroupedSweep,
    pooled: Sweep,
    index: np.ndarray,
    deals,
    prices: Prices,
    capacity: float | None = None,
    *,
    once: bool = False,
) -> CrossFit:
    """`cross_fit` on each deal of the rows into folds (`deals`, a sequence of `Folds`), averaged.

    A single deal's estimate carries the luck of that deal (which rows fitted which fold's
    cutoff); the mean over independent deals keeps the cross-fit's honesty without that noise.
    Each rule's dict gains ``splits``: every deal's cost per case (its spread is the noise of one
    deal, which `row_se` adds to the rows' own); ``between`` is the mean over the deals of the rows
    between the two rules' cutoffs (`honest.gain_rows_variance` reads it). `once`: `deals` are
    priced at `prices` only (no price move follows): the same numbers, without the structures
    that make later moves cheap (`_fit_deals`)."""
    if C.binds(capacity):
        fits = [cross_fit(gs, pooled, index, folds, prices, capacity) for folds in deals]
    else:
        fits = _fit_deals(gs, pooled, index, _stacked(gs, deals), prices, once=once)
    total = float(np.sum(gs.positives) + np.sum(gs.negatives))
    out = {}
    for name in ("single", "per_group"):
        each = [getattr(cf, name) for cf in fits]
        out[name] = {c: np.mean([e[c] for e in each], axis=0) for c in ("tp", "fp", "fn")}
        with np.errstate(invalid="ignore", divide="ignore"):
            out[name]["splits"] = np.array(
                [float(np.sum(mistakes_cost(e["fp"], e["fn"], prices.c_fp, prices.c_fn))) / total for e in each]
            )
    between = {c: np.mean([cf.between[c] for cf in fits], axis=0) for c in ("pos", "neg")}
    return CrossFit(out["single"], out["per_group"], all(cf.fitted for cf in fits), between)
