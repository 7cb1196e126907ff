"""What the Data page shows of an uploaded table: its first rows, safe to display, and a caption.

The cells go through `costlib.core.escaping.safe_cells` (spreadsheet formulas in user text
neutralised, so Streamlit's toolbar "Download as CSV" exports safe cells; text cut to
`MAX_CELL_CHARS` characters and plain strings, never a categorical's whole dictionary), and
the file's name through `costlib.core.escaping.display_name`.
"""

from __future__ import annotations

import pandas as pd

from costlib.core.escaping import MAX_CELL_CHARS, cut_cells, display_name, safe_cells
from costlib.loading.messages import NOTE_PREVIEW, NOTE_PREVIEW_CUT, NOTE_PREVIEW_CUT_NAMES, NOTE_PREVIEW_WIDE, plural

PREVIEW_ROWS = 5
PREVIEW_COLUMNS = 50  # a preview of a wider table shows its first columns only


def preview(df: pd.DataFrame, filename: str) -> tuple[pd.DataFrame, str]:
    """The first rows of an uploaded table, safe to show, and their caption.

    Parameters
    ----------
    df : DataFrame
        A table from `read_table`.
    filename : str
        The file's name (shown through `display_name`).

    Returns
    -------
    (DataFrame, str)
        The first PREVIEW_ROWS rows and at most PREVIEW_COLUMNS columns through `safe_cells`
        (so no cell or column name is longer than MAX_CELL_CHARS characters), and a caption
        with the table's size that says when columns were left out and when cells were cut.

    Examples
    --------
    >>> head, caption = preview(pd.DataFrame({"a": range(9)}), "x.csv")
    >>> head.shape, caption
    ((5, 1), '"x.csv": 9 rows, 1 column. First rows:')
    >>> head, caption = preview(pd.DataFrame({"a": ["x" * 1000]}), "x.csv")
    >>> len(head["a"][0]), caption
    (200, '"x.csv": 1 row, 1 column. First rows, with 1 cell longer than 200 characters cut short at "…":')
    >>> preview(pd.DataFrame({"n" * 500: [1]}), "x.csv")[1]
    '"x.csv": 1 row, 1 column. First rows, with 1 column name longer than 200 characters cut short at "…":'
    """
    name = display_name(filename)
    head = df.iloc[:PREVIEW_ROWS, :PREVIEW_COLUMNS]
    cut = _cut_words(head)
    words = {
        "row_word": plural(len(df), "row", "rows"),
        "columns_word": plural(df.shape[1], "column", "columns"),
    }
    if df.shape[1] > PREVIEW_COLUMNS:
        caption = NOTE_PREVIEW_WIDE.format(
            name=name, rows=len(df), columns=df.shape[1], shown=PREVIEW_COLUMNS, cut=cut, **words
        )
    else:
        caption = NOTE_PREVIEW.format(name=name, rows=len(df), columns=df.shape[1], cut=cut, **words)
    return safe_cells(head), caption


def _cut_words(head: pd.DataFrame) -> str:
    """What the caption says of the cells and column names of `head` that are cut ("" for none):
    a column name is said to be one, not a cell of the table."""
    n_cut = cut_cells(head)
    if not n_cut:
        return ""
    n_names = cut_cells(head.iloc[:0])  # the header alone: its column names
    if n_names == n_cut:
        cells, names = plural(n_cut, "column name", "column names"), ""
    else:
        cells = plural(n_cut, "cell", "cells")
        names = NOTE_PREVIEW_CUT_NAMES.format(count=n_names, names=plural(n_names, "a column name", "column names"))
        names = names if n_names else ""
    return NOTE_PREVIEW_CUT.format(count=n_cut, cells=cells, limit=MAX_CELL_CHARS, names=names)
