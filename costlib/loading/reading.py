"""Reading CSV or Parquet bytes into a DataFrame, within a memory budget.

`read_table` never lets a parser traceback through: every problem becomes a `DataError`
sentence naming the file. Parquet is read with pyarrow only, after its footer (row count
and sizes) has been checked against the budget; CSV is read in chunks and the budget is
checked after each one. Large tables are stored compactly while they are read (integer
columns in the smallest integer type, repetitive text as categories), so a session keeps
little more than the numbers it needs. Nothing is ever unpickled or evaluated.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import os
import re
import stat
import warnings

import numpy as np
import pandas as pd

from costlib.core.errors import DataError
from costlib.loading import sniffing as sn
from costlib.loading.cells import NUMBER_RE
from costlib.loading.messages import (
    MSG_BAD_PARQUET,
    MSG_CANNOT_READ,
    MSG_EMPTY,
    MSG_FILE_TOO_BIG,
    MSG_HEADER_ONLY,
    MSG_NESTED_COLUMNS,
    MSG_NOT_A_TABLE,
    MSG_NOT_PARQUET,
    MSG_NOT_REGULAR,
    MSG_ONE_COLUMN,
    MSG_PARSE,
    MSG_PARSE_FIELDS,
    MSG_PARSE_QUOTE,
    MSG_TOO_BIG_CSV,
    MSG_TOO_BIG_PARQUET,
    MSG_TOO_BIG_PARQUET_READ,
    NOTE_DECIMAL_COMMA,
    NOTE_EMPTY_COLUMNS,
    NOTE_ENCODING,
    NOTE_HEADER_NUMBERS,
    NOTE_UTF16,
    cols_phrase,
    plural,
    q,
    size,
)
from costlib.loading.repeated import AMBIGUOUS, resolve_repeated
from costlib.present.escaping import display_name

# ---------------------------------------------------------------------------------------
# The memory budget
# ---------------------------------------------------------------------------------------

DEFAULT_UPLOAD_MEMORY_MB = 4096
"""Peak memory one upload may take while it is read and prepared, in MB (2**20 bytes).

