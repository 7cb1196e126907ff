"""Good and bad upload files, made in code (no binary fixtures in the repository).

Each builder returns the bytes a user might drag into the Data page. Shared by
tests/loading/test_loading.py and usable by page tests (AppTest `file_uploader(...).upload`).
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterable, Sequence

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def csv_bytes(
    header: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    sep: str = ",",
    encoding: str = "utf-8",
    newline: str = "\n",
) -> bytes:
    """A delimited text file; cells are written with str() and no quoting."""
    lines = [sep.join(header)]
    lines += [sep.join("" if v is None else str(v) for v in row) for row in rows]
    return (newline.join(lines) + newline).encode(encoding)


def text(s: str, encoding: str = "utf-8") -> bytes:
    """A file from a literal string (dedented by the caller if needed)."""
    return s.encode(encoding)


def png_bytes() -> bytes:
    """The start of a real 1x1 PNG image (signature, IHDR chunk, some IDAT bytes)."""
    return (
        PNG_MAGIC
        + b"\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4"
        + b"\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00"
        + b"\x00IEND\xaeB`\x82"
    )


def garbage_bytes(n: int = 4096, seed: int = 7) -> bytes:
    """Random binary content (contains NUL bytes)."""
    rng = random.Random(seed)
    return bytes(rng.randrange(256) for _ in range(n)) + b"\x00"


def zip_bytes() -> bytes:
    """A small ZIP archive (what an .xlsx workbook is)."""
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("xl/workbook.xml", "<workbook/>")
    return buf.getvalue()


def parquet_bytes(columns: dict[str, object]) -> bytes:
    """A Parquet file from {name: pyarrow array or list}, written with pyarrow."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(columns)
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


def many_groups_csv(k: int = 300, rows_per_group: Sequence[int] | None = None) -> bytes:
    """label,score,group with `k` distinct groups; group g{i} has rows_per_group[i] rows."""
    sizes = list(rows_per_group) if rows_per_group is not None else [1 + (k - i) // 10 for i in range(k)]
    rows = []
    n = 0
    for i, size in enumerate(sizes):
        for _ in range(size):
            rows.append((n % 2, round((n % 10) / 10, 1), f"g{i:03d}"))
            n += 1
    return csv_bytes(["label", "score", "group"], rows)


def big_csv(n_rows: int, block: int = 1000, seed: int = 0) -> bytes:
    """label,score,group with `n_rows` rows, made by repeating a random block (fast)."""
    rng = random.Random(seed)
    lines = [f"{int(rng.random() < 0.3)},{rng.random()!r},{'AB'[i % 2]}\n" for i in range(block)]
    body = "".join(lines).encode()
    reps, rest = divmod(n_rows, block)
    return b"label,score,group\n" + body * reps + "".join(lines[:rest]).encode()
