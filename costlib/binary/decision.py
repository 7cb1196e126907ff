"""Sweep once, price many: the one recommendation every binary page and report shows.

Sorting is the expensive part of every answer here, and prices do not change it. So the
work is split in two:

1. `costlib.binary.model_sweeps.sweep_model` validates one model's rows once and sorts them
   once into exact sweeps (`ModelSweeps`, re-exported here with `sweep_model`,
   `model_from_sweeps`, `pool` and `cost_curves` for the callers of ``decision.*``).
2. Everything that depends on the prices reads those sweeps: the cutoff of every rule
   (`rule_cutoffs`), what each rule costs per group and overall (`evaluate_rules`), the
   bootstrap intervals (`costlib.stats.bootstrap.cell_bootstrap`, exact multinomial resampling
   of the judged rows' counts between cutoffs: its cost does not grow with the number of
   rows) and the recommendation itself (`recommend`). A price move is vector arithmetic over
   cached arrays: no sort, no validation of rows, no resampling of rows.

The recommendation is always measured against the best thing one could do without the
model: flag nobody or flag everyone, whichever is cheaper on the judged rows (ties: flag
nobody). One cutoff for everybody is recommended unless per-group cutoffs save money with a
95% interval that excludes zero; per-group cutoffs treat groups differently, and the
recommendation says so.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from costlib.binary import capacity as C
from costlib.binary import honest as H
from costlib.binary.model_sweeps import (  # noqa: F401 (re-exported: callers read decision.*)
    SINGLE_GROUP,
    ModelSweeps,
    cost_curves,
    model_from_sweeps,
    pool,
    sweep_model,
)
from costlib.core import rules as R
from costlib.core import validation as v
from costlib.core.prices import Prices, elkan_cutoffs, mistakes_cost, no_model_choice, no_model_costs, prices_for
from costlib.core.ship import (  # noqa: F401 (the outcomes of a recommendation: callers read decision.SAVES ...)
    ADDS_NOTHING,
    NO_ANSWER,
    SAVES,
    UNCLEAR,
    WORSE,
    saving_status,
    ship_verdict,
)
from costlib.core.sweep import GroupedSweep, argbest, tie_tolerance
from costlib.stats.bootstrap import DEFAULT_RESAMPLES, Resamples, cell_bootstrap, check_cutoffs
from costlib.stats.intervals import centred_interval, centred_intervals, percentile_interval, percentile_intervals

FITTED = (R.SINGLE, R.COST_OPTIMAL)  # the rules whose cutoffs are chosen on data (judged honestly)


# ---------------------------------------------------------------------------------------
# Rules, judged


def model_rule_cutoffs(
    ms: ModelSweeps, prices: Prices, *, extra: Mapping[str, Mapping] | None = None, capacity: float | None = None
) -> dict:
    """``{rule: cutoffs}`` (one float per group, in ``ms.groups`` order) for every rule.

    The 0.5 and formula rules only when the scores are probabilities; ``best single cutoff``
    and ``cost-optimal`` (best cutoff per group) are fitted on ``ms.fit``; a group with
    fewer than `honest.MIN_CLASS_ROWS` positives or negatives on the fitting rows gets the
    best single cutoff (it is pooled: its own cutoff would be a guess). Under a `capacity`
    (a share of the cases) both fitted rules are fitted within it (`capacity.fitted_within`).
    `extra` adds rules given as ``{rule: {group: cutoff}}``.
    """
    k = len(ms.groups)
    out = {}
    if ms.probabilities:
        out[R.THRESHOLD_05] = np.full(k, 0.5)
        out[R.ELKAN] = elkan_cutoffs(prices.c_fp, prices.c_fn)
    pooled = ms.fit_pooled
    if pooled.positives > 0 and pooled.negatives > 0:
        single = float(pooled.thresholds[argbest(ms.single_cost(prices) / pooled.total)])
    else:
        v.warn_degenerate("the fitting rows hold one class only: there is no best single cutoff (NaN)")
        single = float("nan")
    out[R.SINGLE] = np.full(k, single)
    per_group = np.full(k, single)
    own = H.own_cutoff(ms.fit.positives, ms.fit.negatives)
    for i, g in enumerate(ms.groups):
        if own[i]:
            sw = ms.fit[g]
            j = sw.best(prices.c_fp[i], prices.c_fn[i])
            per_group[i] = sw.thresholds[j] if j >= 0 else np.nan
    out[R.COST_OPTIMAL] = per_group
    if C.binds(capacity) and np.isfinite(single):
        within, per_group_within, _ = C.fitted_within(ms, prices, capacity, own)
        out[R.SINGLE] = np.full(k, within)
        out[R.COST_OPTIMAL] = per_group_within
    out[R.NOBODY] = np.full(k, np.inf)
    out[R.EVERYONE] = np.full(k, -np.inf)
    for rule, cut in (extra or {}).items():
        out[rule] = np.array([float(cut.get(g, np.nan)) for g in ms.groups])
    return out


@dataclass(frozen=True, eq=False)
class Counts:
    """Weighted counts of each rule in each group on one sweep: arrays (rules, groups)."""

    rules: tuple
    groups: tuple
    n: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    usable: np.ndarray  # False where the cutoff is NaN

    def cost(self, prices: Prices) -> np.ndarray:
        """Total price of the mistakes, (rules, groups)."""
        return mistakes_cost(self.fp, self.fn, prices.c_fp, prices.c_fn)


def count_rules(sweep: GroupedSweep, cutoffs: Mapping[str, np.ndarray]) -> Counts:
    """What every rule's cutoffs select in every group of `sweep` (no rows are read)."""
    rules = tuple(cutoffs)
    k = len(sweep.groups)
    check_cutoffs(cutoffs, k)
    shape = (len(rules), k)
    tp, fp = np.zeros(shape), np.zeros(shape)
    cut = np.array([cutoffs[r] for r in rules], dtype=np.float64).reshape(shape)
    usable = ~np.isnan(cut)
    for i, g in enumerate(sweep.groups):
        sw = sweep[g]
        j = sw.index_at(np.where(usable[:, i], cut[:, i], np.inf))
        tp[:, i], fp[:, i] = sw.tp[j], sw.fp[j]
    n = np.broadcast_to(sweep.positives + sweep.negatives, shape)
    fn = np.broadcast_to(sweep.positives, shape) - tp
    nan = np.where(usable, 1.0, np.nan)
    return Counts(rules, tuple(sweep.groups), n, tp * nan, fp * nan, fn * nan, usable)


