"""Alerts that are not noise: does a period's own best cutoff beat the shipped one beyond chance?

A period's own best cutoff is fitted on that period, so its regret (shipped minus best) is
never below zero even when nothing has changed. The judgement here is the one of
`costlib.binary.honest`: the refit's cost is cross-fitted (each row judged by the cutoff fitted
on the period's other rows), and the interval of the regret comes from the refit bootstrap (the
fit repeated in bag, the shipped and refitted cutoffs judged on the same rows out of bag), with
the shipped cutoffs as exact cells. An alert fires only when the whole 95% interval of that
regret is above zero.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from costlib.binary import decision as D
from costlib.binary import honest as H
from costlib.core import rules as R
from costlib.core.prices import mistakes_cost, prices_for
from costlib.stats.intervals import percentile_interval


@dataclass(frozen=True)
class PeriodJudgement:
    """One period's labelled rows judged against the shipped cutoffs.

    shipped  cost per case of the shipped cutoffs on the period's rows
    refit    cost per case of refitting on the period, cross-fitted (NaN when a fold has one class)
    regret   shipped minus refit: what refitting would save per case (honest: it can be below zero)
    low, high  its 95% interval (refit bootstrap)
    best     the period's own best cutoff(s), fitted on all its rows: ``{group: cutoff}``
    alert    the whole interval is above zero
    """

    shipped: float
    refit: float
    regret: float
    low: float
    high: float
    best: dict
    alert: bool


def judge_period(
    y_true, y_score, groups, *, costs: Mapping, cutoffs: Mapping, n_resamples: int = 1000, seed: int = 0
) -> PeriodJudgement:
    """`PeriodJudgement` of one period's labelled rows.

    `costs` maps each group to (c_fp, c_fn) and `cutoffs` each group to its shipped cutoff; when
    the shipped cutoffs differ by group, the refit is the best cutoff of each group (a group too
    small for its own gets the one for everybody, `honest.MIN_CLASS_ROWS`), else one cutoff for
    everybody.
    """
    ms = D.sweep_model(y_true, y_score, groups, probabilities=False)
    missing = [g for g in ms.groups if g not in cutoffs or g not in costs]
    if missing:
        raise ValueError(f"the policy has no cutoff or prices for the group {missing[0]!r}")
    prices = prices_for(ms.groups, {g: costs[g] for g in ms.groups})
    cut = np.array([float(cutoffs[g]) for g in ms.groups])
    per_group = len(set(cut.tolist())) > 1
    total = float(ms.judge_pooled.total)
    shipped = float(D.count_rules(ms.judge, {"shipped": cut}).cost(prices).sum() / total)
    fitted = D.model_rule_cutoffs(ms, prices)
    best_cut = fitted[R.COST_OPTIMAL if per_group else R.SINGLE]
    best = {g: float(t) for g, t in zip(ms.groups, best_cut, strict=True)}
    honest = H.judge(ms, prices, n_resamples=0, seed=seed)
    refit = regret = low = high = math.nan
    cf = honest.crossfit
    if cf is not None and cf.fitted:
        counts = cf.per_group if per_group else cf.single
        refit = float(mistakes_cost(counts["fp"], counts["fn"], prices.c_fp, prices.c_fn).sum() / total)
        regret = shipped - refit
    if n_resamples and cf is not None:
        draws = H.refit_draws(ms.fit, None, ms.fit_pooled, n_resamples=n_resamples, seed=seed, include=cut)
        refits = H.price_refits(draws, prices)
        at = np.searchsorted(-draws.edges, -cut)  # each shipped cutoff's own edge (edges run high to low)
        c_fp, c_fn = prices.c_fp[None, :], prices.c_fn[None, :]
        spent = H.cost_at(draws.judge_tp, draws.judge_fp, at[None, :], c_fp, c_fn).sum(axis=1)
        judged = (draws.judge_tp[..., -1] + draws.judge_fp[..., -1]).astype(np.float64).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            diff = spent / judged - (refits.per_group if per_group else refits.single)
        if np.isfinite(diff).all() and math.isfinite(regret):
            low, high = percentile_interval(diff)
    alert = bool(math.isfinite(low) and low > 0)
    return PeriodJudgement(shipped, refit, regret, low, high, best, alert)
