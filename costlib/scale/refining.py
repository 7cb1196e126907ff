"""Cost-optimal cutoffs where the rows live: bin, bound, refine, then fetch the survivors' scores.

How the cost-optimal cutoff is found without holding the rows:

1. One pass counts the weight of each (group, label, score bin) (:class:`Pass1`); the bins are
   those of :mod:`costlib.scale.binning`.
2. The bins that cannot hold the optimum, nor a cutoff tied with it, are dropped by the cost
   bounds of :mod:`costlib.scale.pruning`. Typically a few dozen bins per group survive.
3. The surviving bins are split into finer bins (8 more mantissa bits) by a second pass that
   reads only their rows, and pruned again, until their rows fit in ``ROW_LIMIT`` or a round
   stops halving them. Then their distinct scores are fetched and swept exactly, each offset
   by the exact counts above its bin, with ``+inf`` (flag nobody) as a candidate, and the
   best is chosen by :func:`costlib.core.sweep.argbest`, as in memory (:func:`optimal_units`).

Memory does not grow with the number of rows: only bins, survivors and at most about
``ROW_LIMIT`` distinct scores reach Python. The bounds and the exact refinement are numpy
code shared by both engines; an engine only runs SQL (the same text for DuckDB and Spark)
and registers small tables (:mod:`costlib.scale.engines`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costlib.binary.costs import best_on_sweep
from costlib.core.sweep import Sweep
from costlib.scale.binning import LEVELS, bin_edges, bin_numpy, bin_parent, binned, near_bin_sql, near_bins
from costlib.scale.engines import sql_double, unique_name
from costlib.scale.pruning import Cells, alive_cell, alive_index, cells_frame, prune_all
from costlib.scale.rows import TWO_53, Scan, Units, checks_sql, find_units, validate

if TYPE_CHECKING:
    import pyarrow as pa

# survivors' rows at most for the final exact fetch: above it the survivors' bins are refined
# first. Survivors reach Python as about 40 bytes each (measured: a scan of 1e8 rows whose 4.48
# million survivors are fetched at once peaks at 0.59 GB where the refinement pass kept it at
# 0.41 GB, and is 0.3 to 0.7 s of CPU faster; benchmarks/README.md), about 56 with weights (one
# more float64 column): at this limit 0.25 to 0.35 GB more than the scan's 0.4 GB
ROW_LIMIT = 6 << 20
TRACE: list | None = None  # set to a list to record each round (benchmarks report what survives)


def _near_pass1(scan: Scan) -> pa.Table | None:
    """Pass 1 without weights by the codes of `binning.near_bin_sql`, or None when a score has no
    code there (the general pass then counts again).

    The codes are 16-bit integers computed by comparisons and one exact product, so that, with
    an integer group of up to 16 values and the label, DuckDB counts in a table indexed by the
    keys (`engines.PERFECT_HASH_BITS`) instead of hashing: on probabilities this pass costs about
    1.7 counting passes where the general one costs four. Spark, without that table, still
    spends 10 to 20% less on this pass than on the general one (no logarithm per row).
    """
    import pyarrow as pa

    keys = ", ".join(scan.keys + ["y", "c"])
    cols = ", ".join(scan.keys + ["y"])
    code = near_bin_sql("s", LEVELS[0], cast=scan.eng.code_type)
    tab = scan.eng.sql_arrow(
        f"SELECT {keys}, COUNT(*) AS n FROM (SELECT {cols}, {code} AS c FROM {scan.rows}) AS t GROUP BY {keys}"
    )
    bins, known = near_bins(tab.column("c").to_numpy(zero_copy_only=False), LEVELS[0])
    if not known.all():
        return None
    return scan.with_keys(tab.drop_columns(["c"]).append_column("b", pa.array(bins)))


def _pass1(scan: Scan) -> pa.Table:
    """Rows per (split, group, label, bin); with weights also the positive weight and the checks.

    Without weights, labels and scores are checked from the keys themselves (a label that is
    not 0/1 is its own key, a bad score has no bin), so the pass is a plain count; it is first
    tried by the codes of scores in [2**-16, 2) (:func:`_near_pass1`).
    """
    if not scan.weighted:
        near = _near_pass1(scan)
        if near is not None:
            return near
    keys = ", ".join(scan.keys + ["y", "b"])
    cols = scan.keys + ["y", "s"] + (["w"] if scan.weighted else [])
    rows = binned(
        f"SELECT {', '.join(cols)} FROM {scan.rows}", cols, {"b": LEVELS[0]}, guard=True, raw=scan.eng.float_bits
    )
    if not scan.weighted:
        return scan.with_keys(scan.eng.sql_arrow(f"SELECT {keys}, COUNT(*) AS n FROM {rows} AS t GROUP BY {keys}"))
    return scan.with_keys(
        scan.eng.sql_arrow(
            f"SELECT {keys}, COUNT(*) AS n, SUM(CASE WHEN w > 0 THEN w ELSE 0e0 END) AS w, "
            f"COUNT(CASE WHEN w > 0 THEN 1 END) AS n_pos_w, {checks_sql(True, labels=False)} "
            f"FROM {rows} AS t GROUP BY {keys}"
        )
    )


def _pass1_frame(scan: Scan, tab: pa.Table) -> pd.DataFrame:
    frame = tab.to_pandas()
    frame["n_rows"] = frame["n"]
    frame["bad_y"] = np.where(frame["y"].isin([0.0, 1.0]), 0, frame["n"])
    frame["bad_s"] = np.where(frame["b"].notna(), 0, frame["n"])
    if not scan.weighted:
        frame["w"] = frame["n"].astype(np.float64)
    else:
        frame["n"] = frame["n_pos_w"]  # rows that count (weight > 0), as the refinement passes count them
    return frame


def _is_exact(scan: Scan, frame: pd.DataFrame) -> bool:
    """Integer counts (no weights, or integer weights summing below 2**53) add up exactly."""
    if not scan.weighted:
        return True
    return int(frame["frac_w"].sum()) == 0 and float(frame["w"].sum()) < TWO_53


@dataclass
class Pass1:
    """Pass 1 over all rows, validated: per (split, group, label, bin) counts and the units."""

    frame: pd.DataFrame
    units: Units
    exact: bool

    @classmethod
    def run(cls, scan: Scan) -> Pass1:
        tab = _pass1(scan)
        frame = _pass1_frame(scan, tab)
        validate(scan, frame)
        units, codes = find_units(tab)
        frame["unit"] = codes
        return cls(frame, units, _is_exact(scan, frame))

    def units_of(self, role: str) -> list[int]:
        return [u for u in range(len(self.units.sp)) if self.units.sp[u] == role]


def _bands(units: Units, state: dict, level: int) -> tuple[pa.Table, tuple[float, float]]:
    """Per unit with alive cells, the score band [lo, hi] that holds them (a small table to join),
    and the band of all units (a cheap filter the engine applies first)."""
    import pyarrow as pa

    us, lo, hi = [], [], []
    for u, cells in state.items():
        if cells.alive.any():
            a, b = bin_edges(cells.b[cells.alive], LEVELS[level])
            us.append(u)
            lo.append(float(a.min()))
            hi.append(float(b.max()))
    keys = units.keys.take(pa.array(np.asarray(us, dtype=np.int64)))
    table = pa.table(
        {
            "u": pa.array(np.asarray(us, dtype=np.int64)),
            "sp": keys.column("sp"),
            "g": keys.column("g"),
            "lo": pa.array(np.asarray(lo, dtype=np.float64)),
            "hi": pa.array(np.asarray(hi, dtype=np.float64)),
        }
    )
    return table, (min(lo), max(hi))


def _band_query(
    scan: Scan, select: str, group_by: str | None, units: Units, state: dict, level: int, bins: dict | None = None
) -> pa.Table:
    """``SELECT {select} ... GROUP BY {group_by}`` over the rows in their unit's band, whose columns
    are u (the unit), y, s, w and the `bins` (name -> bits); the rows themselves without `group_by`.
    An arrow table: the survivors' rows reach numpy without a pandas copy."""
    table, (lo, hi) = _bands(units, state, level)
    name = unique_name("band")
    scan.eng.register(name, table)
    on = " AND ".join(f"r.{k} = c.{k}" for k in scan.keys) or "TRUE"
    inner = (
        f"SELECT c.u AS u, r.y AS y, r.s AS s, r.w AS w FROM {scan.rows} r JOIN {name} c ON {on} "
        f"WHERE r.w > 0 AND r.s >= {sql_double(lo)} AND r.s <= {sql_double(hi)} AND r.s >= c.lo AND r.s <= c.hi"
    )
    rows = binned(inner, ["u", "y", "s", "w"], bins, raw=scan.eng.float_bits) if bins else f"({inner})"
    grouped = f" GROUP BY {group_by}" if group_by else ""
    try:
        return scan.eng.sql_arrow(f"SELECT {select} FROM {rows} AS t{grouped}")
    finally:
        scan.eng.drop(name)


