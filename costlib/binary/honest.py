"""Honest estimates: a cutoff chosen on data is judged on data it has not seen.

Picking the cheapest of every distinct score (and one per group) makes noise look like a
saving when the same rows pick and judge. Three things here keep it out of every answer:

- **Cross-fitting** (no split column): the rows of each group and class are dealt into
  `CROSS_FOLDS` folds; each fold is judged by the cutoffs fitted on the other folds, at full
  resolution (every distinct score), so each row is judged by cutoffs fitted without it.
  Rows with the same group, label and score are interchangeable for every cost, so the
  deal is drawn from the sweep's counts (a multivariate hypergeometric per fold): the same
  distribution as dealing rows, and it works from counts computed anywhere (DuckDB, Spark,
  an aggregate file). The estimate is the mean over independent deals (`deal_shape`)
  (`repeated_cross_fit`), which removes the luck of one deal.
- **The saving's interval** (no split): the estimate +- 1.96 fold-aware standard errors
  (`row_se`: the per-row differences' standard error read off the cross-fit's counts, plus the
  variance of one deal's estimate, `at_least_rows`). Chosen by simulation (issue 43,
  `benchmarks/honest.py --simulate`): it covers 93 to 97% at 2,000 rows, is 0.9 to 1.1 times the
  ideal width, and ships a model that pays about as often as a plain cross-fitted Wald interval;
  the bootstrap below was 1.15 to 1.3 times the ideal where the signal is weak, and out-of-bag
  refits (judged on the ~37% of rows their resample left out) 1.3 to 1.5 times.
- **A refit bootstrap** for the other intervals (the groups' costs, the per-group extra saving),
  so that the luck of the pick is inside them. No split: a bootstrap of the cross-fitted
  estimate on `FOLDS` folds (`fold_draws`, `price_fold_refits`): each resample refits the
  cutoffs within the folds (on each fold's other folds' weights) and judges every resampled row
  by cutoffs fitted without it; the interval is that estimate's spread about the cross-fitted
  estimate (`stats.intervals.centred_interval`). A split: each resample refits on its in-bag
  train rows and is judged on a resample of the test rows (`refit_draws`, `price_refits`), and
  that gives the saving's interval too. It is the Poisson bootstrap (each
  row drawn Poisson(1) times) on cells: the candidate cutoffs of a resample are at most
  `MAX_CELLS` quantiles of the fitting rows' scores (every distinct score when there are
  fewer), and a row's part in every cost depends only on its group, label and cell, so the
  draws are exact per cell: the number of rows drawn v times is multinomial with Poisson(1)
  probabilities, which gives both the in-bag weight and the rows left out.

Deals, folds and draws do not depend on the prices: they are made once per model and cached, and
a price move only reweights them (vector arithmetic over cached arrays; the deals' passes over the
sweep are bounded by `SPLIT_BUDGET`).

A group needs at least `MIN_CLASS_ROWS` positives and as many negatives among the rows a
cutoff is fitted on to get a cutoff of its own; below that it gets the cutoff for everyone
(its own would be a guess from a handful of people).
"""

from __future__ import annotations

