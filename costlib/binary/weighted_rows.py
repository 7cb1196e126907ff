"""The fitted rules judged honestly on rows that carry weights, row by row.

`honest.judge` deals a sweep's whole counts into folds and resamples; a row of weight 2.5 is not
2.5 rows, so weighted rows cannot go through it. `model_sweeps.sweep_model` keeps such rows beside
their sweeps (`model_sweeps.WeightedRows`), and `judge` reads them here:

- **No split.** Every row is judged by the fitted rules' cutoffs picked without its fold
  (`row_crossfit`: `row_crossfit.DEALS` deals of `row_crossfit.FOLDS` folds, stratified by group
  and label). Each fold's sweeps are counted from one sort per group (`row_crossfit.SubsetSweeps`)
  when the rows are first judged; a price move refits the folds' cutoffs on those sweeps
  (`judged_rules.model_rule_cutoffs`, passed in as `cutoffs_of`) and prices the rows again. The
  costs are cross-fitted, as the count folds' are, and enter the rules table through `crossfit`.
- **A split.** The cutoffs fitted on the train rows are fixed; the test rows judge them.

The intervals (`WeightedJudgement.intervals`) are the weighted mean's fold-aware ones
(`row_crossfit.weighted_saving` with `jackknife`: the rows' delete-one jackknife variance, plus one
deal's variance across the deals, with a split there is one "deal" and the second part is 0; give
or take Student's t on Kish's effective number of rows less one, for weights that may be
heavy-tailed: `benchmarks/README.md`, "Costs & groups on weighted rows"): a rule's
cost, each group's, and its saving against the no-model choice, which the ship rule reads. The
per-group cutoffs' extra saving over one cutoff for everyone gets no interval here (issue 43,
`benchmarks/README.md`, "The other intervals": the rows' variance of that difference is too
narrow where the groups do not differ), so on weighted rows per-group cutoffs are recommended
only where one cutoff for everyone, cross-fitted, is the no-model choice on every judged row
(`RuleResults.paired`): there their extra saving is their saving against that choice, whose
interval is above.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from costlib.binary.folds import CrossFit
from costlib.binary.model_sweeps import WEIGHTED_ROWS, ModelSweeps, WeightedRows, pool
from costlib.binary.row_crossfit import (
    DEALS,
    FOLDS,
    CrossFitted,
    SubsetSweeps,
    stratified_folds,
    weighted_saving,
    weighted_savings,
)
from costlib.core import rules as R
from costlib.core.prices import Prices
from costlib.core.sweep import GroupedSweep, Sweep

FITTED = (R.SINGLE, R.COST_OPTIMAL)


def rows_of(ms: ModelSweeps) -> WeightedRows | None:
    """The weighted rows `sweep_model` kept on `ms`, or None (unweighted rows, or sweeps made
    elsewhere: a warehouse scan or an aggregate file, whose rows are not here)."""
    return ms.kept(WEIGHTED_ROWS, lambda: None)


def base_costs(y: np.ndarray, c_fp: np.ndarray, c_fn: np.ndarray, baseline: str, capacity: float | None) -> np.ndarray:
    """Each row's cost under the no-model choice `baseline` (its own group's prices `c_fp`,
    `c_fn`): flagging nobody misses the positives, flagging everyone alarms on the negatives, and
    flagging a share `capacity` at random costs the expected mixture of the two.

    >>> base_costs(np.array([True, False]), np.array([1.0, 1.0]), np.array([3.0, 3.0]), "flag at random", 0.25)
    array([2.25, 0.25])
    """
    share = {R.NOBODY: 0.0, R.EVERYONE: 1.0}.get(baseline, capacity if capacity is not None else 0.0)
    return np.where(y, (1.0 - share) * c_fn, share * c_fp)


@dataclass(frozen=True, eq=False)
class WeightedJudgement:
    """The fitted rules judged on the weighted rows at one price book.

    rows       the `model_sweeps.WeightedRows`
    judged     the judged rows' mask over all rows
    flagged    {rule: (deals, judged rows) booleans}: each deal's decision of each judged row
    crossfit   a `folds.CrossFit` of the weighted counts (no split), else None
    prices     the price book
    capacity   the review limit (None: no limit)
    fitted     whether every cutoff could be fitted (else every interval is NaN)
    """

    rows: WeightedRows
    judged: np.ndarray
    flagged: dict
    crossfit: CrossFit | None
    prices: Prices
    capacity: float | None
    fitted: bool = True  # False: a cutoff could not be fitted (a fold, or the train rows, held one class)

    def intervals(self, rule: str, baseline: str, groups: int) -> dict:
        """95% intervals of `rule` on the judged rows: ``cost`` (low, high) per case, ``by_group``
        (lows, highs) arrays over the `groups` groups, and ``vs`` (low, high) of its cost minus
        the no-model choice `baseline`'s (negative: it saves)."""
        if not self.fitted:
            nan = np.full(groups, np.nan)
            return {"cost": (np.nan, np.nan), "by_group": (nan, nan.copy()), "vs": (np.nan, np.nan)}
        r, m = self.rows, self.judged
        y, codes, w = r.y[m], r.codes[m], r.weight[m]
        c_fp = np.asarray(self.prices.c_fp, dtype=np.float64)[codes]
        c_fn = np.asarray(self.prices.c_fn, dtype=np.float64)[codes]
        flagged = self.flagged[rule]
        per_deal = np.where(flagged, np.where(y, 0.0, c_fp), np.where(y, c_fn, 0.0))
        fitted = CrossFitted(per_deal.mean(axis=0), per_deal)
        zero = np.zeros(y.size)
        one = np.zeros(y.size, dtype=np.int64)
        _, hi, lo = weighted_savings(zero, fitted, w, one, 1, jackknife=True)  # minus the cost
        _, highs, lows = weighted_savings(zero, fitted, w, codes, groups, jackknife=True)
        base = base_costs(y, c_fp, c_fn, baseline, self.capacity)
        _, save_lo, save_hi = weighted_saving(base, fitted, w, jackknife=True)
        return {"cost": (-float(lo[0]), -float(hi[0])), "by_group": (-lows, -highs), "vs": (-save_hi, -save_lo)}


