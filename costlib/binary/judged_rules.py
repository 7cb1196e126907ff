"""Every rule judged on one model's sweeps: what each rule's cutoffs are, what they select and
cost in every group and overall, and the fitted rules judged honestly.

The first half of "sweep once, price many" (`costlib.binary.decision`): the cutoff of every rule
(`model_rule_cutoffs`), their counts on a sweep without reading rows (`count_rules`), every
rule's costs per group and overall with bootstrap intervals (`evaluate_rules`, read through
`RuleResults`), the fitted rules' costs cross-fitted and their intervals from the refit
bootstrap (`judge_fitted`), and the cheaper decision without a model (`baseline_rule`).
`decision.recommend` reads these to choose what to ship; ``decision.*`` re-exports the names.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from costlib.binary import capacity as C
from costlib.binary import group_alone as A
from costlib.binary import honest as H
from costlib.binary.folds import own_cutoff
from costlib.binary.model_sweeps import ModelSweeps
from costlib.binary.refit_moves import AT_LEAST, held_moves
from costlib.core import rules as R
from costlib.core import validation as v
from costlib.core.prices import Prices, elkan_cutoffs, mistakes_cost, no_model_choice
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
    fewer than `folds.MIN_CLASS_ROWS` positives or negatives on the fitting rows gets the
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
    own = own_cutoff(ms.fit.positives, ms.fit.negatives)
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


@dataclass(frozen=True)
class GroupAlone:
    """Deciding by group alone, with no model (`costlib.binary.group_alone`), against the per-group
    cutoffs (`group_alone`).

    ``actions`` {group: the share of it flagged at random: 0 nobody, 1 everyone}, ``cost`` its cost per
    case on the judged rows, ``saving``, ``low``, ``high`` the per-group cutoffs' saving over it with
    its 95% interval."""

    actions: dict
    cost: float
    saving: float
    low: float
    high: float


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
    row_se: dict = field(default_factory=dict)  # fitted rule -> fold-aware standard error of its cross-fitted cost
    # minus the baseline's (`honest.row_se`): the single cutoff's saving is +- 1.96 of it (per-group: shrunk)
    gain_rows_var: float = float("nan")  # the cross-fitted per-group extra saving's variance from its rows alone
    # (`honest.gain_rows_variance`): its interval shrinks the bootstrap's toward it (`honest.shrunk_intervals`)
    same_as_baseline: frozenset = frozenset()  # fitted rules that, cross-fitted, decide every judged row as the
    # no-model choice does (every fold's cutoff flags all of a group or none of it): they are that choice here
    rows_judged: bool = False  # the fitted rules were judged on weighted rows, row by row (`weighted_rows`):
    # their intervals against the baseline are the rules table's, and their extra saving has none
    group_alone: GroupAlone | None = None  # per-group cutoffs against deciding by group alone (`group_alone`)

    def paired(self, rule: str, other: str) -> tuple[float, float, float]:
        """(estimate, low, high) of cost per case of `rule` minus that of `other`.

        A fitted rule's resamples refit it (`honest`); a fixed rule's hold its cutoffs. The two
        are different resamplings, so a fitted rule pairs only with another fitted rule or the
        baseline (otherwise the interval is NaN). Cross-fitted, the interval is the resamples'
        spread about the estimate (`centred_interval`: a resample's refits see fewer distinct rows,
        so their costs sit above it); with a split, the refits' percentile interval. Cross-fitted,
        the per-group extra saving's interval (single against per-group cutoffs) is that spread
        shrunk toward the rows' own variance (`honest.shrunk_intervals`), as each group's cost's.

        One quantity has one interval: a fitted rule against the baseline has the rules table's
        (``vs_low``, ``vs_high``: what `judge_fitted` made, widened there when the model was
        picked among several, `honest.picked_z`), and a fitted rule that is the baseline
        on the judged rows (`same_as_baseline`) is read as the baseline: where the single cutoff
        is, the per-group extra saving is the per-group cutoffs' saving against the baseline, with
        that interval (issue 43)."""
        if {rule, other} == set(FITTED) and self.same_as_baseline:
            rule, other = (self.baseline if r in self.same_as_baseline else r for r in (rule, other))
            if rule == other:  # both are the baseline here: no difference on any judged row
                return 0.0, 0.0, 0.0
        est = float(self.overall.loc[rule, "cost_per_case"] - self.overall.loc[other, "cost_per_case"])
        fitted = other if rule == self.baseline else rule
        if (self.refit or self.rows_judged) and self.baseline in (rule, other) and fitted in FITTED:
            lo, hi = (float(self.overall.loc[fitted, c]) for c in ("vs_low", "vs_high"))  # the rules table's
            return (est, lo, hi) if rule == fitted else (est, -hi, -lo)
        a, b = (self.refit.get("baseline" if r == self.baseline else r) for r in (rule, other))
        if a is not None and b is not None and (rule in self.refit or other in self.refit):
            if self.estimate == H.CROSS_FITTED:  # the bootstrap of the cross-fitted estimate: its spread
                lo, hi = centred_interval(est, a - b)
                if {rule, other} == set(FITTED):
                    low, high = H.shrunk_intervals(est, lo, hi, self.gain_rows_var)
                    lo, hi = float(low), float(high)
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
    typed = {  # the labels as pandas types them (a frame does not infer them again), and as numpy reads them
        "rule": _labels(tuple(rules), tuple(map(type, rules)), n_groups, outer=True),
        "group": _labels(tuple(ms.groups), tuple(map(type, ms.groups)), n_rules, outer=False),
    }
    by_cols = {
        "rule": typed["rule"].to_numpy(),
        "group": typed["group"].to_numpy(),
        "n": np.tile(np.asarray(n_g, dtype=np.float64) if ms.weighted else np.round(n_g).astype(np.int64), n_rules),
        "threshold": np.array([cut_of[r] for r in rules], dtype=np.float64).reshape(-1),
        "flagged_rate": v.safe_divide(flagged, n_g[None, :]).reshape(-1),
        "fp": np.asarray(fp, dtype=np.float64).reshape(-1),
        "fn": np.asarray(fn, dtype=np.float64).reshape(-1),
        "cost_per_case": v.safe_divide(cost, n_g[None, :]).reshape(-1),
        "low": np.asarray(lows, dtype=np.float64).reshape(-1),
        "high": np.asarray(highs, dtype=np.float64).reshape(-1),
    }
    by_group = pd.DataFrame({**by_cols, **typed})
    with np.errstate(invalid="ignore"):
        overall_cost = cost.sum(axis=1) / total_n if total_n > 0 else np.full(len(rules), np.nan)
    baseline = baseline_rule(dict(zip(rules, overall_cost, strict=True)), capacity)
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
    over_cols = {
        "n": np.full(len(rules), total_n),
        "flagged_rate": v.safe_divide(flagged.sum(axis=1), np.full(len(rules), total_n)),
        "fp": fp.sum(axis=1),
        "fn": fn.sum(axis=1),
        "cost_per_case": overall_cost,
        "low": low,
        "high": high,
        "vs_baseline": overall_cost - overall_cost[rules.index(baseline)],
        "vs_low": vs_lo,
        "vs_high": vs_hi,
    }
    # at once: a column added to a frame later costs as much as the frame
    overall = pd.DataFrame(over_cols, index=_rule_index(tuple(rules), tuple(map(type, rules))))
    out = RuleResults(
        by_group,
        overall,
        baseline,
        {r: dict(zip(ms.groups, cut_of[r].tolist(), strict=True)) for r in rules},
        res,
        total_cost,
    )
    return _keep_columns(out, by_cols, over_cols, {**by_cols, **typed})


_JUDGED = ("fp", "fn", "flagged_rate", "cost_per_case", "low", "high")  # what judging a fitted rule rewrites


def _keep_columns(res: RuleResults, by_group: dict, overall: dict, typed: dict) -> RuleResults:
    """`res`, keeping the arrays its two frames were made of (`result_columns` reads them; `typed`:
    by_group's as its frame holds them, labels as pandas arrays)."""
    res.__dict__["_columns"] = (res.by_group, res.overall, by_group, overall, typed)
    return res


def _kept(res: RuleResults):
    held = res.__dict__.get("_columns")
    return held if held is not None and held[0] is res.by_group and held[1] is res.overall else None


def result_columns(res: RuleResults) -> tuple[dict, dict]:
    """``({column: array} of res.by_group, the same of res.overall)``: the arrays the frames were
    made of (`evaluate_rules`, `judge_fitted`), or read off the frames (a `RuleResults` made
    elsewhere, or with frames replaced). Read-only: copy before writing."""
    held = _kept(res)
    if held is not None:
        return held[2], held[3]
    return (
        {c: res.by_group[c].to_numpy() for c in res.by_group.columns},
        {c: res.overall[c].to_numpy() for c in res.overall.columns},
    )


@functools.lru_cache(maxsize=64)
def _rule_index(rules: tuple, types: tuple) -> pd.Index:
    """The rules as the index of an overall table (immutable: shared by every table it is put in;
    `types` keeps 1 and True apart in the cache)."""
    return pd.Index(list(rules), name="rule")


@functools.lru_cache(maxsize=64)
def _labels(values: tuple, types: tuple, times: int, *, outer: bool):
    """`values` as a column of a rules-by-groups table, typed as pandas types a list of them:
    each repeated `times` over (`outer`: the rules, each on its groups' rows) or the whole tuple
    `times` over (the groups, once per rule). `types` (each value's) keeps 1 and True apart in
    the cache. A pandas array, never written: shared by every table it is put in (each copies it)."""
    column = pd.Series(list(values))
    at = np.repeat(np.arange(len(values)), times) if outer else np.tile(np.arange(len(values)), times)
    return column.take(at).array


def judge_fitted(res: RuleResults, prices: Prices, honest: H.Honest) -> RuleResults:
    """`res` with its fitted rules judged honestly (`honest.judge`): their costs cross-fitted
    when the cutoffs were fitted on the judged rows, their intervals from the refit bootstrap
    (which repeats the fit), paired with the baseline on the same resamples."""
    at = {r: i for i, r in enumerate(res.overall.index)}
    fitted = [r for r in FITTED if r in at]
    if not fitted or (honest.crossfit is None and honest.refits is None and honest.rows is None):
        return dataclasses.replace(res, estimate=honest.estimate)
    # the rules' rows are rewritten as numpy columns and put in new frames once: a .loc
    # assignment per rule and column was half of a price move's recommendation
    by_cols, over_cols = result_columns(res)
    cols = {c: np.array(by_cols[c], dtype=np.float64) for c in _JUDGED}
    whole = {c: np.array(over_cols[c], dtype=np.float64) for c in (*_JUDGED, "vs_low", "vs_high")}
    rule_of, group_of = by_cols["rule"], by_cols["group"]
    n_of = np.asarray(by_cols["n"], dtype=np.float64)
    base = rule_of == res.baseline
    cf = honest.crossfit
    same = set()  # the fitted rules that are the baseline on every judged row
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
            if cf.fitted and _decides_as(fp, fn, by_cols["fp"][base], by_cols["fn"][base], n_g):
                same.add(rule)
            cols["flagged_rate"][rows] = v.safe_divide(tp + fp, n_g)
            cols["cost_per_case"][rows] = v.safe_divide(cost, n_g)
            total = float(n_g.sum())
            whole["fp"][o], whole["fn"][o] = fp.sum(), fn.sum()
            whole["flagged_rate"][o] = v.safe_divide((tp + fp).sum(), total)
            whole["cost_per_case"][o] = v.safe_divide(cost.sum(), total)
        if refit:
            per_g = rf.single_by_group if rule == R.SINGLE else rf.per_group_by_group
        if refit and cf is not None:  # the bootstrap of the cross-fitted estimate: its spread about it
            lo_g, hi_g = centred_intervals(cols["cost_per_case"][rows], per_g)
            cols["low"][rows], cols["high"][rows] = H.group_cost_intervals(
                cols["cost_per_case"][rows], lo_g, hi_g, fp, fn, n_g, prices.c_fp, prices.c_fn
            )
            whole["low"][o], whole["high"][o] = centred_interval(whole["cost_per_case"][o], refit[rule])
            vs = whole["cost_per_case"][o] - whole["cost_per_case"][at[res.baseline]]
            lo, hi = centred_interval(vs, refit[rule] - refit["baseline"])
            row_se[rule] = H.row_se(c, res.baseline, prices, n_g, capacity=honest.capacity)
            if rule == R.SINGLE:  # the cutoff shipped is fitted on all rows, even where the folds' flag as the
                row_se[rule] = held_moves(row_se[rule], honest.moves, AT_LEAST)  # no-model choice: how far it moves
            rows_var = H.row_variance(c, res.baseline, prices, n_g, capacity=honest.capacity)
            shrink = rule == R.COST_OPTIMAL and rule not in same
            whole["vs_low"][o], whole["vs_high"][o] = _against_baseline(vs, lo, hi, row_se[rule], rows_var, shrink)
        elif honest.rows is not None:  # weighted rows, judged row by row (`weighted_rows`)
            iv = honest.rows.intervals(rule, res.baseline, len(n_g))
            cols["low"][rows], cols["high"][rows] = iv["by_group"]
            whole["low"][o], whole["high"][o] = iv["cost"]
            whole["vs_low"][o], whole["vs_high"][o] = iv["vs"]  # all NaN where a cutoff could not be fitted
        elif refit:  # a split: the refits' percentile interval (refitted on resampled train rows)
            cols["low"][rows], cols["high"][rows] = percentile_intervals(per_g)
            whole["low"][o], whole["high"][o] = percentile_interval(refit[rule])
            whole["vs_low"][o], whole["vs_high"][o] = percentile_interval(refit[rule] - refit["baseline"])
        else:
            cols["low"][rows] = cols["high"][rows] = np.nan
            for c in ("low", "high", "vs_low", "vs_high"):
                whole[c][o] = np.nan
    whole["vs_baseline"] = whole["cost_per_case"] - whole["cost_per_case"][at[res.baseline]]
    if honest.models > 1:  # the model is picked too: its rules' intervals against the baseline hold that pick
        for o in (at[r] for r in fitted):
            whole["vs_low"][o], whole["vs_high"][o] = H.hold_the_pick(
                whole["vs_baseline"][o], whole["vs_low"][o], whole["vs_high"][o], honest.models
            )
    gain_rows_var = float("nan")
    if cf is not None and refit and R.SINGLE in at and R.COST_OPTIMAL in at:
        gain = whole["cost_per_case"][at[R.SINGLE]] - whole["cost_per_case"][at[R.COST_OPTIMAL]]
        gain_rows_var = H.gain_rows_variance(float(gain), cf.between, float(n_of[rule_of == R.SINGLE].sum()), prices)
    alone = None
    if R.COST_OPTIMAL in at and np.isfinite(whole["cost_per_case"][at[R.COST_OPTIMAL]]):
        alone = group_alone(by_cols, n_of, prices, whole["cost_per_case"][at[res.baseline]], honest.capacity)
    if alone is not None:  # its interval as the per-group cutoffs' saving against the baseline has it
        actions, cost = alone
        vs = whole["cost_per_case"][at[R.COST_OPTIMAL]] - cost
        lo = hi = float("nan")  # weighted rows, judged row by row, have no refits to pair it on: no interval
        if refit:
            shares, n_g = list(actions.values()), n_of[rule_of == R.COST_OPTIMAL]
            lo, hi = _alone_interval(vs, refit, rf.by_group_alone, cf, shares, prices, n_g)
        if honest.models > 1:
            lo, hi = H.hold_the_pick(vs, lo, hi, honest.models)
        alone = GroupAlone(actions, float(cost), float(-vs), float(-hi), float(-lo))
    # new frames at once, in the columns' order: assigning a column costs about as much as a frame
    held = _kept(res)
    typed = held[4] if held is not None else {c: res.by_group[c].array for c in res.by_group.columns}
    by_group = pd.DataFrame(
        {c: cols[c] if c in cols else typed[c] for c in res.by_group.columns}, index=res.by_group.index
    )
    overall = pd.DataFrame({c: whole.get(c, over_cols[c]) for c in res.overall.columns}, index=res.overall.index)
    total_cost = {r: x for r, x in res.total_cost.items() if r not in FITTED}
    judged = dataclasses.replace(
        res,
        by_group=by_group,
        overall=overall,
        total_cost=total_cost,
        refit=refit,
        estimate=honest.estimate,
        on_curve=on_curve,
        row_se=row_se,
        gain_rows_var=gain_rows_var,
        same_as_baseline=frozenset(same),
        rows_judged=honest.rows is not None,
        group_alone=alone,
    )
    return _keep_columns(judged, {**by_cols, **cols}, {**over_cols, **whole}, {**typed, **cols})


def _against_baseline(vs: float, low: float, high: float, se: float, rows: float, shrink: bool) -> tuple[float, float]:
    """The 95% interval of a cross-fitted fitted rule's cost per case minus the no-model choice's,
    `vs`, from the refit bootstrap's centred interval (`low`, `high`): ``vs +- 1.96 se`` for the
    single cutoff (`honest.at_least_rows`, `se` the fold-aware `honest.row_se`), and, when
    `shrink`, for the per-group cutoffs, the bootstrap shrunk toward the variance of the per-row
    differences (`rows`, `honest.row_variance`), as their extra saving's is
    (`honest.shrunk_intervals`). Per-group cutoffs that are the no-model choice on every judged
    row are not shrunk: their saving is 0 +- 0, since every row and every deal agrees (one rule on
    these rows, one interval). The single cutoff's `se` holds how far the cutoff shipped, fitted on
    all rows, moves with them (`refit_moves.single_cutoff_moves`), there too: without signal the
    folds' cutoffs flag as the no-model choice where the one shipped does not.

    Why (issue 43, `benchmarks/README.md`, "One figure, one interval"): on data without signal the
    per-group cutoffs' saving +- 1.96 `se` was 0.58 to 0.87 times the ideal width and covered 89
    to 94%; shrunk, 0.92 to 1.04 times and 94 to 98%, and where per-group cutoffs pay it ships as
    often. Where the single cutoff is the no-model choice on the judged rows the two savings of
    per-group cutoffs are one quantity (`RuleResults.paired`), so they must be read alike.
    """
    if shrink:
        lo, hi = H.shrunk_intervals(vs, low, high, rows)
        return float(lo), float(hi)
    return H.at_least_rows(vs, low, high, se)


def group_alone(by_cols: Mapping, n, prices: Prices, base_cost: float, capacity: float | None) -> tuple | None:
    """({group: share flagged at random}, cost per case) of deciding by group alone on the judged
    rows (`costlib.binary.group_alone`: each group flagged in full or not at all, whichever is cheaper
    for it at its prices; within a review limit `capacity`, the limit spent at random on the groups
    where a flag saves most), from the rules table's columns `by_cols` (flag nobody's counts); None
    where it is no cheaper than the no-model choice (`base_cost`: then that choice already decides
    by group alone, and the saving against it says all) or cannot be read.
    """
    rule, group = np.asarray(by_cols["rule"]), np.asarray(by_cols["group"], dtype=object)
    nobody = rule == R.NOBODY
    if not nobody.any() or not np.isfinite(base_cost):
        return None
    n_g = np.asarray(n, dtype=np.float64)[nobody]
    pos = np.asarray(by_cols["fn"], dtype=np.float64)[nobody]  # flagging nobody misses every positive
    neg = n_g - pos
    cap = capacity if C.binds(capacity) else None
    flagged = A.shares(pos, neg, prices.c_fp, prices.c_fn, cap)
    total = float(n_g.sum())
    cost = float(A.cost(pos, neg, prices.c_fp, prices.c_fn, flagged)) / total if total > 0 else float("nan")
    if not np.isfinite(cost) or cost >= base_cost - tie_tolerance(base_cost, prices.scale):
        return None
    return dict(zip(group[nobody].tolist(), flagged.tolist(), strict=True)), cost


def _alone_interval(vs, refit: dict, alone: np.ndarray, cf, shares: list, prices: Prices, n_g) -> tuple:
    """The 95% interval of the per-group cutoffs' cost minus deciding by group alone's, `vs`: as
    their saving against the no-model choice has it (`_against_baseline`, shrunk; with a split the
    refits' percentile interval), its rows' part read against each group's own choice."""
    draws = refit[R.COST_OPTIMAL] - alone
    if cf is None:
        return percentile_interval(draws)
    lo, hi = centred_interval(vs, draws)
    rows_var = H.row_variance(cf.per_group, shares, prices, n_g)
    return _against_baseline(vs, lo, hi, float("nan"), rows_var, True)


def _decides_as(fp, fn, base_fp, base_fn, n) -> bool:
    """Whether a rule whose judged counts per group are `fp`, `fn` decides every one of the `n`
    rows of each group as the no-model choice does (its counts `base_fp`, `base_fn`: it flags all
    of a group or none of it): equal counts at either end can only come from the same decision
    on every row. Cross-fitted counts are means over deals, so equal is within 1e-6 of a row."""
    fp, fn, base_fp, base_fn, n = (np.asarray(x, dtype=np.float64) for x in (fp, fn, base_fp, base_fn, n))
    if fp.size == 0 or fp.shape != base_fp.shape:
        return False
    ends = (base_fp == 0) | (base_fn == 0)
    close = np.isclose(fp, base_fp, rtol=0, atol=1e-6) & np.isclose(fn, base_fn, rtol=0, atol=1e-6)
    return bool(np.all((ends & close) | (n <= 0)))


def baseline_rule(cost: Mapping[str, float], capacity: float | None = None) -> str:
    """The cheaper decision without a model (ties: flag nobody), from each rule's cost per case;
    under a capacity below 1, flagging at random up to it takes the place of flagging everyone
    (which does not fit)."""
    other = R.AT_RANDOM if C.binds(capacity) else R.EVERYONE
    if no_model_choice(cost[R.NOBODY], cost[other]) == R.NOBODY:
        return R.NOBODY
    return other