The default takes a 10-million-row table of a few columns (about 1 GB parsed) and keeps a
session under a quarter of a 24 GB machine. Override it with the environment variable named
by `UPLOAD_MEMORY_ENV`.
"""
UPLOAD_MEMORY_ENV = "COSTLIB_UPLOAD_MEMORY_MB"
PEAK_PER_TABLE_BYTE = 4
"""Peak memory of read_table + prepare per byte of the parsed table (measured: about 3.3,
see benchmarks/loading.py); the table may therefore take a quarter of the budget."""

_PARQUET_EXT = (".parquet", ".pq", ".parq")
_COMPACT_ROWS = 10_000  # tables with fewer rows are left exactly as pandas reads them
_CHUNK_BYTES = 8 << 20  # text parsed per chunk
_CATEGORY_SHARE = 4  # text with at most one distinct value per this many cells becomes categorical


def upload_memory_budget() -> int:
    """Peak memory one upload may take while it is read and prepared, in bytes.

    Returns
    -------
    int
        $COSTLIB_UPLOAD_MEMORY_MB (in MB) when it is a positive number, else
        DEFAULT_UPLOAD_MEMORY_MB (with a warning when the variable is set but not a number).

    Examples
    --------
    >>> upload_memory_budget() >= 1 << 20
    True
    """
    raw = os.environ.get(UPLOAD_MEMORY_ENV, "").strip()
    mb = float(DEFAULT_UPLOAD_MEMORY_MB)
    if raw:
        try:
            mb = float(raw)
        except ValueError:
            warnings.warn(f"{UPLOAD_MEMORY_ENV}={raw!r} is not a number of MB; using {mb:g}", stacklevel=2)
        if not mb > 0 or mb == float("inf"):
            mb = float(DEFAULT_UPLOAD_MEMORY_MB)
    return int(mb * (1 << 20))


def table_budget() -> int:
    """Bytes the parsed table may take: `upload_memory_budget()` // PEAK_PER_TABLE_BYTE.

    Returns
    -------
    int
        Parquet whose footer promises more, and CSV whose chunks add up to more, are refused.

    Examples
    --------
    >>> table_budget() * PEAK_PER_TABLE_BYTE <= upload_memory_budget()
    True
    """
    return upload_memory_budget() // PEAK_PER_TABLE_BYTE


# ---------------------------------------------------------------------------------------
# read_table and read_path
# ---------------------------------------------------------------------------------------


def fingerprint(data: bytes) -> str:
    """SHA-256 of the uploaded bytes, as hex (the key for caches and reports).

    Parameters
    ----------
    data : bytes
        The file's content.

    Returns
    -------
    str
        64 hexadecimal digits.

    Examples
    --------
    >>> fingerprint(b"abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(data).hexdigest()


def read_table(data: bytes, filename: str) -> pd.DataFrame:
    """Read CSV or Parquet bytes into a DataFrame; notes go to ``df.attrs["notes"]``.

    Parameters
    ----------
    data : bytes
        The file's content.
    filename : str
        The file's name: its extension helps tell the format, and it names the file in
        every sentence (through `display_name`).

    Returns
    -------
    DataFrame
        One column per column of the file, with unique names: a name the header repeats is
        kept once when the columns are identical, and otherwise as "name (column 40)" for
        each copy (``df.attrs["ambiguous"]`` maps the name to those choices).

    Raises
    ------
    DataError
        For empty files, header-only files, binary content, nested Parquet columns,
        malformed lines, single-column files whose separator was probably not recognised,
        and tables larger than the memory budget (`upload_memory_budget`).

    Examples
    --------
    >>> df = read_table(b"label,score\\n1,0.9\\n0,0.2\\n", "p.csv")
    >>> df.shape, df.attrs["notes"]
    ((2, 2), [])
    """
    name = display_name(filename)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise DataError(MSG_PARSE.format(name=name, reason="the upload is not a file's bytes"))
    data = bytes(data)
    ext = sn.extension(str(filename))
    if sn.is_blank(data):
        raise DataError(MSG_EMPTY.format(name=name))
    if data[:4] == b"PAR1":
        return _read_parquet(data, name)
    what = sn.binary_kind(data)
    if what is not None:
        raise DataError(MSG_NOT_A_TABLE.format(name=name, what=what))
    if ext in _PARQUET_EXT:
        raise DataError(MSG_NOT_PARQUET.format(name=name))
    return _read_csv(data, name, ext)


def read_path(path: str | os.PathLike, *, max_bytes: int | None = None) -> tuple[bytes, str]:
    """The bytes of a regular file and its name fit to show, for the command line.

    Devices (/dev/zero), pipes, sockets and folders are refused from their `stat` before
    they are opened for reading; the file is opened without blocking (a pipe swapped in
    meanwhile cannot hang the read), checked again, and read up to `max_bytes`.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.
    max_bytes : int, optional
        Refuse larger files; default: `upload_memory_budget()`.

    Returns
    -------
    (bytes, str)
        The content and `display_name` of the file's base name.

    Raises
    ------
    DataError
        When the path does not exist, is not a regular file, cannot be read or is larger
        than `max_bytes`.
    """
    shown = display_name(os.fspath(path))
    limit = upload_memory_budget() if max_bytes is None else int(max_bytes)
    try:
        _check_regular(os.stat(path), shown, limit)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise DataError(MSG_CANNOT_READ.format(name=shown, reason=exc.strerror or exc)) from None
    try:
        _check_regular(os.fstat(fd), shown, limit)
        data = _read_at_most(fd, limit, shown)
    except OSError as exc:
        raise DataError(MSG_CANNOT_READ.format(name=shown, reason=exc.strerror or exc)) from None
    finally:
        os.close(fd)
    return data, display_name(os.path.basename(os.fspath(path)) or os.fspath(path))


def _check_regular(st: os.stat_result, shown: str, limit: int) -> None:
    mode = st.st_mode
    if not stat.S_ISREG(mode):
        kind = (
            "a folder"
            if stat.S_ISDIR(mode)
            else "a pipe (FIFO)"
            if stat.S_ISFIFO(mode)
            else "a device"
            if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket"
            if stat.S_ISSOCK(mode)
            else "not a file"
        )
        raise DataError(MSG_NOT_REGULAR.format(name=shown, kind=kind))
    if st.st_size > limit:
        raise DataError(MSG_FILE_TOO_BIG.format(name=shown, size=size(st.st_size), budget=size(limit)))


def _read_at_most(fd: int, limit: int, shown: str) -> bytes:
    parts, have = [], 0
    while True:
        block = os.read(fd, min(1 << 24, limit + 1 - have))
        if not block:
            return b"".join(parts)
        parts.append(block)
        have += len(block)
        if have > limit:  # the file grew after it was checked
            raise DataError(MSG_FILE_TOO_BIG.format(name=shown, size=f"more than {size(limit)}", budget=size(limit)))


# ---------------------------------------------------------------------------------------
# CSV
# ---------------------------------------------------------------------------------------


def _read_csv(data: bytes, name: str, ext: str) -> pd.DataFrame:
    notes: list[str] = []
    source, encoding, sample = _open_text(data, name, ext, notes)
    sn.check_lines(sample, name)
    decimal = "," if sn.decimal_comma(sample) else "."
    if decimal == ",":
        notes.append(NOTE_DECIMAL_COMMA.format(name=name, sep=sn.SEP_NAMES[sample.sep]))
    chunk_rows = max(1_000, int(_CHUNK_BYTES / sample.bytes_per_line))
    df = _parse_chunks(source, name, sample.sep, decimal, encoding, chunk_rows)
    df = _tidy(_name_columns(df, sample.header, name, notes), name, notes)
    if len(df.columns) == 1:
        reason = sn.one_column_reason(str(df.columns[0]))
        if reason is not None:
            raise DataError(
                MSG_ONE_COLUMN.format(name=name, column=df.columns[0], reason=reason), column=str(df.columns[0])
            )
    header_cells = [str(c) for c in df.columns]
    if header_cells and all(NUMBER_RE.match(c) for c in header_cells):
        notes.append(NOTE_HEADER_NUMBERS.format(name=name, cells=", ".join(q(c) for c in header_cells[:3])))
    return df


def _open_text(data: bytes, name: str, ext: str, notes: list[str]) -> tuple[io.IOBase, str, sn.Sample]:
    """(a stream for pandas, its encoding, the sniffed sample); notes about the encoding."""
    utf16 = sn.utf16_kind(data)
    if utf16 is not None:
        try:
            text = data.decode(utf16).lstrip("\ufeff")
        except UnicodeDecodeError as exc:
            raise DataError(MSG_PARSE.format(name=name, reason="it looks like UTF-16 text but is damaged")) from exc
        notes.append(NOTE_UTF16.format(name=name))
        end = sn.sample_end(text, name)
        return io.StringIO(text), "utf-8", sn.take_sample(text[:end], len(text) > end, ext)
    encoding, label = sn.choose_encoding(data)
    if label is not None:
        notes.append(NOTE_ENCODING.format(name=name, encoding=label))
    body = data[3:] if data.startswith(codecs.BOM_UTF8) else data
    end = sn.sample_end(body, name)
    sample = sn.take_sample(body[:end].decode(encoding, errors="replace"), len(body) > end, ext)
    return io.BytesIO(data), encoding, sample


def _parse_chunks(source: io.IOBase, name: str, sep: str, decimal: str, encoding: str, chunk_rows: int) -> pd.DataFrame:
    """pandas' C parser, chunk by chunk, with the table budget checked after every chunk."""
    budget = table_budget()
    chunks: list[pd.DataFrame] = []
    held = rows = 0
    plan: dict[int, bool] | None = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pd.errors.DtypeWarning)
            warnings.simplefilter("error", pd.errors.ParserWarning)
            reader = pd.read_csv(
                source, sep=sep, decimal=decimal, encoding=encoding, engine="c", index_col=False,
                keep_default_na=False, na_values=[""], skip_blank_lines=True, chunksize=chunk_rows,
            )  # fmt: skip
            with reader:
                for chunk in reader:
                    if plan is None:
                        plan = _compact_plan(chunk, final=len(chunk) < chunk_rows)
                    chunk = _compact(chunk, plan)
                    held += frame_bytes(chunk)
                    rows += len(chunk)
                    if held > budget:
                        raise DataError(
                            MSG_TOO_BIG_CSV.format(name=name, rows=f"{rows:,}", size=size(held), budget=size(budget))
                        )
                    chunks.append(chunk)
    except DataError:
        raise
    except Exception as exc:  # pandas raises several types; none may reach the user
        raise _parser_error(exc, name, sep) from None
    return _concat(chunks)


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