def _fold_sweeps(ms: ModelSweeps, rows: WeightedRows, seed: int) -> list:
    """[(each fitting row's cell: its fold x the number of groups + its group, the `ModelSweeps`
    of each fold's other folds)] per deal: price-free, made on the first price book and kept
    on `ms`."""
    fit = np.ones(rows.y.size, dtype=bool) if rows.fit is None else rows.fit
    y, s, codes, w = rows.y[fit], rows.score[fit], rows.codes[fit], rows.weight[fit]
    k = len(ms.groups)
    members = [codes == g for g in range(k)]
    by_group = [SubsetSweeps(y[m], s[m], w[m]) for m in members]
    deals = []
    for d in range(DEALS):
        fold = stratified_folds(codes * 2 + y, FOLDS, np.random.default_rng([int(seed), d]))
        fitted = []
        for f in range(FOLDS):
            others = fold != f
            parts = [sw.sweep(others[m]) for sw, m in zip(by_group, members, strict=True)]
            sizes = np.array([p[0].size for p in parts])
            gs = GroupedSweep(
                ms.groups,
                np.concatenate(([0], np.cumsum(sizes))),
                *(np.concatenate([p[i] for p in parts]) for i in range(3)),
                np.array([p[3] for p in parts]),
                np.array([p[4] for p in parts]),
            )
            pooled: Sweep = pool(gs)
            fitted.append(
                ModelSweeps(ms.name, gs, gs, pooled, pooled, "all", ms.probabilities, weighted=True, grouped=ms.grouped)
            )
        deals.append((fold * k + codes, fitted))  # each row's (fold, group) cell, and the folds' sweeps
    return deals


def judge(
    ms: ModelSweeps,
    prices: Prices,
    cutoffs: dict,
    cutoffs_of: Callable[[ModelSweeps], dict],
    *,
    seed: int = 0,
    capacity: float | None = None,
) -> WeightedJudgement | None:
    """The fitted rules of `ms` judged on its weighted rows at `prices` (see the module
    docstring), or None when no rows are kept on it. `cutoffs` ({rule: cutoff per group}) are
    the rules fitted on all the fitting rows, which a split judges as they are; without one,
    `cutoffs_of(fold sweeps)` fits them again on each fold's other folds.

    Also None when judged rows are also fitting rows but not all of them are (rows handed to the
    sweeps so; no page does since `Dataset.purpose_rows` cross-fits a split without test rows on
    every row): holding the cutoffs fixed on rows that picked them
    would flatter them, so such rows get no interval here (a fresh-eyes simulation shipped noise in
    5 to 8% of data sets that way)."""
    rows = rows_of(ms)
    if rows is None:
        return None
    everyone = np.ones(rows.y.size, dtype=bool)
    judged = everyone if rows.judge is None else rows.judge
    s, codes = rows.score[judged], rows.codes[judged]
    if ms.judged_on != "all":
        fit = everyone if rows.fit is None else rows.fit
        if (fit & judged).any():
            return None
        cuts = {r: np.asarray(cutoffs[r], dtype=np.float64) for r in FITTED}
        flagged = {r: (s >= cut[codes])[None, :] for r, cut in cuts.items()}
        fitted = not any(np.isnan(cut).any() for cut in cuts.values())  # else: no interval
        return WeightedJudgement(rows, judged, flagged, None, prices, capacity, fitted)
    deals = ms.kept(("weighted folds", int(seed)), lambda: _fold_sweeps(ms, rows, seed))
    k = len(ms.groups)
    fits = [[cutoffs_of(fold_ms) for fold_ms in fitted] for _, fitted in deals]  # one refit per fold
    flagged, ok = {}, True
    for r in FITTED:
        cuts = np.array([[fit[r] for fit in deal] for deal in fits], dtype=np.float64)  # (deals, folds, groups)
        ok = ok and not np.isnan(cuts).any()
        flagged[r] = s >= np.stack([cuts[d].reshape(-1)[cell] for d, (cell, _) in enumerate(deals)])
    return WeightedJudgement(rows, judged, flagged, _counts(rows, judged, flagged, k, ok), prices, capacity, ok)


def _counts(rows: WeightedRows, judged: np.ndarray, flagged: dict, k: int, ok: bool) -> CrossFit:
    """The rules' weighted counts per group, each the mean over the deals, as `folds.CrossFit`."""
    y, codes, w = rows.y[judged], rows.codes[judged], rows.weight[judged]

    def counts(rule):
        share = flagged[rule].mean(axis=0)
        return {
            "tp": np.bincount(codes, weights=w * y * share, minlength=k),
            "fp": np.bincount(codes, weights=w * ~y * share, minlength=k),
            "fn": np.bincount(codes, weights=w * y * (1.0 - share), minlength=k),
        }

    return CrossFit(counts(R.SINGLE), counts(R.COST_OPTIMAL), ok)
