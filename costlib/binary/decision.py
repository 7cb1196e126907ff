"""Sweep once, price many: the one recommendation every binary page and report shows.

Sorting is the expensive part of every answer here, and prices do not change it. So the
work is split in two:

1. `costlib.binary.model_sweeps.sweep_model` validates one model's rows once and sorts them
   once into exact sweeps (`ModelSweeps`, re-exported here with `sweep_model`,
   `model_from_sweeps`, `pool` and `cost_curves` for the callers of ``decision.*``).
2. Everything that depends on the prices reads those sweeps: the cutoff of every rule
   (`model_rule_cutoffs`), what each rule costs per group and overall (`evaluate_rules`), the
   bootstrap intervals (`costlib.stats.bootstrap.cell_bootstrap`, exact multinomial resampling
   of the judged rows' counts between cutoffs: its cost does not grow with the number of
   rows), all in `costlib.binary.judged_rules` (re-exported here), and the recommendation
   itself (`recommend`), here. A price move is vector arithmetic over cached arrays: no sort,
   no validation of rows, no resampling of rows. Whether the saving ships is the one ship rule
   (`costlib.core.ship`).

The recommendation is always measured against the best thing one could do without the
model: flag nobody or flag everyone, whichever is cheaper on the judged rows (ties: flag
nobody). One cutoff for everybody is recommended unless per-group cutoffs save money with a
95% interval that excludes zero; per-group cutoffs treat groups differently, and the
recommendation says so. Where the single cutoff, cross-fitted, is the no-model choice on every
judged row, that extra saving is the per-group cutoffs' saving against the no-model choice, with
its one interval (`RuleResults.paired`): the recommendation and the verdict then read the same
interval.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from costlib.binary import capacity as C
from costlib.binary import honest as H
from costlib.binary import weighted_rows as W
from costlib.binary.folds import own_cutoff, pooled_groups
from costlib.binary.judged_rules import (  # noqa: F401 (re-exported: callers read decision.*)
    FITTED,
    Counts,
    RuleResults,
    count_rules,
    evaluate_rules,
    judge_fitted,
    model_rule_cutoffs,
)
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
from costlib.core.json_numbers import json_cut, json_number
from costlib.core.prices import Prices, no_model_choice, no_model_cost, no_model_costs, prices_for
from costlib.core.ship import (  # noqa: F401 (the outcomes of a recommendation: callers read decision.SAVES ...)
    ADDS_NOTHING,
    NO_ANSWER,
    SAVES,
    UNCLEAR,
    WORSE,
    saving_status,
    ship_verdict,
)
from costlib.core.sweep import tie_tolerance
from costlib.stats.bootstrap import DEFAULT_RESAMPLES

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
                                  (positive: per-group cutoffs are cheaper); None with one group.
                                  Where the single cutoff is the no-model choice on the judged
                                  rows, it is the per-group saving against it, with its interval
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
    # {group: (lowest score, highest score, weight) on the judged rows}: what a cutoff flags there (`cutoff_reach`)
    judged_scores: dict = field(default_factory=dict)
    estimate: str = H.TEST  # how the fitted rules were judged (`honest.Honest.estimate`)
    pooled: tuple = ()  # groups too small for a cutoff of their own (they get the single cutoff)
    weighted: bool = False  # the rows carry weights (judged row by row: `weighted_rows`)
    capacity: float | None = None  # the largest share of the cases that may be flagged (None: no limit)
    capacity_gap: float = 0.0  # per case: how far above the optimum within the cap the cutoffs can be
    n_resamples: int = 0  # the resamples it was made with (`answer_at` makes it again at another cap)
    seed: int = 0  # and the seed
    fit_role: str = "train"  # with a split: the rows fitted on, "train" or "validation" (`ModelSweeps.fit_role`)
    # per-group cutoffs that save against the no-model choice but not clearly against deciding by group alone
    # (`judged_rules.group_alone`): the saving is the groups', not the scores'. The model then ships with one
    # cutoff for everyone if that clearly saves (`rule` is it), else it is not clearly better
    held_by_groups: bool = False

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

    def answer_at(self, models: Mapping[str, ModelSweeps], share: float) -> Recommendation:
        """This recommendation made again (`recommend`) from the same `models`, prices, resamples
        and seed under a cap of `share` (no limit from a share of 1 on): what the page would answer
        at another review limit, ties in blocks included (a block of tied scores is flagged whole
        or not at all), so that what more capacity is worth is the change of that answer, not of a
        smoothed curve (`capacity.Limit` reads it, without importing this module).

        Examples
        --------
        >>> ms = sweep_model([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9])
        >>> rec = recommend(ms, (1, 3), n_resamples=0, capacity=0.2)
        >>> round(rec.answer_at({ms.name: ms}, 0.2).cost, 4) == round(rec.cost, 4)
        True
        """
        share = float(share)
        return recommend(
            models,
            self.prices.as_dict(),
            n_resamples=self.n_resamples,
            seed=self.seed,
            capacity=share if share < 1.0 else None,
        )

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
            "n_resamples": self.n_resamples,  # with `seed`, what makes the intervals again
            "seed": self.seed,
            "n_rows": int(round(rows)),
            "n_judged": int(round(self.n_judged)),
            "data": dict(data) if data is not None else None,
            **self._group_alone_record(),
        }

    def _group_alone_record(self) -> dict:
        """The per-group cutoffs against deciding by group alone, when that differs from the no-model
        choice (`judged_rules.group_alone`): {} otherwise."""
        alone = self.results.group_alone if self.rule == R.COST_OPTIMAL or self.held_by_groups else None
        if alone is None:
            return {}
        shares = alone.actions.items()
        return {
            "by_group_alone": {
                "rules": {str(g): R.NOBODY if f <= 0 else R.EVERYONE if f >= 1 else R.AT_RANDOM for g, f in shares},
                "shares_flagged": {str(g): json_number(f) for g, f in shares},
                "cost_per_case": json_number(alone.cost),
                "saving_per_case": json_number(alone.saving),
                "saving_interval": [json_number(alone.low), json_number(alone.high)],
                "holds_the_model_back": self.held_by_groups,
            }
        }


def rule_verdict(rec: Recommendation, rule: str) -> tuple[str, float, float, float]:
    """(verdict, saving, low, high) of shipping `rule` instead of the recommendation: the
    recommended rule has the recommendation's verdict; another rule (a fairness-constrained
    one a policy records) saves ``baseline - its cost`` on the judged rows, with its interval,
    and is shipped only when all of that interval is above zero; cutoffs that differ by group only
    when also clearly cheaper than deciding by group alone (`judged_rules.group_alone`: for per-group
    cutoffs with its own interval; for a fairness-constrained rule, or on weighted rows, with this
    rule's interval less what deciding by group alone saves against the no-model choice)."""
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
    alone = rec.results.group_alone
    if verdict == R.SHIP and alone is not None and len(set(dict(rec.results.cutoffs[rule]).values())) > 1:
        # cutoffs that differ by group: as `recommend` holds per-group cutoffs, the saving may be the groups' own
        if rule == R.COST_OPTIMAL and np.isfinite([alone.low, alone.high]).all():
            over = (alone.saving, alone.low, alone.high)
        else:  # no interval paired with deciding by group alone: this rule's, less what that saves for sure
            by_groups = rec.baseline_cost - alone.cost
            over = (saving - by_groups, low - by_groups, high - by_groups)
        verdict = R.NOT_CLEARLY if _groups_own(alone, over, rec.prices.scale) else verdict
    return verdict, saving, low, high


def _choose_rule(res: RuleResults) -> tuple[str, tuple | None]:
    """Best single cutoff unless per-group cutoffs are cheaper with an interval excluding 0
    (`RuleResults.paired`: where the single cutoff is the no-model choice on the judged rows, the
    per-group cutoffs' saving against it, whose interval the verdict reads too).

    Against the cheaper of the single cutoff and the no-model choice instead: on simulated data
    (issue 43, `benchmarks/README.md`, "One figure, one interval") it recommended per-group cutoffs
    that pay less often (in 0.030 of 200 data sets instead of 0.055 at 300 rows, AUC 0.65; 0.46
    instead of 0.49 where the groups' no-model choices differ) and shipped about as often.
    """
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
    picked_among: int | None = None,
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
    picked_among : int, optional
        How many models the ones given were picked among (default: as many as are given). Without
        a split, a model picked among several has that pick inside its saving's interval
        (`honest.picked_z`).

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
    ('cross-fitted', 0.8167, 'do not let the model decide')
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
        among = max(len(models), picked_among or 1)
        picked = among if ms.judged_on == "all" else 1  # a split picks the model on rows it does not judge
        honest = dataclasses.replace(_judged(ms, prices, cutoffs, n_resamples, seed, capacity), models=picked)
        res = judge_fitted(res, prices, honest)
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
    base_cost = float(overall.loc[res.baseline, "cost_per_case"])
    status, d, d_lo, d_hi, action = _status(res, rule, ms, cutoffs, prices)
    alone = res.group_alone if rule == R.COST_OPTIMAL else None
    held = False
    if status == SAVES and alone is not None:  # the model ships only if it beats treating the groups apart too
        held = _groups_own(alone, (alone.saving, alone.low, alone.high), prices.scale)
        status = UNCLEAR if held else status
        single = _status(res, R.SINGLE, ms, cutoffs, prices) if held and R.SINGLE in cutoffs else (None,)
        if single[0] == SAVES:  # the scores pay with one cutoff for everyone, which uses no group: it ships
            rule, (status, d, d_lo, d_hi, action) = R.SINGLE, single
    cost = float(overall.loc[rule, "cost_per_case"])
    cheaper = cheaper_rules(res, rule, rule, cost, capacity, prices.scale)
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
        fit_role=ms.fit_role,
        n_fit=float(ms.fit_pooled.total),
        n_judged=float(ms.judge_pooled.total),
        grouped=ms.grouped and len(ms.groups) > 1,
        intervals=bool(res.refit) or res.rows_judged,
        estimate=res.estimate,
        weighted=ms.weighted,
        pooled=pooled_groups(ms.fit) if ms.grouped and len(ms.groups) > 1 else (),
        lowest={g: ms.fit[g].lowest_score for g in ms.groups if ms.fit[g].lowest_score is not None},
        judged_scores={g: _score_range(ms.judge[g]) for g in ms.groups if ms.judge[g].thresholds.size > 1},
        capacity=capacity if C.binds(capacity) else None,
        capacity_gap=_capacity_gap(ms, prices, capacity, rule),
        n_resamples=int(n_resamples),
        seed=int(seed),
        held_by_groups=held,
    )


