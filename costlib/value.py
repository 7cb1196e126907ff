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

from costlib.binary.costs import priced_errors
from costlib.core import validation as v
from costlib.core.sweep import Sweep, _sweep_core, argbest, hull_best_index
from costlib.stats.bootstrap import DEFAULT_RESAMPLES, cell_bootstrap, mean_interval
from costlib.stats.intervals import LEVEL, Interval, percentile_interval

ACCEPTANCE_RULES = ("paper", "bayes")


@dataclass(frozen=True)
class ValueResult:
    value: float
    reject_rate: float
    accepted_accuracy: float
    tau: float


@dataclass(frozen=True)
class CostSensitiveValue:
    value: float
    reject_rate: float
    tau_pos: float
    tau_neg: float


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


def _value_from_counts(correct, wrong, n, k, reject_value):
    """V per case from accepted-correct and accepted-wrong counts (vectorised)."""
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
    value = float(_value_from_counts(n_correct, n_acc - n_correct, n, k, reject_value))
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
    thresholds, tp, fp, n_pos, n_neg = _sweep_core(correct, conf, None)
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
    thresholds, tp, fp, n_pos, n_neg = _sweep_core(
        labels, np.concatenate((conf, conf)), np.concatenate((right, wrong)).astype(np.float64)
    )
    return Sweep(thresholds, tp, fp, n_pos, n_neg)


def sweep_value(sweep: Sweep, k: float, reject_value: float = 0.0) -> np.ndarray:
    if sweep.total <= 0:
        v.warn_degenerate("no cases: value is NaN")
        return np.full(sweep.thresholds.shape, np.nan)
    return _value_from_counts(sweep.tp, sweep.fp, sweep.total, k, reject_value)


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
                    "value": _value_from_counts(c[j], w[j], n, ks, r),
                    "rule": rule,
                }
            )
        )
    frames.append(pd.DataFrame({"k": ks, "tau": np.inf, "value": r, "rule": "no model"}))
    return pd.concat(frames, ignore_index=True)


def class_thresholds(*, k_tp, k_fp, k_fn) -> tuple[float, float]:
    """(tau_pos, tau_neg) = (k_fp / (k_tp + k_fp), k_fn / (1 + k_fn)).

    A positive prediction is accepted iff p >= tau_pos, a negative one iff 1 - p >= tau_neg.

    Parameters
    ----------
    k_tp : float
        Worth of a true positive, in units of a correct negative; finite, >= 0.
    k_fp : float
        Price of a false positive in those units; finite, >= 0.
    k_fn : float
        Price of a false negative in those units; finite, >= 0.

    Returns
    -------
    tau_pos : float
        Acceptance threshold for a positive prediction; NaN when k_tp + k_fp is 0.
    tau_neg : float
        Acceptance threshold for a negative prediction.

    Raises
    ------
    ValueError
        If a price is not a finite number, is negative or is above 1e100.

    Warns
    -----
    DegenerateWarning
        When k_tp + k_fp is 0; tau_pos is then NaN.

    Examples
    --------
    >>> class_thresholds(k_tp=2, k_fp=1, k_fn=3)
    (0.3333333333333333, 0.75)
    """
    k_tp = v.as_price(k_tp, "k_tp")
    k_fp = v.as_price(k_fp, "k_fp")
    k_fn = v.as_price(k_fn, "k_fn")
    if k_tp + k_fp == 0:
        v.warn_degenerate("k_tp + k_fp is 0: tau_pos is NaN")
        tau_pos = float("nan")
    else:
        tau_pos = k_fp / (k_tp + k_fp)
    return tau_pos, k_fn / (1.0 + k_fn)


