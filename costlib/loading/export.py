"""What the Data page shows of an uploaded table: its first rows, safe to display, and a caption.

The cells go through `costlib.core.escaping.safe_cells` (spreadsheet formulas in user text
neutralised, so Streamlit's toolbar "Download as CSV" exports safe cells), and the file's
name through `costlib.core.escaping.display_name`.
"""

from __future__ import annotations

import pandas as pd

from costlib.core.escaping import display_name, safe_cells
from costlib.loading.messages import NOTE_PREVIEW, NOTE_PREVIEW_WIDE

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
        The first PREVIEW_ROWS rows and at most PREVIEW_COLUMNS columns through `safe_cells`,
        and a caption with the table's size that says when columns were left out.

    Examples
    --------
    >>> head, caption = preview(pd.DataFrame({"a": range(9)}), "x.csv")
    >>> head.shape, caption
    ((5, 1), '"x.csv": 9 rows, 1 columns. First rows:')
    """
    name = display_name(filename)
    head = df.iloc[:PREVIEW_ROWS, :PREVIEW_COLUMNS]
    if df.shape[1] > PREVIEW_COLUMNS:
        caption = NOTE_PREVIEW_WIDE.format(name=name, rows=len(df), columns=df.shape[1], shown=PREVIEW_COLUMNS)
    else:
        caption = NOTE_PREVIEW.format(name=name, rows=len(df), columns=df.shape[1])
    return safe_cells(head), caption
