"""Fairness: how far apart the groups' rates are, and the cheapest cutoffs that bring them together.

- `rate_spread`: the largest gap between the groups' rates (the rate a criterion equalises);
- `fair_cutoffs` / `fair_thresholds`: the exact cost-minimising per-group cutoffs whose rates
  lie within a tolerance of each other (equalized odds: both rates; their home is
  `fair_search`, re-exported here);
- `fairness_rules`, `fairness_tables`, `fairness_results`: those rules fitted on one model's
  fitting rows, judged where they were not fitted (`fair_judged`: on the judged rows, or
  cross-fitted without a split, with the luck of the fit in the gap's interval) beside the
  standard rules, a rule fitted tighter where one does not hold (`fair_tightened`), and tabled.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from costlib.binary.decision import Recommendation, recommend
from costlib.binary.disparity_counts import all_or_none
from costlib.binary.fair_search import (  # noqa: F401 (re-exported: fairness.* is where callers read them)
    FAIRNESS_CRITERIA,
    MAX_WINDOW_PAIRS,
    MSG_CRITERION,
    TRIVIALLY_EQUAL,
    TWO_RATES,
    FairCutoffs,
    _rates,
    fair_cutoffs,
    fair_thresholds,
)
from costlib.binary.judged_rules import RuleResults, count_rules
from costlib.binary.model_sweeps import ModelSweeps
from costlib.core import rules as R
from costlib.core.prices import Prices, mistakes_cost


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


SUMMARY_COLUMNS = [
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
    "criterion",
    "fit_tolerance",
    "estimate",
    "may_miss_by",
    "cost_per_case_test",
    "randomised",
    "trivially_equal",  # `fair_judged.TRIVIALLY_EQUAL_COLUMN`: "everyone" or "nobody" (no use of the model), else ""
    "not_searched",  # `FairCutoffs.not_searched`: why the cutoffs were not searched for, else ""
]
LONG_COLUMNS = ["criterion", "group", "threshold", "rate_train", "rate_test", "rule", "low", "p"]


def fairness_tables(
    ms: ModelSweeps,
    prices: Prices,
    fits: Mapping,
    results: RuleResults,
    tolerance: float,
    *,
    judged: Mapping | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(long, summary) for the fairness section, read off the sweeps.

    `judged` is ``{rule: fair_judged.FairJudged}`` (`fairness_results` makes it): each rule
    judged where it was not fitted, with the luck of the fit in the gap's interval, and the
    rules fitted at a tighter tolerance (`fair_tightened.holding_rule`) beside the stated ones.
    Without it, each rule of `fits` is judged on ``ms.judge`` with its cutoffs held.

    long     ``criterion, group, threshold, rate_train, rate_test, rule, low, p`` (rate_test: where
             judged; a randomised rule flags scores from ``low`` below ``threshold`` with
             probability ``p``, NaN for the others; its rates are expected ones)
    summary  per rule: ``rule, rate, tolerance, feasible, spread_train, spread_test,
             spread_test_low, spread_test_high`` (the judged gap and its 95% interval),
             ``within_tolerance_on_test`` (offered as meeting the tolerance: the interval's upper
             end is at most the tolerance), ``cost_per_case_train, price_per_case_train,
             price_per_case_test`` (the price is the extra cost over the best cutoff per group),
             ``criterion, fit_tolerance`` (the tolerance the cutoffs were fitted at), ``estimate``
             (`honest.CROSS_FITTED` or `honest.TEST`), ``may_miss_by`` (upper end minus the
             tolerance; 0 when it meets it, NaN without an interval), ``cost_per_case_test`` (where
             judged) and ``randomised`` (a `fair_tightened.randomised_rule`: it is not among the
             recommendation's rules, whose policy files record deterministic cutoffs), ``trivially_equal``
             and ``not_searched`` (`FairCutoffs.not_searched`: why the search was not run, else "";
             such a rule is not feasible, but not because no cutoffs meet it)
    """
    from costlib.binary import fair_judged as FJ

    long, rows = [], []
    fit_opt = count_rules(ms.fit, {R.COST_OPTIMAL: np.array([results.cutoffs[R.COST_OPTIMAL][g] for g in ms.groups])})
    n_fit = ms.fit_pooled.total if ms.fit_pooled.total > 0 else float("nan")
    opt_train = float(np.sum(fit_opt.cost(prices)) / n_fit)
    entries = [(R.FAIR_PREFIX + c, c) for c in fits]
    if judged is not None:
        entries += [(r, j.criterion) for r, j in judged.items() if (r, j.criterion) not in entries]
    for rule, c in entries:
        j = None if judged is None else judged.get(rule)
        if j is not None:
            high = j.cutoffs[0] if j.randomised else j.cutoffs
            cut = {g: float(t) for g, t in zip(ms.groups, high, strict=True)}
            low = j.cutoffs[1] if j.randomised else np.full(len(ms.groups), np.nan)
            p = j.cutoffs[2] if j.randomised else np.full(len(ms.groups), np.nan)
            f_tp, f_fp = FJ.counts_at(ms.fit, j.cutoffs)  # expected counts of randomised cutoffs
            f_pos, f_neg = ms.fit.positives.astype(np.float64), ms.fit.negatives.astype(np.float64)
            rate_tr = FJ.rates_of(f_tp, f_fp, f_pos, f_neg, c)[0].tolist()
            rate_te = FJ.rates_of(j.tp, j.fp, j.positives, j.negatives, c)[0].tolist()
        else:
            cut = {g: float(fits[c].thresholds.get(g, float("nan"))) for g in ms.groups}
            low = p = np.full(len(ms.groups), np.nan)
            rate_tr = [_rate_at(ms.fit[g], c, cut[g]) for g in ms.groups]
            rate_te = [_rate_at(ms.judge[g], c, cut[g]) for g in ms.groups]
        for g, a, b, lo_g, p_g in zip(ms.groups, rate_tr, rate_te, low, p, strict=True):
            long.append(
                {
                    "criterion": c,
                    "group": g,
                    "threshold": cut[g],
                    "rate_train": a,
                    "rate_test": b,
                    "rule": rule,
                    "low": float(lo_g),
                    "p": float(p_g),
                }
            )
        feasible = all(not math.isnan(t) for t in cut.values())
        train_cost = float("nan")
        if j is not None:
            spread_tr = float(FJ.gap_of(f_tp, f_fp, f_pos, f_neg, c))
            if feasible:
                train_cost = float(np.sum(mistakes_cost(f_fp, f_pos - f_tp, prices.c_fp, prices.c_fn)) / n_fit)
        else:
            spread_tr = rate_spread({g: ms.fit[g] for g in ms.groups}, cut, c)
            if feasible:
                counts = count_rules(ms.fit, {rule: np.array([cut[g] for g in ms.groups])})
                train_cost = float(np.sum(counts.cost(prices)) / n_fit)
        test_cost = float("nan")
        if rule in results.overall.index:
            test_cost = float(results.overall.loc[rule, "cost_per_case"])
        elif j is not None:  # randomised: not among the rules `recommend` judged; its expected judged cost
            test_cost = j.cost(prices)
        test_price = test_cost - float(results.overall.loc[R.COST_OPTIMAL, "cost_per_case"])
        if j is not None:
            spread_te, spread_lo, spread_hi = j.gap, j.gap_low, j.gap_high
            fit_tol, estimate = j.fit_tolerance, j.estimate
        else:
            spread_te = rate_spread({g: ms.judge[g] for g in ms.groups}, cut, c)
            spread_lo, spread_hi = spread_interval(results, rule, c) if feasible else (float("nan"), float("nan"))
            fit_tol, estimate = tolerance, "cutoffs held"
        trivially = ""
        if feasible and not (j is not None and j.randomised) and c in TRIVIALLY_EQUAL and all_or_none(ms, cut):
            # flags every case (or none) in every group: the rate it equalises is equal on any of these rows,
            # whatever a refit on a resample would have picked, so its gap is 0, known exactly
            spread_te = spread_lo = spread_hi = 0.0
            trivially = "nobody" if all(t == math.inf for t in cut.values()) else "everyone"
        meets = bool(feasible and np.isfinite(spread_hi) and spread_hi <= tolerance + 1e-12)
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
                "within_tolerance_on_test": meets,
                "cost_per_case_train": train_cost,
                "price_per_case_train": train_cost - opt_train,
                "price_per_case_test": test_price,
                "criterion": c,
                "fit_tolerance": fit_tol,
                "estimate": estimate,
                "may_miss_by": max(0.0, spread_hi - tolerance) if feasible and np.isfinite(spread_hi) else float("nan"),
                "cost_per_case_test": test_cost,
                "randomised": bool(j is not None and j.randomised),
                FJ.TRIVIALLY_EQUAL_COLUMN: trivially,
                "not_searched": fits[c].not_searched if rule == R.FAIR_PREFIX + c and c in fits else "",
            }
        )
    return (
        pd.DataFrame(long, columns=LONG_COLUMNS),
        pd.DataFrame(rows, columns=SUMMARY_COLUMNS),
    )


