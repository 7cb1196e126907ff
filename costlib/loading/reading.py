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
from costlib.loading.budget import PEAK_PER_TABLE_BYTE, Allowance, upload_allowance
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
    MSG_SPARSE,
    MSG_TOO_BIG_CSV,
    NOTE_DECIMAL_COMMA,
    NOTE_ENCODING,
    NOTE_HEADER_NUMBERS,
    NOTE_UTF16,
    limit_words,
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


def read_table(data: bytes, filename: str, *, limit: Allowance | None = None) -> pd.DataFrame:
    """Read CSV or Parquet bytes into a DataFrame; notes go to ``df.attrs["notes"]``.

    Parameters
    ----------
    data : bytes
        The file's content.
    filename : str
        The file's name: its extension helps tell the format, and it names the file in
        every sentence (through `display_name`).
    limit : budget.Allowance, optional
        How much memory the read may take; default: the upload budget (`upload_allowance`).
        The dashboard passes a smaller one when the server's free memory is smaller.

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
    limit = limit or upload_allowance()
    if data[:4] == b"PAR1":
        return read_parquet(data, name, limit)
    what = sn.binary_kind(data)
    if what is not None:
        raise DataError(MSG_NOT_A_TABLE.format(name=name, what=what))
    if ext in _PARQUET_EXT:
        raise DataError(MSG_NOT_PARQUET.format(name=name))
    return _read_csv(data, name, ext, limit)


CSV_TABLE_PER_BYTE = 4
"""Parsed bytes per byte of CSV text at most, in practice: a cell takes at least two characters
with its separator and at most 8 bytes once parsed (text is kept as categories)."""


def read_peak(data: bytes) -> int:
    """The peak memory `read_table` is expected to take on `data`: `PEAK_PER_TABLE_BYTE` times the
    table's size, from a Parquet footer or at `CSV_TABLE_PER_BYTE` a byte of text. What the
    dashboard's memory ledger reserves while the read runs (the reader still refuses a table
    past its `Allowance`).

    Examples
    --------
    >>> read_peak(b"label,score,1,0.5") == 4 * 4 * 17
    True
    """
    table = CSV_TABLE_PER_BYTE * len(data)
    if bytes(data[:4]) == b"PAR1":
        import pyarrow as pa
        import pyarrow.parquet as pq

        from costlib.loading.parquet import parquet_memory_estimate

        try:
            pfile = pq.ParquetFile(pa.BufferReader(data))
            table = parquet_memory_estimate(pfile.metadata, pfile.schema_arrow)
        except Exception:  # noqa: BLE001 - a damaged footer: the reader says so; estimate from the size
            pass
    return PEAK_PER_TABLE_BYTE * int(table)


def read_path(path: str | os.PathLike, *, max_bytes: int | None = None, table: bool = True) -> tuple[bytes, str]:
    """The bytes of a regular file and its name fit to show, for the command line.

    Devices (/dev/zero), pipes, sockets and folders are refused from their `stat` before
    they are opened for reading; the file is opened without blocking (a pipe swapped in
    meanwhile cannot hang the read) and checked again. Then its first block alone is read: a
    sparse file (its `stat` counts far fewer bytes on disk than its size, and the filesystem
    finds a hole) is refused, for holes read as NUL bytes and a text file holds none; and
    with `table`, a first block that `read_table` would refuse as binary is refused with
    the same sentence. Only then is the file read whole, in one read of its size (its bytes
    are held once; blocks joined together would be held twice). A file that starts with the
    Parquet marker "PAR1" is not refused for holes: zeros in its pages are data, and
    ``cp --sparse`` or ``rsync -S`` store them as holes.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.
    max_bytes : int, optional
        Refuse larger files. Default: ``upload_allowance().table``, the bytes the parsed table
        may take, a quarter of `upload_memory_budget()` (1 GiB of the default 4 GiB), not the
        whole budget: on the command line the file's bytes stay in memory while its table is
        read and prepared, so the bytes, the table and the work on it share the budget.
        Measured (read_path, read_table and prepare, VmHWM): an 845 MB CSV of 13 million rows
        and ten columns (short numbers, "0.1234": its table as large as its text), which
        prepare accepts, peaks at 2.9 GB; a 1 GB typical score file (a label, a score printed
        in full, a group) at 2.0 GB and a 1.06 GB file of short scores at 3.3 GB, both refused
        by prepare (too many rows for the pages' work); all under the 4.3 GB budget. With the
        budget as the limit, the bytes alone could take all of it.
    table : bool, default True
        The file should be a table: a binary first block is refused as `read_table` refuses
        it. False for other files (a policy), whose own reader says what is wrong with them.

    Returns
    -------
    (bytes, str)
        The content and `display_name` of the file's base name.

    Raises
    ------
    DataError
        When the path does not exist, is not a regular file, cannot be read, is larger
        than `max_bytes` or sparse, or (with `table`) binary.
    """
    shown = display_name(os.fspath(path))
    limit = upload_allowance().table if max_bytes is None else int(max_bytes)
    try:
        _check_regular(os.stat(path), shown, limit)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise DataError(MSG_CANNOT_READ.format(name=shown, reason=exc.strerror or exc)) from None
    try:
        st = os.fstat(fd)
        _check_regular(st, shown, limit)
        _check_head(fd, st, shown, table)
        data = _read_at_most(fd, limit, shown, st.st_size)
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


_SPARSE_MIN_BYTES = 1 << 20  # smaller files are not looked at for holes (some filesystems store them in no block)


def _check_head(fd: int, st: os.stat_result, shown: str, table: bool) -> None:
    """Read the first block of the file (then rewind): DataError when the file is sparse, or
    (with `table`) when `read_table` would refuse that block as binary, with its sentence."""
    head = os.read(fd, sn.SAMPLE_BYTES)
    os.lseek(fd, 0, os.SEEK_SET)
    if head.startswith(b"PAR1"):
        return
    stored = getattr(st, "st_blocks", None)  # in 512-byte units; absent on Windows
    sparse = stored is not None and st.st_size > _SPARSE_MIN_BYTES and stored * 512 < st.st_size // 2
    if sparse and _has_hole(fd, st.st_size):
        raise DataError(MSG_SPARSE.format(name=shown, size=size(st.st_size), stored=size(stored * 512)))
    if table and not sn.is_blank(head):  # as read_table decides: blank first, and binary_kind reads this block only
        what = sn.binary_kind(head)
        if what is not None:
            raise DataError(MSG_NOT_A_TABLE.format(name=shown, what=what))


def _has_hole(fd: int, end: int) -> bool:
    """Whether the filesystem finds a hole before `end`; True when it cannot say (no SEEK_HOLE
    here), and the stat alone tells. A filesystem that stores files compressed also counts fewer
    blocks than the size, but finds no hole: such a file is read."""
    seek_hole = getattr(os, "SEEK_HOLE", None)
    if seek_hole is None:
        return True
    try:
        return os.lseek(fd, 0, seek_hole) < end
    except OSError:
        return True
    finally:
        os.lseek(fd, 0, os.SEEK_SET)


def _read_at_most(fd: int, limit: int, shown: str, expected: int = 0) -> bytes:
    """The file's bytes, at most `limit` of them: one read of the `expected` size (its stat),
    so that the bytes are held once (joining blocks would hold them twice), then more reads
    for what a file that grew, or is longer than one read gives, holds."""
    first = os.read(fd, min(limit, max(0, expected)) + 1)
    parts, have = [first], len(first)
    while have <= limit:
        step = 1 << 16 if len(parts) == 1 else 1 << 24  # a small read finds the end of a file read in one
        block = os.read(fd, min(step, limit + 1 - have))
        if not block:
            return first if len(parts) == 1 else b"".join(parts)
        parts.append(block)
        have += len(block)
    # the file grew after it was checked
    raise DataError(MSG_FILE_TOO_BIG.format(name=shown, size=f"more than {size(limit)}", budget=size(limit)))


# ---------------------------------------------------------------------------------------
# CSV
# ---------------------------------------------------------------------------------------


def _read_csv(data: bytes, name: str, ext: str, limit: Allowance) -> pd.DataFrame:
    notes: list[str] = []
    source, encoding, sample = _open_text(data, name, ext, notes)
    sn.check_lines(sample, name)
    decimal = "," if sn.decimal_comma(sample) else "."
    if decimal == ",":
        notes.append(NOTE_DECIMAL_COMMA.format(name=name, sep=sn.SEP_NAMES[sample.sep]))
    chunk_rows = max(1_000, int(_CHUNK_BYTES / sample.bytes_per_line))
    df = _parse_chunks(source, name, sample.sep, decimal, encoding, chunk_rows, limit)
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


def _parse_chunks(
    source: io.IOBase, name: str, sep: str, decimal: str, encoding: str, chunk_rows: int, limit: Allowance
) -> pd.DataFrame:
    """pandas' C parser, chunk by chunk, with `limit`'s table size checked after every chunk."""
    budget = limit.table
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
                            MSG_TOO_BIG_CSV.format(
                                name=name, rows=f"{rows:,}", size=size(held), **limit_words(limit, held)
                            )
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
