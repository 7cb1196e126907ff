"""One model's exact sweeps: sorted once, from its rows or from sweeps computed elsewhere.

`sweep_model` validates one model's rows once and sorts them once into exact sweeps: per
group and pooled, on the rows the cutoffs are fitted on (train) and the rows they are judged
on (test). It is the only function of the decision that reads rows. `model_from_sweeps`
builds the same value from grouped sweeps computed elsewhere (DuckDB, Spark, an aggregate
file). `cost_curves` reads the judged sweeps at every cutoff (the chart of the decision).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.core import validation as v
from costlib.core.keeping import kept_on
from costlib.core.prices import Prices, mistakes_cost
from costlib.core.sweep import GroupedSweep, Sweep, group_codes, sweep_arrays, sweep_by_codes
from costlib.core.thinning import thin_index

SINGLE_GROUP = "everyone"  # the one group's name when the data has no group column
WEIGHTED_ROWS = ("weighted rows",)  # the key weighted rows are kept under on their sweeps (`ModelSweeps.kept`)


# ---------------------------------------------------------------------------------------
# Sweep once


def group_index_at(gs: GroupedSweep, pooled: Sweep) -> np.ndarray:
    """(groups, pooled thresholds): each group's sweep index at every threshold of `pooled`."""
    return np.stack([gs[g].index_at(pooled.thresholds).astype(np.int32) for g in gs.groups])


@dataclass(frozen=True, eq=False)
class WeightedRows:
    """One model's weighted rows as `sweep_model` validated them, kept on its sweeps: the
    sweeps' count folds and resamples cannot deal weighted rows, so `weighted_rows.judge` judges
    the fitted rules on these. Labels (bool), scores, each row's group (an index into the
    sweeps' groups), weights, and the fitting and judged rows (masks; None: every row)."""

    y: np.ndarray
    score: np.ndarray
    codes: np.ndarray
    weight: np.ndarray
    fit: np.ndarray | None
    judge: np.ndarray | None


@dataclass(frozen=True, eq=False)
class ModelSweeps:
    """One model's exact sweeps: per group and pooled, on the fitting and the judged rows.

    ``fit`` and ``judge`` are `GroupedSweep` values over the same list of groups (a group
    with no rows in a split has the empty sweep). ``judged_on`` is ``"test"`` when the
    cutoffs are fitted on other rows than they are judged on, ``"all"`` when both are all
    rows (which flatters every fitted rule). ``fit_role`` names the fitting rows' split role when
    they are not the judged rows: "train", or "validation" for a split without train rows.
    """

    name: str
    fit: GroupedSweep
    judge: GroupedSweep
    fit_pooled: Sweep
    judge_pooled: Sweep
    judged_on: str
    probabilities: bool
    weighted: bool
    grouped: bool
    fit_role: str = "train"

    @property
    def groups(self) -> tuple:
        return self.fit.groups

    def kept(self, key: tuple, make):
        """What ``make()`` derives from these rows alone, made once and kept on the sweeps
        (`core.keeping.kept_on`): a price move reads it and makes nothing again."""
        return kept_on(self, key, make)

    def pooled_index(self, which: str) -> np.ndarray:
        """(groups, pooled thresholds): each group's sweep index at every pooled cutoff of
        the `which` rows ("fit" or "judge"). Built once per split, on the first price book
        with different prices per group: with it, the cost of one cutoff for everybody at
        per-group prices is a weighted sum of arrays."""
        grouped, pooled = (self.fit, self.fit_pooled) if which == "fit" else (self.judge, self.judge_pooled)
        return self.kept(("pooled index", which), lambda: group_index_at(grouped, pooled))

    def single_cost(self, prices: Prices, which: str = "fit") -> np.ndarray:
        """Total price of the mistakes for one cutoff for everybody, at every pooled threshold
        of the `which` rows ("fit" or "judge"), each group at its own prices."""
        grouped, pooled = (self.fit, self.fit_pooled) if which == "fit" else (self.judge, self.judge_pooled)
        if prices.uniform:
            return pooled.errors_cost(prices.c_fp[0], prices.c_fn[0])
        total = np.zeros(pooled.thresholds.size)
        index = self.pooled_index(which)
        for i, g in enumerate(self.groups):
            sw = grouped[g]
            total += mistakes_cost(sw.fp[index[i]], sw.fn[index[i]], prices.c_fp[i], prices.c_fn[i])
        return total