@dataclass(frozen=True, eq=False)
class FairnessResults:
    """The fairness-constrained rules of one model at one set of prices, fitted and judged.

    rules           {"fair: <criterion>": {group: cutoff}}, fitted on the fitting rows
    holding         {`fair_tightened.tightened_rule`: {group: cutoff}}: for a rule that does not hold out of
                    sample, the same criterion fitted at a tighter tolerance chosen on the
                    fitting rows alone (`fair_tightened.holding_rule`); judged beside the others
    fits            {criterion: `FairCutoffs`} at the stated tolerance
    recommendation  `decision.recommend` with the fairness rules judged beside the standard
                    ones (the standard rules' intervals are those of `recommend` alone; without a
                    split, the fairness rules' costs are cross-fitted)
    fairness        long format ``criterion, group, threshold, rate_train, rate_test, rule``
    summary         per rule (see `fairness_tables`)
    judged          {rule: `fair_judged.FairJudged`}; a `fair_tightened.randomised_rule` is here (and in
                    the tables) only: where the rule fitted at the stated tolerance may miss it,
                    it is offered when it meets the tolerance out of sample and costs less than
                    every deterministic rule of its criterion that does
    """

    rules: dict
    fits: dict
    recommendation: Recommendation
    fairness: pd.DataFrame
    summary: pd.DataFrame
    judged: dict = field(default_factory=dict)
    holding: dict = field(default_factory=dict)

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
    picked_among: int = 1,
) -> FairnessResults:
    """The one fairness rule set: fair cutoffs per criterion (`fairness_rules`), each judged
    where it was not fitted (`fair_judged.judge_rule`: on the judged rows, or cross-fitted
    without a split), a rule fitted at a tighter tolerance where the stated one does not hold
    (`fair_tightened.holding_rule`), randomised cutoffs where they are the cheapest way to meet
    it (`fair_random`, judged the same way), every rule judged with them (`decision.recommend` with
    ``extra_rules``) and the fairness tables.

    Each criterion's cutoffs on the fitting rows are fitted once (`fairness_rules`; its fit
    is the one `fair_judged.judge_rule` judges), and without a split every rule judged
    cross-fitted reads the fitting rows' one deal into folds (`honest.fitting_folds`, which the
    recommendation's refit bootstrap reads too). `picked_among`: how many models `ms` was picked
    among (`decision.recommend`'s), so that its saving's interval holds that pick as the page's does.

    A model without groups (or with one) has no fairness rules: `criteria` is then ignored.
    Infeasible criteria give NaN cutoffs and a `DegenerateWarning` naming the cause.
    """
    from costlib.binary import fair_judged as FJ
    from costlib.binary import fair_tightened as FT

    criteria = tuple(criteria) if ms.grouped and len(ms.groups) > 1 else ()
    rules, fits = fairness_rules(ms, prices, criteria=criteria, tolerance=tolerance)
    judged, holding = {}, {}
    for c in criteria:
        if all(math.isnan(t) for t in fits[c].thresholds.values()):
            continue
        j = FJ.judge_rule(ms, prices, c, tolerance, n_resamples=n_resamples, seed=seed, fit=fits[c])
        j = FJ.held_if_trivial(ms, j, all_or_none(ms, dict(fits[c].thresholds)))
        judged[R.FAIR_PREFIX + c] = j
        if j.meets or not np.isfinite(j.gap_high):
            continue
        h = FT.holding_rule(ms, prices, c, tolerance, n_resamples=n_resamples, seed=seed)
        if h is not None and not np.isnan(h.cutoffs).any():
            h = FJ.held_if_trivial(ms, h, all_or_none(ms, dict(zip(ms.groups, h.cutoffs.tolist(), strict=True))))
            rule = FT.tightened_rule(c, h.fit_tolerance)
            holding[rule] = dict(zip(ms.groups, h.cutoffs.tolist(), strict=True))
            judged[rule] = h
    for c in criteria:  # randomised cutoffs, where they are the cheapest way to meet the tolerance out of sample
        stated = judged.get(R.FAIR_PREFIX + c)
        if c in TWO_RATES or stated is None or stated.meets or not np.isfinite(stated.gap_high):
            continue
        rj = FT.holding_rule(ms, prices, c, tolerance, n_resamples=n_resamples, seed=seed, randomised=True)
        rivals = [j.cost(prices) for j in judged.values() if j.criterion == c and j.meets]
        if rj.meets and not np.isnan(rj.cutoffs).any() and all(rj.cost(prices) < x for x in rivals):
            judged[FT.randomised_rule(c, rj.fit_tolerance, tolerance)] = rj
    rec = recommend(
        {ms.name: ms},
        prices.as_dict(),
        n_resamples=n_resamples,
        seed=seed,
        extra_rules=rules | holding,
        capacity=capacity,
        picked_among=picked_among,
    )
    rec = FJ.cross_fitted_costs(rec, prices, judged)
    long, summary = fairness_tables(ms, prices, fits, rec.results, tolerance, judged=judged)
    return FairnessResults(rules, fits, rec, long, summary, judged, holding)


