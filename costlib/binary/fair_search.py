"""The exact search for fairness-constrained cutoffs (`fair_cutoffs`, `fair_thresholds`), apart
from the rules built on it (`fairness`, `fair_judged`), so that both read it without importing
each other: the cost-minimising per-group cutoffs whose rates lie within a tolerance of each
other, found exactly (no threshold grid). Its names are re-exported by `costlib.binary.fairness`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from costlib.core import validation as v
from costlib.core.prices import prices_for
from costlib.core.sweep import Sweep, grouped_sweep

FAIRNESS_CRITERIA = {  # criterion -> the rate (costlib.core.sweep.RATES) it equalises across groups
    "demographic parity": "flagged rate",
    "equal opportunity": "true positive rate",
    "equal false positive rate": "false positive rate",
    "equal accuracy": "accuracy",
    "equalized odds": "true and false positive rates",
}
#: the criteria that flagging every case of every group (or none) meets by doing nothing: every rate
#: is then 1 (or 0) in every group, but accuracy, which is then each group's base rate (or its complement)
TRIVIALLY_EQUAL = frozenset(FAIRNESS_CRITERIA) - {"equal accuracy"}
TWO_RATES = {"equalized odds": ("true positive rate", "false positive rate")}  # both within the tolerance
MAX_WINDOW_PAIRS = 4_000_000  # equalized odds: (TPR start, FPR start) pairs searched exactly
MSG_CRITERION = "criterion must be one of {valid}: got {value!r}"


def _rates(sweep: Sweep, criterion: str) -> np.ndarray:
    """The rate a fairness criterion equalises, at every threshold of `sweep` (for equalized
    odds, the true positive rate; `rate_spreads` checks both)."""
    if criterion not in FAIRNESS_CRITERIA:
        raise ValueError(MSG_CRITERION.format(valid=list(FAIRNESS_CRITERIA), value=criterion))
    return sweep.rate(TWO_RATES.get(criterion, (FAIRNESS_CRITERIA[criterion],))[0])


class _RangeArgmin:
    """Sparse table: argmin of `cost` over any index range [lo, hi) in O(1) (ties: lowest `rank`)."""

    def __init__(self, cost: np.ndarray, rank: np.ndarray):
        self.cost = cost
        self.rank = rank
        m = cost.size
        self.levels = [np.arange(m, dtype=np.int64)]
        width = 1
        while 2 * width <= m:
            prev = self.levels[-1]
            self.levels.append(self._better(prev[: m - 2 * width + 1], prev[width : m - width + 1]))
            width *= 2

    def _better(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        ca, cb = self.cost[a], self.cost[b]
        take_b = (cb < ca) | ((cb == ca) & (self.rank[b] < self.rank[a]))
        return np.where(take_b, b, a)

    def query(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """Index of the best entry in each [lo, hi); -1 where the range is empty."""
        length = hi - lo
        ok = length > 0
        level = np.zeros_like(length)
        level[ok] = np.floor(np.log2(length[ok])).astype(np.int64)
        out = np.full(lo.shape, -1, dtype=np.int64)
        for lv in np.unique(level[ok]):
            sel = ok & (level == lv)
            table = self.levels[lv]
            out[sel] = self._better(table[lo[sel]], table[hi[sel] - (1 << lv)])
        return out


def _distinct(runs: list) -> np.ndarray:
    """``np.unique`` of the concatenated arrays `runs`: the same sorted distinct values (NaNs
    as one, last), faster when each run is sorted, since a stable sort merges sorted runs in
    one pass. Only which of 0.0 and -0.0 stands for both could differ, and neither rates nor
    costs are ever -0.0 (sums from +0.0 of non-negative counts)."""
    values = np.sort(np.concatenate(runs), kind="stable")
    if values.size == 0:
        return values
    new = values[1:] != values[:-1]
    new &= ~(np.isnan(values[1:]) & np.isnan(values[:-1]))
    return values[np.concatenate(([True], new))]


class _ByRate:
    """One group's sweep sorted by rate (stably: ties keep the sweep's order), and the cheapest
    cost in any range [lo, hi) of that order.

    The search needs the cheapest cost of every window (`minima`, a sparse table of minima: only
    the values, whichever entry holds them) and the cutoff that holds it for one window only
    (`argmin`: the cheapest, ties to the lowest sweep index, i.e. the larger threshold). A rate
    that never falls along the sweep (every rate but accuracy) is its own order: nothing is
    sorted or copied. Costs with a NaN (no order) are read through `_RangeArgmin`, as before.
    """

    def __init__(self, rate: np.ndarray, cost: np.ndarray):
        rising = bool(np.all(rate[1:] >= rate[:-1]))  # False with a NaN: sorted as before
        self.order = None if rising else np.argsort(rate, kind="stable")
        self.rate = rate if rising else rate[self.order]
        self.cost = cost if rising else cost[self.order]
        rank = np.arange(rate.size) if rising else self.order  # sweep index: lower = larger threshold
        self.rmq = _RangeArgmin(self.cost, rank) if np.isnan(cost).any() else None

    def windows(self, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each window [starts[s], ends[s]], the range [lo, hi) of this order whose rates lie
        in it: ``searchsorted(rate, starts, "left")`` and ``searchsorted(rate, ends, "right")``.

        `starts` is sorted, distinct and holds every finite rate of this group, so each rate is
        placed among the windows instead (fewer keys): lo[s] counts the rates below starts[s]
        (a finite rate is one of the starts; inf and NaN lie past them all) and hi[s] the rates
        at most ends[s] (`ends` is non-decreasing: a rate is in every window from the first
        whose end reaches it).
        """
        below = np.bincount(np.searchsorted(starts, self.rate, side="left"), minlength=starts.size + 1)
        lo = np.concatenate(([0], np.cumsum(below[:-2])))
        upto = np.bincount(np.searchsorted(ends, self.rate, side="left"), minlength=starts.size + 1)
        return lo, np.cumsum(upto[:-1])

    def minima(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """The cheapest cost in each [lo, hi) (0 where the range is empty). Neighbouring windows
        often hold the same range (the starts are every group's rates, and `lo` and `hi` never
        fall): each run of one range is read once."""
        if lo.size == 0:
            return np.zeros(0)
        first = np.flatnonzero(np.concatenate(([True], (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1]))))
        return np.repeat(self._range_minima(lo[first], hi[first]), np.diff(np.append(first, lo.size)))

    def _range_minima(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """`minima` of each range, a sparse table of minima built one level at a time: a range
        of length in [2**lv, 2**(lv + 1)) is the lesser of the level's two entries covering it."""
        if self.rmq is not None:
            best = self.rmq.query(lo, hi)
            return np.where(best >= 0, self.cost[np.maximum(best, 0)], 0.0)
        out = np.zeros(lo.shape)
        full = np.flatnonzero(hi > lo)
        if full.size == 0:
            return out
        lo, hi = lo[full], hi[full]
        level = np.floor(np.log2(hi - lo)).astype(np.int64)
        by_level = np.argsort(level, kind="stable")
        bounds = np.concatenate(([0], np.cumsum(np.bincount(level))))
        table = self.cost
        for lv in range(bounds.size - 1):
            if lv:  # table[i] = min(cost[i : i + 2**lv])
                width = 1 << (lv - 1)
                table = np.minimum(table[:-width], table[width:])
            sel = by_level[bounds[lv] : bounds[lv + 1]]
            out[full[sel]] = np.minimum(table[lo[sel]], table[hi[sel] - (1 << lv)])
        return out

    def argmin(self, lo: int, hi: int) -> int:
        """The sweep index of the cheapest entry in [lo, hi) (non-empty), ties to the lowest
        sweep index: `_RangeArgmin`'s answer."""
        if self.rmq is not None:
            best = int(self.rmq.query(np.array([lo]), np.array([hi]))[0])
            return best if self.order is None else int(self.order[best])
        window = self.cost[lo:hi]
        tied = lo + np.flatnonzero(window == window.min())
        return int(tied[0] if self.order is None else self.order[tied].min())


#: why a criterion's cutoffs were not searched for (`FairCutoffs.not_searched`): too many rate
#: windows for the exact search (equalized odds on many distinct scores), or a group without
#: the cases the rate is a share of; a search that finds no cutoffs is not one of these
TOO_MANY_PAIRS = "too many pairs"
GROUP_WITHOUT_RATE = "a group without the rate"


@dataclass(frozen=True)
class FairCutoffs:
    criterion: str
    tolerance: float
    thresholds: dict
    rates: dict
    cost: float  # total cost per case on the fitting rows
    not_searched: str = ""  # "" when searched; else why not (`TOO_MANY_PAIRS`, `GROUP_WITHOUT_RATE`)

    def spread(self) -> float:
        """The largest gap in `rates` (for equalized odds, `rates` holds the true positive
        rates only: `rate_spread` checks both)."""
        vals = [r for r in self.rates.values() if np.isfinite(r)]
        return float(max(vals) - min(vals)) if vals else float("nan")


def fair_thresholds(
    y_true, y_score, groups, *, costs: Mapping, criterion: str, tolerance: float = 0.02, sample_weight=None
) -> FairCutoffs:
    """Per-group cutoffs minimising total cost subject to every group's rate lying within
    `tolerance` of every other's (all rates in one window [L, L + tolerance]).

    Exact: the best window can start at one of the groups' achievable rates, and for each
    candidate start every group takes its cheapest cutoff whose rate falls in the window
    (a range-minimum query over its sweep sorted by rate). No threshold grid. Rates are
    "demographic parity" (flagged share), "equal opportunity" (true positive rate), "equal
    false positive rate" and "equal accuracy". Infeasible: NaN cutoffs and a warning that
    names the cause.

    Examples
    --------
    >>> fit = fair_thresholds([0, 1, 0, 1], [0.2, 0.8, 0.3, 0.9], ["a", "a", "b", "b"],
    ...                       costs={"a": (1, 1), "b": (1, 1)}, criterion="demographic parity", tolerance=0.0)
    >>> fit.thresholds
    {'a': 0.8, 'b': 0.9}
    """
    if criterion not in FAIRNESS_CRITERIA:
        raise ValueError(MSG_CRITERION.format(valid=list(FAIRNESS_CRITERIA), value=criterion))
    tol = v.as_price(tolerance, "tolerance")
    gs = grouped_sweep(y_true, y_score, groups, sample_weight=sample_weight)
    return fair_cutoffs(gs, prices_for(gs.groups, costs), criterion=criterion, tolerance=tol)


def fair_cutoffs(gs, prices, *, criterion: str, tolerance: float) -> FairCutoffs:
    """`fair_thresholds` on cached sweeps: `gs` a `GroupedSweep`, `prices` a `decision.Prices`
    aligned with its groups. No rows are read."""
    if criterion not in FAIRNESS_CRITERIA:
        raise ValueError(MSG_CRITERION.format(valid=list(FAIRNESS_CRITERIA), value=criterion))
    tol = v.as_price(tolerance, "tolerance")
    if criterion in TWO_RATES:
        return _fair_two_rates(gs, prices, criterion, tol)
    per_group = []
    undefined = []
    for i, name in enumerate(gs.groups):
        sw = gs[name]
        rate = _rates(sw, criterion)
        if not np.isfinite(rate).any():
            undefined.append(name)
        per_group.append((sw, rate, sw.errors_cost(prices.c_fp[i], prices.c_fn[i])))
    nan = {name: float("nan") for name in gs.groups}
    if undefined:
        denominators = {"true positive rate": "positive", "false positive rate": "negative"}
        what = denominators.get(FAIRNESS_CRITERIA[criterion], "") if gs[undefined[0]].total > 0 else ""
        v.warn_degenerate(
            f"{criterion} compares the {FAIRNESS_CRITERIA[criterion]}, which group {undefined[0]!r} does not have "
            f"(it has no {what + ' ' if what else ''}cases on the fitting rows): the fair rule is NaN"
        )
        return FairCutoffs(criterion, tol, nan, nan, float("nan"), GROUP_WITHOUT_RATE)
    by_rates = [_ByRate(rate, cost) for _sw, rate, cost in per_group]
    starts = _distinct([b.rate[np.isfinite(b.rate)] for b in by_rates])  # sorted runs
    ends = starts + tol * (1 + 1e-12) + 1e-15
    total = np.zeros(starts.size)
    windows = []
    for by_rate in by_rates:
        lo, hi = by_rate.windows(starts, ends)
        feasible = hi > lo
        total = np.where(feasible, total + np.where(feasible, by_rate.minima(lo, hi), 0.0), np.inf)
        windows.append((by_rate, lo, hi))
    n_total = float(sum(g[0].total for g in per_group))
    if not np.isfinite(total).any():
        v.warn_degenerate(f"no cutoffs satisfy {criterion} within {tol:g}: the fair rule is NaN")
        return FairCutoffs(criterion, tol, nan, nan, float("nan"))
    j = int(np.argmin(total))
    thresholds, rates = {}, {}
    for (sw, rate, _cost), name, (by_rate, lo, hi) in zip(per_group, gs.groups, windows, strict=True):
        pick = by_rate.argmin(int(lo[j]), int(hi[j]))
        thresholds[name] = float(sw.thresholds[pick])
        rates[name] = float(rate[pick])
    return FairCutoffs(criterion, tol, thresholds, rates, float(total[j] / n_total) if n_total else float("nan"))


def _fair_two_rates(gs, prices, criterion: str, tol: float) -> FairCutoffs:
    """Equalized odds, exactly: every group's true positive rate in one window [L1, L1 + tol]
    and its false positive rate in one window [L2, L2 + tol].

    Both rates are non-decreasing along a sweep, so each window is a range of sweep indices
    and so is their intersection; the cheapest cutoff in it is a range-minimum query. An
    optimal choice has L1 and L2 at the smallest chosen rates, which are achievable rates,
    so every (achievable TPR, achievable FPR) pair is a candidate. Too many pairs for an
    exact search (more than MAX_WINDOW_PAIRS) is said, not approximated.
    """
    first, second = TWO_RATES[criterion]
    nan = {name: float("nan") for name in gs.groups}
    parts = []
    for i, name in enumerate(gs.groups):
        sw = gs[name]
        if sw.positives <= 0 or sw.negatives <= 0:
            what = "positive" if sw.positives <= 0 else "negative"
            v.warn_degenerate(
                f"{criterion} compares the {FAIRNESS_CRITERIA[criterion]}, which group {name!r} does "
                f"not have (it has no {what} cases on the fitting rows): the fair rule is NaN"
            )
            return FairCutoffs(criterion, tol, nan, nan, float("nan"), GROUP_WITHOUT_RATE)
        cost = sw.errors_cost(prices.c_fp[i], prices.c_fn[i])
        parts.append((sw, sw.rate(first), sw.rate(second), cost, _RangeArgmin(cost, np.arange(cost.size))))
    starts1 = np.unique(np.concatenate([p[1] for p in parts]))
    starts2 = np.unique(np.concatenate([p[2] for p in parts]))
    if starts1.size * starts2.size > MAX_WINDOW_PAIRS:
        v.warn_degenerate(
            f"{criterion} is searched exactly over every pair of rate windows, and these scores give "
            f"{starts1.size:,} x {starts2.size:,} pairs (more than {MAX_WINDOW_PAIRS:,}): round or bin "
            "the scores to fewer distinct values; the fair rule is NaN"
        )
        return FairCutoffs(criterion, tol, nan, nan, float("nan"), TOO_MANY_PAIRS)
    shape = (starts1.size, starts2.size)
    total = np.zeros(shape)
    picks = []
    eps = tol * (1 + 1e-12) + 1e-15
    for _sw, r1, r2, cost, rmq in parts:
        a1 = np.searchsorted(r1, starts1, side="left")[:, None]
        b1 = np.searchsorted(r1, starts1 + eps, side="right")[:, None]
        a2 = np.searchsorted(r2, starts2, side="left")[None, :]
        b2 = np.searchsorted(r2, starts2 + eps, side="right")[None, :]
        lo, hi = np.maximum(a1, a2), np.minimum(b1, b2)
        best = rmq.query(lo.ravel(), np.maximum(hi, lo).ravel()).reshape(shape)
        feasible = best >= 0
        total = np.where(feasible, total + cost[np.maximum(best, 0)], np.inf)
        picks.append(best)
    if not np.isfinite(total).any():
        v.warn_degenerate(f"no cutoffs satisfy {criterion} within {tol:g}: the fair rule is NaN")
        return FairCutoffs(criterion, tol, nan, nan, float("nan"))
    j = np.unravel_index(int(np.argmin(total)), shape)
    thresholds, rates = {}, {}
    for (sw, r1, *_), name, pick in zip(parts, gs.groups, picks, strict=True):
        thresholds[name] = float(sw.thresholds[pick[j]])
        rates[name] = float(r1[pick[j]])
    n_total = float(sum(p[0].total for p in parts))
    return FairCutoffs(criterion, tol, thresholds, rates, float(total[j] / n_total))
