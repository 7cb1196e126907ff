"""Fairness rules fitted tighter, where the rule fitted at the stated tolerance may miss it.

A fairness rule judged where it was not fitted (`fair_judged`) *meets* the tolerance only when
the upper end of its gap's 95% interval is at most the tolerance. When it does not,
`tighter_tolerance` looks for a fitting tolerance below the stated one, chosen by
cross-validation on the fitting rows alone (`folds.make_folds` on them), so that with a split the
judged rows never pick it; without one, the rule fitted at it is cross-fitted as any other
(`holding_rule`). `holding_rule` fits and judges
the rule at it (`fair_judged.judge_rule`); with ``randomised=True``, the same for randomised
cutoffs (`fair_random`). `tightened_rule` and `randomised_rule` name the rules it gives.
"""

from __future__ import annotations

import math

import numpy as np

from costlib.binary.fair_judged import (
    FAIR_CELLS,
    _cell_sweep,
    _cells,
    _inside,
    _outside,
    counts_at,
    fit_quietly,
    folds_of,
    judge_rule,
    rates_of,
)
from costlib.binary.folds import Folds
from costlib.binary.refits import cell_edges
from costlib.core.prices import Prices
from costlib.core.sweep import GroupedSweep, Sweep

#: the fitting tolerances `tighter_tolerance` tries, as shares of the stated tolerance (largest first)
TIGHTER = (1.0, 0.8, 0.6, 0.45, 0.3, 0.2, 0.1, 0.0)


def tolerance_points(tolerance: float) -> str:
    """A fairness tolerance (a share) in points of a rate, as the rules' names and the tables'
    headers write it: three significant digits, never a program's notation, and never '0%' for
    one that is not 0 (review: a rule "fitted within 0%" whose tolerance was not).

    >>> tolerance_points(0.05), tolerance_points(0.015), tolerance_points(0.0225), tolerance_points(0.0004)
    ('5%', '1.5%', '2.25%', '0.04%')
    >>> tolerance_points(1.2345e-7), tolerance_points(0.0)
    ('0.0000123%', '0%')
    """
    points = np.format_float_positional(100 * float(tolerance), precision=3, unique=False, fractional=False, trim="-")
    return f"{points}%"


def fitted_words(fit_tolerance: float) -> str:
    """How a rule's name says the tolerance it was fitted at: 'fitted within 1.5%', or 'fitted
    exactly' at 0 (its groups' rates equal on the rows it is fitted on), never 'within 0%'.

    >>> fitted_words(0.015), fitted_words(0.0004), fitted_words(0.0)
    ('fitted within 1.5%', 'fitted within 0.04%', 'fitted exactly')
    """
    return "fitted exactly" if fit_tolerance == 0 else f"fitted within {tolerance_points(fit_tolerance)}"


def tightened_rule(criterion: str, fit_tolerance: float) -> str:
    """The name of a fairness rule fitted at a tolerance tighter than the stated one (`fitted_words`).

    >>> tightened_rule("equal opportunity", 0.015), tightened_rule("demographic parity", 0.0)
    ('fair: equal opportunity (fitted within 1.5%)', 'fair: demographic parity (fitted exactly)')
    """
    from costlib.core import rules as R

    return f"{R.FAIR_PREFIX}{criterion} ({fitted_words(fit_tolerance)})"


def randomised_rule(criterion: str, fit_tolerance: float, tolerance: float) -> str:
    """The name of a fairness rule with randomised cutoffs (`fair_random`), and its fitting
    tolerance when it is below the stated one (`fitted_words`).

    >>> randomised_rule("demographic parity", 0.05, 0.05), randomised_rule("demographic parity", 0.0, 0.05)
    ('fair: demographic parity (randomised)', 'fair: demographic parity (randomised, fitted exactly)')
    """
    from costlib.core import rules as R

    within = f", {fitted_words(fit_tolerance)}" if fit_tolerance < tolerance else ""
    return f"{R.FAIR_PREFIX}{criterion} (randomised{within})"


def _denominators(pos, neg, criterion: str) -> list[np.ndarray]:
    from costlib.binary.fair_search import FAIRNESS_CRITERIA, TWO_RATES

    by = {"flagged rate": pos + neg, "true positive rate": pos, "false positive rate": neg, "accuracy": pos + neg}
    return [np.asarray(by[r], dtype=np.float64) for r in TWO_RATES.get(criterion, (FAIRNESS_CRITERIA[criterion],))]


BOUND_DRAWS = 2000  # normal draws behind `gap_bound`'s quantile of the largest gap


def gap_bound(tp, fp, pos, neg, criterion: str, sizes: list, fit_var: list | None = None, *, seed: int = 0) -> float:
    """The 97.5% quantile of the largest gap between groups on rows of `sizes` (each rate's
    denominators per group, where the rule will be judged): each group's rate drawn as a
    normal about its rate here, with its binomial variance on those rows plus `fit_var` (the
    rate's variance from refitting, per group), independently; the largest gap of each draw (so
    that many groups' noise widens it, as it widens the bootstrap's). Equalized odds: the
    larger over its two rates. NaN with fewer than two groups that have the rate."""
    rng = np.random.default_rng([int(seed), 41, 2])
    out = -math.inf
    rates = rates_of(tp, fp, pos, neg, criterion)
    extra = fit_var if fit_var is not None else [np.zeros_like(r) for r in rates]
    for r, d, fv in zip(rates, sizes, extra, strict=True):
        ok = np.isfinite(r) & (d > 0)
        if ok.sum() < 2:
            return math.nan
        rr, dd, vv = r[ok], d[ok], np.nan_to_num(np.asarray(fv, dtype=np.float64)[ok])
        sd = np.sqrt(rr * (1 - rr) / dd + vv)
        draws = rr + sd * rng.standard_normal((BOUND_DRAWS, rr.size))
        out = max(out, float(np.quantile(draws.max(axis=1) - draws.min(axis=1), 0.975)))
    return out


