"""The one kernel: an exact threshold sweep by sorting once and taking cumulative sums.

Every curve in costlib (cost against threshold, value against the confidence threshold, NEC against threshold, the
per-group curves) is this sweep with different labels, weights and prices. Index j of a sweep means "flag every case
with score >= thresholds[j]":

- ``thresholds[0]`` is ``+inf``: nobody is flagged, ``tp[0] == fp[0] == 0``;
- ``thresholds[1:]`` are the distinct scores in descending order, so the last entry flags
  everybody. Between two distinct scores nothing changes: these are all possible rules.

How it is computed (measured: ``benchmarks/``): the positives' and the negatives' scores are sorted separately
(negated, so ascending order is descending score; weighted: argsort, cumulative weights), the two sorted runs are
merged by rank (the smaller class's elements are placed by one ``searchsorted`` into the other), ties are collapsed
with a "value changes here" mask, and the counts are cumulative sums read at the end of each block of equal scores, in
chunks so that temporaries stay small. Only ``thresholds``, ``tp`` and ``fp`` are stored (``fn``, ``tn`` derived).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from costlib.core import validation as v
from costlib.core.prices import mistakes_cost


@dataclass(frozen=True, eq=False)
class Sweep:
    """Weighted confusion counts at every distinct threshold (see the module docstring).

    >>> s = threshold_sweep([0, 1, 1], [0.2, 0.2, 0.9])
    >>> s.thresholds.tolist(), s.tp.tolist(), s.fp.tolist()
    ([inf, 0.9, 0.2], [0.0, 1.0, 2.0], [0.0, 0.0, 1.0])
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    positives: float
    negatives: float

    @property
    def fn(self) -> np.ndarray:
        return self.positives - self.tp

    @property
    def tn(self) -> np.ndarray:
        return self.negatives - self.fp

    @property
    def total(self) -> float:
        return self.positives + self.negatives

    @property
    def lowest_score(self) -> float | None:
        """The lowest score (``thresholds[-1]``; a cutoff there flags everyone), None without a
        score: where the words say "flag everyone" instead of a cutoff."""
        return float(self.thresholds[-1]) if self.thresholds.size > 1 else None

    @property
    def flagged(self) -> np.ndarray:
        return self.tp + self.fp

    def index_at(self, threshold) -> np.ndarray | int:
        """Index j of the sweep that a cutoff `threshold` selects (flag iff score >= it).

        Vectorised over `threshold`; a cutoff between two scores selects the same cases as
        the next distinct score above it.
        """
        t = np.asarray(threshold, dtype=np.float64)
        # thresholds is descending: count the entries >= t, minus one (index 0 is +inf).
        idx = np.searchsorted(-self.thresholds, -t, side="right") - 1
        idx = np.maximum(idx, 0)
        return int(idx) if idx.ndim == 0 else idx

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"threshold": self.thresholds, "tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn})

    # -- pricing: every price-dependent number is read off the cached counts here --------

    def errors_cost(self, c_fp, c_fn) -> np.ndarray:
        """Total price of the mistakes, ``FP * c_fp + FN * c_fn``, at every threshold."""
        return mistakes_cost(self.fp, self.fn, c_fp, c_fn)

    def cost(self, c_fp, c_fn) -> np.ndarray:
        """Cost per case at every threshold; NaN (with a warning) when the total weight is 0.

        >>> threshold_sweep([0, 1, 1], [0.2, 0.2, 0.9]).cost(1, 3).tolist()
        [2.0, 1.0, 0.3333333333333333]
        """
        if self.total <= 0:
            v.warn_degenerate("total case weight is 0: cost per case is NaN")
            return np.full(self.thresholds.shape, np.nan)
        return self.errors_cost(c_fp, c_fn) / self.total

    def best(self, c_fp, c_fn) -> int:
        """Index of the cheapest threshold under the one tie rule (`best_indices`); -1 when there
        is none.

        Ties go to the larger threshold: the cheapest cutoff when a false alarm is priced a
        relative `TIE_TOLERANCE` (1e-12) dearer, of those the larger threshold. One class only
        (no positive or no negative weight) has no threshold to fit: -1 and a `DegenerateWarning`.

        Same answer as `best_indices`, without building the `Hull` when it is not needed: if
        one cutoff is cheaper than every other by more than `CLEAR_WIN` of the cost scale
        (``c_fp N + c_fn P``), far more than the tie rule or rounding can move, no rule is
        needed and it is the answer (one pass over the costs); otherwise the hull decides.
        """
        if self.positives <= 0 or self.negatives <= 0:
            v.warn_degenerate(
                f"only one class present (positives weight {self.positives:g}, negatives weight "
                f"{self.negatives:g}): no threshold to fit; NaN"
            )
            return -1
        if "hull" not in self.__dict__:  # no hull yet: a clear winner does not need one
            cost = self.errors_cost(c_fp, c_fn)
            scale = c_fp * self.negatives + c_fn * self.positives
            near = np.flatnonzero(cost <= cost.min() + CLEAR_WIN * scale)
            if near.size == 1:
                return int(near[0])
        return int(best_indices(self, c_fp, c_fn))

    @cached_property
    def hull(self) -> Hull:
        """The `Hull` of this sweep's (flagged, tp) points, computed on first use and kept: every
        price reads it with one binary search."""
        return hull_of(self.tp, self.fp)

    def rate(self, name: str) -> np.ndarray:
        """One of `RATES` at every threshold (NaN where its denominator is 0)."""
        try:
            num, den = RATES[name](self)
        except KeyError:
            raise ValueError(v.MSG_RATE.format(valid=list(RATES), value=name)) from None
        return v.safe_divide(num, np.broadcast_to(np.asarray(den, dtype=np.float64), np.shape(num)))

    def mean_score(self) -> float:
        """The (weighted) mean score of the rows, read off the sweep (NaN without rows)."""
        if self.total <= 0:
            return float("nan")
        added = np.diff(self.flagged)
        return float(np.dot(self.thresholds[1:], added) / self.total)


