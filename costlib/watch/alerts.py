"""Alerts that are not noise: does a period's own best cutoff beat the shipped one beyond chance?

A period's own best cutoff is fitted on that period, so its regret (shipped minus best) is
never below zero even when nothing has changed. The judgement here is the one of
`costlib.binary.honest`: the refit's cost is cross-fitted (each row judged by the cutoff fitted
on the period's other rows), and the interval of the regret comes from the refit bootstrap (the
fit repeated in bag, the shipped and refitted cutoffs judged on the same rows out of bag), with
the shipped cutoffs as exact cells. An alert fires only when the whole 95% interval of that
regret is above zero.

A period whose outcomes are all of one class (or so nearly so that a fold of the cross-fit has
one class) has no honest refit; it is judged against the best one can do there without the model
(`costlib.core.prices.no_model_choice`: the cheaper of flagging nobody and flagging everyone, or
under a review limit flagging up to it at random), with the same refit bootstrap, whose draws
make that choice on the rows they judge. A cutoff that flags three in four of a month of
negatives then alerts: it costs more than flagging nobody, beyond the noise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from costlib.binary import capacity as C
from costlib.binary import honest as H
from costlib.binary.judged_rules import count_rules, model_rule_cutoffs
from costlib.binary.model_sweeps import sweep_model
from costlib.binary.refits import cost_at, price_refits, refit_draws
from costlib.core import rules as R
from costlib.core.prices import mistakes_cost, no_model_choice, prices_for
from costlib.stats.intervals import percentile_interval
from costlib.watch.groups import GroupCounts, group_readings


@dataclass(frozen=True)
class PeriodJudgement:
    """One period's rows judged against the shipped cutoffs.

    shipped   cost per case of the shipped policy on the period's rows
    refit     cost per case of refitting on the period, cross-fitted (NaN without an honest
              estimate: weighted rows, or a fold with one class)
    regret    shipped minus refit: what refitting would save per case (honest: it can be below zero)
    low, high  its 95% interval (refit bootstrap; NaN without one)
    best      the period's own best cutoff(s), fitted on all its rows: ``{group: cutoff}``
              (empty when the rows hold one class)
    best_cost  cost per case of `best` on the same rows (it flatters: the regret is judged on `refit`)
    flagged   share of the cases the shipped policy flags
    by_group  ``{group: (cases, share flagged, cost per case)}`` of the shipped policy
    alert     the whole interval is above zero
    no_model  None when the refit is the model's; else the choice without the model the period is
              judged against (``rules.NOBODY``, ``rules.EVERYONE`` or ``rules.AT_RANDOM``), for a
              period with no honest refit (one class of outcome, or a fold of one class)
    groups    each group's rates and cost per case of the shipped policy with their 95% intervals
              from the refit bootstrap's in-bag draws (`watch.groups.group_readings`)
    """

    shipped: float
    refit: float
    regret: float
    low: float
    high: float
    best: dict
    best_cost: float
    flagged: float
    by_group: dict
    alert: bool
    no_model: str | None = None
    groups: dict = field(default_factory=dict)


def judge_period(
    y_true,
    y_score,
    groups,
    *,
    costs: Mapping,
    cutoffs: Mapping,
    n_resamples: int = 1000,
    seed: int = 0,
    sample_weight=None,
    capacity: float | None = None,
    random_share: float | None = None,
) -> PeriodJudgement:
    """`PeriodJudgement` of one period's rows.

    `costs` maps each group to (c_fp, c_fn) and `cutoffs` each group to its shipped cutoff; when
    the shipped cutoffs differ by group, the refit is the best cutoff of each group (a group too
    small for its own gets the one for everybody, `folds.MIN_CLASS_ROWS`), else one cutoff for
    everybody. `capacity` (a share of the cases, the policy's review limit): the refit is fitted
    within it. `random_share`: the policy flags that share of the cases at random, without the
    model (its cutoffs are then all +inf). `sample_weight`: weighted rows (the label-free months
    are their cases twice, as a positive of weight p and a negative of weight 1 - p) have no
    honest estimate: `refit`, `regret` and the interval are NaN.
    """
    ms = sweep_model(y_true, y_score, groups, sample_weight=sample_weight, probabilities=False)
    missing = [g for g in ms.groups if g not in cutoffs or g not in costs]
    if missing:
        raise ValueError(f"the policy has no cutoff or prices for the group {missing[0]!r}")
    prices = prices_for(ms.groups, {g: costs[g] for g in ms.groups})
    cut = np.array([float(cutoffs[g]) for g in ms.groups])
    per_group = len(set(cut.tolist())) > 1
    counts = count_rules(
        ms.judge, {"shipped": cut, "nobody": np.full(cut.size, math.inf), "all": np.full(cut.size, -math.inf)}
    )
    cost = counts.cost(prices)  # (rules, groups)
    n_g = counts.n[0]
    if random_share is None:
        spent_g, flagged_g = cost[0], (counts.tp[0] + counts.fp[0])
    else:
        spent_g, flagged_g = C.at_random(random_share, cost[1], cost[2]), random_share * n_g
    total = float(n_g.sum())
    shipped = float(spent_g.sum() / total)
    with np.errstate(invalid="ignore", divide="ignore"):
        by_group = {
            g: (float(n_g[i]), float(flagged_g[i] / n_g[i]), float(spent_g[i] / n_g[i]))
            for i, g in enumerate(ms.groups)
        }
    two_classes = ms.fit_pooled.positives > 0 and ms.fit_pooled.negatives > 0
    # one refit bootstrap for the regret's interval and the groups' (the shipped cutoffs as exact cells)
    draws = None
    if n_resamples and total > 0 and not ms.weighted:
        draws = refit_draws(ms.fit, None, ms.fit_pooled, n_resamples=n_resamples, seed=seed, include=cut)
    best, best_cost = {}, math.nan
    if two_classes:
        fitted = model_rule_cutoffs(ms, prices, capacity=capacity)
        best_cut = fitted[R.COST_OPTIMAL if per_group else R.SINGLE]
        best = {g: float(t) for g, t in zip(ms.groups, best_cut, strict=True)}
        best_cost = float(count_rules(ms.judge, {"best": best_cut}).cost(prices).sum() / total)
    refit = regret = low = high = math.nan
    if two_classes and not ms.weighted:
        honest = H.judge(ms, prices, n_resamples=0, seed=seed, capacity=capacity, once=True)  # no price move
        cf = honest.crossfit
        if cf is not None and cf.fitted:
            kept = cf.per_group if per_group else cf.single
            refit = float(mistakes_cost(kept["fp"], kept["fn"], prices.c_fp, prices.c_fn).sum() / total)
            regret = shipped - refit
        if n_resamples and cf is not None and math.isfinite(regret):
            low, high = _regret_interval(draws, prices, cut, per_group, capacity, random_share)
    no_model = None
    if not math.isfinite(regret) and not ms.weighted and total > 0:  # no honest refit: judged against no model
        nobody, everyone = float(cost[1].sum()), float(cost[2].sum())
        other = R.EVERYONE
        if C.binds(capacity):  # flagging everyone does not fit: flagging up to the limit at random
            other, everyone = R.AT_RANDOM, C.at_random(float(capacity), nobody, everyone)
        no_model = R.NOBODY if no_model_choice(nobody, everyone) == R.NOBODY else other
        refit = (nobody if no_model == R.NOBODY else everyone) / total
        regret = shipped - refit
        if not two_classes:  # the period's own best is that choice
            cut_of = {R.NOBODY: math.inf, R.EVERYONE: -math.inf}
            best = {g: cut_of[no_model] for g in ms.groups} if no_model in cut_of else {}
            best_cost = refit
        if n_resamples:
            low, high = _regret_interval(draws, prices, cut, per_group, capacity, random_share, against="baseline")
    alert = bool(math.isfinite(low) and low > 0)
    flagged = float(flagged_g.sum() / total)
    positives = np.array([ms.judge[g].positives for g in ms.groups], dtype=np.float64)
    point = GroupCounts(counts.tp[0], counts.fp[0], positives, n_g - positives)
    groups = group_readings(
        ms.groups, point.at_random(random_share), _shipped_draws(draws, cut, random_share), prices.c_fp, prices.c_fn
    )
    return PeriodJudgement(
        shipped, refit, regret, low, high, best, best_cost, flagged, by_group, alert, no_model, groups
    )


def _shipped_draws(draws, cut: np.ndarray, random_share) -> GroupCounts | None:
    """`GroupCounts` (resamples, groups) of the shipped cutoffs `cut` on each resample's in-bag rows
    (`refits.RefitDraws`: the cutoffs are exact cells), flagging `random_share` at random instead
    when given; None without draws."""
    if draws is None:
        return None
    at = np.broadcast_to(np.searchsorted(-draws.edges, -cut), draws.fit_tp.shape[:2])[..., None]
    tp, fp = (np.take_along_axis(x, at, 2)[..., 0].astype(np.float64) for x in (draws.fit_tp, draws.fit_fp))
    positives, negatives = (x[..., -1].astype(np.float64) for x in (draws.fit_tp, draws.fit_fp))
    return GroupCounts(tp, fp, positives, negatives).at_random(random_share)


def _regret_interval(draws, prices, cut, per_group: bool, capacity, random_share, *, against: str = "refit"):
    """The 95% interval of shipped minus refit over the refit bootstrap `draws` (`refits.refit_draws`):
    the fit repeated in bag, both judged on the same rows out of bag, the shipped cutoffs as exact
    cells. `against` "baseline": minus the choice without the model (`refits.Refits.baseline`) instead."""
    refits = price_refits(draws, prices, capacity)
    c_fp, c_fn = prices.c_fp[None, :], prices.c_fn[None, :]
    if random_share is None:
        at = np.searchsorted(-draws.edges, -cut)  # each shipped cutoff's own edge (edges run high to low)
        spent = cost_at(draws.judge_tp, draws.judge_fp, at[None, :], c_fp, c_fn).sum(axis=1)
    else:  # edge 0 flags nobody, the last flags everyone
        nobody = cost_at(draws.judge_tp, draws.judge_fp, np.zeros((1, cut.size), dtype=int), c_fp, c_fn)
        everyone = cost_at(draws.judge_tp, draws.judge_fp, np.full((1, cut.size), draws.edges.size - 1), c_fp, c_fn)
        spent = C.at_random(random_share, nobody, everyone).sum(axis=1)
    judged = (draws.judge_tp[..., -1] + draws.judge_fp[..., -1]).astype(np.float64).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        other = refits.baseline if against == "baseline" else refits.per_group if per_group else refits.single
        diff = spent / judged - other
    if not np.isfinite(diff).all():
        return math.nan, math.nan
    return percentile_interval(diff)
