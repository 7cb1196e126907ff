"""The refit bootstrap on cells: the luck of the pick inside the intervals.

Used for the intervals other than the saving's without a split (the per-group extra saving
and the groups' costs, through `honest.shrunk_intervals`, which shrinks this spread toward the
rows' noise) and for every interval with a split, so that the luck of picking the
cutoff is inside them. No split: a bootstrap of the cross-fitted estimate on `folds.FOLDS` folds
(`fold_draws`, `price_fold_refits`): each resample refits the cutoffs within the folds (on each
fold's other folds' weights) and judges every resampled row by cutoffs fitted without it; the
interval is that estimate's spread about the cross-fitted estimate
(`stats.intervals.centred_interval`). A split: each resample refits on its in-bag train rows and
is judged on a resample of the test rows (`refit_draws`, `price_refits`), and that gives the
saving's interval too.

It is the Poisson bootstrap (each row drawn Poisson(1) times) on cells: the candidate cutoffs of
a resample are at most `MAX_CELLS` quantiles of the fitting rows' scores (every distinct score
when there are fewer), and a row's part in every cost depends only on its group, label and cell,
so the draws are exact per cell: the number of rows drawn v times is multinomial with Poisson(1)
probabilities, which gives both the in-bag weight and the rows left out.

Draws do not depend on the prices: they are made once per model and cached (`honest.judge`), and
a price move only reweights them (vector arithmetic over cached arrays).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from costlib.binary import capacity as C
from costlib.binary import group_alone as A
from costlib.binary.folds import Folds, own_cutoff
from costlib.core.prices import Prices, mistakes_cost
from costlib.core.sweep import GroupedSweep, Sweep

MAX_CELLS = 256  # candidate cutoffs of a refit, at most (quantiles of the fitting rows' scores)
MIN_CELLS = 48
REFIT_RESAMPLES = 2000  # at most this many refits (enough for a 95% percentile interval)
CELL_BUDGET = 1_500_000  # resamples x groups x cells kept in memory per model
CHUNK = 250  # resamples priced at once
POISSON_TOP = 4  # a big cell's draw counts its rows drawn 0..3 times, then those drawn 4 or more times
POISSON_TAIL = 40  # (whose counts are drawn one by one: about 2% of the rows)
SMALL_CELL = 12  # a cell of at most this many rows draws each row


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
    # deciding by group alone, with no model (`group_alone`): each group's own cheaper no-model choice
    by_group_alone: np.ndarray | None = None


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


def _refit_edges(fn: np.ndarray, fp: np.ndarray, prices: Prices, capacity: float | None):
    """The edges both fitted rules pick on fitting weights (b, groups, edges): `fn` of the
    positives not flagged at each edge, `fp` of the negatives flagged. ``(e_single (b,), e_group
    (b, groups))``, as the point estimate picks them (ties: the larger cutoff; a group without
    `MIN_CLASS_ROWS` of each class keeps the single cutoff; under a `capacity`, within it:
    `_refit_within`)."""
    c_fp, c_fn = prices.c_fp[None, :, None], prices.c_fn[None, :, None]
    p_in, n_in = fn[..., 0], fp[..., -1]  # nobody flagged at the first edge, everybody at the last
    cost_in = mistakes_cost(fp, fn, c_fp, c_fn)  # (b, groups, edges)
    own = own_cutoff(p_in, n_in)  # on the fitting weight (about the rows fitted on)
    if C.binds(capacity):
        top = 2.0 * float(np.max(prices.c_fp) + np.max(prices.c_fn)) + 1.0
        flagged = ((p_in[..., None] - fn) + fp).astype(np.float64)
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
    parts = {k: [] for k in ("baseline", "single", "per_group", "single_g", "group_g", "alone")}
    for start in range(0, d.resamples, CHUNK):
        sl = slice(start, start + CHUNK)
        fit_tp = d.fit_tp[sl]
        e_single, e_group = _refit_edges(fit_tp[..., -1:] - fit_tp, d.fit_fp[sl], prices, capacity)
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
    to it at random stands for it), and each group's own cheaper no-model choice, summed (deciding
    by group alone: `judged_rules.group_alone`). `single_g`, `group_g`, `p_j`, `n_j`: (b, groups)."""
    n_g = p_j + n_j
    total = n_g.sum(axis=1)
    everyone, nobody = (n_j * prices.c_fp[None, :]).sum(axis=1), (p_j * prices.c_fn[None, :]).sum(axis=1)
    cap = capacity if C.binds(capacity) else None
    alone = A.cost(p_j, n_j, prices.c_fp, prices.c_fn, A.shares(p_j, n_j, prices.c_fp, prices.c_fn, cap))
    if cap is not None:
        everyone = C.at_random(capacity, nobody, everyone)
    with np.errstate(invalid="ignore", divide="ignore"):
        parts["baseline"].append(np.where(everyone < nobody, everyone, nobody) / total)
        parts["alone"].append(alone / total)
        parts["single"].append(single_g.sum(axis=1) / total)
        parts["per_group"].append(group_g.sum(axis=1) / total)
        parts["single_g"].append(single_g / n_g)
        parts["group_g"].append(group_g / n_g)


