"""Fairness: how far apart the groups' rates are, and the cheapest cutoffs that bring them together.

- `rate_spread`: the largest gap between the groups' rates (the rate a criterion equalises);
- `fair_cutoffs` / `fair_thresholds`: the exact cost-minimising per-group cutoffs whose rates
  lie within a tolerance of each other (equalized odds: both rates);
- `fairness_rules`, `fairness_tables`, `fairness_results`: those rules fitted on one model's
  fitting rows, judged on its judged rows beside the standard rules, and tabled.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.binary.decision import ModelSweeps, Recommendation, RuleResults, count_rules, recommend
from costlib.core import rules as R
from costlib.core import validation as v
from costlib.core.prices import Prices, prices_for
from costlib.core.sweep import Sweep, grouped_sweep

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
# The fairness rules of one model: fitted, judged, tabled


def fairness_rules(ms: ModelSweeps, prices: Prices, *, criteria: Sequence[str], tolerance: float):
    """({"fair: <criterion>": {group: cutoff}}, {criterion: FairCutoffs}) on the fitting rows.

    The exact constrained search of `fair_cutoffs` per criterion; an infeasible
    criterion gives NaN cutoffs and a `DegenerateWarning` naming the cause.
    """
    rules, fits = {}, {}
    for c in criteria:
        fit = fair_cutoffs(ms.fit, prices, criterion=c, tolerance=tolerance)
        fits[c] = fit
        rules[R.FAIR_PREFIX + c] = dict(fit.thresholds)
    return rules, fits


def _rate_at(sw, criterion: str, t: float) -> float:
    if math.isnan(t) or sw.total <= 0:
        return float("nan")
    return float(_rates(sw, criterion)[sw.index_at(t)])


def fairness_tables(
    ms: ModelSweeps, prices: Prices, fits: Mapping, results: RuleResults, tolerance: float
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(long, summary) for the fairness section, read off the sweeps.

    long     ``criterion, group, threshold, rate_train, rate_test``
    summary  per criterion: ``rule, rate, tolerance, feasible, spread_train, spread_test,
             spread_test_low, spread_test_high`` (95% interval of the test gap),
             ``within_tolerance_on_test, cost_per_case_train, price_per_case_train,
             price_per_case_test`` (the price is the extra cost over the best cutoff per group)
    """
    long, rows = [], []
    fit_opt = count_rules(ms.fit, {R.COST_OPTIMAL: np.array([results.cutoffs[R.COST_OPTIMAL][g] for g in ms.groups])})
    n_fit = ms.fit_pooled.total if ms.fit_pooled.total > 0 else float("nan")
    opt_train = float(np.sum(fit_opt.cost(prices)) / n_fit)
    for c, fit in fits.items():
        rule = R.FAIR_PREFIX + c
        cut = {g: float(fit.thresholds.get(g, float("nan"))) for g in ms.groups}
        rate_tr = [_rate_at(ms.fit[g], c, cut[g]) for g in ms.groups]
        rate_te = [_rate_at(ms.judge[g], c, cut[g]) for g in ms.groups]
        for g, a, b in zip(ms.groups, rate_tr, rate_te, strict=True):
            long.append({"criterion": c, "group": g, "threshold": cut[g], "rate_train": a, "rate_test": b})
        feasible = all(not math.isnan(t) for t in cut.values())
        spread_tr = rate_spread({g: ms.fit[g] for g in ms.groups}, cut, c)
        spread_te = rate_spread({g: ms.judge[g] for g in ms.groups}, cut, c)
        train_cost = float("nan")
        if feasible:
            counts = count_rules(ms.fit, {rule: np.array([cut[g] for g in ms.groups])})
            train_cost = float(np.sum(counts.cost(prices)) / n_fit)
        test_price = float("nan")
        if rule in results.overall.index:
            test_price = float(
                results.overall.loc[rule, "cost_per_case"] - results.overall.loc[R.COST_OPTIMAL, "cost_per_case"]
            )
        spread_lo, spread_hi = spread_interval(results, rule, c) if feasible else (float("nan"), float("nan"))
        rows.append(
            {
                "rule": rule,
                "rate": FAIRNESS_CRITERIA[c],
                "tolerance": tolerance,
                "feasible": feasible,
                "spread_train": spread_tr,
                "spread_test": spread_te,
                "spread_test_low": spread_lo,
                "spread_test_high": spread_hi,
                "within_tolerance_on_test": bool(spread_te <= tolerance + 1e-12) if feasible else False,
                "cost_per_case_train": train_cost,
                "price_per_case_train": train_cost - opt_train,
                "price_per_case_test": test_price,
            }
        )
    columns = [
        "rule",
        "rate",
        "tolerance",
        "feasible",
        "spread_train",
        "spread_test",
        "spread_test_low",
        "spread_test_high",
        "within_tolerance_on_test",
        "cost_per_case_train",
        "price_per_case_train",
        "price_per_case_test",
    ]
    return (
        pd.DataFrame(long, columns=["criterion", "group", "threshold", "rate_train", "rate_test"]),
        pd.DataFrame(rows, columns=columns),
    )


@dataclass(frozen=True, eq=False)
class FairnessResults:
    """The fairness-constrained rules of one model at one set of prices, fitted and judged.

    rules           {"fair: <criterion>": {group: cutoff}}, fitted on the fitting rows
    fits            {criterion: `FairCutoffs`}
    recommendation  `decision.recommend` with the fairness rules judged beside the standard
                    ones (the standard rules' intervals are those of `recommend` alone)
    fairness        long format ``criterion, group, threshold, rate_train, rate_test``
    summary         per criterion (see `fairness_tables`)
    """

    rules: dict
    fits: dict
    recommendation: Recommendation
    fairness: pd.DataFrame
    summary: pd.DataFrame

    @property
    def results(self) -> RuleResults:
        """Every rule judged on the judged rows, fairness rules included."""
        return self.recommendation.results


