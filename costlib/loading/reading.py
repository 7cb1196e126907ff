"""Reading CSV or Parquet bytes into a DataFrame, within a memory budget.

`read_table` never lets a parser traceback through: every problem becomes a `DataError`
sentence naming the file. Parquet is read with pyarrow only, after its footer (row count
and sizes) has been checked against the budget (`costlib.loading.parquet`); CSV is read here
in chunks and the budget (`costlib.loading.budget`) is checked after each one. Both store
large tables compactly while they are read (`costlib.loading.frames`). Nothing is ever
unpickled or evaluated.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import os
import re
import stat
import warnings

import pandas as pd

from costlib.core.errors import DataError
from costlib.core.escaping import display_name, shorten
from costlib.core.validation import NUMBER_RE
from costlib.loading import sniffing as sn
from costlib.loading.budget import table_budget, upload_memory_budget
from costlib.loading.frames import compact, compact_plan, concat, frame_bytes, tidy
from costlib.loading.messages import (
    MSG_CANNOT_READ,
    MSG_EMPTY,
    MSG_FILE_TOO_BIG,
    MSG_NOT_A_TABLE,
    MSG_NOT_PARQUET,
    MSG_NOT_REGULAR,
    MSG_ONE_COLUMN,
    MSG_PARSE,
    MSG_PARSE_FIELDS,
    MSG_PARSE_QUOTE,
    MSG_TOO_BIG_CSV,
    NOTE_DECIMAL_COMMA,
    NOTE_ENCODING,
    NOTE_HEADER_NUMBERS,
    NOTE_UTF16,
    q,
    size,
)
from costlib.loading.parquet import read_parquet
from costlib.loading.repeated import resolve_repeated

_PARQUET_EXT = (".parquet", ".pq", ".parq")
_CHUNK_BYTES = 8 << 20  # text parsed per chunk
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


def file_fingerprint(path: str | os.PathLike) -> str:
    """`fingerprint` of a regular file's bytes, read in chunks (a file too big to hold in
    memory, which DuckDB or Spark reads where it lives); "" for anything else (a glob, a
    folder of parts): the record then names the path only."""
    try:
        if not os.path.isfile(path):
            return ""
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(_CHUNK_BYTES), b""):
                h.update(chunk)
        return h.hexdigest()
    except OSError:
        return ""


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
        return read_parquet(data, name)
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
    df = tidy(_name_columns(df, sample.header, name, notes), name, notes)
    if len(df.columns) == 1:
        reason = sn.one_column_reason(str(df.columns[0]))
        if reason is not None:
            raise DataError(
                MSG_ONE_COLUMN.format(name=name, column=shorten(df.columns[0]), reason=reason),
                column=str(df.columns[0]),
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
                        plan = compact_plan(chunk, final=len(chunk) < chunk_rows)
                    chunk = compact(chunk, plan)
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
    return concat(chunks)


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


__all__ = [
    "fingerprint",
    "read_path",
    "read_table",
]