def _score_range(sweep) -> tuple:
    """(lowest score, highest score, weight) of a sweep with a score: a cutoff above the highest flags none of
    its cases, at or below the lowest all of them."""
    return sweep.lowest_score, float(sweep.thresholds[1]), float(sweep.total)


def _groups_own(alone, over: tuple, scale: float) -> bool:
    """Whether a saving over deciding by group alone (`over`: estimate, low, high;
    `judged_rules.GroupAlone` `alone`) is not clearly above zero by the one ship rule: the saving
    against the no-model choice is then the groups' own, not the scores'."""
    return saving_status(*over, tolerance=tie_tolerance(alone.cost, scale)) != SAVES


def cheaper_rules(res: RuleResults, rule: str, against: str, against_cost: float, capacity, scale: float) -> list:
    """[(other, difference, low, high)] of the rules that came out cheaper on the judged rows than
    `against` (cost per case `against_cost`; `RuleResults.paired`), cheapest first: neither `rule`
    (the one the answer names) nor a choice without a model, nor one over the review limit
    `capacity`, and cheaper by more than a tie (`tie_tolerance`). The recommendation's
    `cheaper_by_chance` (against its rule) and, when the verdict keeps the choice without a model,
    the rules cheaper than that choice (`present.kept_words.cheaper_than_no_model`)."""
    overall = res.overall
    out = []
    for other in overall.index:
        if other in (rule, *R.BASELINES) or not np.isfinite(overall.loc[other, "cost_per_case"]):
            continue
        if over_capacity(overall, other, capacity):
            continue
        e, lo, hi = res.paired(other, against)
        if e < -tie_tolerance(against_cost, scale):
            out.append((other, e, lo, hi))
    return sorted(out, key=lambda t: t[1])