def fairness_results(
    ms: ModelSweeps,
    prices: Prices,
    *,
    criteria: Sequence[str],
    tolerance: float,
    n_resamples: int,
    seed: int = 0,
    capacity: float | None = None,
) -> FairnessResults:
    """The one fairness rule set: fair cutoffs per criterion (`fairness_rules`), every rule
    judged with them (`decision.recommend` with ``extra_rules``) and the fairness tables.

    A model without groups (or with one) has no fairness rules: `criteria` is then ignored.
    Infeasible criteria give NaN cutoffs and a `DegenerateWarning` naming the cause.
    """
    rules, fits = fairness_rules(
        ms, prices, criteria=criteria if ms.grouped and len(ms.groups) > 1 else (), tolerance=tolerance
    )
    rec = recommend(
        {ms.name: ms}, prices.as_dict(), n_resamples=n_resamples, seed=seed, extra_rules=rules, capacity=capacity
    )
    long, summary = fairness_tables(ms, prices, fits, rec.results, tolerance)
    return FairnessResults(rules, fits, rec, long, summary)


# ---------------------------------------------------------------------------------------
# Per-group rates with intervals: what an auditor reads

GROUP_RATES = ("flagged rate", "true positive rate", "false positive rate")


def _resampled_rates(res, rule: str) -> dict:
    """{rate: (B, groups)} of one rule on the judged rows' resamples (`RuleResults.resamples`)."""
    r = res.resamples
    i = r.rules.index(rule)
    tp, fp, fn = r.tp[:, i, :], r.fp[:, i, :], r.fn[:, i, :]
    n = np.broadcast_to(r.n, tp.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        return {
            "flagged rate": (tp + fp) / n,
            "true positive rate": tp / (tp + fn),
            "false positive rate": fp / (n - tp - fn),
            "accuracy": (n - fp - fn) / n,
        }


def _gap(rates: np.ndarray) -> np.ndarray:
    """The largest gap between groups (NaN-aware along the last axis); NaN with fewer than two."""
    with np.errstate(invalid="ignore"):
        ok = np.isfinite(rates)
        hi = np.where(ok, rates, -np.inf).max(axis=-1)
        lo = np.where(ok, rates, np.inf).min(axis=-1)
        return np.where(ok.sum(axis=-1) >= 2, hi - lo, np.nan)


def group_rates(ms: ModelSweeps, results: RuleResults, rule: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(by group, gaps) of one rule on the judged rows, with 95% intervals from the same
    resampling as the costs (`RuleResults.resamples`; NaN bounds without resamples).

    by group  ``group, n, positives, negatives, small`` (fewer than `honest.MIN_CLASS_ROWS`
              positives or negatives among its fit rows: its rates are a guess) and, for each
              of `GROUP_RATES`, the rate and ``<rate> low`` / ``<rate> high``
    gaps      per rate: ``rate, gap, low, high`` (the largest gap between the groups)
    """
    from costlib.binary.honest import own_cutoff
    from costlib.stats.intervals import percentile_interval, percentile_intervals

    cut = results.cutoffs[rule]
    small = ~own_cutoff(ms.fit.positives, ms.fit.negatives)
    draws = _resampled_rates(results, rule) if results.resamples is not None else None
    rows = {
        "group": list(ms.groups),
        "n": [ms.judge[g].total for g in ms.groups],
        "positives": [ms.judge[g].positives for g in ms.groups],
        "negatives": [ms.judge[g].negatives for g in ms.groups],
        "small": small.tolist(),
    }
    gaps = []
    for rate in GROUP_RATES:
        est = np.array([_rate_of(ms.judge[g], rate, float(cut[g])) for g in ms.groups])
        rows[rate] = est
        lo = hi = np.full(len(ms.groups), np.nan)
        g_lo = g_hi = float("nan")
        if draws is not None:
            lo, hi = percentile_intervals(draws[rate])
            g_lo, g_hi = percentile_interval(_gap(draws[rate]))
        rows[f"{rate} low"], rows[f"{rate} high"] = lo, hi
        gaps.append({"rate": rate, "gap": float(_gap(est)), "low": g_lo, "high": g_hi})
    return pd.DataFrame(rows), pd.DataFrame(gaps, columns=["rate", "gap", "low", "high"])


def _rate_of(sw: Sweep, rate: str, t: float) -> float:
    if math.isnan(t) or sw.total <= 0:
        return float("nan")
    return float(sw.rate(rate)[sw.index_at(t)])


def spread_interval(results: RuleResults, rule: str, criterion: str) -> tuple[float, float]:
    """95% interval of the largest gap between groups in the rate(s) `criterion` equalises, on
    the judged rows' resamples (equalized odds: the larger of its two gaps)."""
    from costlib.stats.intervals import percentile_interval

    if results.resamples is None or rule not in results.resamples.rules:
        return float("nan"), float("nan")
    draws = _resampled_rates(results, rule)
    names = TWO_RATES.get(criterion, (FAIRNESS_CRITERIA[criterion],))
    gap = np.fmax.reduce([_gap(draws[n]) for n in names]) if len(names) > 1 else _gap(draws[names[0]])
    return percentile_interval(gap)
