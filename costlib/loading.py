"""Reading an uploaded table and turning it into a validated `Dataset`.

Pure Python (no Streamlit). The steps are:

    data = uploaded bytes
    df = read_table(data, filename)               # CSV or Parquet -> DataFrame
    mapping = guess_mapping(df)                   # a first guess the user may edit
    ds = prepare(df, mapping, name=filename, fingerprint=fingerprint(data))

Every problem with the user's file is raised as a `DataError` whose message is a sentence
naming the file, the column and the first offending rows (1-based data row numbers: the
first row under the header is row 1). Fixes are offered in `DataError.fix` and applied
only when asked for (`drop_missing_labels`, `top_groups`, `renormalise`), always with a
note in `Dataset.notes`. Parquet is read with pyarrow only; nothing is ever unpickled or
evaluated.
"""

from __future__ import annotations

import codecs
import csv
import dataclasses
import hashlib
import io
import math
import re
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.special import expit

from costlib.dataset import SPLIT_ROLES, ColumnMapping, Dataset
from costlib.errors import DataError
from costlib.instance import delta_from_rating, delta_from_threshold, delta_from_votes

__all__ = [
    "fingerprint",
    "read_table",
    "guess_mapping",
    "label_values",
    "prepare",
    "safe_csv",
]

# ---------------------------------------------------------------------------------------
# Message templates (tests match on the fixed words; fields are filled with str.format).
# ---------------------------------------------------------------------------------------

# read_table
MSG_EMPTY = 'The file "{name}" is empty: it holds no text at all.'
MSG_HEADER_ONLY = 'The file "{name}" has column names ({columns}) but no data rows.'
MSG_NOT_A_TABLE = 'The file "{name}" is not a table: {what}. Upload a CSV or Parquet file.'
MSG_NOT_PARQUET = (
    'The file "{name}" is named like a Parquet file but is not one (it does not start '
    'with the Parquet marker "PAR1"); upload the original file, or a CSV.'
)
MSG_BAD_PARQUET = 'The file "{name}" could not be read as Parquet: {reason}.'
MSG_NESTED_COLUMNS = (
    'In "{name}", {columns} hold nested values (lists, structs or maps), which cannot '
    "be used as table cells; flatten or drop them before uploading."
)
MSG_DUPLICATE_COLUMNS = (
    'In "{name}", the header row repeats column names: {details}. '
    "Rename them so each column has its own name."
)
MSG_ONE_COLUMN = (
    'The file "{name}" was read as a single column ("{column}") because no comma, '
    'semicolon, tab or "|" separates its values; {reason}. Save it with one of those '
    "separators between columns."
)
MSG_PARSE_FIELDS = (
    'In "{name}", line {line} of the file has {saw} fields where the header has '
    "{expected}: a value probably contains the separator {sep} without quotes, or the "
    "line has a stray separator."
)
MSG_PARSE_QUOTE = (
    'In "{name}", a quote opened on line {line} of the file is never closed, so the '
    "rest of the file reads as one value."
)
MSG_PARSE = 'The file "{name}" could not be read as a table: {reason}.'

# prepare: columns and roles
MSG_NO_ROWS = 'The table "{name}" has no rows.'
MSG_NOTHING_MAPPED = (
    'In "{name}", no column is chosen for a label, a score, a delta or multiclass '
    "probabilities; choose at least one."
)
MSG_MISSING_COLUMN = 'In "{name}", {what} {verb} not exist; the columns are {available}.'
MSG_DUPLICATE_MAPPED = 'In "{name}", the column "{column}" appears more than once in the table.'
MSG_BAD_SCALE = (
    'In "{name}", the score scale "{scale}" is not one of "probability", "logit" or "raw".'
)

# prepare: numbers
MSG_NOT_NUMBERS = (
    'In "{name}", column "{column}" has {count} {values} that {are} not numbers: {rows}.'
)
MSG_MISSING_NUMBERS = (
    'In "{name}", column "{column}" has {count} empty {values} (blank or NaN): {rows}.'
)
MSG_INFINITE = 'In "{name}", column "{column}" has {count} infinite {values}: {rows}.'
MSG_OUTSIDE_01 = (
    'In "{name}", column "{column}" has {count} {values} outside [0, 1] '
    "(smallest {low}, largest {high}): {rows}. A probability must lie between 0 and 1; "
    'if these scores are log-odds choose the "logit" scale, for other real-valued '
    'scores choose "raw".'
)

# prepare: labels
MSG_LABEL_MISSING = (
    'In "{name}", column "{column}" has no label (blank or NA) in {count} {values}: {rows}.'
)
MSG_LABEL_ALL_MISSING = 'In "{name}", column "{column}" has no label in any of its {n} rows.'
MSG_LABEL_ONE_CLASS = (
    'In "{name}", column "{column}" has only one value, {value}, in all {n} rows '
    "(rows 1 to {last}); a binary label needs both a positive and a negative class."
)
MSG_LABEL_MANY = (
    'In "{name}", column "{column}" has {k} distinct values where a binary label needs '
    "2: {listing}."
)
MSG_LABEL_NEEDS_POSITIVE = (
    'In "{name}", column "{column}" holds the values {a} and {b} (first at rows {row_a} '
    "and {row_b}); choose which one means positive."
)
MSG_POSITIVE_NOT_FOUND = (
    'In "{name}", the positive value {positive} does not occur in column "{column}"; its '
    "values are {a} (first at row {row_a}) and {b} (first at row {row_b})."
)

# prepare: other roles
MSG_WEIGHT_NEGATIVE = 'In "{name}", column "{column}" has {count} negative {values}: {rows}.'
MSG_WEIGHT_ZERO = (
    'In "{name}", column "{column}" is 0 in all {n} rows (rows 1 to {last}): no row would count.'
)
MSG_SPLIT_UNKNOWN = (
    'In "{name}", column "{column}" has {count} {values} that {are} not a split name: '
    "{rows}. Use train (or training, fit), validation (or val, valid, calib, "
    "calibration, dev) or test (or testing, holdout, eval)."
)
MSG_GROUP_TOO_MANY = (
    'In "{name}", column "{column}" has {k} distinct groups (largest: {largest}); '
    "at most {limit} can be compared."
)
MSG_DELTA_SOURCES = (
    'In "{name}", delta is chosen from more than one source ({sources}); choose one.'
)
MSG_DELTA_ZERO = (
    'In "{name}", the delta from {source} is 0 in all {n} rows (rows 1 to {last}): '
    "there is nothing to weigh."
)
MSG_DELTA_OVERFLOW = (
    'In "{name}", the delta from {source} is too large to represent in {count} {values}: {rows}.'
)
MSG_VOTES_INCOMPLETE = (
    'In "{name}", only the "{given}" vote column is chosen ("{column}"); choose the '
    '"{other}" vote column too.'
)
MSG_VOTES_NEGATIVE = 'In "{name}", column "{column}" has {count} negative vote {counts}: {rows}.'
MSG_VOTES_NOT_INTEGER = (
    'In "{name}", column "{column}" has {count} vote {counts} that {are} not whole numbers: {rows}.'
)
MSG_NEEDS_NUMBER = (
    'In "{name}", column "{column}" is chosen as {role} but the {what} is {value}; '
    "enter a finite number."
)
MSG_CLASS_TOO_FEW = (
    'In "{name}", multiclass needs at least 2 probability columns; only {columns} {is_are} chosen.'
)
MSG_CLASS_NAMES_COUNT = (
    'In "{name}", {k} class names are given for {m} probability columns ({columns}); '
    "give one name per column."
)
MSG_CLASS_NAMES_REPEAT = (
    'In "{name}", the class names repeat {repeated}; give each class its own name.'
)
MSG_CLASS_SUM = (
    'In "{name}", the class probabilities in columns {columns} do not sum to 1 '
    "(within {tol:g}) in {count} {values}: {rows}."
)
MSG_CLASS_SUM_ZERO = (
    'In "{name}", the class probabilities in columns {columns} are all 0 in {count} '
    "{values}, so they cannot be renormalised: {rows}."
)
MSG_CLASS_UNKNOWN = (
    'In "{name}", column "{column}" has {count} {values} that {are} not among the '
    "classes {classes}: {rows}."
)

