"""What the Data page says about the loaded dataset: its size, splits, models and groups."""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib.core.dataset import SPLIT_ROLES, Dataset
from costlib.core.escaping import safe_cells


def summary_metrics(ds: Dataset) -> list[tuple[str, str] | None]:
    """Four (label, value) slots: rows, positives, groups, splits (None where a role is absent).

    >>> from costlib.core.dataset import ColumnMapping
    >>> ds = Dataset(name="d", fingerprint="", n_rows=4, mapping=ColumnMapping(), y=np.array([1, 0, 0, 0]))
    >>> summary_metrics(ds)
    [('Rows', '4'), ('Positives', '1 (25.0%)'), None, None]
    """
    if ds.counts_only:
        ms = next(iter(ds.sweeps.values()))
        pos = ms.fit_pooled.positives + (ms.judge_pooled.positives if ms.judged_on == "test" else 0.0)
        return [
            ("Rows", f"{ds.n_rows:,}"),
            ("Positives", f"{pos:,.0f} ({pos / max(ds.n_rows, 1):.1%})"),
            ("Groups", f"{len(ms.groups)}") if ms.grouped else None,
            ("Splits", "2") if ms.judged_on == "test" else None,
        ]
    w = ds.weight
    positives = None
    if ds.y is not None:
        positives = ("Positives", f"{int(ds.y.sum()):,} ({ds.y.mean():.1%})")
        if w is not None:  # the share of the cases the rows stand for, as every cost counts them
            share = float(w[ds.y.astype(bool)].sum()) / max(float(w.sum()), 1e-300)
            positives = ("Positives by weight", f"{share:.1%}")
    return [
        ("Rows", f"{ds.n_rows:,}"),
        positives,
        None if ds.groups is None else ("Groups", f"{len(pd.unique(ds.groups))}"),
        None if ds.split is None else ("Splits", f"{len(pd.unique(ds.split))}"),
    ]


def weights_sentence(ds: Dataset) -> str | None:
    """What a weight column makes of the rows, or None without one.

    >>> from costlib.core.dataset import ColumnMapping
    >>> ds = Dataset(name="d", fingerprint="", n_rows=3, mapping=ColumnMapping(weight="w"), y=np.array([1, 0, 0]),
    ...              weight=np.array([1.0, 10.0, 10.0]))
    >>> weights_sentence(ds)
    'The rows carry weights (column “w”): the 3 rows stand for 21 cases, and 1 row is positive.'
    """
    if ds.weight is None:
        return None
    from costlib.core.escaping import shorten

    pos = (
        "" if ds.y is None else f", and {int(ds.y.sum()):,} {'row is' if int(ds.y.sum()) == 1 else 'rows are'} positive"
    )
    return (
        f"The rows carry weights (column “{shorten(ds.mapping.weight or '')}”): the {ds.n_rows:,} rows stand for "
        f"{float(ds.weight.sum()):,.0f} cases{pos}."
    )


def rows_per_split_sentence(ds: Dataset) -> str | None:
    """'Rows per split: train 3,085, test 3,087', or None without a split column."""
    if ds.split is None:
        return None
    counts = {role: int(np.count_nonzero(ds.split == role)) for role in SPLIT_ROLES}
    return "Rows per split: " + ", ".join(f"{role} {k:,}" for role, k in counts.items() if k)


def _shown_as(fmt: str) -> dict:
    """A grid column's number format (Streamlit's column configuration, as a plain mapping)."""
    return {"type_config": {"type": "number", "format": fmt}}


#: how the grid shows `summary_tables`' numbers: counts with thousands separators and the positive
#: share in percent, as the tiles above them read ("2,809 (45.5%)"), not "3175" and "0.5231"
SUMMARY_COLUMNS = {
    "rows": _shown_as("localized"),
    "distinct values": _shown_as("localized"),
    "positive share": _shown_as("percent"),
    "cases by weight": _shown_as("localized"),
    "positive share (by weight)": _shown_as("percent"),
}


def summary_tables(ds: Dataset) -> list[pd.DataFrame]:
    """The score range of each model and, with groups, rows and positive share per group.

    The tables hold user text (column and group names) and are made safe to display
    (`safe_cells`), so Streamlit's toolbar download exports neutralised cells.
    """
    tables = []
    if ds.counts_only:
        rows = []
        for name, ms in ds.sweeps.items():
            t = ms.fit_pooled.thresholds[1:]
            rows.append(
                {
                    "model (score column)": name,
                    "min": float(t.min()) if t.size else np.nan,
                    "max": float(t.max()) if t.size else np.nan,
                    "distinct values": int(t.size),
                }
            )
        tables.append(safe_cells(pd.DataFrame(rows)))
        ms = next(iter(ds.sweeps.values()))
        if ms.grouped:
            g = pd.DataFrame(
                {
                    "group": list(ms.groups),
                    "rows": [ms.fit[x].total + (ms.judge[x].total if ms.judged_on == "test" else 0) for x in ms.groups],
                }
            )
            pos = [ms.fit[x].positives + (ms.judge[x].positives if ms.judged_on == "test" else 0) for x in ms.groups]
            g["positive share"] = np.asarray(pos) / np.maximum(g["rows"].to_numpy(float), 1e-300)
            tables.append(safe_cells(g))
        return tables
    if ds.scores:
        rows = [
            {"model (score column)": name, "min": float(np.min(s)), "max": float(np.max(s)),
             "distinct values": int(len(np.unique(s)))}
            for name, s in ds.scores.items()
        ]  # fmt: skip
        tables.append(safe_cells(pd.DataFrame(rows)))
    if ds.groups is not None:
        g = pd.Series(ds.groups).value_counts().rename_axis("group").reset_index(name="rows")
        w = np.ones(ds.n_rows) if ds.weight is None else ds.weight
        if ds.weight is not None:  # the cases the rows stand for, as every cost is counted
            g["cases by weight"] = pd.Series(w).groupby(ds.groups).sum().reindex(g["group"]).to_numpy()
        if ds.y is not None:
            by = pd.DataFrame({"pos": w * ds.y, "all": w}).groupby(ds.groups).sum().reindex(g["group"])
            g["positive share" if ds.weight is None else "positive share (by weight)"] = (
                by["pos"] / by["all"]
            ).to_numpy()
        tables.append(safe_cells(g))
    return tables
