"""Cross-fitting on the rows themselves, for rows whose weights the sweeps' folds cannot deal.

`honest.judge` cross-fits by dealing a sweep's counts into folds, which needs whole counts: rows
of weight 1. Weighted rows (instance costs, where each row weighs its abs(delta)) are dealt
here instead, row by row: each deal splits the rows into `FOLDS` folds stratified by label, and
each fold is decided by the rule picked on the other folds (`pick`). Its figures follow the
fold-aware rule of `honest.row_se`: the per-row differences' variance of the weighted mean,
plus one deal's variance (not divided by the number of deals), because the rows' part leaves
out how the folds' picks move with the data.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from costlib.binary.honest import Z95

FOLDS = 5  # folds of each deal: each decided by a rule picked on the other four
DEALS = 3  # deals of the rows into folds; the estimate is their mean


def stratified_folds(labels: np.ndarray, folds: int, rng: np.random.Generator) -> np.ndarray:
    """The fold (0 .. folds - 1) of each row: within each label the rows are permuted and dealt
    round the folds, so every fold holds about the same share of each label.

    >>> f = stratified_folds(np.array([0, 0, 0, 0, 1, 1]), 2, np.random.default_rng(0))
    >>> sorted(np.bincount(f).tolist()), sorted(np.bincount(f[4:]).tolist())
    ([3, 3], [1, 1])
    """
    out = np.empty(labels.size, dtype=np.int64)
    for value in np.unique(labels):
        idx = np.flatnonzero(labels == value)
        out[idx[rng.permutation(idx.size)]] = np.arange(idx.size) % folds
    return out


@dataclass(frozen=True)
class CrossFitted:
    """Per-row costs of a rule judged by picks made without each row's fold.

    cost        the rows' cross-fitted cost, each the mean over the deals
    deals       (deals, rows) each deal's per-row cost
    """

    cost: np.ndarray
    deals: np.ndarray


def cross_fit(
    pick: Callable[[np.ndarray], Callable[[np.ndarray], np.ndarray]],
    labels: np.ndarray,
    cost_of: Callable[[np.ndarray, np.ndarray], np.ndarray],
    *,
    folds: int = FOLDS,
    deals: int = DEALS,
    seed: int = 0,
) -> CrossFitted:
    """Cross-fit `pick` over the rows: ``pick(fit)`` (a boolean mask of the rows to pick on)
    returns ``decide(rows)``, the decisions (booleans) on the rows of a mask; ``cost_of(rows,
    decisions)`` prices them per row. Deal `d` of `seed` is ``default_rng([seed, d])``."""
    labels = np.asarray(labels)
    n = labels.size
    per_deal = np.zeros((deals, n), dtype=np.float64)
    for d in range(deals):
        fold = stratified_folds(labels, folds, np.random.default_rng([int(seed), d]))
        for f in range(folds):
            out = fold == f
            if not out.any():
                continue
            decide = pick(~out)
            per_deal[d, out] = cost_of(out, decide(out))
    return CrossFitted(per_deal.mean(axis=0), per_deal)


def weighted_saving(base: np.ndarray, fitted: CrossFitted, weights: np.ndarray, *, jackknife: bool = False) -> tuple:
    """(saving, low, high) of the weighted mean per-row cost of `base` (a no-model choice's,
    per row) minus the cross-fitted rule's: the saving +- `honest.Z95` fold-aware standard errors
    (the ratio estimator's variance from its rows, plus the deals' variance of their savings).

    Four rows of weight 1, 2, 1, 2; the rule saves 1 on the second and fourth (one deal):
    saving 4/6, rows' variance sum(w^2 (D - 2/3)^2) / 6^2 x 4/3 = 1.7778 / 36 x 4/3 = 0.0658, se 0.2566:

    >>> cf = CrossFitted(np.array([1.0, 0.0, 0.0, 0.0]), np.array([[1.0, 0.0, 0.0, 0.0]]))
    >>> [round(x, 4) for x in weighted_saving(np.array([1.0, 1.0, 0.0, 1.0]), cf, np.array([1.0, 2.0, 1.0, 2.0]))]
    [0.6667, 0.1637, 1.1696]

    `jackknife`: the rows' part is their delete-one jackknife variance instead, and the quantile
    Student's t on Kish's effective number of rows less one (`weighted_savings`). Left out in turn,
    the rows' savings are 4/5, 2/4, 4/5, 2/4: variance 3/4 x 4 x 0.15^2 = 0.0675, se 0.2598; Kish's
    rows 6^2 / 10 = 3.6, t on 2.6 degrees of freedom 3.4782:

    >>> base, w = np.array([1.0, 1.0, 0.0, 1.0]), np.array([1.0, 2.0, 1.0, 2.0])
    >>> [round(x, 4) for x in weighted_saving(base, cf, w, jackknife=True)]
    [0.6667, -0.237, 1.5703]
    """
    w = np.asarray(weights, dtype=np.float64)
    zeros = np.zeros(w.size, dtype=np.int64)
    saving, low, high = weighted_savings(base, fitted, w, zeros, 1, jackknife=jackknife)
    return float(saving[0]), float(low[0]), float(high[0])


def weighted_savings(
    base: np.ndarray, fitted: CrossFitted, weights: np.ndarray, codes: np.ndarray, k: int, *, jackknife: bool = False
) -> tuple:
    """`weighted_saving` of each of `k` parts of the rows at once (`codes`: each row's part):
    (savings, lows, highs), arrays of `k`; NaN for a part of fewer than 2 rows of weight above 0.
    A row of weight 0 counts for nothing, in the sums and in the count of rows alike.

    `jackknife` (rows whose weights may be heavy-tailed: `weighted_rows`): the rows' part of the
    variance is the delete-one jackknife's, ``(n - 1) / n sum((s_i - mean s_i)^2)`` with `s_i` the
    part's weighted mean without row `i` (a heavy row left out moves it as far as it weighs: the
    linearised variance reads that row's weight share as if it were small), and the quantile is
    Student's t on ``n_eff - 1`` degrees of freedom, ``n_eff = sum(w)^2 / sum(w^2)`` (Kish's
    effective number of rows; at least 1 degree of freedom) instead of `honest.Z95`. With equal
    weights the jackknife's variance is the linearised one; the t quantile is 1.9636 at 651
    effective rows. Chosen by simulation (`benchmarks/README.md`, "Costs & groups on weighted rows")."""
    w = np.asarray(weights, dtype=np.float64)
    diff = np.asarray(base, dtype=np.float64) - fitted.cost
    total = np.bincount(codes, weights=w, minlength=k)
    n = np.bincount(codes, weights=(w > 0).astype(np.float64), minlength=k)
    usable = (n >= 2) & (total > 0)
    total_ = np.where(usable, total, 1.0)
    n_1 = np.where(usable, n - 1, 1.0)
    summed = np.bincount(codes, weights=w * diff, minlength=k)
    saving = summed / total_
    spread = w * (diff - saving[codes])
    quantile = np.full(k, Z95)
    if jackknife:  # row i left out moves the mean by spread_i / (total - w_i); a row of weight 0 by 0
        rest = (total_[0] if k == 1 else total_[codes]) - w  # 0 only in a part of one weighted row (NaN)
        moved = spread / np.where(rest > 0, rest, 1.0)
        n_ = np.where(usable, n, 1.0)
        centre = _sums(codes, moved, k) / n_
        rows = np.maximum(_sums(codes, moved, k, square=True) - n_ * centre**2, 0.0) * n_1 / n_
        from scipy.special import stdtrit

        squares = _sums(codes, w, k, square=True)
        kish = total_**2 / np.where(squares > 0, squares, 1.0)
        quantile = stdtrit(np.maximum(kish - 1.0, 1.0), 0.975)
    else:
        rows = np.bincount(codes, weights=spread * spread, minlength=k) / total_**2 * n / n_1
    deals = fitted.deals
    between = np.zeros(k)
    if deals.shape[0] > 1:
        per_deal = np.stack([np.bincount(codes, weights=w * (base - d), minlength=k) for d in deals]) / total_
        between = np.var(per_deal, axis=0, ddof=1)
    half = quantile * np.sqrt(rows + between)
    nan = np.where(usable, 1.0, math.nan)
    return saving * nan, (saving - half) * nan, (saving + half) * nan


def _sums(codes: np.ndarray, values: np.ndarray, k: int, *, square: bool = False) -> np.ndarray:
    """Each part's sum of `values` (or of their squares): a plain sum when there is one part."""
    if k == 1:
        return np.array([np.sum(values * values) if square else values.sum()])
    return np.bincount(codes, weights=values * values if square else values, minlength=k)


