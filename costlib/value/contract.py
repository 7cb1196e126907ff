"""The value of a selective classifier: answer when confident, hand the rest to a person.

With rho the rejected share and alpha the accuracy of the accepted answers, in units of the
value of one correct answer::

    V = rho * reject_value + (1 - rho) * (alpha - k * (1 - alpha))

k is how much worse a wrong answer is than a right one is good. V > 0 (with the default
reject_value 0) means the model beats not using it. Binary scores: predicted class 1 iff
p >= 0.5, confidence max(p, 1 - p). Multiclass (n, K): argmax (lowest index on ties) and its
probability. A prediction is accepted iff its confidence >= tau.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.core import validation as v
from costlib.core.sweep import TIE_TOLERANCE, Sweep, argbest, hull_best_index, hull_slopes, sweep_arrays
from costlib.stats.bootstrap import DEFAULT_RESAMPLES, mean_interval
from costlib.stats.intervals import LEVEL, Interval


@dataclass(frozen=True)
class ValueResult:
    value: float
    reject_rate: float
    accepted_accuracy: float
    tau: float


def value_threshold(k) -> float:
    """Break-even confidence for a calibrated model: tau* = k / (k + 1).

    Parameters
    ----------
    k : float
        How much a wrong answer costs, in units of the worth of a right one; finite, >= 0.

    Returns
    -------
    float
        tau* in [0, 1): accept an answer iff its confidence >= tau*.

    Raises
    ------
    ValueError
        If `k` is not a finite number, is negative or is above 1e100.

    Examples
    --------
    >>> value_threshold(2)
    0.6666666666666666
    """
    k = v.as_price(k, "k")
    return k / (k + 1.0)


def predictions(y_true, y_prob):
    """(correct, confidence) per case, validated; binary 1-D or multiclass (n, K)."""
    p = v.as_probability(y_prob, "y_prob")
    if p.ndim == 1:
        y = v.as_binary(y_true, "y_true")
        v.same_length(y, p, "y_true", "y_prob")
        pred = p >= 0.5
        conf = np.maximum(p, 1.0 - p)
    else:
        y = v.as_class_index(y_true, "y_true", p.shape[1])
        v.same_length(y, p, "y_true", "y_prob")
        pred = np.argmax(p, axis=1)
        conf = p[np.arange(p.shape[0]), pred]
    return pred == y, conf


def value_from_counts(correct, wrong, n, k, reject_value):
    """V per case from accepted-correct and accepted-wrong counts (vectorised): the one value
    formula, ``(correct - k * wrong + reject_value * rejected) / n``, that every value reads
    (the score, the curve, the sweep and the Value page's bootstrap).

    >>> float(value_from_counts(3, 1, 5, 2.0, 0.5))
    0.3
    """
    rejected = n - correct - wrong
    return (correct - k * wrong + reject_value * rejected) / n


def value_score(y_true, y_prob, *, k, tau=None, reject_value=0.0) -> ValueResult:
    """Value per case at confidence threshold `tau` (default tau* = k / (k + 1)).

    Returns ``value``, ``reject_rate`` and ``accepted_accuracy`` (NaN, with a warning,
    when nothing is accepted; the value is then ``reject_value``).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False) when `y_prob` is 1-D; class indices 0..K-1 when it
        is 2-D.
    y_prob : array-like of shape (n,) or (n, K)
        Probabilities in [0, 1]: 1-D is the probability of class 1, 2-D one column per class.
    k : float
        How much a wrong answer costs, in units of the worth of a right one; finite, >= 0.
    tau : float, optional
        Confidence threshold: a prediction is accepted iff its confidence >= tau (inf rejects
        all). None means tau* = ``value_threshold(k)``.
    reject_value : float, default=0.0
        Value of a rejected (handed over) case, in the same units; finite, any sign.

    Returns
    -------
    ValueResult
        ``value`` (per case), ``reject_rate``, ``accepted_accuracy`` and the ``tau`` used.

    Raises
    ------
    ValueError
        If `y_prob` is not 1-D or 2-D with K >= 2 columns, not finite or outside [0, 1];
        `y_true` is not binary (1-D) or not class indices 0..K-1 (2-D); the lengths differ;
        or `k`, `reject_value` or `tau` is not a valid number (`k` negative, `tau` NaN).

    Warns
    -----
    DegenerateWarning
        When there are no cases (value, reject rate and accuracy are NaN) or nothing is
        accepted (accepted accuracy is NaN).

    Examples
    --------
    >>> r = value_score([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], k=2)
    >>> round(r.value, 4), r.reject_rate
    (0.5, 0.5)
    """
    k = v.as_price(k, "k")
    reject_value = v.as_price(reject_value, "reject_value", allow_negative=True)
    tau = value_threshold(k) if tau is None else v.as_threshold(tau, "tau")
    correct, conf = predictions(y_true, y_prob)
    n = correct.size
    if n == 0:
        v.warn_degenerate("no cases: value is NaN")
        return ValueResult(float("nan"), float("nan"), float("nan"), tau)
    accepted = conf >= tau
    n_acc = int(np.count_nonzero(accepted))
    n_correct = int(np.count_nonzero(accepted & correct))
    if n_acc == 0:
        v.warn_degenerate(f"no prediction has confidence >= tau = {tau:g}: accepted accuracy is NaN")
    value = float(value_from_counts(n_correct, n_acc - n_correct, n, k, reject_value))
    return ValueResult(value, 1.0 - n_acc / n, float(v.safe_divide(n_correct, n_acc)), tau)


def value_interval(
    y_true,
    y_prob,
    *,
    k: float,
    tau: float | None = None,
    reject_value: float = 0.0,
    n_resamples: int = DEFAULT_RESAMPLES,
    level: float = LEVEL,
    seed: int = 0,
) -> Interval:
    """Interval for the value per case at confidence threshold tau (default k / (k + 1))."""
    k = v.as_price(k, "k")
    tau = value_threshold(k) if tau is None else v.as_threshold(tau, "tau")
    correct, conf = predictions(y_true, y_prob)
    accepted = conf >= tau
    per_row = np.where(accepted, np.where(correct, 1.0, -k), reject_value)
    iv, _ = mean_interval(per_row, n_resamples=n_resamples, level=level, seed=seed)
    return iv


def value_sweep(y_true, y_prob) -> Sweep:
    """The cost kernel with label = "answer is correct" and score = confidence.

    At index j: ``tp`` accepted correct answers, ``fp`` accepted wrong ones, when accepting
    iff confidence >= ``thresholds[j]`` (``thresholds[0] = inf``: reject all).
    """
    correct, conf = predictions(y_true, y_prob)
    thresholds, tp, fp, n_pos, n_neg = sweep_arrays(correct, conf, None)
    return Sweep(thresholds, tp, fp, n_pos, n_neg)


def value_sweep_from_counts(sweep: Sweep) -> Sweep:
    """`value_sweep` from a cost sweep of binary probabilities (counts, not rows).

    Each distinct score s of `sweep` holds ``pos`` positives and ``neg`` negatives (the steps
    of tp and fp). Its cases are answered positive when s >= 0.5 (right for the ``pos``) and
    negative otherwise (right for the ``neg``), with confidence max(s, 1 - s): the same value
    sweep as `value_sweep` on the rows, exactly, for data that exist only as counts (an
    aggregate file, a table read through DuckDB).

    >>> y, p = [0, 1, 1, 0, 1], [0.1, 0.9, 0.4, 0.6, 0.9]
    >>> from costlib import threshold_sweep
    >>> a, b = value_sweep(y, p), value_sweep_from_counts(threshold_sweep(y, p))
    >>> a.thresholds.tolist() == b.thresholds.tolist(), a.tp.tolist() == b.tp.tolist(), b.fp.tolist()
    (True, True, [0.0, 0.0, 2.0])
    """
    s = sweep.thresholds[1:]
    if s.size and (s.min() < 0 or s.max() > 1):
        raise ValueError(f"sweep must be of probabilities in [0, 1]: its scores run from {s.min()!r} to {s.max()!r}")
    pos, neg = np.diff(sweep.tp), np.diff(sweep.fp)
    says_positive = s >= 0.5
    right = np.where(says_positive, pos, neg)
    wrong = np.where(says_positive, neg, pos)
    conf = np.maximum(s, 1.0 - s)
    labels = np.concatenate((np.ones(s.size, dtype=bool), np.zeros(s.size, dtype=bool)))
    thresholds, tp, fp, n_pos, n_neg = sweep_arrays(
        labels, np.concatenate((conf, conf)), np.concatenate((right, wrong)).astype(np.float64)
    )
    return Sweep(thresholds, tp, fp, n_pos, n_neg)


def sweep_value(sweep: Sweep, k: float, reject_value: float = 0.0) -> np.ndarray:
    if sweep.total <= 0:
        v.warn_degenerate("no cases: value is NaN")
        return np.full(sweep.thresholds.shape, np.nan)
    return value_from_counts(sweep.tp, sweep.fp, sweep.total, k, reject_value)


def value_curve(y_true, y_prob, *, k, reject_value=0.0):
    """(taus, values): value per case at every distinct confidence, plus +inf first.

    ``taus[0] == inf`` rejects everything (value = reject_value: the "no model" line);
    the last tau accepts everything.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False) when `y_prob` is 1-D; class indices 0..K-1 when it
        is 2-D.
    y_prob : array-like of shape (n,) or (n, K)
        Probabilities in [0, 1]: 1-D is the probability of class 1, 2-D one column per class.
    k : float
        How much a wrong answer costs, in units of the worth of a right one; finite, >= 0.
    reject_value : float, default=0.0
        Value of a rejected (handed over) case, in the same units; finite, any sign.

    Returns
    -------
    taus : numpy.ndarray
        Descending confidence thresholds, ``taus[0] == inf``.
    values : numpy.ndarray
        Value per case when accepting iff confidence >= ``taus[i]``.

    Raises
    ------
    ValueError
        If `y_prob` is not 1-D or 2-D with K >= 2 columns, not finite or outside [0, 1];
        `y_true` is not binary (1-D) or not class indices 0..K-1 (2-D); the lengths differ;
        or `k` or `reject_value` is not a valid number (`k` negative).

    Warns
    -----
    DegenerateWarning
        When there are no cases; every value is then NaN.

    Examples
    --------
    >>> taus, values = value_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], k=2)
    >>> taus.tolist(), values.tolist()
    ([inf, 0.9, 0.8, 0.65, 0.6], [0.0, 0.3333333333333333, 0.5, -0.16666666666666666, 0.0])
    """
    k = v.as_price(k, "k")
    reject_value = v.as_price(reject_value, "reject_value", allow_negative=True)
    sweep = value_sweep(y_true, y_prob)
    return sweep.thresholds, sweep_value(sweep, k, reject_value)


def optimal_value(y_true, y_prob, *, k, reject_value=0.0) -> tuple[float, float]:
    """(tau, value) maximising value over every confidence threshold; ties to larger tau.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False) when `y_prob` is 1-D; class indices 0..K-1 when it
        is 2-D.
    y_prob : array-like of shape (n,) or (n, K)
        Probabilities in [0, 1]: 1-D is the probability of class 1, 2-D one column per class.
    k : float
        How much a wrong answer costs, in units of the worth of a right one; finite, >= 0.
    reject_value : float, default=0.0
        Value of a rejected (handed over) case, in the same units; finite, any sign.

    Returns
    -------
    tau : float
        The best confidence threshold on these rows: a confidence, or inf (reject all).
    value : float
        Value per case at that threshold. Both are NaN when there are no cases.

    Raises
    ------
    ValueError
        If `y_prob` is not 1-D or 2-D with K >= 2 columns, not finite or outside [0, 1];
        `y_true` is not binary (1-D) or not class indices 0..K-1 (2-D); the lengths differ;
        or `k` or `reject_value` is not a valid number (`k` negative).

    Warns
    -----
    DegenerateWarning
        When there are no cases: (nan, nan).

    Examples
    --------
    >>> optimal_value([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], k=2)
    (0.8, 0.5)
    """
    taus, values = value_curve(y_true, y_prob, k=k, reject_value=reject_value)
    j = argbest(values, maximize=True)
    if j < 0:
        return float("nan"), float("nan")
    return float(taus[j]), float(values[j])


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


def value_against_k(
    y_true, y_prob, ks, *, reject_value=0.0, sweep: Sweep | None = None, fit_sweep: Sweep | None = None
) -> pd.DataFrame:
    """Value against k without a loop over k, in long format ``k, tau, value, rule``.

    rule ``"optimal"``: the data-optimal tau at each k. Maximising
    ``C - k W + r (n - C - W)`` over the sweep's points (A = C + W accepted, C correct) is
    maximising ``C - q A`` with ``q = (k + r) / (1 + k)``: the answer is a vertex of the
    upper concave hull of the points (A_j, C_j). The hull's slopes are the antitonic (pool
    adjacent violators) regression of the step slopes dC/dA weighted by dA, so the optimal
    index for every q is one ``searchsorted``. Ties go to the larger tau.
    rule ``"tau*"``: the formula threshold k / (k + 1); rule ``"no model"``: reject all.
    With `fit_sweep` (the value sweep of other rows, a training split), the optimal tau is
    chosen on those rows and judged on these, so the curve does not flatter itself.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False) when `y_prob` is 1-D; class indices 0..K-1 when it
        is 2-D.
    y_prob : array-like of shape (n,) or (n, K)
        Probabilities in [0, 1]: 1-D is the probability of class 1, 2-D one column per class.
        Both are ignored when `sweep` is given.
    ks : array-like of shape (m,)
        Values of k, finite and >= 0.
    reject_value : float, default=0.0
        Value of a rejected (handed over) case, in the same units; finite, any sign.
    sweep : Sweep, optional
        A value sweep of these rows computed before (``value_sweep``); None computes it.
    fit_sweep : Sweep, optional
        The value sweep of other rows (a training split) on which the optimal tau is chosen;
        None chooses it on the judged rows.

    Returns
    -------
    pandas.DataFrame
        Columns ``k, tau, value, rule``: the rows of rule ``"optimal"`` (one per k, in the
        order of `ks`), then ``"tau*"``, then ``"no model"`` (tau inf, value reject_value).

    Raises
    ------
    ValueError
        If `ks` is not 1-D and finite or has a negative entry, `reject_value` is not a finite
        number, or (without `sweep`) `y_true` and `y_prob` are invalid as in `value_score`.

    Warns
    -----
    DegenerateWarning
        When there are no cases; the values are then NaN.

    Examples
    --------
    >>> value_against_k([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], [0, 2])
         k       tau     value      rule
    0  0.0  0.600000  0.666667   optimal
    1  2.0  0.800000  0.500000   optimal
    2  0.0  0.000000  0.666667      tau*
    3  2.0  0.666667  0.500000      tau*
    4  0.0       inf  0.000000  no model
    5  2.0       inf  0.000000  no model
    """
    ks = v.as_float_1d(ks, "ks")
    if (ks < 0).any():
        raise ValueError(v.MSG_NEGATIVE.format(name="ks", value=ks[ks < 0][0].item()))
    r = v.as_price(reject_value, "reject_value", allow_negative=True)
    if sweep is None:
        sweep = value_sweep(y_true, y_prob)
    n = sweep.total
    if n <= 0:
        v.warn_degenerate("no cases: value against k is NaN")
        n = np.nan
    taus, c, w = sweep.thresholds, sweep.tp, sweep.fp
    fit = sweep if fit_sweep is None else fit_sweep
    tau_opt = fit.thresholds[hull_best_index(fit.tp + fit.fp, fit.tp, (ks + r) / (1.0 + ks))]
    tau_formula = ks / (ks + 1.0)
    frames = []
    for rule, tau in (("optimal", tau_opt), ("tau*", tau_formula)):
        j = sweep.index_at(tau)  # the judged rows' decisions at that tau
        frames.append(
            pd.DataFrame(
                {
                    "k": ks,
                    "tau": taus[j] if fit_sweep is None and rule == "optimal" else tau,
                    "value": value_from_counts(c[j], w[j], n, ks, r),
                    "rule": rule,
                }
            )
        )
    frames.append(pd.DataFrame({"k": ks, "tau": np.inf, "value": r, "rule": "no model"}))
    return pd.concat(frames, ignore_index=True)


def ranking_flips(frame: pd.DataFrame, *, rule: str = "optimal") -> pd.DataFrame:
    """Where the best model changes along k: ``k, leader, previous`` (first k of each change).

    `frame` is long format ``model, k, value, rule`` (value_against_k per model, concatenated).
    """
    part = frame[frame["rule"] == rule]
    wide = part.pivot_table(index="k", columns="model", values="value", aggfunc="first").sort_index()
    if wide.shape[1] < 2:
        return pd.DataFrame(columns=["k", "leader", "previous"])
    leader = wide.idxmax(axis=1)
    changed = leader.ne(leader.shift()) & leader.shift().notna()
    return pd.DataFrame(
        {
            "k": leader.index[changed],
            "leader": leader[changed].to_numpy(),
            "previous": leader.shift()[changed].to_numpy(),
        }
    ).reset_index(drop=True)


def value_table(sweeps: dict, *, k: float, reject_value: float = 0.0, fit_sweeps: dict | None = None) -> pd.DataFrame:
    """Per model (from its value sweep): value and reject rate at tau*, and the best tau.

    With `fit_sweeps` (value sweeps of a training split, same keys) the best tau is chosen
    there and its value read on `sweeps`' rows. Reads cached sweeps only, so it is cheap
    enough to recompute on every slider move.
    """
    k = v.as_price(k, "k")
    tau_star = value_threshold(k)
    out = []
    for name, sweep in sweeps.items():
        values = sweep_value(sweep, k, reject_value)
        j_star = sweep.index_at(tau_star)
        if fit_sweeps is None:
            j_best = argbest(values, maximize=True)
        else:
            fit = fit_sweeps[name]
            tau_fit = fit.thresholds[argbest(sweep_value(fit, k, reject_value), maximize=True)]
            j_best = sweep.index_at(tau_fit)
        out.append(
            {
                "model": name,
                "value at tau*": float(values[j_star]),
                "reject rate at tau*": float(1.0 - sweep.flagged[j_star] / sweep.total) if sweep.total else np.nan,
                "best tau": float(sweep.thresholds[j_best]),
                "value at best tau": float(values[j_best]),
            }
        )
    return pd.DataFrame(out)