# ---------------------------------------------------------------------------------------
# Judged rules: by group and overall, apart


@dataclass(frozen=True, eq=False)
class RuleResults:
    """Every rule judged on the judged rows, read through two frames kept apart.

    by_group  one row per (rule, group): ``rule, group, n, threshold, flagged_rate, fp, fn,
              cost_per_case, low, high`` (the interval of the group's cost per case)
    overall   indexed by rule: ``n, flagged_rate, fp, fn, cost_per_case, low, high`` and
              ``vs_baseline, vs_low, vs_high`` (paired difference against the baseline rule
              on the same resamples: negative saves money)
    No group name is reserved: the overall result is never a row of ``by_group``.
    """

    by_group: pd.DataFrame
    overall: pd.DataFrame
    baseline: str
    cutoffs: dict
    resamples: Resamples | None = None
    total_cost: dict = field(default_factory=dict)  # rule -> (B,) resampled cost per case
    refit: dict = field(default_factory=dict)  # fitted rule or "baseline" -> (B,) refit bootstrap cost per case
    on_curve: dict = field(default_factory=dict)  # fitted rule -> (overall, {group: cost}) on the judged rows'
    # cost curves (where a chart marks the cutoff) when the cost shown is cross-fitted
    estimate: str = H.TEST  # how the fitted rules are judged (`honest.Honest.estimate`)
    row_se: dict = field(default_factory=dict)  # fitted rule -> standard error of its cross-fitted cost minus the
    # baseline's from the per-row differences (`honest.row_se`): the least an interval of that difference spans

    def paired(self, rule: str, other: str) -> tuple[float, float, float]:
        """(estimate, low, high) of cost per case of `rule` minus that of `other`.

        A fitted rule's resamples refit it (`honest`); a fixed rule's hold its cutoffs. The two
        are different resamplings, so a fitted rule pairs only with another fitted rule or the
        baseline (otherwise the interval is NaN). Cross-fitted, the interval is the resamples'
        spread about the estimate (`centred_interval`: a resample's refits see fewer distinct rows,
        so their costs sit above it); with a split, the refits' percentile interval."""
        est = float(self.overall.loc[rule, "cost_per_case"] - self.overall.loc[other, "cost_per_case"])
        a, b = (self.refit.get("baseline" if r == self.baseline else r) for r in (rule, other))
        if a is not None and b is not None and (rule in self.refit or other in self.refit):
            if self.estimate == H.CROSS_FITTED:  # the bootstrap of the cross-fitted estimate: its spread
                lo, hi = centred_interval(est, a - b)
                se = None  # against the baseline: at least the per-row interval (`honest.at_least_rows`)
                if other == self.baseline:
                    se = self.row_se.get(rule)
                elif rule == self.baseline:
                    se = self.row_se.get(other)
                if se is not None:
                    lo, hi = H.at_least_rows(est, lo, hi, se)
                return est, lo, hi
            return (est, *percentile_interval(a - b))
        if rule in FITTED or other in FITTED or rule not in self.total_cost or other not in self.total_cost:
            return est, float("nan"), float("nan")
        lo, hi = percentile_interval(self.total_cost[rule] - self.total_cost[other])
        return est, lo, hi