#: rate name -> (numerator, denominator) read off a sweep, for fairness criteria and reports
RATES = {
    "flagged rate": lambda s: (s.tp + s.fp, s.total),
    "true positive rate": lambda s: (s.tp, s.positives),
    "false positive rate": lambda s: (s.fp, s.negatives),
    "accuracy": lambda s: (s.tp + s.tn, s.total),
}


CHUNK = 1 << 20  # rows per step when accumulating counts: bounds the temporaries


def _sorted_classes(y: np.ndarray, s: np.ndarray, w: np.ndarray | None):
    """Each class's negated scores in ascending order (= scores descending) and, when
    weighted, the cumulative weight of its first i rows in that order (entry 0 is 0)."""
    pos = s[y]
    neg = s[~y]
    np.negative(pos, out=pos)
    np.negative(neg, out=neg)
    if w is None:
        pos.sort()
        neg.sort()
        return pos, neg, None, None
    cumulative = []
    for sel, x in ((y, pos), (~y, neg)):
        order = np.argsort(x)
        x[:] = x[order]
        cw = np.zeros(x.size + 1)
        np.take(w[sel], order, out=cw[1:])
        np.cumsum(cw[1:], out=cw[1:])
        cumulative.append(cw)
    return pos, neg, cumulative[0], cumulative[1]


def _merge_by_rank(pos: np.ndarray, neg: np.ndarray):
    """(merged, is_pos): the two ascending arrays merged without sorting.

    Each element of the smaller array lands at its rank in the other array plus its own
    index; among equal values positives come first (counts are read at the end of each
    block of equal values, so the order inside a block does not matter).
    """
    n_pos, n = pos.size, pos.size + neg.size
    is_pos = np.zeros(n, dtype=bool)
    if n_pos <= n - n_pos:
        is_pos[np.searchsorted(neg, pos, side="left") + np.arange(n_pos)] = True
    else:
        is_pos.fill(True)
        is_pos[np.searchsorted(pos, neg, side="right") + np.arange(n - n_pos)] = False
    merged = np.empty(n)
    merged[is_pos] = pos
    merged[~is_pos] = neg
    return merged, is_pos


