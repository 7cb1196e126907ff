"""The rows of a source as costlib reads them: column roles, one view of normalised rows, checks.

:func:`open_scan` checks the column roles against the source's columns and their types, and
creates a view with the same five columns whatever the source: ``sp`` (the split as an integer
code, `SPLIT_CODE`), ``g`` (the group), ``y`` (the label), ``s`` (the score as a DOUBLE) and
``w`` (the weight, 1 without a weight column). Every pass of :mod:`costlib.scale.scans` reads
that view. :func:`checks_sql` counts, inside a pass, the rows the in-memory functions would
refuse, and :func:`validate` refuses them with a sentence naming the column. The (split, group)
pairs found in the rows are the `Units` of the searches, groups in `group_order`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costlib.core.errors import DataError
from costlib.core.escaping import shorten
from costlib.scale.engines import (
    KIND_BOOL,
    KIND_DECIMAL,
    KIND_FLOAT,
    KIND_INT,
    KIND_TEXT,
    MAX_DOUBLE,
    connect,
    sql_double,
    unique_name,
)
from costlib.scale.snapshot import consistent
from costlib.scale.sources import describe_source

if TYPE_CHECKING:
    import pyarrow as pa

TWO_53 = 9007199254740992.0  # 2**53: integer weights below it add up exactly in any order
SPLIT_CODE = {"": 0, "train": 1, "validation": 2, "test": 3}  # integer keys: cheaper to group and join
SPLIT_NAME = {c: s for s, c in SPLIT_CODE.items()}

MSG_ROLE_TYPE = "{role} must be a column name (a string): got {value!r}"
MSG_NO_COLUMN = '{role}="{column}": {source} has no column "{column}"; its columns are {columns}.'
MSG_COLUMN_KIND = '{role}="{column}": column "{column}" of {source} holds {kind}; {need}.'
MSG_SAME_COLUMN = '{a} and {b} name the same column "{column}"; each role needs its own column.'
MSG_BAD_LABEL = (
    'In {source}, column "{column}" (label) has {count} {rows} whose label is not 0/1 or true/false '
    "(found {found}); the label must be binary."
)
MSG_BAD_SCORE = (
    'In {source}, column "{column}" (score) has {count} {rows} whose score is missing, NaN or infinite; '
    "every score must be a finite number."
)
MSG_NEG_WEIGHT = 'In {source}, column "{column}" (weight) has {count} negative {values}; weights must be 0 or more.'
MSG_BAD_WEIGHT = (
    'In {source}, column "{column}" (weight) has {count} missing, NaN or infinite {values}; '
    "weights must be finite numbers."
)
MSG_NULL_GROUP = (
    'In {source}, column "{column}" (group) has {count} missing {values}; give those rows a group '
    '(for example "unknown") or leave them out in the query.'
)
MSG_BAD_SPLIT = (
    'In {source}, column "{column}" (split) has {count} {rows} whose value is not a split name (found {found}). '
    "Use train (or training, fit), validation (or val, valid, calib, calibration, dev) or test "
    "(or testing, holdout, eval)."
)


@dataclass(frozen=True)
class Roles:
    label: str
    score: str
    group: str | None = None
    weight: str | None = None
    split: str | None = None

    def items(self):
        return [(r, getattr(self, r)) for r in ("label", "score", "group", "weight", "split") if getattr(self, r)]


@dataclass
class Scan:
    """An open source: the engine, the view of normalised rows and words for sentences."""

    eng: object
    rows: str
    src: str
    roles: Roles
    source: str  # words for sentences
    group_kind: str | None

    @property
    def weighted(self) -> bool:
        return self.roles.weight is not None

    @property
    def keys(self) -> list[str]:
        """The key columns worth grouping by (a constant split or group is left out)."""
        return [k for k, role in (("sp", self.roles.split), ("g", self.roles.group)) if role]

    def with_keys(self, tab: pa.Table) -> pa.Table:
        """Add the constant key columns a query left out (sp = 0, g = 0)."""
        import pyarrow as pa

        for k in ("sp", "g"):
            if k not in tab.column_names:
                tab = tab.append_column(k, pa.array(np.zeros(tab.num_rows, dtype=np.int32)))
        return tab

    def group_name(self, g):
        """Group `g` as the answers show it: ``None`` without a group column (all rows are one group)."""
        return None if self.roles.group is None else g

    def close(self):
        for view in (self.rows, self.src):
            self.eng.drop(view)
        self.eng.close()


def _split_sql(expr: str) -> str:
    """SQL for the split code (`SPLIT_CODE`) of each row's split name, NULL for a name that is not one."""
    from costlib.loading import SPLIT_ALIASES  # the one list of split names (imported when a split is read)

    roles: dict[str, list[str]] = {}
    for alias, role in SPLIT_ALIASES.items():
        roles.setdefault(role, []).append(alias)
    text = f"LOWER(TRIM(CAST({expr} AS STRING)))"
    whens = " ".join(
        f"WHEN {text} IN ({', '.join(repr(a) for a in aliases)}) THEN {SPLIT_CODE[role]}"
        for role, aliases in roles.items()
    )
    return f"CASE {whens} END"