def evaluate_rules(
    ms: ModelSweeps,
    prices: Prices,
    cutoffs: Mapping[str, np.ndarray],
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    base: Sequence[str] | None = None,
    capacity: float | None = None,
) -> RuleResults:
    """Judge every rule on ``ms.judge``: counts, costs and (unweighted rows) intervals.

    `base` (`cell_bootstrap`): the rules whose resamples must not depend on the others.
    Under a `capacity` below 1 (a share of the cases), ``flag at random`` is judged too: a
    share `capacity` of every group flagged without a model (its expected counts, and on each
    resample the same mixture of flagging nobody and everyone), and the baseline is the
    cheaper of it and flagging nobody (flagging everyone does not fit)."""
    counts = count_rules(ms.judge, cutoffs)
    cost = counts.cost(prices)  # (rules, groups)
    n_g = counts.n[0] if counts.n.size else np.zeros(0)
    tp, fp, fn = counts.tp, counts.fp, counts.fn
    rules = counts.rules
    res = None
    if n_resamples and not ms.weighted:
        res = cell_bootstrap(ms.judge, cutoffs, n_resamples=n_resamples, seed=seed, base=base)
    boot = res.cost(prices) if res is not None else None  # (B, rules, groups)
    cut_of = {r: np.asarray(cutoffs[r], dtype=np.float64) for r in rules}
    if C.binds(capacity):
        c = float(capacity)
        pos, neg = ms.judge.positives, ms.judge.negatives
        zero = np.zeros_like(pos)  # flagging nobody flags no case; flagging everyone misses none
        row_tp, row_fp, row_fn = C.at_random(c, zero, pos), C.at_random(c, zero, neg), C.at_random(c, pos, zero)
        tp, fp, fn = (np.vstack((x, row)) for x, row in ((tp, row_tp), (fp, row_fp), (fn, row_fn)))
        cost = np.vstack((cost, mistakes_cost(row_fp, row_fn, prices.c_fp, prices.c_fn)))
        if boot is not None:
            mix = C.at_random(c, boot[:, rules.index(R.NOBODY)], boot[:, rules.index(R.EVERYONE)])
            boot = np.concatenate((boot, mix[:, None]), axis=1)
        rules = (*rules, R.AT_RANDOM)
        cut_of[R.AT_RANDOM] = np.full(len(ms.groups), np.nan)
    flagged = tp + fp
    total_n = float(n_g.sum())
    lows = highs = np.full((len(rules), len(ms.groups)), np.nan)
    if boot is not None:
        with np.errstate(invalid="ignore", divide="ignore"):
            per_case = np.where(n_g > 0, boot / np.where(n_g > 0, n_g, 1.0), np.nan)
        lows, highs = (x.reshape(len(rules), len(ms.groups)) for x in percentile_intervals(per_case))
    n_rules, n_groups = len(rules), len(ms.groups)
    # one row per (rule, group), rules outer; built from columns (a frame from a list of row
    # tuples took a fifth of a price move's recommendation), each typed as pandas types a list
    by_group = pd.DataFrame(
        {
            "rule": _labels(tuple(rules), tuple(map(type, rules)), n_groups, outer=True),
            "group": _labels(tuple(ms.groups), tuple(map(type, ms.groups)), n_rules, outer=False),
            "n": np.tile(np.asarray(n_g, dtype=np.float64) if ms.weighted else np.round(n_g).astype(np.int64), n_rules),
            "threshold": np.array([cut_of[r] for r in rules], dtype=np.float64).reshape(-1),
            "flagged_rate": v.safe_divide(flagged, n_g[None, :]).reshape(-1),
            "fp": np.asarray(fp, dtype=np.float64).reshape(-1),
            "fn": np.asarray(fn, dtype=np.float64).reshape(-1),
            "cost_per_case": v.safe_divide(cost, n_g[None, :]).reshape(-1),
            "low": np.asarray(lows, dtype=np.float64).reshape(-1),
            "high": np.asarray(highs, dtype=np.float64).reshape(-1),
        }
    )
    with np.errstate(invalid="ignore"):
        overall_cost = cost.sum(axis=1) / total_n if total_n > 0 else np.full(len(rules), np.nan)
    baseline = _baseline_rule(dict(zip(rules, overall_cost, strict=True)), capacity)
    total_cost = {}
    nan = np.full(len(rules), np.nan)
    low, high, vs_lo, vs_hi = nan, nan, nan, nan
    if boot is not None and total_n > 0:
        total = boot.sum(axis=2) / total_n  # (B, rules)
        whole = np.isfinite(total).all(axis=0)
        total_cost = {rule: total[:, i] for i, rule in enumerate(rules) if whole[i]}
        draws = np.where(whole, total, np.nan)  # a rule with a non-finite draw has no interval
        low, high = percentile_intervals(draws)
        if baseline in total_cost:
            vs_lo, vs_hi = percentile_intervals(draws - total_cost[baseline][:, None])
    overall = pd.DataFrame(  # at once: a column added to a frame later costs as much as the frame
        {
            "n": total_n,
            "flagged_rate": v.safe_divide(flagged.sum(axis=1), np.full(len(rules), total_n)),
            "fp": fp.sum(axis=1),
            "fn": fn.sum(axis=1),
            "cost_per_case": overall_cost,
            "low": low,
            "high": high,
            "vs_baseline": overall_cost - overall_cost[rules.index(baseline)],
            "vs_low": vs_lo,
            "vs_high": vs_hi,
        },
        index=pd.Index(rules, name="rule"),
    )
    return RuleResults(
        by_group,
        overall,
        baseline,
        {r: dict(zip(ms.groups, cut_of[r].tolist(), strict=True)) for r in rules},
        res,
        total_cost,
    )


