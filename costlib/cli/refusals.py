"""How the command line words a refusal: the sentence, after the flag it is about.

A `DataError` names the column it is about (`DataError.column`). On the command line that
column came from a flag, so the sentence is printed after that flag, the way argparse prints
its own errors after the argument: ``--group: In "f.csv", column "id" has 6172 distinct
groups ...``. A sentence that asks for a setting the user did not give names that setting's
flag itself (`costlib.loading.prepare` is given the flags): ``choose which one means positive
(--positive VALUE)``. The audit sends a file too big for memory to ``--engine duckdb``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from costlib.core.errors import DataError

MSG_BIG_DATA = (
    "Files this big belong to the big-data path: add --engine duckdb to read them where they are "
    "instead of into memory."
)
MSG_OUT_OF_MEMORY = (
    "costlib ran out of memory: the input is too large for this machine; add --engine duckdb to read it "
    "where it lies (see the big-data path in the README)."
)


def column_flags(pairs: Iterable[tuple[str, object]]) -> dict[str, str]:
    """{column: flag} from (flag, column) pairs, where a column may also be a list of columns
    or None (the flag was not given); a column given to two flags names both ("--group/--split").

    >>> column_flags([("--label", "y"), ("--score", ["p", "q"]), ("--group", None), ("--split", "y")])
    {'y': '--label/--split', 'p': '--score', 'q': '--score'}
    """
    out: dict[str, list[str]] = {}
    for flag, columns in pairs:
        if columns is None:
            continue
        for column in [columns] if isinstance(columns, str) else columns:
            if flag not in out.setdefault(str(column), []):
                out[str(column)].append(flag)
    return {column: "/".join(flags) for column, flags in out.items()}


def refusal(exc: DataError, columns: Mapping[str, str], *, big_data: str | None = None) -> str:
    """The sentence to print for `exc`: after the flag that named its column (`columns`, from
    `column_flags`); `big_data` (the audit: `MSG_BIG_DATA`) replaces the loader's sentence
    that sends a file too big for memory to the big-data path."""
    message = exc.message
    if big_data:
        from costlib.loading import BIG_DATA_PATH

        message = message.replace(BIG_DATA_PATH, big_data)
    flag = columns.get(str(exc.column)) if exc.column is not None else None
    return f"{flag}: {message}" if flag else message
