"""Several group columns read as one: each row's intersection group (race × sex, age band × sex).

One rule builds the name of an intersection group from its values, `intersection_key`; every
path that reads several group columns (the audit, through `prepare`; `costlib apply` and watch,
through `key_column`) reads each column's cells as a single group column is read
(`cells.group_codes`: "NA" is a name, blank cells form the group "(missing)") and joins them
with it, so a policy fitted on an intersection decides the rows of the file it was fitted on.
The key is plain text: a hostile value stays text (pages, reports and charts escape it where
they draw it); two different rows of values that would give the same key are refused.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costlib.core.errors import DataError
from costlib.core.escaping import shorten
from costlib.loading.cells import group_codes

SEPARATOR = " × "
"""What joins the values of an intersection group's name ("African-American × Male")."""

MSG_KEY_CLASH = (
    'In "{name}", the group columns {columns} give the same intersection name "{key}" to two different '
    "rows of values ({first} and {second}), because a value holds “ × ”; rename the values in one column."
)


def intersection_key(values: Sequence) -> str:
    """The name of the intersection group of `values` (one per group column, in the columns' order).

    Examples
    --------
    >>> intersection_key(["African-American", "Male"])
    'African-American × Male'
    >>> intersection_key(["<b>x</b>", "(missing)"])
    '<b>x</b> × (missing)'
    """
    return SEPARATOR.join(str(v) for v in values)


def combine(
    coded: Sequence[tuple[np.ndarray, Sequence[str]]], *, name: str = "", columns: Sequence[str] = ()
) -> tuple[np.ndarray, list[str], list[tuple[str, ...]]]:
    """(codes, names, parts): the intersection groups of several coded group columns.

    Parameters
    ----------
    coded : sequence of (codes, names)
        Each group column as `cells.group_codes` reads it (codes index into names, no -1).
    name, columns : the file's and the columns' names, for the sentence of a clash

    Returns
    -------
    codes : int64 array, each row's intersection group (index into names)
    names : list of str, the intersection groups (`intersection_key`), in order of first appearance
    parts : list of tuple, each intersection group's value in each column

    Raises
    ------
    DataError
        Two different rows of values give the same name (`MSG_KEY_CLASH`).

    Examples
    --------
    >>> codes, names, parts = combine([(np.array([0, 1, 0]), ["a", "b"]), (np.array([0, 0, 1]), ["x", "y"])])
    >>> codes.tolist(), names, parts
    ([0, 1, 2], ['a × x', 'b × x', 'a × y'], [('a', 'x'), ('b', 'x'), ('a', 'y')])
    """
    stacked = np.stack([np.asarray(c, dtype=np.int64) for c, _ in coded], axis=1)
    if len(stacked) == 0:
        return np.zeros(0, dtype=np.int64), [], []
    combos, first, inverse = np.unique(stacked, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # first appearance, as a single column's groups
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    parts = [tuple(str(coded[j][1][k]) for j, k in enumerate(combos[i])) for i in order]
    names = [intersection_key(p) for p in parts]
    seen: dict[str, tuple[str, ...]] = {}
    for key, p in zip(names, parts, strict=True):
        if key in seen:
            shown = ", ".join(f'"{shorten(c)}"' for c in columns)
            raise DataError(
                MSG_KEY_CLASH.format(
                    name=name,
                    columns=shown,
                    key=shorten(key),
                    first=" / ".join(f'"{shorten(v)}"' for v in seen[key]),
                    second=" / ".join(f'"{shorten(v)}"' for v in p),
                )
            )
        seen[key] = p
    return rank[np.asarray(inverse).reshape(-1)], names, parts


def key_column(df: pd.DataFrame, name: str, columns: Sequence[str]) -> np.ndarray:
    """Each row's intersection group of `columns` in `df`, as text: the key `costlib apply` and
    watch build to look up a policy fitted on several group columns (the policy's ``"group"``
    lists them), read as the audit reads them (`cells.group_codes` per column, `combine`).

    Examples
    --------
    >>> df = pd.DataFrame({"race": ["A", None, "A"], "sex": ["M", "F", "F"]})
    >>> key_column(df, "f.csv", ["race", "sex"]).tolist()
    ['A × M', '(missing) × F', 'A × F']
    """
    coded = [group_codes(df[c])[:2] for c in columns]
    codes, names, _ = combine(coded, name=name, columns=columns)
    return np.asarray(names, dtype=object)[codes]


def intersection_groups(t, columns: Sequence[str], top_groups: int | None) -> tuple[np.ndarray, dict]:
    """(groups, parts) of several group columns of the table `t` being prepared (`roles.Table`).

    Each column is read as a single group column is (`roles.groups`: its blank cells form the
    group "(missing)" in that column, with the same note); the intersections then go through
    the single column's rules under the name "race × sex": more than `settings.MAX_GROUPS` is
    refused with the offer to keep the largest, `top_groups` keeps that many and pools the rest
    as "Other", and groups of one row are noted.

    Returns
    -------
    groups : object array, each row's intersection group (`intersection_key`)
    parts : dict, {intersection group: its value in each column}; the pooled rest ("Other")
        takes, per column, the value its members share, else its own name
    """
    from costlib.loading import roles

    coded = [roles.missing_group(t, c) for c in columns]
    codes, names, parts = combine(coded, name=t.name, columns=columns)
    label = intersection_key(columns)
    by_name = dict(zip(names, parts, strict=True))
    pooled = top_groups is not None and len(names) > max(1, int(top_groups))
    if top_groups is not None:
        codes, kept = roles.keep_top_groups(t, label, codes, names, max(1, int(top_groups)))
    elif len(names) > roles.MAX_GROUPS:
        raise roles.too_many_groups_refusal(t, label, codes, names)
    else:
        kept = names
    roles.note_one_row_groups(t, label, codes, kept)
    out = {g: by_name[g] for g in (kept[:-1] if pooled else kept)}
    if pooled:
        other = kept[-1]
        rest = [p for g, p in by_name.items() if g not in out]
        out[other] = tuple(col[0] if len(set(col)) == 1 else other for col in zip(*rest, strict=True))
    return np.asarray(kept, dtype=object)[codes], out


def group_series(df: pd.DataFrame, name: str, columns) -> pd.Series | None:
    """Each case's group, as the serving side (`costlib apply`, watch) hands it to a policy: one
    group column read as the audit reads it (`frames.group_column`), named by it; several, their
    intersection (`key_column`), named by `intersection_key` of the columns, which is the name the
    policy's ``data.group`` records; None without a group column. DataError for a column `df`
    lacks (`frames.require_columns`).

    Parameters
    ----------
    df : DataFrame
        The cases.
    name : str
        The file's name, for the sentences.
    columns : str, sequence of str or None
        The group column, or the group columns (a policy's ``data.group_columns``).

    Examples
    --------
    >>> df = pd.DataFrame({"race": ["A", "B"], "sex": ["M", "F"]})
    >>> s = group_series(df, "f.csv", ["race", "sex"])
    >>> s.name, s.tolist()
    ('race × sex', ['A × M', 'B × F'])
    >>> group_series(df, "f.csv", "race").name, group_series(df, "f.csv", None)
    ('race', None)
    """
    from costlib.loading.frames import group_column, require_columns

    columns = [columns] if isinstance(columns, str) else list(dict.fromkeys(columns or ()))
    if not columns:
        return None
    require_columns(df, name, columns)
    if len(columns) == 1:
        return pd.Series(group_column(df[columns[0]], name, columns[0]), name=columns[0])
    return pd.Series(key_column(df, name, columns), name=intersection_key(columns))
