"""What DuckDB may reach, and its refusals in words: no extension, no file a source does not name.

The one low piece the SQL gate (:mod:`costlib.scale.sql_gate`), the file lookups
(:mod:`costlib.scale.listing`, :mod:`costlib.scale.query_files`) and the engines
(:mod:`costlib.scale.engines`) share: the connection settings that turn extensions off
(`NO_EXTENSIONS`), the lock to the named files (`limit_access`), the sentence for a file the
lock refused (`refused_sentence`) and an engine's error as one line (`first_line`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

MSG_NOT_NAMED = (
    'DuckDB was asked to read "{path}", which the source does not name: a source reads only the files named in it '
    "(a path, or a pattern of them, in quotes), so that what it reads is known before it runs; name that file there."
)
MSG_NOT_LOCAL = (
    'The source reads "{path}", which is not a local file: costlib reads local files only, and DuckDB never installs '
    "or loads an extension (httpfs, sqlite) on its own."
)


#: DuckDB never installs or loads an extension on its own: a query naming an http:// or s3://
#: file, or a SQLite database, gets a sentence instead of a download
NO_EXTENSIONS = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}


def limit_access(con, paths: Sequence[str]) -> None:
    """Lock DuckDB connection `con` to reading `paths` (exactly those: a pattern as written and
    each of its matches): ``allowed_paths``, then ``enable_external_access = false``, then
    ``lock_configuration = true``, so that no statement can set any of it back. DuckDB refuses
    any other file, a URL, a directory's listing, ``ATTACH`` and ``INSTALL`` alike; its own
    spill files in ``temp_directory`` are not checked, so a scan still spills."""
    if paths:
        con.execute("SET allowed_paths = [" + ", ".join("'" + p.replace("'", "''") + "'" for p in paths) + "]")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


_REFUSED = re.compile(r'Permission Error: Cannot access (?:file|directory) "(.*)" - ')


def refused_sentence(exc: BaseException) -> str | None:
    """Our sentence for DuckDB refusing a file `limit_access` left out (a URL, or a file the
    source does not name); None for any other error."""
    found = _REFUSED.search(str(exc))
    if found is None:
        return None
    path = found.group(1)
    return (MSG_NOT_LOCAL if "://" in path else MSG_NOT_NAMED).format(path=path)


def first_line(exc: BaseException) -> str:
    """The first line of an engine's error, ending with a full stop (its class name when it has no text)."""
    text = str(exc).strip().splitlines()
    line = text[0] if text else type(exc).__name__
    return line if line.endswith(".") else line + "."