def sweep_arrays(y: np.ndarray, s: np.ndarray, w: np.ndarray | None):
    """thresholds (desc, inf first), tp, fp, P, N for bool labels y and finite scores s, validated
    by the caller (the kernel of every sweep: `threshold_sweep`, `sweep_by_codes`, the value and NEC sweeps)."""
    if w is not None:
        keep = w > 0
        if not keep.all():
            y, s, w = y[keep], s[keep], w[keep]
    pos, neg, cw_pos, cw_neg = _sorted_classes(y, s, w)
    n_pos = float(pos.size) if w is None else float(cw_pos[-1])
    n_neg = float(neg.size) if w is None else float(cw_neg[-1])
    merged, is_pos = _merge_by_rank(pos, neg)
    del pos, neg
    n = merged.size
    last = np.empty(n, dtype=bool)  # last row of each block of equal scores
    np.not_equal(merged[1:], merged[:-1], out=last[:-1])
    last[-1:] = True
    all_distinct = bool(last.all())
    m = n if all_distinct else int(np.count_nonzero(last))
    thresholds = np.empty(m + 1)
    thresholds[0] = np.inf
    np.negative(merged if all_distinct else merged[last], out=thresholds[1:])
    thresholds[1:] += 0.0  # a score of 0.0 comes back from the negation as -0.0
    del merged
    tp = np.zeros(m + 1)
    fp = np.zeros(m + 1)
    done = 0  # entries of tp / fp filled so far (after the leading +inf)
    seen_pos = 0  # positives before the current chunk
    for a in range(0, n, CHUNK):
        b = min(n, a + CHUNK)
        c_pos = np.cumsum(is_pos[a:b])  # positives among the first i rows, i = a+1 .. b
        c_pos += seen_pos
        seen_pos = int(c_pos[-1])
        c_neg = np.arange(a + 1, b + 1) - c_pos
        if not all_distinct:
            c_pos, c_neg = c_pos[last[a:b]], c_neg[last[a:b]]
        out = slice(done + 1, done + 1 + c_pos.size)
        done += c_pos.size
        if w is None:
            tp[out], fp[out] = c_pos, c_neg
        else:
            np.take(cw_pos, c_pos, out=tp[out])
            np.take(cw_neg, c_neg, out=fp[out])
    return thresholds, tp, fp, n_pos, n_neg


def threshold_sweep(y_true, y_score, *, sample_weight=None) -> Sweep:
    """Exact weighted confusion counts at every distinct score used as a threshold.

    Returns a :class:`Sweep` with ``thresholds`` descending (``thresholds[0] == inf``:
    nobody flagged; the last entry flags everybody) and ``tp``, ``fp``, ``fn``, ``tn``:
    weighted counts when flagging iff ``score >= thresholds[j]``. Rows with weight 0 are
    left out, exactly as if they were dropped. O(n log n); no loop over thresholds.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_score : array-like of shape (n,)
        Finite real scores (not necessarily probabilities).
    sample_weight : array-like of shape (n,), optional
        Non-negative finite case weights; None weighs every case 1.

    Returns
    -------
    Sweep
        ``thresholds``, ``tp`` and ``fp`` arrays of one length (``fn`` and ``tn`` derived),
        plus the total ``positives`` and ``negatives`` weight.

    Raises
    ------
    ValueError
        If `y_true` is not 1-D and binary, `y_score` is not 1-D, numeric and finite,
        `sample_weight` is negative, not finite or of another length, or the lengths differ.

    Examples
    --------
    >>> s = threshold_sweep([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9])
    >>> s.thresholds.tolist()
    [inf, 0.9, 0.8, 0.65, 0.4, 0.35, 0.1]
    >>> s.fp.tolist(), s.fn.tolist()
    ([0.0, 0.0, 0.0, 1.0, 2.0, 2.0, 3.0], [3.0, 2.0, 1.0, 1.0, 1.0, 0.0, 0.0])
    """
    y, s = v.binary_pair(y_true, y_score)
    w = v.as_weight(sample_weight, "sample_weight", len(y))
    thresholds, tp, fp, n_pos, n_neg = sweep_arrays(y, s, w)
    return Sweep(thresholds, tp, fp, n_pos, n_neg)


