"""What both readers do to the DataFrame they parse: store it compactly, join its chunks, tidy it.

Large tables are stored compactly while they are read (integer columns in the smallest
integer type, repetitive text as categories), so a session keeps little more than the
numbers it needs; a table is then tidied (unnamed empty columns dropped, columns and rows
required) before any caller sees it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib.core.errors import DataError
from costlib.loading.messages import MSG_EMPTY, MSG_HEADER_ONLY, NOTE_EMPTY_COLUMNS, plural, q
from costlib.loading.repeated import AMBIGUOUS

COMPACT_ROWS = 10_000  # tables with fewer rows are left exactly as pandas reads them
CATEGORY_SHARE = 4  # text with at most one distinct value per this many cells becomes categorical


def frame_bytes(df: pd.DataFrame) -> int:
    """Bytes `df`'s columns take: by dtype for fixed-width columns, counted cell by cell only
    for text (pandas' deep memory_usage takes seconds on a table of 100,000 columns)."""
    fixed = 0
    text = []
    for j, dtype in enumerate(df.dtypes):
        if isinstance(dtype, np.dtype) and dtype.kind != "O":
            fixed += dtype.itemsize
        else:
            text.append(j)
    total = fixed * len(df)
    if text:
        total += int(df.iloc[:, text].memory_usage(deep=True, index=False).sum())
    return total


def compact_plan(first: pd.DataFrame, final: bool) -> dict[int, bool]:
    """Which text columns to keep as categories, decided on the first chunk (all chunks agree).

    Nothing is changed for a table small enough to be read in one chunk of fewer than
    COMPACT_ROWS rows: what pandas reads is what the caller gets.
    """
    if final and len(first) < COMPACT_ROWS:
        return {}
    plan = {}
    for j in range(first.shape[1]):
        s = first.iloc[:, j]
        if _is_text(s):
            plan[j] = s.nunique(dropna=True) * CATEGORY_SHARE <= len(s)
        elif pd.api.types.is_integer_dtype(s.dtype):
            plan[j] = False
    return plan


def _is_text(s: pd.Series) -> bool:
    return s.dtype == object or isinstance(s.dtype, pd.StringDtype)


def compact(chunk: pd.DataFrame, plan: dict[int, bool]) -> pd.DataFrame:
    """Integers in the smallest integer type; planned text columns as categories (in place)."""
    for j in plan:
        s = chunk.iloc[:, j]
        if pd.api.types.is_integer_dtype(s.dtype) and len(s):
            small = _smallest_int(s.to_numpy())
            if small is not None:
                chunk.isetitem(j, small)
        elif plan[j] and _is_text(s):
            chunk.isetitem(j, s.astype("category"))
    return chunk


def _smallest_int(values: np.ndarray) -> np.ndarray | None:
    """`values` in a smaller integer type that holds them all, or None."""
    lo, hi = values.min(), values.max()
    for dtype in (np.int8, np.int16, np.int32):
        info = np.iinfo(dtype)
        if values.dtype.itemsize > info.bits // 8 and info.min <= lo and hi <= info.max:
            return values.astype(dtype)
    return None


def concat(chunks: list[pd.DataFrame]) -> pd.DataFrame:
    """The chunks as one table; categorical pieces of a column are united, not widened to text.

    Column by column, letting go of each column's pieces once they are joined, so the peak is
    the table plus one column rather than twice the table.
    """
    if len(chunks) <= 1:
        return chunks[0] if chunks else pd.DataFrame()  # no chunk at all: tidy says the file is empty
    header = chunks[0].columns
    pieces = [[c.iloc[:, j] for j in range(c.shape[1])] for c in chunks]
    chunks.clear()
    columns = {}
    for j in range(len(header)):
        column = [p[j] for p in pieces]
        for p in pieces:
            p[j] = None
        if all(isinstance(p.dtype, pd.CategoricalDtype) for p in column):
            columns[j] = pd.Series(pd.api.types.union_categoricals(column, ignore_order=True), copy=False)
        else:
            columns[j] = pd.concat([_uncategorise(p) for p in column], ignore_index=True)
        del column
    out = pd.concat(columns, axis=1)
    out.columns = header
    return out


def _uncategorise(s: pd.Series) -> pd.Series:
    if isinstance(s.dtype, pd.CategoricalDtype):
        return s.astype(s.cat.categories.dtype)
    return s


def tidy(df: pd.DataFrame, name: str, notes: list[str]) -> pd.DataFrame:
    """Drop unnamed empty columns (separators at the ends of lines), require columns and rows.

    The result's attrs hold `notes` (the same list: later notes still reach it) and the
    repeated names `resolve_repeated` left ambiguous.
    """
    ambiguous = df.attrs.get(AMBIGUOUS)
    names = [str(c) for c in df.columns]
    empty_unnamed = [c for c in names if c.startswith("Unnamed: ") and len(df) > 0 and df[c].isna().all()]
    if empty_unnamed and len(empty_unnamed) < len(names):
        df = df.drop(columns=empty_unnamed)
        k = len(empty_unnamed)
        notes.append(
            NOTE_EMPTY_COLUMNS.format(
                name=name, count=k, columns=plural(k, "column", "columns"), were=plural(k, "was", "were")
            )
        )
    if len(df.columns) == 0:
        raise DataError(MSG_EMPTY.format(name=name))
    if len(df) == 0:
        cols = ", ".join(q(c) for c in list(df.columns)[:8])
        if len(df.columns) > 8:
            cols += ", …"
        raise DataError(MSG_HEADER_ONLY.format(name=name, columns=cols))
    df.attrs = {"notes": notes, **({AMBIGUOUS: ambiguous} if ambiguous else {})}
    return df


def require_columns(df: pd.DataFrame, name: str, columns) -> None:
    """DataError naming the first of `columns` (None: not asked for) that the file `name` lacks,
    with the columns it has."""
    for column in columns:
        if column is not None and column not in df.columns:
            shown = ", ".join(f'"{c}"' for c in list(df.columns)[:12])
            raise DataError(f'"{name}" has no column "{column}"; its columns are {shown}.', column=column)


def number_column(df: pd.DataFrame, name: str, column: str) -> np.ndarray:
    """The column `column` of the file `name` as finite floats, read as an upload's number columns
    are (`roles.numbers`): a DataError names every kind of bad cell in one sentence, its text
    cells, its blank cells and its infinite ones, each with its count and first rows
    (`messages.file_row`: the header is row 1), a text cell quoted shortened (`messages.q`), so a
    30-million-digit "number" is named by its first characters. `costlib apply` and watch read
    their score column so."""
    from costlib.loading.roles import Table, numbers

    return numbers(Table(df, name), column)


def group_column(raw: pd.Series, name: str, column: str) -> np.ndarray:
    """Each case's group as text, read as the audit reads it (`cells.group_codes`): "NA" is a
    group's name, blank cells form the group "(missing)", so no row is refused and a policy
    decides every row of the very file it was fitted on. `name` and `column` are kept for the
    callers' sake (the sentences of the other column readers take them)."""
    from costlib.loading.cells import group_codes

    codes, names, _ = group_codes(raw)
    return np.asarray(names, dtype=object)[codes]
