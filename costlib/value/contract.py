"""The value of a selective classifier: answer when confident, hand the rest to a person.

With rho the rejected share and alpha the accuracy of the accepted answers, in units of the
value of one correct answer::

    V = rho * reject_value + (1 - rho) * (alpha - k * (1 - alpha))

k is how much worse a wrong answer is than a right one is good. V > 0 (with the default
reject_value 0) means the model beats not using it. Binary scores: predicted class 1 iff
p >= 0.5, confidence max(p, 1 - p). Multiclass (n, K): argmax (lowest index on ties) and its
probability. A prediction is accepted iff its confidence >= tau.

Here: the value per case, its interval, its exact sweep over the acceptance threshold (from rows
or from counts) and the best threshold. The best threshold within a limit on the cases handed
over is `costlib.value.within`'s; value against k and models compared, `costlib.value.against_k`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from costlib.core import validation as v
from costlib.core.sweep import Sweep, argbest, sweep_arrays
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
    per_row = row_values(y_true, y_prob, k=k, tau=tau, reject_value=reject_value)
    iv, _ = mean_interval(per_row, n_resamples=n_resamples, level=level, seed=seed)
    return iv


def row_values(y_true, y_prob, *, k: float, tau: float | None = None, reject_value: float = 0.0) -> np.ndarray:
    """Each case's value at confidence threshold tau (default k / (k + 1)): 1 for an answer
    accepted and right, -k for one accepted and wrong, `reject_value` for a case handed over.

    >>> row_values([1, 0, 1], [0.9, 0.8, 0.55], k=2.0).tolist()
    [1.0, -2.0, 0.0]
    """
    k = v.as_price(k, "k")
    tau = value_threshold(k) if tau is None else v.as_threshold(tau, "tau")
    correct, conf = predictions(y_true, y_prob)
    return np.where(conf >= tau, np.where(correct, 1.0, -k), reject_value)


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
