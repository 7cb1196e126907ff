"""What a source is, and the local files it reads.

A source is a Parquet or CSV path or glob (or a list of them), a query string, a table in
memory or a ``pyspark.sql.DataFrame``. This module tells a query from a path (`is_query`),
gives a path source's paths (`source_paths`) and checks them (`check_paths`), puts a source in
words (`describe_source`) and lists the local files a path source reads (`local_files`,
`files_of`, for provenance and snapshots).
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Sequence

from costlib.core.errors import DataError
from costlib.scale.listing import glob_files

MSG_SOURCE_TYPE = (
    "source must be a Parquet or CSV path or glob, a list of paths, a query string, a pandas DataFrame, "
    "a pyarrow Table or (with engine='spark') a pyspark DataFrame: got {kind}"
)
MSG_NO_FILE = 'The source "{path}" does not exist (no file matches it).'
MSG_FILE_KIND = (
    'The source "{path}" is neither a Parquet file (.parquet, .pq) nor a CSV file (.csv, .tsv, .txt, '
    "optionally compressed): name the format by its extension, or pass a query that reads it."
)

_QUERY_START = re.compile(r"^\s*(\(|select\b|with\b|from\b|values\b|table\b|pivot\b|unpivot\b|summarize\b)", re.I)
_LEADING_COMMENTS = re.compile(r"^(\s*(--[^\n]*(\n|$)|/\*.*?\*/))*", re.S)  # SQL comments before the query
_PARQUET = (".parquet", ".pq", ".parq")
_CSV = (".csv", ".tsv", ".txt")
_COMPRESSED = (".gz", ".zst", ".bz2", ".xz")


def file_kind(path: str) -> str:
    """``"parquet"`` or ``"csv"``, from the path's extension (a compression ending is looked past); DataError else."""
    name = path.lower()
    for ext in _COMPRESSED:
        if name.endswith(ext):
            name = name[: -len(ext)]
    if name.endswith(_PARQUET):
        return "parquet"
    if name.endswith(_CSV):
        return "csv"
    raise DataError(MSG_FILE_KIND.format(path=path))


def is_query(source) -> bool:
    """Whether `source` is read as a query (text that starts as SQL does), not as a path."""
    if not isinstance(source, str) or os.path.exists(source):  # a file named "table.csv" is a file
        return False
    return bool(_QUERY_START.match(_LEADING_COMMENTS.sub("", source)))


def source_paths(source) -> list[str] | None:
    """The paths of a path-like source (None when the source is a query or an object)."""
    if isinstance(source, os.PathLike):
        return [os.fspath(source)]
    if isinstance(source, str):
        return None if is_query(source) else [source]
    if isinstance(source, Sequence) and source and all(isinstance(p, str | os.PathLike) for p in source):
        return [os.fspath(p) for p in source]
    return None


def check_paths(paths: list[str]) -> str:
    """Every path must match a file (remote URLs are left to the engine); returns the common kind."""
    kinds = {file_kind(p) for p in paths}
    if len(kinds) > 1:
        raise DataError("The source mixes Parquet and CSV files; give files of one format.")
    for p in paths:
        if "://" in p:
            continue
        if not glob.glob(p) if glob.has_magic(p) else not os.path.isfile(p):
            raise DataError(MSG_NO_FILE.format(path=p))
    return kinds.pop()


def describe_source(source) -> str:
    """Words for the source, for sentences and provenance."""
    paths = source_paths(source)
    if paths is not None:
        return ", ".join(f'"{p}"' for p in paths)
    if isinstance(source, str):
        return "the query"
    return f"the {type(source).__name__}"


def local_files(source) -> list[str]:
    """Every local file a path source reads: the path itself, or the files of a glob as DuckDB
    matches them (hidden files included), sorted; none for a query, a table in memory or a URL."""
    out = []
    for p in source_paths(source) or []:
        if "://" in p:
            continue
        out.extend(sorted(f for f in glob_files(p) if os.path.isfile(f)) if glob.has_magic(p) else [p])
    return out


def files_of(source) -> list[dict]:
    """Name, size and modification time of every local file a path source reads (provenance)."""
    out = []
    for f in local_files(source):
        st = os.stat(f)
        out.append({"path": os.path.abspath(f), "bytes": st.st_size, "modified": int(st.st_mtime)})
    return out