def _refine(scan: Scan, units: Units, state: dict, level: int) -> None:
    """Split every alive cell into the next level's bins (one pass over the rows in the units' bands).

    The engine counts the rows of each unit's band by finer bin; numpy keeps the finer bins
    whose parent (the bins nest exactly) is an alive cell.
    """
    frame = _band_query(
        scan, "u, y, b, COUNT(*) AS n, SUM(w) AS w", "u, y, b", units, state, level, bins={"b": LEVELS[level + 1]}
    ).to_pandas()
    u = frame["u"].to_numpy(dtype=np.int64)
    parent = bin_parent(frame["b"].to_numpy(dtype=np.int64), LEVELS[level + 1], LEVELS[level])
    frame = frame[alive_index(state, u, parent) >= 0]
    children = cells_frame(frame, "u", LEVELS[level + 1])
    by_unit = dict(tuple(children.groupby("u", sort=False)))
    for unit, cells in state.items():
        old = cells.frame(~cells.alive).assign(alive=False)
        new = by_unit.get(unit)
        if new is not None:
            old = pd.concat([old, new[["top", "pos", "neg", "n", "b"]].assign(alive=True)], ignore_index=True)
        state[unit] = Cells.from_frame(old)


def _final(scan: Scan, units: Units, state: dict, level: int) -> dict:
    """Distinct scores of the alive cells: {unit: (scores desc, tp, fp)} exact at each score.

    The alive cells' rows (at most about ``ROW_LIMIT``) are fetched as they are, not grouped by
    score in the engine (a hash aggregation of as many groups as rows cost the engine more),
    and each unit's are swept on their own (:func:`_candidates`).
    """
    out: dict = {u: (np.zeros(0), np.zeros(0), np.zeros(0)) for u in state}
    if not any(c.alive.any() for c in state.values()):
        return out
    tab = _band_query(scan, "u, y, s, w" if scan.weighted else "u, y, s", None, units, state, level)
    u = _column(tab, "u", np.int64)
    s = _column(tab, "s", np.float64)
    y = tab.column("y").to_numpy() == 1
    w = _column(tab, "w", np.float64) if scan.weighted else None
    del tab
    # the units side by side: a stable radix sort on 16-bit unit codes where they fit
    small = np.int16 if u.size == 0 or (int(u.min()) >= 0 and int(u.max()) < 2**15) else np.int64
    order = np.argsort(u.astype(small), kind="stable")
    cuts = np.concatenate(([0], np.flatnonzero(np.diff(u[order])) + 1, [u.size]))
    for a, b in zip(cuts[:-1], cuts[1:], strict=True):
        rows = order[a:b]
        unit = int(u[rows[0]])
        out[unit] = _candidates(state[unit], s[rows], y[rows], None if w is None else w[rows], LEVELS[level])
    return out