def _compact_plan(first: pd.DataFrame, final: bool) -> dict[int, bool]:
    """Which text columns to keep as categories, decided on the first chunk (all chunks agree).

    Nothing is changed for a table small enough to be read in one chunk of fewer than
    _COMPACT_ROWS rows: what pandas reads is what the caller gets.
    """
    if final and len(first) < _COMPACT_ROWS:
        return {}
    plan = {}
    for j in range(first.shape[1]):
        s = first.iloc[:, j]
        if _is_text(s):
            plan[j] = s.nunique(dropna=True) * _CATEGORY_SHARE <= len(s)
        elif pd.api.types.is_integer_dtype(s.dtype):
            plan[j] = False
    return plan


def _is_text(s: pd.Series) -> bool:
    return s.dtype == object or isinstance(s.dtype, pd.StringDtype)


def _compact(chunk: pd.DataFrame, plan: dict[int, bool]) -> pd.DataFrame:
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


def _concat(chunks: list[pd.DataFrame]) -> pd.DataFrame:
    """The chunks as one table; categorical pieces of a column are united, not widened to text.

    Column by column, letting go of each column's pieces once they are joined, so the peak is
    the table plus one column rather than twice the table.
    """
    if len(chunks) <= 1:
        return chunks[0] if chunks else pd.DataFrame()  # no chunk at all: _tidy says the file is empty
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