def _refits(parts: dict) -> Refits:
    cat = {k: np.concatenate(x) for k, x in parts.items()}
    return Refits(cat["baseline"], cat["single"], cat["per_group"], cat["single_g"], cat["group_g"], cat["alone"])


# ---------------------------------------------------------------------------------------
# The bootstrap of the cross-fitted estimate (no split)


@dataclass(frozen=True, eq=False)
class FoldDraws:
    """Price-free draws of the bootstrap of the cross-fitted estimate: each row's Poisson(1)
    weight, summed by fold, group, label and cell and cumulated along `edges`. A resample refits
    both rules on each fold's other folds (their weights) and judges them on the fold's own
    weights: every resampled row is judged, by cutoffs fitted without it (a row and its copies
    stay in one fold).

    fit_fp, fit_fn    (B, folds, groups, edges): each fold's other folds' weight of negatives
                      flagged and of positives not flagged at each edge (what a refit is fitted
                      on, as pricing reads it: a price move does not subtract them again)
    all_tp, all_fp    (B, groups, edges): every fold's weight flagged; a fold's own is this
                      minus its other folds' (whole numbers below 2**24: exact in float32)
    """

    edges: np.ndarray
    fit_fp: np.ndarray
    fit_fn: np.ndarray
    all_tp: np.ndarray
    all_fp: np.ndarray

    @property
    def resamples(self) -> int:
        return self.fit_fp.shape[0]


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
    all_tp, all_fp = tp.sum(axis=1), fp.sum(axis=1)  # whole numbers below 2**24: exact in float32
    fit_fn = np.subtract(all_tp[:, None], tp, out=tp)  # the other folds' positives flagged, then
    np.subtract(fit_fn[..., -1:], fit_fn, out=fit_fn)  # not flagged (in place: no more arrays than before)
    return FoldDraws(edges, np.subtract(all_fp[:, None], fp, out=fp), fit_fn, all_tp, all_fp)


def price_fold_refits(d: FoldDraws, prices: Prices, capacity: float | None = None) -> Refits:
    """The cross-fitted estimate on every resample of `d` (`Refits`, per case of the resample):
    each fold's rules refitted on its other folds' weights (`_refit_edges`, within a `capacity`
    when one is given) and judged on its own; the no-model choice the cheaper on the resample's
    rows, as the point estimate makes it (under a capacity, flagging a share up to it at random
    stands for flagging everyone)."""
    parts = {k: [] for k in ("baseline", "single", "per_group", "single_g", "group_g", "alone")}
    for start in range(0, d.resamples, CHUNK):
        sl = slice(start, start + CHUNK)
        fit_fp, fit_fn, all_tp, all_fp = d.fit_fp[sl], d.fit_fn[sl], d.all_tp[sl], d.all_fp[sl]
        b, k, g_n, e_n = fit_fp.shape
        e_single, e_group = _refit_edges(
            fit_fn.reshape(b * k, g_n, e_n), fit_fp.reshape(b * k, g_n, e_n), prices, capacity
        )
        single_g, group_g = (
            _own_cost_at(fit_fp, fit_fn, all_tp, all_fp, edge, prices)
            for edge in (np.broadcast_to(e_single.reshape(b, k, 1), (b, k, g_n)), e_group.reshape(b, k, g_n))
        )
        p_j, n_j = all_tp[..., -1].astype(np.float64), all_fp[..., -1].astype(np.float64)
        _judged(parts, single_g, group_g, p_j, n_j, prices, capacity)
    return _refits(parts)


def _own_cost_at(fit_fp, fit_fn, all_tp, all_fp, edge: np.ndarray, prices: Prices) -> np.ndarray:
    """(b, groups): what every fold's own rows cost at the edge (`edge`, (b, folds, groups)) its
    other folds chose, summed over the folds: `cost_at` of the folds' own weights, read off the
    `FoldDraws` arrays given (a fold's own: every fold's minus its other folds')."""
    at = edge[..., None]
    p_in = fit_fn[..., 0]
    fit_tp = p_in - np.take_along_axis(fit_fn, at, 3)[..., 0]
    tp_e = (np.take_along_axis(all_tp[:, None], at, 3)[..., 0] - fit_tp).astype(np.float64)
    fp_e = (np.take_along_axis(all_fp[:, None], at, 3)[..., 0] - np.take_along_axis(fit_fp, at, 3)[..., 0]).astype(
        np.float64
    )
    positives = (all_tp[:, None, :, -1] - p_in).astype(np.float64)
    return mistakes_cost(fp_e, positives - tp_e, prices.c_fp, prices.c_fn).sum(axis=1)
