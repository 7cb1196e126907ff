"""Column names that a header repeats (a join that brought one column twice, say).

Identical copies are kept once, with a note. Copies that differ are all kept, under names
that tell them apart ("score (column 40)"), with a note; the repeated name itself is then
ambiguous, and only mapping it to a role is refused (`ambiguous_error`), listing the choices.
"""

from __future__ import annotations

import pandas as pd

from costlib.core.errors import DataError
from costlib.core.escaping import shorten
from costlib.loading.messages import (
    MSG_AMBIGUOUS_COLUMN,
    NOTE_REPEATED_DIFFERENT,
    NOTE_REPEATED_SAME,
    join,
    positions_phrase,
    q,
)

AMBIGUOUS = "ambiguous"  # key in DataFrame.attrs: repeated name -> (1-based positions, the names kept)


def resolve_repeated(df: pd.DataFrame, names: list[str], name: str, notes: list[str]) -> pd.DataFrame:
    """`df` with the column names `names` (by position), every one of them unique.

    Notes go to `notes`; for a name kept under several new names, ``attrs["ambiguous"]``
    of the result maps it to (its 1-based positions, the new names).
    """
    positions: dict[str, list[int]] = {}
    for j, c in enumerate(names):
        positions.setdefault(c, []).append(j)
    repeated = {c: p for c, p in positions.items() if len(p) > 1}
    if not repeated:
        df.columns = names
        return df
    final, drop, ambiguous = list(names), set(), {}
    taken = set(names)
    for c, pos in repeated.items():
        classes = _identical_groups(df, pos)
        drop.update(p for group in classes for p in group[1:])
        shown = positions_phrase([p + 1 for p in pos])
        if len(classes) == 1:
            notes.append(NOTE_REPEATED_SAME.format(name=name, column=shorten(c), positions=shown))
            continue
        kept = []
        for group in classes:
            new = _fresh(f"{c} (column {group[0] + 1})", taken)
            taken.add(new)
            final[group[0]] = new
            kept.append(new)
        ambiguous[c] = (tuple(p + 1 for p in pos), tuple(kept))
        kept_text = join([q(k, limit=80) for k in kept])
        notes.append(NOTE_REPEATED_DIFFERENT.format(name=name, column=shorten(c), positions=shown, kept=kept_text))
    keep = [j for j in range(len(names)) if j not in drop]
    out = df.iloc[:, keep]
    out.columns = [final[j] for j in keep]
    if ambiguous:
        out.attrs[AMBIGUOUS] = ambiguous
    return out


def _identical_groups(df: pd.DataFrame, positions: list[int]) -> list[list[int]]:
    """`positions` grouped by identical content, in order of first position."""
    groups: list[list[int]] = []
    for p in positions:
        column = df.iloc[:, p]
        for group in groups:
            if column.equals(df.iloc[:, group[0]]):
                group.append(p)
                break
        else:
            groups.append([p])
    return groups


def _fresh(candidate: str, taken: set[str]) -> str:
    new, i = candidate, 2
    while new in taken:
        new = f"{candidate} ({i})"
        i += 1
    return new


def ambiguous_error(df: pd.DataFrame, column: str, name: str) -> DataError | None:
    """The DataError for mapping `column` when it is a repeated name of `df`, else None."""
    found = (df.attrs.get(AMBIGUOUS) or {}).get(column)
    if found is None:
        return None
    positions, kept = found
    return DataError(
        MSG_AMBIGUOUS_COLUMN.format(
            name=name,
            column=shorten(column),
            positions=positions_phrase(positions),
            choices=join([q(k, limit=80) for k in kept], last="or"),
        ),
        column=column,
    )