@dataclass(frozen=True, eq=False)
class GroupedSweep:
    """One exact sweep per group, stored end to end.

    Group g's sweep is ``thresholds[offsets[g]:offsets[g + 1]]`` (and the same slice of
    ``tp`` and ``fp``); ``groups`` holds the group names in sorted order. ``result[name]``
    hands out the same `Sweep` object every time, so its `Sweep.hull` is computed once.
    """

    groups: tuple
    offsets: np.ndarray
    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    positives: np.ndarray
    negatives: np.ndarray

    def __getitem__(self, group) -> Sweep:
        g = self.groups.index(group)
        if g not in self._sweeps:
            sl = slice(self.offsets[g], self.offsets[g + 1])
            self._sweeps[g] = Sweep(
                self.thresholds[sl], self.tp[sl], self.fp[sl], float(self.positives[g]), float(self.negatives[g])
            )
        return self._sweeps[g]

    @cached_property
    def _sweeps(self) -> dict[int, Sweep]:
        """Group index -> its `Sweep`, filled by `__getitem__` on first access."""
        return {}

    def __iter__(self):
        return iter(self.groups)

    def __len__(self) -> int:
        return len(self.groups)

    @property
    def group_index(self) -> np.ndarray:
        """For each entry of the concatenated arrays, the index of its group."""
        return np.repeat(np.arange(len(self.groups)), np.diff(self.offsets))

    def to_frame(self) -> pd.DataFrame:
        """Long format: one row per (group, threshold) with tp, fp, fn, tn."""
        gi = self.group_index
        return pd.DataFrame(
            {
                "group": np.asarray(self.groups, dtype=object)[gi],
                "threshold": self.thresholds,
                "tp": self.tp,
                "fp": self.fp,
                "fn": self.positives[gi] - self.tp,
                "tn": self.negatives[gi] - self.fp,
            }
        )


def group_codes(groups, n: int, name: str = "groups"):
    """(codes, names): integer code per row and the sorted distinct group names."""
    arr = np.asarray(groups)
    if arr.ndim != 1:
        raise ValueError(v.MSG_NDIM.format(name=name, shape=arr.shape))
    if len(arr) != n:
        raise ValueError(v.MSG_LENGTH.format(a="y_true", b=name, na=n, nb=len(arr)))
    codes, names = pd.factorize(arr, sort=True, use_na_sentinel=False)
    return codes, tuple(names.tolist())


def grouped_sweep(y_true, y_score, groups, *, sample_weight=None) -> GroupedSweep:
    """Every group's exact sweep from one call (rows are put in group order once).

    Groups are sorted by name; ``result[name]`` is that group's `Sweep`, equal to
    ``threshold_sweep`` on the group's rows.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_score : array-like of shape (n,)
        Finite real scores.
    groups : array-like of shape (n,)
        Group of each case (any sortable values).
    sample_weight : array-like of shape (n,), optional
        Non-negative finite case weights; None weighs every case 1.

    Returns
    -------
    GroupedSweep
        The groups' sweeps end to end; ``result.groups`` lists the names, ``result[name]``
        gives one group's `Sweep`.

    Raises
    ------
    ValueError
        If `y_true` is not 1-D and binary, `y_score` is not 1-D, numeric and finite, `groups`
        is not 1-D, `sample_weight` is negative or not finite, or the lengths differ.

    Warns
    -----
    DegenerateWarning
        When there are no cases (no groups, every sweep empty).

    Examples
    --------
    >>> gs = grouped_sweep([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], ["a", "a", "a", "b", "b", "b"])
    >>> gs.groups
    ('a', 'b')
    >>> gs["a"].thresholds.tolist(), gs["a"].tp.tolist(), gs["a"].fp.tolist()
    ([inf, 0.4, 0.35, 0.1], [0.0, 0.0, 1.0, 1.0], [0.0, 1.0, 1.0, 2.0])
    """
    y, s = v.binary_pair(y_true, y_score)
    w = v.as_weight(sample_weight, "sample_weight", len(y))
    codes, names = group_codes(groups, len(y))
    if not names:
        v.warn_degenerate("no cases: every group's sweep is empty")
    return sweep_by_codes(y, s, codes, names, w)


