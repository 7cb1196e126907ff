"""The files a command writes: never over its own input, never one over another, never half.

`check_outputs` runs before any work: an output that is an input (the same file once links are
resolved) or another output of the same run is refused with a sentence naming both flags.
`write_atomic` writes to a temporary file in the output's own folder and renames it into place,
so a run that fails (a full disk, a kill) leaves the old file or none, never half a new one; an
output path that is a link is replaced as a file, its target left alone. It says whether a file
was replaced, so the command can say so.
"""

from __future__ import annotations

import glob
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping

from costlib.core.errors import DataError

MSG_OUTPUT_IS_INPUT = '{flag} "{path}" is the input file {what}: writing it would destroy the data; choose another.'
MSG_SAME_OUTPUT = '{a} and {b} name the same file "{path}": one would overwrite the other; give each its own path.'
MSG_CANNOT_WRITE = '{flag}: The output file "{path}" cannot be written: {reason}.'


def _same(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


def _input_files(inputs: Iterable[str]) -> dict[str, str]:
    """{resolved path: as given} of the input files (a glob is expanded)."""
    out = {}
    for given in inputs:
        if not isinstance(given, (str, os.PathLike)):
            continue
        text = os.fspath(given)
        for f in glob.glob(text) if glob.has_magic(text) else [text]:
            out[_same(f)] = f
    return out


def check_outputs(inputs: Iterable[str], outputs: Mapping[str, str | None]) -> None:
    """DataError when an output (``{flag: path}``; None: not written) is an input file or the
    same file as another output."""
    given = _input_files(inputs)
    seen: dict[str, str] = {}
    for flag, path in outputs.items():
        if not path:
            continue
        real = _same(path)
        if real in given:
            what = f'"{given[real]}"' if given[real] == path else f'"{given[real]}" (through a link)'
            raise DataError(MSG_OUTPUT_IS_INPUT.format(flag=flag, path=path, what=what))
        if real in seen:
            raise DataError(MSG_SAME_OUTPUT.format(a=seen[real], b=flag, path=path))
        seen[real] = flag


def write_atomic(path: str, flag: str, write: Callable[[str], None]) -> bool:
    """Write `path` by ``write(temporary path)`` and rename it into place; True when an existing
    file was replaced. DataError (the old file untouched) when it cannot be written. A path that
    exists and is not a regular file (a device such as /dev/stdout, a pipe) is written where it
    is: renaming over it would replace the device itself."""
    if os.path.exists(path) and not os.path.isfile(path):
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
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise DataError(MSG_CANNOT_WRITE.format(flag=flag, path=path, reason=exc.strerror or exc)) from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
    return replaced


def write_text(path: str, flag: str, text: str) -> bool:
    """`write_atomic` of a text file in UTF-8."""

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)

    return write_atomic(path, flag, write)


def written(what: str, path: str, replaced: bool) -> str:
    """The sentence a command prints after writing `path`."""
    return f"{what} written to {path}" + (" (it replaced the file that was there)." if replaced else ".")
