"""What the bytes are before pandas sees them: binary or text, which encoding, which separator.

A sample from the start of the file is examined: at least `SAMPLE_BYTES`, and always the
whole first line (the header) plus a few lines under it, however wide the table, so a long
header is never cut in the middle of a name.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from dataclasses import dataclass

from costlib.core.errors import DataError
from costlib.loading.cells import DECIMAL_COMMA_RE, DECIMAL_POINT_RE
from costlib.loading.messages import MSG_HEADER_TOO_LONG, MSG_PARSE_FIELDS, q, size

SAMPLE_BYTES = 1 << 16
SAMPLE_LINES = 6  # the header and five lines under it, even when they are longer than SAMPLE_BYTES
MAX_HEADER_BYTES = 32 << 20  # a first line longer than this is refused
SEPARATORS = (",", ";", "\t", "|")
SEP_NAMES = {",": "commas", ";": "semicolons", "\t": "tabs", "|": '"|"'}
_DECIMAL_CELLS = 20_000  # cells looked at to tell a decimal comma

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

Rows = list[tuple[int, list[str]]]  # (line number in the file, fields) of the sample's rows


@dataclass(frozen=True)
class Sample:
    """The start of a text file and what was learnt from it."""

    text: str  # whole lines only, unless the file is shorter than the sample
    truncated: bool  # the file goes on after `text`
    sep: str
    rows: Rows  # the sample's rows read with `sep` (the last one dropped when truncated)

    @property
    def header(self) -> list[str] | None:
        return [h.strip() for h in self.rows[0][1]] if self.rows else None

    @property
    def bytes_per_line(self) -> float:
        lines = max(1, self.text.count("\n"))
        return max(1.0, len(self.text) / lines)


def extension(filename: str) -> str:
    base = filename.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return "." + base.rsplit(".", 1)[-1] if "." in base else ""


def is_blank(data: bytes) -> bool:
    for bom in (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        if data.startswith(bom):
            data = data[len(bom) :]
            if bom != codecs.BOM_UTF8:
                return not data.replace(b"\x00", b"").strip()
            break
    if data[:4096].strip():
        return False
    return not data.strip()


def utf16_kind(data: bytes) -> str | None:
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    head = data[:4096]
    if len(head) >= 4:
        even, odd = head[0::2], head[1::2]
        if odd.count(0) == len(odd) and even.count(0) == 0:
            return "utf-16-le"
        if even.count(0) == len(even) and odd.count(0) == 0:
            return "utf-16-be"
    return None


def binary_kind(data: bytes) -> str | None:
    """A phrase saying what the bytes are when they are clearly not text, else None."""
    for magic, what in _MAGIC:
        if data.startswith(magic):
            return what
    if utf16_kind(data) is not None:
        return None
    head = data[:SAMPLE_BYTES]
    if b"\x00" in head:
        return "it holds binary data (NUL bytes), not text"
    control = sum(head.count(bytes([b])) for b in range(32) if b not in (9, 10, 12, 13))
    if control > max(8, len(head) // 20):
        return "it holds binary data (control characters), not text"
    return None


def choose_encoding(data: bytes) -> tuple[str, str | None]:
    """(encoding for pandas, a label for the note or None)."""
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


def sample_end(text: str | bytes, name: str) -> int:
    """Where the sample of `text` ends: at least SAMPLE_BYTES, and SAMPLE_LINES whole lines."""
    newline = "\n" if isinstance(text, str) else b"\n"
    end = 0
    for _ in range(SAMPLE_LINES):
        nl = text.find(newline, end, MAX_HEADER_BYTES + 1)  # type: ignore[arg-type]
        if nl < 0:
            if end == 0 and len(text) > MAX_HEADER_BYTES:
                raise DataError(MSG_HEADER_TOO_LONG.format(name=name, limit=size(MAX_HEADER_BYTES)))
            break
        end = nl + 1
    return max(end, min(len(text), SAMPLE_BYTES))


def take_sample(text: str, truncated: bool, ext: str) -> Sample:
    """Cut `text` (the start of the file) to whole lines and sniff its separator."""
    if truncated:
        cut = text.rfind("\n")
        text = text[: cut + 1] if cut > 0 else text
    sep, rows = _sniff(text, ext, truncated)
    return Sample(text=text, truncated=truncated, sep=sep, rows=rows)


def _csv_rows(sample: str, sep: str) -> Rows:
    """(line number, fields) of the non-blank rows of `sample` read with `sep`."""
    reader = csv.reader(io.StringIO(sample, newline=""), delimiter=sep)
    rows = []
    for fields in reader:
        if not fields or (len(fields) == 1 and fields[0] == ""):
            continue
        rows.append((reader.line_num, fields))
    return rows


def _sniff(sample: str, ext: str, truncated: bool) -> tuple[str, Rows]:
    """Pick the separator whose field counts are most consistent with the header."""
    order = list(SEPARATORS)
    if ext in (".tsv", ".tab"):
        order.remove("\t")
        order.insert(0, "\t")
    best: tuple[float, int, int] | None = None
    best_sep, best_rows = ",", []
    for rank, sep in enumerate(order):
        if sep not in sample:
            continue
        rows = _rows_or_none(sample, sep, truncated)
        if not rows or len(rows[0][1]) < 2:
            continue
        width = len(rows[0][1])
        body = rows[1:] or rows
        share = sum(len(f) == width or trailing_empty(f, width) for _, f in body) / len(body)
        key = (share, width if share == 1.0 else 0, -rank)
        if best is None or key > best:
            best, best_sep, best_rows = key, sep, rows
    if best is None:
        best_rows = _rows_or_none(sample, ",", truncated) or []
    return best_sep, best_rows


def _rows_or_none(sample: str, sep: str, truncated: bool) -> Rows | None:
    try:
        rows = _csv_rows(sample, sep)
    except csv.Error:
        return None
    if truncated and len(rows) > 2:
        rows = rows[:-1]
    return rows


def trailing_empty(fields: list[str], width: int) -> bool:
    return len(fields) > width and not any(f.strip() for f in fields[width:])


def check_lines(sample: Sample, name: str) -> None:
    """DataError for the first sampled line with more fields than the header (not blank extras)."""
    if not sample.rows:
        return
    width = len(sample.rows[0][1])
    if width < 2:
        return
    for line, fields in sample.rows[1:]:
        if len(fields) > width and not trailing_empty(fields, width):
            raise DataError(
                MSG_PARSE_FIELDS.format(name=name, line=line, saw=len(fields), expected=width, sep=q(sample.sep))
            )


def decimal_comma(sample: Sample) -> bool:
    """True when the sample's numbers are written "0,25" (and none "0.25"), with a non-comma separator."""
    if sample.sep == ",":
        return False
    comma = point = seen = 0
    for _, fields in sample.rows[1:]:
        for cell in fields:
            if DECIMAL_COMMA_RE.match(cell):
                comma += 1
            elif DECIMAL_POINT_RE.match(cell):
                point += 1
        seen += len(fields)
        if seen > _DECIMAL_CELLS:
            break
    return comma > 0 and point == 0


def one_column_reason(header: str) -> str | None:
    """Why a single-column header looks like several columns run together, if it does."""
    text = header.strip()
    if re.search(r"\S\s+\S", text):
        return "its header looks like several names separated by spaces"
    for ch in ":~^#!/\\":
        if ch in text:
            return f"its header looks like several names separated by {q(ch)}"
    return None