def _status(res: RuleResults, rule: str, ms: ModelSweeps, cutoffs: dict, prices: Prices) -> tuple:
    """(status, d, low, high, no-model action) of shipping `rule`: its cost minus the baseline's
    with the interval (`RuleResults.paired`), read by the one ship rule (`saving_status`)."""
    d, d_lo, d_hi = res.paired(rule, res.baseline)
    action = _no_model_action(ms, cutoffs[rule])
    if not np.isfinite(float(res.overall.loc[rule, "cost_per_case"])):
        return NO_ANSWER, d, d_lo, d_hi, action
    if action is not None:
        return ADDS_NOTHING, d, d_lo, d_hi, action
    base_cost = float(res.overall.loc[res.baseline, "cost_per_case"])
    # the ship rule: no interval, or one that reaches zero, is not a saving to ship
    return saving_status(-d, -d_hi, -d_lo, tolerance=tie_tolerance(base_cost, prices.scale)), d, d_lo, d_hi, action


def _judged(ms: ModelSweeps, prices: Prices, cutoffs: dict, n_resamples: int, seed: int, capacity) -> H.Honest:
    """How `ms`'s fitted rules are judged (`honest.Honest`): on whole counts by `honest.judge`;
    on weighted rows, which its folds and resamples cannot deal, row by row
    (`weighted_rows.judge`: cross-fitted without a split), when their rows are at hand and
    intervals are asked for."""
    if ms.weighted and n_resamples:
        rows = W.judge(
            ms,
            prices,
            cutoffs,
            lambda fold: model_rule_cutoffs(fold, prices, capacity=capacity),
            seed=seed,
            capacity=capacity,
        )
        if rows is not None:
            return H.Honest(
                H.CROSS_FITTED if rows.crossfit is not None else H.TEST, rows.crossfit, None, capacity, rows
            )
    return H.judge(ms, prices, n_resamples=n_resamples, seed=seed, capacity=capacity)


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
    own = own_cutoff(ms.fit.positives, ms.fit.negatives)
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
    nobody, everyone = no_model_costs(pos, total - pos, c_fp, c_fn)
    return no_model_choice(nobody, everyone), float(no_model_cost(pos, total - pos, c_fp, c_fn)) / total