def cost_sensitive_actions(y_prob, *, k_tp, k_fp, k_fn, rule="paper") -> np.ndarray:
    """Per case: 1 accept a positive prediction, 0 accept a negative one, -1 reject."""
    if rule not in ACCEPTANCE_RULES:
        raise ValueError(v.MSG_RULE.format(valid=list(ACCEPTANCE_RULES), value=rule))
    p = v.as_probability(y_prob, "y_prob")
    if p.ndim != 1:
        raise ValueError(v.MSG_NDIM.format(name="y_prob", shape=p.shape))
    tau_pos, tau_neg = class_thresholds(k_tp=k_tp, k_fp=k_fp, k_fn=k_fn)
    action = np.full(p.shape, -1, dtype=np.int8)
    if rule == "paper":
        pos = p >= 0.5
        action[pos & (p >= tau_pos)] = 1
        action[~pos & (1.0 - p >= tau_neg)] = 0
    else:
        ev_pos = p * k_tp - (1.0 - p) * k_fp
        ev_neg = (1.0 - p) - p * k_fn
        # ties with reject go to reject; a tie between the two answers goes to negative
        action[(ev_neg > 0) & (ev_neg >= ev_pos)] = 0
        action[(ev_pos > 0) & (ev_pos > ev_neg)] = 1
    return action


def cost_sensitive_value(y_true, y_prob, *, k_tp, k_fp, k_fn, rule="paper") -> CostSensitiveValue:
    """Value per case with prices per outcome (units of a correct negative).

    TP +k_tp, TN +1, FP -k_fp, FN -k_fn, rejected 0; averaged over all n. `rule` is
    ``"paper"`` (predict by p >= 0.5, accept by the class thresholds) or ``"bayes"`` (the
    action of highest expected value per case; ties go to reject).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_prob : array-like of shape (n,)
        Probabilities of class 1, in [0, 1].
    k_tp : float
        Worth of a true positive, in units of a correct negative; finite, >= 0.
    k_fp : float
        Price of a false positive in those units; finite, >= 0.
    k_fn : float
        Price of a false negative in those units; finite, >= 0.
    rule : {"paper", "bayes"}, default="paper"
        The acceptance rule.

    Returns
    -------
    CostSensitiveValue
        ``value`` (per case), ``reject_rate``, and the class thresholds ``tau_pos`` and
        ``tau_neg`` of `class_thresholds`.

    Raises
    ------
    ValueError
        If `rule` is not one of "paper" and "bayes", `y_true` is not binary, `y_prob` is not
        1-D, finite and in [0, 1], the lengths differ, or a price is not a finite number in
        [0, 1e100].

    Warns
    -----
    DegenerateWarning
        When there are no cases (value and reject rate are NaN) or k_tp + k_fp is 0.

    Examples
    --------
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9]
    >>> r = cost_sensitive_value(y, p, k_tp=2, k_fp=1, k_fn=3)
    >>> r.value, r.reject_rate, r.tau_pos, r.tau_neg
    (0.6666666666666666, 0.3333333333333333, 0.3333333333333333, 0.75)
    >>> cost_sensitive_value(y, p, k_tp=2, k_fp=1, k_fn=3, rule="bayes").value
    0.8333333333333334
    """
    y = v.as_binary(y_true, "y_true")
    k_tp = v.as_price(k_tp, "k_tp")
    k_fp = v.as_price(k_fp, "k_fp")
    k_fn = v.as_price(k_fn, "k_fn")
    action = cost_sensitive_actions(y_prob, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, rule=rule)
    v.same_length(y, action, "y_true", "y_prob")
    tau_pos, tau_neg = class_thresholds(k_tp=k_tp, k_fp=k_fp, k_fn=k_fn)
    n = y.size
    if n == 0:
        v.warn_degenerate("no cases: value is NaN")
        return CostSensitiveValue(float("nan"), float("nan"), tau_pos, tau_neg)
    tp = np.count_nonzero((action == 1) & y)
    fp = np.count_nonzero((action == 1) & ~y)
    tn = np.count_nonzero((action == 0) & ~y)
    fn = np.count_nonzero((action == 0) & y)
    value = (k_tp * tp + tn - k_fp * fp - k_fn * fn) / n
    return CostSensitiveValue(float(value), float(np.count_nonzero(action == -1) / n), tau_pos, tau_neg)


def cost_sensitive_error(y_true, y_pred, *, k_fp, k_fn) -> float:
    """(k_fn * FN + k_fp * FP) / n with no rejection.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_pred : array-like of shape (n,)
        Binary decisions (1 = predicted positive).
    k_fp : float
        Price of a false positive; finite, >= 0.
    k_fn : float
        Price of a false negative; finite, >= 0.

    Returns
    -------
    float
        The cost-sensitive error per case; NaN when there are no cases.

    Raises
    ------
    ValueError
        If `y_true` or `y_pred` is not 1-D and binary, their lengths differ, or a price is not
        a finite number in [0, 1e100].

    Warns
    -----
    DegenerateWarning
        When there are no cases; the error is then NaN.

    Examples
    --------
    >>> cost_sensitive_error([0, 0, 1, 1, 0, 1], [0, 1, 1, 1, 1, 1], k_fp=1, k_fn=3)
    0.3333333333333333
    """
    return priced_errors(y_true, y_pred, k_fp, k_fn, names=("k_fp", "k_fn"), what="cost-sensitive error")


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