def _parser_error(exc: Exception, name: str, sep: str) -> DataError:
    text = str(exc)
    m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", text)
    if m:
        expected, line, saw = (int(g) for g in m.groups())
        return DataError(MSG_PARSE_FIELDS.format(name=name, line=line, saw=saw, expected=expected, sep=q(sep)))
    m = re.search(r"EOF inside string starting at row (\d+)", text)
    if m:
        return DataError(MSG_PARSE_QUOTE.format(name=name, line=int(m.group(1)) + 1))
    if isinstance(exc, pd.errors.EmptyDataError):
        return DataError(MSG_EMPTY.format(name=name))
    if isinstance(exc, pd.errors.ParserWarning):
        reason = "the first data line has more values than the header has names"
    elif isinstance(exc, UnicodeError):
        reason = "its text encoding could not be recognised"
    elif isinstance(exc, MemoryError):
        reason = "it is too large for the memory available"
    else:
        reason = "its lines do not form rows of columns"
    return DataError(MSG_PARSE.format(name=name, reason=reason))


def _name_columns(df: pd.DataFrame, header: list[str] | None, name: str, notes: list[str]) -> pd.DataFrame:
    """Give the columns the header's own names (pandas renames a repeated "a" to "a.1")."""
    if header is not None and len(header) == df.shape[1]:
        names = [h if h else f"Unnamed: {i}" for i, h in enumerate(header)]
    else:
        names = [str(c).strip() for c in df.columns]
    return resolve_repeated(df, names, name, notes)


def _tidy(df: pd.DataFrame, name: str, notes: list[str]) -> pd.DataFrame:
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


# ---------------------------------------------------------------------------------------
# Parquet
# ---------------------------------------------------------------------------------------


def _read_parquet(data: bytes, name: str) -> pd.DataFrame:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pfile = pq.ParquetFile(pa.BufferReader(data))
        schema, meta = pfile.schema_arrow, pfile.metadata
    except Exception:
        raise DataError(MSG_BAD_PARQUET.format(name=name, reason="it is damaged or cut short")) from None
    nested = [f.name for f in schema if _is_nested(f.type)]
    if nested:
        raise DataError(MSG_NESTED_COLUMNS.format(name=name, columns=cols_phrase(nested)), column=nested[0])
    _check_parquet_budget(meta, schema, name)
    text = [f.name for f in schema if _is_text_type(f.type)]
    try:
        # text is read dictionary-encoded (a category in pandas): a column repeating one long
        # string takes its indices and one copy of the string, not a copy per row
        if _prefix_coded(meta):
            # DELTA_BYTE_ARRAY stores each string as the change from the one before: a few bytes
            # can decode to long strings, so the footer's sizes say nothing; count while reading
            table = _read_batches(pfile, name)
        else:
            # every other encoding's decoded text is in the footer's uncompressed size, which the
            # budget check read; text comes dictionary-encoded (a category in pandas), so a column
            # repeating one long string takes its indices and one copy, not a copy per row
            table = (pq.ParquetFile(pa.BufferReader(data), read_dictionary=text) if text else pfile).read()
        for i, f in enumerate(table.schema):
            if pa.types.is_decimal(f.type):
                table = table.set_column(i, f.name, table.column(i).cast(pa.float64()))
        df = table.to_pandas(self_destruct=True, split_blocks=True)
        del table
    except DataError:
        raise
    except Exception:
        raise DataError(MSG_BAD_PARQUET.format(name=name, reason="its contents could not be decoded")) from None
    if not isinstance(df.index, pd.RangeIndex):
        df = df.reset_index()
    if isinstance(df.columns, pd.MultiIndex):
        df.columns = ["_".join(str(x) for x in c if str(x)) for c in df.columns]
    df = _compact(df, _compact_plan(df, final=True))
    notes: list[str] = []
    return _tidy(resolve_repeated(df, [str(c).strip() for c in df.columns], name, notes), name, notes)


