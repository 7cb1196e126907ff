"""The files a command writes: never over its own input, never one over another, never half.

`check_outputs` runs before any work: an output that is an input (the same path, a match of an
input pattern, the same file through a link or a hard link, or a file an input query names, as
the engine that runs it reads it), or another output of the same run, or a path with no folder,
is refused with a sentence.
`write_atomic` writes to a temporary file in the output's own folder and renames it into place,
so a run that fails (a full disk, a kill) leaves the old file or none, never half a new one; an
output path that is a link is replaced as a file, its target left alone. It says whether a file
was replaced, so the command can say so.
"""

from __future__ import annotations

import glob
import os
import stat
import tempfile
from collections.abc import Callable, Iterable, Mapping

from costlib.core.errors import DataError

MSG_OUTPUT_IS_INPUT = '{flag} "{path}" is the input file {what}: writing it would destroy the data; choose another.'
MSG_SAME_OUTPUT = '{a} and {b} name the same file "{path}": one would overwrite the other; give each its own path.'
MSG_CANNOT_WRITE = '{flag}: The output file "{path}" cannot be written: {reason}.'
MSG_NAMED_BY_QUERY = (
    '{flag} "{path}" is a file the query that reads the rows reads: writing it would destroy the data; choose another.'
)
IN_PLACE = ("/dev/", "/proc/")  # devices and process files: written where they are, never renamed over


def _same(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


def _input_files(inputs: Iterable[str], engine: str = "duckdb") -> dict[str, str]:
    """{resolved path: as given} of the input files: the path as given, what it matches as a
    pattern (DuckDB's own glob: ``**`` and hidden files too), and the files a query source
    reads (`query_files.query_files`, read by `engine`'s own gate and parser)."""
    from costlib.scale.listing import glob_files
    from costlib.scale.query_files import query_files
    from costlib.scale.sources import is_query

    out = {}
    for given in inputs:
        if not isinstance(given, (str, os.PathLike)):
            continue
        text = os.fspath(given)
        if is_query(text):
            out.update((_same(f), f) for f in query_files(text, engine=engine))
            continue
        for f in [text, *(glob_files(text) if glob.has_magic(text) else [])]:
            out[_same(f)] = f
    return out


def check_outputs(inputs: Iterable[str], outputs: Mapping[str, str | None], *, engine: str | None = None) -> None:
    """DataError when an output (``{flag: path}``; None: not written) is an input file (the same
    path, a match of its pattern, the same file through a link or a hard link), is named in an
    input that is a query, is the same file as another output, or is in no folder that exists.

    `engine` is the engine that will read a query input ("duckdb" or "spark"; None: DuckDB,
    which reads a query the command loads into memory): its own gate reads the query first
    (Spark SQL with "spark"), and its files are found as that engine reads them. On Spark the
    guard's session stays active, and the engine runs the query on it (one start)."""
    from costlib.scale.sources import is_query  # the engines' own test of a query source

    inputs = list(inputs)
    queried = _input_files((q for q in inputs if is_query(q)), engine or "duckdb")  # each query is read once
    given = {**_input_files(q for q in inputs if not is_query(q)), **queried}
    seen: dict[str, str] = {}
    for flag, path in outputs.items():
        if path is None:
            continue
        if not str(path).strip():
            raise DataError(MSG_CANNOT_WRITE.format(flag=flag, path=path, reason="the path is empty"))
        if os.path.exists(path) and stat.S_ISFIFO(os.stat(path).st_mode) and not _same(path).startswith(IN_PLACE):
            raise DataError(
                MSG_CANNOT_WRITE.format(flag=flag, path=path, reason="it is a pipe, which would wait for a reader")
            )
        real = _same(path)
        if real in queried:
            raise DataError(MSG_NAMED_BY_QUERY.format(flag=flag, path=path))
        hard = next((g for g in given.values() if os.path.exists(path) and _samefile(path, g)), None)
        if real in given or hard is not None:
            source = given.get(real) or hard
            what = f'"{source}"' if os.path.abspath(source) == os.path.abspath(path) else f'"{source}" (the same file)'
            raise DataError(MSG_OUTPUT_IS_INPUT.format(flag=flag, path=path, what=what))
        if real in seen:
            raise DataError(MSG_SAME_OUTPUT.format(a=seen[real], b=flag, path=path))
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path) or not os.path.isdir(folder):
            reason = "it is a folder" if os.path.isdir(path) else f'the folder "{folder}" does not exist'
            raise DataError(MSG_CANNOT_WRITE.format(flag=flag, path=path, reason=reason))
        seen[real] = flag


def _samefile(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def write_atomic(path: str, flag: str, write: Callable[[str], None]) -> bool:
    """Write `path` by ``write(temporary path)`` and rename it into place; True when an existing
    file was replaced. DataError (the old file untouched) when it cannot be written. A path that
    exists and is not a regular file (a device such as /dev/stdout, a pipe) is written where it
    is: renaming over it would replace the device itself."""
    where = os.path.abspath(path)
    if (os.path.exists(path) and not os.path.isfile(path)) or where.startswith(IN_PLACE):
        try:
            write(path)
        except OSError as exc:
            raise DataError(MSG_CANNOT_WRITE.format(flag=flag, path=path, reason=exc.strerror or exc)) from None
        return False
    folder = os.path.dirname(os.path.abspath(path))
    replaced = os.path.lexists(path)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".costlib-", suffix=".tmp", dir=folder)
        os.close(fd)
        write(tmp)
        os.chmod(tmp, _mode(path))  # as the file it replaces, else as open() would make it (not mkstemp's 0600)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise DataError(MSG_CANNOT_WRITE.format(flag=flag, path=path, reason=exc.strerror or exc)) from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
    return replaced


def _mode(path: str) -> int:
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_text(path: str, flag: str, text: str) -> bool:
    """`write_atomic` of a text file in UTF-8."""

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)

    return write_atomic(path, flag, write)


def written(what: str, path: str, replaced: bool) -> str:
    """The sentence a command prints after writing `path`."""
    return f"{what} written to {path}" + (" (it replaced the file that was there)." if replaced else ".")
