"""The value of a selective classifier within a limit on the cases handed to a person: which
thresholds keep within it, the best among them, the best within every limit (the capacity curve)
and what one more case handed over is worth (the price of capacity).

Every function reads the exact value sweep of `costlib.value.contract` (`value_sweep`,
`sweep_value`), so a move of k or of the limit never sorts again.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib.core import validation as v
from costlib.core.sweep import TIE_TOLERANCE, Sweep, argbest, hull_slopes
from costlib.value.contract import sweep_value, value_sweep


def rejected_within(sweep: Sweep, max_reject: float) -> np.ndarray:
    """Whether each index of the value sweep `sweep` hands over at most the share `max_reject`.

    Index j rejects ``total - flagged[j]`` cases; it is within the cap when that is at most
    ``max_reject * total``, up to a relative `TIE_TOLERANCE` of the total (so 400 of 1,000 is
    within 0.4). The rejected count falls as j grows, so the indices within a cap are a tail
    of the sweep, and the last index (answer everything) is always one of them.
    """
    total = sweep.total
    return total - sweep.flagged <= max_reject * total + TIE_TOLERANCE * total


def best_index_within(sweep: Sweep, values: np.ndarray, max_reject: float) -> int:
    """Index of the best of `values` (a value at every index of `sweep`) among the indices that
    hand over at most the share `max_reject` (`rejected_within`); ties to the larger tau, the
    rule of `argbest`. -1 when every value is NaN (no cases).

    Reads a value sweep computed before, so a move of k or of the cap never sorts again.

    >>> s = value_sweep([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9])
    >>> vals = sweep_value(s, 2)
    >>> best_index_within(s, vals, 1.0), best_index_within(s, vals, 0.5), best_index_within(s, vals, 0.0)
    (2, 2, 4)
    """
    within = rejected_within(sweep, max_reject)
    first = int(np.argmax(within)) if within.any() else values.size
    j = argbest(values[first:], maximize=True)
    return -1 if j < 0 else first + j


def optimal_value_within(y_true, y_prob, *, k, max_reject, reject_value=0.0) -> tuple[float, float]:
    """(tau, value): the best confidence threshold that hands at most the share `max_reject` of
    the cases to a person; ties to the larger tau.

    Handing over fewer never breaks the cap, so the answer is the best of the exact value sweep
    (`value_curve`) over the thresholds whose reject rate is at most `max_reject` (compared with
    a relative tolerance of 1e-12, so 400 of 1,000 is within 0.4). ``max_reject=1`` is
    `optimal_value`; ``max_reject=0`` answers every case (the lowest confidence).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False) when `y_prob` is 1-D; class indices 0..K-1 when it
        is 2-D.
    y_prob : array-like of shape (n,) or (n, K)
        Probabilities in [0, 1]: 1-D is the probability of class 1, 2-D one column per class.
    k : float
        How much a wrong answer costs, in units of the worth of a right one; finite, >= 0.
    max_reject : float
        The largest share of the cases that may be handed to a person, in [0, 1] (the cases a
        month people can take over the cases a month).
    reject_value : float, default=0.0
        Value of a rejected (handed over) case, in the same units; finite, any sign.

    Returns
    -------
    tau : float
        The best confidence threshold within the cap: a confidence, or inf (reject all, only
        when `max_reject` is 1).
    value : float
        Value per case at that threshold. Both are NaN when there are no cases.

    Raises
    ------
    ValueError
        If `max_reject` is not a number in [0, 1]; `y_prob` is not 1-D or 2-D with K >= 2
        columns, not finite or outside [0, 1]; `y_true` is not binary (1-D) or not class indices
        0..K-1 (2-D); the lengths differ; or `k` or `reject_value` is not a valid number.

    Warns
    -----
    DegenerateWarning
        When there are no cases: (nan, nan).

    Examples
    --------
    Unlimited, the best threshold 0.8 hands over 3 of the 6 cases (value 0.5). People who can
    take 2 of them leave 0.65 (2 wrong answers among the 4 accepted, value (3 - 2 * 2) / 6) and
    0.6 (answer everything, value (4 - 2 * 2) / 6 = 0), so the best within that cap is 0.6:

    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9]
    >>> optimal_value_within(y, p, k=2, max_reject=0.5)
    (0.8, 0.5)
    >>> optimal_value_within(y, p, k=2, max_reject=2 / 6)
    (0.6, 0.0)
    """
    max_reject = v.as_share(max_reject, "max_reject")
    k = v.as_price(k, "k")
    reject_value = v.as_price(reject_value, "reject_value", allow_negative=True)
    sweep = value_sweep(y_true, y_prob)
    values = sweep_value(sweep, k, reject_value)
    j = best_index_within(sweep, values, max_reject)
    if j < 0:
        return float("nan"), float("nan")
    return float(sweep.thresholds[j]), float(values[j])


def value_capacity_curve(sweep: Sweep, *, k: float, reject_value: float = 0.0) -> pd.DataFrame:
    """The best value within every cap, read off the value sweep `sweep` (no sort).

    Columns ``reject_share, tau, value``, one row per distinct rejected count of the sweep in
    ascending order (row 0 answers everything; the last row hands everything over): the best
    value per case that hands over at most that share, and the threshold that reaches it (ties
    to the larger tau), exactly as `best_index_within` at that share. The value is a running
    maximum, so it never falls as the cap grows; the slope of its hull (`value_of_capacity`) is
    what one more case handed over is worth.

    >>> s = value_sweep([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9])
    >>> curve = value_capacity_curve(s, k=2)
    >>> curve.round(4).to_dict("list")  # doctest: +NORMALIZE_WHITESPACE
    {'reject_share': [0.0, 0.1667, 0.5, 0.6667, 1.0], 'tau': [0.6, 0.6, 0.8, 0.8, 0.8],
     'value': [0.0, 0.0, 0.5, 0.5, 0.5]}
    """
    k = v.as_price(k, "k")
    r = v.as_price(reject_value, "reject_value", allow_negative=True)
    values = sweep_value(sweep, k, r)
    total = sweep.total
    share = (total - sweep.flagged) / total if total > 0 else np.full(values.shape, np.nan)
    best = np.maximum.accumulate(values[::-1])[::-1]  # best over j.. (within the cap of index j)
    # the chosen index within the cap of j is the first i >= j that ties the best (`argbest`'s rule)
    ties = values >= best - TIE_TOLERANCE * np.maximum(1.0, np.abs(best))
    chosen = np.minimum.accumulate(np.where(ties, np.arange(values.size), values.size - 1)[::-1])[::-1]
    return pd.DataFrame(
        {"reject_share": share[::-1], "tau": sweep.thresholds[chosen][::-1], "value": values[chosen][::-1]}
    )


def value_of_capacity(curve: pd.DataFrame, max_reject: float) -> float:
    """What one more case handed over is worth at the cap `max_reject`: the price of capacity.

    The best value within a cap (`value_capacity_curve`) rises in steps; its least concave
    majorant (the hull) is what a cap is worth when every case of capacity counts alike, with
    diminishing returns. The answer is the hull's slope from the cap to the right: the antitonic
    (pool adjacent violators) regression of the curve's step slopes weighted by the step widths
    (`hull_slopes`, the kernel `value_against_k` uses), read at the step that holds the cap.

    In value per case for each unit of reject share, which is the same as the value a month of
    one more case a month handed over (the volume cancels). Never negative; 0 when no larger cap
    is worth more (the cap does not bind); NaN without cases.

    Parameters
    ----------
    curve : pandas.DataFrame
        `value_capacity_curve` of a value sweep.
    max_reject : float
        The cap, a share of the cases in [0, 1].

    Returns
    -------
    float
        The slope, in units of one right answer per case handed over.

    Raises
    ------
    ValueError
        If `max_reject` is not a number in [0, 1].

    Examples
    --------
    Within 2 of the 6 cases the best hands over 1 (value 0); handing over 3 is worth 0.5 per
    case. The hull runs from answering everything (0 handed over, value 0) to handing over 3
    (value 0.5): 0.5 per case over a share of 1/2, so 1.0 for each case of the share.

    >>> s = value_sweep([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9])
    >>> curve = value_capacity_curve(s, k=2)
    >>> round(value_of_capacity(curve, 2 / 6), 12), value_of_capacity(curve, 0.5)
    (1.0, 0.0)
    """
    max_reject = v.as_share(max_reject, "max_reject")
    share = curve["reject_share"].to_numpy()
    value = curve["value"].to_numpy()
    if not np.isfinite(value).all():
        return float("nan")
    i = int(np.searchsorted(share, max_reject + TIE_TOLERANCE, side="right")) - 1  # as `rejected_within`
    if share.size < 2 or i >= share.size - 1:
        return 0.0
    slopes = hull_slopes(np.diff(share), np.diff(value))
    return float(max(slopes[max(i, 0)], 0.0))