def classification_table(y_true, models: dict, *, k_fp: float = 1.0, k_fn: float = 1.0) -> pd.DataFrame:
    """Per model, at the usual cutoff p >= 0.5 with no reject option: accuracy, F1 and
    cost-sensitive error (k_fn * FN + k_fp * FP) / n. `models` maps names to probabilities."""
    from sklearn.metrics import accuracy_score, f1_score

    y = v.as_binary(y_true, "y_true")
    out = []
    for name, p in models.items():
        pred = v.as_probability(p, f"models[{name!r}]") >= 0.5
        out.append(
            {
                "model": name,
                "accuracy": float(accuracy_score(y, pred)) if y.size else float("nan"),
                "F1": float(f1_score(y, pred, zero_division=0.0)),
                "cost-sensitive error": cost_sensitive_error(y, pred, k_fp=k_fp, k_fn=k_fn),
            }
        )
    return pd.DataFrame(out)


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


# ---------------------------------------------------------------------------------------
# The recommendation of the Value page

HAND_OVER = "hand everything over"
ANSWER_ALL = "answer everything"
VALUE_BASELINES = (HAND_OVER, ANSWER_ALL)


def k_from_prices(c_fp, c_fn, gain) -> float:
    """k from the price book: the average price of a wrong answer over the worth of a right one.

    The Value page prices every wrong answer alike; ``(c_fp + c_fn) / 2`` is what a wrong
    answer costs when false positives and false negatives are equally common, and `gain` is
    what a right answer earns, in the same unit.

    >>> k_from_prices(1, 3, 1)
    2.0
    """
    c_fp = v.as_price(c_fp, "c_fp")
    c_fn = v.as_price(c_fn, "c_fn")
    gain = v.as_price(gain, "gain")
    if gain <= 0:
        v.warn_degenerate("a right answer is worth 0: k is infinite, so every answer loses")
        return float("inf")
    return (c_fp + c_fn) / 2.0 / gain


@dataclass(frozen=True, eq=False)
class ValueRecommendation:
    """The Value page's one answer: which model answers, from which confidence, and what it
    is worth per case against the better of handing everything over and answering everything.

    Values are in units of one right answer (multiply by its worth for money). ``status`` is
    one of `costlib.binary.decision`'s SAVES, UNCLEAR, WORSE, ADDS_NOTHING.
    """

    model: str
    tau: float
    value: float
    reject_rate: float
    baseline: str
    baseline_value: float
    gain: float
    gain_low: float
    gain_high: float
    status: str
    formula_value: float
    formula_gain_low: float
    formula_gain_high: float
    judged_on: str
    n_judged: float
    models: pd.DataFrame


def _grouped(sweep: Sweep):
    from costlib.core.sweep import GroupedSweep

    return GroupedSweep(
        ("all",),
        np.array([0, sweep.thresholds.size]),
        sweep.thresholds,
        sweep.tp,
        sweep.fp,
        np.array([sweep.positives]),
        np.array([sweep.negatives]),
    )