_JUDGED = ("fp", "fn", "flagged_rate", "cost_per_case", "low", "high")  # what judging a fitted rule rewrites


@functools.lru_cache(maxsize=64)
def _labels(values: tuple, types: tuple, times: int, *, outer: bool):
    """`values` as a column of a rules-by-groups table, typed as pandas types a list of them:
    each repeated `times` over (`outer`: the rules, each on its groups' rows) or the whole tuple
    `times` over (the groups, once per rule). `types` (each value's) keeps 1 and True apart in
    the cache. Read-only: shared by every table it is put in."""
    column = pd.Series(list(values))
    at = np.repeat(np.arange(len(values)), times) if outer else np.tile(np.arange(len(values)), times)
    out = column.take(at).to_numpy()
    out.flags.writeable = False
    return out


def judge_fitted(res: RuleResults, prices: Prices, honest: H.Honest) -> RuleResults:
    """`res` with its fitted rules judged honestly (`honest.judge`): their costs cross-fitted
    when the cutoffs were fitted on the judged rows, their intervals from the refit bootstrap
    (which repeats the fit), paired with the baseline on the same resamples."""
    fitted = [r for r in FITTED if r in res.overall.index]
    if not fitted or (honest.crossfit is None and honest.refits is None):
        return dataclasses.replace(res, estimate=honest.estimate)
    # the rules' rows are rewritten as numpy columns and put in new frames once: a .loc
    # assignment per rule and column was half of a price move's recommendation
    cols = {c: res.by_group[c].to_numpy(dtype=np.float64, copy=True) for c in _JUDGED}
    whole = {c: res.overall[c].to_numpy(dtype=np.float64, copy=True) for c in (*_JUDGED, "vs_low", "vs_high")}
    rule_of, group_of = res.by_group["rule"].to_numpy(), res.by_group["group"].to_numpy()
    n_of = res.by_group["n"].to_numpy(dtype=np.float64)
    at = {r: i for i, r in enumerate(res.overall.index)}
    cf = honest.crossfit
    on_curve = {}
    refit = {}
    row_se = {}
    if honest.refits is not None and (cf is None or cf.fitted):  # no cross-fitted cost: no interval either
        rf = honest.refits
        refit = {"baseline": rf.baseline, R.SINGLE: rf.single, R.COST_OPTIMAL: rf.per_group}
    for rule in fitted:
        rows, o = rule_of == rule, at[rule]
        n_g = n_of[rows]
        if cf is not None:
            on_curve[rule] = (
                float(whole["cost_per_case"][o]),
                dict(zip(group_of[rows], cols["cost_per_case"][rows], strict=True)),
            )
            c = cf.single if rule == R.SINGLE else cf.per_group
            nan = 1.0 if cf.fitted else np.nan
            fp, fn, tp = c["fp"] * nan, c["fn"] * nan, c["tp"] * nan
            cost = mistakes_cost(fp, fn, prices.c_fp, prices.c_fn)
            cols["fp"][rows], cols["fn"][rows] = fp, fn
            cols["flagged_rate"][rows] = v.safe_divide(tp + fp, n_g)
            cols["cost_per_case"][rows] = v.safe_divide(cost, n_g)
            total = float(n_g.sum())
            whole["fp"][o], whole["fn"][o] = fp.sum(), fn.sum()
            whole["flagged_rate"][o] = v.safe_divide((tp + fp).sum(), total)
            whole["cost_per_case"][o] = v.safe_divide(cost.sum(), total)
        if refit:
            per_g = rf.single_by_group if rule == R.SINGLE else rf.per_group_by_group
        if refit and cf is not None:  # the bootstrap of the cross-fitted estimate: its spread about it
            cols["low"][rows], cols["high"][rows] = centred_intervals(cols["cost_per_case"][rows], per_g)
            whole["low"][o], whole["high"][o] = centred_interval(whole["cost_per_case"][o], refit[rule])
            vs = whole["cost_per_case"][o] - whole["cost_per_case"][at[res.baseline]]
            lo, hi = centred_interval(vs, refit[rule] - refit["baseline"])
            row_se[rule] = H.row_se(c, res.baseline, prices, n_g)
            whole["vs_low"][o], whole["vs_high"][o] = H.at_least_rows(vs, lo, hi, row_se[rule])
        elif refit:  # a split: the refits' percentile interval (refitted on resampled train rows)
            cols["low"][rows], cols["high"][rows] = percentile_intervals(per_g)
            whole["low"][o], whole["high"][o] = percentile_interval(refit[rule])
            whole["vs_low"][o], whole["vs_high"][o] = percentile_interval(refit[rule] - refit["baseline"])
        else:
            cols["low"][rows] = cols["high"][rows] = np.nan
            for c in ("low", "high", "vs_low", "vs_high"):
                whole[c][o] = np.nan
    whole["vs_baseline"] = whole["cost_per_case"] - whole["cost_per_case"][at[res.baseline]]
    # new frames at once, in the columns' order: assigning a column costs about as much as a frame
    by_group = pd.DataFrame({c: cols.get(c, res.by_group[c]) for c in res.by_group.columns}, index=res.by_group.index)
    overall = pd.DataFrame({c: whole.get(c, res.overall[c]) for c in res.overall.columns}, index=res.overall.index)
    total_cost = {r: x for r, x in res.total_cost.items() if r not in FITTED}
    return dataclasses.replace(
        res,
        by_group=by_group,
        overall=overall,
        total_cost=total_cost,
        refit=refit,
        estimate=honest.estimate,
        on_curve=on_curve,
        row_se=row_se,
    )