class SubsetSweeps:
    """The exact sweep (`core.sweep.sweep_arrays`: thresholds descending after +inf, cumulative
    tp and fp, the positives and negatives) of any subset of one set of rows, from one sort.

    The rows are sorted once by score, descending; a subset's sweep is then two cumulative sums
    over the rows in that order, read at the end of each block of equal scores the subset holds:
    no sort per fold. Rows of weight 0 are left out, as `sweep_arrays` leaves them out.
    """

    def __init__(self, labels: np.ndarray, scores: np.ndarray, weights: np.ndarray | None = None):
        s = np.asarray(scores, dtype=np.float64)
        self.order = np.argsort(-s, kind="stable")
        ordered = s[self.order]
        y = np.asarray(labels, dtype=bool)[self.order]
        w = np.ones(s.size) if weights is None else np.asarray(weights, dtype=np.float64)[self.order]
        self.pos, self.neg, self.counted = np.where(y, w, 0.0), np.where(y, 0.0, w), w > 0
        self.ends = np.flatnonzero(np.append(ordered[1:] != ordered[:-1], True))  # each block's last row
        self.descending = ordered[self.ends] + 0.0  # no -0.0, as sweep_arrays

    def sweep(self, rows: np.ndarray) -> tuple:
        """(thresholds, tp, fp, positives, negatives) of the rows of the boolean mask `rows`."""
        keep = np.asarray(rows, dtype=bool)[self.order]
        held = np.cumsum(keep & self.counted)[self.ends]
        held = np.diff(held, prepend=0) > 0  # the blocks the subset has a counted row in
        tp = np.concatenate(([0.0], np.cumsum(np.where(keep, self.pos, 0.0))[self.ends][held]))
        fp = np.concatenate(([0.0], np.cumsum(np.where(keep, self.neg, 0.0))[self.ends][held]))
        thresholds = np.concatenate(([np.inf], self.descending[held]))
        return thresholds, tp, fp, float(tp[-1]), float(fp[-1])