def _candidates(cells: Cells, s: np.ndarray, y: np.ndarray, w: np.ndarray | None, bits: int) -> tuple:
    """One unit's candidates from its fetched rows: (distinct scores desc, tp, fp), exact at each.

    `s`, `y` (positive or not) and `w` (None: every weight 1) are the rows fetched from the
    unit's band; those outside its alive cells (`cells`, bins of `bits` mantissa bits) are
    dropped. Sorted by descending score (numpy's fastest sort: the order of equal scores does
    not matter, their weights are summed), each distinct score gets the weights of its
    positives and negatives; its counts are those of the cells above its cell plus the rows
    above it in its own cell.
    """
    s = s + 0.0  # -0.0 and 0.0 are one threshold, shown as 0.0
    cell = alive_cell(cells, bin_numpy(s, bits))
    keep = np.flatnonzero(cell >= 0)
    if keep.size < s.size:
        s, y, cell = s[keep], y[keep], cell[keep]
        w = None if w is None else w[keep]
    order = np.argsort(-s)
    s, y, cell = s[order], y[order], cell[order]
    start = np.flatnonzero(np.concatenate(([True], s[1:] != s[:-1]))) if s.size else np.zeros(0, dtype=np.int64)
    if s.size == 0:
        pos = neg = np.zeros(0)
    elif w is None:  # counts: integers, exact
        pos = np.add.reduceat(y.astype(np.float64), start)
        neg = np.diff(np.concatenate((start, [s.size]))) - pos
    else:
        w = w[order]
        pos = np.add.reduceat(np.where(y, w, 0.0), start)
        neg = np.add.reduceat(np.where(y, 0.0, w), start)
    s, cell = s[start], cell[start]
    pos_above = np.concatenate(([0.0], np.cumsum(cells.pos)[:-1]))[cell]
    neg_above = np.concatenate(([0.0], np.cumsum(cells.neg)[:-1]))[cell]
    first = np.concatenate(([True], cell[1:] != cell[:-1]))
    return s, _cumsum_within(pos, first) + pos_above, _cumsum_within(neg, first) + neg_above