def _baseline_rule(cost: Mapping[str, float], capacity: float | None = None) -> str:
    """The cheaper decision without a model (ties: flag nobody), from each rule's cost per case;
    under a capacity below 1, flagging at random up to it takes the place of flagging everyone
    (which does not fit)."""
    other = R.AT_RANDOM if C.binds(capacity) else R.EVERYONE
    if no_model_choice(cost[R.NOBODY], cost[other]) == R.NOBODY:
        return R.NOBODY
    return other


# ---------------------------------------------------------------------------------------
# The recommendation


@dataclass(frozen=True, eq=False)
class Recommendation:
    """What to ship, in one value (see the module docstring for how it is chosen).

    Its fields::

        model, rule, cutoffs      the recommended model, rule (``best single cutoff`` or
                                  ``cost-optimal``: best cutoff per group) and {group: cutoff}
        cost, cost_low, cost_high cost per case on the judged rows, with its 95% interval
        baseline, baseline_cost   the cheaper no-model decision and its cost per case
        saving, saving_low/high   baseline minus recommended, per case (paired interval)
        status                    SAVES, UNCLEAR, WORSE, ADDS_NOTHING or NO_ANSWER
        no_model_action           for ADDS_NOTHING: "flag nobody" or "flag everyone" (what the
                                  fitted cutoffs amount to), or "by group" when they mix
        group_gain                (estimate, low, high): single minus per-group cost per case
                                  (positive: per-group cutoffs are cheaper); None with one group
        cheaper_by_chance         [(rule, difference, low, high)]: rules cheaper than the
                                  recommended one on the judged rows (difference < 0)
        results                   `RuleResults` of the recommended model
        models                    per model: fit cost of its chosen rule, judged cost, its rule
    """

    model: str
    rule: str
    cutoffs: dict
    cost: float
    cost_low: float
    cost_high: float
    baseline: str
    baseline_cost: float
    saving: float
    saving_low: float
    saving_high: float
    status: str
    no_model_action: str | None
    group_gain: tuple | None
    cheaper_by_chance: list
    results: RuleResults
    models: pd.DataFrame
    prices: Prices
    judged_on: str
    n_fit: float
    n_judged: float
    grouped: bool
    intervals: bool
    lowest: dict = field(default_factory=dict)  # {group: lowest score on the fitting rows}
    estimate: str = H.TEST  # how the fitted rules were judged (`honest.Honest.estimate`)
    pooled: tuple = ()  # groups too small for a cutoff of their own (they get the single cutoff)
    weighted: bool = False  # the rows carry weights (no intervals, no cross-fitting)
    capacity: float | None = None  # the largest share of the cases that may be flagged (None: no limit)
    capacity_gap: float = 0.0  # per case: how far above the optimum within the cap the cutoffs can be
    n_resamples: int = 0  # the resamples it was made with (`answer_at` makes it again at another cap)
    seed: int = 0  # and the seed

    @property
    def verdict(self) -> str:
        """One of `rules.VERDICTS`: the answer in three words, the same on every surface."""
        return R.verdict_of(self.status)

    @property
    def shipped_rule(self) -> str:
        """What the verdict says to apply: the recommended rule when the model ships, else the
        cheaper decision without a model (the rules table, the chart and the policy mark it)."""
        return self.rule if self.ship_model else self.baseline

    @property
    def ship_model(self) -> bool:
        """True only when the whole 95% interval of the honest saving is above zero."""
        return self.status == SAVES

    def summary(self, data: Mapping | None = None, n_rows: int | None = None) -> dict:
        """The decision summary of the contract (``python -m costlib audit --json``).

        `data` is the record's data dictionary (`answers.audit.data_dictionary`); `n_rows` the
        rows of the data (default: the rows fitted on and judged on). Costs are rounded to 12
        significant digits (no float noise); cutoffs are written exactly.
        """
        lo, hi = self.saving_low, self.saving_high
        rows = n_rows if n_rows is not None else self.n_judged + (self.n_fit if self.judged_on == "test" else 0)
        return {
            "recommended": {
                "rule": R.rule_words(self.rule),
                "cutoffs": {str(g): json_cut(t) for g, t in self.cutoffs.items()},
                "cost_per_case": json_number(self.cost),
            },
            "baseline": {"rule": self.baseline, "cost_per_case": json_number(self.baseline_cost)},
            "saving_per_case": json_number(self.saving),
            "judged_on": self.judged_on,
            "n": int(round(self.n_judged)),
            "ship_model": self.ship_model,
            "saving_interval": [json_number(lo), json_number(hi)],
            "verdict": self.verdict,
            "model": self.model,
            "estimate": self.estimate,
            "pooled_groups": [str(g) for g in self.pooled],
            "n_rows": int(round(rows)),
            "n_judged": int(round(self.n_judged)),
            "data": dict(data) if data is not None else None,
        }


