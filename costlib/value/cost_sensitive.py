"""Cost-sensitive value: prices per outcome (TP, TN, FP, FN) and a reject option.

In units of a correct negative: TP +k_tp, TN +1, FP -k_fp, FN -k_fn, rejected r (`reject_value`,
default 0, the spec's convention). Each predicted class has its own acceptance threshold
(`class_thresholds`); the "bayes" rule takes the action of highest expected value per case instead.

Both rules count a handed-over case at r and hand a case over only when answering is not worth
more than r in expectation: answering positive is worth p * k_tp - (1 - p) * k_fp on average, so
it beats r iff p > (k_fp + r) / (k_tp + k_fp); answering negative is worth (1 - p) - p * k_fn, so
it beats r iff 1 - p > (k_fn + r) / (1 + k_fn). At r = 0 these are the paper's thresholds
k_fp / (k_tp + k_fp) and k_fn / (1 + k_fn). The paper's rule keeps its shape (predict by
p >= 0.5, then accept by the class threshold) with r folded into the thresholds, rather than keeping
the r = 0 thresholds and only counting the hand-overs at r: thresholds that ignore r hand over cases
whose answer is expected to be worth less than a hand-over (r > 0), or answer cases a hand-over would
beat (r < 0), so at r != 0 they would not be the paper's break-even rule at the user's prices, and
the row could not be read beside the fitted rule and the expected-value rule, which both weigh r.
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


def class_thresholds(*, k_tp, k_fp, k_fn, reject_value=0.0) -> tuple[float, float]:
    """(tau_pos, tau_neg) = ((k_fp + r) / (k_tp + k_fp), (k_fn + r) / (1 + k_fn)), r = `reject_value`.

    A positive prediction is accepted iff p >= tau_pos, a negative one iff 1 - p >= tau_neg: the
    break-even points where an answer's expected worth (p * k_tp - (1 - p) * k_fp for a positive,
    (1 - p) - p * k_fn for a negative) equals the worth r of handing the case over. At r = 0 they
    are the paper's k_fp / (k_tp + k_fp) and k_fn / (1 + k_fn). They may leave [0, 1]: above 1 that
    answer is never accepted, below 0 always.

    Parameters
    ----------
    k_tp : float
        Worth of a true positive, in units of a correct negative; finite, >= 0.
    k_fp : float
        Price of a false positive in those units; finite, >= 0.
    k_fn : float
        Price of a false negative in those units; finite, >= 0.
    reject_value : float, default=0.0
        Worth of a case handed over (rejected), in the same units; finite, any sign.

    Returns
    -------
    tau_pos : float
        Acceptance threshold for a positive prediction; NaN when k_tp + k_fp is 0.
    tau_neg : float
        Acceptance threshold for a negative prediction.

    Raises
    ------
    ValueError
        If a price is not a finite number, is negative or is above 1e100, or `reject_value` is
        not a finite number.

    Warns
    -----
    DegenerateWarning
        When k_tp + k_fp is 0; tau_pos is then NaN (a positive prediction is never accepted).

    Examples
    --------
    >>> class_thresholds(k_tp=2, k_fp=1, k_fn=3)
    (0.3333333333333333, 0.75)
    >>> class_thresholds(k_tp=2, k_fp=1, k_fn=3, reject_value=0.5)
    (0.5, 0.875)
    """
    k_tp = v.as_price(k_tp, "k_tp")
    k_fp = v.as_price(k_fp, "k_fp")
    k_fn = v.as_price(k_fn, "k_fn")
    r = v.as_price(reject_value, "reject_value", allow_negative=True)
    if k_tp + k_fp == 0:
        v.warn_degenerate("k_tp + k_fp is 0: tau_pos is NaN")
        tau_pos = float("nan")
    else:
        tau_pos = (k_fp + r) / (k_tp + k_fp)
    return tau_pos, (k_fn + r) / (1.0 + k_fn)


def cost_sensitive_actions(y_prob, *, k_tp, k_fp, k_fn, rule="paper", reject_value=0.0) -> np.ndarray:
    """Per case: 1 accept a positive prediction, 0 accept a negative one, -1 reject (hand over,
    worth `reject_value`). "paper": predict by p >= 0.5, accept by `class_thresholds` at
    `reject_value`; "bayes": the action of highest expected worth among answering positive,
    answering negative and handing over (worth r); ties with handing over go to handing over, a tie
    between the two answers to negative."""
    if rule not in ACCEPTANCE_RULES:
        raise ValueError(v.MSG_RULE.format(valid=list(ACCEPTANCE_RULES), value=rule))
    p = v.as_probability(y_prob, "y_prob")
    if p.ndim != 1:
        raise ValueError(v.MSG_NDIM.format(name="y_prob", shape=p.shape))
    r = v.as_price(reject_value, "reject_value", allow_negative=True)
    tau_pos, tau_neg = class_thresholds(k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, reject_value=r)
    action = np.full(p.shape, -1, dtype=np.int8)
    if rule == "paper":
        pos = p >= 0.5
        action[pos & (p >= tau_pos)] = 1
        action[~pos & (1.0 - p >= tau_neg)] = 0
    else:
        ev_pos = p * k_tp - (1.0 - p) * k_fp
        ev_neg = (1.0 - p) - p * k_fn
        # an answer is taken only when its expected worth beats handing over (r); ties with handing
        # over go to handing over, a tie between the two answers goes to negative
        action[(ev_neg > r) & (ev_neg >= ev_pos)] = 0
        action[(ev_pos > r) & (ev_pos > ev_neg)] = 1
    return action


def cost_sensitive_value(y_true, y_prob, *, k_tp, k_fp, k_fn, rule="paper", reject_value=0.0) -> CostSensitiveValue:
    """Value per case with prices per outcome (units of a correct negative).

    TP +k_tp, TN +1, FP -k_fp, FN -k_fn, rejected r (`reject_value`); averaged over all n.
    `rule` is ``"paper"`` (predict by p >= 0.5, accept by the class thresholds at r) or
    ``"bayes"`` (the action of highest expected worth per case among the two answers and handing
    over at r; ties go to reject).

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
    reject_value : float, default=0.0
        Worth of a case handed over (rejected), in the same units; finite, any sign.

    Returns
    -------
    CostSensitiveValue
        ``value`` (per case), ``reject_rate``, and the class thresholds ``tau_pos`` and
        ``tau_neg`` of `class_thresholds` at `reject_value`.

    Raises
    ------
    ValueError
        If `rule` is not one of "paper" and "bayes", `y_true` is not binary, `y_prob` is not
        1-D, finite and in [0, 1], the lengths differ, a price is not a finite number in
        [0, 1e100], or `reject_value` is not a finite number.

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
    >>> r = cost_sensitive_value(y, p, k_tp=2, k_fp=1, k_fn=3, reject_value=0.5)
    >>> r.value, r.reject_rate, r.tau_pos, r.tau_neg
    (0.8333333333333334, 0.3333333333333333, 0.5, 0.875)
    """
    y = v.as_binary(y_true, "y_true")
    k_tp = v.as_price(k_tp, "k_tp")
    k_fp = v.as_price(k_fp, "k_fp")
    k_fn = v.as_price(k_fn, "k_fn")
    r = v.as_price(reject_value, "reject_value", allow_negative=True)
    action = cost_sensitive_actions(y_prob, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, rule=rule, reject_value=r)
    v.same_length(y, action, "y_true", "y_prob")
    tau_pos, tau_neg = class_thresholds(k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, reject_value=r)
    n = y.size
    if n == 0:
        v.warn_degenerate("no cases: value is NaN")
        return CostSensitiveValue(float("nan"), float("nan"), tau_pos, tau_neg)
    tp = np.count_nonzero((action == 1) & y)
    fp = np.count_nonzero((action == 1) & ~y)
    tn = np.count_nonzero((action == 0) & ~y)
    fn = np.count_nonzero((action == 0) & y)
    rejected = np.count_nonzero(action == -1)
    value = (k_tp * tp + tn - k_fp * fp - k_fn * fn + r * rejected) / n
    return CostSensitiveValue(float(value), float(rejected / n), tau_pos, tau_neg)


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


def acceptance_rules_table(
    y_true, models: dict, *, k_tp: float, k_fp: float, k_fn: float, reject_value: float = 0.0
) -> pd.DataFrame:
    """Per model and acceptance rule: value per case and the share handed over, a case handed
    over worth `reject_value` (in units of a correct negative) under both rules.

    Columns ``model, acceptance rule, value per case, handed over``; the rules are named in
    words (`ACCEPTANCE_WORDS`: "paper" is "by class thresholds", "bayes" "by expected value").
    """
    out = []
    for name, p in models.items():
        for rule in ACCEPTANCE_RULES:
            r = cost_sensitive_value(y_true, p, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, rule=rule, reject_value=reject_value)
            out.append(
                {
                    "model": name,
                    "acceptance rule": ACCEPTANCE_WORDS[rule],
                    "value per case": r.value,
                    "handed over": r.reject_rate,
                }
            )
    return pd.DataFrame(out)
