"""Find my prices: from a few "which is worse?" answers to a range of cost ratios, and
whether the decision depends on where in that range the truth lies.

Only the ratio r = c_fn / c_fp moves the cost-optimal cutoff. Over a range of ratios the
optimum is a short list of pieces, read off the sweep's hull (`costlib.core.sweep.Hull`):
going on from one vertex to the next pays once r exceeds the false positives per true
positive along that edge. `optimal_threshold` chooses by the same hull with the one tie rule
of `costlib.core.sweep.best_indices` (a false alarm priced a relative 1e-12 dearer, so a tie
goes to the larger cutoff), and the pieces' edges are exactly the ratios where that choice
moves on (``Hull.edges``): the two agree at every ratio, to the last bit. No grid.

The conversation brackets r by bisection on a log scale: "Which is worse: 1 missed case, or
N false alarms?" An answer halves the bracket (in log terms); "about the same" stops it.
After each answer the pieces over the bracket say whether more precision could change what
is shipped: one piece over the whole bracket, and the question stops.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from costlib.core import validation as v
from costlib.core.prices import mistakes_cost
from costlib.core.sweep import Sweep, group_codes, threshold_sweep

RANGE = (1e-3, 1e3)  # the ratios the questions can reach: 1:1000 to 1000:1
PRECISION = 1.5  # stop when the bracket's high / low is at most this
MISS, SAME, ALARM = "miss", "same", "alarm"  # the three answers: which is worse
PIECE_COLUMNS = ["ratio_low", "ratio_high", "threshold"]


# ---------------------------------------------------------------------------------------
# Exact pieces


def pieces(sweep: Sweep, ratio_low: float, ratio_high: float) -> pd.DataFrame:
    """`optimal_cutoffs_by_ratio` on a cached sweep (no rows are read)."""
    lo = v.as_price(ratio_low, "ratio_low")
    hi = v.as_price(ratio_high, "ratio_high")
    if not lo <= hi:
        raise ValueError(f"ratio_low must not exceed ratio_high: got {lo!r} and {hi!r}")
    if sweep.positives <= 0 or sweep.negatives <= 0:
        v.warn_degenerate("only one class present: no cutoff to fit at any ratio; NaN")
        return pd.DataFrame([[lo, hi, float("nan")]], columns=PIECE_COLUMNS)
    full = _line(sweep)
    # the pieces holding lo and hi: piece i holds (ratio_low_i, ratio_high_i], an edge
    # belongs to the piece below it (the first piece also holds its left end, 0)
    highs = full["ratio_high"].to_numpy()
    first, last = np.searchsorted(highs, [lo, hi], side="left")
    out = full.loc[first:last, PIECE_COLUMNS].reset_index(drop=True)
    out.loc[0, "ratio_low"] = lo
    out.loc[len(out) - 1, "ratio_high"] = hi
    return out


def _line(sweep: Sweep) -> pd.DataFrame:
    """Every piece over ratios [0, inf): one row per hull vertex that is chosen at some ratio.

    The choice at (c_fp=1, c_fn=r) is vertex k exactly for r in (edges[k - 1], edges[k]]
    (``Hull.edges``, the tie rule of `best_indices`), so these are the pieces, edge for edge.
    A vertex between two equal edges is never chosen and has no row.
    """
    hull = sweep.hull
    lows = np.concatenate(([-np.inf], hull.edges))
    highs = np.concatenate((hull.edges, [np.inf]))
    keep = highs > lows
    keep[: np.searchsorted(highs, 0.0, side="left")] = False  # pieces below ratio 0 (rounding)
    return pd.DataFrame(
        {
            "ratio_low": np.maximum(lows[keep], 0.0),
            "ratio_high": highs[keep],
            "threshold": sweep.thresholds[hull.vertices[keep]].astype(float),
            "vertex": hull.vertices[keep],
        }
    )


def optimal_cutoffs_by_ratio(
    y_true, y_score, *, ratio_low, ratio_high, sample_weight=None, groups=None
) -> pd.DataFrame:
    """The exact cost-optimal cutoffs for every ratio r = c_fn / c_fp in [ratio_low, ratio_high].

    One row per piece, sorted by ratio, covering the range without gaps: piece i covers
    (ratio_low_i, ratio_high_i] (the first also its left end), and for every r in it
    ``optimal_threshold(..., c_fp=1, c_fn=r)`` returns its ``threshold`` (``inf``: flag
    nobody), at every float r, edges included. An edge belongs to the piece below it: at the
    edge the larger threshold is still chosen. The ties are those of `optimal_threshold`: a
    false alarm is priced a relative 1e-12 dearer, so where two cutoffs cost exactly the same
    at r0 the edge sits at r0 * (1 + 1e-12), and a cutoff on a straight stretch between two
    pieces' cutoffs (tied with both only at r0) is never chosen. With `groups`, the same per
    group, with a leading ``group`` column.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_score : array-like of shape (n,)
        Finite real scores; flag iff score >= threshold.
    ratio_low : float
        Lowest ratio c_fn / c_fp of the range; finite, >= 0.
    ratio_high : float
        Highest ratio of the range; finite, >= `ratio_low`.
    sample_weight : array-like of shape (n,), optional
        Non-negative finite case weights; None weighs every case 1.
    groups : array-like of shape (n,), optional
        Group of each case; None treats all rows as one group.

    Returns
    -------
    pandas.DataFrame
        Columns ``ratio_low, ratio_high, threshold`` (with `groups`: ``group`` first, groups
        in sorted order), one row per piece. A group with one class only gets a single row
        over the whole range with threshold NaN.

    Raises
    ------
    ValueError
        If `y_true` is not 1-D and binary, `y_score` is not 1-D, numeric and finite,
        `groups` is not 1-D, the lengths differ, `sample_weight` is negative or not finite,
        a ratio is not a finite number in [0, 1e100], or `ratio_low` exceeds `ratio_high`.

    Warns
    -----
    DegenerateWarning
        When the rows (or a group's rows) hold one class only: no cutoff to fit, NaN.

    Examples
    --------
    >>> table = optimal_cutoffs_by_ratio([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9],
    ...                                  ratio_low=0.1, ratio_high=10)
    >>> table
       ratio_low  ratio_high  threshold
    0        0.1         2.0       0.80
    1        2.0        10.0       0.35
    >>> float(table["ratio_high"].iloc[0])  # 0.8 and 0.35 tie at r = 2: the tie goes to 0.8
    2.000000000002
    """
    if groups is None:
        return pieces(threshold_sweep(y_true, y_score, sample_weight=sample_weight), ratio_low, ratio_high)
    y, s = v.binary_pair(y_true, y_score)
    w = v.as_weight(sample_weight, "sample_weight", len(y))
    codes, names = group_codes(groups, len(y))
    frames = []
    for i, name in enumerate(names):
        sel = codes == i
        part = pieces(
            threshold_sweep(y[sel], s[sel], sample_weight=None if w is None else w[sel]), ratio_low, ratio_high
        )
        part.insert(0, "group", name)
        frames.append(part)
    return pd.concat(frames, ignore_index=True)


def break_even_range(sweep: Sweep) -> tuple[float, float]:
    """(low, high): the ratios r = c_fn / c_fp at which the best cutoff beats both decisions
    without a model (flag nobody, flag everyone) on these rows. (nan, nan) when it never does.

    The cheapest cost is the lower envelope of one line per cutoff; flagging nobody and
    flagging everyone are its first and last vertices, so the model helps exactly while an
    interior vertex is optimal: above the first break and below the last.
    """
    if sweep.positives <= 0 or sweep.negatives <= 0:
        return float("nan"), float("nan")
    line = _line(sweep)
    last = sweep.thresholds.size - 1
    inner = line[(line["vertex"] > 0) & (line["vertex"] < last)]
    if inner.empty:
        return float("nan"), float("nan")
    return float(inner["ratio_low"].iloc[0]), float(inner["ratio_high"].iloc[-1])


def regret(sweep: Sweep, threshold: float, ratio: float) -> float:
    """Extra cost per case (in units of c_fp) of shipping `threshold` when the truth is
    ``c_fn = ratio * c_fp``, over the best cutoff at that ratio, on these rows."""
    if sweep.total <= 0:
        return float("nan")
    cost = mistakes_cost(sweep.fp, sweep.fn, 1.0, ratio) / sweep.total
    return float(cost[sweep.index_at(threshold)] - cost.min())


# ---------------------------------------------------------------------------------------
# The questions


@dataclass(frozen=True)
class Bracket:
    """Where the ratio r = c_fn / c_fp lies after the answers so far.

    answers   ((N, answer), ...): "Which is worse: 1 miss, or N false alarms?" answered
              MISS (one miss is worse: r > N), ALARM (N alarms are worse: r < N) or SAME
    settled   None while the questions go on; "same" (an answer said about the same),
              "precise" (high / low <= PRECISION) or "robust" (set by the page when one
              cutoff is optimal over the whole bracket)
    """

    low: float = RANGE[0]
    high: float = RANGE[1]
    answers: tuple = ()
    settled: str | None = None
    names: tuple[str, str] = field(default=("a missed case", "a false alarm"))

    @property
    def middle(self) -> float:
        """The geometric middle, to three significant digits (a price a person would type: a miss
        at 179 false alarms, not 178.885438...), kept strictly inside the bracket: what the price
        book is set to.

        >>> Bracket(100.0, 320.0).middle, round(Bracket(1.0, 1.0005).middle, 6)  # 1.0 is not inside
        (179.0, 1.00025)
        """
        exact = math.sqrt(self.low * self.high)
        if not (exact > 0 and math.isfinite(exact)):
            return exact
        shown = round(exact, 2 - int(math.floor(math.log10(exact))))
        return shown if self.low < shown < self.high else exact

    def settle(self, reason: str) -> Bracket:
        return replace(self, settled=reason)


def _nice(x: float) -> float:
    """Two significant digits (so that the question reads '30', '0.25', '1,200')."""
    if x <= 0 or not math.isfinite(x):
        return x
    digits = 1 - int(math.floor(math.log10(x)))
    return round(x, digits)


def next_n(bracket: Bracket) -> float:
    """The N of the next question: near the bracket's geometric middle (the exact one: rounding the
    price book's rounded middle again moved the question off it), strictly inside it."""
    exact = math.sqrt(bracket.low * bracket.high)
    n = _nice(exact)
    if not bracket.low < n < bracket.high:
        n = bracket.middle
    return n


def answer(bracket: Bracket, n: float, choice: str) -> Bracket:
    """The bracket after answering the question about `n` with MISS, ALARM or SAME."""
    if choice not in (MISS, SAME, ALARM):
        raise ValueError(f"choice must be one of {[MISS, SAME, ALARM]}: got {choice!r}")
    n = v.as_price(n, "n")
    answers = (*bracket.answers, (n, choice))
    if choice == SAME:
        width = math.sqrt(PRECISION)
        return replace(bracket, low=n / width, high=n * width, answers=answers, settled=SAME)
    low, high = (n, bracket.high) if choice == MISS else (bracket.low, n)
    out = replace(bracket, low=low, high=high, answers=answers, settled=None)
    return out.settle("precise") if high / low <= PRECISION * (1 + 1e-12) else out


def back(bracket: Bracket) -> Bracket:
    """The bracket before the last answer (going back)."""
    out = Bracket(names=bracket.names)
    for n, choice in bracket.answers[:-1]:
        out = answer(out, n, choice)
    return out


def question(bracket: Bracket, n: float) -> tuple[str, str, str]:
    """(question, the 'miss is worse' answer, the 'alarms are worse' answer) in the user's words.

    Below 1 the question turns around, so that it always counts whole-ish cases: "1 miss or
    4 alarms" at N = 4, "5 misses or 1 alarm" at N = 0.2.
    """
    miss, alarm = bracket.names
    if n >= 1:
        many = f"{_count(n)} × {alarm}"
        return (f"Which is worse: 1 × {miss}, or {many}?", f"1 × {miss} is worse", f"{many} is worse")
    many = f"{_count(1 / n)} × {miss}"
    return (f"Which is worse: {many}, or 1 × {alarm}?", f"{many} is worse", f"1 × {alarm} is worse")


def _count(x: float) -> str:
    x = _nice(x)
    return f"{x:,.0f}" if x >= 10 or float(x).is_integer() else f"{x:g}"


def in_force(record: Mapping | None, costs: Mapping) -> dict | None:
    """The questions' `record` as of now: with ``in_force`` (whether every group's price ratio
    c_fn / c_fp is still the one the answers set: the bracket's middle, times the group's
    multiplier) and ``ratio_now`` (the ratio of the first group). None without a record.

    A report or policy must not say "the prices come from these answers" after the prices
    were moved by hand; it says what the answers gave and that the prices were changed.

    >>> rec = {"ratio_chosen": 4.0, "ratio_low": 3.0, "ratio_high": 5.0}
    >>> in_force(rec, {"a": (1.0, 4.0)})["in_force"], in_force(rec, {"a": (1.0, 6.0)})["in_force"]
    (True, False)
    """
    if not record:
        return None
    multipliers = record.get("group_multipliers") or {}
    chosen = float(record["ratio_chosen"])
    ratios = {str(g): (c_fn / c_fp if c_fp > 0 else math.inf) for g, (c_fp, c_fn) in costs.items()}
    same = all(
        math.isfinite(r) and abs(r / (chosen * float(multipliers.get(g, 1.0))) - 1) < 1e-6 for g, r in ratios.items()
    )
    now = next(iter(ratios.values()), math.nan)
    return {**record, "in_force": bool(same), "ratio_now": now if math.isfinite(now) else None}


def record(
    bracket: Bracket, *, cutoffs: pd.DataFrame | None = None, money: float | None = None, unit: str = ""
) -> dict:
    """What the policy file and the report keep of the conversation (JSON-ready)."""
    out = {
        "outcomes": {"miss": bracket.names[0], "false_alarm": bracket.names[1]},
        "answers": [
            {"n": float(n), "answer": choice, "question": question(bracket, n)[0]} for n, choice in bracket.answers
        ],
        "ratio_low": float(bracket.low),
        "ratio_high": float(bracket.high),
        "ratio_chosen": float(bracket.middle),
        "settled": bracket.settled,
    }
    if money is not None:
        out["false_alarm_price"] = float(money)
        out["unit"] = unit
    if cutoffs is not None:
        out["cutoffs_in_range"] = [
            {
                "ratio_low": float(r.ratio_low),
                "ratio_high": float(r.ratio_high),
                "threshold": None if not np.isfinite(r.threshold) else float(r.threshold),
            }
            for r in cutoffs.itertuples()
        ]
    return out