def rule_verdict(rec: Recommendation, rule: str) -> tuple[str, float, float, float]:
    """(verdict, saving, low, high) of shipping `rule` instead of the recommendation: the
    recommended rule has the recommendation's verdict; another rule (a fairness-constrained
    one a policy records) saves ``baseline - its cost`` on the judged rows, with its interval,
    and is shipped only when all of that interval is above zero."""
    if rule == rec.rule:
        return rec.verdict, rec.saving, rec.saving_low, rec.saving_high
    o = rec.results.overall
    if rule not in o.index:
        raise ValueError(f"rule must be one of {list(o.index)}: got {rule!r}")
    saving = float(-o.loc[rule, "vs_baseline"])
    low, high = float(-o.loc[rule, "vs_high"]), float(-o.loc[rule, "vs_low"])
    if rule in R.BASELINES:
        return R.DO_NOT, saving, low, high
    verdict = ship_verdict(saving, low, high, tolerance=tie_tolerance(rec.baseline_cost, rec.prices.scale))
    return verdict, saving, low, high


def json_number(x: float):
    """A cost for JSON: None when not finite, else rounded to 12 significant digits."""
    return None if x is None or not math.isfinite(x) else float(f"{float(x):.12g}") + 0.0  # no -0.0


def json_cut(t: float):
    return None if t is None or math.isnan(t) or t == math.inf else float(t)


def _choose_rule(res: RuleResults) -> tuple[str, tuple | None]:
    """Best single cutoff unless per-group cutoffs are cheaper with an interval excluding 0."""
    overall = res.overall
    single_ok = np.isfinite(overall.loc[R.SINGLE, "cost_per_case"])
    group_ok = np.isfinite(overall.loc[R.COST_OPTIMAL, "cost_per_case"])
    if len(res.by_group["group"].unique()) < 2:
        return (R.SINGLE if single_ok else R.COST_OPTIMAL), None
    if not group_ok:
        return R.SINGLE, None
    est, lo, hi = res.paired(R.SINGLE, R.COST_OPTIMAL)  # positive: per-group is cheaper
    if not single_ok:
        return R.COST_OPTIMAL, (est, lo, hi)
    return (R.COST_OPTIMAL if lo > 0 else R.SINGLE), (est, lo, hi)