PARQUET_BATCH_ROWS = 1 << 16


def _is_text_type(typ) -> bool:
    import pyarrow as pa

    return (
        pa.types.is_string(typ)
        or pa.types.is_large_string(typ)
        or pa.types.is_binary(typ)
        or (pa.types.is_large_binary(typ))
    )


def _prefix_coded(meta) -> bool:
    """Whether any column chunk is DELTA_BYTE_ARRAY-encoded (prefix-coded text)."""
    return any(
        "DELTA_BYTE_ARRAY" in meta.row_group(i).column(j).encodings
        for i in range(meta.num_row_groups)
        for j in range(meta.num_columns)
    )


def _read_batches(pfile, name: str):
    """The file's table, read PARQUET_BATCH_ROWS rows at a time while counting what it takes:
    refused as soon as that passes the table budget. For prefix-coded text the footer cannot
    say how long the cells decode (a few hundred kilobytes can hold millions of long strings);
    the count can. A dictionary shared by successive batches is counted once."""
    import pyarrow as pa

    budget, used, rows = table_budget(), 0, 0
    seen: set[int] = set()
    batches = []
    for batch in pfile.iter_batches(batch_size=PARQUET_BATCH_ROWS, use_threads=True):
        for column in batch.columns:
            if pa.types.is_dictionary(column.type):
                used += column.indices.nbytes
                address = column.dictionary.buffers()[-1].address if column.dictionary.buffers()[-1] else 0
                if address not in seen:
                    seen.add(address)
                    used += column.dictionary.nbytes
            else:
                used += column.nbytes
        rows += batch.num_rows
        if used > budget:
            raise DataError(
                MSG_TOO_BIG_PARQUET_READ.format(
                    name=name,
                    rows=f"{pfile.metadata.num_rows:,}",
                    read=f"{rows:,}",
                    size=size(used),
                    budget=size(budget),
                )
            )
        batches.append(batch)
    return pa.Table.from_batches(batches, schema=pfile.schema_arrow if not batches else batches[0].schema)


def _is_nested(typ) -> bool:
    import pyarrow as pa

    return pa.types.is_nested(typ) or (pa.types.is_dictionary(typ) and pa.types.is_nested(typ.value_type))


def _check_parquet_budget(meta, schema, name: str) -> None:
    """Refuse, from the footer alone, a file whose table would not fit the budget."""
    estimate = parquet_memory_estimate(meta, schema)
    budget = table_budget()
    if estimate > budget:
        raise DataError(
            MSG_TOO_BIG_PARQUET.format(name=name, rows=f"{meta.num_rows:,}", size=size(estimate), budget=size(budget))
        )


def parquet_memory_estimate(meta, schema) -> int:
    """Bytes the table will take in memory, from the footer: rows x the width of each column's
    type (text counted at 16 bytes a cell), or the uncompressed size if that is larger."""
    import pyarrow as pa

    width = 0
    for f in schema:
        typ = f.type.index_type if pa.types.is_dictionary(f.type) else f.type
        if pa.types.is_boolean(typ):
            width += 1
        elif pa.types.is_decimal(typ):
            width += 8
        else:
            try:
                width += max(1, typ.bit_width // 8)
            except ValueError:  # variable width: strings, binary
                width += 16
    uncompressed = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    return max(int(meta.num_rows) * width, int(uncompressed))


__all__ = [
    "DEFAULT_UPLOAD_MEMORY_MB",
    "PEAK_PER_TABLE_BYTE",
    "UPLOAD_MEMORY_ENV",
    "fingerprint",
    "parquet_memory_estimate",
    "read_path",
    "read_table",
    "table_budget",
    "upload_memory_budget",
]
