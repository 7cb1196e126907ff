"""Exact answers beyond memory: the cost sweep's answers from files, a query or a cluster.

The functions here take a *source* (a Parquet or CSV path or glob, a DuckDB query string, a
pandas DataFrame or pyarrow Table, or with ``engine="spark"`` a ``pyspark.sql.DataFrame``)
and the column roles by name, and return exactly what the in-memory functions return on
the same rows: thresholds and counts equal, not close (with real-valued weights the sums
are added in another order, so costs agree to rounding).

How the cost-optimal cutoff is found without holding the rows (bin, bound, refine):

1. One pass counts the weight of each (group, label, score bin). The bin of a score is a
   monotone function of the float: its binary exponent and the first ``bits`` bits of its
   mantissa (:func:`bin_sql`), computed exactly in SQL, identical in every pass and engine.
2. From the cumulative counts at the bins' edges, every cutoff inside bin b costs at least
   ``L_b = c_fp * negatives above b + c_fn * (positives not above b and not in b)``, and the
   cutoff at each bin's lowest score is a real cutoff whose cost is known exactly. Bins whose
   lower bound is above the best known cost cannot hold the optimum (nor a cutoff tied with
   it, which matters because ties go to the larger threshold): they are dropped
   (:func:`prune`). Typically a few dozen bins per group survive.
3. The surviving bins are split into finer bins (8 more mantissa bits) by a second pass that
   reads only their rows, and pruned again, until their rows fit in ``ROW_LIMIT`` or a round
   stops halving them. Then their distinct scores are fetched and swept exactly, each offset
   by the exact counts above its bin, with ``+inf`` (flag nobody) as a candidate, and the
   best is chosen by :func:`costlib.core.sweep.argbest`, as in memory.

Memory does not grow with the number of rows: only bins, survivors and at most about
``ROW_LIMIT`` distinct scores reach Python. The bounds and the exact refinement are numpy
code shared by both engines; an engine only runs SQL (the same text for DuckDB and Spark)
and registers small tables (:mod:`costlib.scale.engines`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from costlib.binary.costs import RULES, rule_cutoffs
from costlib.core import validation as v
from costlib.core.errors import DataError
from costlib.core.sweep import GroupedSweep, argbest
from costlib.loading import SPLIT_ALIASES
from costlib.scale.engines import (
    KIND_BOOL,
    KIND_DECIMAL,
    KIND_FLOAT,
    KIND_INT,
    KIND_TEXT,
    connect,
    describe_source,
    unique_name,
)

LEVELS = (8, 16, 24, 32)  # mantissa bits of the bins in each round (2**32 bins per binade at most)
ROW_LIMIT = 1 << 20  # survivors' rows at most for the final exact fetch of distinct scores
TRACE: list | None = None  # set to a list to record each round (benchmarks report what survives)
MAX_DOUBLE = "1.7976931348623157e308"
TWO_53 = 9007199254740992.0
GROUP_COST_COLUMNS = ["group", "n", "threshold", "flagged_rate", "fp", "fn", "cost_per_100"]
OPTIMAL_COLUMNS = ["group", "threshold", "cost_per_case"]
RULE_COLUMNS = ["rule", "group", "threshold", "flagged_rate", "cost_per_100"]
SPLITS = ("train", "validation", "test")
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
MSG_NO_SPLIT_ROWS = (
    'In {source}, the split column "{column}" has no {role} rows; the rules are fitted on the train rows and '
    "judged on the test rows."
)
MSG_COSTS = "costs must be a (c_fp, c_fn) pair or a mapping from each group to a (c_fp, c_fn) pair: got {value!r}"


# --------------------------------------------------------------------------------------
# The bin function (SQL) and the bounds (numpy): the engine-free heart
# --------------------------------------------------------------------------------------


def exponent_sql(a: str) -> str:
    """SQL for the binary exponent of the positive float `a`, clamped to the exponents doubles have."""
    return f"LEAST(GREATEST(FLOOR(LOG2({a})), -1074), 1023)"


def _pow2_sql(e: str) -> str:
    # 2**e exactly: by an integer shift where it fits (cheaper than POWER), else POWER (exact too)
    one = "CAST(1 AS BIGINT)"
    return (
        f"(CASE WHEN {e} >= 0 AND {e} < 62 THEN CAST({one} << CAST({e} AS INTEGER) AS DOUBLE) "
        f"WHEN {e} < 0 AND {e} > -62 THEN 1e0 / CAST({one} << CAST(-{e} AS INTEGER) AS DOUBLE) "
        f"ELSE POWER(2e0, {e}) END)"
    )


def bin_sql(column: str, bits: int, *, a: str | None = None, e: str | None = None) -> str:
    """SQL for the bin of each finite score in `column`: monotone, exact, engine-independent.

    A positive score x = 2**e * (1 + f) with 0 <= f < 1 is in bin
    ``(e + 1100) * 2**bits + floor(f * 2**bits)``; a negative score in minus the bin of -x,
    minus 1; zero in bin 0. So larger scores never get smaller bins, and each binade (the
    scores between two powers of two) is cut into ``2**bits`` equal parts: bins follow the
    scores' scale whether they are probabilities, logits or unbounded amounts. The bins of a
    level are exact unions of the bins of any finer level (:func:`bin_parent`).

    The exponent comes from ``FLOOR(LOG2(x))``, which may be off by one for x within a few
    units in the last place of a power of two (Spark computes log2 as a quotient of
    logarithms); the formula gives the same bin either way, because ``x / 2**e - 1`` is then
    just below 0 or exactly 1. Division by a power of two, subtraction of 1 and
    multiplication by ``2**bits`` are exact in floating point, so no rounding enters.
    The exponent is clamped to [-1074, 1023], the only exponents finite doubles have (log2 of
    the largest double rounds up to 1024). The callers keep NaN, infinite and missing
    scores out (they are refused). `a` and `e` name columns that already hold ``ABS(column)``
    and its exponent (:func:`exponent_sql`), so that a query computes them once per row.

    >>> bin_sql("s", 8)[:21]
    'CASE WHEN s > 0 THEN '
    """
    k = 1 << bits
    a = a or f"ABS({column})"
    e = e or exponent_sql(a)
    positive = f"CAST(({e} + 1100) * {k} + FLOOR(({a} / {_pow2_sql(e)} - 1e0) * {k}) AS BIGINT)"
    return f"CASE WHEN {column} > 0 THEN {positive} WHEN {column} < 0 THEN -{positive} - 1 WHEN {column} = 0 THEN 0 END"


def binned(inner: str, columns: list[str], bins: dict[str, int], *, guard: bool = False) -> str:
    """A subquery with `columns` of the query `inner` (which must include ``s``) and one bin column
    per entry of `bins` (name -> bits), the exponent computed once per row. With `guard`, the
    bins of missing, NaN and infinite scores are NULL (so that they can be counted and refused).
    """
    cols = ", ".join(columns)
    a = f"CASE WHEN ABS(s) <= {MAX_DOUBLE} THEN ABS(s) END" if guard else "ABS(s)"
    exprs = ", ".join(f"{bin_sql('s', bits, a='a', e='e')} AS {name}" for name, bits in bins.items())
    return (
        f"(SELECT {cols}, {exprs} FROM (SELECT {cols}, a, {exponent_sql('a')} AS e FROM "
        f"(SELECT {cols}, {a} AS a FROM ({inner}) AS t0) AS t1) AS t2)"
    )


def bin_numpy(scores, bits: int) -> np.ndarray:
    """The same bins as :func:`bin_sql`, computed in numpy from the float's exact parts (tests)."""
    s = np.asarray(scores, dtype=np.float64)
    mant, exp = np.frexp(np.abs(s))  # |s| = mant * 2**exp with 0.5 <= mant < 1
    k = 1 << bits
    pos = (exp.astype(np.int64) - 1 + 1100) * k + np.floor((2 * mant - 1) * k).astype(np.int64)
    return np.where(s > 0, pos, np.where(s < 0, -pos - 1, 0))


def _tolerance(cost_pc: float) -> float:
    """argbest's tie tolerance at cost `cost_pc` (twice it: pruning must keep every tie)."""
    return 2e-12 * max(1.0, abs(cost_pc))


