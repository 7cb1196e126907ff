"""The bins of the scores: a monotone, exact function of the float, in SQL and in numpy.

The bin of a score is its binary exponent and the first ``bits`` bits of its mantissa
(:func:`bin_sql`), computed exactly in SQL, identical in every pass and engine; numpy computes
the same bins from the float's exact parts (:func:`bin_numpy`). The bins of a level are exact
unions of the bins of any finer level (:func:`bin_parent`), so the cost search of
:mod:`costlib.scale.refining` can split the surviving bins of one pass into finer bins in the
next, and order bins of different levels by score without float edges (:func:`bin_top`).
"""

from __future__ import annotations

import numpy as np

from costlib.scale.engines import MAX_DOUBLE, sql_double

LEVELS = (8, 16, 24, 32)  # mantissa bits of the bins in each round (2**32 bins per binade at most)
_OFFSET = 1100 - 1023  # a bin's exponent offset minus the IEEE 754 exponent bias
_MIN_NORMAL = 2.2250738585072014e-308  # 2**-1022: the smallest double whose bits hold its exponent


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


def bin_sql(column: str, bits: int, *, a: str | None = None, e: str | None = None, raw: str | None = None) -> str:
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

    `raw` is the engine's SQL for a double's IEEE 754 bits as a BIGINT, with ``{}`` for the
    double (`engines.DuckDBEngine.float_bits`; Spark has none). With it, a normal positive
    score's bin is read from its bits, with no logarithm: the bits of ``2**e * (1 + f)`` are
    ``(e + 1023) * 2**52 + f * 2**52``, so shifting them right by ``52 - bits`` gives
    ``(e + 1023) * 2**bits + floor(f * 2**bits)``, the bin above minus ``77 * 2**bits``. The
    same integers, by a shift and an addition, exact; only subnormal scores (below
    ``2**-1022``), whose bits hold no exponent, take the logarithm. `raw` without ``{}`` names a
    column that already holds the bits of `a` (:func:`binned` casts them once per row).

    >>> bin_sql("s", 8)[:21]
    'CASE WHEN s > 0 THEN '
    """
    k = 1 << bits
    a = a or f"ABS({column})"
    e = e or exponent_sql(a)
    positive = f"CAST(({e} + 1100) * {k} + FLOOR(({a} / {_pow2_sql(e)} - 1e0) * {k}) AS BIGINT)"
    if raw is not None:
        from_bits = f"(({raw.format(a)} >> {52 - bits}) + {_OFFSET << bits})"
        positive = f"(CASE WHEN {a} >= {_MIN_NORMAL!r} THEN {from_bits} ELSE {positive} END)"
    return f"CASE WHEN {column} > 0 THEN {positive} WHEN {column} < 0 THEN -{positive} - 1 WHEN {column} = 0 THEN 0 END"


NEAR_LOW = -16  # the lowest binade of `near_bin_sql`: [2**-16, 2**-15)
NEAR_HIGH = 0  # its highest: [1, 2), so that probabilities of exactly 1 are in it


def near_bin_sql(column: str, bits: int, *, cast: str = "USMALLINT") -> str:
    """SQL for a small code of the bin of each score in [2**-16, 2) or 0, by comparisons only.

    The bin of a score x in the binade [2**e, 2**(e+1)) is
    ``(e + 1100) * 2**bits + floor(x * 2**(bits - e)) - 2**bits`` (:func:`bin_sql`; the product
    by a power of two is exact), so a chain of ``x >= 2**e`` tests from the top binade down
    finds it with one multiplication, no logarithm and no cast to the float's bits. The code
    is a USMALLINT, small enough for DuckDB to count by (group, label, code) in a table
    indexed by the keys themselves (its perfect hash aggregate) rather than by hashing: 1 for
    zero, ``bin - bin(2**-16) + 2`` in the range, 0 below it (negative, tiny, missing) and the
    largest code at 2 or more (infinite and NaN scores too, which DuckDB sorts above every
    number). Scores coded 0 or largest have no bin here: :func:`near_bins` says so and the
    caller counts them by :func:`bin_sql` instead. `bits` is at most 11 (17 binades of
    ``2**bits`` bins fit 16 bits). `cast` is the codes' SQL type (`engines.DuckDBEngine.code_type`):
    Spark has no unsigned types and takes INT; it has no perfect hash aggregate either, but its
    compiled comparisons still cost less than the logarithm of :func:`bin_sql`.

    >>> near_bin_sql("s", 8)[:53]
    'CAST(LEAST(GREATEST(CASE WHEN s >= (2.0e0) THEN 4354 '
    """
    k = 1 << bits
    base = (NEAR_LOW + 1100) * k
    whens = [f"WHEN {column} >= {sql_double(2.0 ** (NEAR_HIGH + 1))} THEN {near_top(bits)}"]
    for e in range(NEAR_HIGH, NEAR_LOW - 1, -1):
        offset = (e + 1100) * k - k - base + 2
        whens.append(
            f"WHEN {column} >= {sql_double(2.0**e)} THEN "
            f"CAST(FLOOR({column} * {sql_double(2.0 ** (bits - e))}) AS INTEGER) + {offset}"
        )
    whens.append(f"WHEN {column} = 0 THEN 1")
    # LEAST and GREATEST change no code: they tell DuckDB's statistics the codes' range (13 bits)
    return f"CAST(LEAST(GREATEST(CASE {' '.join(whens)} ELSE 0 END, 0), {near_top(bits)}) AS {cast})"


def near_top(bits: int) -> int:
    """The largest code of :func:`near_bin_sql` (scores of 2 or more, infinite or NaN)."""
    return ((NEAR_HIGH - NEAR_LOW + 1) << bits) + 2


def near_bins(code, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """(bins, known): the :func:`bin_sql` bin of each code of :func:`near_bin_sql`, and
    whether the code has one (False for codes 0 and :func:`near_top`)."""
    code = np.asarray(code, dtype=np.int64)
    known = (code > 0) & (code < near_top(bits))
    bins = np.where(code == 1, 0, code - 2 + ((NEAR_LOW + 1100) << bits))
    return np.where(known, bins, 0), known


def binned(inner: str, columns: list[str], bins: dict[str, int], *, guard: bool = False, raw: str | None = None) -> str:
    """A subquery with `columns` of the query `inner` (which must include ``s``) and one bin column
    per entry of `bins` (name -> bits), the exponent computed once per row. With `guard`, the
    bins of missing, NaN and infinite scores are NULL (so that they can be counted and refused).
    With `raw` (the engine's SQL for a double's bits, see :func:`bin_sql`), the bins are read
    from the scores' bits, cast once per row whatever the number of bins (the cast, not the
    shift, is what costs), and no exponent is computed but a subnormal score's.
    """
    cols = ", ".join(columns)
    a = f"CASE WHEN ABS(s) <= {MAX_DOUBLE} THEN ABS(s) END" if guard else "ABS(s)"
    if raw is not None:
        exprs = ", ".join(f"{bin_sql('s', bits, a='a', raw='r')} AS {name}" for name, bits in bins.items())
        return (
            f"(SELECT {cols}, {exprs} FROM (SELECT {cols}, a, {raw.format('a')} AS r FROM "
            f"(SELECT {cols}, {a} AS a FROM ({inner}) AS t0) AS t1) AS t2)"
        )
    exprs = ", ".join(f"{bin_sql('s', bits, a='a', e='e')} AS {name}" for name, bits in bins.items())
    return (
        f"(SELECT {cols}, {exprs} FROM (SELECT {cols}, a, {exponent_sql('a')} AS e FROM "
        f"(SELECT {cols}, {a} AS a FROM ({inner}) AS t0) AS t1) AS t2)"
    )


def bin_numpy(scores, bits: int) -> np.ndarray:
    """The same bins as :func:`bin_sql`, computed in numpy: a normal score's from its IEEE 754
    bits (a shift and an addition, as :func:`bin_sql` with `raw`), a subnormal's from its exact
    parts (``np.frexp``).

    >>> bin_numpy([0.75, -0.75, 0.0, 5e-324], 8).tolist()
    [281472, -281473, 0, 6656]
    """
    s = np.asarray(scores, dtype=np.float64)
    a = np.abs(s)
    pos = (a.view(np.int64) >> (52 - bits)) + (_OFFSET << bits)
    tiny = (a < _MIN_NORMAL) & (a > 0)
    if tiny.any():  # subnormal: no exponent in the bits
        mant, exp = np.frexp(a[tiny])  # |s| = mant * 2**exp with 0.5 <= mant < 1
        k = 1 << bits
        pos[tiny] = (exp.astype(np.int64) - 1 + 1100) * k + np.floor((2 * mant - 1) * k).astype(np.int64)
    return np.where(s > 0, pos, np.where(s < 0, -pos - 1, 0))


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


__all__ = [
    "LEVELS",
    "bin_edges",
    "bin_numpy",
    "bin_parent",
    "bin_range",
    "bin_sql",
    "bin_top",
    "binned",
    "exponent_sql",
    "near_bin_sql",
    "near_bins",
    "near_top",
]