def open_scan(source, engine: str, roles: Roles) -> Scan:
    for role, value in [("label", roles.label), ("score", roles.score)] + [
        (r, getattr(roles, r)) for r in ("group", "weight", "split")
    ]:
        if value is None and role in ("label", "score"):
            raise ValueError(MSG_ROLE_TYPE.format(role=role, value=value))
        if value is not None and not isinstance(value, str):
            raise ValueError(MSG_ROLE_TYPE.format(role=role, value=value))
    named = roles.items()
    for i, (a, ca) in enumerate(named):
        for b, cb in named[i + 1 :]:
            if ca == cb:
                raise ValueError(MSG_SAME_COLUMN.format(a=a, b=b, column=shorten(ca)))
    eng = connect(engine, source)
    try:
        src = eng.open(source)
        words = describe_source(source)
        kinds = dict(eng.columns(src))
        for role, column in named:
            if column not in kinds:
                shown = ", ".join(f'"{c}"' for c in list(kinds)[:30]) + (" ..." if len(kinds) > 30 else "")
                raise DataError(
                    MSG_NO_COLUMN.format(role=role, column=shorten(column), source=words, columns=shown), column=column
                )
        need = {
            "label": ((KIND_BOOL, KIND_INT, KIND_FLOAT, KIND_DECIMAL), "the label must be 0/1 or true/false"),
            "score": ((KIND_BOOL, KIND_INT, KIND_FLOAT, KIND_DECIMAL), "the score must be a number"),
            "weight": ((KIND_BOOL, KIND_INT, KIND_FLOAT, KIND_DECIMAL), "the weight must be a number"),
            "group": ((KIND_BOOL, KIND_INT, KIND_FLOAT, KIND_DECIMAL, KIND_TEXT), "groups must be text or numbers"),
        }
        for role, column in named:
            if role in need and kinds[column] not in need[role][0]:
                kind = "text" if kinds[column] == KIND_TEXT else "values of another type"
                raise DataError(
                    MSG_COLUMN_KIND.format(
                        role=role, column=shorten(column), source=words, kind=kind, need=need[role][1]
                    ),
                    column=column,
                )
        q = eng.quote
        group_kind = kinds[roles.group] if roles.group else None
        if roles.group is None:
            g = "0"
        elif group_kind == KIND_DECIMAL:
            g = f"CAST({q(roles.group)} AS DOUBLE)"
        else:
            g = q(roles.group)
        sp = _split_sql(q(roles.split)) if roles.split else "0"
        w = f"CAST({q(roles.weight)} AS DOUBLE)" if roles.weight else "1e0"
        label_kind = kinds[roles.label]
        y = (
            f"CAST({q(roles.label)} AS TINYINT)"
            if label_kind == KIND_BOOL
            else f"CAST({q(roles.label)} AS DOUBLE)"
            if label_kind == KIND_DECIMAL
            else q(roles.label)
        )
        rows = unique_name("rows")
        eng.execute(
            f"CREATE OR REPLACE TEMPORARY VIEW {rows} AS SELECT {sp} AS sp, {g} AS g, "
            f"{y} AS y, CAST({q(roles.score)} AS DOUBLE) AS s, {w} AS w FROM {src}"
        )
        return Scan(eng, rows, src, roles, words, "float" if group_kind == KIND_DECIMAL else group_kind)
    except BaseException:
        eng.close()
        raise


def checks_sql(weighted: bool, *, labels: bool = True) -> str:
    """Aggregates that count the rows each check refuses (validated in numpy afterwards)."""
    parts = (
        [
            "COUNT(CASE WHEN y = 0 OR y = 1 THEN NULL ELSE 1 END) AS bad_y",
            f"COUNT(CASE WHEN ABS(s) <= {MAX_DOUBLE} THEN NULL ELSE 1 END) AS bad_s",
        ]
        if labels
        else []
    )
    if weighted:
        parts += [
            "COUNT(CASE WHEN w < 0 THEN 1 END) AS neg_w",
            f"COUNT(CASE WHEN w >= 0 AND w <= {MAX_DOUBLE} THEN NULL WHEN w < 0 THEN NULL ELSE 1 END) AS bad_w",
            f"COUNT(CASE WHEN NOT (w >= 0 AND w < {sql_double(TWO_53)}) THEN 1 "
            "WHEN w = FLOOR(w) THEN NULL ELSE 1 END) AS frac_w",
        ]
    return ", ".join(parts)


def _examples(scan: Scan, column: str, condition: str, view: str | None = None) -> str:
    """Up to five distinct offending values, for a sentence (only on the error path)."""
    found = scan.eng.sql(f"SELECT DISTINCT {column} AS v FROM {view or scan.rows} WHERE {condition} LIMIT 5")[
        "v"
    ].tolist()
    shown = ["missing" if v is None or (isinstance(v, float) and math.isnan(v)) else repr(v) for v in found]
    return ", ".join(shown) if shown else "missing values"


