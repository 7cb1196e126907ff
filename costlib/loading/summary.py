"""What the Data page says about the loaded dataset: its size, splits, models and groups."""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib.dataset import SPLIT_ROLES, Dataset
from costlib.loading.export import safe_cells


def summary_metrics(ds: Dataset) -> list[tuple[str, str] | None]:
    """Four (label, value) slots: rows, positives, groups, splits (None where a role is absent).

    >>> from costlib.dataset import ColumnMapping
    >>> ds = Dataset(name="d", fingerprint="", n_rows=4, mapping=ColumnMapping(), y=np.array([1, 0, 0, 0]))
    >>> summary_metrics(ds)
    [('Rows', '4'), ('Positives', '1 (25.0%)'), None, None]
    """
    return [
        ("Rows", f"{ds.n_rows:,}"),
        None if ds.y is None else ("Positives", f"{int(ds.y.sum()):,} ({ds.y.mean():.1%})"),
        None if ds.groups is None else ("Groups", f"{len(pd.unique(ds.groups))}"),
        None if ds.split is None else ("Splits", f"{len(pd.unique(ds.split))}"),
    ]


def split_sentence(ds: Dataset) -> str | None:
    """'Rows per split: train 3,085, test 3,087', or None without a split column."""
    if ds.split is None:
        return None
    counts = {role: int(np.count_nonzero(ds.split == role)) for role in SPLIT_ROLES}
    return "Rows per split: " + ", ".join(f"{role} {k:,}" for role, k in counts.items() if k)


def summary_tables(ds: Dataset) -> list[pd.DataFrame]:
    """The score range of each model and, with groups, rows and positive share per group.

    The tables hold user text (column and group names) and are made safe to display
    (`safe_cells`), so Streamlit's toolbar download exports neutralised cells.
    """
    tables = []
    if ds.scores:
        rows = [
            {"model (score column)": name, "min": float(np.min(s)), "max": float(np.max(s)),
             "distinct values": int(len(np.unique(s)))}
            for name, s in ds.scores.items()
        ]  # fmt: skip
        tables.append(safe_cells(pd.DataFrame(rows)))
    if ds.groups is not None:
        g = pd.Series(ds.groups).value_counts().rename_axis("group").reset_index(name="rows")
        if ds.y is not None:
            share = pd.Series(ds.y, dtype=float).groupby(ds.groups).mean()
            g["positive share"] = share.reindex(g["group"]).to_numpy()
        tables.append(safe_cells(g))
    return tables