def recommend(
    models: ModelSweeps | Mapping[str, ModelSweeps],
    costs,
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    extra_rules: Mapping[str, Mapping] | None = None,
    capacity: float | None = None,
) -> Recommendation:
    """The one answer: which model and cutoff(s) to ship at these prices, against the
    cheaper no-model decision, with 95% intervals (see the module docstring).

    Under a `capacity` (the largest share of the cases that may be flagged) the fitted rules
    are fitted within it, every fold and resample of the honest estimate refits them within
    it, and the no-model choice is the cheaper of flagging nobody and flagging a share up to
    the cap at random (`evaluate_rules`).

    Parameters
    ----------
    models : ModelSweeps or {name: ModelSweeps}
        Sweeps of one or more models over the same rows (`sweep_model`).
    costs : (c_fp, c_fn) or {group: (c_fp, c_fn)}
    n_resamples : int
        Bootstrap resamples for the intervals (0: no intervals).
    extra_rules : {rule: {group: cutoff}}, optional
        More rules to judge beside the standard ones (fairness-constrained cutoffs).
    capacity : float, optional
        The largest share of the cases the team can review (0 to 1); None: no limit.

    Returns
    -------
    Recommendation

    Examples
    --------
    >>> ms = sweep_model([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9])
    >>> rec = recommend(ms, (1, 3), n_resamples=0)
    >>> rec.cutoffs, rec.baseline, round(rec.baseline_cost, 4)
    ({'everyone': 0.35}, 'flag everyone', 0.5)

    On its six rows the cutoff 0.35 costs 1/3 per case, but that is where it was picked;
    judged by cutoffs fitted without each row (cross-fitted), it costs more than flagging
    everyone:

    >>> rec.estimate, round(rec.cost, 4), rec.verdict
    ('cross-fitted', 0.6667, 'do not let the model decide')
    """
    if isinstance(models, ModelSweeps):
        models = {models.name: models}
    if not models:
        raise ValueError("models must hold at least one model's sweeps")
    first = next(iter(models.values()))
    prices = prices_for(first.groups, costs)
    if int(n_resamples) != 0 and int(n_resamples) < 10:
        raise ValueError(f"n_resamples must be 0 or at least 10: got {n_resamples!r}")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a whole number from 0: got {seed!r}")
    if capacity is not None:
        capacity = v.as_share(capacity, "capacity")
    chosen = {}
    table = []
    for name, ms in models.items():
        if ms.groups != first.groups:
            raise ValueError(f"every model must have the same groups: {name!r} has {list(ms.groups)}")
        cutoffs = model_rule_cutoffs(ms, prices, extra=extra_rules, capacity=capacity)
        standard = [r for r in cutoffs if r not in (extra_rules or {})]  # their intervals match recommend's alone
        res = evaluate_rules(ms, prices, cutoffs, n_resamples=n_resamples, seed=seed, base=standard, capacity=capacity)
        res = judge_fitted(res, prices, H.judge(ms, prices, n_resamples=n_resamples, seed=seed, capacity=capacity))
        rule, gain = _choose_rule(res)
        fit_counts = count_rules(ms.fit, {rule: cutoffs[rule]})
        fit_total = float(np.sum(fit_counts.cost(prices)) / max(ms.fit_pooled.total, 1e-300))
        chosen[name] = (rule, gain, res, cutoffs)
        table.append(
            {
                "model": name,
                "rule": rule,
                "fit_cost_per_case": fit_total,
                "cost_per_case": float(res.overall.loc[rule, "cost_per_case"]),
            }
        )
    per_model = pd.DataFrame(table)
    usable = per_model[np.isfinite(per_model["fit_cost_per_case"]) & np.isfinite(per_model["cost_per_case"])]
    name = str(usable.loc[usable["fit_cost_per_case"].idxmin(), "model"]) if len(usable) else next(iter(models))
    rule, gain, res, cutoffs = chosen[name]
    ms = models[name]
    overall = res.overall
    cost = float(overall.loc[rule, "cost_per_case"])
    base_cost = float(overall.loc[res.baseline, "cost_per_case"])
    d, d_lo, d_hi = res.paired(rule, res.baseline)
    action = _no_model_action(ms, cutoffs[rule])
    if not np.isfinite(cost):
        status = NO_ANSWER
    elif action is not None:
        status = ADDS_NOTHING
    else:  # the ship rule: no interval, or one that reaches zero, is not a saving to ship
        status = saving_status(-d, -d_hi, -d_lo, tolerance=tie_tolerance(base_cost, prices.scale))
    cheaper = []
    for other in overall.index:
        if other in (rule, *R.BASELINES) or not np.isfinite(overall.loc[other, "cost_per_case"]):
            continue
        if over_capacity(overall, other, capacity):
            continue
        e, lo, hi = res.paired(other, rule)
        if e < -tie_tolerance(cost, prices.scale):
            cheaper.append((other, e, lo, hi))
    cheaper.sort(key=lambda t: t[1])
    return Recommendation(
        model=name,
        rule=rule,
        cutoffs=dict(zip(ms.groups, cutoffs[rule].tolist(), strict=True)),
        cost=cost,
        cost_low=float(overall.loc[rule, "low"]),
        cost_high=float(overall.loc[rule, "high"]),
        baseline=res.baseline,
        baseline_cost=base_cost,
        saving=-d,
        saving_low=-d_hi,
        saving_high=-d_lo,
        status=status,
        no_model_action=action,
        group_gain=gain,
        cheaper_by_chance=cheaper,
        results=res,
        models=per_model,
        prices=prices,
        judged_on=ms.judged_on,
        n_fit=float(ms.fit_pooled.total),
        n_judged=float(ms.judge_pooled.total),
        grouped=ms.grouped and len(ms.groups) > 1,
        intervals=bool(res.refit),
        estimate=res.estimate,
        weighted=ms.weighted,
        pooled=H.pooled_groups(ms.fit) if ms.grouped and len(ms.groups) > 1 else (),
        lowest={g: ms.fit[g].lowest_score for g in ms.groups if ms.fit[g].lowest_score is not None},
        capacity=capacity if C.binds(capacity) else None,
        capacity_gap=_capacity_gap(ms, prices, capacity, rule),
        n_resamples=int(n_resamples),
        seed=int(seed),
    )