def sweep_by_codes(y: np.ndarray, s: np.ndarray, codes: np.ndarray, names: tuple, w: np.ndarray | None = None):
    """`GroupedSweep` of validated arrays, one sweep per entry of `names` (codes index it).

    A name without rows gets the empty sweep (threshold +inf only, no cases), so that two
    splits of one data set can share the same list of groups.
    """
    k = len(names)
    if k == 0:
        empty = np.zeros(0)
        return GroupedSweep((), np.zeros(1, dtype=np.int64), empty, empty, empty, empty, empty)
    if k == 1:
        slices = [slice(0, len(y))]
    else:
        order = np.argsort(codes.astype(np.int16 if k < 2**15 else np.int64), kind="stable")
        y, s = y[order], s[order]
        w = None if w is None else w[order]
        bounds = np.concatenate(([0], np.cumsum(np.bincount(codes, minlength=k))))
        slices = [slice(bounds[g], bounds[g + 1]) for g in range(k)]
    parts = [sweep_arrays(y[sl], s[sl], None if w is None else w[sl]) for sl in slices]
    sizes = [p[0].size for p in parts]
    return GroupedSweep(
        groups=tuple(names),
        offsets=np.concatenate(([0], np.cumsum(sizes))).astype(np.int64),
        thresholds=np.concatenate([p[0] for p in parts]),
        tp=np.concatenate([p[1] for p in parts]),
        fp=np.concatenate([p[2] for p in parts]),
        positives=np.array([p[3] for p in parts], dtype=np.float64),
        negatives=np.array([p[4] for p in parts], dtype=np.float64),
    )


TIE_TOLERANCE = 1e-12  # relative: how close two answers must be to tie (see `best_indices` and `argbest`)
CLEAR_WIN = 1e-9  # relative to the cost scale: a lead that no tie rule or rounding can undo (`Sweep.best`)


def tie_tolerance(best: float, scale: float = 1.0) -> float:
    """How close to the best value another value must be to tie with it: a relative
    `TIE_TOLERANCE` of the larger of `best` and `scale`, the size of the values compared (for a
    cost per case, `Prices.scale`: then prices scaled together tie alike)."""
    return TIE_TOLERANCE * max(scale, abs(best)) if np.isfinite(best) else 0.0


def argbest(values: np.ndarray, *, maximize: bool = False):
    """Index of the best entry (of every row along the last axis at once, an int array, for 2-D
    or more `values`); ties (within `tie_tolerance` of the largest finite entry, so that values
    scaled together tie alike) go to the lowest index, which on a sweep is the larger threshold.
    NaN entries never win; -1 when every entry is NaN.

    >>> argbest(np.array([[3.0, 1.0, 1.0], [np.nan, 2.0, 0.5], [np.nan, np.inf, np.nan]])).tolist()
    [1, 2, -1]
    """
    vals = -np.asarray(values, dtype=np.float64) if maximize else np.asarray(values, dtype=np.float64)
    if vals.ndim < 2:
        return int(argbest(vals[None])[0]) if vals.size else -1
    best, high = vals.min(axis=-1), vals.max(axis=-1)  # a NaN or an infinity shows in one of them
    scale, odd = np.maximum(np.abs(best), np.abs(high)), ~(np.isfinite(best) & np.isfinite(high))
    best[odd] = np.where(vals[odd] < np.inf, vals[odd], np.inf).min(axis=-1)  # all finite: sizes at the ends;
    scale[odd] = np.where(np.isfinite(vals[odd]), np.abs(vals[odd]), 0.0).max(axis=-1)  # else NaN, +inf masked
    tol = np.where(np.isfinite(best), TIE_TOLERANCE * np.maximum(scale, np.abs(best)), 0.0)  # `tie_tolerance`
    out = np.argmax(vals <= (best + tol)[..., None], axis=-1)  # the first within (the best is)
    return np.where(best < np.inf, out, -1).astype(np.int64)