def sweep_model(
    y_true,
    y_score,
    groups=None,
    *,
    fit=None,
    judge=None,
    sample_weight=None,
    name: str = "score",
    probabilities: bool | None = None,
    fit_role: str = "train",
) -> ModelSweeps:
    """Validate one model's rows once and sort them once (see the module docstring).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Binary labels and scores (flag iff score >= cutoff).
    groups : array-like of shape (n,), optional
        Group of each row; without it every row is in the group ``"everyone"``.
    fit, judge : boolean masks of shape (n,), optional
        The rows the cutoffs are fitted on and the rows they are judged on (both default
        to every row).
    sample_weight : array-like of shape (n,), optional
    name : str
        The model's name, shown in sentences.
    probabilities : bool, optional
        Whether the scores are probabilities (then the 0.5 and formula rules apply);
        by default, whether every score lies in [0, 1].
    fit_role : str
        The split role of the `fit` rows, where they are not the judged rows (``fit_role``).

    Returns
    -------
    ModelSweeps

    Examples
    --------
    >>> ms = sweep_model([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9])
    >>> ms.groups, ms.judged_on, ms.fit_pooled.thresholds.tolist()
    (('everyone',), 'all', [inf, 0.9, 0.8, 0.65, 0.4, 0.35, 0.1])
    """
    y, s = v.binary_pair(y_true, y_score)
    n = len(y)
    w = v.as_weight(sample_weight, "sample_weight", n)
    if groups is None:
        codes, names = np.zeros(n, dtype=np.int64), (SINGLE_GROUP,)
    else:
        codes, names = group_codes(groups, n)
    fit_mask = _mask(fit, n, "fit")
    judge_mask = _mask(judge, n, "judge")
    if probabilities is None:
        probabilities = bool(n == 0 or (s.min() >= 0 and s.max() <= 1))

    def part(mask):
        if mask is None:
            return sweep_by_codes(y, s, codes, names, w), Sweep(*sweep_arrays(y, s.copy(), w))
        ww = None if w is None else w[mask]
        return (sweep_by_codes(y[mask], s[mask], codes[mask], names, ww), Sweep(*sweep_arrays(y[mask], s[mask], ww)))

    fit_g, fit_p = part(fit_mask)
    same = (fit_mask is None and judge_mask is None) or (
        fit_mask is not None and judge_mask is not None and np.array_equal(fit_mask, judge_mask)
    )
    if same:
        judge_g, judge_p, judged_on = fit_g, fit_p, "all"
    else:
        (judge_g, judge_p), judged_on = part(judge_mask), "test"
    out = ModelSweeps(
        name=str(name),
        fit=fit_g,
        judge=judge_g,
        fit_pooled=fit_p,
        judge_pooled=judge_p,
        judged_on=judged_on,
        probabilities=bool(probabilities),
        weighted=w is not None,
        grouped=groups is not None,
        fit_role=str(fit_role),
    )
    if w is not None:
        rows = WeightedRows(y.astype(bool), s, codes, w, fit_mask, fit_mask if judged_on == "all" else judge_mask)
        out.kept(WEIGHTED_ROWS, lambda: rows)
    return out


def _mask(mask, n: int, name: str):
    if mask is None:
        return None
    arr = np.asarray(mask)
    if arr.dtype != bool or arr.shape != (n,):
        raise ValueError(f"{name} must be a boolean mask of {n} rows: got {arr.dtype} of shape {arr.shape}")
    return None if arr.all() else arr


# ---------------------------------------------------------------------------------------
# What the judged sweeps show at every cutoff


