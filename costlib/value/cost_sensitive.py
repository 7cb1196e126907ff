"""Cost-sensitive value: prices per outcome (TP, TN, FP, FN) and a reject option.

In units of a correct negative: TP +k_tp, TN +1, FP -k_fp, FN -k_fn, rejected 0. Each
predicted class has its own acceptance threshold (`class_thresholds`); the "bayes" rule takes
the action of highest expected value per case instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.binary.costs import priced_errors
from costlib.core import validation as v

ACCEPTANCE_RULES = ("paper", "bayes")
ACCEPTANCE_WORDS = {"paper": "by class thresholds", "bayes": "by expected value"}


@dataclass(frozen=True)
class CostSensitiveValue:
    value: float
    reject_rate: float
    tau_pos: float
    tau_neg: float


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


def classification_table(y_true, models: dict, *, k_fp: float = 1.0, k_fn: float = 1.0) -> pd.DataFrame:
    """Per model, at the usual cutoff p >= 0.5 with no reject option: accuracy, F1 and
    cost-sensitive error (k_fn * FN + k_fp * FP) / n. `models` maps names to probabilities.

    Accuracy and F1 are counted here rather than taken from scikit-learn: they are two lines of
    counts, and importing ``sklearn.metrics`` for them cost the Value page's first visit about
    1.4 s (a test holds them to scikit-learn's ``accuracy_score`` and ``f1_score``)."""
    y = v.as_binary(y_true, "y_true")
    out = []
    for name, p in models.items():
        pred = v.as_probability(p, f"models[{name!r}]") >= 0.5
        v.same_length(y, pred, "y_true", f"models[{name!r}]")
        tp = np.count_nonzero(pred & y)
        wrong = np.count_nonzero(pred != y)
        out.append(
            {
                "model": name,
                "accuracy": 1.0 - wrong / y.size if y.size else float("nan"),
                # F1 = 2TP / (2TP + FP + FN); 0 when there is nothing to find and nothing found
                "F1": (2.0 * tp / (2 * tp + wrong) if tp + wrong else 0.0) if y.size else float("nan"),
                "cost-sensitive error": cost_sensitive_error(y, pred, k_fp=k_fp, k_fn=k_fn),
            }
        )
    return pd.DataFrame(out)


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