FLAGGED_DRIFT = 0.05
"""How far (points of the share) a cross-fitted rule's flagged share may lie from what its cutoffs
flag on all rows before the report says so by name (`cross_fitted_drift`)."""


def cross_fitted_drift(ms: ModelSweeps, judged: Mapping) -> tuple[bool, list]:
    """(any, drifted) of the fairness rules `judged` (``FairnessResults.judged``): whether any is
    cross-fitted (its flagged share, cost, saving and gap are those of the rule refitted without
    each fold, not of the cutoffs shown, fitted on all rows), and ``[(rule, on all rows, cross-fitted)]``
    the flagged shares of those whose two differ by more than `FLAGGED_DRIFT` (review: cutoffs that
    flag 49.9% of each group on all rows beside a cross-fitted 99.9%: refitted on fewer rows, an
    exact equality is met only by flagging nearly everyone). A rule judged as the no-model choice
    its cutoffs are (``held``) is not cross-fitted."""
    from costlib.binary import fair_judged as FJ
    from costlib.binary import honest as H

    crossed = {r: j for r, j in judged.items() if j.estimate == H.CROSS_FITTED and not j.held}
    drifted = []
    total = float(ms.fit_pooled.total)
    for rule, j in crossed.items():
        tp, fp = FJ.counts_at(ms.fit, j.cutoffs)
        n = float(np.sum(j.positives + j.negatives))
        if total <= 0 or n <= 0 or np.isnan(tp).any():
            continue
        on_all, cross = float(np.sum(tp + fp)) / total, float(np.sum(j.tp + j.fp)) / n
        if abs(on_all - cross) > FLAGGED_DRIFT:
            drifted.append((rule, on_all, cross))
    return bool(crossed), drifted