def recommend_value(
    judge_sweeps: dict,
    *,
    k: float,
    reject_value: float = 0.0,
    fit_sweeps: dict | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
) -> ValueRecommendation:
    """Best model and confidence threshold, fitted on `fit_sweeps` (train) and judged on
    `judge_sweeps` (test), against the better of "hand everything over" (every case gets the
    reject value) and "answer everything" (accept at every confidence); ties: hand over.

    The 95% interval of the gain is the exact count bootstrap of `costlib.stats.bootstrap.cell_bootstrap`
    over the judged rows (paired with the baseline on the same resamples).
    """
    from costlib.binary import decision as D

    k = v.as_price(k, "k")
    r = v.as_price(reject_value, "reject_value", allow_negative=True)
    fit_sweeps = fit_sweeps or judge_sweeps
    rows = []
    for name, sweep in judge_sweeps.items():
        fit = fit_sweeps[name]
        j_fit = argbest(sweep_value(fit, k, r), maximize=True)
        tau = float(fit.thresholds[j_fit]) if j_fit >= 0 else float("nan")
        rows.append(
            {
                "model": name,
                "tau": tau,
                "fit_value": float(sweep_value(fit, k, r)[j_fit]) if j_fit >= 0 else float("nan"),
                "value": float(sweep_value(sweep, k, r)[sweep.index_at(tau)])
                if np.isfinite(tau) or tau == np.inf
                else float("nan"),
                "fit_j": j_fit,
                "fit_last": fit.thresholds.size - 1,
            }
        )
    models = pd.DataFrame(rows)
    best = models.loc[models["fit_value"].idxmax()] if models["fit_value"].notna().any() else models.iloc[0]
    name = str(best["model"])
    sweep = judge_sweeps[name]
    tau = float(best["tau"])
    values = sweep_value(sweep, k, r)
    hand_over = float(r)
    answer_all = float(values[-1])
    baseline, base_value = (ANSWER_ALL, answer_all) if answer_all > hand_over else (HAND_OVER, hand_over)
    value = float(values[sweep.index_at(tau)])
    tau_star = value_threshold(k)
    cutoffs = {
        "chosen": np.array([tau]),
        "formula": np.array([tau_star]),
        HAND_OVER: np.array([np.inf]),
        ANSWER_ALL: np.array([-np.inf]),
    }
    lo = hi = f_lo = f_hi = float("nan")
    if n_resamples and sweep.total > 0:
        res = cell_bootstrap(_grouped(sweep), cutoffs, n_resamples=n_resamples, seed=seed)
        n = sweep.total
        per_rule = (res.tp[:, :, 0] - k * res.fp[:, :, 0] + r * (n - res.tp[:, :, 0] - res.fp[:, :, 0])) / n
        base = per_rule[:, list(cutoffs).index(baseline)]
        lo, hi = percentile_interval(per_rule[:, 0] - base)
        f_lo, f_hi = percentile_interval(per_rule[:, 1] - per_rule[:, 0])
    gain = value - base_value
    j = int(best["fit_j"])
    if not np.isfinite(value):
        status = D.NO_ANSWER
    elif j == 0 or j == int(best["fit_last"]):
        status = D.ADDS_NOTHING
    elif gain <= 1e-12 * max(1.0, abs(base_value)):
        status = D.WORSE
    elif np.isfinite(lo) and lo <= 0:
        status = D.UNCLEAR
    else:
        status = D.SAVES
    accepted = sweep.flagged[sweep.index_at(tau)] if np.isfinite(value) else np.nan
    return ValueRecommendation(
        model=name,
        tau=tau,
        value=value,
        reject_rate=float(1 - accepted / sweep.total) if sweep.total else np.nan,
        baseline=baseline,
        baseline_value=base_value,
        gain=gain,
        gain_low=lo,
        gain_high=hi,
        status=status,
        formula_value=float(values[sweep.index_at(tau_star)]),
        formula_gain_low=f_lo,
        formula_gain_high=f_hi,
        judged_on="test" if fit_sweeps is not judge_sweeps else "all",
        n_judged=float(sweep.total),
        models=models[["model", "tau", "fit_value", "value"]],
    )


ACCEPTANCE_WORDS = {"paper": "by class thresholds", "bayes": "by expected value"}


def acceptance_rules_table(y_true, models: dict, *, k_tp: float, k_fp: float, k_fn: float) -> pd.DataFrame:
    """Per model and acceptance rule: value per case and the share handed over.

    Columns ``model, acceptance rule, value per case, handed over``; the rules are named in
    words (`ACCEPTANCE_WORDS`: "paper" is "by class thresholds", "bayes" "by expected value").
    """
    out = []
    for name, p in models.items():
        for rule in ACCEPTANCE_RULES:
            r = cost_sensitive_value(y_true, p, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, rule=rule)
            out.append(
                {
                    "model": name,
                    "acceptance rule": ACCEPTANCE_WORDS[rule],
                    "value per case": r.value,
                    "handed over": r.reject_rate,
                }
            )
    return pd.DataFrame(out)