# notes (sentences collected in df.attrs["notes"] and Dataset.notes)
NOTE_ENCODING = (
    'The file "{name}" is not UTF-8 text, so it was read as {encoding}; check that '
    "accented letters look right."
)
NOTE_UTF16 = 'The file "{name}" is UTF-16 text; it was read as such.'
NOTE_DECIMAL_COMMA = (
    'The file "{name}" is separated by {sep} and writes numbers with a decimal comma '
    '("0,25"); they were read as numbers (0.25).'
)
NOTE_HEADER_NUMBERS = (
    'The first line of "{name}" looks like numbers ({cells}), not column names; it was '
    "read as the header, so its values are not part of the data."
)
NOTE_EMPTY_COLUMNS = (
    'In "{name}", {count} empty {columns} without a name (from separators at the end of '
    "lines) {were} left out."
)
NOTE_DROPPED_LABELS = (
    'In "{name}", {count} {values} with no label in column "{column}" {were} dropped '
    "({rows}); {kept} rows remain."
)
NOTE_TOP_GROUPS = (
    'In "{name}", column "{column}" has {k} groups; the {top} largest were kept and the '
    'other {rest} ({rest_rows} rows) were put together as "{other}".'
)
NOTE_ONE_ROW_GROUP = (
    'In "{name}", {groups} in column "{column}" {has_have} a single row ({rows}); no '
    "interval can be computed for {it_them}."
)
NOTE_MISSING_GROUP = (
    'In "{name}", column "{column}" is blank in {count} {values} ({rows}); they form '
    'the group "{missing}".'
)
NOTE_RENORMALISED = (
    'In "{name}", {count} {values} of the class probabilities {were} renormalised to sum '
    "to 1 (the largest gap from 1 was {gap:.3g})."
)

FIX_DROP_LABELS = "drop the {count} {values} with a missing label"
FIX_TOP_GROUPS = "keep the {top} largest groups and put the rest in 'Other'"
FIX_RENORMALISE = "renormalise each row to sum to 1"
FIX_LOGIT = "read the scores as log-odds (the logit scale, mapped by the sigmoid)"

MAX_GROUPS = 20
DEFAULT_TOP_GROUPS = 10
SUM_TOLERANCE = 1e-3
MAX_LABEL_VALUES = 50
MISSING_GROUP = "(missing)"

SPLIT_ALIASES = {
    "train": "train",
    "training": "train",
    "fit": "train",
    "val": "validation",
    "valid": "validation",
    "validation": "validation",
    "calib": "validation",
    "calibration": "validation",
    "dev": "validation",
    "test": "test",
    "testing": "test",
    "holdout": "test",
    "eval": "test",
}
assert set(SPLIT_ALIASES.values()) == set(SPLIT_ROLES)

# text that means "no value" in a label-like column (compared lower-case)
_NA_TOKENS = frozenset({"na", "n/a", "nan", "null", "none", "#n/a", "<na>", "nat"})
_NAN_TEXT = frozenset({"nan", "-nan", "+nan"})

_SHOW = 5  # offending rows quoted in a message
_SAMPLE_BYTES = 1 << 16
_SEPARATORS = (",", ";", "\t", "|")
_SEP_NAMES = {",": "commas", ";": "semicolons", "\t": "tabs", "|": '"|"'}

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "it is a PNG image"),
    (b"\xff\xd8\xff", "it is a JPEG image"),
    (b"GIF87a", "it is a GIF image"),
    (b"GIF89a", "it is a GIF image"),
    (b"%PDF", "it is a PDF document"),
    (b"PK\x03\x04", "it is a ZIP archive (an Excel .xlsx workbook is one; save the sheet as CSV)"),
    (b"PK\x05\x06", "it is an empty ZIP archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "it is an old Office document (.xls); save it as CSV"),
    (b"\x1f\x8b", "it is gzip-compressed; unpack it first"),
    (b"\xfd7zXZ\x00", "it is xz-compressed; unpack it first"),
    (b"7z\xbc\xaf\x27\x1c", "it is a 7-Zip archive"),
    (b"Rar!", "it is a RAR archive"),
    (b"\x7fELF", "it is a program"),
    (b"SQLite format 3\x00", "it is an SQLite database"),
    (b"ARROW1", "it is an Arrow/Feather file"),
    (b"\x00\x00\x00", "it holds binary data"),
)
_PARQUET_EXT = (".parquet", ".pq", ".parq")

_DECIMAL_COMMA_RE = re.compile(r"^\s*[-+]?\d*,\d+(?:[eE][-+]?\d+)?\s*$")
_DECIMAL_POINT_RE = re.compile(r"^\s*[-+]?\d*\.\d+(?:[eE][-+]?\d+)?\s*$")
_NUMBER_RE = re.compile(
    r"^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$|^\s*[-+]?(?:inf|infinity|nan)\s*$",
    re.IGNORECASE,
)
_LINE_FIELDS_RE = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")
_EOF_QUOTE_RE = re.compile(r"EOF inside string starting at row (\d+)")