import math
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
MAX_CELLS = 256  # candidate cutoffs of a refit, at most (quantiles of the fitting rows' scores)
MIN_CELLS = 48
REFIT_RESAMPLES = 2000  # at most this many refits (enough for a 95% percentile interval)
CELL_BUDGET = 1_500_000  # resamples x groups x cells kept in memory per model
CHUNK = 250  # resamples priced at once
POISSON_TOP = 4  # a big cell's draw counts its rows drawn 0..3 times, then those drawn 4 or more times
POISSON_TAIL = 40  # (whose counts are drawn one by one: about 2% of the rows)
SMALL_CELL = 12  # a cell of at most this many rows draws each row


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
    `capacity` both rules are fitted within it on the other folds (`capacity.group_within`)."""
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


def repeated_cross_fit(
    gs: GroupedSweep, pooled: Sweep, index: np.ndarray, deals, prices: Prices, capacity: float | None = None
) -> CrossFit:
    """`cross_fit` on each deal of the rows into folds (`deals`, a sequence of `Folds`), averaged.

    A single deal's estimate carries the luck of that deal (which rows fitted which fold's
    cutoff); the mean over independent deals keeps the cross-fit's honesty without that noise.
    Each rule's dict gains ``splits``: every deal's cost per case (its spread is the noise of one
    deal, which `row_se` adds to the rows' own)."""
    fits = [cross_fit(gs, pooled, index, folds, prices, capacity) for folds in deals]
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


# ---------------------------------------------------------------------------------------
# The refit bootstrap on cells


def cell_edges(pooled: Sweep, max_cells: int, include=()) -> np.ndarray:
    """Candidate cutoffs of a refit: +inf, then at most ``max_cells - 1`` of the fitting
    rows' distinct scores at even steps of the rows flagged, then -inf (flag everyone); and the
    cutoffs `include` (a fixed rule to judge on the same draws, exactly), all descending."""
    t = pooled.thresholds
    scores = t[1:]
    if scores.size > max_cells - 1:
        flagged = pooled.flagged[1:]
        targets = flagged[-1] * np.arange(1, max_cells) / max_cells
        pick = np.unique(np.minimum(np.searchsorted(flagged, targets), scores.size - 1))
        scores = scores[pick]
    edges = np.concatenate(([np.inf], scores, [-np.inf]))
    extra = np.asarray(list(include), dtype=np.float64)
    if extra.size:
        edges = np.unique(np.concatenate((edges, extra[~np.isnan(extra)])))[::-1]
    return edges


def cell_counts(gs: GroupedSweep, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(groups, cells) rows of each label between consecutive `edges` (positives, negatives)."""
    pos = np.zeros((len(gs.groups), edges.size - 1))
    neg = np.zeros_like(pos)
    for i, g in enumerate(gs.groups):
        sw = gs[g]
        j = sw.index_at(edges)
        pos[i] = np.diff(sw.tp[j])
        neg[i] = np.diff(sw.fp[j])
    return np.round(pos), np.round(neg)


_P = np.array([math.exp(-1) / math.factorial(v) for v in range(POISSON_TOP)])
_P = np.append(_P, 1.0 - _P.sum())  # drawn POISSON_TOP times or more
_TAIL_VALUES = np.arange(POISSON_TOP, POISSON_TAIL)
_TAIL_P = np.array([1.0 / math.factorial(v) for v in _TAIL_VALUES])
_TAIL_P /= _TAIL_P.sum()


def poisson_cells(m: np.ndarray, b: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """For cells of `m` rows each, `b` Poisson(1) bootstraps: (in-bag weight, rows left out),
    arrays (b, *m.shape). Exact: a small cell draws each of its rows; in a big one, how many
    rows are drawn 0, 1, 2, 3 and 4 or more times is multinomial, and each of the few rows drawn
    4 or more times gets its count from the Poisson law above 3."""
    flat = np.round(m.ravel()).astype(np.int64)
    weight = np.zeros((b, flat.size))
    left = np.zeros((b, flat.size))
    small = np.flatnonzero((flat > 0) & (flat <= SMALL_CELL))
    if small.size:
        sizes = flat[small]
        draws = rng.poisson(1.0, size=(b, int(sizes.sum())))
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        weight[:, small] = np.add.reduceat(draws, starts, axis=1)
        left[:, small] = np.add.reduceat((draws == 0).astype(np.int64), starts, axis=1)
    big = np.flatnonzero(flat > SMALL_CELL)
    if big.size:
        counts = rng.multinomial(np.broadcast_to(flat[big], (b, big.size)), _P)  # (b, cells, values)
        part = counts[..., :POISSON_TOP] @ np.arange(POISSON_TOP, dtype=np.float64)
        tail = counts[..., POISSON_TOP].ravel()
        if tail.any():  # each row drawn 4 or more times: its count, from the law above 3
            values = rng.choice(_TAIL_VALUES, size=int(tail.sum()), p=_TAIL_P)
            owner = np.repeat(np.arange(tail.size), tail)
            part += np.bincount(owner, weights=values, minlength=tail.size).reshape(part.shape)
        weight[:, big] = part
        left[:, big] = counts[..., 0]
    return weight.reshape(b, *m.shape), left.reshape(b, *m.shape)


@dataclass(frozen=True, eq=False)
class RefitDraws:
    """Price-free draws of the refit bootstrap: counts flagged at every candidate cutoff,
    arrays (B, groups, edges), cumulated once so that a price book only reweights them.

    fit_tp, fit_fp        in-bag weights of the fitting rows flagged at each edge (the last edge:
                          the group's in-bag positives and negatives, on which it is decided
                          whether the group is big enough for a cutoff of its own)
    judge_tp, judge_fp    the same for the rows each refit is judged on: those left out of the
                          bag (no split) or the test rows resampled (a split)
    """

    edges: np.ndarray
    fit_tp: np.ndarray
    fit_fp: np.ndarray
    judge_tp: np.ndarray
    judge_fp: np.ndarray

    @property
    def resamples(self) -> int:
        return self.fit_tp.shape[0]


def refit_size(n_resamples: int, n_groups: int) -> tuple[int, int]:
    """(resamples, cells) of the refit bootstrap within `CELL_BUDGET`."""
    b = min(int(n_resamples), REFIT_RESAMPLES)
    cells = int(np.clip(CELL_BUDGET // max(1, b * n_groups), MIN_CELLS, MAX_CELLS))
    if b * n_groups * cells > CELL_BUDGET:
        b = min(b, max(200, CELL_BUDGET // (n_groups * cells)))
    return b, cells


def _cumulate(pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    zero = np.zeros((*pos.shape[:-1], 1))
    f32 = np.float32  # whole numbers below 2**24 per group and resample: exact, and half the memory
    tp = np.concatenate((zero, np.cumsum(pos, axis=-1)), axis=-1).astype(f32)
    fp = np.concatenate((zero, np.cumsum(neg, axis=-1)), axis=-1).astype(f32)
    return tp, fp


def refit_draws(
    fit: GroupedSweep, judge: GroupedSweep | None, pooled: Sweep, *, n_resamples: int, seed: int, include=()
):
    """The draws of the refit bootstrap (`RefitDraws`); `judge` None: no split (out of bag).
    `include`: cutoffs that must be edges (`cell_edges`)."""
    b, cells = refit_size(n_resamples, len(fit.groups))
    edges = cell_edges(pooled, cells, include)
    f_pos, f_neg = cell_counts(fit, edges)
    t_pos, t_neg = (None, None) if judge is None else cell_counts(judge, edges)
    shape = (b, len(fit.groups), edges.size)
    out = {k: np.empty(shape, dtype=np.float32) for k in ("ftp", "ffp", "jtp", "jfp")}
    for start in range(0, b, CHUNK):
        size = min(CHUNK, b - start)
        sl = slice(start, start + size)
        rng = np.random.default_rng([int(seed), 20, start])
        in_pos, out_pos = poisson_cells(f_pos, size, rng)
        in_neg, out_neg = poisson_cells(f_neg, size, rng)
        if judge is None:
            j_pos, j_neg = out_pos, out_neg
        else:
            j_pos = rng.poisson(np.broadcast_to(t_pos, (size, *t_pos.shape))).astype(np.float64)
            j_neg = rng.poisson(np.broadcast_to(t_neg, (size, *t_neg.shape))).astype(np.float64)
        out["ftp"][sl], out["ffp"][sl] = _cumulate(in_pos, in_neg)
        out["jtp"][sl], out["jfp"][sl] = _cumulate(j_pos, j_neg)
    return RefitDraws(edges, out["ftp"], out["ffp"], out["jtp"], out["jfp"])


@dataclass(frozen=True, eq=False)
class Refits:
    """What each resample's refitted rules cost on its judged rows, per case: arrays (B,)
    (``*_by_group``: (B, groups), per case of the group)."""

    baseline: np.ndarray
    single: np.ndarray
    per_group: np.ndarray
    single_by_group: np.ndarray
    per_group_by_group: np.ndarray


def cost_at(tp: np.ndarray, fp: np.ndarray, edge: np.ndarray, c_fp, c_fn) -> np.ndarray:
    """(b, groups) price of the mistakes at each resample's and group's chosen `edge`."""
    at = np.broadcast_to(edge, tp.shape[:2])[..., None]
    tp_e = np.take_along_axis(tp, at, 2)[..., 0].astype(np.float64)
    fp_e = np.take_along_axis(fp, at, 2)[..., 0].astype(np.float64)
    return mistakes_cost(fp_e, tp[..., -1].astype(np.float64) - tp_e, c_fp, c_fn)


LAMBDA_STEPS = 24  # bisection steps for the price of capacity of a refit under a cap (to 2**-24 of the top)


def _refit_within(cost_in: np.ndarray, flagged: np.ndarray, own: np.ndarray, e_single: np.ndarray, limit, top: float):
    """(b, groups) edges of the per-group cutoffs of each resample under its cap `limit` (b,),
    the procedure of `capacity.cutoffs_within` on the cells: groups that are not `own` keep the
    single cutoff `e_single`; the others take the cheapest edge at a shared price of capacity,
    the smallest that fits (bisection up to `top`, a price at which nobody is worth flagging);
    what that leaves of the cap is filled group by group (`capacity.fill`); never worse than the
    single cutoff."""
    b, g_n = cost_in.shape[:2]
    fixed_flag = np.where(own, 0.0, np.take_along_axis(flagged, e_single[:, None, None], 2)[..., 0]).sum(axis=1)
    room = limit - fixed_flag

    def pick(lam, rows=slice(None)):
        e = np.argmin(cost_in[rows] + lam[:, None, None] * flagged[rows], axis=2)  # ties: the larger cutoff
        e = np.where(own[rows], e, e_single[rows, None])
        used = np.where(own[rows], np.take_along_axis(flagged[rows], e[..., None], 2)[..., 0], 0.0).sum(axis=1)
        return e, used

    e, used = pick(np.zeros(b))
    over = np.flatnonzero(used > room)
    if over.size:
        lo, hi = np.zeros(over.size), np.full(over.size, top)
        for _ in range(LAMBDA_STEPS):
            mid = (lo + hi) / 2
            fits = pick(mid, over)[1] <= room[over]
            hi, lo = np.where(fits, mid, hi), np.where(fits, lo, mid)
        e[over], used[over] = pick(hi, over)
        # the fill, group by group: the cheapest edge at or beyond the current one that still fits
        for g in range(g_n):
            here = e[over, g]
            at = np.take_along_axis(flagged[over, g], here[:, None], 1)[:, 0]
            fits = (flagged[over, g] - at[:, None] <= (room[over] - used[over])[:, None]) & (
                np.arange(flagged.shape[2]) >= here[:, None]
            )
            fits &= own[over, g][:, None]
            best = np.argmin(np.where(fits, cost_in[over, g], np.inf), axis=1)
            best = np.where(fits.any(axis=1), best, here)
            used[over] += np.take_along_axis(flagged[over, g], best[:, None], 1)[:, 0] - at
            e[over, g] = best
    group_cost = np.take_along_axis(cost_in, e[..., None], 2)[..., 0].sum(axis=1)
    single_cost = np.take_along_axis(cost_in, np.broadcast_to(e_single[:, None, None], (b, g_n, 1)), 2)
    worse = group_cost > single_cost[..., 0].sum(axis=1)
    return np.where(worse[:, None], e_single[:, None], e)


def _refit_edges(tp: np.ndarray, fp: np.ndarray, prices: Prices, capacity: float | None):
    """The edges both fitted rules pick on fitting weights `tp`, `fp` (b, groups, edges):
    ``(e_single (b,), e_group (b, groups))``, as the point estimate picks them (ties: the larger
    cutoff; a group without `MIN_CLASS_ROWS` of each class keeps the single cutoff; under a
    `capacity`, within it: `_refit_within`)."""
    c_fp, c_fn = prices.c_fp[None, :, None], prices.c_fn[None, :, None]
    p_in, n_in = tp[..., -1], fp[..., -1]
    cost_in = mistakes_cost(fp, p_in[..., None] - tp, c_fp, c_fn)  # (b, groups, edges)
    own = own_cutoff(p_in, n_in)  # on the fitting weight (about the rows fitted on)
    if C.binds(capacity):
        top = 2.0 * float(np.max(prices.c_fp) + np.max(prices.c_fn)) + 1.0
        flagged = (tp + fp).astype(np.float64)
        pooled_flag = flagged.sum(axis=1)  # (b, edges)
        limit = C.cap_limit(capacity, 1.0) * pooled_flag[:, -1]
        e_single = np.argmin(np.where(pooled_flag <= limit[:, None], cost_in.sum(axis=1), np.inf), axis=1)
        return e_single, _refit_within(cost_in, flagged, own, e_single, limit, top)
    e_single = np.argmin(cost_in.sum(axis=1), axis=1)  # ties: the first, the larger cutoff
    return e_single, np.where(own, np.argmin(cost_in, axis=2), e_single[:, None])


def price_refits(d: RefitDraws, prices: Prices, capacity: float | None = None) -> Refits:
    """Refit both fitted rules and the no-model choice on every resample, and judge them
    (within a `capacity` when one is given: the rules are refitted within it on the in-bag
    weight, and the no-model choice may flag a share up to it at random)."""
    c_fp, c_fn = prices.c_fp[None, :], prices.c_fn[None, :]
    parts = {k: [] for k in ("baseline", "single", "per_group", "single_g", "group_g")}
    for start in range(0, d.resamples, CHUNK):
        sl = slice(start, start + CHUNK)
        e_single, e_group = _refit_edges(d.fit_tp[sl], d.fit_fp[sl], prices, capacity)
        tp_j, fp_j = d.judge_tp[sl], d.judge_fp[sl]
        p_j, n_j = tp_j[..., -1].astype(np.float64), fp_j[..., -1].astype(np.float64)

        single_g = cost_at(tp_j, fp_j, e_single[:, None], c_fp, c_fn)
        group_g = cost_at(tp_j, fp_j, e_group, c_fp, c_fn)
        _judged(parts, single_g, group_g, p_j, n_j, prices, capacity)
    return _refits(parts)


def _judged(parts: dict, single_g, group_g, p_j, n_j, prices: Prices, capacity) -> None:
    """Append one chunk of resamples to `parts`: the refitted rules' costs per case (by group and
    overall) and the no-model choice's, made as the point estimate makes it (the cheaper on the
    judged rows, ties: nobody; under a `capacity` flagging everyone does not fit, and a share up
    to it at random stands for it). `single_g`, `group_g`, `p_j`, `n_j`: (b, groups)."""
    n_g = p_j + n_j
    total = n_g.sum(axis=1)
    everyone, nobody = (n_j * prices.c_fp[None, :]).sum(axis=1), (p_j * prices.c_fn[None, :]).sum(axis=1)
    if C.binds(capacity):
        everyone = C.at_random(capacity, nobody, everyone)
    with np.errstate(invalid="ignore", divide="ignore"):
        parts["baseline"].append(np.where(everyone < nobody, everyone, nobody) / total)
        parts["single"].append(single_g.sum(axis=1) / total)
        parts["per_group"].append(group_g.sum(axis=1) / total)
        parts["single_g"].append(single_g / n_g)
        parts["group_g"].append(group_g / n_g)


def _refits(parts: dict) -> Refits:
    cat = {k: np.concatenate(x) for k, x in parts.items()}
    return Refits(cat["baseline"], cat["single"], cat["per_group"], cat["single_g"], cat["group_g"])


# ---------------------------------------------------------------------------------------
# The bootstrap of the cross-fitted estimate (no split)


@dataclass(frozen=True, eq=False)
class FoldDraws:
    """Price-free draws of the bootstrap of the cross-fitted estimate: each row's Poisson(1)
    weight, summed by fold, group, label and cell and cumulated along `edges`, arrays
    (B, folds, groups, edges). A resample refits both rules on each fold's other folds (their
    weights) and judges them on the fold's own weights: every resampled row is judged, by
    cutoffs fitted without it (a row and its copies stay in one fold)."""

    edges: np.ndarray
    tp: np.ndarray
    fp: np.ndarray

    @property
    def resamples(self) -> int:
        return self.tp.shape[0]


def fold_draws(gs: GroupedSweep, pooled: Sweep, folds: Folds, *, n_resamples: int, seed: int) -> FoldDraws:
    """The draws of the bootstrap of the cross-fitted estimate (`FoldDraws`) on the folds of
    `make_folds`: exact per cell (`poisson_cells`), at most `refit_size` resamples and cells
    (the folds count as groups against `CELL_BUDGET`)."""
    k, g_n = folds.tp.shape[0], len(gs.groups)
    b, cells = refit_size(n_resamples, g_n * k)
    edges = cell_edges(pooled, cells)
    pos = np.zeros((k, g_n, edges.size - 1))
    neg = np.zeros_like(pos)
    for i, g in enumerate(gs.groups):
        at = int(gs.offsets[i]) + gs[g].index_at(edges)
        pos[:, i] = np.diff(folds.tp[:, at], axis=1)
        neg[:, i] = np.diff(folds.fp[:, at], axis=1)
    shape = (b, k, g_n, edges.size)
    tp, fp = np.empty(shape, dtype=np.float32), np.empty(shape, dtype=np.float32)
    for start in range(0, b, CHUNK):
        size = min(CHUNK, b - start)
        rng = np.random.default_rng([int(seed), 43, start])
        w_pos, w_neg = poisson_cells(pos, size, rng)[0], poisson_cells(neg, size, rng)[0]
        tp[start : start + size], fp[start : start + size] = _cumulate(w_pos, w_neg)
    return FoldDraws(edges, tp, fp)


def price_fold_refits(d: FoldDraws, prices: Prices, capacity: float | None = None) -> Refits:
    """The cross-fitted estimate on every resample of `d` (`Refits`, per case of the resample):
    each fold's rules refitted on its other folds' weights (`_refit_edges`, within a `capacity`
    when one is given) and judged on its own; the no-model choice the cheaper on the resample's
    rows, as the point estimate makes it (under a capacity, flagging a share up to it at random
    stands for flagging everyone)."""
    c_fp, c_fn = prices.c_fp[None, :], prices.c_fn[None, :]
    parts = {k: [] for k in ("baseline", "single", "per_group", "single_g", "group_g")}
    for start in range(0, d.resamples, CHUNK):
        tp, fp = d.tp[start : start + CHUNK], d.fp[start : start + CHUNK]  # (b, folds, groups, edges)
        b, k, g_n, e_n = tp.shape
        all_tp, all_fp = tp.sum(axis=1), fp.sum(axis=1)  # whole numbers below 2**24: exact in float32
        fit_tp = (all_tp[:, None] - tp).reshape(b * k, g_n, e_n)
        fit_fp = (all_fp[:, None] - fp).reshape(b * k, g_n, e_n)
        e_single, e_group = _refit_edges(fit_tp, fit_fp, prices, capacity)
        tp_j, fp_j = tp.reshape(b * k, g_n, e_n), fp.reshape(b * k, g_n, e_n)
        single_g = cost_at(tp_j, fp_j, e_single[:, None], c_fp, c_fn).reshape(b, k, g_n).sum(axis=1)
        group_g = cost_at(tp_j, fp_j, e_group, c_fp, c_fn).reshape(b, k, g_n).sum(axis=1)
        p_j, n_j = all_tp[..., -1].astype(np.float64), all_fp[..., -1].astype(np.float64)
        _judged(parts, single_g, group_g, p_j, n_j, prices, capacity)
    return _refits(parts)


Z95 = 1.959963984540054  # the standard normal's 97.5% quantile


def row_se(counts: dict, baseline: str, prices: Prices, n: np.ndarray) -> float:
    """The fold-aware standard error of a cross-fitted rule's cost per case minus the no-model
    `baseline`'s: the standard error of the per-row differences (each row: what the rule's
    cutoff fitted without it costs on it minus what the baseline costs on it), read off the
    cross-fit's counts, and the noise of one deal of the rows into folds (the variance of the
    deals' costs per case, ``counts["splits"]``, when there are two or more). `counts` holds
    ``tp, fp, fn`` per group (the mean over the deals), `n` the groups' rows. NaN under a baseline
    that flags at random.

    Against flagging nobody a true positive differs by -c_fn, a false positive by +c_fp; against
    flagging everyone a false negative by +c_fn, a true negative by -c_fp; other rows by 0. Read
    off mean counts, the rows' variance is the mean of the deals' (about: the mean's square is
    that of the mean deal). The deals' variance is not divided by their number: the rows' part
    leaves out how the folds' cutoffs move with the data, and one deal's noise stands for it
    (chosen by simulation, issue 43: `benchmarks/README.md`).

    Six rows, two true positives, a false positive, a false negative, prices 1 and 3, against
    flagging nobody: differences -3, -3, +1, 0, 0, 0 (mean -5/6, sample variance 2.9667, the
    variance of the mean 2.9667 / 6 = 0.4944); two deals that cost 0.1 and 0.3 a case add their
    variance 0.02 (sqrt(0.5144) = 0.7172):

    >>> p = Prices(("everyone",), np.array([1.0]), np.array([3.0]))
    >>> counts = {"tp": np.array([2.0]), "fp": np.array([1.0]), "fn": np.array([1.0])}
    >>> round(row_se(counts, "flag nobody", p, np.array([6.0])), 4)
    0.7032
    >>> round(row_se({**counts, "splits": np.array([0.1, 0.3])}, "flag nobody", p, np.array([6.0])), 4)
    0.7172
    """
    from costlib.core import rules as R

    tp, fp, fn = (np.asarray(counts[k], dtype=np.float64) for k in ("tp", "fp", "fn"))
    tn = np.asarray(n, dtype=np.float64) - tp - fp - fn
    if baseline == R.NOBODY:
        parts = ((tp, -prices.c_fn), (fp, prices.c_fp))
    elif baseline == R.EVERYONE:
        parts = ((fn, prices.c_fn), (tn, -prices.c_fp))
    else:
        return float("nan")
    total = float(np.sum(n))
    if not total > 1:
        return float("nan")
    mean = sum(float(np.sum(k * v)) for k, v in parts) / total
    square = sum(float(np.sum(k * v * v)) for k, v in parts) / total
    rows = max(square - mean * mean, 0.0) * total / (total - 1) / total
    splits = np.asarray(counts.get("splits", ()), dtype=np.float64)
    between = float(np.var(splits, ddof=1)) if splits.size > 1 else 0.0
    return math.sqrt(rows + between)


def at_least_rows(estimate: float, low: float, high: float, se: float) -> tuple[float, float]:
    """The interval of a cross-fitted saving: ``estimate +- Z95 * se`` with `se` its fold-aware
    standard error (`row_se`); (low, high), the bootstrap's, when `se` is NaN (a baseline that
    flags at random under a review limit).

    Chosen by simulation (issue 43, `benchmarks/README.md`): the bootstrap of the cross-fitted
    estimate over-disperses (its refits' argmin over a step function moves more than the folds'
    cutoffs do) and was 1.15 to 1.2 times the ideal width where the signal is weak; the
    fold-aware interval about the mean of ten deals covers 93 to 96% at 2,000 rows and ships
    what the plain cross-fitted Wald interval ships. The bootstrap still gives the groups'
    cost intervals and the per-group extra saving.

    >>> [round(x, 4) for x in at_least_rows(0.1, 0.0, 0.3, 0.05)]
    [0.002, 0.198]
    >>> at_least_rows(0.1, 0.0, 0.3, float("nan"))
    (0.0, 0.3)
    """
    if not math.isfinite(se):
        return low, high
    return estimate - Z95 * se, estimate + Z95 * se


# ---------------------------------------------------------------------------------------
# One model's honest judgement at one price book

CROSS_FITTED, TEST, SAME_ROWS = "cross-fitted", "test", "same rows"


@dataclass(frozen=True, eq=False)
class Honest:
    """How the fitted rules of one model are judged at one price book.

    estimate   CROSS_FITTED (no split: every row judged by cutoffs fitted without it), TEST
               (a split: fitted on train, judged on test) or SAME_ROWS (weighted rows without
               a split: no honest estimate exists here, and the answer says so)
    crossfit   `CrossFit` (for CROSS_FITTED), else None
    refits     `Refits` of the refit bootstrap, or None (no intervals)
    """

    estimate: str
    crossfit: CrossFit | None
    refits: Refits | None


def _cached(ms, key, make):
    cache = ms.__dict__.setdefault("_honest_cache", {})
    if key not in cache:
        cache[key] = make()
    return cache[key]


def judge(ms, prices: Prices, *, n_resamples: int, seed: int = 0, capacity: float | None = None) -> Honest:
    """The honest judgement of `ms` (a `ModelSweeps`): folds and draws are made on the first
    call and cached on `ms`; later price books (and caps) only reweight them."""
    counted = _cached(
        ms,
        ("counted",),
        lambda: not ms.weighted and integer_counts(ms.fit) and (ms.judged_on == "all" or integer_counts(ms.judge)),
    )
    crossfit = None
    if ms.judged_on == "all":
        if not counted:
            return Honest(SAME_ROWS, None, None)
        index = ms.pooled_index("fit")
        k, r = deal_shape(ms.fit)
        deals = _cached(
            ms,
            ("deals", int(seed)),
            lambda: tuple(make_folds(ms.fit, ms.fit_pooled, index, k=k, seed=seed, split=i) for i in range(r)),
        )
        crossfit = repeated_cross_fit(ms.fit, ms.fit_pooled, index, deals, prices, capacity)
    estimate = CROSS_FITTED if crossfit is not None else TEST
    refits = None
    if n_resamples and counted and crossfit is not None:
        folds = _cached(ms, ("folds", int(seed)), lambda: make_folds(ms.fit, ms.fit_pooled, index, seed=seed))
        draws = _cached(
            ms,
            ("fold draws", int(n_resamples), int(seed)),
            lambda: fold_draws(ms.fit, ms.fit_pooled, folds, n_resamples=n_resamples, seed=seed),
        )
        refits = price_fold_refits(draws, prices, capacity)
    elif n_resamples and counted:
        draws = _cached(
            ms,
            ("draws", int(n_resamples), int(seed)),
            lambda: refit_draws(ms.fit, ms.judge, ms.fit_pooled, n_resamples=n_resamples, seed=seed),
        )
        refits = price_refits(draws, prices, capacity)
    return Honest(estimate, crossfit, refits)