def cost_curves(ms: ModelSweeps, prices: Prices, *, max_points: int | None = None) -> pd.DataFrame:
    """Cost per case against one cutoff on the judged rows, long format
    ``line, threshold, flagged_rate, flagged_share, cost_per_case`` (``flagged_rate``: of the
    line's own cases; ``flagged_share``: of all judged cases): the line ``None`` is everybody at one
    cutoff (each group at its own prices); then one line per group (its own cost per case).
    Every line's first row is threshold +inf (flag nobody).

    Exact at every distinct score. With `max_points` (a chart's resolution, as in
    ``figures.MAX_POINTS``) the line of everybody keeps only the points worth drawing
    (`thinning.thin_index` by threshold: every stretch of the axis keeps its first, last, lowest
    and highest), and each group's line, drawn thin behind it, half as many: a redraw after a
    price move then carries neither a row per distinct score through pandas nor more points
    than the chart shows.
    """

    names, columns = [], []  # each line's name and (threshold, flagged_rate, flagged_share, cost_per_case)

    def line(name, thresholds, flagged_rate, flagged_share, cost_per_case) -> None:
        most = None if max_points is None else max_points if name is None else max(4, max_points // 2)
        idx = slice(None) if most is None else thin_index(cost_per_case, most, x=thresholds)
        names.append(name)
        columns.append([c[idx] for c in (thresholds, flagged_rate, flagged_share, cost_per_case)])

    pooled = ms.judge_pooled
    every = np.full(pooled.flagged.shape, pooled.total)
    share = v.safe_divide(pooled.flagged, every)
    line(None, pooled.thresholds, share, share, v.safe_divide(ms.single_cost(prices, "judge"), every))
    if ms.grouped and len(ms.groups) > 1:
        for i, g in enumerate(ms.groups):
            sw = ms.judge[g]
            if sw.total <= 0:
                continue
            line(
                g,
                sw.thresholds,
                sw.flagged / sw.total,
                sw.flagged / pooled.total,
                sw.errors_cost(prices.c_fp[i], prices.c_fn[i]) / sw.total,
            )
    # one frame from whole columns: a frame per line, concatenated, was 2.7 ms of the 6 the
    # curves took at a million rows (a price move redraws them)
    label = np.repeat(np.array(names, dtype=object), [cols[0].size for cols in columns])
    frame = {"line": pd.Series(label, dtype=object)}  # the names themselves (pandas would make strings of them)
    for j, name in enumerate(("threshold", "flagged_rate", "flagged_share", "cost_per_case")):
        frame[name] = np.concatenate([cols[j] for cols in columns])
    return pd.DataFrame(frame)


# ---------------------------------------------------------------------------------------
# Sweeps computed elsewhere (DuckDB, Spark, an aggregate file)


def pool(gs: GroupedSweep) -> Sweep:
    """One sweep of all groups together, exactly, from a grouped sweep (no rows needed).

    Its thresholds are every group's distinct scores; the counts at each are the sum of the
    groups' counts at that cutoff. One group is its own pool (no sort of its scores again).
    """
    if len(gs.groups) == 1:
        sw = gs[gs.groups[0]]
        return Sweep(sw.thresholds, sw.tp, sw.fp, float(gs.positives.sum()), float(gs.negatives.sum()))
    finite = gs.thresholds[np.isfinite(gs.thresholds)]
    t = np.concatenate(([np.inf], np.unique(finite)[::-1]))
    tp, fp = np.zeros(t.size), np.zeros(t.size)
    for g in gs.groups:
        sw = gs[g]
        j = sw.index_at(t)
        tp += sw.tp[j]
        fp += sw.fp[j]
    return Sweep(t, tp, fp, float(gs.positives.sum()), float(gs.negatives.sum()))


def _align(gs: GroupedSweep, names: tuple) -> GroupedSweep:
    """`gs` over the groups `names` (a group it lacks gets the empty sweep)."""
    if tuple(gs.groups) == tuple(names):
        return gs
    parts = []
    for name in names:
        if name in gs.groups:
            sw = gs[name]
            parts.append((sw.thresholds, sw.tp, sw.fp, sw.positives, sw.negatives))
        else:
            parts.append((np.array([np.inf]), np.zeros(1), np.zeros(1), 0.0, 0.0))
    sizes = [p[0].size for p in parts]
    return GroupedSweep(
        tuple(names),
        np.concatenate(([0], np.cumsum(sizes))).astype(np.int64),
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
        np.array([p[3] for p in parts], dtype=float),
        np.array([p[4] for p in parts], dtype=float),
    )


def model_from_sweeps(
    fit: GroupedSweep, judge: GroupedSweep | None = None, *, name: str = "score", weighted: bool = False
) -> ModelSweeps:
    """`ModelSweeps` from grouped sweeps computed elsewhere (`scale.scans.scan_grouped_sweep`, an
    aggregate file): the same answers as `sweep_model` on the rows they came from.

    `judge` None means the cutoffs are judged on the rows they are fitted on. A group named
    None (no group column) becomes ``"everyone"``.
    """

    def rename(gs):
        if gs.groups == (None,):
            return GroupedSweep((SINGLE_GROUP,), gs.offsets, gs.thresholds, gs.tp, gs.fp, gs.positives, gs.negatives)
        return gs

    fit = rename(fit)
    judge = fit if judge is None else rename(judge)
    names = tuple(sorted(set(fit.groups) | set(judge.groups), key=str))
    grouped = names != (SINGLE_GROUP,)
    fit, judge_aligned = _align(fit, names), _align(judge, names)
    same = judge is fit or judge_aligned is fit
    scores = fit.thresholds[np.isfinite(fit.thresholds)]
    probabilities = bool(scores.size == 0 or (scores.min() >= 0 and scores.max() <= 1))
    fit_pooled = pool(fit)
    return ModelSweeps(
        name=str(name),
        fit=fit,
        judge=judge_aligned,
        fit_pooled=fit_pooled,
        judge_pooled=fit_pooled if same else pool(judge_aligned),
        judged_on="all" if same else "test",
        probabilities=probabilities,
        weighted=weighted,
        grouped=grouped,
    )