# ---------------------------------------------------------------------------------------
# Small text helpers
# ---------------------------------------------------------------------------------------


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def _join(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _q(value: object, limit: int = 40) -> str:
    """A value quoted for a message, shortened if long."""
    text = str(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return '"' + text.replace('"', "'") + '"'


def _num(x: float) -> str:
    return f"{x:.6g}"


def _rows_phrase(rownums: np.ndarray, texts: Sequence[str] | None = None) -> str:
    """'rows 4, 9 and 17 ("high", "n/a", "0.4.1")'; more than five: '(first 5 of 40)'."""
    count = len(rownums)
    shown = [str(int(r)) for r in rownums[:_SHOW]]
    phrase = ("row " if count == 1 else "rows ") + _join(shown)
    if count > _SHOW:
        phrase += f" (first {_SHOW} of {count})"
    if texts is not None:
        phrase += " (" + ", ".join(_q(t) for t in list(texts)[:_SHOW]) + ")"
    return phrase


def _cols_phrase(columns: Sequence[str]) -> str:
    columns = list(columns)
    word = "column " if len(columns) == 1 else "columns "
    return word + _join([_q(c) for c in columns])


def _available(columns: Sequence[str], limit: int = 20) -> str:
    cols = [_q(c) for c in columns[:limit]]
    more = f" and {len(columns) - limit} more" if len(columns) > limit else ""
    return ", ".join(cols) + more


def fingerprint(data: bytes) -> str:
    """SHA-256 of the uploaded bytes, as hex (the key for caches and reports)."""
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------------------------------
# read_table
# ---------------------------------------------------------------------------------------


def read_table(data: bytes, filename: str) -> pd.DataFrame:
    """Read CSV or Parquet bytes into a DataFrame; notes go to `df.attrs["notes"]`.

    Raises DataError (never a parser traceback) for empty files, header-only files,
    binary content, duplicate column names, nested Parquet columns, malformed lines and
    single-column files whose separator was probably not recognised.
    """
    name = str(filename)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise DataError(MSG_PARSE.format(name=name, reason="the upload is not a file's bytes"))
    data = bytes(data)
    ext = _extension(name)

    if _is_blank(data):
        raise DataError(MSG_EMPTY.format(name=name))
    if data[:4] == b"PAR1":
        return _read_parquet(data, name)
    what = _binary_kind(data)
    if ext in _PARQUET_EXT:
        if what is not None:
            raise DataError(MSG_NOT_A_TABLE.format(name=name, what=what))
        raise DataError(MSG_NOT_PARQUET.format(name=name))
    if what is not None:
        raise DataError(MSG_NOT_A_TABLE.format(name=name, what=what))
    return _read_csv(data, name, ext)


def _extension(filename: str) -> str:
    base = filename.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return "." + base.rsplit(".", 1)[-1] if "." in base else ""


def _is_blank(data: bytes) -> bool:
    for bom in (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        if data.startswith(bom):
            data = data[len(bom) :]
            if bom != codecs.BOM_UTF8:
                return not data.replace(b"\x00", b"").strip()
            break
    if data[:4096].strip():
        return False
    return not data.strip()


def _utf16_kind(data: bytes) -> str | None:
    if data.startswith(codecs.BOM_UTF16_LE):
        return "utf-16"
    if data.startswith(codecs.BOM_UTF16_BE):
        return "utf-16"
    head = data[:4096]
    if len(head) >= 4:
        even, odd = head[0::2], head[1::2]
        if odd.count(0) == len(odd) and even.count(0) == 0:
            return "utf-16-le"
        if even.count(0) == len(even) and odd.count(0) == 0:
            return "utf-16-be"
    return None


def _binary_kind(data: bytes) -> str | None:
    """A phrase saying what the bytes are when they are clearly not text, else None."""
    for magic, what in _MAGIC:
        if data.startswith(magic):
            return what
    if _utf16_kind(data) is not None:
        return None
    head = data[:_SAMPLE_BYTES]
    if b"\x00" in head:
        return "it holds binary data (NUL bytes), not text"
    control = sum(head.count(bytes([b])) for b in range(32) if b not in (9, 10, 12, 13))
    if control > max(8, len(head) // 20):
        return "it holds binary data (control characters), not text"
    return None


def _choose_encoding(data: bytes) -> tuple[str, str | None]:
    """(encoding for pandas, note or None)."""
    if data.isascii():
        return "utf-8", None
    try:
        data.decode("utf-8")
        return "utf-8", None
    except UnicodeDecodeError:
        pass
    try:
        data.decode("cp1252")
        return "cp1252", "Windows-1252 (Latin-1)"
    except UnicodeDecodeError:
        return "latin-1", "Latin-1"


def _sample_text(text: str, whole: bool) -> str:
    if whole:
        return text
    cut = text.rfind("\n")
    return text[: cut + 1] if cut > 0 else text


def _csv_rows(sample: str, sep: str) -> list[tuple[int, list[str]]]:
    """(line number, fields) of the non-blank rows of `sample` read with `sep`."""
    reader = csv.reader(io.StringIO(sample, newline=""), delimiter=sep)
    rows = []
    for fields in reader:
        if not fields or (len(fields) == 1 and fields[0] == ""):
            continue
        rows.append((reader.line_num, fields))
    return rows


def _sniff(sample: str, ext: str, truncated: bool) -> tuple[str, list[tuple[int, list[str]]]]:
    """Pick the separator whose field counts are most consistent with the header."""
    order = list(_SEPARATORS)
    if ext in (".tsv", ".tab"):
        order.remove("\t")
        order.insert(0, "\t")
    best: tuple[float, int, int] | None = None
    best_sep, best_rows = ",", []
    for rank, sep in enumerate(order):
        if sep not in sample:
            continue
        try:
            rows = _csv_rows(sample, sep)
        except csv.Error:
            continue
        if truncated and len(rows) > 2:
            rows = rows[:-1]
        if not rows or len(rows[0][1]) < 2:
            continue
        width = len(rows[0][1])
        body = rows[1:] or rows
        share = sum(len(f) == width or _trailing_empty(f, width) for _, f in body) / len(body)
        key = (share, width if share == 1.0 else 0, -rank)
        if best is None or key > best:
            best, best_sep, best_rows = key, sep, rows
    if best is None:
        try:
            best_rows = _csv_rows(sample, ",")
        except csv.Error:
            best_rows = []
        if truncated and len(best_rows) > 2:
            best_rows = best_rows[:-1]
    return best_sep, best_rows


def _trailing_empty(fields: list[str], width: int) -> bool:
    return len(fields) > width and not any(f.strip() for f in fields[width:])


def _check_header(rows: list[tuple[int, list[str]]], name: str, sep: str) -> None:
    if not rows:
        return
    header = [h.strip() for h in rows[0][1]]
    _refuse_duplicate_columns(header, name, ignore_blank=True)
    width = len(header)
    if width < 2:
        return
    for line, fields in rows[1:]:
        if len(fields) > width and not _trailing_empty(fields, width):
            raise DataError(
                MSG_PARSE_FIELDS.format(
                    name=name, line=line, saw=len(fields), expected=width, sep=_q(sep)
                )
            )


def _decimal_comma(rows: list[tuple[int, list[str]]], sep: str) -> bool:
    if sep == ",":
        return False
    comma = point = 0
    for _, fields in rows[1:]:
        for cell in fields:
            if _DECIMAL_COMMA_RE.match(cell):
                comma += 1
            elif _DECIMAL_POINT_RE.match(cell):
                point += 1
    return comma > 0 and point == 0


def _one_column_reason(header: str) -> str | None:
    """Why a single-column header looks like several columns run together, if it does."""
    text = header.strip()
    if re.search(r"\S\s+\S", text):
        return "its header looks like several names separated by spaces"
    for ch in ":~^#!/\\":
        if ch in text:
            return f"its header looks like several names separated by {_q(ch)}"
    return None


def _read_csv(data: bytes, name: str, ext: str) -> pd.DataFrame:
    notes: list[str] = []
    utf16 = _utf16_kind(data)
    if utf16 is not None:
        try:
            text = data.decode(utf16)
        except UnicodeDecodeError as exc:
            raise DataError(
                MSG_PARSE.format(name=name, reason="it looks like UTF-16 text but is damaged")
            ) from exc
        text = text.lstrip("\ufeff")
        notes.append(NOTE_UTF16.format(name=name))
        sample = _sample_text(text[:_SAMPLE_BYTES], len(text) <= _SAMPLE_BYTES)
        truncated = len(text) > _SAMPLE_BYTES
        source: io.IOBase = io.StringIO(text)
        encoding = "utf-8"
    else:
        encoding, label = _choose_encoding(data)
        if label is not None:
            notes.append(NOTE_ENCODING.format(name=name, encoding=label))
        head = data[:_SAMPLE_BYTES]
        if head.startswith(codecs.BOM_UTF8):
            head = head[3:]
        truncated = len(data) > _SAMPLE_BYTES
        sample = _sample_text(head.decode(encoding, errors="replace"), not truncated)
        source = io.BytesIO(data)

    sep, rows = _sniff(sample, ext, truncated)
    _check_header(rows, name, sep)
    decimal = "," if _decimal_comma(rows, sep) else "."
    if decimal == ",":
        notes.append(NOTE_DECIMAL_COMMA.format(name=name, sep=_SEP_NAMES[sep]))

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pd.errors.DtypeWarning)
            warnings.simplefilter("error", pd.errors.ParserWarning)
            df = pd.read_csv(
                source,
                sep=sep,
                decimal=decimal,
                encoding=encoding,
                engine="c",
                index_col=False,
                keep_default_na=False,
                na_values=[""],
                skip_blank_lines=True,
            )
    except DataError:
        raise
    except Exception as exc:  # pandas raises several types; none may reach the user
        raise _parser_error(exc, name, sep) from None

    df = _tidy(df, name, notes)
    if len(df.columns) == 1:
        reason = _one_column_reason(str(df.columns[0]))
        if reason is not None:
            raise DataError(
                MSG_ONE_COLUMN.format(name=name, column=df.columns[0], reason=reason),
                column=str(df.columns[0]),
            )
    header_cells = [str(c) for c in df.columns]
    if header_cells and all(_NUMBER_RE.match(c) for c in header_cells):
        shown = ", ".join(_q(c) for c in header_cells[:3])
        notes.append(NOTE_HEADER_NUMBERS.format(name=name, cells=shown))
    df.attrs["notes"] = notes
    return df


def _parser_error(exc: Exception, name: str, sep: str) -> DataError:
    text = str(exc)
    m = _LINE_FIELDS_RE.search(text)
    if m:
        expected, line, saw = (int(g) for g in m.groups())
        return DataError(
            MSG_PARSE_FIELDS.format(name=name, line=line, saw=saw, expected=expected, sep=_q(sep))
        )
    m = _EOF_QUOTE_RE.search(text)
    if m:
        return DataError(MSG_PARSE_QUOTE.format(name=name, line=int(m.group(1)) + 1))
    if isinstance(exc, pd.errors.ParserWarning):
        reason = "the first data line has more values than the header has names"
    elif isinstance(exc, pd.errors.EmptyDataError):
        return DataError(MSG_EMPTY.format(name=name))
    elif isinstance(exc, UnicodeError):
        reason = "its text encoding could not be recognised"
    elif isinstance(exc, MemoryError):
        reason = "it is too large for the memory available"
    else:
        reason = "its lines do not form rows of columns"
    return DataError(MSG_PARSE.format(name=name, reason=reason))


def _refuse_duplicate_columns(names: list[str], name: str, *, ignore_blank: bool = False) -> None:
    """DataError naming every column name that stands more than once (1-based positions)."""
    seen: dict[str, list[int]] = {}
    for pos, c in enumerate(names, start=1):
        if c or not ignore_blank:
            seen.setdefault(c, []).append(pos)
    repeated = {c: p for c, p in seen.items() if len(p) > 1}
    if repeated:
        details = "; ".join(
            f"{_q(c)} is the name of columns {_join([str(x) for x in p])}" for c, p in list(repeated.items())[:_SHOW]
        )
        raise DataError(MSG_DUPLICATE_COLUMNS.format(name=name, details=details), column=next(iter(repeated)))


def _tidy(df: pd.DataFrame, name: str, notes: list[str]) -> pd.DataFrame:
    """Strip column names, check duplicates, drop unnamed empty columns, require rows."""
    names = [str(c).strip() for c in df.columns]
    _refuse_duplicate_columns(names, name)
    df.columns = names
    empty_unnamed = [
        c for c in names if c.startswith("Unnamed: ") and len(df) > 0 and df[c].isna().all()
    ]
    if empty_unnamed and len(empty_unnamed) < len(names):
        df = df.drop(columns=empty_unnamed)
        k = len(empty_unnamed)
        notes.append(
            NOTE_EMPTY_COLUMNS.format(
                name=name,
                count=k,
                columns=_plural(k, "column", "columns"),
                were=_plural(k, "was", "were"),
            )
        )
    if len(df.columns) == 0:
        raise DataError(MSG_EMPTY.format(name=name))
    if len(df) == 0:
        cols = ", ".join(_q(c) for c in list(df.columns)[:8])
        if len(df.columns) > 8:
            cols += ", …"
        raise DataError(MSG_HEADER_ONLY.format(name=name, columns=cols))
    return df


def _read_parquet(data: bytes, name: str) -> pd.DataFrame:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pfile = pq.ParquetFile(pa.BufferReader(data))
        schema = pfile.schema_arrow
    except Exception:
        raise DataError(
            MSG_BAD_PARQUET.format(name=name, reason="it is damaged or cut short")
        ) from None
    nested = [f.name for f in schema if pa.types.is_nested(f.type)]
    nested += [
        f.name
        for f in schema
        if pa.types.is_dictionary(f.type) and pa.types.is_nested(f.type.value_type)
    ]
    if nested:
        raise DataError(
            MSG_NESTED_COLUMNS.format(name=name, columns=_cols_phrase(nested)),
            column=nested[0],
        )
    try:
        table = pfile.read()
        casts = {}
        for i, f in enumerate(table.schema):
            if pa.types.is_decimal(f.type):
                casts[i] = pa.float64()
        for i, typ in casts.items():
            table = table.set_column(i, table.schema.field(i).name, table.column(i).cast(typ))
        df = table.to_pandas()
    except Exception:
        raise DataError(
            MSG_BAD_PARQUET.format(name=name, reason="its contents could not be decoded")
        ) from None
    if not isinstance(df.index, pd.RangeIndex):
        df = df.reset_index()
    if isinstance(df.columns, pd.MultiIndex):
        df.columns = ["_".join(str(x) for x in c if str(x)) for c in df.columns]
    notes: list[str] = []
    df = _tidy(df, name, notes)
    df.attrs["notes"] = notes
    return df


# ---------------------------------------------------------------------------------------
# Column helpers shared by guess_mapping, label_values and prepare
# ---------------------------------------------------------------------------------------


def _canon(value: object) -> str | None:
    """One cell as text: 1.0 -> "1", True -> "True", stripped strings; None if missing."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, (bool, np.bool_)):
        return "True" if value else "False"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        x = float(value)
        if math.isnan(x):
            return None
        if math.isfinite(x) and x == int(x) and abs(x) < 1e15:
            return str(int(x))
        return repr(x)
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    text = str(value).strip()
    return text or None


def _categories(
    series: pd.Series, na_tokens: frozenset[str] = frozenset()
) -> tuple[np.ndarray, list[str]]:
    """(codes, names): codes index into names (first-appearance order), -1 = missing."""
    try:
        codes, uniques = pd.factorize(series, use_na_sentinel=True)
    except TypeError:
        codes, uniques = pd.factorize(series.astype(str), use_na_sentinel=True)
    codes = np.asarray(codes, dtype=np.int64)
    names: list[str] = []
    index: dict[str, int] = {}
    lut = np.full(len(uniques) + 1, -1, dtype=np.int64)
    for i, u in enumerate(list(uniques)):
        text = _canon(u)
        if text is None or text.lower() in na_tokens:
            continue
        if text not in index:
            index[text] = len(names)
            names.append(text)
        lut[i] = index[text]
    # order names by first appearance in the data (factorize already does so for
    # uniques; merging " yes" into "yes" keeps the first one's position)
    new = np.where(codes >= 0, lut[codes], -1)
    return new, names


def _first_rows(codes: np.ndarray, k: int) -> np.ndarray:
    """Position of the first occurrence of each code 0..k-1."""
    first = np.full(k, -1, dtype=np.int64)
    valid = np.flatnonzero(codes >= 0)
    if len(valid):
        uniq, pos = np.unique(codes[valid], return_index=True)
        first[uniq] = valid[pos]
    return first


def _as_float(series: pd.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(values, not_number mask, missing mask) for a column that should hold numbers."""
    n = len(series)
    dtype = series.dtype
    numeric = pd.api.types.is_numeric_dtype(dtype) and not isinstance(dtype, pd.CategoricalDtype)
    if numeric and dtype.kind != "c":
        try:
            values = series.to_numpy(dtype=np.float64, na_value=np.nan)
            return values, np.zeros(n, dtype=bool), np.isnan(values)
        except (TypeError, ValueError):
            pass
    if dtype.kind in "mMc":
        obj = series.astype(str)
    elif isinstance(dtype, pd.CategoricalDtype):
        obj = series.astype(object)
    else:
        obj = series
    try:
        values = pd.to_numeric(obj, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    except (TypeError, ValueError, OverflowError):
        values = np.array([_to_float(v) for v in obj.astype(object)], dtype=np.float64)
    original_missing = np.asarray(series.isna(), dtype=bool)
    from_text = np.isnan(values) & ~original_missing
    not_number = np.zeros(n, dtype=bool)
    missing = original_missing.copy()
    if from_text.any():
        idx = np.flatnonzero(from_text)
        texts = pd.Series(series.to_numpy(dtype=object)[idx]).map(_cell_text)
        is_missing = (texts == "") | texts.str.lower().isin(_NAN_TEXT)
        is_missing = np.asarray(is_missing, dtype=bool)
        missing[idx[is_missing]] = True
        not_number[idx[~is_missing]] = True
    return values, not_number, missing


def _to_float(value: object) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return math.nan


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    return str(value).strip()


def _norm_name(column: object) -> str:
    return re.sub(r"[\s\-.]+", "_", str(column).strip().lower())


# ---------------------------------------------------------------------------------------
# guess_mapping
# ---------------------------------------------------------------------------------------

_LABEL_NAMES = (
    "label", "y", "target", "outcome", "class", "y_true", "truth", "ground_truth",
    "actual", "labels", "two_year_recid", "is_recid",
)  # fmt: skip
_SCORE_PREFIXES = ("score", "prob", "p_", "pred", "model", "yhat", "y_hat", "y_score", "y_pred")
_GROUP_NAMES = (
    "group", "race", "sex", "gender", "segment", "channel", "ethnicity", "region",
    "age_group", "cohort",
)  # fmt: skip
_SPLIT_NAMES = ("split", "fold", "set", "partition", "subset")
_WEIGHT_NAMES = ("weight", "weights", "w", "sample_weight", "case_weight")
_DELTA_NAMES = ("delta", "margin", "instance_margin")
_YES_NAMES = ("n_yes", "votes_yes", "yes_votes", "yes", "votes_for", "n_for", "votes_pos")
_NO_NAMES = ("n_no", "votes_no", "no_votes", "no", "votes_against", "n_against", "votes_neg")
_CLASS_PREFIXES = ("p_", "prob_", "proba_", "probability_")
_POSITIVE_WORDS = {"yes": "no", "y": "n", "true": "false", "positive": "negative", "pos": "neg"}
_GUESS_SAMPLE = 20_000


def _mostly_numeric(series: pd.Series) -> bool:
    if pd.api.types.is_bool_dtype(series.dtype):
        return False
    if pd.api.types.is_numeric_dtype(series.dtype) and series.dtype.kind != "c":
        return True
    head = series.iloc[:_GUESS_SAMPLE]
    values, not_number, missing = _as_float(head)
    present = (~missing).sum()
    return present > 0 and not_number.sum() <= 0.1 * present


def _finite_range(series: pd.Series) -> tuple[float, float] | None:
    values, _, _ = _as_float(series)
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return None
    return float(finite.min()), float(finite.max())


def guess_mapping(df: pd.DataFrame) -> ColumnMapping:
    """A first guess at the column roles from names and contents (the user may edit it)."""
    columns = [str(c) for c in df.columns]
    series = {str(c): df.iloc[:, i] for i, c in enumerate(df.columns)}
    norm = {c: _norm_name(c) for c in columns}
    by_norm: dict[str, str] = {}
    for c in columns:
        by_norm.setdefault(norm[c], c)
    numeric = {c: _mostly_numeric(series[c]) for c in columns}
    used: set[str] = set()

    def find(names: Sequence[str], numeric_only: bool = False) -> str | None:
        for want in names:
            c = by_norm.get(want)
            if c is not None and c not in used and (numeric[c] or not numeric_only):
                return c
        return None

    # multiclass probabilities: >= 3 columns sharing a prefix, in [0, 1], rows summing to 1
    class_probs: tuple[str, ...] = ()
    class_names: tuple[str, ...] = ()
    for prefix in _CLASS_PREFIXES:
        cols = [c for c in columns if norm[c].startswith(prefix) and numeric[c]]
        cols = [c for c in cols if len(norm[c]) > len(prefix)]
        if len(cols) < 3:
            continue
        block = np.column_stack([_as_float(series[c].iloc[:_GUESS_SAMPLE])[0] for c in cols])
        ok = np.all(np.isfinite(block), axis=1)
        if not ok.any():
            continue
        inside = np.all((block[ok] >= 0) & (block[ok] <= 1))
        sums = block[ok].sum(axis=1)
        if inside and np.mean(np.abs(sums - 1) <= 1e-2) >= 0.95:
            class_probs = tuple(cols)
            class_names = tuple(c[len(prefix) :] for c in cols)
            used.update(cols)
            break

    # label (binary) and class_label (multiclass)
    label = positive = class_label = None
    label_candidates = [by_norm[n] for n in _LABEL_NAMES if n in by_norm]
    label_candidates += [
        c for c in columns if norm[c].startswith("is_") and c not in label_candidates
    ]
    if class_probs:
        lowered = {n.lower() for n in class_names}
        candidates = label_candidates + [c for c in columns if c not in label_candidates]
        for c in candidates:
            if c in used:
                continue
            _, names = _categories(series[c].iloc[:_GUESS_SAMPLE], _NA_TOKENS)
            if len(names) >= 2 and all(n.lower() in lowered for n in names):
                class_label = c
                used.add(c)
                break
    for c in label_candidates:
        if c in used or len(_categories(series[c].iloc[:_GUESS_SAMPLE], _NA_TOKENS)[1]) > 2:
            continue
        _, names = _categories(series[c], _NA_TOKENS)
        if 1 <= len(names) <= 2:
            label = c
            used.add(c)
            positive = _guess_positive(names)
            break

    # scores
    scores = []
    for c in columns:
        if c in used or not numeric[c]:
            continue
        if any(norm[c].startswith(p) for p in _SCORE_PREFIXES) or norm[c].endswith(
            ("_score", "_prob", "_proba")
        ):
            scores.append(c)
    used.update(scores)
    scale = "probability"
    for c in scores:
        rng = _finite_range(series[c])
        if rng is not None and (rng[0] < 0 or rng[1] > 1):
            scale = "raw"

    group = find(_GROUP_NAMES)
    if group is None:
        group = next((c for c in columns if norm[c].startswith("group") and c not in used), None)
    if group:
        used.add(group)

    split = None
    for want in _SPLIT_NAMES:
        c = by_norm.get(want)
        if c is None or c in used:
            continue
        _, names = _categories(series[c])
        if names and all(n.lower() in SPLIT_ALIASES for n in names):
            split = c
            used.add(c)
            break

    weight = find(_WEIGHT_NAMES, numeric_only=True)
    if weight:
        used.add(weight)
    delta = find(_DELTA_NAMES, numeric_only=True)
    votes_yes = votes_no = None
    if delta:
        used.add(delta)
    else:
        votes_yes = find(_YES_NAMES, numeric_only=True)
        votes_no = find(_NO_NAMES, numeric_only=True)
        if votes_yes is None or votes_no is None or votes_yes == votes_no:
            votes_yes = votes_no = None

    return ColumnMapping(
        label=label,
        positive=positive,
        scores=tuple(scores),
        score_scale=scale,
        group=group,
        split=split,
        weight=weight,
        delta=delta,
        votes_yes=votes_yes,
        votes_no=votes_no,
        class_label=class_label,
        class_probs=class_probs,
        class_names=class_names,
    )


def _guess_positive(names: list[str]) -> str | None:
    if len(names) != 2 or _binary_default(names) is not None:
        return None
    low = [n.lower() for n in names]
    for i, word in enumerate(low):
        other = low[1 - i]
        if _POSITIVE_WORDS.get(word) == other:
            return names[i]
    floats = [_to_float(n) for n in names]
    if sorted(floats) == [-1.0, 1.0]:
        return names[floats.index(1.0)]
    return None


def _binary_default(names: list[str]) -> str | None:
    """The positive value when labels are 0/1 or True/False (any case), else None."""
    if len(names) > 2 or not names:
        return None
    low = {n.lower() for n in names}
    if low <= {"true", "false"}:
        return next((n for n in names if n.lower() == "true"), "True")
    floats = [_to_float(n) for n in names]
    if all(f in (0.0, 1.0) for f in floats):
        for n, f in zip(names, floats, strict=True):
            if f == 1.0:
                return n
        return "1"
    return None


# ---------------------------------------------------------------------------------------
# label_values
# ---------------------------------------------------------------------------------------


def label_values(df: pd.DataFrame, column: str) -> list[str]:
    """Distinct non-missing values of `column` as text (at most 50), for a picker."""
    lookup = {str(c): i for i, c in enumerate(df.columns)}
    if column not in lookup:
        raise DataError(
            MSG_MISSING_COLUMN.format(
                name="the table",
                what=f"the column {_q(column)} chosen as the label",
                verb="does",
                available=_available([str(c) for c in df.columns]),
            ),
            column=column,
        )
    codes, names = _categories(df.iloc[:, lookup[column]], _NA_TOKENS)
    if len(names) > MAX_LABEL_VALUES:
        counts = np.bincount(codes[codes >= 0], minlength=len(names))
        keep = np.argsort(-counts, kind="stable")[:MAX_LABEL_VALUES]
        names = [names[i] for i in keep]
    floats = [_to_float(n) for n in names]
    if all(math.isfinite(f) for f in floats):
        return [n for _, n in sorted(zip(floats, names, strict=True))]
    return sorted(names, key=lambda s: (s.lower(), s))


# ---------------------------------------------------------------------------------------
# prepare
# ---------------------------------------------------------------------------------------


class _Ctx:
    """The table being prepared: its name, row numbers (1-based, original) and notes."""

    def __init__(self, df: pd.DataFrame, name: str):
        self.df = df
        self.name = name
        self.rownums = np.arange(1, len(df) + 1, dtype=np.int64)
        self.notes: list[str] = list(df.attrs.get("notes", []) or [])
        self.lookup = {str(c): i for i, c in enumerate(df.columns)}

    @property
    def n(self) -> int:
        return len(self.rownums)

    def col(self, column: str) -> pd.Series:
        return self.df.iloc[:, self.lookup[column]]

    def keep(self, mask: np.ndarray) -> None:
        self.df = self.df.loc[mask]
        self.rownums = self.rownums[mask]

    def rows(self, mask_or_idx: np.ndarray, texts: Sequence[str] | None = None) -> str:
        idx = np.flatnonzero(mask_or_idx) if mask_or_idx.dtype == bool else mask_or_idx
        return _rows_phrase(self.rownums[idx], texts)

    def texts(self, column: str, mask: np.ndarray) -> list[str]:
        idx = np.flatnonzero(mask)[:_SHOW]
        values = self.col(column).iloc[idx].tolist()
        return [_cell_text(v) if not _is_missing(v) else "" for v in values]


def _is_missing(value: object) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def _bad_rows(ctx, template: str, column: str, mask: np.ndarray, values: np.ndarray | None = None,
              **extra) -> str:
    """`template` filled for the rows in `mask` of `column`: the file's name, the count, the
    first rows and (when `values` is given) their values."""
    k = int(mask.sum())
    texts = None if values is None else [_num(x) for x in values[mask][:_SHOW]]
    return template.format(name=ctx.name, column=column, count=k, rows=ctx.rows(mask, texts), **_vals(k), **extra)


def _vals(n: int) -> dict[str, str]:
    return {
        "values": _plural(n, "value", "values"),
        "are": _plural(n, "is", "are"),
        "were": _plural(n, "was", "were"),
        "counts": _plural(n, "count", "counts"),
    }


def _numbers(ctx: _Ctx, column: str, *, allow_inf: bool = False) -> np.ndarray:
    """The column as float64, or DataError naming text, blank and infinite cells."""
    values, not_number, missing = _as_float(ctx.col(column))
    name = ctx.name
    if not_number.any():
        k = int(not_number.sum())
        texts = ctx.texts(column, not_number)
        msg = MSG_NOT_NUMBERS.format(
            name=name, column=column, count=k, rows=ctx.rows(not_number, texts), **_vals(k)
        )
        if any(_DECIMAL_COMMA_RE.match(t) for t in texts):
            msg += " They look like numbers written with a decimal comma; save the file with "
            msg += "decimal points, or separate its columns with semicolons."
        raise DataError(msg, column=column)
    if missing.any():
        raise DataError(_bad_rows(ctx, MSG_MISSING_NUMBERS, column, missing), column=column)
    if not allow_inf:
        inf = np.isinf(values)
        if inf.any():
            raise DataError(_bad_rows(ctx, MSG_INFINITE, column, inf, values), column=column)
    return values


def _check_number(ctx: _Ctx, column: str, role: str, what: str, value: object) -> float:
    x = _to_float(value) if value is not None else math.nan
    if not math.isfinite(x):
        shown = "not given" if value is None else _q(value)
        raise DataError(
            MSG_NEEDS_NUMBER.format(
                name=ctx.name, column=column, role=role, what=what, value=shown
            ),
            column=column,
        )
    return x


def prepare(
    df: pd.DataFrame,
    mapping: ColumnMapping,
    *,
    name: str,
    fingerprint: str,
    drop_missing_labels: bool = False,
    top_groups: int | None = None,
    renormalise: bool = False,
) -> Dataset:
    """Validate the mapped columns of `df` and build the `Dataset` arrays.

    drop_missing_labels  drop rows whose label (or class label) is blank, with a note
    top_groups           keep this many largest groups, the rest become "Other", with a note
    renormalise          divide each row of class probabilities by its sum, with a note
    """
    ctx = _Ctx(df, str(name))
    m = mapping
    scores_cols = list(dict.fromkeys(m.scores or ()))
    probs_cols = list(m.class_probs or ())

    roles: list[tuple[str, str]] = []
    if m.label:
        roles.append(("the label", m.label))
    roles += [("a score", c) for c in scores_cols]
    for role, col in (
        ("the group", m.group),
        ("the split", m.split),
        ("the weight", m.weight),
        ("the delta", m.delta),
        ("the yes votes", m.votes_yes),
        ("the no votes", m.votes_no),
        ("the rating", m.rating),
        ("the measurement", m.measurement),
        ("the class label", m.class_label),
    ):
        if col:
            roles.append((role, col))
    roles += [("a class probability", c) for c in probs_cols]

    if not (
        m.label
        or scores_cols
        or m.delta
        or m.votes_yes
        or m.votes_no
        or m.rating
        or m.measurement
        or m.class_label
        or probs_cols
    ):
        raise DataError(MSG_NOTHING_MAPPED.format(name=ctx.name))

    missing_cols = [(role, c) for role, c in roles if str(c) not in ctx.lookup]
    if missing_cols:
        gone: dict[str, str] = {}
        for role, c in missing_cols:
            gone.setdefault(str(c), role)
        if len(gone) == 1:
            c, role = next(iter(gone.items()))
            what = f"the column {_q(c)} chosen as {role}"
        else:
            what = "the columns " + _join([f"{_q(c)} ({role})" for c, role in gone.items()])
        raise DataError(
            MSG_MISSING_COLUMN.format(
                name=ctx.name,
                what=what,
                verb="does" if len(gone) == 1 else "do",
                available=_available(list(ctx.lookup)),
            ),
            column=next(iter(gone)),
        )
    names_in_df = [str(c) for c in df.columns]
    for _, c in roles:
        if names_in_df.count(str(c)) > 1:
            raise DataError(MSG_DUPLICATE_MAPPED.format(name=ctx.name, column=c), column=str(c))
    if ctx.n == 0:
        raise DataError(MSG_NO_ROWS.format(name=ctx.name))
    if m.score_scale not in ("probability", "logit", "raw"):
        raise DataError(MSG_BAD_SCALE.format(name=ctx.name, scale=m.score_scale))

    # 1. labels first: dropping rows with a missing label changes every other column
    label_codes = label_names = None
    class_codes = class_label_names = None
    drop = np.zeros(ctx.n, dtype=bool)
    label_missing: dict[str, np.ndarray] = {}
    if m.label:
        label_codes, label_names = _categories(ctx.col(m.label), _NA_TOKENS)
        label_missing[m.label] = label_codes < 0
    if m.class_label:
        class_codes, class_label_names = _categories(ctx.col(m.class_label), _NA_TOKENS)
        label_missing[m.class_label] = class_codes < 0
    for column, miss in label_missing.items():
        if not miss.any():
            continue
        k = int(miss.sum())
        if k == ctx.n:
            raise DataError(
                MSG_LABEL_ALL_MISSING.format(name=ctx.name, column=column, n=ctx.n), column=column
            )
        if not drop_missing_labels:
            raise DataError(
                MSG_LABEL_MISSING.format(
                    name=ctx.name,
                    column=column,
                    count=k,
                    rows=ctx.rows(miss),
                    values=_plural(k, "row", "rows"),
                ),
                fix=FIX_DROP_LABELS.format(count=k, values=_plural(k, "row", "rows")),
                column=column,
            )
        drop |= miss
    if drop.any():
        k = int(drop.sum())
        dropped_rows = ctx.rows(drop)
        keep = ~drop
        if drop.all():
            raise DataError(
                MSG_LABEL_ALL_MISSING.format(
                    name=ctx.name, column=m.label or m.class_label, n=ctx.n
                )
            )
        ctx.keep(keep)
        if label_codes is not None:
            label_codes = label_codes[keep]
        if class_codes is not None:
            class_codes = class_codes[keep]
        ctx.notes.append(
            NOTE_DROPPED_LABELS.format(
                name=ctx.name,
                count=k,
                values=_plural(k, "row", "rows"),
                column=" / ".join(c for c, miss in label_missing.items() if miss.any()),
                were=_plural(k, "was", "were"),
                rows=dropped_rows,
                kept=ctx.n,
            )
        )

    y = positive = None
    if m.label:
        assert label_codes is not None and label_names is not None
        label_codes, label_names = _compact(label_codes, label_names)
        y, positive = _binary_labels(ctx, m.label, label_codes, label_names, m.positive)

    # 2. scores
    scores: dict[str, np.ndarray] = {}
    for c in scores_cols:
        values = _numbers(ctx, c)
        if m.score_scale == "probability":
            outside = (values < 0) | (values > 1)
            if outside.any():
                k = int(outside.sum())
                texts = [_num(v) for v in values[outside][:_SHOW]]
                raise DataError(
                    MSG_OUTSIDE_01.format(
                        name=ctx.name,
                        column=c,
                        count=k,
                        low=_num(values.min()),
                        high=_num(values.max()),
                        rows=ctx.rows(outside, texts),
                        **_vals(k),
                    ),
                    fix=FIX_LOGIT,
                    column=c,
                )
        elif m.score_scale == "logit":
            values = expit(values)
        scores[c] = np.ascontiguousarray(values, dtype=np.float64)

    # 3. weight
    weight = None
    if m.weight:
        weight = _numbers(ctx, m.weight)
        neg = weight < 0
        if neg.any():
            raise DataError(_bad_rows(ctx, MSG_WEIGHT_NEGATIVE, m.weight, neg, weight), column=m.weight)
        if not (weight > 0).any():
            raise DataError(
                MSG_WEIGHT_ZERO.format(name=ctx.name, column=m.weight, n=ctx.n, last=ctx.n),
                column=m.weight,
            )

    # 4. group and split
    groups = _groups(ctx, m.group, top_groups) if m.group else None
    split = _split(ctx, m.split) if m.split else None

    # 5. delta
    delta = _delta(ctx, m)

    # 6. multiclass
    y_class = class_probs = None
    class_names: tuple[str, ...] = tuple(m.class_names or ())
    if probs_cols:
        class_probs, class_names = _class_probs(ctx, probs_cols, class_names, renormalise)
    if m.class_label:
        assert class_codes is not None and class_label_names is not None
        class_codes, class_label_names = _compact(class_codes, class_label_names)
        y_class, class_names = _class_labels(
            ctx, m.class_label, class_codes, class_label_names, class_names
        )

    resolved = dataclasses.replace(
        mapping,
        positive=positive if m.label else mapping.positive,
        scores=tuple(scores_cols),
        class_names=class_names,
    )
    return Dataset(
        name=ctx.name,
        fingerprint=fingerprint,
        n_rows=ctx.n,
        mapping=resolved,
        y=y,
        scores=scores,
        probabilities=m.score_scale != "raw",
        groups=groups,
        split=split,
        weight=weight,
        delta=delta,
        y_class=y_class,
        class_probs=class_probs,
        class_names=class_names,
        notes=tuple(ctx.notes),
    )


def _compact(codes: np.ndarray, names: list[str]) -> tuple[np.ndarray, list[str]]:
    """Drop names no longer used (after rows were dropped), keeping appearance order."""
    present = np.zeros(len(names), dtype=bool)
    present[np.unique(codes[codes >= 0])] = True
    if present.all():
        return codes, names
    lut = np.cumsum(present) - 1
    new = np.where(codes >= 0, lut[np.maximum(codes, 0)], -1)
    return new, [n for n, p in zip(names, present, strict=True) if p]


def _binary_labels(
    ctx: _Ctx, column: str, codes: np.ndarray, names: list[str], positive: str | None
) -> tuple[np.ndarray, str]:
    name = ctx.name
    k = len(names)
    first = _first_rows(codes, k)
    counts = np.bincount(codes[codes >= 0], minlength=k)
    if k == 1:
        raise DataError(
            MSG_LABEL_ONE_CLASS.format(
                name=name, column=column, value=_q(names[0]), n=ctx.n, last=ctx.rownums[-1]
            ),
            column=column,
        )
    if k > 2:
        order = np.argsort(-counts, kind="stable")
        parts = [
            f"{_q(names[i])} ({counts[i]} {_plural(int(counts[i]), 'row', 'rows')}, first at row "
            f"{ctx.rownums[first[i]]})"
            for i in order[:10]
        ]
        listing = _join(parts) + (f" and {k - 10} more" if k > 10 else "")
        raise DataError(
            MSG_LABEL_MANY.format(name=name, column=column, k=k, listing=listing), column=column
        )
    a, b = names
    row_a, row_b = ctx.rownums[first[0]], ctx.rownums[first[1]]
    if positive is None or str(positive).strip() == "":
        chosen = _binary_default(names)
        if chosen is None:
            raise DataError(
                MSG_LABEL_NEEDS_POSITIVE.format(
                    name=name, column=column, a=_q(a), b=_q(b), row_a=row_a, row_b=row_b
                ),
                column=column,
            )
    else:
        chosen = _match_value(str(positive).strip(), names)
        if chosen is None:
            raise DataError(
                MSG_POSITIVE_NOT_FOUND.format(
                    name=name,
                    column=column,
                    positive=_q(positive),
                    a=_q(a),
                    b=_q(b),
                    row_a=row_a,
                    row_b=row_b,
                ),
                column=column,
            )
    pos_code = names.index(chosen)
    return (codes == pos_code).astype(np.int8), chosen


def _match_value(wanted: str, names: list[str]) -> str | None:
    if wanted in names:
        return wanted
    low = [n for n in names if n.lower() == wanted.lower()]
    if len(low) == 1:
        return low[0]
    w = _to_float(wanted)
    if math.isfinite(w):
        hits = [n for n in names if _to_float(n) == w]
        if len(hits) == 1:
            return hits[0]
    return None


def _groups(ctx: _Ctx, column: str, top_groups: int | None) -> np.ndarray:
    codes, names = _categories(ctx.col(column))
    missing = codes < 0
    if missing.any():
        k = int(missing.sum())
        label = MISSING_GROUP
        while label in names:
            label = "(" + label + ")"
        codes = np.where(missing, len(names), codes)
        names = names + [label]
        ctx.notes.append(
            NOTE_MISSING_GROUP.format(
                name=ctx.name,
                column=column,
                count=k,
                rows=ctx.rows(missing),
                missing=label,
                **_vals(k),
            )
        )
    k = len(names)
    counts = np.bincount(codes, minlength=k)
    order = np.argsort(-counts, kind="stable")
    if top_groups is not None:
        top = int(top_groups)
        if top < 1:
            top = 1
        if k > top:
            keep = np.zeros(k, dtype=bool)
            keep[order[:top]] = True
            kept_names = [names[i] for i in range(k) if keep[i]]
            other = "Other"
            while other in kept_names:
                other += " (rest)"
            lut = np.where(keep, np.cumsum(keep) - 1, len(kept_names))
            rest_rows = int(counts[~keep].sum())
            ctx.notes.append(
                NOTE_TOP_GROUPS.format(
                    name=ctx.name,
                    column=column,
                    k=k,
                    top=top,
                    rest=k - top,
                    rest_rows=rest_rows,
                    other=other,
                )
            )
            codes, names = lut[codes], kept_names + [other]
            k = len(names)
            counts = np.bincount(codes, minlength=k)
    elif k > MAX_GROUPS:
        first = _first_rows(codes, k)
        largest = ", ".join(
            f"{_q(names[i])} ({counts[i]} {_plural(int(counts[i]), 'row', 'rows')}, first at "
            f"row {ctx.rownums[first[i]]})"
            for i in order[:3]
        )
        raise DataError(
            MSG_GROUP_TOO_MANY.format(
                name=ctx.name, column=column, k=k, largest=largest, limit=MAX_GROUPS
            ),
            fix=FIX_TOP_GROUPS.format(top=DEFAULT_TOP_GROUPS),
            column=column,
        )
    single = [i for i in range(k) if counts[i] == 1]
    if single:
        first = _first_rows(codes, k)
        shown = [_q(names[i]) for i in single[:_SHOW]]
        more = f" and {len(single) - _SHOW} more" if len(single) > _SHOW else ""
        ctx.notes.append(
            NOTE_ONE_ROW_GROUP.format(
                name=ctx.name,
                groups=_plural(len(single), "group ", "groups ") + _join(shown) + more,
                column=column,
                has_have=_plural(len(single), "has", "have"),
                rows=_rows_phrase(np.sort(ctx.rownums[first[single]])),
                it_them=_plural(len(single), "it", "them"),
            )
        )
    return np.array(names, dtype=object)[codes]


def _split(ctx: _Ctx, column: str) -> np.ndarray:
    codes, names = _categories(ctx.col(column))
    roles = [SPLIT_ALIASES.get(n.lower()) for n in names]
    bad_code = np.array([r is None for r in roles] + [True], dtype=bool)  # last: missing
    bad = bad_code[np.where(codes >= 0, codes, len(names))]
    if bad.any():
        k = int(bad.sum())
        raise DataError(
            MSG_SPLIT_UNKNOWN.format(
                name=ctx.name,
                column=column,
                count=k,
                rows=ctx.rows(bad, ctx.texts(column, bad)),
                **_vals(k),
            ),
            column=column,
        )
    return np.array(roles, dtype=object)[codes]


def _delta(ctx: _Ctx, m: ColumnMapping) -> np.ndarray | None:
    sources = []
    if m.delta:
        sources.append(f"column {_q(m.delta)}")
    if m.votes_yes or m.votes_no:
        sources.append("votes")
    if m.rating:
        sources.append(f"rating {_q(m.rating)}")
    if m.measurement:
        sources.append(f"measurement {_q(m.measurement)}")
    if not sources:
        return None
    if len(sources) > 1:
        raise DataError(MSG_DELTA_SOURCES.format(name=ctx.name, sources=_join(sources)))
    if m.delta:
        delta = _numbers(ctx, m.delta)
        source, column = f"column {_q(m.delta)}", m.delta
    elif m.votes_yes or m.votes_no:
        if not (m.votes_yes and m.votes_no):
            given, other = ("yes", "no") if m.votes_yes else ("no", "yes")
            column = m.votes_yes or m.votes_no
            raise DataError(
                MSG_VOTES_INCOMPLETE.format(name=ctx.name, given=given, other=other, column=column),
                column=column,
            )
        counts = []
        for column in (m.votes_yes, m.votes_no):
            v = _numbers(ctx, column)
            neg = v < 0
            if neg.any():
                raise DataError(_bad_rows(ctx, MSG_VOTES_NEGATIVE, column, neg, v), column=column)
            frac = v != np.floor(v)
            if frac.any():
                raise DataError(_bad_rows(ctx, MSG_VOTES_NOT_INTEGER, column, frac, v), column=column)
            counts.append(v)
        delta = delta_from_votes(counts[0], counts[1])
        source = f"votes {_q(m.votes_yes)} and {_q(m.votes_no)}"
        column = m.votes_yes
    elif m.rating:
        mid = _check_number(ctx, m.rating, "the rating", "midpoint", m.rating_midpoint)
        with np.errstate(over="ignore", invalid="ignore"):
            delta = delta_from_rating(_numbers(ctx, m.rating), mid)
        source, column = f"rating {_q(m.rating)} minus {_num(mid)}", m.rating
    else:
        assert m.measurement
        tau = _check_number(
            ctx, m.measurement, "the measurement", "threshold", m.measurement_threshold
        )
        with np.errstate(over="ignore", invalid="ignore"):
            delta = delta_from_threshold(_numbers(ctx, m.measurement), tau)
        source, column = f"measurement {_q(m.measurement)} minus {_num(tau)}", m.measurement
    if not np.all(np.isfinite(delta)):
        bad = ~np.isfinite(delta)
        k = int(bad.sum())
        raise DataError(
            MSG_DELTA_OVERFLOW.format(
                name=ctx.name,
                source=source,
                count=k,
                rows=ctx.rows(bad),
                values=_plural(k, "row", "rows"),
            ),
            column=column,
        )
    if not np.any(delta != 0):
        raise DataError(
            MSG_DELTA_ZERO.format(name=ctx.name, source=source, n=ctx.n, last=ctx.rownums[-1]),
            column=column,
        )
    return np.ascontiguousarray(delta, dtype=np.float64)


def _default_class_names(columns: list[str]) -> tuple[str, ...]:
    prefix = _common_prefix(columns)
    cut = max(prefix.rfind("_"), prefix.rfind("("), prefix.rfind(" "), prefix.rfind(":"))
    prefix = prefix[: cut + 1] if cut >= 0 else ""
    names = [c[len(prefix) :].rstrip(")") or c for c in columns]
    if len(set(names)) != len(names):
        names = list(columns)
    return tuple(names)


def _common_prefix(texts: list[str]) -> str:
    if not texts:
        return ""
    lo, hi = min(texts), max(texts)
    i = 0
    while i < min(len(lo), len(hi)) and lo[i] == hi[i]:
        i += 1
    return lo[:i]


def _class_probs(
    ctx: _Ctx, columns: list[str], names: tuple[str, ...], renormalise: bool
) -> tuple[np.ndarray, tuple[str, ...]]:
    name = ctx.name
    shown = _join([_q(c) for c in columns[:6]]) + (" …" if len(columns) > 6 else "")
    if len(columns) < 2:
        raise DataError(
            MSG_CLASS_TOO_FEW.format(name=name, columns=shown, is_are="is"),
            column=columns[0] if columns else None,
        )
    if len(set(columns)) != len(columns):
        again = [c for c in dict.fromkeys(columns) if columns.count(c) > 1]
        raise DataError(
            MSG_CLASS_NAMES_REPEAT.format(name=name, repeated=_join([_q(c) for c in again])),
            column=again[0],
        )
    if not names:
        names = _default_class_names(columns)
    names = tuple(str(n).strip() for n in names)
    if len(names) != len(columns):
        raise DataError(
            MSG_CLASS_NAMES_COUNT.format(name=name, k=len(names), m=len(columns), columns=shown)
        )
    if len(set(names)) != len(names):
        again = [n for n in dict.fromkeys(names) if names.count(n) > 1]
        raise DataError(
            MSG_CLASS_NAMES_REPEAT.format(name=name, repeated=_join([_q(n) for n in again]))
        )
    block = np.empty((ctx.n, len(columns)), dtype=np.float64)
    for j, c in enumerate(columns):
        v = _numbers(ctx, c)
        outside = (v < 0) | (v > 1)
        if outside.any():
            k = int(outside.sum())
            raise DataError(
                MSG_OUTSIDE_01.format(
                    name=name,
                    column=c,
                    count=k,
                    low=_num(v.min()),
                    high=_num(v.max()),
                    rows=ctx.rows(outside, [_num(x) for x in v[outside][:_SHOW]]),
                    **_vals(k),
                ),
                column=c,
            )
        block[:, j] = v
    sums = block.sum(axis=1)
    off = np.abs(sums - 1.0) > SUM_TOLERANCE
    if off.any():
        k = int(off.sum())
        if not renormalise:
            raise DataError(
                MSG_CLASS_SUM.format(
                    name=name,
                    columns=shown,
                    tol=SUM_TOLERANCE,
                    count=k,
                    rows=ctx.rows(off, ["sum " + _num(s) for s in sums[off][:_SHOW]]),
                    values=_plural(k, "row", "rows"),
                ),
                fix=FIX_RENORMALISE,
                column=columns[0],
            )
        zero = sums <= 0
        if zero.any():
            kz = int(zero.sum())
            raise DataError(
                MSG_CLASS_SUM_ZERO.format(
                    name=name,
                    columns=shown,
                    count=kz,
                    rows=ctx.rows(zero),
                    values=_plural(kz, "row", "rows"),
                ),
                column=columns[0],
            )
        gap = float(np.max(np.abs(sums[off] - 1.0)))
        block[off] /= sums[off, None]
        ctx.notes.append(
            NOTE_RENORMALISED.format(
                name=name,
                count=k,
                values=_plural(k, "row", "rows"),
                gap=gap,
                were=_plural(k, "was", "were"),
            )
        )
    return block, names


def _class_labels(
    ctx: _Ctx, column: str, codes: np.ndarray, labels: list[str], names: tuple[str, ...]
) -> tuple[np.ndarray, tuple[str, ...]]:
    if not names:
        floats = [_to_float(n) for n in labels]
        if all(math.isfinite(f) for f in floats):
            names = tuple(n for _, n in sorted(zip(floats, labels, strict=True)))
        else:
            names = tuple(sorted(labels))
    index = {n: i for i, n in enumerate(names)}
    lut = np.full(len(labels) + 1, -1, dtype=np.int64)
    for i, lab in enumerate(labels):
        hit = _match_value(lab, list(names))
        lut[i] = index[hit] if hit is not None else -1
    y = lut[np.where(codes >= 0, codes, len(labels))]
    bad = y < 0
    if bad.any():
        k = int(bad.sum())
        classes = _join([_q(n) for n in names[:10]]) + (" …" if len(names) > 10 else "")
        raise DataError(
            MSG_CLASS_UNKNOWN.format(
                name=ctx.name,
                column=column,
                count=k,
                classes=classes,
                rows=ctx.rows(bad, ctx.texts(column, bad)),
                **_vals(k),
            ),
            column=column,
        )
    return y.astype(np.int64), names


# ---------------------------------------------------------------------------------------
# safe_csv
# ---------------------------------------------------------------------------------------

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _neutralise(value: object) -> object:
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        if _NUMBER_RE.match(value) and not value.startswith(("\t", "\r")):
            return value  # a plain number such as "-3.5" is not a formula
        return "'" + value
    return value


def safe_csv(df: pd.DataFrame) -> bytes:
    """UTF-8 CSV bytes for a download, with spreadsheet formulas neutralised.

    Text cells (and column names) starting with = + - @ tab or CR get a leading
    apostrophe, so a spreadsheet shows them as text instead of running them; numeric
    columns are written unchanged (a negative number stays a number). A non-default index
    is written as ordinary columns.
    """
    out = df
    if not isinstance(out.index, pd.RangeIndex):
        out = out.reset_index()
    out = out.copy()
    for i in range(out.shape[1]):
        s = out.iloc[:, i]
        if pd.api.types.is_numeric_dtype(s.dtype) and not isinstance(s.dtype, pd.CategoricalDtype):
            continue
        if s.dtype.kind in "mM":
            continue
        out.isetitem(i, s.astype(object).map(_neutralise))
    out.columns = [_neutralise(str(c)) for c in out.columns]
    return out.to_csv(index=False, lineterminator="\n").encode("utf-8")