def hull_slopes(da: np.ndarray, dc: np.ndarray) -> np.ndarray:
    """The slopes of the upper concave hull of a sweep's steps: the antitonic (decreasing,
    pool adjacent violators) regression of the step slopes ``dc / da`` weighted by the step
    widths `da`. Equal neighbouring slopes are one pooled block: its end is a hull vertex.

    SciPy's PAVA, imported here on first use (it is what scikit-learn's `isotonic_regression`
    calls), so that importing costlib does not load SciPy.

    >>> hull_slopes(np.array([1.0, 1.0, 2.0]), np.array([0.0, 1.0, 2.0])).tolist()
    [0.75, 0.75, 0.75]
    """
    from scipy.optimize import isotonic_regression

    y = np.asarray(dc / da, dtype=np.float64)
    return np.asarray(isotonic_regression(y, weights=da, increasing=False).x, dtype=np.float64)


def hull_best_index(accepted: np.ndarray, gained: np.ndarray, q) -> np.ndarray:
    """For every q, the smallest index j maximising ``gained[j] - q * accepted[j]``.

    `accepted` must be strictly increasing (a sweep's flagged counts: every step adds at
    least one case of positive weight) and `gained` non-decreasing with it. The maximiser is
    a vertex of the upper concave hull of the points (accepted, gained); the hull's slopes
    are the antitonic (pool adjacent violators) regression of the step slopes weighted by
    the step widths, so every q is answered by one ``searchsorted``: take every hull step
    whose slope is strictly greater than q (ties stop early, at the larger threshold).

    It answers "best confidence threshold for every k" (value). The cost sweep's cutoffs
    are chosen by `best_indices` on the sweep's `Hull`, which also applies the tie rule.
    """
    da = np.diff(accepted)
    dc = np.diff(gained)
    if da.size == 0:
        return np.zeros(np.shape(q), dtype=np.int64)
    slopes = hull_slopes(da, dc)
    return np.searchsorted(-slopes, -np.asarray(q, dtype=np.float64), side="left")


@dataclass(frozen=True, eq=False)
class Hull:
    """The cutoffs of a sweep that can be cost-optimal, and the price ratios at which each is.

    Seen as points (TP_j, FP_j), the candidates are the vertices of the lower convex hull
    (equivalently, of the upper concave hull of (flagged_j, TP_j)); a cutoff on a straight
    stretch between two vertices is never the only cheapest one.

    vertices  indices into the sweep, ascending: ``vertices[0] == 0`` (threshold +inf, nobody
              flagged), the last one flags everybody
    ratios    ``ratios[k]``: the false positives per true positive added along the edge from
              ``vertices[k]`` to ``vertices[k + 1]``, strictly increasing (+inf for an edge
              that adds negatives only). Going on along edge k pays exactly when
              c_fn / c_fp > ratios[k].
    edges     the ratios c_fn / c_fp at which the choice moves on (`best_indices`):
              ``ratios * (1 + TIE_TOLERANCE)``, the one place the tie rule is applied
    """

    vertices: np.ndarray
    ratios: np.ndarray
    edges: np.ndarray