def _column(tab: pa.Table, name: str, dtype) -> np.ndarray:
    """One column of an arrow result as a numpy array of `dtype` (no nulls: the rows are validated)."""
    return np.asarray(tab.column(name).to_numpy(), dtype=dtype)


def _cumsum_within(x: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Cumulative sums restarting where `first` is True (runs of one cell), each run summed on its own."""
    out = np.empty_like(x)
    starts = np.flatnonzero(first)
    ends = np.concatenate((starts[1:], [x.size]))
    for a, b in zip(starts, ends, strict=True):
        out[a:b] = np.cumsum(x[a:b])
    return out


def optimal_units(scan: Scan, units: Units, cells: pd.DataFrame, wanted: dict, exact: bool) -> dict:
    """{unit: (threshold, cost_per_case)} for the units in `wanted` ({unit: (c_fp, c_fn)})."""
    totals = cells.groupby("unit")[["pos", "neg"]].sum()
    result, state = {}, {}
    for u in wanted:
        P = float(totals["pos"].get(u, 0.0))
        N = float(totals["neg"].get(u, 0.0))
        if P <= 0 or N <= 0:  # one class: no threshold to fit, NaN with the in-memory sweep's warning
            result[u] = best_on_sweep(Sweep(np.array([np.inf]), np.zeros(1), np.zeros(1), P, N), *wanted[u])
            continue
        state[u] = Cells.from_frame(cells[cells["unit"] == u])
    level, prev = 0, math.inf
    while state:
        rows = prune_all(state, wanted, exact)
        if TRACE is not None:
            cells = sum(int(c.alive.sum()) for c in state.values())
            TRACE.append({"round": level + 1, "bits": LEVELS[level], "alive_cells": cells, "alive_rows": rows})
        if rows <= ROW_LIMIT or level + 1 >= len(LEVELS) or rows > prev / 2:
            break
        prev = rows
        _refine(scan, units, state, level)
        level += 1
    candidates = _final(scan, units, state, level) if state else {}
    for u, cells in state.items():
        c_fp, c_fn = wanted[u]
        s, tp, fp = candidates[u]
        P, N = float(cells.pos.sum()), float(cells.neg.sum())
        # the candidates' sweep: +inf, then the survivors' distinct scores with exact counts
        sweep = Sweep(np.concatenate(([np.inf], s)), np.concatenate(([0.0], tp)), np.concatenate(([0.0], fp)), P, N)
        result[u] = best_on_sweep(sweep, c_fp, c_fn)  # the in-memory choice: argbest of the cost per case
    return result


__all__ = ["ROW_LIMIT", "TRACE", "Pass1", "optimal_units"]
