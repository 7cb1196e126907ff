"""Decisions under capacity: at most so many cases flagged.

A team can review only so many cases. A capacity is a share of the cases (0 to 1; the pages
take cases per month and divide by the volume). Flagging fewer never breaks a cap, so every
answer here is read off the sweeps that were sorted once (no re-sort when a price or the cap
moves):

- **one cutoff** (`within_index`): the cheapest threshold whose flagged weight is within the
  cap; the unlimited optimum (the sweep's one tie rule) when it fits, else the cheapest of the
  thresholds that fit, ties to the larger threshold;
- **the capacity curve** (`curve_index`): for every distinct flagged share of the sweep, the
  cheapest cost reachable within it (a running minimum, exact). Its slope is the price of
  capacity: what one more reviewed case saves;
- **one cutoff per group under one cap** (`cutoffs_within`): a multiple-choice knapsack. The
  convex hull of each group's sweep solves it at the hull's breakpoints: with one shared price
  of capacity (a Lagrange multiplier, in the unit of the prices per flagged case), each group
  takes every hull edge whose saving per flagged case is above it. Edges are taken in order of
  that saving while they fit; what is left of the cap is then filled, group by group, by the
  cheapest point of the group's own sweep that still fits. The Lagrangian gives a lower bound
  on the optimum, so the answer states how far above the optimum it can be (`GroupCut.gap`,
  0 when it is proven optimal).

A cap is compared with a relative tolerance of `CAP_TOLERANCE`, so that 400 cases of 1,000
fit a cap of 0.4 however the share was rounded.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from costlib.core import validation as v
from costlib.core.bounded import BoundedLRU
from costlib.core.prices import Prices, prices_for
from costlib.core.sweep import TIE_TOLERANCE, Sweep, argbest, grouped_sweep, threshold_sweep, tie_tolerance

CAP_TOLERANCE = 1e-12
WITHIN_KEPT = 64  # price books whose cutoffs within a cap a model's sweeps keep (shared samples' too)


def cap_limit(share: float, total: float) -> float:
    """The most weight that may be flagged out of `total` under a cap of `share`."""
    return float(share) * float(total) * (1.0 + CAP_TOLERANCE)


def binds(share: float | None) -> bool:
    """Whether a cap can bind at all (None or a share of 1 or more: no cap)."""
    return share is not None and float(share) < 1.0


def at_random(share: float, nobody, everyone):
    """What flagging a `share` of the cases at random, without a model, comes to, from what
    flagging nobody and flagging everyone come to (costs, counts or worths, scalars or arrays):
    its expectation, the mixture ``(1 - share) * nobody + share * everyone``. Under a review limit
    that flagging everyone does not fit, it is the no-model choice a model must beat (the one
    home of that rule: the judged rules, the honest baseline, the Value page and Watch read it).

    >>> at_random(0.25, 4.0, 8.0)
    5.0
    """
    return (1 - share) * nobody + share * everyone


# ---------------------------------------------------------------------------------------
# One cutoff within a cap, and the capacity curve


def within_index(cost: np.ndarray, flagged: np.ndarray, share: float, total: float, best: int) -> int:
    """Index of the cheapest entry of `cost` whose `flagged` weight (non-decreasing) fits the
    cap: `best` (the unlimited optimum under the sweep's tie rule) when it fits, else the
    cheapest that fits, ties to the lowest index (the larger threshold)."""
    last = int(np.searchsorted(flagged, cap_limit(share, total), side="right")) - 1
    if 0 <= best <= last:
        return int(best)
    return argbest(cost[: max(last, 0) + 1])


def curve_index(cost: np.ndarray, best: int) -> np.ndarray:
    """For every entry j of a sweep (flagged ascending), the index of the cheapest entry among
    0..j (ties to the lowest index, the larger threshold); `best` from j = `best` on, so that
    the curve ends at the unlimited optimum of the sweep's tie rule.

    The cheapest among 0..j is a running minimum; its index is the first "record" (an entry
    cheaper than every one before it) within the tie tolerance of that minimum: records get
    cheaper as they go, so one `searchsorted` finds it for every j."""
    cost = np.asarray(cost, dtype=np.float64)
    run = np.minimum.accumulate(cost)
    records = np.flatnonzero(np.concatenate(([True], cost[1:] < run[:-1])))
    finite = np.abs(cost[np.isfinite(cost)])
    scale = float(finite.max()) if finite.size else 0.0  # as `sweep.argbest`: costs scaled together tie alike
    reach = run + TIE_TOLERANCE * np.maximum(scale, np.abs(run))
    idx = records[np.searchsorted(-cost[records], -reach, side="left")]
    if best >= 0:
        idx[best:] = best
    return idx


def optimal_threshold_within(y_true, y_score, *, c_fp, c_fn, max_flagged, sample_weight=None) -> tuple[float, float]:
    """(threshold, cost_per_case): the cheapest cutoff that flags at most `max_flagged` of the cases.

    Flagging fewer never breaks a cap, so this is the cheapest threshold whose flagged share
    is at most the cap, read off the same exact sweep as `optimal_threshold` (ties to the
    larger threshold). When the unlimited optimum fits the cap, it is the answer.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_score : array-like of shape (n,)
        Finite real scores; flag iff score >= threshold.
    c_fp, c_fn : float
        Prices of a false positive and of a false negative; finite, >= 0.
    max_flagged : float
        The capacity: the largest share of the cases (weighted) that may be flagged, 0 to 1.
    sample_weight : array-like of shape (n,), optional
        Non-negative finite case weights; None weighs every case 1.

    Returns
    -------
    threshold : float
        The cheapest cutoff within the cap: a score, or inf (flag nobody); NaN when there is none.
    cost_per_case : float
        Its cost per case; NaN when there is no threshold to fit.

    Raises
    ------
    ValueError
        As `optimal_threshold`, and when `max_flagged` is not a number from 0 to 1.

    Warns
    -----
    DegenerateWarning
        When only one class has positive weight and the cap is above 0: (nan, nan).

    Examples
    --------
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9]
    >>> optimal_threshold_within(y, s, c_fp=1, c_fn=3, max_flagged=1.0)  # the cap does not bind
    (0.35, 0.3333333333333333)
    >>> optimal_threshold_within(y, s, c_fp=1, c_fn=3, max_flagged=0.4)  # at most 2 of the 6
    (0.8, 0.5)
    >>> optimal_threshold_within(y, s, c_fp=1, c_fn=3, max_flagged=0)
    (inf, 1.5)
    """
    c_fp = v.as_price(c_fp, "c_fp")
    c_fn = v.as_price(c_fn, "c_fn")
    share = v.as_share(max_flagged, "max_flagged")
    sweep = threshold_sweep(y_true, y_score, sample_weight=sample_weight)
    if share == 0 and sweep.total > 0:
        return float("inf"), float(sweep.cost(c_fp, c_fn)[0])
    best = sweep.best(c_fp, c_fn)
    if best < 0:
        return float("nan"), float("nan")
    cost = sweep.cost(c_fp, c_fn)
    j = within_index(cost, sweep.flagged, share, sweep.total, best)
    return float(sweep.thresholds[j]), float(cost[j])


def curve_frame(thresholds, cost, flagged, total: float, best: int) -> pd.DataFrame:
    """The capacity curve (`capacity_curve`) of one sweep's arrays: its `thresholds`, `cost`
    per case and `flagged` weight at every entry, all the weight `total`, and its unlimited
    optimum `best` (-1: one class only, NaN beyond the first row)."""
    share = v.safe_divide(flagged, np.full(np.shape(flagged), total))
    idx = curve_index(cost, best)
    frame = pd.DataFrame({"flagged_share": share, "threshold": thresholds[idx], "cost_per_case": cost[idx]})
    if best < 0:  # one class: nothing to fit beyond flagging nobody
        frame.loc[1:, ["threshold", "cost_per_case"]] = np.nan
    distinct = np.concatenate(([True], np.diff(flagged) > 0))  # steps without weight repeat a share
    return frame[distinct].reset_index(drop=True)


def capacity_curve(y_true, y_score, *, c_fp, c_fn, sample_weight=None) -> pd.DataFrame:
    """The cheapest cost per case reachable within every capacity, and the cutoff that reaches it.

    One row per distinct flagged share of the exact sweep, in ascending order, with columns
    ``flagged_share, threshold, cost_per_case``: ``cost_per_case`` is the cost of
    `optimal_threshold_within` at a cap of that share, so it never rises as the share grows,
    and it reaches the unlimited optimum at the optimum's share. Its slope is the price of
    capacity: what one more reviewed case saves.

    Parameters
    ----------
    y_true, y_score, c_fp, c_fn, sample_weight
        As `optimal_threshold`.

    Returns
    -------
    pandas.DataFrame

    Warns
    -----
    DegenerateWarning
        When only one class has positive weight: NaN beyond the first row (flag nobody).

    Examples
    --------
    >>> capacity_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], c_fp=1, c_fn=3).round(3)
       flagged_share  threshold  cost_per_case
    0          0.000        inf          1.500
    1          0.167       0.90          1.000
    2          0.333       0.80          0.500
    3          0.500       0.80          0.500
    4          0.667       0.80          0.500
    5          0.833       0.35          0.333
    6          1.000       0.35          0.333
    """
    c_fp = v.as_price(c_fp, "c_fp")
    c_fn = v.as_price(c_fn, "c_fn")
    sweep = threshold_sweep(y_true, y_score, sample_weight=sample_weight)
    best = sweep.best(c_fp, c_fn)
    return curve_frame(sweep.thresholds, sweep.cost(c_fp, c_fn), sweep.flagged, sweep.total, best)


# ---------------------------------------------------------------------------------------
# One cutoff per group under one cap


@dataclass(frozen=True, eq=False)
class GroupCut:
    """One cutoff per group under one cap (`cutoffs_within`).

    index     each group's sweep index (arrays of the groups' own sweeps)
    cost      total price of the mistakes (not per case)
    flagged   total weight flagged
    lam       the shared price of capacity at the answer (price per flagged case; 0 when the
              cap does not bind)
    gap       how far above the optimum the answer can be, in total price (0: proven optimal)
    """

    index: np.ndarray
    cost: float
    flagged: float
    lam: float
    gap: float

    @property
    def proven(self) -> bool:
        return self.gap <= 1e-9 * max(1.0, abs(self.cost))


def _edge_savings(sw: Sweep, c_fp: float, c_fn: float) -> np.ndarray:
    """For each edge of the sweep's hull, its saving per flagged case: the price of capacity
    below which a group takes it. Going on along an edge of ratio r (false positives per true
    positive) pays at a price of capacity lam when (c_fn - lam) / (c_fp + lam) > r."""
    e = sw.hull.edges
    with np.errstate(invalid="ignore", over="ignore"):
        lam = (c_fn - e * c_fp) / (1.0 + e)
    return np.where(np.isinf(e), -c_fp, lam)


def cutoffs_within(
    sweeps: Sequence[Sweep], c_fp: np.ndarray, c_fn: np.ndarray, limit: float, start: np.ndarray | None = None
) -> GroupCut:
    """One sweep index per group, at most `limit` weight flagged in total (see the module
    docstring). `start` (optional) fixes groups: a group whose entry is >= 0 keeps that index
    (its flagged weight counts against the cap); -1 lets a group choose."""
    k = len(sweeps)
    fixed = np.full(k, -1, dtype=np.int64) if start is None else np.asarray(start, dtype=np.int64)
    chosen = np.where(fixed >= 0, fixed, 0)
    costs = [sw.errors_cost(c_fp[i], c_fn[i]) for i, sw in enumerate(sweeps)]
    room = limit - sum(float(sweeps[i].flagged[chosen[i]]) for i in range(k) if fixed[i] >= 0)
    lam_p, df_p, g_p, k_p = [], [], [], []
    for i, sw in enumerate(sweeps):
        if fixed[i] >= 0 or sw.thresholds.size < 2:
            continue
        lam = _edge_savings(sw, float(c_fp[i]), float(c_fn[i]))
        pays = np.flatnonzero(lam > 0)  # lam falls along the hull: these are its first edges
        lam_p.append(lam[pays])
        df_p.append(np.diff(sw.flagged[sw.hull.vertices])[pays])
        g_p.append(np.full(pays.size, i))
        k_p.append(pays)
    if lam_p:
        lam, df, grp, edge = (np.concatenate(x) for x in (lam_p, df_p, g_p, k_p))
    else:
        lam, df, grp, edge = (np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    order = np.lexsort((edge, grp, -lam))  # most saving per flagged case first; a group's edges in order
    lam, df, grp, edge = lam[order], df[order], grp[order], edge[order]
    cum = np.cumsum(df)
    first = int(np.searchsorted(cum, room, side="right"))  # edges taken before the first that does not fit
    taken = np.bincount(grp[:first], minlength=k)
    vert = [sw.hull.vertices for sw in sweeps]
    for i in range(k):
        if fixed[i] < 0 and sweeps[i].thresholds.size >= 2:
            chosen[i] = vert[i][taken[i]]
    if first == lam.size:  # the cap does not bind: every edge that pays fits
        total = float(sum(costs[i][chosen[i]] for i in range(k)))
        flagged = float(sum(sweeps[i].flagged[chosen[i]] for i in range(k)))
        return GroupCut(chosen, total, flagged, 0.0, 0.0)
    lam_star = float(lam[first])
    used = float(cum[first - 1]) if first > 0 else 0.0
    total_prefix = float(sum(costs[i][chosen[i]] for i in range(k)))
    lower = total_prefix - lam_star * (room - used)  # Lagrangian bound at the breakpoint
    # fill what is left (an edge that does not fit whole may fit in part: a point inside it)
    used = fill(costs, [sw.flagged for sw in sweeps], chosen, np.flatnonzero(fixed < 0), room, used)
    total = float(sum(costs[i][chosen[i]] for i in range(k)))
    flagged = float(sum(sweeps[i].flagged[chosen[i]] for i in range(k)))
    return GroupCut(chosen, total, flagged, lam_star, max(0.0, total - lower))


def fill(costs, flagged, chosen: np.ndarray, free, room: float, used: float) -> float:
    """What the breakpoint leaves of the cap, filled group by group (in the groups' order): each
    free group moves to the cheapest point of its own sweep, at or beyond its current one, that
    still fits (ties: the larger threshold). Updates `chosen`; returns the weight used. The refit
    bootstrap repeats this on its cells (`refits._refit_within`)."""
    for g in free:
        fl = flagged[g]
        here = int(chosen[g])
        last = int(np.searchsorted(fl, fl[here] + (room - used), side="right")) - 1
        if last > here:
            j = here + argbest(costs[g][here : last + 1])
            used += float(fl[j] - fl[here])
            chosen[g] = j
    return used


def group_within(
    sweeps: Sequence[Sweep],
    index: np.ndarray,
    prices: Prices,
    share: float,
    own=None,
    *,
    single_cost: np.ndarray,
    flagged: np.ndarray,
):
    """(j, `GroupCut`, single) under one cap: j indexes the pooled thresholds of the best single
    cutoff within the cap; the `GroupCut` gives each group its sweep index. Groups that are not
    `own` (too small for a cutoff of their own) keep the single cutoff, the others share what is
    left of the cap; the answer is never worse than the single cutoff: `single` is True when it
    is that cutoff for everybody (the `GroupCut` then holds it, with the knapsack's gap bound).

    `index` is each group's sweep index at every pooled threshold (`ModelSweeps.pooled_index`);
    `single_cost` and `flagged` are the total price and weight of one cutoff for everybody at
    every pooled threshold (`ModelSweeps.single_cost`, the pooled sweep's flagged): made once by
    the caller, not once per group here."""
    k = len(sweeps)
    total = float(sum(sw.total for sw in sweeps))
    per_case = single_cost / total if total > 0 else single_cost  # the cheapest cutoff for everybody within it
    j = within_index(per_case, flagged, share, total, argbest(per_case))
    at_single = np.array([int(index[i][j]) for i in range(k)], dtype=np.int64)
    own = np.ones(k, dtype=bool) if own is None else np.asarray(own, dtype=bool)
    cut = cutoffs_within(sweeps, prices.c_fp, prices.c_fn, cap_limit(share, total), np.where(own, -1, at_single))
    best_single = float(single_cost[j])
    if best_single < cut.cost - tie_tolerance(cut.cost, prices.scale * total):
        gap = max(0.0, cut.gap - (cut.cost - best_single))
        return j, GroupCut(at_single, best_single, float(flagged[j]), cut.lam, gap), True
    return j, cut, False


def fitted_within(ms, prices: Prices, share: float, own=None) -> tuple[float, np.ndarray, GroupCut]:
    """(single cutoff, cutoff per group, `GroupCut`) of `ms` (a `ModelSweeps`) within the cap,
    fitted on its fitting rows; kept on `ms` per price book, cap and `own` (a price move or a
    second reader costs nothing more). A group that keeps the single cutoff gets the single
    cutoff itself (a pooled threshold), as the rule without a cap gives it."""
    own_key = None if own is None else tuple(bool(x) for x in own)
    key = (prices.key(), float(share), own_key)
    cache = ms.__dict__.setdefault("_within_cache", BoundedLRU())
    kept = cache.get(key)
    if kept is None:
        sweeps = [ms.fit[g] for g in ms.groups]
        j, cut, single = group_within(
            sweeps,
            ms.pooled_index("fit"),
            prices,
            share,
            own,
            single_cost=ms.single_cost(prices),
            flagged=ms.fit_pooled.flagged,
        )
        t_single = float(ms.fit_pooled.thresholds[j])
        pinned = np.ones(len(sweeps), dtype=bool) if single or own is None else ~np.asarray(own, dtype=bool)
        if own is None and not single:
            pinned[:] = False
        per_group = np.array(
            [t_single if pinned[i] else float(sw.thresholds[cut.index[i]]) for i, sw in enumerate(sweeps)]
        )
        kept = (t_single, per_group, cut)
        cache.put(key, kept, max_entries=WITHIN_KEPT)
    return kept


def optimal_cutoffs_within(y_true, y_score, groups, *, costs, max_flagged) -> pd.DataFrame:
    """One cutoff per group, each group at its own prices, flagging at most `max_flagged` of
    all cases together.

    The exact problem is a knapsack (which group spends the review capacity); the convex hull
    of each group's sweep solves it at the hull's breakpoints, with one shared price of
    capacity, and what the breakpoint leaves of the cap is filled group by group (see
    `costlib.binary.capacity`). The answer is never worse than the best single cutoff within
    the cap, and ``attrs["gap"]`` bounds how far above the optimum its cost per case can be
    (0 when it is proven optimal, ``attrs["proven"]``). A group with one class still gets the
    cheapest cutoff within the cap (what flagging its cases costs is known), where
    `cost_optimal_thresholds` has no cutoff to fit; no cases at all: an empty frame, NaN attrs.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Binary labels and finite real scores; flag iff score >= the group's cutoff.
    groups : array-like of shape (n,)
        Group of each case (groups are sorted by name).
    costs : Mapping
        ``{group: (c_fp, c_fn)}`` with an entry for every group; prices finite and >= 0.
    max_flagged : float
        The capacity: the largest share of all cases that may be flagged, 0 to 1.

    Returns
    -------
    pandas.DataFrame
        One row per group: ``group, threshold, flagged, cost_per_case`` (``flagged``: the
        share of *all* cases this group's cutoff flags, so the column sums to at most the
        cap; ``cost_per_case``: per case of the group). ``attrs``: ``cost_per_case`` and
        ``flagged_share`` of all cases together, ``gap`` (per case of all cases),
        ``proven`` and ``price_of_capacity`` (the shared price per flagged case at the answer).

    Examples
    --------
    >>> out = optimal_cutoffs_within([0, 1, 1, 0, 1, 0], [0.2, 0.9, 0.6, 0.3, 0.7, 0.5],
    ...                              ["a", "a", "a", "b", "b", "b"],
    ...                              costs={"a": (1, 3), "b": (1, 3)}, max_flagged=0.5)
    >>> out[["group", "threshold", "flagged"]].round(3)
      group  threshold  flagged
    0     a        0.6    0.333
    1     b        0.7    0.167
    >>> out.attrs["proven"]
    True
    """
    from costlib.binary.costs import _prices
    from costlib.binary.model_sweeps import model_from_sweeps

    share = v.as_share(max_flagged, "max_flagged")
    gs = grouped_sweep(y_true, y_score, groups)
    columns = ["group", "threshold", "flagged", "cost_per_case"]
    if not gs.groups:  # no cases (grouped_sweep has warned): nothing to flag
        out = pd.DataFrame(columns=columns)
        nan = float("nan")
        out.attrs.update(cost_per_case=nan, flagged_share=nan, gap=nan, proven=False, price_of_capacity=nan)
        return out
    c_fp, c_fn = _prices(costs, gs.groups)
    ms = model_from_sweeps(gs)
    prices = prices_for(gs.groups, {g: (c_fp[i], c_fn[i]) for i, g in enumerate(gs.groups)})
    _, thresholds, cut = fitted_within(ms, prices, share)
    total = ms.fit_pooled.total
    rows = []
    for i, g in enumerate(gs.groups):
        sw = gs[g]
        j = int(cut.index[i])
        rows.append(
            (
                g,
                thresholds[i],
                v.safe_divide(sw.flagged[j], total),
                v.safe_divide(sw.errors_cost(c_fp[i], c_fn[i])[j], sw.total),
            )
        )
    out = pd.DataFrame(rows, columns=columns)
    out.attrs.update(
        cost_per_case=v.safe_divide(cut.cost, total),
        flagged_share=v.safe_divide(cut.flagged, total),
        gap=v.safe_divide(cut.gap, total),
        proven=cut.proven,
        price_of_capacity=cut.lam,
    )
    return out


# ---------------------------------------------------------------------------------------
# The price of capacity: what more (or less) review capacity is worth


@dataclass(frozen=True, eq=False)
class PriceOfCapacity:
    """The capacity curve of one model on the rows its cutoffs are fitted on, one cutoff for
    everybody at these prices (each group at its own), read for a staffing decision.

    share    the cap (share of the cases)
    curve    `capacity_curve`'s frame: flagged_share, threshold, cost_per_case (exact)
    enough   the smallest share at which the curve reaches its lowest cost (the unlimited
             optimum's share): capacity beyond it saves nothing
    """

    share: float
    curve: pd.DataFrame
    enough: float

    def cost_within(self, share: float) -> float:
        """Cost per case of the cheapest cutoff within a cap of `share` (the curve, exactly)."""
        shares = self.curve["flagged_share"].to_numpy()
        i = int(np.searchsorted(shares, cap_limit(share, 1.0), side="right")) - 1
        return float(self.curve["cost_per_case"].iloc[max(i, 0)])


def price_of_capacity(ms, prices: Prices, share: float) -> PriceOfCapacity:
    """`PriceOfCapacity` of `ms` (a `ModelSweeps`) at a cap of `share`, read off the sweep of
    its fitting rows (no sort: the sweeps were sorted once)."""
    pooled = ms.fit_pooled
    total = pooled.total
    cost = v.safe_divide(ms.single_cost(prices, "fit"), np.full(pooled.thresholds.shape, total))
    best = argbest(cost) if pooled.positives > 0 and pooled.negatives > 0 else -1
    curve = curve_frame(pooled.thresholds, cost, pooled.flagged, total, best)
    shares = curve["flagged_share"].to_numpy()
    costs = curve["cost_per_case"].to_numpy()
    finite = np.isfinite(costs)
    if not finite.all():  # one class: only flagging nobody has a cost
        return PriceOfCapacity(float(share), curve, 0.0)
    enough = float(shares[argbest(costs)])
    return PriceOfCapacity(float(share), curve, enough)


# ---------------------------------------------------------------------------------------
# What a limit does to an answer: decided once, on the rows the cutoffs are fitted on


@dataclass(frozen=True)
class Limit:
    """A review limit beside the answer without it, in shares of the cases.

    share             the cap
    binding           the answer without the limit flags more than the cap on the fitting rows
    unlimited_flagged the share of the fitting rows the answer without the limit flags
    within_flagged    the share of the fitting rows the answer within the limit flags (at most the cap)
    within_judged     the share of the judged rows it flags: about what it flags of new cases
    within_cost       the cost per case of the answer within the limit, as the page states it
    answer_cost       cost per case of the same answer made again at another cap (a share):
                      what the price of capacity is read from (`more_saves`)
    unflagged         the groups per-group cutoffs flag nobody in, and why (`unflagged`)
    """

    share: float
    binding: bool
    unlimited_flagged: float
    within_flagged: float
    within_judged: float
    within_cost: float = float("nan")
    answer_cost: Callable[[float], float] | None = field(default=None, compare=False, repr=False)
    unflagged: tuple = ()

    def more_saves(self, extra: float, *, change: bool = False) -> float:
        """Per case: what a cap of `extra` more (a share) saves, the answer made again there, judged as
        it is (tied scores are flagged together: one more case may change nothing, a hundred a lot); 0
        where it is no cheaper (a refit dearer on the judged rows is the luck of choosing cutoffs, not a
        price of capacity); with `change`, the change itself. NaN without `answer_cost`."""
        there = self.answer_cost(min(1.0, self.share + float(extra))) if self.answer_cost else math.nan
        saved = float(self.within_cost - there)
        return saved if change or not math.isfinite(saved) else max(0.0, saved)


def flagged_share(grouped, cutoffs) -> float:
    """The share of a `GroupedSweep`'s weight that ``{group: cutoff}`` flags."""
    total = float(np.sum(grouped.positives) + np.sum(grouped.negatives))
    flagged = sum(float(grouped[g].flagged[grouped[g].index_at(cutoffs[g])]) for g in grouped.groups)
    return flagged / total if total > 0 else float("nan")


def limit_facts(models, rec, unlimited) -> Limit:
    """`Limit` of a recommendation within a cap (`rec`) and the one without it, of the models
    ``{name: ModelSweeps}`` they chose from. Both answers' model cutoffs are read (what the model
    would flag, whatever the verdict), on the fitting rows; `Limit.more_saves` makes `rec` again
    at a larger cap (`decision.Recommendation.answer_at`)."""
    free = flagged_share(models[unlimited.model].fit, unlimited.cutoffs)
    ms = models[rec.model]
    return Limit(
        share=float(rec.capacity),
        binding=bool(free > cap_limit(rec.capacity, 1.0)),
        unlimited_flagged=free,
        within_flagged=flagged_share(ms.fit, rec.cutoffs),
        within_judged=flagged_share(ms.judge, rec.cutoffs),
        within_cost=float(rec.cost),
        answer_cost=lambda cap: float(rec.answer_at(models, cap).cost),  # `rec` made again at another cap
        unflagged=unflagged(ms, rec.prices, rec.cutoffs, float(rec.capacity)) if rec.grouped else (),
    )


def unflagged(ms, prices: Prices, cutoffs, share: float) -> tuple[tuple, ...]:
    """The groups of `ms` (a `ModelSweeps`) that ``{group: cutoff}`` within a cap of `share` flag nobody
    in, as ``(group, reason, block, room, total)`` in weights of its fitting rows (`block`: its top block of
    tied scores; `room`: what the others' flags leave of the cap). `reason`: "block" (the block alone is
    bigger than the cap), "no_pay" (no cutoff of it within the cap saves money at `prices`), "elsewhere"
    (the others' flags save at least as much per flagged case as its best within the cap) or "left"."""
    sweeps = [ms.fit[g] for g in ms.groups]
    at = [sw.index_at(cutoffs[g]) for g, sw in zip(ms.groups, sweeps, strict=True)]
    cost = [sw.errors_cost(prices.c_fp[i], prices.c_fn[i]) for i, sw in enumerate(sweeps)]
    saved, flagged = np.array([[c[0] - c[j], sw.flagged[j]] for c, j, sw in zip(cost, at, sweeps, strict=True)]).T
    total = float(sum(sw.total for sw in sweeps))
    limit, out = cap_limit(share, total), []
    for i, (g, sw) in enumerate(zip(ms.groups, sweeps, strict=True)):
        some = np.flatnonzero(sw.flagged > 0)
        if at[i] == 0 and some.size:
            block, others = float(sw.flagged[some[0]]), float(flagged.sum() - flagged[i])
            fits = some[sw.flagged[some] <= limit]
            gain = cost[i][0] - cost[i][fits]
            pays = gain > tie_tolerance(cost[i][0], prices.scale * total)
            mine = float(np.max(gain[pays] / sw.flagged[fits][pays], initial=0.0))
            theirs = float(saved.sum() - saved[i]) / others if others > 0 else -math.inf
            why = "block" if block > limit else "no_pay" if mine <= 0 else "left" if theirs < mine else "elsewhere"
            out.append((g, why, block, max(0.0, limit - others), total))
    return tuple(out)