# ---------------------------------------------------------------------------------------
# The tolerance to fit at


def tighter_tolerance(
    gs: GroupedSweep,
    pooled: Sweep,
    prices: Prices,
    criterion: str,
    tolerance: float,
    sizes: list,
    *,
    seed: int,
    randomised: bool = False,
    memo: dict | None = None,
) -> float:
    """The fitting tolerance, chosen on the rows of `gs` alone: the largest of
    ``tolerance * TIGHTER`` whose cross-fitted rates on them (`folds.make_folds`' folds) give
    a largest gap whose 97.5% quantile on rows of `sizes` (`gap_bound`, with the variance of
    the rates between the folds' fits) is within `tolerance`; the one with the smallest such
    bound when none is. Fitted on at most `FAIR_CELLS` candidate cutoffs
    (`refits.cell_edges` of `pooled`): a choice among a few tolerances, not the cutoffs shipped.

    `memo`: a dict keeping the deals of the cells between calls, keyed by the cells and the
    seed (`holding_rule` keeps one on the sweeps: the same rows give the same cells for every
    criterion, tolerance and price); None deals them afresh."""
    edges = cell_edges(pooled, FAIR_CELLS)
    pos, neg = _cells(gs, edges)
    gs = _cell_sweep(gs.groups, edges, pos, neg)
    pooled = Sweep(
        edges,
        gs.tp.reshape(len(gs.groups), -1).sum(axis=0),
        gs.fp.reshape(len(gs.groups), -1).sum(axis=0),
        float(pos.sum()),
        float(neg.sum()),
    )
    key = (int(seed), edges.tobytes(), pos.tobytes(), neg.tobytes())
    folds = None if memo is None else memo.get(key)
    if folds is None:
        folds = folds_of(gs, pooled, seed=seed)
        if memo is not None:
            memo[key] = folds
    k = folds.tp.shape[0]
    best, best_bound = tolerance, math.inf
    for share in TIGHTER:
        t = tolerance * share
        tp, fp = np.zeros(len(gs.groups)), np.zeros(len(gs.groups))
        refit = []  # each fold's cutoffs' rates on all these rows: how much the fit moves them
        for f in range(k):
            cut = fit_quietly(_outside(gs, folds, f), prices, criterion, t, randomised=randomised)
            a, b = counts_at(_inside(gs, folds, f), cut)
            tp, fp = tp + a, fp + b
            refit.append(rates_of(*counts_at(gs, cut), gs.positives, gs.negatives, criterion))
        fit_var = [np.var([x[i] for x in refit], axis=0, ddof=1) for i in range(len(refit[0]))]
        bound = gap_bound(tp, fp, gs.positives, gs.negatives, criterion, sizes, fit_var, seed=seed)
        if math.isfinite(bound) and bound <= tolerance + 1e-12:
            return t
        if math.isfinite(bound) and bound < best_bound - 1e-12:
            best, best_bound = t, bound
    return best


def judged_sizes(ms, criterion: str) -> list:
    """Each rate's denominators per group on the rows a rule of `ms` is judged on."""
    gs = ms.judge
    return _denominators(gs.positives.astype(np.float64), gs.negatives.astype(np.float64), criterion)


def holding_rule(
    ms,
    prices: Prices,
    criterion: str,
    tolerance: float,
    *,
    n_resamples: int,
    seed: int = 0,
    randomised: bool = False,
    folds: Folds | None = None,
):
    """The rule fitted at the tolerance `tighter_tolerance` picks on the fitting rows alone,
    judged where it was not fitted (`FairJudged`); None when that is the stated tolerance (with
    `randomised`, the randomised rule (`fair_random`), never None).

    With a split, the tolerance is chosen by cross-validation on the fitting rows and the rule
    judged on the judged rows. Without one, the rule its name says (fitted at that tolerance) is
    cross-fitted as `judge_rule` cross-fits any: each fold judged by the cutoffs fitted at it on the
    other folds, the intervals from the bootstrap's refits at it; its estimate and its intervals are
    about one rule. (A nested estimate, each fold choosing its own tolerance, judged another
    procedure than its intervals and its name: review, a rule "fitted within 0%" whose cost of 0.296
    sat outside its interval, 0.668 to 0.783.) The tolerance is chosen on all fitting rows, as the
    bootstrap's refits do not choose it again (a price move would take minutes). The folds are
    `folds`, else the fitting rows' one cached deal (`honest.fitting_folds`: one deal serves every
    criterion)."""
    sizes = judged_sizes(ms, criterion)
    memo = ms.kept(("fair cell folds",), dict)  # a few kB a deal of cells, filled by tighter_tolerance
    t_star = tighter_tolerance(
        ms.fit, ms.fit_pooled, prices, criterion, tolerance, sizes, seed=seed + 1, randomised=randomised, memo=memo
    )
    if t_star >= tolerance and not randomised:
        return None
    return judge_rule(
        ms,
        prices,
        criterion,
        tolerance,
        fit_tolerance=t_star,
        n_resamples=n_resamples,
        seed=seed,
        randomised=randomised,
        folds=folds,
    )
