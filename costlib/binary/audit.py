"""Audit-grade answers: fairness-constrained cutoffs, price sensitivity and net benefit.

(The bootstrap intervals live in `costlib.stats`.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.binary.elicit import pieces
from costlib.core import rules as R
from costlib.core import validation as v
from costlib.core.sweep import TIE_TOLERANCE, Sweep, best_indices, grouped_sweep

FAIRNESS_CRITERIA = {  # criterion -> the rate (costlib.core.sweep.RATES) it equalises across groups
    "demographic parity": "flagged rate",
    "equal opportunity": "true positive rate",
    "equal false positive rate": "false positive rate",
    "equal accuracy": "accuracy",
    "equalized odds": "true and false positive rates",
}
TWO_RATES = {"equalized odds": ("true positive rate", "false positive rate")}  # both within the tolerance
MAX_WINDOW_PAIRS = 4_000_000  # equalized odds: (TPR start, FPR start) pairs searched exactly
MSG_CRITERION = "criterion must be one of {valid}: got {value!r}"


# ---------------------------------------------------------------------------------------
# Fairness-constrained cutoffs


def _rates(sweep: Sweep, criterion: str) -> np.ndarray:
    """The rate a fairness criterion equalises, at every threshold of `sweep` (for equalized
    odds, the true positive rate; `rate_spreads` checks both)."""
    if criterion not in FAIRNESS_CRITERIA:
        raise ValueError(MSG_CRITERION.format(valid=list(FAIRNESS_CRITERIA), value=criterion))
    return sweep.rate(TWO_RATES.get(criterion, (FAIRNESS_CRITERIA[criterion],))[0])


def rate_spread(sweeps: Mapping, cutoffs: Mapping, criterion: str) -> float:
    """The largest gap between groups in the rate(s) a criterion equalises, at these cutoffs
    (for equalized odds, the larger of the two gaps). NaN when no group has the rate."""
    if criterion not in FAIRNESS_CRITERIA:
        raise ValueError(f"criterion must be one of {list(FAIRNESS_CRITERIA)}: got {criterion!r}")
    gaps = []
    for name in TWO_RATES.get(criterion, (FAIRNESS_CRITERIA[criterion],)):
        vals = []
        for g, sw in sweeps.items():
            t = cutoffs.get(g, float("nan"))
            if sw.total > 0 and not np.isnan(t):
                r = sw.rate(name)[sw.index_at(t)]
                if np.isfinite(r):
                    vals.append(float(r))
        gaps.append(max(vals) - min(vals) if vals else float("nan"))
    return float(max(gaps)) if gaps else float("nan")


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


@dataclass(frozen=True)
class FairCutoffs:
    criterion: str
    tolerance: float
    thresholds: dict
    rates: dict
    cost: float  # total cost per case on the fitting rows

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
    from costlib.binary.decision import prices_for

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
        cost = sw.errors_cost(prices.c_fp[i], prices.c_fn[i])
        order = np.argsort(rate, kind="stable")
        rank = np.arange(rate.size)  # sweep index: lower = larger threshold (tie preference)
        per_group.append((sw, rate, cost, order, _RangeArgmin(cost[order], rank[order]), rate[order]))
    nan = {name: float("nan") for name in gs.groups}
    if undefined:
        denominators = {"true positive rate": "positive", "false positive rate": "negative"}
        what = denominators.get(FAIRNESS_CRITERIA[criterion], "") if gs[undefined[0]].total > 0 else ""
        v.warn_degenerate(
            f"{criterion} compares the {FAIRNESS_CRITERIA[criterion]}, which group {undefined[0]!r} does not have "
            f"(it has no {what + ' ' if what else ''}cases on the fitting rows): the fair rule is NaN"
        )
        return FairCutoffs(criterion, tol, nan, nan, float("nan"))
    starts = np.unique(np.concatenate([g[1][np.isfinite(g[1])] for g in per_group]))
    total = np.zeros(starts.size)
    picks = []
    for _sw, _rate, cost, order, rmq, rate_sorted in per_group:
        lo = np.searchsorted(rate_sorted, starts, side="left")
        hi = np.searchsorted(rate_sorted, starts + tol * (1 + 1e-12) + 1e-15, side="right")
        best = rmq.query(lo, hi)
        feasible = best >= 0
        total = np.where(feasible, total + np.where(feasible, cost[order][np.maximum(best, 0)], 0.0), np.inf)
        picks.append(np.where(feasible, order[np.maximum(best, 0)], -1))
    n_total = float(sum(g[0].total for g in per_group))
    if not np.isfinite(total).any():
        v.warn_degenerate(f"no cutoffs satisfy {criterion} within {tol:g}: the fair rule is NaN")
        return FairCutoffs(criterion, tol, nan, nan, float("nan"))
    j = int(np.argmin(total))
    thresholds, rates = {}, {}
    for (sw, rate, *_), name, pick in zip(per_group, gs.groups, picks, strict=True):
        thresholds[name] = float(sw.thresholds[pick[j]])
        rates[name] = float(rate[pick[j]])
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
            return FairCutoffs(criterion, tol, nan, nan, float("nan"))
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
        return FairCutoffs(criterion, tol, nan, nan, float("nan"))
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


# ---------------------------------------------------------------------------------------
# Sensitivity to prices and net benefit


def cost_optimal_for_ratios(sweep: Sweep, c_fp, c_fn) -> np.ndarray:
    """Cost-optimal cutoff of one sweep for many price pairs at once (vectorised).

    The same answer, ties included, as `optimal_threshold` at each pair (`sweep.best_indices`);
    NaN where the sweep holds one class only.
    """
    j = best_indices(sweep, c_fp, c_fn)
    return np.where(j >= 0, sweep.thresholds[np.maximum(j, 0)], np.nan)


def sensitivity_grid(train_sweeps: Mapping, test_sweeps: Mapping, *, c_fp_values, c_fn_values) -> pd.DataFrame:
    """Which option is best at every (c_fp, c_fn) of a grid: each model at its cost-optimal
    cutoff fitted on train and judged on test, or one of the two decisions without a model.

    Long format ``c_fp, c_fn, option, cost_per_case`` (on the test rows) plus a ``best``
    column naming the option chosen at that point, as `decision.recommend` chooses: among
    the models, the one cheapest on the train rows (a model that merely looks cheaper on the
    rows it is judged on is not picked); then it or the cheaper decision without a model,
    whichever is cheaper on the test rows. Ties go to the options without a model ("flag
    nobody" first, then "flag everyone"): they need no model. Price independent work only:
    the sweeps are read, never rows.
    """
    if not train_sweeps or set(train_sweeps) != set(test_sweeps):
        raise ValueError("train_sweeps and test_sweeps must map the same (non-empty) model names to sweeps")
    fp_vals = v.as_float_1d(c_fp_values, "c_fp_values")
    fn_vals = v.as_float_1d(c_fn_values, "c_fn_values")
    for name, vals in (("c_fp_values", fp_vals), ("c_fn_values", fn_vals)):
        if vals.size and vals.min() < 0:
            raise ValueError(v.MSG_NEGATIVE.format(name=name, value=vals.min().item()))
    fp_grid, fn_grid = np.meshgrid(fp_vals, fn_vals, indexing="ij")
    a, b = fp_grid.ravel(), fn_grid.ravel()
    any_test = next(iter(test_sweeps.values()))
    n = any_test.total if any_test.total > 0 else np.nan
    frames = [
        pd.DataFrame({"c_fp": a, "c_fn": b, "option": R.NOBODY, "cost_per_case": any_test.positives * b / n}),
        pd.DataFrame({"c_fp": a, "c_fn": b, "option": R.EVERYONE, "cost_per_case": any_test.negatives * a / n}),
    ]
    fit_costs = []
    for name, train in train_sweeps.items():
        test = test_sweeps[name]
        cut = cost_optimal_for_ratios(train, a, b)
        at = np.where(np.isnan(cut), np.inf, cut)
        j, jt = test.index_at(at), train.index_at(at)
        cost = (test.fp[j] * a + test.fn[j] * b) / n
        fit = (train.fp[jt] * a + train.fn[jt] * b) / (train.total if train.total > 0 else np.nan)
        fit_costs.append(np.where(np.isnan(cut), np.nan, fit))
        frames.append(
            pd.DataFrame({"c_fp": a, "c_fn": b, "option": name, "cost_per_case": np.where(np.isnan(cut), np.nan, cost)})
        )
    long = pd.concat(frames, ignore_index=True)
    # the model that competes at each pair: the cheapest on train (ties to the first model)
    fit_costs = np.stack(fit_costs)  # (models, pairs)
    pick = np.argmin(np.where(np.isfinite(fit_costs), fit_costs, np.inf), axis=0)
    # then the cheapest option on test at each pair, ties (within the one tie tolerance) to the
    # first option: the decisions without a model come first, so a model that only matches
    # them never wins
    costs = np.stack([f["cost_per_case"].to_numpy(float) for f in frames])  # (options, pairs)
    others = np.arange(len(frames) - 2)[:, None] != pick[None, :]
    costs[2:][others] = np.inf
    finite = np.where(np.isfinite(costs), costs, np.inf)
    lowest = finite.min(axis=0)
    tol = TIE_TOLERANCE * np.maximum(1.0, np.abs(lowest))
    first = np.argmax(finite <= lowest + tol, axis=0)
    names = np.array([f["option"].iloc[0] for f in frames], dtype=object)
    long["best"] = np.tile(names[first], len(frames))
    return long


RATIO_LIMITS = (1e-3, 1e3)  # the c_fn : c_fp range `ratio_range` searches


def ratio_range(train_sweeps: Mapping, test_sweeps: Mapping, *, c_fp: float, c_fn: float) -> tuple[str, float, float]:
    """(leader, low, high): the best option at these prices (`sensitivity_grid`'s choice)
    and the range of c_fn : c_fp ratios, from 1:1000 to 1000:1, over which it stays best.

    Exact: every model's cost-optimal cutoff is constant between the breaks of its train
    sweep's hull, and there every option's cost on train and on test is a line in the
    ratio, so the choice can change only at those breaks or where two lines cross. The
    choice is read at one ratio inside each piece between these points; the range runs to
    the nearest points where it changes.
    """
    c_fp, c_fn = v.as_price(c_fp, "c_fp"), v.as_price(c_fn, "c_fn")
    r0 = c_fn / c_fp if c_fp > 0 else np.inf
    ratios = _ratio_candidates(train_sweeps, test_sweeps, r0)
    inside = _choices(train_sweeps, test_sweeps, np.sqrt(ratios[:-1] * ratios[1:]))  # one ratio inside each piece
    if not np.isfinite(r0):
        last = inside[-1]
        k = len(inside) - 1
        while k > 0 and inside[k - 1] == last:
            k -= 1
        return str(last), float(ratios[k]), float("inf")
    leader = _choices(train_sweeps, test_sweeps, np.array([r0]))[0]
    i0 = int(np.searchsorted(ratios, r0))  # ratios[i0] == r0
    # piece k spans ratios[k] .. ratios[k + 1]; r0 is the point ratios[i0]
    lo = i0
    while lo > 0 and inside[lo - 1] == leader:
        lo -= 1
    hi = i0
    while hi < len(inside) and inside[hi] == leader:
        hi += 1
    return str(leader), float(ratios[lo]), float(ratios[hi])


def _choices(train_sweeps: Mapping, test_sweeps: Mapping, ratios: np.ndarray) -> np.ndarray:
    """`sensitivity_grid`'s choice at c_fp = 1 and each c_fn in `ratios`."""
    grid = sensitivity_grid(train_sweeps, test_sweeps, c_fp_values=[1.0], c_fn_values=ratios)
    return grid["best"].to_numpy()[: len(ratios)]


def _ratio_candidates(train_sweeps: Mapping, test_sweeps: Mapping, r0: float) -> np.ndarray:
    """Sorted ratios between which no option's cost changes shape: the limits, r0, each
    model's hull breaks on train, and every crossing of two cost lines between those."""
    lo_lim, hi_lim = RATIO_LIMITS
    if np.isfinite(r0):
        lo_lim, hi_lim = min(lo_lim, r0), max(hi_lim, r0)
    points = [lo_lim, hi_lim] + ([r0] if np.isfinite(r0) else [])
    for train in train_sweeps.values():
        if train.positives > 0 and train.negatives > 0:
            cut = pieces(train, lo_lim, hi_lim)
            points += cut["ratio_low"].tolist() + cut["ratio_high"].tolist()
    base = np.unique(np.clip(np.asarray(points, dtype=float), lo_lim, hi_lim))
    mids = np.sqrt(base[:-1] * base[1:])
    # every option's cost per case as a line a + b r (c_fp = 1, c_fn = r) within each piece
    any_test = next(iter(test_sweeps.values()))
    n = any_test.total if any_test.total > 0 else np.nan
    lines_test = [
        (np.zeros_like(mids), np.full_like(mids, any_test.positives / n)),  # flag nobody
        (np.full_like(mids, any_test.negatives / n), np.zeros_like(mids)),  # flag everyone
    ]
    lines_train = []
    for name, train in train_sweeps.items():
        test = test_sweeps[name]
        cut = cost_optimal_for_ratios(train, np.ones_like(mids), mids)
        at = np.where(np.isnan(cut), np.inf, cut)
        j, jt = test.index_at(at), train.index_at(at)
        nt = train.total if train.total > 0 else np.nan
        lines_test.append((test.fp[j] / n, test.fn[j] / n))
        lines_train.append((train.fp[jt] / nt, train.fn[jt] / nt))
    crossings = []
    for lines in (lines_train, lines_test):
        for i in range(len(lines)):
            for k in range(i + 1, len(lines)):
                (a1, b1), (a2, b2) = lines[i], lines[k]
                with np.errstate(divide="ignore", invalid="ignore"):
                    r = (a2 - a1) / (b1 - b2)
                ok = np.isfinite(r) & (r > base[:-1]) & (r < base[1:])
                crossings.append(r[ok])
    return np.unique(np.concatenate([base, *crossings]))


def net_benefit(sweep: Sweep, thresholds) -> np.ndarray:
    """Decision-curve net benefit ``TP/n - FP/n * t/(1 - t)`` when flagging iff p >= t.

    `thresholds` are probabilities in [0, 1]; at t = 1 net benefit is undefined (the odds
    are infinite): NaN with a `DegenerateWarning`.
    """
    t = np.asarray(thresholds, dtype=np.float64)
    if t.size and (not np.isfinite(t).all() or t.min() < 0 or t.max() > 1):
        raise ValueError(v.MSG_PROBABILITY.format(name="thresholds", lo=np.nanmin(t).item(), hi=np.nanmax(t).item()))
    at_one = t == 1.0
    if at_one.any():
        v.warn_degenerate("net benefit is undefined at t = 1 (the odds t / (1 - t) are infinite): NaN there")
    if sweep.total <= 0:
        v.warn_degenerate("no cases: net benefit is NaN")
        return np.full(t.shape, np.nan)
    j = sweep.index_at(t)
    odds = np.where(at_one, np.nan, t / np.where(at_one, 2.0, 1.0 - t))
    return (sweep.tp[j] - sweep.fp[j] * odds) / sweep.total


def net_benefit_curves(sweeps: Mapping, thresholds) -> pd.DataFrame:
    """Long format ``threshold, option, net_benefit``: every model, "flag everyone" and
    "flag nobody" (0 by definition)."""
    t = np.asarray(thresholds, dtype=np.float64)
    any_sweep = next(iter(sweeps.values()))
    frames = [
        pd.DataFrame({"threshold": t, "option": name, "net_benefit": net_benefit(s, t)}) for name, s in sweeps.items()
    ]
    n = any_sweep.total if any_sweep.total > 0 else np.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        everyone = (any_sweep.positives - any_sweep.negatives * np.where(t == 1.0, np.nan, t / (1.0 - t))) / n
    frames.append(pd.DataFrame({"threshold": t, "option": R.EVERYONE, "net_benefit": everyone}))
    frames.append(pd.DataFrame({"threshold": t, "option": R.NOBODY, "net_benefit": 0.0}))
    return pd.concat(frames, ignore_index=True)


__all__ = [
    "FAIRNESS_CRITERIA",
    "FairCutoffs",
    "cost_optimal_for_ratios",
    "fair_thresholds",
    "net_benefit",
    "net_benefit_curves",
    "ratio_range",
    "sensitivity_grid",
]
