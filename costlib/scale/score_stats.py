"""Sufficient statistics of the sweeps: counts per (split, group, score), or per fine bin.

:func:`score_stats` reads the rows once, checks them, and returns a `ScoreStats`: sorted numpy
arrays of the number and weight of the positive and negative rows at each distinct score of
each (split, group). That is everything a cost sweep needs (:meth:`ScoreStats.sweeps` builds
the very `GroupedSweep` objects the in-memory kernel builds); aggregate files
(:mod:`costlib.scale.aggregates`) store it. When the distinct scores outnumber a budget, the
scores are pooled into the finest bins of :mod:`costlib.scale.binning` that fit, and the
statistics state how far that can move a cutoff.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costlib.core import validation as v
from costlib.core.errors import DataError
from costlib.core.escaping import shorten
from costlib.core.sweep import GroupedSweep
from costlib.scale.binning import LEVELS, bin_sql, binned
from costlib.scale.rows import SPLIT_CODE, SPLIT_NAME, Roles, Scan, checks_sql, validate, with_scan

if TYPE_CHECKING:
    import pyarrow as pa


def _is_sorted(*keys: np.ndarray) -> bool:
    """Whether rows are in ascending lexicographic order of `keys` (most significant first)."""
    if keys[0].size < 2:
        return True
    undecided = np.ones(keys[0].size - 1, dtype=bool)
    for k in keys:
        d = np.diff(k)
        if (undecided & (d < 0)).any():
            return False
        undecided &= d == 0
    return True


@dataclass(frozen=True, eq=False)
class ScoreStats:
    """Counts and weights per (split, group, score) or per fine bin, as sorted numpy arrays.

    Row i belongs to split ``splits[split[i]]`` (``""`` without a split column) and group
    ``groups[group[i]]`` (``None`` without a group column); rows are sorted by split (train,
    validation, test), group (in :func:`costlib.grouped_sweep`'s order) and descending score.
    With weights, a score whose rows all weigh 0 keeps its row (its counts) but is not a
    threshold of the sweeps, as in memory.

    With ``bits is None`` every score is a distinct score of the rows (the sweeps are
    exact). Otherwise each row is one fine bin (``bits`` mantissa bits per binade) and
    ``score`` is the lowest score in it: every threshold is exact, the thresholds strictly
    inside a bin are missing, and ``largest_bin_rows`` / ``largest_bin_weight`` bound how
    far FP and FN at a missing cutoff are from those at the nearest kept one.
    """

    splits: tuple
    groups: tuple
    split: np.ndarray
    group: np.ndarray
    score: np.ndarray
    pos_rows: np.ndarray
    neg_rows: np.ndarray
    pos_weight: np.ndarray
    neg_weight: np.ndarray
    weighted: bool
    rows: int
    bits: int | None = None
    largest_bin_rows: int = 1
    largest_bin_weight: float = 0.0

    @classmethod
    def build(
        cls,
        *,
        splits,
        split,
        groups,
        group,
        score,
        pos_rows,
        neg_rows,
        pos_weight,
        neg_weight,
        weighted: bool,
        rows: int,
        **bound,
    ) -> ScoreStats:
        """Canonical form: unused names dropped, rows sorted."""
        split = np.asarray(split, dtype=np.int64)
        group = np.asarray(group, dtype=np.int64)
        score = np.asarray(score, dtype=np.float64) + 0.0  # -0.0 and 0.0 are one threshold, shown as 0.0
        pos_rows, neg_rows = np.asarray(pos_rows, dtype=np.int64), np.asarray(neg_rows, dtype=np.int64)
        pos_weight, neg_weight = np.asarray(pos_weight, dtype=np.float64), np.asarray(neg_weight, dtype=np.float64)
        # splits in the order train, validation, test
        perm = sorted(range(len(splits)), key=lambda i: SPLIT_CODE[splits[i]])
        inv = np.empty(len(splits), dtype=np.int64)
        inv[perm] = np.arange(len(splits))
        split = inv[split] if len(splits) else split
        splits = tuple(splits[i] for i in perm)
        desc = -score
        if not _is_sorted(split, group, desc):
            order = np.lexsort((desc, group, split))
            split, group, score = split[order], group[order], score[order]
            pos_rows, neg_rows, pos_weight, neg_weight = (
                a[order] for a in (pos_rows, neg_rows, pos_weight, neg_weight)
            )
        used_s = np.flatnonzero(np.bincount(split, minlength=len(splits)))
        used_g = np.flatnonzero(np.bincount(group, minlength=len(groups)))
        remap_s = np.zeros(len(splits), dtype=np.int32)
        remap_s[used_s] = np.arange(used_s.size)
        remap_g = np.zeros(len(groups), dtype=np.int32)
        remap_g[used_g] = np.arange(used_g.size)
        return cls(
            splits=tuple(splits[i] for i in used_s),
            groups=tuple(groups[i] for i in used_g),
            split=remap_s[split] if len(splits) else split.astype(np.int32),
            group=remap_g[group] if len(groups) else group.astype(np.int32),
            score=score,
            pos_rows=pos_rows,
            neg_rows=neg_rows,
            pos_weight=pos_weight,
            neg_weight=neg_weight,
            weighted=weighted,
            rows=rows,
            **bound,
        )

    def __len__(self) -> int:
        return int(self.score.size)

    def frame(self) -> pd.DataFrame:
        """The statistics as a DataFrame (split and group as categoricals)."""
        return pd.DataFrame(
            {
                "split": pd.Categorical.from_codes(self.split, categories=pd.Index(list(self.splits), dtype=object)),
                "group": pd.Categorical.from_codes(self.group, categories=pd.Index(list(self.groups), dtype=object))
                if self.groups != (None,)
                else pd.Series([None] * len(self), dtype=object),
                "score": self.score,
                "pos_rows": self.pos_rows,
                "neg_rows": self.neg_rows,
                "pos_weight": self.pos_weight,
                "neg_weight": self.neg_weight,
            }
        )

    def bound_statement(self) -> str | None:
        """None when exact; else, in words, how far a cutoff inside a bin can be from the counts."""
        if self.bits is None:
            return None
        rows, weight = self.largest_bin_rows, self.largest_bin_weight
        what = f"{weight:.17g} in weight ({rows:,} rows)" if self.weighted else f"{rows:,} rows"
        return (
            f"Scores were pooled into {2**self.bits:,} bins per binade ({self.bits} mantissa bits); each threshold is "
            "the lowest score of its bin, and the counts at every threshold are exact. Cutoffs strictly inside a bin "
            f"are missing: their FP and FN differ from those at the nearest threshold by at most one bin, here at "
            f"most {what}, so their cost differs by at most max(c_fp, c_fn) times that."
        )

    def sweeps(self) -> dict:
        """``{split name: GroupedSweep}`` (``""`` without a split column), exactly as the kernel builds them.

        Each group's thresholds are ``+inf`` and then its scores in descending order; tp and fp
        the cumulative positive and negative weight (counts without weights).
        """
        pos = self.pos_weight if self.weighted else self.pos_rows.astype(np.float64)
        neg = self.neg_weight if self.weighted else self.neg_rows.astype(np.float64)
        unit = self.split.astype(np.int64) * max(1, len(self.groups)) + self.group
        starts = np.concatenate(([0], np.flatnonzero(np.diff(unit)) + 1, [unit.size]))
        out: dict = {}
        parts: dict = {}
        for a, b in zip(starts[:-1], starts[1:], strict=True):
            sp, g = int(self.split[a]), int(self.group[a])
            s = self.score[a:b]
            real = (pos[a:b] + neg[a:b]) > 0  # with weights, rows that all weigh 0 are not thresholds
            parts.setdefault(sp, []).append(
                (
                    self.groups[g],
                    np.concatenate(([np.inf], s[real])),
                    np.concatenate(([0.0], np.cumsum(pos[a:b][real]))),
                    np.concatenate(([0.0], np.cumsum(neg[a:b][real]))),
                )
            )
        for sp, items in parts.items():
            sizes = [th.size for _, th, _, _ in items]
            out[self.splits[sp]] = GroupedSweep(
                groups=tuple(g for g, *_ in items),
                offsets=np.concatenate(([0], np.cumsum(sizes))).astype(np.int64),
                thresholds=np.concatenate([th for _, th, _, _ in items]),
                tp=np.concatenate([tp for _, _, tp, _ in items]),
                fp=np.concatenate([fp for _, _, _, fp in items]),
                positives=np.array([tp[-1] for _, _, tp, _ in items]),
                negatives=np.array([fp[-1] for _, _, _, fp in items]),
            )
        return out

    def as_sweeps(self, by_split: bool):
        """What :func:`costlib.scale.scans.scan_grouped_sweep` returns: with `by_split`, :meth:`sweeps`;
        without, the one GroupedSweep of all rows (empty, with a `DegenerateWarning`, when there are none)."""
        sweeps = self.sweeps()
        if by_split:
            return sweeps
        return sweeps[""] if "" in sweeps else _empty_sweep()


def score_stats(
    source,
    *,
    label,
    score,
    group=None,
    weight=None,
    split=None,
    engine="duckdb",
    max_thresholds: int | None = None,
    max_groups: int | None = None,
) -> ScoreStats:
    """The sufficient statistics of the sweeps: counts per (split, group, score), or per fine bin.

    Distinct scores when there are at most about `max_thresholds` of them (None: always);
    else the finest bins (32, 24, 16 or 8 mantissa bits) whose count is estimated to fit.
    With `max_groups`, more groups than that are refused with a sentence from the validating
    pass, before any count is made (`too_many_groups`).
    """
    roles = Roles(label=label, score=score, group=group, weight=weight, split=split)
    if max_thresholds is not None and (
        isinstance(max_thresholds, bool) or not isinstance(max_thresholds, int) or max_thresholds < 1
    ):
        raise ValueError(f"max_thresholds must be a positive whole number or None: got {max_thresholds!r}")
    return with_scan(source, engine, roles, lambda scan: _score_stats(scan, max_thresholds, max_groups))


def _stats_query(scan: Scan, bits: int | None) -> pa.Table:
    """Counts (and weights) per (split, group, score) or per bin; the rows were validated before.

    From DuckDB the rows come sorted by split, group and descending score, the order of
    `ScoreStats`, so that `ScoreStats.build` need not sort them in numpy; an engine whose sort
    costs more than numpy's (`sorts_cheaply`: Spark's is a sampling job and a shuffle) hands them
    back unsorted, and they are sorted there. Bins are read from the scores'
    bits where the engine can (`binning.bin_sql` with `raw`: the same integers, no logarithm).
    Without weights every row weighs 1, so a bin's lowest and highest scores among rows of
    positive weight are its lowest and highest scores.
    """
    keys = scan.keys
    order = f" ORDER BY {', '.join(keys + ['s DESC'])}" if scan.eng.sorts_cheaply else ""
    cols = "COUNT(CASE WHEN y = 1 THEN 1 END) AS pos_rows, COUNT(CASE WHEN y = 0 THEN 1 END) AS neg_rows"
    if scan.weighted:
        cols += (
            ", SUM(CASE WHEN y = 1 THEN w ELSE 0e0 END) AS pos_weight, "
            "SUM(CASE WHEN y = 0 THEN w ELSE 0e0 END) AS neg_weight"
        )
    if bits is None:
        group_by = ", ".join(keys + ["s"])
        return scan.eng.sql_arrow(
            f"SELECT {', '.join(keys + ['s'])}, {cols} FROM {scan.rows} GROUP BY {group_by}{order}"
        )
    group_by = ", ".join(keys + ["b"])
    if scan.weighted:
        lowest = "COALESCE(MIN(CASE WHEN w > 0 THEN s END), MIN(s)) AS s, MAX(CASE WHEN w > 0 THEN s END) AS s_max"
    else:
        lowest = "MIN(s) AS s, MAX(s) AS s_max"
    b = bin_sql("s", bits, raw=scan.eng.float_bits)
    return scan.eng.sql_arrow(
        f"SELECT {', '.join(keys + [lowest])}, {cols} FROM (SELECT sp, g, y, s, w, {b} AS b "
        f"FROM {scan.rows}) AS t GROUP BY {group_by}{order}"
    )


def _column(tab: pa.Table, name: str, dtype, default=0) -> np.ndarray:
    if name in tab.column_names:
        return np.asarray(tab.column(name).to_numpy(zero_copy_only=False), dtype=dtype)
    return np.full(tab.num_rows, default, dtype=dtype)


def too_many_groups(name: str, column: str, rows_by_group: pd.Series, limit: int) -> DataError:
    """The sentence for more groups than the pages compare one by one (`loading.MAX_GROUPS`), with
    the largest ones and the way to see every case together."""
    from costlib.core.settings import MSG_GROUP_TOO_MANY, MSG_GROUPS_TOGETHER

    top = rows_by_group.sort_values(ascending=False, kind="stable").head(3)
    largest = ", ".join(f'"{g}" ({int(n):,} rows)' for g, n in top.items())
    name = name[1:-1] if len(name) > 1 and name[0] == name[-1] == '"' else name  # a source described in quotes
    k = f"{len(rows_by_group):,}"
    sentence = MSG_GROUP_TOO_MANY.format(name=name, column=shorten(column), k=k, largest=largest, limit=limit)
    return DataError(sentence + " " + MSG_GROUPS_TOGETHER.format(limit=limit), column=column)


def _score_stats(scan: Scan, max_thresholds: int | None, max_groups: int | None = None) -> ScoreStats:
    frame = scan.eng.sql(
        f"SELECT sp, g, COUNT(*) AS n_rows, approx_count_distinct(s) AS d, {checks_sql(scan.weighted)} "
        f"FROM {scan.rows} GROUP BY sp, g"
    )
    validate(scan, frame)  # one cheap pass checks every row and estimates the distinct scores
    if max_groups is not None and scan.roles.group and frame["g"].nunique() > max_groups:
        by_group = frame.groupby("g", sort=False)["n_rows"].sum()
        raise too_many_groups(scan.source, scan.roles.group, by_group, max_groups)
    rows = int(frame["n_rows"].sum())
    bits = None
    if max_thresholds is not None and frame["d"].sum() > 1.1 * max_thresholds:  # HLL: within a few percent
        bits = _fitting_bits(scan, max_thresholds)
    tab = _stats_query(scan, bits)
    if bits is None and max_thresholds is not None and tab.num_rows > max_thresholds:
        bits = _fitting_bits(scan, max_thresholds)
        tab = _stats_query(scan, bits)
    pos_rows, neg_rows = _column(tab, "pos_rows", np.int64), _column(tab, "neg_rows", np.int64)
    if scan.weighted:
        pos_w, neg_w = _column(tab, "pos_weight", np.float64), _column(tab, "neg_weight", np.float64)
    else:
        pos_w, neg_w = pos_rows.astype(np.float64), neg_rows.astype(np.float64)
    bound = {}
    if bits is not None:
        pooled = _column(tab, "s", np.float64) < _column(tab, "s_max", np.float64)  # > 1 distinct score in the bin
        if pooled.any():
            weight = (pos_w + neg_w)[pooled]
            bound = {
                "bits": bits,
                "largest_bin_rows": int((pos_rows + neg_rows)[pooled].max()),
                "largest_bin_weight": float(weight.max()),
            }
    codes = _column(tab, "sp", np.int64)
    present = np.unique(codes)
    split_idx = np.searchsorted(present, codes)
    if scan.roles.group:
        g_codes, names = pd.factorize(tab.column("g").to_pandas(), sort=True, use_na_sentinel=False)
        groups = tuple(names.tolist())
    else:
        g_codes, groups = np.zeros(tab.num_rows, dtype=np.int64), (None,)
    return ScoreStats.build(
        splits=tuple(SPLIT_NAME[int(c)] for c in present),
        split=split_idx,
        groups=groups,
        group=g_codes,
        score=_column(tab, "s", np.float64),
        pos_rows=pos_rows,
        neg_rows=neg_rows,
        pos_weight=pos_w,
        neg_weight=neg_w,
        weighted=scan.weighted,
        rows=rows,
        **bound,
    )


def _fitting_bits(scan: Scan, max_thresholds: int) -> int:
    """The finest bin level whose (estimated) number of non-empty bins fits `max_thresholds`.

    The coarsest level is taken when no finer one fits, whether it fits or not, so its bins
    are not estimated. The bins are read from the scores' bits where the engine can
    (`binning.binned` with `raw`, the bits cast once per row): the same integers as through the
    logarithm, so the same estimates.
    """
    levels = list(reversed(LEVELS[1:]))
    bins = binned(
        f"SELECT sp, g, s FROM {scan.rows}", ["sp", "g", "s"], {f"b{b}": b for b in levels}, raw=scan.eng.float_bits
    )
    estimates = ", ".join(f"approx_count_distinct(b{b}) AS d{b}" for b in levels)
    frame = scan.eng.sql(f"SELECT sp, g, {estimates} FROM {bins} AS t GROUP BY sp, g")
    fits = [b for b in levels if frame[f"d{b}"].sum() <= max_thresholds]
    return fits[0] if fits else LEVELS[0]


def _empty_sweep() -> GroupedSweep:
    v.warn_degenerate("no cases: every group's sweep is empty")
    empty = np.zeros(0)
    return GroupedSweep((), np.zeros(1, dtype=np.int64), empty, empty, empty, empty, empty)


__all__ = ["ScoreStats", "score_stats"]