# ---------------------------------------------------------------------------------------
# Per-group rates with intervals: what an auditor reads

GROUP_RATES = ("flagged rate", "true positive rate", "false positive rate")


def _resampled_rates(res, rule: str) -> dict:
    """{rate: (B, groups)} of one rule on the judged rows' resamples (`RuleResults.resamples`)."""
    r = res.resamples
    i = r.rules.index(rule)
    return _counts_rates(r.tp[:, i, :], r.fp[:, i, :], r.fn[:, i, :], r.n)


def _counts_rates(tp, fp, fn, n) -> dict:
    """{rate: counts' shape} of `GROUP_RATES` (and accuracy) from a rule's counts in each group."""
    tp, fp, fn = (np.asarray(x, dtype=np.float64) for x in (tp, fp, fn))
    n = np.broadcast_to(np.asarray(n, dtype=np.float64), tp.shape)
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
    resampling as the costs (`RuleResults.resamples`; NaN bounds without resamples), each group's
    at least as wide as its own counts allow (`disparity_counts.held` of `own_intervals`, as the
    disparities' are; not on weighted rows): the resamples of 8 cases with no false positive all
    read 0.0%, while none of 8 negatives allows up to 37%. The rule's
    counts are the disparities' (`disparity.rule_counts`): without a split a fitted rule's are
    cross-fitted, as its costs are, so the two tables and the rules table say the same rates.

    by group  ``group, n, positives, negatives, small`` (fewer than `folds.MIN_CLASS_ROWS`
              positives or negatives among its fit rows: its rates are a guess) and, for each
              of `GROUP_RATES`, the rate and ``<rate> low`` / ``<rate> high``
    gaps      per rate: ``rate, gap, low, high`` (the largest gap between the groups; its interval
              is the resamples' spread about it, `_gap_interval`, and where a group's rate was widened
              by its own counts, at least as wide as the groups' intervals allow: from the highest low
              less the lowest high to the highest high less the lowest low (a gap read "19.4% (15.4% to
              24.0%)" beside a group's "0.0% (0.0% to 60.2%)")
    """
    from costlib.binary.disparity import rule_counts
    from costlib.binary.disparity_counts import held, own_intervals
    from costlib.binary.folds import own_cutoff
    from costlib.stats.intervals import percentile_intervals

    small = ~own_cutoff(ms.fit.positives, ms.fit.negatives)
    tp, fp, fn, n, counted = rule_counts(ms, results, rule)
    rates = _counts_rates(tp, fp, fn, n)
    draws = None if counted is None else _counts_rates(*counted)
    decided = all_or_none(ms, dict(results.cutoffs[rule]))  # a no-model choice: its rates are exact
    own = None if getattr(ms, "weighted", False) else own_intervals(tp, fp, fn, n, decided=decided)
    rows = {
        "group": list(ms.groups),
        "n": [ms.judge[g].total for g in ms.groups],
        "positives": [ms.judge[g].positives for g in ms.groups],
        "negatives": [ms.judge[g].negatives for g in ms.groups],
        "small": small.tolist(),
    }
    gaps = []
    for rate in GROUP_RATES:
        est = rates[rate]
        rows[rate] = est
        lo = hi = np.full(len(ms.groups), np.nan)
        g_lo = g_hi = float("nan")
        if draws is not None:
            lo, hi = percentile_intervals(draws[rate])
            g_lo, g_hi = _gap_interval(float(_gap(est)), _gap(draws[rate]))
            if own is not None:
                lo_r, hi_r = lo, hi
                lo, hi = held(lo, hi, own[rate])
                if np.any((lo < lo_r) | (hi > hi_r)):  # a group widened by its own counts: the gap holds its ends
                    g_lo = min(g_lo, max(0.0, float(np.nanmax(lo) - np.nanmin(hi))))
                    g_hi = max(g_hi, float(np.nanmax(hi) - np.nanmin(lo)))
        rows[f"{rate} low"], rows[f"{rate} high"] = lo, hi
        gaps.append({"rate": rate, "gap": float(_gap(est)), "low": g_lo, "high": g_hi})
    return pd.DataFrame(rows), pd.DataFrame(gaps, columns=["rate", "gap", "low", "high"])


def _gap_interval(estimate: float, draws: np.ndarray) -> tuple[float, float]:
    """95% interval of the largest gap between groups: `estimate` plus the percentile interval of the
    resamples' gaps about their median, within [0, 1]. A resample's gap is the largest of several noisy
    differences, so it sits above the estimate's, the more so the smaller the groups: their percentile
    interval could miss the estimate (review: a gap of 1.0% "(1.3% to 35.7%)"). Only their spread is read,
    as `centred_interval` reads a refit's; about the median, which lies inside it, so the interval holds
    the estimate. NaN without a finite estimate or resample."""
    from costlib.stats.intervals import centred_interval

    lo, hi = centred_interval(estimate, draws, about=np.median)
    return (max(0.0, lo), min(1.0, hi)) if np.isfinite(lo) else (lo, hi)


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
