"""Honest estimates: a cutoff chosen on data is judged on data it has not seen.

Picking the cheapest of every distinct score (and one per group) makes noise look like a
saving when the same rows pick and judge. Three things keep it out of every answer; `judge`
puts them together for one model at one price book:

- **Cross-fitting** (no split column, `binary.folds`): each of `CROSS_FOLDS` folds is judged by
  the cutoffs fitted on the other folds, at full resolution; the estimate is the mean over
  independent deals of the rows into folds (`repeated_cross_fit`).
- **The single cutoff's saving's interval** (no split, here): the estimate +- 1.96 fold-aware standard errors
  (`row_se`: the per-row differences' standard error read off the cross-fit's counts, plus the
  variance of one deal's estimate, `at_least_rows`), under a review limit too (against flagging
  at random, each row's expected cost), at least as wide as how far the single cutoff fitted on
  all rows moves with them (`refit_moves.single_cutoff_moves`, held `AT_LEAST`: without signal it
  covered 86 to 89% before). Chosen by simulation (issue 43,
  `benchmarks/honest.py --simulate`): it covers 93 to 97% at 2,000 rows, is 0.9 to 1.1 times the
  ideal width, and ships a model that pays about as often as a plain cross-fitted Wald interval;
  the bootstrap was 1.15 to 1.3 times the ideal where the signal is weak, and out-of-bag
  refits (judged on the ~37% of rows their resample left out) 1.3 to 1.5 times.
- **A refit bootstrap** (`binary.refits`) for the other intervals and for every interval with a
  split, so that the luck of the pick is inside them. Without a split, each group's cost, the
  per-group extra saving and the per-group cutoffs' saving against the no-model choice take the
  rows' variance plus 0.632 of what the bootstrap adds to it (`shrunk_intervals`,
  `group_cost_intervals`, `gain_rows_variance`, `row_variance`): a group's own cutoff moves
  with the data more than one deal's noise says (issue 43, `benchmarks/README.md`).

Deals, folds and draws do not depend on the prices: they are made once per model and cached on
it, and a price move only reweights them.

The folds' and refits' names are read here too (`honest.make_folds`, `honest.price_refits`, ...):
their callers reach them through this module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from costlib.binary.folds import (
    CROSS_FOLDS,
    FOLDS,
    MIN_CLASS_ROWS,
    SPLITS,
    CrossFit,
    Folds,
    cross_fit,
    deal_shape,
    dealt_folds,
    integer_counts,
    make_folds,
    own_cutoff,
    pooled_groups,
    repeated_cross_fit,
)
from costlib.binary.refit_moves import BOOT_SHARE, single_cutoff_moves
from costlib.binary.refits import (
    MAX_CELLS,
    RefitDraws,
    Refits,
    _cumulate,
    cell_counts,
    cell_edges,
    cost_at,
    fold_draws,
    poisson_cells,
    price_fold_refits,
    price_refits,
    refit_draws,
)
from costlib.core.prices import Prices

__all__ = [  # the judge's, and the folds' and refits' names their callers read here
    "CROSS_FITTED",
    "CROSS_FOLDS",
    "FOLDS",
    "MAX_CELLS",
    "MIN_CLASS_ROWS",
    "SAME_ROWS",
    "SPLITS",
    "TEST",
    "Z95",
    "CrossFit",
    "Folds",
    "Honest",
    "RefitDraws",
    "Refits",
    "_cumulate",
    "at_least_rows",
    "gain_rows_variance",
    "group_cost_intervals",
    "mean_variance",
    "cell_counts",
    "cell_edges",
    "cost_at",
    "cross_fit",
    "deal_shape",
    "integer_counts",
    "judge",
    "make_folds",
    "own_cutoff",
    "poisson_cells",
    "pooled_groups",
    "price_refits",
    "refit_draws",
    "row_se",
    "row_variance",
    "shrunk_intervals",
]

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile


def picked_z(models: int) -> float:
    """The normal quantile of a saving's 95% interval when its model was picked as the cheapest of
    `models` on the rows it is judged on (no split: with one, the train rows pick it and the test
    rows judge it): Phi^-1(1 - 0.025 / models) (Bonferroni), `Z95` for one model.

    Each model's interval holds the luck of picking its cutoffs; picking the model too is one more
    pick. On scores without signal, picking the cheapest of 3 or 5 models shipped 2.5% of data
    sets where the bar is 1 in 40, and of 10, 7 to 9% (a fresh-eyes review, 2026-12-06).

    >>> round(picked_z(1), 4), round(picked_z(2), 4), round(picked_z(5), 4)
    (1.96, 2.2414, 2.5758)
    """
    if models <= 1:
        return Z95
    from scipy.special import ndtri

    return float(ndtri(1.0 - 0.025 / models))


def hold_the_pick(estimate: float, low: float, high: float, models: int) -> tuple[float, float]:
    """The 95% interval (`low`, `high`) of a saving or gain whose model was picked as the best of
    `models` on the rows it is judged on, widened about `estimate` by ``picked_z(models) / Z95``
    (the one widening of Costs & groups' cheapest model and the Value page's best one; never
    narrower: an interval not about its estimate keeps its ends). Unchanged for one model.

    >>> hold_the_pick(0.1, 0.05, 0.2, 1)
    (0.05, 0.2)
    >>> [round(x, 4) for x in hold_the_pick(0.1, 0.05, 0.2, 5)]
    [0.0343, 0.2314]
    """
    if models <= 1:
        return low, high
    widen = picked_z(models) / Z95
    return min(low, estimate - (estimate - low) * widen), max(high, estimate + (high - estimate) * widen)


def mean_variance(first, second, n):
    """The variance of the mean of `n` rows from the sums of their values (`first`) and of their
    squares (`second`): the rows' sample variance over `n`; NaN for fewer than two rows. The rows'
    values are read off counts (so many rows cost c_fp, so many c_fn), so the sums are what is
    known, not the rows (`row_se`, `group_cost_intervals`).

    >>> round(float(mean_variance(-5.0, 19.0, 6.0)), 4)  # -3, -3, +1, 0, 0, 0
    0.4944
    """
    first, second, n = (np.asarray(x, dtype=np.float64) for x in (first, second, n))
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = first / n
        return np.where(n > 1, np.maximum(second / n - mean * mean, 0.0) * n / (n - 1) / n, np.nan)


def row_se(counts: dict, baseline: str, prices: Prices, n: np.ndarray, capacity: float | None = None) -> float:
    """The fold-aware standard error of a cross-fitted rule's cost per case minus the no-model
    `baseline`'s: the per-row differences' variance of the mean (`row_variance`) and the noise
    of one deal of the rows into folds (the variance of the deals' costs per case,
    ``counts["splits"]``, when there are two or more). `counts` holds ``tp, fp, fn`` per group
    (the mean over the deals), `n` the groups' rows; NaN where `row_variance` is.

    The deals' variance is not divided by their number: the rows' part leaves out how the
    folds' cutoffs move with the data, and one deal's noise stands for it (chosen by
    simulation, issue 43: `benchmarks/README.md`). The single cutoff's saving takes it; the
    per-group cutoffs', whose own cutoffs move more, take `shrunk_intervals` of `row_variance`.

    Six rows, two true positives, a false positive, a false negative, prices 1 and 3, against
    flagging nobody: differences -3, -3, +1, 0, 0, 0 (mean -5/6, sample variance 2.9667, the
    variance of the mean 2.9667 / 6 = 0.4944); two deals that cost 0.1 and 0.3 a case add their
    variance 0.02 (sqrt(0.5144) = 0.7172):

    >>> p = Prices(("everyone",), np.array([1.0]), np.array([3.0]))
    >>> counts = {"tp": np.array([2.0]), "fp": np.array([1.0]), "fn": np.array([1.0])}
    >>> round(row_se(counts, "flag nobody", p, np.array([6.0])), 4)
    0.7032
    >>> round(row_se({**counts, "splits": np.array([0.1, 0.3])}, "flag nobody", p, np.array([6.0])), 4)
    0.7172

    Against flagging half the cases at random (a review limit of 0.5): -1.5, -1.5, +0.5, +1.5,
    -0.5, -0.5 (sample variance 1.3667, over 6 rows 0.2278):

    >>> round(row_se(counts, "flag at random", p, np.array([6.0]), capacity=0.5), 4)
    0.4773
    """
    rows = row_variance(counts, baseline, prices, n, capacity)
    splits = np.asarray(counts.get("splits", ()), dtype=np.float64)
    between = float(np.var(splits, ddof=1)) if splits.size > 1 else 0.0
    return math.sqrt(rows + between)


def row_variance(counts: dict, baseline, prices: Prices, n: np.ndarray, capacity: float | None = None) -> float:
    """The variance, from its rows alone, of a cross-fitted rule's cost per case minus the
    no-model `baseline`'s: that of the mean of the per-row differences (each row: what the
    rule's cutoff fitted without it costs on it minus what the baseline costs on it), read off
    the cross-fit's counts ``tp, fp, fn`` per group (`counts`, the mean over the deals) of the
    groups' `n` rows. Under a baseline that flags a share `capacity` at random, each row's
    baseline cost is its expected one (what `judged_rules.evaluate_rules` charges it); NaN
    under that baseline without a `capacity`, and for fewer than two rows. `baseline` may also be
    each group's share flagged at random, 0 nobody and 1 everyone (deciding by group alone,
    `group_alone.shares`).

    Against flagging nobody a true positive differs by -c_fn, a false positive by +c_fp; against
    flagging everyone a false negative by +c_fn, a true negative by -c_fp; other rows by 0. Read
    off mean counts, it is the mean of the deals' (about: the mean's square is that of the mean
    deal). Against flagging a share c at random a true positive differs by -(1 - c) c_fn, a
    false negative by +c c_fn, a false positive by +(1 - c) c_fp and a true negative by -c c_fp.

    The six rows of `row_se`'s example: 2.9667 / 6.

    >>> p = Prices(("everyone",), np.array([1.0]), np.array([3.0]))
    >>> counts = {"tp": np.array([2.0]), "fp": np.array([1.0]), "fn": np.array([1.0])}
    >>> round(row_variance(counts, "flag nobody", p, np.array([6.0])), 4)
    0.4944
    """
    from costlib.core import rules as R

    tp, fp, fn = (np.asarray(counts[k], dtype=np.float64) for k in ("tp", "fp", "fn"))
    tn = np.asarray(n, dtype=np.float64) - tp - fp - fn
    if not isinstance(baseline, str):  # each group's share flagged at random (deciding by group alone)
        f = np.asarray(baseline, dtype=np.float64)
        parts = (
            (tp, -(1 - f) * prices.c_fn),
            (fn, f * prices.c_fn),
            (fp, (1 - f) * prices.c_fp),
            (tn, -f * prices.c_fp),
        )
    elif baseline == R.NOBODY:
        parts = ((tp, -prices.c_fn), (fp, prices.c_fp))
    elif baseline == R.EVERYONE:
        parts = ((fn, prices.c_fn), (tn, -prices.c_fp))
    elif baseline == R.AT_RANDOM and capacity is not None:
        c = float(capacity)
        parts = (
            (tp, -(1 - c) * prices.c_fn),
            (fn, c * prices.c_fn),
            (fp, (1 - c) * prices.c_fp),
            (tn, -c * prices.c_fp),
        )
    else:
        return float("nan")
    total = float(np.sum(n))
    if not total > 1:
        return float("nan")
    first = sum(float(np.sum(k * v)) for k, v in parts)
    second = sum(float(np.sum(k * v * v)) for k, v in parts)
    return float(mean_variance(first, second, total))


def at_least_rows(estimate: float, low: float, high: float, se: float) -> tuple[float, float]:
    """The interval of a cross-fitted saving: ``estimate +- Z95 * se`` with `se` its fold-aware
    standard error (`row_se`); (low, high), the bootstrap's, when `se` is NaN (no per-row
    difference to read).

    Chosen by simulation (issue 43, `benchmarks/README.md`): the bootstrap of the cross-fitted
    estimate over-disperses (its refits' argmin over a step function moves more than the folds'
    cutoffs do) and was 1.15 to 1.2 times the ideal width where the signal is weak; the
    fold-aware interval about the mean of ten deals covers 93 to 96% at 2,000 rows and ships
    what the plain cross-fitted Wald interval ships. Under a review limit, against flagging at
    random, the bootstrap was 0.53 times the ideal width and covered 71% at 2,000 rows and AUC
    0.96 (its refits flag exactly the limit on the rows they are judged on, so how far the
    shipped cutoff's true share strays from it is not in them); this one covers 92 to 97%. The
    groups' costs, the per-group extra saving and the per-group cutoffs' saving take
    `shrunk_intervals`.

    >>> [round(x, 4) for x in at_least_rows(0.1, 0.0, 0.3, 0.05)]
    [0.002, 0.198]
    >>> at_least_rows(0.1, 0.0, 0.3, float("nan"))
    (0.0, 0.3)
    """
    if not math.isfinite(se):
        return low, high
    return estimate - Z95 * se, estimate + Z95 * se


def group_cost_intervals(cost, low, high, fp, fn, n, c_fp, c_fn) -> tuple[np.ndarray, np.ndarray]:
    """The 95% intervals of the groups' cross-fitted costs per case `cost`: `shrunk_intervals` of
    the refit bootstrap's centred intervals (`low`, `high`) and each group's variance from its
    rows alone (each row costs `c_fp` as a false positive, `c_fn` as a false negative, 0
    otherwise: read off the cross-fit's mean counts `fp`, `fn` of its `n` rows). A group whose
    rows' variance cannot be read keeps the bootstrap's interval.

    Why (issue 43, `benchmarks/README.md`, "The other intervals"): the rows' variance leaves out
    how the shipped cutoffs move with the data; the refit bootstrap sees that but overstates it,
    because a resample holds only about 63% of the distinct rows, so its refitted cutoffs move
    more than the shipped ones do. By simulation the bootstrap was 0.99 to 1.14 times the ideal
    width at 2,000 rows (1.07 to 1.32 at 300); this is 0.95 to 1.09 (1.02 to 1.21) and covers
    94 to 97%.

    Ten rows, one false positive and one false negative at prices 1 and 3: costs 1, 3 and eight
    0, mean 0.4, rows' variance (1.0 - 0.16) / 9 = 0.0933; a bootstrap of half width 1.96 x 0.5
    (variance 0.25) gives 0.0933 + 0.632 x 0.1567 = 0.1924, se 0.4386:

    >>> lo, hi = group_cost_intervals(
    ...     np.array([0.4]), np.array([0.4 - Z95 * 0.5]), np.array([0.4 + Z95 * 0.5]),
    ...     np.array([1.0]), np.array([1.0]), np.array([10.0]), np.array([1.0]), np.array([3.0]))
    >>> round(float(hi[0] - 0.4) / Z95, 4)
    0.4386
    """
    cost, low, high, fp, fn, n = (np.asarray(x, dtype=np.float64) for x in (cost, low, high, fp, fn, n))
    c_fp, c_fn = np.asarray(c_fp, dtype=np.float64), np.asarray(c_fn, dtype=np.float64)
    rows = mean_variance(c_fp * fp + c_fn * fn, c_fp * c_fp * fp + c_fn * c_fn * fn, n)
    return shrunk_intervals(cost, low, high, rows)


def shrunk_intervals(estimate, low, high, rows) -> tuple[np.ndarray, np.ndarray]:
    """The 95% intervals of cross-fitted estimates whose refitted cutoffs move with the data:
    ``estimate +- Z95 * se`` with ``se**2 = rows + BOOT_SHARE * max(boot - rows, 0)``, where
    `rows` is the variance of each estimate from its rows alone and ``boot`` the refit
    bootstrap's, read from its centred interval (`low`, `high`) as ``((high - low) / (2 Z95))**2``
    (`judged_rules.centred_interval`'s reading). Where `rows` or the estimate is not finite, the
    bootstrap's interval stays. One rule for each group's cost (`group_cost_intervals`), the
    per-group extra saving (`gain_rows_variance`) and the per-group cutoffs' saving against the
    no-model choice (`row_variance`).

    A bootstrap variance of 0.02 and rows' 0.01 give 0.01 + 0.632 x 0.01, se 0.1278; a bootstrap
    narrower than the rows gives the rows' own, se 0.1:

    >>> lo, hi = shrunk_intervals(
    ...     np.array([0.0, 0.0]), -Z95 * np.sqrt([0.02, 0.005]), Z95 * np.sqrt([0.02, 0.005]), np.array([0.01, 0.01]))
    >>> [round(float(x) / Z95, 4) for x in hi]
    [0.1278, 0.1]
    """
    estimate, low, high, rows = (np.asarray(x, dtype=np.float64) for x in (estimate, low, high, rows))
    with np.errstate(invalid="ignore"):
        boot = np.square((high - low) / (2 * Z95))
        se = np.sqrt(rows + BOOT_SHARE * np.maximum(boot - rows, 0.0))
    ok = np.isfinite(se) & np.isfinite(estimate)
    return np.where(ok, estimate - Z95 * se, low), np.where(ok, estimate + Z95 * se, high)


def gain_rows_variance(gain: float, between: dict | None, n: float, prices: Prices) -> float:
    """The variance, from its rows alone, of the cross-fitted per-group extra saving `gain` (the
    single cutoff's cost per case minus the per-group cutoffs', over `n` rows): only a row between
    a fold's two cutoffs is judged differently by the two rules, a positive by c_fn, a negative
    by c_fp (its group's prices), so the per-row differences' squares are read off the cross-fit's
    counts of those rows (`CrossFit.between`). NaN when the cross-fit did not keep them.

    Its interval is `shrunk_intervals` of it (issue 43, `benchmarks/README.md`, "The other
    intervals"): the rows' variance alone cannot see how the shipped cutoffs move with the data,
    and the refit bootstrap overstates it.

    Ten rows, one positive between the cutoffs at prices 1:3 (the per-group cutoff flags it and
    saves 3): gain 0.3, mean square 0.9, (0.9 - 0.09) x 10 / 9 / 10 = 0.09:

    >>> from costlib.core.prices import prices_for
    >>> between = {"pos": np.array([1.0]), "neg": np.array([0.0])}
    >>> round(gain_rows_variance(0.3, between, 10.0, prices_for(("a",), (1, 3))), 4)
    0.09
    """
    if between is None:
        return math.nan
    c_fp, c_fn = np.asarray(prices.c_fp, dtype=np.float64), np.asarray(prices.c_fn, dtype=np.float64)
    square = float(np.sum(c_fn * c_fn * between["pos"] + c_fp * c_fp * between["neg"]))
    return float(mean_variance(gain * n, square, n))


# ---------------------------------------------------------------------------------------
# One model's honest judgement at one price book

CROSS_FITTED, TEST, SAME_ROWS = "cross-fitted", "test", "same rows"


@dataclass(frozen=True, eq=False)
class Honest:
    """How the fitted rules of one model are judged at one price book.

    estimate   CROSS_FITTED (no split: every row judged by cutoffs fitted without it), TEST
               (a split: fitted on train, judged on test) or SAME_ROWS (weighted rows without
               a split and without their rows: sweeps made elsewhere, or no resamples; no
               honest estimate exists here, and the answer says so)
    crossfit   `CrossFit` (for CROSS_FITTED), else None
    refits     `Refits` of the refit bootstrap, or None (no intervals)
    capacity   the review limit the rules were fitted within (None: no limit)
    rows       weighted rows judged row by row (`weighted_rows.WeightedJudgement`: its
               `crossfit`, without a split, is this one's), else None
    models     how many models the recommended one is picked from (`picked_z` widens the
               fitted rules' intervals against the baseline by the pick)
    moves      how far the single cutoff fitted on all rows moves with them, a variance per case
               (`refit_moves.single_cutoff_moves`; 0 where the estimate is not cross-fitted)
    """

    estimate: str
    crossfit: CrossFit | None
    refits: Refits | None
    capacity: float | None = None
    rows: object | None = None
    models: int = 1
    moves: float = 0.0


def fitting_folds(ms, seed: int = 0):
    """The one deal of `ms`'s fitting rows into `folds.FOLDS` stratified folds for `seed`
    (`folds.make_folds`), made on the first call and cached on `ms`: the refit bootstrap's folds
    here, and the folds the fairness rules are cross-fitted on (`fairness.fairness_results`), so
    that an audit deals its fitting rows once for both."""
    return ms.kept(
        ("honest folds", int(seed)), lambda: make_folds(ms.fit, ms.fit_pooled, ms.pooled_index("fit"), seed=seed)
    )


def _deals(ms, index: np.ndarray, seed: int) -> tuple:
    """The cross-fitted estimate's deals of the fitting rows (`folds.dealt_folds`); on a sweep so
    large that it is one deal of `FOLDS` folds (`folds.deal_shape`), that deal is `fitting_folds`'
    (the same `make_folds`, dealt once for the estimate, the bootstrap and the fairness rules)."""
    if deal_shape(ms.fit) == (FOLDS, 1):
        return (fitting_folds(ms, seed),)
    return dealt_folds(ms.fit, ms.fit_pooled, index, seed=seed)


def judge(
    ms, prices: Prices, *, n_resamples: int, seed: int = 0, capacity: float | None = None, once: bool = False
) -> Honest:
    """The honest judgement of `ms` (a `ModelSweeps`): folds and draws are made on the first
    call and cached on `ms`; later price books (and caps) only reweight them. `once`: `ms` is
    judged at this price book only (`repeated_cross_fit` once: the same numbers, sooner)."""
    counted = ms.kept(
        ("honest counted",),
        lambda: not ms.weighted and integer_counts(ms.fit) and (ms.judged_on == "all" or integer_counts(ms.judge)),
    )
    crossfit = None
    if ms.judged_on == "all":
        if not counted:
            return Honest(SAME_ROWS, None, None, capacity)
        index = ms.pooled_index("fit")
        deals = ms.kept(("honest deals", int(seed)), lambda: _deals(ms, index, seed))
        crossfit = repeated_cross_fit(ms.fit, ms.fit_pooled, index, deals, prices, capacity, once=once)
    estimate = CROSS_FITTED if crossfit is not None else TEST
    refits = None
    if n_resamples and counted and crossfit is not None:
        folds = fitting_folds(ms, seed)
        draws = ms.kept(
            ("honest fold draws", int(n_resamples), int(seed)),
            lambda: fold_draws(ms.fit, ms.fit_pooled, folds, n_resamples=n_resamples, seed=seed),
        )
        refits = price_fold_refits(draws, prices, capacity)
        moves = single_cutoff_moves(ms, prices, capacity=capacity, seed=seed)
        return Honest(estimate, crossfit, refits, capacity, moves=moves)
    elif n_resamples and counted:
        draws = ms.kept(
            ("honest draws", int(n_resamples), int(seed)),
            lambda: refit_draws(ms.fit, ms.judge, ms.fit_pooled, n_resamples=n_resamples, seed=seed),
        )
        refits = price_refits(draws, prices, capacity)
    return Honest(estimate, crossfit, refits, capacity)