def validate(scan: Scan, frame: pd.DataFrame) -> None:
    """Refuse, with a sentence, rows the in-memory functions would refuse."""
    r = scan.roles
    words = scan.source
    bad_split = int(frame.loc[frame["sp"].isna(), "n_rows"].sum()) if r.split else 0
    if bad_split:
        raw = scan.eng.quote(r.split)
        found = _examples(scan, f"CAST({raw} AS STRING)", f"({_split_sql(raw)}) IS NULL", view=scan.src)
        raise DataError(
            MSG_BAD_SPLIT.format(
                source=words,
                column=shorten(r.split),
                count=f"{bad_split:,}",
                rows="row" if bad_split == 1 else "rows",
                found=found,
            ),
            column=r.split,
        )
    if r.group and frame["g"].isna().any():
        k = int(frame.loc[frame["g"].isna(), "n_rows"].sum())
        raise DataError(
            MSG_NULL_GROUP.format(
                source=words, column=shorten(r.group), count=f"{k:,}", values="value" if k == 1 else "values"
            ),
            column=r.group,
        )
    k = int(frame["bad_y"].sum())
    if k:
        found = _examples(scan, "y", "NOT (y = 0 OR y = 1) OR y IS NULL")
        raise DataError(
            MSG_BAD_LABEL.format(
                source=words, column=shorten(r.label), count=f"{k:,}", rows="row" if k == 1 else "rows", found=found
            ),
            column=r.label,
        )
    k = int(frame["bad_s"].sum())
    if k:
        raise DataError(
            MSG_BAD_SCORE.format(
                source=words, column=shorten(r.score), count=f"{k:,}", rows="row" if k == 1 else "rows"
            ),
            column=r.score,
        )
    if scan.weighted:
        k = int(frame["neg_w"].sum())
        if k:
            raise DataError(
                MSG_NEG_WEIGHT.format(
                    source=words, column=shorten(r.weight), count=f"{k:,}", values="value" if k == 1 else "values"
                ),
                column=r.weight,
            )
        k = int(frame["bad_w"].sum())
        if k:
            raise DataError(
                MSG_BAD_WEIGHT.format(
                    source=words, column=shorten(r.weight), count=f"{k:,}", values="value" if k == 1 else "values"
                ),
                column=r.weight,
            )


def group_order(names: list) -> list:
    """Group names in the order grouped_sweep uses (pandas' sorted factorize)."""
    if not names:
        return []
    _, uniques = pd.factorize(np.array(names + [], dtype=object), sort=True, use_na_sentinel=False)
    return list(uniques)


@dataclass
class Units:
    """The (split, group) pairs found in the rows: arrow keys (engine types) and Python names."""

    keys: pa.Table  # columns sp, g, in the engine's own types (for joins)
    sp: list
    g: list

    def group_keys(self, units: list[int]):
        """The group values of `units` in the engine's own type (an arrow array, to join on)."""
        import pyarrow as pa

        return self.keys.column("g").take(pa.array(units, type=pa.int64()))


def find_units(tab: pa.Table) -> tuple[Units, np.ndarray]:
    """Distinct (sp, g) of an arrow result and, for each of its rows, the unit's index.

    Units are numbered in the order they first appear. Each key column is factorized on its
    own, then the pairs of codes: no Python object per row (a first pass has tens of thousands
    of rows, one per group, label and bin).
    """
    import pyarrow as pa

    keys = tab.select(["sp", "g"])
    if keys.num_rows == 0:
        return Units(keys.slice(0, 0), [], []), np.zeros(0, dtype=np.int64)
    sp, _ = pd.factorize(keys.column("sp").to_numpy(zero_copy_only=False), use_na_sentinel=False)
    g, _ = pd.factorize(keys.column("g").to_numpy(zero_copy_only=False), use_na_sentinel=False)
    codes, _ = pd.factorize(sp.astype(np.int64) * (int(g.max()) + 1) + g)
    _, first = np.unique(codes, return_index=True)
    unit_keys = keys.take(pa.array(first))
    names = [SPLIT_NAME.get(c) for c in unit_keys.column("sp").to_pylist()]
    return Units(unit_keys, names, unit_keys.column("g").to_pylist()), codes


def with_scan(source, engine: str, roles: Roles, body):
    """``body(scan)`` on the source opened as a `Scan`, which is closed afterwards (also on errors).

    Every pass, from the view's making to the last count, reads one version of the source's
    files (`costlib.scale.snapshot.consistent`): a file replaced meanwhile is read again, and
    refused when it keeps changing.
    """

    def once():
        scan = open_scan(source, engine, roles)
        try:
            return body(scan)
        finally:
            scan.close()

    return consistent(source, once)[0]


__all__ = [
    "SPLIT_CODE",
    "SPLIT_NAME",
    "Roles",
    "Scan",
    "Units",
    "checks_sql",
    "find_units",
    "group_order",
    "open_scan",
    "validate",
    "with_scan",
]