def hull_of(tp: np.ndarray, fp: np.ndarray) -> Hull:
    """The `Hull` of a sweep's counts (j ascending, thresholds descending).

    A point that adds no weight repeats the one before it (whose threshold is larger) and is
    left out. The pooled adjacent violators regression of the step slopes (SciPy's PAVA, as
    in `hull_slopes`) gives the corners: the ends of its pooled blocks. Each edge's ratio is
    then read off its two end points' own counts (``dFP / dTP``: exact for whole-number
    counts, so that two equal ratios compare equal), and a corner whose ratio does not rise
    is dropped, until every ratio rises. O(n), once per sweep (`Sweep.hull` keeps it).

    >>> h = hull_of(np.array([0.0, 1, 1, 2, 2]), np.array([0.0, 0, 1, 1, 2]))
    >>> h.vertices.tolist(), h.ratios.tolist()
    ([0, 1, 3, 4], [0.0, 1.0, inf])
    """
    from scipy.optimize import isotonic_regression

    tp = np.asarray(tp, dtype=np.float64)
    fp = np.asarray(fp, dtype=np.float64)
    flagged = tp + fp
    steps = np.diff(flagged)
    keep = None
    if not (steps > 0).all():  # steps without weight (cross-fitting leaves some): keep each first point
        keep = np.flatnonzero(np.concatenate(([True], flagged[1:] > np.maximum.accumulate(flagged)[:-1])))
        tp, fp, flagged = tp[keep], fp[keep], flagged[keep]
        steps = np.diff(flagged)
    if steps.size == 0:
        return Hull(np.zeros(1, dtype=np.int64), np.zeros(0), np.zeros(0))
    unit = bool((steps == 1.0).all())  # one case per step: PAVA's default weights, without the copy
    fit = isotonic_regression(np.diff(tp) / steps, weights=None if unit else steps, increasing=False)
    corners = np.asarray(fit.blocks, dtype=np.int64)  # point indices: 0, the ends of the blocks
    with np.errstate(divide="ignore", invalid="ignore"):
        while True:
            ratios = np.diff(fp[corners]) / np.diff(tp[corners])
            flat = np.flatnonzero(~(ratios[1:] > ratios[:-1])) + 1  # corners whose ratio does not rise
            if flat.size == 0:
                break
            corners = np.delete(corners, flat)
    vertices = corners if keep is None else keep[corners]
    return Hull(vertices, ratios, ratios * (1.0 + TIE_TOLERANCE))


def best_indices(sweep: Sweep, c_fp, c_fn) -> np.ndarray:
    """`Sweep.best` for many price pairs at once (broadcast): the one tie rule of the cost sweep.

    Only the ratio r = c_fn / c_fp matters: the cheapest cutoff is the vertex of the sweep's
    `Hull` reached by going on along every edge that pays, ``ratios[k] < r``. The tie rule:
    a false alarm is priced a relative `TIE_TOLERANCE` (1e-12) dearer, so an edge is taken
    only when ``r > ratios[k] * (1 + 1e-12)`` (``Hull.edges``): an exact tie, and a tie lost
    to rounding in the prices or the weights, go to the larger threshold, and only a vertex
    is ever chosen. As r grows the choice moves on one vertex at a time, exactly at
    ``Hull.edges``, which are therefore the piece edges of `optimal_cutoffs_by_ratio`: no
    cutoff wins a sliver of ratios in between. c_fp = 0 (r = inf): every edge that adds a
    positive; both prices 0: every cutoff ties, +inf (index 0). -1 where one class is absent.

    >>> s = threshold_sweep([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9])
    >>> s.thresholds[best_indices(s, [1, 1, 1], [1, 2, 3])].tolist()  # r = 2: 0.8 and 0.35 tie
    [0.8, 0.8, 0.35]
    """
    if sweep.positives <= 0 or sweep.negatives <= 0:
        return np.full(np.broadcast(np.asarray(c_fp), np.asarray(c_fn)).shape, -1, dtype=np.int64)
    return hull_best(sweep.hull, c_fp, c_fn)


def hull_best(hull: Hull, c_fp, c_fn) -> np.ndarray:
    """The index of the vertex of `hull` cheapest at these prices (broadcast), by `best_indices`' tie rule."""
    c_fp, c_fn = np.asarray(c_fp, dtype=np.float64), np.asarray(c_fn, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.nan_to_num(c_fn / c_fp, nan=0.0, posinf=np.inf)  # both prices 0: every cutoff ties
    return hull.vertices[np.searchsorted(hull.edges, ratio, side="left")]