def prune(pos, neg, *, c_fp: float, c_fn: float, alive=None, exact: bool = True) -> np.ndarray:
    """Which cells (bins, in descending score order) may hold the exact optimum or a tie with it.

    `pos` and `neg` are the weights of the positives and negatives in each cell; the cells
    cover all of one group's rows. `alive` says which cells can still be refined (the
    others are known losers, kept only for their counts); default all. Returns a boolean
    mask of the alive cells to keep. The mask never drops a cell that holds the cutoff
    :func:`costlib.core.sweep.argbest` picks on the exact sweep (the cheapest, ties to the
    larger threshold): a cell is dropped if even its lower bound ``L_b`` is above the best
    achievable cost plus argbest's tie tolerance, or if it lies entirely below an achievable
    cutoff (+inf or a cell's lowest score) that already costs no more than every lower
    bound. With ``exact=False`` (real-valued weights, summed in another order than in
    memory) both tests get a margin of 1e-8 of the largest cost.

    >>> prune([3, 1, 0, 0], [0, 1, 2, 5], c_fp=1, c_fn=1).tolist()  # the last cell's bound is 3 > 1
    [True, True, True, False]
    """
    pos = np.asarray(pos, dtype=np.float64)
    neg = np.asarray(neg, dtype=np.float64)
    alive = np.ones(pos.size, dtype=bool) if alive is None else np.asarray(alive, dtype=bool).copy()
    if pos.size == 0:
        return alive
    P, N = float(pos.sum()), float(neg.sum())
    total = P + N
    if total <= 0:
        return np.zeros(pos.size, dtype=bool)
    pos_above = np.concatenate(([0.0], np.cumsum(pos)[:-1]))
    neg_above = np.concatenate(([0.0], np.cumsum(neg)[:-1]))
    fn_low = P - pos_above - pos  # false negatives when every positive of the cell is flagged
    lower = neg_above * c_fp + fn_low * c_fn  # same operand order as the in-memory cost
    edge = (neg_above + neg) * c_fp + fn_low * c_fn  # the cutoff at the cell's lowest score
    nobody = 0.0 * c_fp + P * c_fn
    err = 0.0 if exact else 1e-8 * (c_fp * N + c_fn * P)
    ub = min(nobody, float(edge.min()))
    ub_pc = ub / total
    keep = alive & (lower / total <= ub_pc + _tolerance(ub_pc) + 2 * err / total)
    floor = min(nobody, float(lower.min()))
    if nobody + 2 * err <= floor:  # flagging nobody is already as cheap as anything can be
        return np.zeros(pos.size, dtype=bool)
    first = np.flatnonzero(alive & (edge + 2 * err <= floor))
    if first.size:  # that cutoff is a global optimum: nothing below it can win the tie
        keep[first[0] + 1 :] = False
    return keep


# --------------------------------------------------------------------------------------
# Roles, the rows view and validation
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Roles:
    label: str
    score: str
    group: str | None = None
    weight: str | None = None
    split: str | None = None

    def items(self):
        return [(r, getattr(self, r)) for r in ("label", "score", "group", "weight", "split") if getattr(self, r)]


@dataclass
class _Scan:
    """An open source: the engine, the view of normalised rows and words for sentences."""

    eng: object
    rows: str
    src: str
    roles: _Roles
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
        for k in ("sp", "g"):
            if k not in tab.column_names:
                tab = tab.append_column(k, pa.array(np.zeros(tab.num_rows, dtype=np.int32)))
        return tab

    def close(self):
        for view in (self.rows, self.src):
            self.eng.drop(view)
        self.eng.close()


def _split_sql(expr: str) -> str:
    roles: dict[str, list[str]] = {}
    for alias, role in SPLIT_ALIASES.items():
        roles.setdefault(role, []).append(alias)
    text = f"LOWER(TRIM(CAST({expr} AS STRING)))"
    whens = " ".join(
        f"WHEN {text} IN ({', '.join(repr(a) for a in aliases)}) THEN {SPLIT_CODE[role]}"
        for role, aliases in roles.items()
    )
    return f"CASE {whens} END"


def _open(source, engine: str, roles: _Roles) -> _Scan:
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
                raise ValueError(MSG_SAME_COLUMN.format(a=a, b=b, column=ca))
    eng = connect(engine, source)
    try:
        src = eng.open(source)
        words = describe_source(source)
        kinds = dict(eng.columns(src))
        for role, column in named:
            if column not in kinds:
                shown = ", ".join(f'"{c}"' for c in list(kinds)[:30]) + (" ..." if len(kinds) > 30 else "")
                raise DataError(
                    MSG_NO_COLUMN.format(role=role, column=column, source=words, columns=shown), column=column
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
                    MSG_COLUMN_KIND.format(role=role, column=column, source=words, kind=kind, need=need[role][1]),
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
        return _Scan(eng, rows, src, roles, words, "float" if group_kind == KIND_DECIMAL else group_kind)
    except BaseException:
        eng.close()
        raise


def _checks(weighted: bool, prefix: str = "", *, labels: bool = True) -> str:
    """Aggregates that count the rows each check refuses (validated in numpy afterwards)."""
    y, s, w = f"{prefix}y", f"{prefix}s", f"{prefix}w"
    parts = (
        [
            f"COUNT(CASE WHEN {y} = 0 OR {y} = 1 THEN NULL ELSE 1 END) AS bad_y",
            f"COUNT(CASE WHEN ABS({s}) <= {MAX_DOUBLE} THEN NULL ELSE 1 END) AS bad_s",
        ]
        if labels
        else []
    )
    if weighted:
        parts += [
            f"COUNT(CASE WHEN {w} < 0 THEN 1 END) AS neg_w",
            f"COUNT(CASE WHEN {w} >= 0 AND {w} <= {MAX_DOUBLE} THEN NULL WHEN {w} < 0 THEN NULL ELSE 1 END) AS bad_w",
            f"COUNT(CASE WHEN NOT ({w} >= 0 AND {w} < 9007199254740992e0) THEN 1 "
            f"WHEN {w} = FLOOR({w}) THEN NULL ELSE 1 END) AS frac_w",
        ]
    return ", ".join(parts)


def _examples(scan: _Scan, column: str, condition: str, view: str | None = None) -> str:
    """Up to five distinct offending values, for a sentence (only on the error path)."""
    found = scan.eng.sql(f"SELECT DISTINCT {column} AS v FROM {view or scan.rows} WHERE {condition} LIMIT 5")[
        "v"
    ].tolist()
    shown = ["missing" if v is None or (isinstance(v, float) and math.isnan(v)) else repr(v) for v in found]
    return ", ".join(shown) if shown else "missing values"


def _validate(scan: _Scan, frame: pd.DataFrame) -> None:
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
                column=r.split,
                count=f"{bad_split:,}",
                rows="row" if bad_split == 1 else "rows",
                found=found,
            ),
            column=r.split,
        )
    if r.group and frame["g"].isna().any():
        k = int(frame.loc[frame["g"].isna(), "n_rows"].sum())
        raise DataError(
            MSG_NULL_GROUP.format(source=words, column=r.group, count=f"{k:,}", values="value" if k == 1 else "values"),
            column=r.group,
        )
    k = int(frame["bad_y"].sum())
    if k:
        found = _examples(scan, "y", "NOT (y = 0 OR y = 1) OR y IS NULL")
        raise DataError(
            MSG_BAD_LABEL.format(
                source=words, column=r.label, count=f"{k:,}", rows="row" if k == 1 else "rows", found=found
            ),
            column=r.label,
        )
    k = int(frame["bad_s"].sum())
    if k:
        raise DataError(
            MSG_BAD_SCORE.format(source=words, column=r.score, count=f"{k:,}", rows="row" if k == 1 else "rows"),
            column=r.score,
        )
    if scan.weighted:
        k = int(frame["neg_w"].sum())
        if k:
            raise DataError(
                MSG_NEG_WEIGHT.format(
                    source=words, column=r.weight, count=f"{k:,}", values="value" if k == 1 else "values"
                ),
                column=r.weight,
            )
        k = int(frame["bad_w"].sum())
        if k:
            raise DataError(
                MSG_BAD_WEIGHT.format(
                    source=words, column=r.weight, count=f"{k:,}", values="value" if k == 1 else "values"
                ),
                column=r.weight,
            )


def _lit(x: float) -> str:
    """A DOUBLE literal for both engines (a bare 0.5 is a DECIMAL to some SQL dialects)."""
    text = repr(float(x))
    return f"({text if 'e' in text or 'inf' in text or 'nan' in text else text + 'e0'})"


# --------------------------------------------------------------------------------------
# Units (split, group) and their cells
# --------------------------------------------------------------------------------------


def _group_order(names: list) -> list:
    """Group names in the order grouped_sweep uses (pandas' sorted factorize)."""
    if not names:
        return []
    _, uniques = pd.factorize(np.array(names + [], dtype=object), sort=True, use_na_sentinel=False)
    return list(uniques)


@dataclass
class _Units:
    """The (split, group) pairs found in the rows: arrow keys (engine types) and Python names."""

    keys: pa.Table  # columns sp, g, in the engine's own types (for joins)
    sp: list
    g: list


def _units(tab: pa.Table) -> tuple[_Units, np.ndarray]:
    """Distinct (sp, g) of an arrow result and, for each of its rows, the unit's index."""
    keys = tab.select(["sp", "g"])
    frame = pd.DataFrame(
        {"sp": [SPLIT_NAME.get(c) for c in keys.column("sp").to_pylist()], "g": keys.column("g").to_pylist()}
    )
    if len(frame) == 0:
        return _Units(keys.slice(0, 0), [], []), np.zeros(0, dtype=np.int64)
    codes, _ = pd.factorize(pd.MultiIndex.from_frame(frame))
    _, first = np.unique(codes, return_index=True)
    unit_keys = keys.take(pa.array(first))
    return _Units(unit_keys, frame["sp"].iloc[first].tolist(), frame["g"].iloc[first].tolist()), codes


