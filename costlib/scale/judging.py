"""Judging cutoffs where the rows live: per group, the cases flagged, FP and FN at given cutoffs.

:func:`judge` sends the cutoffs to the engine as a small table and counts, in one pass over
the rows, each group's cases by label and by whether each cutoff set flags them;
:func:`cost_table` turns those counts into the rows of :func:`costlib.group_costs`.
`typed_keys` and `key_type` make the caller's group names joinable with the group column.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costlib.binary.costs import GROUP_COST_COLUMNS
from costlib.core import validation as v
from costlib.core.prices import mistakes_cost
from costlib.scale.engines import KIND_BOOL, KIND_INT, KIND_TEXT, MAX_DOUBLE, unique_name
from costlib.scale.rows import Scan, checks_sql

if TYPE_CHECKING:
    import pyarrow as pa


def typed_keys(values: list, kind: str | None) -> tuple[list, list]:
    """(keys usable in a join with a group column of `kind`, the original keys they stand for)."""
    out, orig = [], []
    for k in values:
        if kind is None:  # no group column: the one group is None, stored as 0
            if k is None:
                out.append(0)
                orig.append(k)
            continue
        if kind == KIND_TEXT and isinstance(k, str):
            out.append(k)
        elif kind == KIND_BOOL and isinstance(k, bool | np.bool_):
            out.append(bool(k))
        elif kind == KIND_INT and isinstance(k, int | np.integer | float | np.floating) and not isinstance(k, bool):
            if float(k).is_integer():
                out.append(int(k))
            else:
                continue
        elif kind == "float" and isinstance(k, int | np.integer | float | np.floating) and not isinstance(k, bool):
            out.append(float(k))
        else:
            continue
        orig.append(k)
    return out, orig


def key_array(keys: list, kind: str | None) -> pa.Array:
    """`keys` (from `typed_keys`) as an arrow array of the type of a group column of `kind`."""
    import pyarrow as pa

    dtype = {KIND_TEXT: pa.string(), KIND_BOOL: pa.bool_(), KIND_INT: pa.int64(), "float": pa.float64()}.get(
        kind, pa.int64()
    )
    return pa.array(keys, type=dtype)


def judge(scan: Scan, cutoffs: list, keys: pa.Array, where: str = "") -> pd.DataFrame:
    """Per group (of the rows matching `where`): weighted n, and flagged, fp, fn at each cutoff set.

    `keys` are group values in the engine's type; ``cutoffs[i][k]`` is the cutoff of cutoff set
    i for the k-th key. Groups not among the keys come back with ``matched == 0``. The engine
    groups the rows by (split, group, label, flagged at each cutoff set) -- a few keys, no sums
    of conditions -- and the sums are taken here; a bad score has no "flagged" key, a bad
    label is its own key, so the same pass checks the rows.
    """
    import pyarrow as pa

    cols = {"g": keys}
    for i, cut in enumerate(cutoffs):
        cols[f"t{i}"] = pa.array(np.asarray(cut, dtype=np.float64))
    name = unique_name("cut")
    scan.eng.register(name, pa.table(cols))
    flags = [
        f"CASE WHEN ABS(r.s) <= {MAX_DOUBLE} THEN (CASE WHEN c.g IS NULL THEN 2 WHEN r.s >= c.t{i} THEN 1 ELSE 0 END) "
        f"END AS f{i}"
        for i in range(len(cutoffs))
    ]
    fs = [f"f{i}" for i in range(len(cutoffs))]
    keys_sql = ", ".join(["sp", "g", "y", *fs])
    weight = (", SUM(w) AS w, " + checks_sql(True, labels=False)) if scan.weighted else ""
    inner = (
        f"SELECT r.sp AS sp, r.g AS g, r.y AS y, r.w AS w, {', '.join(flags)} "
        f"FROM {scan.rows} r LEFT JOIN {name} c ON r.g = c.g {where}"
    )
    try:
        frame = scan.eng.sql(f"SELECT {keys_sql}, COUNT(*) AS n_rows{weight} FROM ({inner}) AS t GROUP BY {keys_sql}")
    finally:
        scan.eng.drop(name)
    w = frame["w"].to_numpy(dtype=np.float64) if scan.weighted else frame["n_rows"].to_numpy(dtype=np.float64)
    y = frame["y"]
    parts = {
        "n_rows": frame["n_rows"].to_numpy(),
        "n": w,
        "bad_y": np.where(y.isin([0, 1]), 0, frame["n_rows"]),
        "bad_s": np.where(frame["f0"].isna(), frame["n_rows"], 0),
        "matched": np.where(frame["f0"] == 2, 0, frame["n_rows"]),
    }
    if scan.weighted:
        parts["neg_w"] = frame["neg_w"].to_numpy()
        parts["bad_w"] = frame["bad_w"].to_numpy()
    for i, f in enumerate(fs):
        flagged = (frame[f] == 1).to_numpy()
        kept = (frame[f] == 0).to_numpy()
        parts[f"flagged{i}"] = np.where(flagged, w, 0.0)
        parts[f"fp{i}"] = np.where(flagged & (y == 0).to_numpy(), w, 0.0)
        parts[f"fn{i}"] = np.where(kept & (y == 1).to_numpy(), w, 0.0)
    out = pd.DataFrame(parts).assign(sp=frame["sp"].to_numpy(), g=frame["g"].to_numpy())
    return out.groupby(["sp", "g"], sort=False, dropna=False).sum().reset_index()


def cost_table(
    frame: pd.DataFrame, i: int, names: list, shown: list, prices: dict, cut: dict, weighted: bool
) -> pd.DataFrame:
    """One cutoff set's rows of group_costs, computed exactly as costlib.binary.costs.group_costs does."""
    f = frame.set_index("g").loc[names] if len(names) else frame.iloc[:0]
    n = f["n"].to_numpy(dtype=np.float64)
    n_flag = f[f"flagged{i}"].to_numpy(dtype=np.float64).copy()
    fp = f[f"fp{i}"].to_numpy(dtype=np.float64).copy()
    fn = f[f"fn{i}"].to_numpy(dtype=np.float64).copy()
    t = np.array([cut[g] for g in shown], dtype=np.float64)
    nan_rows = np.isnan(t)
    fp[nan_rows] = np.nan
    fn[nan_rows] = np.nan
    n_flag[nan_rows] = np.nan
    c_fp = np.array([prices[g][0] for g in shown])
    c_fn = np.array([prices[g][1] for g in shown])
    return pd.DataFrame(
        {
            "group": list(shown),
            "n": n if weighted else n.astype(np.int64),
            "threshold": t,
            "flagged_rate": v.safe_divide(n_flag, n),
            "fp": fp,
            "fn": fn,
            "cost_per_100": 100 * v.safe_divide(mistakes_cost(fp, fn, c_fp, c_fn), n),
        },
        columns=GROUP_COST_COLUMNS,
    )


def cutoff_values(thresholds, shown: list) -> dict:
    if not isinstance(thresholds, Mapping):
        if len(shown) == 1 and shown[0] is None:
            thresholds = {None: thresholds}
        else:
            raise ValueError(f"thresholds must map each group to a value: got {type(thresholds).__name__}")
    missing = [g for g in shown if g not in thresholds]
    if missing:
        raise ValueError(v.MSG_MISSING_GROUP.format(name="thresholds", group=missing[0], present=list(shown)))
    out = {}
    for g in shown:
        try:
            out[g] = float(thresholds[g])
        except (TypeError, ValueError):
            raise ValueError(f"thresholds[{g!r}] must be a number: got {thresholds[g]!r}") from None
        if np.isnan(out[g]):
            v.warn_degenerate(f"the cutoff for group {g!r} is NaN: its row is NaN")
    return out


__all__ = ["cost_table", "cutoff_values", "judge", "key_array", "typed_keys"]
