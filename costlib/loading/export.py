"""Tables leaving the app as CSV: spreadsheet formulas in user text are neutralised.

A cell a spreadsheet would run as a formula gets a leading apostrophe, so it shows as the
text it is. That is a cell starting with = + - @ (or their full-width and small forms,
such as "＝"), also after leading spaces or invisible characters, and a cell starting with
a tab or a carriage return. A plain number such as "-3.5" is left alone.

`safe_csv` is the app's own download; `safe_cells` makes what a table *displays* safe for
Streamlit's built-in toolbar "Download as CSV", which exports the displayed cells verbatim.
"""

from __future__ import annotations

import unicodedata

import pandas as pd

from costlib.loading.cells import NUMBER_RE
from costlib.loading.messages import NOTE_PREVIEW, NOTE_PREVIEW_WIDE, display_name

_FORMULA_START = ("=", "+", "-", "@")
_CONTROL_START = ("\t", "\r", "\n")


def _formula_like(text: str) -> bool:
    if text.startswith(_CONTROL_START):
        return True
    folded = unicodedata.normalize("NFKC", text)  # "＝" -> "=", "﹢" -> "+", non-breaking space -> " "
    i = 0
    while i < len(folded) and (folded[i].isspace() or unicodedata.category(folded[i]) in ("Cc", "Cf")):
        i += 1
    if i > 0 and folded[i:].startswith(_CONTROL_START):
        return True
    return folded[i:].startswith(_FORMULA_START) and not NUMBER_RE.match(folded[i:])


def neutralise(value: object) -> object:
    """One cell, neutralised: text a spreadsheet would run as a formula gets a leading apostrophe.

    Parameters
    ----------
    value : object
        A cell; only text is ever changed.

    Returns
    -------
    object
        "'" + value for text starting (after spaces or invisible characters) with = + - @ or
        their full-width or small forms, or with a tab, CR or line feed, unless it is a plain
        number such as "-3.5"; otherwise `value` itself.

    Examples
    --------
    >>> neutralise("=HYPERLINK(\\"http://x\\")"), neutralise(" =1+1"), neutralise("＝1+1")
    ('\\'=HYPERLINK("http://x")', "' =1+1", "'＝1+1")
    >>> neutralise("-3.5"), neutralise(-3.5), neutralise("ok")
    ('-3.5', -3.5, 'ok')
    """
    if isinstance(value, str) and _formula_like(value):
        return "'" + value
    return value


def safe_cells(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of a table that is safe to display: text cells, column names and index labels
    `neutralise`d.

    Give this to ``st.dataframe`` for a table that holds user text: Streamlit's toolbar
    "Download as CSV" exports the displayed cells verbatim, which are then already safe.

    Parameters
    ----------
    df : DataFrame
        The table to show; it is not changed.

    Returns
    -------
    DataFrame
        A copy; numeric, boolean and date columns are unchanged, so they still sort and
        format as numbers.

    Examples
    --------
    >>> safe_cells(pd.DataFrame({"=g": ["@x", "a"], "n": [-1, 2]})).to_dict("list")
    {"'=g": ["'@x", 'a'], 'n': [-1, 2]}
    """
    out = df.copy()
    for i in range(out.shape[1]):
        s = out.iloc[:, i]
        if _plain(s.dtype):
            continue
        out.isetitem(i, s.astype(object).map(neutralise))
    out.columns = _safe_index(out.columns)
    out.index = _safe_index(out.index)
    return out


def _plain(dtype) -> bool:
    """True for columns that cannot hold text: numbers, booleans, dates."""
    if isinstance(dtype, pd.CategoricalDtype):
        return False
    return pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype) or dtype.kind in "mM"


def _safe_index(index: pd.Index) -> pd.Index:
    if isinstance(index, pd.MultiIndex):
        return pd.MultiIndex.from_tuples(
            [tuple(neutralise(x) for x in t) for t in index], names=[neutralise(n) for n in index.names]
        )
    if isinstance(index, pd.RangeIndex) or _plain(index.dtype):
        return index.rename(neutralise(index.name))
    return pd.Index([neutralise(x) for x in index], name=neutralise(index.name))


def safe_csv(df: pd.DataFrame) -> bytes:
    """UTF-8 CSV bytes for a download, with spreadsheet formulas neutralised.

    Parameters
    ----------
    df : DataFrame
        The table; a non-default index is written as ordinary columns.

    Returns
    -------
    bytes
        CSV whose text cells and column names went through `neutralise`; numeric columns
        are written unchanged (a negative number stays a number).

    Examples
    --------
    >>> safe_csv(pd.DataFrame({"name": ["=1+1", "ok"], "x": [-1.5, 2.0]})).decode()
    "name,x\\n'=1+1,-1.5\\nok,2.0\\n"
    """
    out = df if isinstance(df.index, pd.RangeIndex) else df.reset_index()
    out = safe_cells(out)
    out.columns = [neutralise(str(c)) for c in out.columns]
    return out.to_csv(index=False, lineterminator="\n").encode("utf-8")


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