def bin_top(b, bits: int) -> np.ndarray:
    """The largest finest-level bin inside bin `b` of level `bits` (an exact integer order key).

    Bins of different levels are disjoint once refined, so sorting cells by this key sorts
    them by score, exactly (no float edges involved).
    """
    b = np.asarray(b, dtype=np.int64)
    finest = LEVELS[-1]
    pos = np.where(b > 0, b, -b - 1)
    start = (pos >> bits << finest) + ((pos & ((1 << bits) - 1)) << (finest - bits))
    return np.where(b > 0, start + (1 << (finest - bits)) - 1, np.where(b < 0, -start - 1, 0))


def bin_range(b, bits: int) -> tuple[float, float]:
    """Scores (lo, hi) such that every score in the bins `b` of level `bits` lies in [lo, hi]."""
    lo, hi = bin_edges(b, bits)
    return float(lo.min()), float(hi.max())


def bin_edges(b, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """Per bin, scores (lo, hi) with every score of the bin in [lo, hi] (a bound one float step wide)."""
    b = np.asarray(b, dtype=np.int64)
    pos = np.where(b > 0, b, -b - 1)
    e = (pos >> bits) - 1100
    m = pos & ((1 << bits) - 1)
    with np.errstate(over="ignore"):  # the top bin's upper edge is 2**1024: inf is a fine bound
        low = np.ldexp(((1 << bits) + m).astype(np.float64), (e - bits).astype(np.int64))
        high = np.ldexp(((1 << bits) + m + 1).astype(np.float64), (e - bits).astype(np.int64))
    low = np.nextafter(low, 0.0)  # a subnormal edge may round: widen by one step
    high = np.nextafter(high, np.inf)
    lo = np.where(b > 0, low, np.where(b < 0, -high, 0.0))
    hi = np.where(b > 0, high, np.where(b < 0, -low, 0.0))
    return lo, hi


def bin_parent(b, bits: int, parent_bits: int) -> np.ndarray:
    """The bin of level `parent_bits` that holds bin `b` of the finer level `bits` (bins nest exactly)."""
    b = np.asarray(b, dtype=np.int64)
    pos = np.where(b > 0, b, -b - 1) >> (bits - parent_bits)
    return np.where(b > 0, pos, np.where(b < 0, -pos - 1, 0))


@dataclass
class _Cells:
    """One unit's cells in descending score order (dead cells stay for their counts)."""

    top: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    n: np.ndarray
    b: np.ndarray
    alive: np.ndarray

    @classmethod
    def from_frame(cls, f: pd.DataFrame) -> _Cells:
        f = f.sort_values("top", ascending=False, kind="stable")
        alive = f["alive"].to_numpy(dtype=bool) if "alive" in f else np.ones(len(f), dtype=bool)
        return cls(
            f["top"].to_numpy(dtype=np.int64),
            *(f[c].to_numpy(dtype=np.float64) for c in ("pos", "neg", "n")),
            f["b"].to_numpy(dtype=np.int64),
            alive,
        )

    def frame(self, mask) -> pd.DataFrame:
        return pd.DataFrame(
            {"top": self.top[mask], "pos": self.pos[mask], "neg": self.neg[mask], "n": self.n[mask], "b": self.b[mask]}
        )


def _cells_frame(frame: pd.DataFrame, key: str, bits: int) -> pd.DataFrame:
    """(key, b) rows with pos, neg, n and the order key `top` from per-label rows (y, b, n, w)."""
    frame = frame.assign(pos=np.where(frame["y"] == 1, frame["w"], 0.0), neg=np.where(frame["y"] == 0, frame["w"], 0.0))
    cells = frame.groupby([key, "b"], sort=False).agg(pos=("pos", "sum"), neg=("neg", "sum"), n=("n", "sum"))
    cells = cells.reset_index()
    cells = cells[cells["pos"] + cells["neg"] > 0]
    return cells.assign(top=bin_top(cells["b"].to_numpy(dtype=np.int64), bits))


# --------------------------------------------------------------------------------------
# Cost-optimal cutoffs: bin, bound, refine
# --------------------------------------------------------------------------------------


def _pass1(scan: _Scan) -> pa.Table:
    """Rows per (split, group, label, bin); with weights also the positive weight and the checks.

    Without weights, labels and scores are checked from the keys themselves (a label that is
    not 0/1 is its own key, a bad score has no bin), so the pass is a plain count.
    """
    keys = ", ".join(scan.keys + ["y", "b"])
    cols = scan.keys + ["y", "s"] + (["w"] if scan.weighted else [])
    rows = binned(f"SELECT {', '.join(cols)} FROM {scan.rows}", cols, {"b": LEVELS[0]}, guard=True)
    if not scan.weighted:
        return scan.with_keys(scan.eng.sql_arrow(f"SELECT {keys}, COUNT(*) AS n FROM {rows} AS t GROUP BY {keys}"))
    return scan.with_keys(
        scan.eng.sql_arrow(
            f"SELECT {keys}, COUNT(*) AS n, SUM(CASE WHEN w > 0 THEN w ELSE 0e0 END) AS w, "
            f"COUNT(CASE WHEN w > 0 THEN 1 END) AS n_pos_w, {_checks(True, labels=False)} "
            f"FROM {rows} AS t GROUP BY {keys}"
        )
    )


def _pass1_frame(scan: _Scan, tab: pa.Table) -> pd.DataFrame:
    frame = tab.to_pandas()
    frame["n_rows"] = frame["n"]
    frame["bad_y"] = np.where(frame["y"].isin([0.0, 1.0]), 0, frame["n"])
    frame["bad_s"] = np.where(frame["b"].notna(), 0, frame["n"])
    if not scan.weighted:
        frame["w"] = frame["n"].astype(np.float64)
    else:
        frame["n"] = frame["n_pos_w"]  # rows that count (weight > 0), as the refinement passes count them
    return frame


def _is_exact(scan: _Scan, frame: pd.DataFrame) -> bool:
    """Integer counts (no weights, or integer weights summing below 2**53) add up exactly."""
    if not scan.weighted:
        return True
    return int(frame["frac_w"].sum()) == 0 and float(frame["w"].sum()) < TWO_53


def _bands(units: _Units, state: dict, level: int) -> tuple[pa.Table, tuple[float, float]]:
    """Per unit with alive cells, the score band [lo, hi] that holds them (a small table to join),
    and the band of all units (a cheap filter the engine applies first)."""
    us, lo, hi = [], [], []
    for u, cells in state.items():
        if cells.alive.any():
            a, b = bin_edges(cells.b[cells.alive], LEVELS[level])
            us.append(u)
            lo.append(float(a.min()))
            hi.append(float(b.max()))
    keys = units.keys.take(pa.array(np.asarray(us, dtype=np.int64)))
    table = pa.table(
        {
            "u": pa.array(np.asarray(us, dtype=np.int64)),
            "sp": keys.column("sp"),
            "g": keys.column("g"),
            "lo": pa.array(np.asarray(lo, dtype=np.float64)),
            "hi": pa.array(np.asarray(hi, dtype=np.float64)),
        }
    )
    return table, (min(lo), max(hi))


def _band_query(
    scan: _Scan, select: str, group_by: str, units: _Units, state: dict, level: int, bins: dict | None = None
) -> pd.DataFrame:
    """``SELECT {select} ... GROUP BY {group_by}`` over the rows in their unit's band, whose columns
    are u (the unit), y, s, w and the `bins` (name -> bits)."""
    table, (lo, hi) = _bands(units, state, level)
    name = unique_name("band")
    scan.eng.register(name, table)
    on = " AND ".join(f"r.{k} = c.{k}" for k in scan.keys) or "TRUE"
    inner = (
        f"SELECT c.u AS u, r.y AS y, r.s AS s, r.w AS w FROM {scan.rows} r JOIN {name} c ON {on} "
        f"WHERE r.w > 0 AND r.s >= {_lit(lo)} AND r.s <= {_lit(hi)} AND r.s >= c.lo AND r.s <= c.hi"
    )
    rows = binned(inner, ["u", "y", "s", "w"], bins) if bins else f"({inner})"
    try:
        return scan.eng.sql(f"SELECT {select} FROM {rows} AS t GROUP BY {group_by}")
    finally:
        scan.eng.drop(name)


def _alive_index(state: dict, units: np.ndarray, bins: np.ndarray) -> np.ndarray:
    """For each (unit, bin), the position of that alive cell in its unit, or -1 (not alive)."""
    out = np.full(units.size, -1, dtype=np.int64)
    order = np.argsort(units, kind="stable")
    sorted_units = units[order]
    for u, cells in state.items():
        a, b = np.searchsorted(sorted_units, [u, u + 1])
        if a == b or not cells.alive.any():
            continue
        sel = order[a:b]
        alive = np.flatnonzero(cells.alive)
        by_bin = np.argsort(cells.b[alive])
        keys = cells.b[alive][by_bin]
        at = np.minimum(np.searchsorted(keys, bins[sel]), keys.size - 1)
        hit = keys[at] == bins[sel]
        out[sel[hit]] = alive[by_bin][at[hit]]
    return out


def _prune_all(state: dict, prices: dict, exact: bool) -> int:
    """Prune every unit's cells in place; the number of rows in the alive cells."""
    rows = 0
    for u, cells in state.items():
        c_fp, c_fn = prices[u]
        cells.alive = prune(cells.pos, cells.neg, c_fp=c_fp, c_fn=c_fn, alive=cells.alive, exact=exact)
        rows += int(cells.n[cells.alive].sum())
    return rows


def _refine(scan: _Scan, units: _Units, state: dict, level: int) -> None:
    """Split every alive cell into the next level's bins (one pass over the rows in the units' bands).

    The engine counts the rows of each unit's band by finer bin; numpy keeps the finer bins
    whose parent (the bins nest exactly) is an alive cell.
    """
    frame = _band_query(
        scan, "u, y, b, COUNT(*) AS n, SUM(w) AS w", "u, y, b", units, state, level, bins={"b": LEVELS[level + 1]}
    )
    u = frame["u"].to_numpy(dtype=np.int64)
    parent = bin_parent(frame["b"].to_numpy(dtype=np.int64), LEVELS[level + 1], LEVELS[level])
    frame = frame[_alive_index(state, u, parent) >= 0]
    children = _cells_frame(frame, "u", LEVELS[level + 1])
    by_unit = dict(tuple(children.groupby("u", sort=False)))
    for unit, cells in state.items():
        old = cells.frame(~cells.alive).assign(alive=False)
        new = by_unit.get(unit)
        if new is not None:
            old = pd.concat([old, new[["top", "pos", "neg", "n", "b"]].assign(alive=True)], ignore_index=True)
        state[unit] = _Cells.from_frame(old)


def _final(scan: _Scan, units: _Units, state: dict, level: int) -> dict:
    """Distinct scores of the alive cells: {unit: (scores desc, tp, fp)} exact at each score."""
    out: dict = {u: (np.zeros(0), np.zeros(0), np.zeros(0)) for u in state}
    if not any(c.alive.any() for c in state.values()):
        return out
    frame = _band_query(
        scan,
        "u, s, SUM(CASE WHEN y = 1 THEN w ELSE 0e0 END) AS pos, SUM(CASE WHEN y = 0 THEN w ELSE 0e0 END) AS neg",
        "u, s",
        units,
        state,
        level,
    )
    u = frame["u"].to_numpy(dtype=np.int64)
    s = frame["s"].to_numpy(dtype=np.float64) + 0.0  # -0.0 and 0.0 are one threshold, shown as 0.0
    cell = _alive_index(state, u, bin_numpy(s, LEVELS[level]))
    keep = cell >= 0
    u, s, cell = u[keep], s[keep], cell[keep]
    pos = frame["pos"].to_numpy(dtype=np.float64)[keep]
    neg = frame["neg"].to_numpy(dtype=np.float64)[keep]
    order = np.lexsort((-s, u))
    u, s, cell, pos, neg = u[order], s[order], cell[order], pos[order], neg[order]
    starts = np.concatenate(([0], np.flatnonzero(np.diff(u)) + 1, [u.size]))
    for a, b in zip(starts[:-1], starts[1:], strict=True):
        cells = state[int(u[a])]
        # offsets: everything in the cells above each row's cell, plus the rows above it in its own cell
        pos_above = np.concatenate(([0.0], np.cumsum(cells.pos)[:-1]))[cell[a:b]]
        neg_above = np.concatenate(([0.0], np.cumsum(cells.neg)[:-1]))[cell[a:b]]
        c = cell[a:b]
        first = np.concatenate(([True], c[1:] != c[:-1]))
        tp = _cumsum_within(pos[a:b], first) + pos_above
        fp = _cumsum_within(neg[a:b], first) + neg_above
        out[int(u[a])] = (s[a:b], tp, fp)
    return out


def _cumsum_within(x: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Cumulative sums restarting where `first` is True (runs of one cell), each run summed on its own."""
    out = np.empty_like(x)
    starts = np.flatnonzero(first)
    ends = np.concatenate((starts[1:], [x.size]))
    for a, b in zip(starts, ends, strict=True):
        out[a:b] = np.cumsum(x[a:b])
    return out


def _optimal_units(scan: _Scan, units: _Units, cells: pd.DataFrame, wanted: dict, exact: bool) -> dict:
    """{unit: (threshold, cost_per_case)} for the units in `wanted` ({unit: (c_fp, c_fn)})."""
    totals = cells.groupby("unit")[["pos", "neg"]].sum()
    result, state = {}, {}
    for u in wanted:
        P = float(totals["pos"].get(u, 0.0))
        N = float(totals["neg"].get(u, 0.0))
        if P <= 0 or N <= 0:
            v.warn_degenerate(
                f"only one class present (positives weight {P:g}, negatives weight {N:g}): no threshold to fit; NaN"
            )
            result[u] = (float("nan"), float("nan"))
            continue
        state[u] = _Cells.from_frame(cells[cells["unit"] == u])
    level, prev = 0, math.inf
    while state:
        rows = _prune_all(state, wanted, exact)
        if TRACE is not None:
            cells = sum(int(c.alive.sum()) for c in state.values())
            TRACE.append({"round": level + 1, "bits": LEVELS[level], "alive_cells": cells, "alive_rows": rows})
        if rows <= ROW_LIMIT or level + 1 >= len(LEVELS) or rows > prev / 2:
            break
        prev = rows
        _refine(scan, units, state, level)
        level += 1
    candidates = _final(scan, units, state, level) if state else {}
    for u, cells in state.items():
        c_fp, c_fn = wanted[u]
        s, tp, fp = candidates[u]
        P, N = float(cells.pos.sum()), float(cells.neg.sum())
        thresholds = np.concatenate(([np.inf], s))
        tp = np.concatenate(([0.0], tp))
        fp = np.concatenate(([0.0], fp))
        cost = (fp * c_fp + (P - tp) * c_fn) / (P + N)  # exactly as costlib.binary.costs.sweep_cost
        j = argbest(cost)
        result[u] = (float(thresholds[j]), float(cost[j]))
    return result


# --------------------------------------------------------------------------------------
# Prices and cutoffs per group (validated as in costlib.binary.costs)
# --------------------------------------------------------------------------------------


def _price_pairs(costs, names: list) -> dict:
    """{name: (c_fp, c_fn)} for every group name, validated like costlib.binary.costs."""
    if isinstance(costs, Mapping):
        missing = [g for g in names if g not in costs]
        if missing:
            raise ValueError(v.MSG_MISSING_GROUP.format(name="costs", group=missing[0], present=list(names)))
        out = {}
        for g in names:
            pair = costs[g]
            try:
                a, b = pair
            except (TypeError, ValueError):
                raise ValueError(MSG_COSTS.format(value=pair)) from None
            out[g] = (v.as_price(a, f"costs[{g!r}] c_fp"), v.as_price(b, f"costs[{g!r}] c_fn"))
        return out
    try:
        a, b = costs
    except (TypeError, ValueError):
        raise ValueError(MSG_COSTS.format(value=costs)) from None
    pair = (v.as_price(a, "costs c_fp"), v.as_price(b, "costs c_fn"))
    return {g: pair for g in names}


def _check_costs_arg(costs) -> None:
    if isinstance(costs, Mapping):
        return
    try:
        a, b = costs
    except (TypeError, ValueError):
        raise ValueError(MSG_COSTS.format(value=costs)) from None
    v.as_price(a, "costs c_fp")
    v.as_price(b, "costs c_fn")


def _name(scan: _Scan, g):
    return None if scan.roles.group is None else g


# --------------------------------------------------------------------------------------
# Public: cost-optimal cutoffs, group costs, the rules table, the grouped sweep
# --------------------------------------------------------------------------------------


def _run(source, engine, roles, body):
    scan = _open(source, engine, roles)
    try:
        return body(scan)
    finally:
        scan.close()


@dataclass
class _Pass1:
    """Pass 1 over all rows, validated: per (split, group, label, bin) counts and the units."""

    frame: pd.DataFrame
    units: _Units
    exact: bool

    @classmethod
    def run(cls, scan: _Scan) -> _Pass1:
        tab = _pass1(scan)
        frame = _pass1_frame(scan, tab)
        _validate(scan, frame)
        units, codes = _units(tab)
        frame["unit"] = codes
        return cls(frame, units, _is_exact(scan, frame))

    def units_of(self, role: str) -> list[int]:
        return [u for u in range(len(self.units.sp)) if self.units.sp[u] == role]


def _fit(scan: _Scan, p1: _Pass1, costs, role: str) -> tuple[dict, list]:
    """({group: (threshold, cost_per_case)}, group names in order) fitted on the rows of split `role`."""
    mine = p1.units_of(role)
    names = _group_order([p1.units.g[u] for u in mine])
    by_name = {p1.units.g[u]: u for u in mine}
    prices = _price_pairs(costs, [_name(scan, g) for g in names])
    wanted = {by_name[g]: prices[_name(scan, g)] for g in names}
    cells = _cells_frame(p1.frame[p1.frame["unit"].isin(mine)], "unit", LEVELS[0])
    found = _optimal_units(scan, p1.units, cells, wanted, p1.exact)
    return {g: found[by_name[g]] for g in names}, names


def scan_optimal_thresholds(source, *, label, score, costs, group=None, weight=None, engine="duckdb") -> pd.DataFrame:
    """Each group's exact cost-optimal cutoff, computed where the rows live.

    Returns a DataFrame with columns ``group, threshold, cost_per_case``, one row per group
    in sorted order (without `group`: one row, group ``None``). Each threshold and cost is
    what :func:`costlib.optimal_threshold` returns on that group's rows: the cutoff (flag
    iff score >= it) minimising ``(FP * c_fp + FN * c_fn) / n`` over every distinct score
    and ``+inf`` (flag nobody), ties to the larger threshold. A group with one class gets
    NaN and a :class:`costlib.DegenerateWarning`.

    Parameters
    ----------
    source : str, path, list of paths, pandas.DataFrame, pyarrow.Table or pyspark DataFrame
        A Parquet or CSV path or glob, a DuckDB query (Spark SQL with ``engine="spark"``),
        an in-memory table, or a Spark DataFrame (with ``engine="spark"``).
    label, score : str
        Column names: the binary label (0/1 or true/false) and the score (any finite number).
    costs : (c_fp, c_fn) or mapping
        Prices for everyone, or a mapping from each group to its ``(c_fp, c_fn)``.
    group, weight : str, optional
        Column names of the group and of non-negative case weights.
    engine : {"duckdb", "spark"}

    Raises
    ------
    ValueError
        Illegal arguments; :class:`costlib.core.errors.DataError` (a ValueError) for a missing
        column, labels that are not binary, missing or non-finite scores, negative weights,
        with a sentence naming the column.

    Examples
    --------
    >>> q = "SELECT * FROM (VALUES (0, 0.1), (0, 0.4), (1, 0.35), (1, 0.8), (0, 0.65), (1, 0.9)) t(y, p)"
    >>> scan_optimal_thresholds(q, label="y", score="p", costs=(1, 3)).round(4).to_dict("records")
    [{'group': None, 'threshold': 0.35, 'cost_per_case': 0.3333}]
    """
    _check_costs_arg(costs)
    roles = _Roles(label=label, score=score, group=group, weight=weight)

    def body(scan):
        found, names = _fit(scan, _Pass1.run(scan), costs, "")
        return pd.DataFrame(
            {
                "group": [_name(scan, g) for g in names],
                "threshold": [found[g][0] for g in names],
                "cost_per_case": [found[g][1] for g in names],
            },
            columns=OPTIMAL_COLUMNS,
        )

    return _run(source, engine, roles, body)


def _typed_keys(values: list, kind: str | None) -> tuple[list, list]:
    """(keys usable in a join with a group column of `kind`, the original keys they stand for)."""
    out, orig = [], []
    for k in values:
        if kind is None:  # no group column: the one group is None, stored as 0
            if k is None:
                out.append(0)
                orig.append(k)
            continue
        if kind == KIND_TEXT and isinstance(k, str):
            out.append(k)
        elif kind == KIND_BOOL and isinstance(k, bool | np.bool_):
            out.append(bool(k))
        elif kind == KIND_INT and isinstance(k, int | np.integer | float | np.floating) and not isinstance(k, bool):
            if float(k).is_integer():
                out.append(int(k))
            else:
                continue
        elif kind == "float" and isinstance(k, int | np.integer | float | np.floating) and not isinstance(k, bool):
            out.append(float(k))
        else:
            continue
        orig.append(k)
    return out, orig


def _key_type(kind: str | None) -> pa.DataType:
    return {KIND_TEXT: pa.string(), KIND_BOOL: pa.bool_(), KIND_INT: pa.int64(), "float": pa.float64()}.get(
        kind, pa.int64()
    )


def _judge(scan: _Scan, cutoffs: list, keys: pa.Array, where: str = "") -> pd.DataFrame:
    """Per group (of the rows matching `where`): weighted n, and flagged, fp, fn at each cutoff set.

    `keys` are group values in the engine's type; ``cutoffs[i][k]`` is the cutoff of cutoff set
    i for the k-th key. Groups not among the keys come back with ``matched == 0``. The engine
    groups the rows by (split, group, label, flagged at each cutoff set) -- a few keys, no sums
    of conditions -- and the sums are taken here; a bad score has no "flagged" key, a bad
    label is its own key, so the same pass checks the rows.
    """
    cols = {"g": keys}
    for i, cut in enumerate(cutoffs):
        cols[f"t{i}"] = pa.array(np.asarray(cut, dtype=np.float64))
    name = unique_name("cut")
    scan.eng.register(name, pa.table(cols))
    flags = [
        f"CASE WHEN ABS(r.s) <= {MAX_DOUBLE} THEN (CASE WHEN c.g IS NULL THEN 2 WHEN r.s >= c.t{i} THEN 1 ELSE 0 END) "
        f"END AS f{i}"
        for i in range(len(cutoffs))
    ]
    fs = [f"f{i}" for i in range(len(cutoffs))]
    keys_sql = ", ".join(["sp", "g", "y", *fs])
    weight = (", SUM(w) AS w, " + _checks(True, labels=False)) if scan.weighted else ""
    inner = (
        f"SELECT r.sp AS sp, r.g AS g, r.y AS y, r.w AS w, {', '.join(flags)} "
        f"FROM {scan.rows} r LEFT JOIN {name} c ON r.g = c.g {where}"
    )
    try:
        frame = scan.eng.sql(f"SELECT {keys_sql}, COUNT(*) AS n_rows{weight} FROM ({inner}) AS t GROUP BY {keys_sql}")
    finally:
        scan.eng.drop(name)
    w = frame["w"].to_numpy(dtype=np.float64) if scan.weighted else frame["n_rows"].to_numpy(dtype=np.float64)
    y = frame["y"]
    parts = {
        "n_rows": frame["n_rows"].to_numpy(),
        "n": w,
        "bad_y": np.where(y.isin([0, 1]), 0, frame["n_rows"]),
        "bad_s": np.where(frame["f0"].isna(), frame["n_rows"], 0),
        "matched": np.where(frame["f0"] == 2, 0, frame["n_rows"]),
    }
    if scan.weighted:
        parts["neg_w"] = frame["neg_w"].to_numpy()
        parts["bad_w"] = frame["bad_w"].to_numpy()
    for i, f in enumerate(fs):
        flagged = (frame[f] == 1).to_numpy()
        kept = (frame[f] == 0).to_numpy()
        parts[f"flagged{i}"] = np.where(flagged, w, 0.0)
        parts[f"fp{i}"] = np.where(flagged & (y == 0).to_numpy(), w, 0.0)
        parts[f"fn{i}"] = np.where(kept & (y == 1).to_numpy(), w, 0.0)
    out = pd.DataFrame(parts).assign(sp=frame["sp"].to_numpy(), g=frame["g"].to_numpy())
    return out.groupby(["sp", "g"], sort=False, dropna=False).sum().reset_index()


def _cost_table(
    frame: pd.DataFrame, i: int, names: list, shown: list, prices: dict, cut: dict, weighted: bool
) -> pd.DataFrame:
    """One cutoff set's rows of group_costs, computed exactly as costlib.binary.costs.group_costs does."""
    f = frame.set_index("g").loc[names] if len(names) else frame.iloc[:0]
    n = f["n"].to_numpy(dtype=np.float64)
    n_flag = f[f"flagged{i}"].to_numpy(dtype=np.float64).copy()
    fp = f[f"fp{i}"].to_numpy(dtype=np.float64).copy()
    fn = f[f"fn{i}"].to_numpy(dtype=np.float64).copy()
    t = np.array([cut[g] for g in shown], dtype=np.float64)
    nan_rows = np.isnan(t)
    fp[nan_rows] = np.nan
    fn[nan_rows] = np.nan
    n_flag[nan_rows] = np.nan
    c_fp = np.array([prices[g][0] for g in shown])
    c_fn = np.array([prices[g][1] for g in shown])
    return pd.DataFrame(
        {
            "group": list(shown),
            "n": n if weighted else n.astype(np.int64),
            "threshold": t,
            "flagged_rate": v.safe_divide(n_flag, n),
            "fp": fp,
            "fn": fn,
            "cost_per_100": 100 * v.safe_divide(fp * c_fp + fn * c_fn, n),
        },
        columns=GROUP_COST_COLUMNS,
    )


def _cutoff_values(thresholds, shown: list) -> dict:
    if not isinstance(thresholds, Mapping):
        if len(shown) == 1 and shown[0] is None:
            thresholds = {None: thresholds}
        else:
            raise ValueError(f"thresholds must map each group to a value: got {type(thresholds).__name__}")
    missing = [g for g in shown if g not in thresholds]
    if missing:
        raise ValueError(v.MSG_MISSING_GROUP.format(name="thresholds", group=missing[0], present=list(shown)))
    out = {}
    for g in shown:
        try:
            out[g] = float(thresholds[g])
        except (TypeError, ValueError):
            raise ValueError(f"thresholds[{g!r}] must be a number: got {thresholds[g]!r}") from None
        if np.isnan(out[g]):
            v.warn_degenerate(f"the cutoff for group {g!r} is NaN: its row is NaN")
    return out


def scan_group_costs(source, *, label, score, group, costs, thresholds, weight=None, engine="duckdb") -> pd.DataFrame:
    """Cost per 100 cases per group at given cutoffs, computed where the rows live (one pass).

    Returns what :func:`costlib.group_costs` returns on the same rows: one row per group
    (sorted) with columns ``group, n, threshold, flagged_rate, fp, fn, cost_per_100``;
    ``cost_per_100 = 100 * (fp * c_fp + fn * c_fn) / n``. `thresholds` maps each group to
    its cutoff (flag iff score >= it; ``inf`` flags nobody). With ``group=None`` the one
    group is ``None`` and `thresholds` may be a single number.

    Parameters
    ----------
    source : str, path, list of paths, pandas.DataFrame, pyarrow.Table or pyspark DataFrame
        A Parquet or CSV path or glob, a DuckDB query (Spark SQL with ``engine="spark"``),
        an in-memory table, or a Spark DataFrame (with ``engine="spark"``).
    label, score : str
        Column names: the binary label (0/1 or true/false) and the score (any finite number).
    group : str or None
        Column name of the group; None treats all rows as one group, named ``None``.
    costs : (c_fp, c_fn) or mapping
        Prices for everyone, or a mapping from each group to its ``(c_fp, c_fn)``.
    thresholds : mapping or float
        ``{group: cutoff}`` with an entry for every group in the rows; a single number when
        `group` is None.
    weight : str, optional
        Column name of non-negative case weights; None weighs every row 1.
    engine : {"duckdb", "spark"}, default="duckdb"

    Returns
    -------
    pandas.DataFrame
        Columns ``group, n, threshold, flagged_rate, fp, fn, cost_per_100``, one row per group
        in sorted order; ``n`` is an int count without weights and the total weight with them.

    Raises
    ------
    ValueError
        Illegal arguments (a role that is not a column name, two roles naming one column,
        `costs` neither a pair nor a mapping, a missing group or a price that is not a finite
        number in [0, 1e100], `thresholds` not a mapping, lacking a group or holding a cutoff
        that is not a number); :class:`costlib.core.errors.DataError` (a ValueError) for a
        missing column, a column of the wrong type, labels that are not binary, missing or
        non-finite scores, negative or non-finite weights or missing groups, with a sentence
        naming the column.

    Warns
    -----
    DegenerateWarning
        When a group's cutoff is NaN; its row is then NaN.

    Examples
    --------
    >>> q = "SELECT * FROM (VALUES (0, 0.1, 'a'), (1, 0.8, 'a'), (1, 0.3, 'b'), (0, 0.6, 'b')) t(y, p, g)"
    >>> t = scan_group_costs(q, label="y", score="p", group="g", costs=(1, 2), thresholds={"a": 0.5, "b": 0.5})
    >>> t["group"].tolist(), t["fp"].tolist(), t["fn"].tolist(), t["cost_per_100"].tolist()
    (['a', 'b'], [0.0, 1.0], [0.0, 1.0], [0.0, 150.0])
    """
    _check_costs_arg(costs)
    roles = _Roles(label=label, score=score, group=group, weight=weight)

    def body(scan):
        wanted = list(thresholds) if isinstance(thresholds, Mapping) else [None]
        keys, orig = _typed_keys(wanted, scan.group_kind)
        cut_in = thresholds if isinstance(thresholds, Mapping) else {None: thresholds}

        def as_float(x):
            try:
                return float(x)
            except (TypeError, ValueError):
                return np.nan

        frame = _judge(scan, [[as_float(cut_in[k]) for k in orig]], pa.array(keys, type=_key_type(scan.group_kind)))
        _validate(scan, frame)
        data_names = _group_order(frame["g"].tolist())
        shown = [_name(scan, g) for g in data_names]
        prices = _price_pairs(costs, shown)
        cut = _cutoff_values(thresholds, shown)
        return _cost_table(frame, 0, data_names, shown, prices, cut, scan.weighted)

    return _run(source, engine, roles, body)


def scan_compare_rules(
    source, *, label, score, costs, group=None, split=None, weight=None, engine="duckdb"
) -> pd.DataFrame:
    """The rules table of :func:`costlib.compare_rules`, fitted on the train rows and judged on the test rows.

    `split` names the column saying which rows are train and test (the split names the
    Data page accepts: train/training/fit, validation/val/..., test/testing/holdout/eval;
    validation rows are not used). Without it the rules are fitted and judged on the same
    rows, which flatters the cost-optimal rule. One row per (rule, group), rules in the
    order ``threshold 0.5, elkan, cost-optimal, flag nobody``; columns
    ``rule, group, threshold, flagged_rate, cost_per_100``. Equal to
    ``compare_rules((y_train, s_train, g_train), (y_test, s_test, g_test), costs=costs)``
    on the same rows (with weights: the per-group rows of :func:`costlib.binary.costs.rules_table`).

    Parameters
    ----------
    source : str, path, list of paths, pandas.DataFrame, pyarrow.Table or pyspark DataFrame
        A Parquet or CSV path or glob, a DuckDB query (Spark SQL with ``engine="spark"``),
        an in-memory table, or a Spark DataFrame (with ``engine="spark"``).
    label, score : str
        Column names: the binary label (0/1 or true/false) and the score (any finite number).
    costs : (c_fp, c_fn) or mapping
        Prices for everyone, or a mapping from each group to its ``(c_fp, c_fn)``.
    group : str, optional
        Column name of the group; None treats all rows as one group, named ``None``.
    split : str, optional
        Column name of the split (train / validation / test); None fits and judges on all rows.
    weight : str, optional
        Column name of non-negative case weights; None weighs every row 1.
    engine : {"duckdb", "spark"}, default="duckdb"

    Returns
    -------
    pandas.DataFrame
        Columns ``rule, group, threshold, flagged_rate, cost_per_100``, one row per (rule,
        group) of the test rows, costs judged on the test rows.

    Raises
    ------
    ValueError
        Illegal arguments (a role that is not a column name, two roles naming one column,
        `costs` neither a pair nor a mapping, a missing group or a price that is not a finite
        number in [0, 1e100]); :class:`costlib.core.errors.DataError` (a ValueError) for a
        missing column, a column of the wrong type, labels that are not binary, missing or
        non-finite scores, negative or non-finite weights, missing groups, split values that
        are not split names, or no train or no test rows, with a sentence naming the column.

    Warns
    -----
    DegenerateWarning
        When a test group has no train rows or one class only in them (its cost-optimal
        cutoff is NaN), or both of a group's prices are 0 (its Elkan cutoff is NaN).

    Examples
    --------
    >>> q = ("SELECT * FROM (VALUES (0, 0.3, 'a', 'train'), (1, 0.6, 'a', 'train'), (0, 0.2, 'b', 'train'), "
    ...      "(1, 0.7, 'b', 'train'), (0, 0.4, 'a', 'test'), (1, 0.5, 'a', 'test'), (1, 0.9, 'b', 'test'), "
    ...      "(0, 0.8, 'b', 'test')) t(y, p, g, s)")
    >>> scan_compare_rules(q, label="y", score="p", group="g", split="s", costs=(1, 3))
                rule group  threshold  flagged_rate  cost_per_100
    0  threshold 0.5     a       0.50           0.5           0.0
    1  threshold 0.5     b       0.50           1.0          50.0
    2          elkan     a       0.25           1.0          50.0
    3          elkan     b       0.25           1.0          50.0
    4   cost-optimal     a       0.60           0.0         150.0
    5   cost-optimal     b       0.70           1.0          50.0
    6    flag nobody     a        inf           0.0         150.0
    7    flag nobody     b        inf           0.0         150.0
    """
    _check_costs_arg(costs)
    roles = _Roles(label=label, score=score, group=group, weight=weight, split=split)

    def body(scan):
        train, test = ("train", "test") if split else ("", "")
        p1 = _Pass1.run(scan)
        units = p1.units
        for role in dict.fromkeys((train, test)):
            if role not in units.sp:
                raise DataError(MSG_NO_SPLIT_ROWS.format(source=scan.source, column=split, role=role))
        test_units = p1.units_of(test)
        test_names = _group_order([units.g[u] for u in test_units])
        found, train_names = _fit(scan, p1, costs, train)
        shown_test = [_name(scan, g) for g in test_names]
        optimal = {_name(scan, g): found[g][0] for g in train_names}
        pairs = _price_pairs(costs, shown_test)
        cutoffs = rule_cutoffs(shown_test, costs=_as_mapping(pairs), optimal=optimal)
        by_name = {units.g[u]: u for u in test_units}
        keys = units.keys.column("g").take(pa.array([by_name[g] for g in test_names], type=pa.int64()))
        sets = [[float(cutoffs[r][_name(scan, g)]) for g in test_names] for r in RULES]
        where = f"WHERE r.sp = {SPLIT_CODE[test]}"
        judged = _judge(scan, sets, keys, where)
        frames = []
        for i, rule in enumerate(RULES):
            table = _cost_table(judged, i, test_names, shown_test, pairs, cutoffs[rule], scan.weighted)
            table.insert(0, "rule", rule)
            frames.append(table[RULE_COLUMNS])
        return pd.concat(frames, ignore_index=True)

    return _run(source, engine, roles, body)


def _as_mapping(pairs: dict) -> dict:
    return {g: tuple(p) for g, p in pairs.items()}


# --------------------------------------------------------------------------------------
# Sufficient statistics and the grouped sweep
# --------------------------------------------------------------------------------------


def _is_sorted(*keys: np.ndarray) -> bool:
    """Whether rows are in ascending lexicographic order of `keys` (most significant first)."""
    if keys[0].size < 2:
        return True
    undecided = np.ones(keys[0].size - 1, dtype=bool)
    for k in keys:
        d = np.diff(k)
        if (undecided & (d < 0)).any():
            return False
        undecided &= d == 0
    return True


@dataclass(frozen=True, eq=False)
class ScoreStats:
    """Counts and weights per (split, group, score) or per fine bin, as sorted numpy arrays.

    Row i belongs to split ``splits[split[i]]`` (``""`` without a split column) and group
    ``groups[group[i]]`` (``None`` without a group column); rows are sorted by split (train,
    validation, test), group (in :func:`costlib.grouped_sweep`'s order) and descending score.
    With weights, a score whose rows all weigh 0 keeps its row (its counts) but is not a
    threshold of the sweeps, as in memory.

    With ``bits is None`` every score is a distinct score of the rows (the sweeps are
    exact). Otherwise each row is one fine bin (``bits`` mantissa bits per binade) and
    ``score`` is the lowest score in it: every threshold is exact, the thresholds strictly
    inside a bin are missing, and ``largest_bin_rows`` / ``largest_bin_weight`` bound how
    far FP and FN at a missing cutoff are from those at the nearest kept one.
    """

    splits: tuple
    groups: tuple
    split: np.ndarray
    group: np.ndarray
    score: np.ndarray
    pos_rows: np.ndarray
    neg_rows: np.ndarray
    pos_weight: np.ndarray
    neg_weight: np.ndarray
    weighted: bool
    rows: int
    bits: int | None = None
    largest_bin_rows: int = 1
    largest_bin_weight: float = 0.0

    @classmethod
    def build(
        cls,
        *,
        splits,
        split,
        groups,
        group,
        score,
        pos_rows,
        neg_rows,
        pos_weight,
        neg_weight,
        weighted: bool,
        rows: int,
        **bound,
    ) -> ScoreStats:
        """Canonical form: unused names dropped, rows sorted."""
        split = np.asarray(split, dtype=np.int64)
        group = np.asarray(group, dtype=np.int64)
        score = np.asarray(score, dtype=np.float64) + 0.0  # -0.0 and 0.0 are one threshold, shown as 0.0
        pos_rows, neg_rows = np.asarray(pos_rows, dtype=np.int64), np.asarray(neg_rows, dtype=np.int64)
        pos_weight, neg_weight = np.asarray(pos_weight, dtype=np.float64), np.asarray(neg_weight, dtype=np.float64)
        # splits in the order train, validation, test
        perm = sorted(range(len(splits)), key=lambda i: SPLIT_CODE[splits[i]])
        inv = np.empty(len(splits), dtype=np.int64)
        inv[perm] = np.arange(len(splits))
        split = inv[split] if len(splits) else split
        splits = tuple(splits[i] for i in perm)
        desc = -score
        if not _is_sorted(split, group, desc):
            order = np.lexsort((desc, group, split))
            split, group, score = split[order], group[order], score[order]
            pos_rows, neg_rows, pos_weight, neg_weight = (
                a[order] for a in (pos_rows, neg_rows, pos_weight, neg_weight)
            )
        used_s = np.flatnonzero(np.bincount(split, minlength=len(splits)))
        used_g = np.flatnonzero(np.bincount(group, minlength=len(groups)))
        remap_s = np.zeros(len(splits), dtype=np.int32)
        remap_s[used_s] = np.arange(used_s.size)
        remap_g = np.zeros(len(groups), dtype=np.int32)
        remap_g[used_g] = np.arange(used_g.size)
        return cls(
            splits=tuple(splits[i] for i in used_s),
            groups=tuple(groups[i] for i in used_g),
            split=remap_s[split] if len(splits) else split.astype(np.int32),
            group=remap_g[group] if len(groups) else group.astype(np.int32),
            score=score,
            pos_rows=pos_rows,
            neg_rows=neg_rows,
            pos_weight=pos_weight,
            neg_weight=neg_weight,
            weighted=weighted,
            rows=rows,
            **bound,
        )

    def __len__(self) -> int:
        return int(self.score.size)

    def frame(self) -> pd.DataFrame:
        """The statistics as a DataFrame (split and group as categoricals)."""
        return pd.DataFrame(
            {
                "split": pd.Categorical.from_codes(self.split, categories=pd.Index(list(self.splits), dtype=object)),
                "group": pd.Categorical.from_codes(self.group, categories=pd.Index(list(self.groups), dtype=object))
                if self.groups != (None,)
                else pd.Series([None] * len(self), dtype=object),
                "score": self.score,
                "pos_rows": self.pos_rows,
                "neg_rows": self.neg_rows,
                "pos_weight": self.pos_weight,
                "neg_weight": self.neg_weight,
            }
        )

    def bound_statement(self) -> str | None:
        """None when exact; else, in words, how far a cutoff inside a bin can be from the counts."""
        if self.bits is None:
            return None
        rows, weight = self.largest_bin_rows, self.largest_bin_weight
        what = f"{weight:.17g} in weight ({rows:,} rows)" if self.weighted else f"{rows:,} rows"
        return (
            f"Scores were pooled into {2**self.bits:,} bins per binade ({self.bits} mantissa bits); each threshold is "
            "the lowest score of its bin, and the counts at every threshold are exact. Cutoffs strictly inside a bin "
            f"are missing: their FP and FN differ from those at the nearest threshold by at most one bin, here at "
            f"most {what}, so their cost differs by at most max(c_fp, c_fn) times that."
        )

    def sweeps(self) -> dict:
        """``{split name: GroupedSweep}`` (``""`` without a split column), exactly as the kernel builds them.

        Each group's thresholds are ``+inf`` and then its scores in descending order; tp and fp
        the cumulative positive and negative weight (counts without weights).
        """
        pos = self.pos_weight if self.weighted else self.pos_rows.astype(np.float64)
        neg = self.neg_weight if self.weighted else self.neg_rows.astype(np.float64)
        unit = self.split.astype(np.int64) * max(1, len(self.groups)) + self.group
        starts = np.concatenate(([0], np.flatnonzero(np.diff(unit)) + 1, [unit.size]))
        out: dict = {}
        parts: dict = {}
        for a, b in zip(starts[:-1], starts[1:], strict=True):
            sp, g = int(self.split[a]), int(self.group[a])
            s = self.score[a:b]
            real = (pos[a:b] + neg[a:b]) > 0  # with weights, rows that all weigh 0 are not thresholds
            parts.setdefault(sp, []).append(
                (
                    self.groups[g],
                    np.concatenate(([np.inf], s[real])),
                    np.concatenate(([0.0], np.cumsum(pos[a:b][real]))),
                    np.concatenate(([0.0], np.cumsum(neg[a:b][real]))),
                )
            )
        for sp, items in parts.items():
            sizes = [th.size for _, th, _, _ in items]
            out[self.splits[sp]] = GroupedSweep(
                groups=tuple(g for g, *_ in items),
                offsets=np.concatenate(([0], np.cumsum(sizes))).astype(np.int64),
                thresholds=np.concatenate([th for _, th, _, _ in items]),
                tp=np.concatenate([tp for _, _, tp, _ in items]),
                fp=np.concatenate([fp for _, _, _, fp in items]),
                positives=np.array([tp[-1] for _, _, tp, _ in items]),
                negatives=np.array([fp[-1] for _, _, _, fp in items]),
            )
        return out


def score_stats(
    source, *, label, score, group=None, weight=None, split=None, engine="duckdb", max_thresholds: int | None = None
) -> ScoreStats:
    """The sufficient statistics of the sweeps: counts per (split, group, score), or per fine bin.

    Distinct scores when there are at most about `max_thresholds` of them (None: always);
    else the finest bins (32, 24, 16 or 8 mantissa bits) whose count is estimated to fit.
    """
    roles = _Roles(label=label, score=score, group=group, weight=weight, split=split)
    if max_thresholds is not None and (
        isinstance(max_thresholds, bool) or not isinstance(max_thresholds, int) or max_thresholds < 1
    ):
        raise ValueError(f"max_thresholds must be a positive whole number or None: got {max_thresholds!r}")
    return _run(source, engine, roles, lambda scan: _score_stats(scan, max_thresholds))


def _stats_query(scan: _Scan, bits: int | None) -> pa.Table:
    """Counts (and weights) per (split, group, score) or per bin; the rows were validated before."""
    keys = [k for k, role in (("sp", scan.roles.split), ("g", scan.roles.group)) if role]
    cols = "COUNT(CASE WHEN y = 1 THEN 1 END) AS pos_rows, COUNT(CASE WHEN y = 0 THEN 1 END) AS neg_rows"
    if scan.weighted:
        cols += (
            ", SUM(CASE WHEN y = 1 THEN w ELSE 0e0 END) AS pos_weight, "
            "SUM(CASE WHEN y = 0 THEN w ELSE 0e0 END) AS neg_weight"
        )
    if bits is None:
        group_by = ", ".join(keys + ["s"])
        return scan.eng.sql_arrow(f"SELECT {', '.join(keys + ['s'])}, {cols} FROM {scan.rows} GROUP BY {group_by}")
    group_by = ", ".join(keys + ["b"])
    lowest = "COALESCE(MIN(CASE WHEN w > 0 THEN s END), MIN(s)) AS s, MAX(CASE WHEN w > 0 THEN s END) AS s_max"
    return scan.eng.sql_arrow(
        f"SELECT {', '.join(keys + [lowest])}, {cols} FROM (SELECT sp, g, y, s, w, {bin_sql('s', bits)} AS b "
        f"FROM {scan.rows}) AS t GROUP BY {group_by}"
    )


def _column(tab: pa.Table, name: str, dtype, default=0) -> np.ndarray:
    if name in tab.column_names:
        return np.asarray(tab.column(name).to_numpy(zero_copy_only=False), dtype=dtype)
    return np.full(tab.num_rows, default, dtype=dtype)


def _score_stats(scan: _Scan, max_thresholds: int | None) -> ScoreStats:
    frame = scan.eng.sql(
        f"SELECT sp, g, COUNT(*) AS n_rows, approx_count_distinct(s) AS d, {_checks(scan.weighted)} "
        f"FROM {scan.rows} GROUP BY sp, g"
    )
    _validate(scan, frame)  # one cheap pass checks every row and estimates the distinct scores
    rows = int(frame["n_rows"].sum())
    bits = None
    if max_thresholds is not None and frame["d"].sum() > 1.1 * max_thresholds:  # HLL: within a few percent
        bits = _fitting_bits(scan, max_thresholds)
    tab = _stats_query(scan, bits)
    if bits is None and max_thresholds is not None and tab.num_rows > max_thresholds:
        bits = _fitting_bits(scan, max_thresholds)
        tab = _stats_query(scan, bits)
    pos_rows, neg_rows = _column(tab, "pos_rows", np.int64), _column(tab, "neg_rows", np.int64)
    if scan.weighted:
        pos_w, neg_w = _column(tab, "pos_weight", np.float64), _column(tab, "neg_weight", np.float64)
    else:
        pos_w, neg_w = pos_rows.astype(np.float64), neg_rows.astype(np.float64)
    bound = {}
    if bits is not None:
        pooled = _column(tab, "s", np.float64) < _column(tab, "s_max", np.float64)  # > 1 distinct score in the bin
        if pooled.any():
            weight = (pos_w + neg_w)[pooled]
            bound = {
                "bits": bits,
                "largest_bin_rows": int((pos_rows + neg_rows)[pooled].max()),
                "largest_bin_weight": float(weight.max()),
            }
    codes = _column(tab, "sp", np.int64)
    present = np.unique(codes)
    split_idx = np.searchsorted(present, codes)
    if scan.roles.group:
        g_codes, names = pd.factorize(tab.column("g").to_pandas(), sort=True, use_na_sentinel=False)
        groups = tuple(names.tolist())
    else:
        g_codes, groups = np.zeros(tab.num_rows, dtype=np.int64), (None,)
    return ScoreStats.build(
        splits=tuple(SPLIT_NAME[int(c)] for c in present),
        split=split_idx,
        groups=groups,
        group=g_codes,
        score=_column(tab, "s", np.float64),
        pos_rows=pos_rows,
        neg_rows=neg_rows,
        pos_weight=pos_w,
        neg_weight=neg_w,
        weighted=scan.weighted,
        rows=rows,
        **bound,
    )


def _fitting_bits(scan: _Scan, max_thresholds: int) -> int:
    """The finest bin level whose (estimated) number of non-empty bins fits `max_thresholds`."""
    levels = list(reversed(LEVELS))
    estimates = ", ".join(f"approx_count_distinct({bin_sql('s', b)}) AS d{b}" for b in levels)
    frame = scan.eng.sql(f"SELECT sp, g, {estimates} FROM {scan.rows} GROUP BY sp, g")
    fits = [b for b in levels if frame[f"d{b}"].sum() <= max_thresholds]
    return fits[0] if fits else LEVELS[0]


def scan_grouped_sweep(source, *, label, score, group=None, weight=None, split=None, engine="duckdb"):
    """Every group's exact sweep, computed where the rows live (one pass, grouped by score).

    Returns a :class:`costlib.core.sweep.GroupedSweep` equal (thresholds and counts) to
    ``grouped_sweep(y, s, g, sample_weight=w)`` on the same rows; without `group` its one
    group is ``None``. With `split`, a dict from each split present (``"train"``,
    ``"validation"``, ``"test"``, in that order) to the GroupedSweep of its rows. Memory
    grows with the number of distinct scores (that is the size of the answer), not rows.

    Parameters
    ----------
    source : str, path, list of paths, pandas.DataFrame, pyarrow.Table or pyspark DataFrame
        A Parquet or CSV path or glob, a DuckDB query (Spark SQL with ``engine="spark"``),
        an in-memory table, or a Spark DataFrame (with ``engine="spark"``).
    label, score : str
        Column names: the binary label (0/1 or true/false) and the score (any finite number).
    group : str, optional
        Column name of the group; None treats all rows as one group, named ``None``.
    weight : str, optional
        Column name of non-negative case weights; None weighs every row 1.
    split : str, optional
        Column name of the split (train / validation / test); None sweeps all rows together.
    engine : {"duckdb", "spark"}, default="duckdb"

    Returns
    -------
    GroupedSweep or dict
        Without `split`, the GroupedSweep of all rows; with it, ``{split: GroupedSweep}``
        for each split present.

    Raises
    ------
    ValueError
        Illegal arguments (a role that is not a column name, two roles naming one column);
        :class:`costlib.core.errors.DataError` (a ValueError) for a missing column, a column of
        the wrong type, labels that are not binary, missing or non-finite scores, negative or
        non-finite weights, missing groups or split values that are not split names, with a
        sentence naming the column.

    Warns
    -----
    DegenerateWarning
        When there are no rows (without `split`); the sweep is then empty.

    Examples
    --------
    >>> q = "SELECT * FROM (VALUES (0, 0.2, 'a'), (1, 0.2, 'a'), (1, 0.9, 'a'), (0, 0.5, 'b')) t(y, p, g)"
    >>> gs = scan_grouped_sweep(q, label="y", score="p", group="g")
    >>> gs.groups, gs["a"].thresholds.tolist(), gs["a"].tp.tolist(), gs["a"].fp.tolist()
    (('a', 'b'), [inf, 0.9, 0.2], [0.0, 1.0, 2.0], [0.0, 0.0, 1.0])
    >>> q = "SELECT * FROM (VALUES (0, 0.2, 'train'), (1, 0.7, 'train'), (1, 0.9, 'test')) t(y, p, s)"
    >>> {k: gs[None].thresholds.tolist() for k, gs in scan_grouped_sweep(q, label="y", score="p", split="s").items()}
    {'train': [inf, 0.7, 0.2], 'test': [inf, 0.9]}
    """
    stats = score_stats(source, label=label, score=score, group=group, weight=weight, split=split, engine=engine)
    sweeps = stats.sweeps()
    if split is None:
        return sweeps[""] if "" in sweeps else _empty_sweep()
    return sweeps


def _empty_sweep() -> GroupedSweep:
    v.warn_degenerate("no cases: every group's sweep is empty")
    empty = np.zeros(0)
    return GroupedSweep((), np.zeros(1, dtype=np.int64), empty, empty, empty, empty, empty)


__all__ = [
    "LEVELS",
    "ROW_LIMIT",
    "ScoreStats",
    "bin_numpy",
    "bin_sql",
    "prune",
    "scan_compare_rules",
    "scan_group_costs",
    "scan_grouped_sweep",
    "scan_optimal_thresholds",
    "score_stats",
]