def answer_at(models: Mapping[str, ModelSweeps], rec: Recommendation, share: float) -> Recommendation:
    """`rec` made again (`recommend`) from the same `models`, prices, resamples and seed under a
    cap of `share` (no limit from a share of 1 on): what the page would answer at another review
    limit, ties in blocks included (a block of tied scores is flagged whole or not at all), so
    that what more capacity is worth is the change of that answer, not of a smoothed curve.

    Examples
    --------
    >>> ms = sweep_model([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9])
    >>> rec = recommend(ms, (1, 3), n_resamples=0, capacity=0.2)
    >>> round(answer_at({ms.name: ms}, rec, 0.2).cost, 4) == round(rec.cost, 4)
    True
    """
    share = float(share)
    return recommend(
        models,
        rec.prices.as_dict(),
        n_resamples=rec.n_resamples,
        seed=rec.seed,
        capacity=share if share < 1.0 else None,
    )


def over_capacity(overall: pd.DataFrame, rule: str, capacity: float | None) -> bool:
    """Whether `rule` flags more of the judged rows than a capacity allows (the fitted rules,
    fitted within it, may go a little over it on rows they were not fitted on: they do not count)."""
    if not C.binds(capacity) or rule in FITTED or rule == R.AT_RANDOM:
        return False
    return bool(overall.loc[rule, "flagged_rate"] > C.cap_limit(capacity, 1.0))


def _capacity_gap(ms: ModelSweeps, prices: Prices, capacity: float | None, rule: str) -> float:
    """How far above the optimum within the cap the per-group cutoffs can be, per case (0 when
    proven optimal, for one cutoff and without a cap)."""
    if rule != R.COST_OPTIMAL or not C.binds(capacity) or ms.fit_pooled.total <= 0:
        return 0.0
    own = H.own_cutoff(ms.fit.positives, ms.fit.negatives)
    return float(C.fitted_within(ms, prices, capacity, own)[2].gap / ms.fit_pooled.total)


def _no_model_action(ms: ModelSweeps, cut: np.ndarray) -> str | None:
    """ "flag nobody" / "flag everyone" when the cutoffs use no score at all on the fitting
    rows (every group's cutoff flags all of it or none of it), else None."""
    actions = set()
    for i, g in enumerate(ms.groups):
        sw = ms.fit[g]
        if sw.total <= 0:
            continue
        t = cut[i]
        if np.isnan(t):
            return None
        j = sw.index_at(t)
        if j == 0:
            actions.add(R.NOBODY)
        elif j == sw.thresholds.size - 1:
            actions.add(R.EVERYONE)
        else:
            return None
    if not actions:
        return None
    return actions.pop() if len(actions) == 1 else "by group"


def no_model_baseline(y_true, *, c_fp, c_fn, sample_weight=None) -> tuple[str, float]:
    """The cheaper decision without a model, and its cost per case.

    Flagging nobody costs ``c_fn`` per positive case, flagging everyone ``c_fp`` per
    negative case; ties go to ``"flag nobody"``. NaN (with a warning) without cases.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    c_fp : float
        Price of a false positive; finite, >= 0.
    c_fn : float
        Price of a false negative; finite, >= 0.
    sample_weight : array-like of shape (n,), optional
        Non-negative finite case weights; None weighs every case 1.

    Returns
    -------
    rule : str
        ``"flag nobody"`` or ``"flag everyone"``.
    cost_per_case : float
        Its cost per case; NaN when there are no cases (the rule is then ``"flag nobody"``).

    Raises
    ------
    ValueError
        If `y_true` is not 1-D and binary, a price is not a finite number in [0, 1e100], or
        `sample_weight` is negative, not finite or of another length.

    Warns
    -----
    DegenerateWarning
        When there are no cases (total weight 0); the cost is then NaN.

    Examples
    --------
    >>> no_model_baseline([0, 0, 1, 1, 0, 1], c_fp=1, c_fn=3)
    ('flag everyone', 0.5)
    """
    y = v.as_binary(y_true, "y_true")
    c_fp = v.as_price(c_fp, "c_fp")
    c_fn = v.as_price(c_fn, "c_fn")
    w = v.as_weight(sample_weight, "sample_weight", len(y))
    pos = float(y.sum()) if w is None else float(w[y].sum())
    total = float(y.size) if w is None else float(w.sum())
    if total <= 0:
        v.warn_degenerate("no cases: the no-model baseline is NaN")
        return R.NOBODY, float("nan")
    nobody, everyone = (x / total for x in no_model_costs(pos, total - pos, c_fp, c_fn))
    rule = no_model_choice(nobody, everyone)
    return rule, (everyone if rule == R.EVERYONE else nobody)
