"""Multiclass cost matrices: C[i, j] is the price of deciding j when the truth is i."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.core import validation as v

MSG_NEGATIVE_MATRIX = "{name} must be non-negative: found {value!r} at row {i}, column {j}"


def as_cost_matrix(cost_matrix, k: int | None = None, other: str = "confusion") -> np.ndarray:
    c = np.asarray(cost_matrix, dtype=np.float64)
    if c.ndim != 2 or c.shape[0] != c.shape[1] or (k is not None and c.shape[0] != k):
        raise ValueError(v.MSG_MATRIX.format(name="cost_matrix", other=other, k=k if k else "?", shape=c.shape))
    if not np.isfinite(c).all():
        i, j = np.argwhere(~np.isfinite(c))[0]
        raise ValueError(v.MSG_NOT_FINITE_PRICE.format(name=f"cost_matrix[{i}, {j}]", value=c[i, j].item()))
    if (c < 0).any():
        i, j = np.argwhere(c < 0)[0]
        raise ValueError(MSG_NEGATIVE_MATRIX.format(name="cost_matrix", value=c[i, j].item(), i=i, j=j))
    return c


def confusion(y_true, y_pred, n_classes: int, *, sample_weight=None) -> np.ndarray:
    """K x K counts N[i, j] of truth i decided as j (decisions of -1, abstain, left out)."""
    y = v.as_class_index(y_true, "y_true", n_classes)
    pred = np.asarray(y_pred)
    v.same_length(y, pred, "y_true", "y_pred")
    with np.errstate(invalid="ignore"):  # NaN is neither a class nor -1
        ok = (pred == -1) | ((pred >= 0) & (pred < n_classes) & (pred == np.floor(pred)))
    if not ok.all():
        bad = pred[~ok][0]
        raise ValueError(f"y_pred must hold class indices 0 to {n_classes - 1} or -1 (abstain): got {bad.item()!r}")
    keep = pred >= 0
    w = None if sample_weight is None else v.as_weight(sample_weight, "sample_weight", len(y))[keep]
    cells = y[keep].astype(np.int64) * n_classes + pred[keep].astype(np.int64)  # the cell of (truth, decision)
    return np.bincount(cells, weights=w, minlength=n_classes * n_classes).astype(np.float64).reshape(n_classes, -1)


def expected_cost_matrix(confusion, cost_matrix) -> float:
    """sum_ij N[i, j] C[i, j] / sum_ij N[i, j]: expected cost per case.

    Parameters
    ----------
    confusion : array-like of shape (K, K)
        Counts (or weights) N[i, j] of cases of true class i decided as j; finite, >= 0.
    cost_matrix : array-like of shape (K, K)
        Prices C[i, j] of deciding j when the truth is i; finite, >= 0.

    Returns
    -------
    float
        Cost per case; NaN when the confusion matrix sums to 0.

    Raises
    ------
    ValueError
        If either matrix is not square, they differ in size, or an entry is negative or not
        finite.

    Warns
    -----
    DegenerateWarning
        When the confusion matrix is empty (sums to 0); the cost is then NaN.

    Examples
    --------
    >>> expected_cost_matrix([[5, 1], [2, 2]], [[0, 1], [4, 0]])
    0.9
    """
    n = np.asarray(confusion, dtype=np.float64)
    if n.ndim != 2 or n.shape[0] != n.shape[1]:
        raise ValueError(v.MSG_MATRIX.format(name="confusion", other="cost_matrix", k="?", shape=n.shape))
    if not np.isfinite(n).all() or (n < 0).any():
        i, j = np.argwhere(~np.isfinite(n) | (n < 0))[0]
        raise ValueError(MSG_NEGATIVE_MATRIX.format(name="confusion", value=n[i, j].item(), i=i, j=j))
    c = as_cost_matrix(cost_matrix, n.shape[0])
    total = n.sum()
    if total <= 0:
        v.warn_degenerate("the confusion matrix is empty: expected cost is NaN")
        return float("nan")
    return float((n * c).sum() / total)


def _as_prob_matrix(y_prob) -> np.ndarray:
    p = v.as_probability(y_prob, "y_prob")
    if p.ndim == 1:
        p = np.column_stack((1.0 - p, p))
    return p


def expected_costs(y_prob, cost_matrix) -> np.ndarray:
    """(n, K): expected cost of each decision j per case, sum_i p(i | x) C[i, j]."""
    p = _as_prob_matrix(y_prob)
    c = as_cost_matrix(cost_matrix, p.shape[1], other="y_prob")
    return p @ c


def min_cost_decisions(y_prob, cost_matrix, *, abstain_cost=None) -> np.ndarray:
    """Cheapest decision per case: argmin_j sum_i p(i | x) C[i, j], lowest j on ties.

    With `abstain_cost` h the system answers only when its cheapest answer costs strictly
    less than h, and returns -1 (abstain) otherwise. 1-D `y_prob` is P(class 1).

    Parameters
    ----------
    y_prob : array-like of shape (n,) or (n, K)
        Probabilities in [0, 1]: 1-D is P(class 1) (then K = 2), 2-D one column per class.
    cost_matrix : array-like of shape (K, K)
        Prices C[i, j] of deciding j when the truth is i; finite, >= 0.
    abstain_cost : float, optional
        Price h of abstaining (handing the case over); finite, >= 0. None never abstains.

    Returns
    -------
    numpy.ndarray of int64, shape (n,)
        The chosen column per case, -1 where the system abstains.

    Raises
    ------
    ValueError
        If `y_prob` is not 1-D or 2-D with K >= 2 columns, not finite or outside [0, 1];
        `cost_matrix` is not K x K with finite non-negative entries; or `abstain_cost` is not
        a finite number in [0, 1e100].

    Examples
    --------
    The most probable class of the first case is 0, but deciding 1 is cheaper:

    >>> p = [[0.6, 0.3, 0.1], [0.2, 0.5, 0.3]]
    >>> C = [[0, 1, 1], [5, 0, 1], [5, 1, 0]]
    >>> min_cost_decisions(p, C)
    array([1, 1])
    >>> min_cost_decisions(p, C, abstain_cost=0.6)
    array([-1,  1])
    """
    exp = expected_costs(y_prob, cost_matrix)
    choice = np.argmin(exp, axis=1)
    if abstain_cost is not None:
        h = v.as_price(abstain_cost, "abstain_cost")
        best = exp[np.arange(exp.shape[0]), choice]
        choice = np.where(best < h, choice, -1)
    return choice.astype(np.int64)


def decision_cost(y_true, decisions, cost_matrix, *, abstain_cost=None) -> float:
    """Realised cost per case of `decisions` (-1 = abstain, priced at `abstain_cost`)."""
    c = as_cost_matrix(cost_matrix, other="decisions")
    y = v.as_class_index(y_true, "y_true", c.shape[0])
    d = np.asarray(decisions, dtype=np.int64)
    v.same_length(y, d, "y_true", "decisions")
    if y.size == 0:
        v.warn_degenerate("no cases: cost is NaN")
        return float("nan")
    abstained = d < 0
    if abstained.any() and abstain_cost is None:
        raise ValueError("decisions contain abstentions (-1) but abstain_cost is None")
    h = 0.0 if abstain_cost is None else v.as_price(abstain_cost, "abstain_cost")
    per_case = np.where(abstained, h, c[y, np.where(abstained, 0, d)])
    return float(per_case.mean())


def constant_decision(y_true, cost_matrix) -> int:
    """The single decision that is cheapest for everyone, without a model: argmin_j of
    sum_i share_i C[i, j] with the class shares of `y_true` (lowest j on ties)."""
    c = as_cost_matrix(cost_matrix, other="y_true")
    y = v.as_class_index(y_true, "y_true", c.shape[0])
    share = np.bincount(y, minlength=c.shape[0]) / max(y.size, 1)
    return int(np.argmin(share @ c))


# ---------------------------------------------------------------------------------------
# The Cost matrix page's answer

ARGMAX = "most probable class"
CHEAPEST = "cheapest decision"
CHEAPEST_OR_ABSTAIN = "cheapest decision, or hand over"
HAND_OVER = "hand every case over"


@dataclass(frozen=True, eq=False)
class MatrixRecommendation:
    """The policy to ship (`policy`), its cost per case and what it saves against the single
    cheapest decision for every case (`baseline`), with a 95% interval; `table` compares
    every policy; `decisions` holds each policy's decision per judged row (-1 = hand over)."""

    policy: str
    cost: float
    baseline: str
    baseline_cost: float
    saving: float
    saving_low: float
    saving_high: float
    cheaper_by_chance: list
    table: pd.DataFrame
    decisions: dict


def recommend_matrix(
    y_true, y_prob, cost_matrix, *, class_names, abstain_cost=None, y_fit=None, n_resamples: int = 1000, seed: int = 0
) -> MatrixRecommendation:
    """Compare argmax, the cheapest decision and (with an abstain price) the cheapest decision
    or hand over, against the single cheapest decision for everyone (chosen on `y_fit`, the
    fitting rows; handing every case over is one such decision when abstaining is allowed).

    The recommended policy is the cheapest expected decision under the model's probabilities
    (with the abstain option when there is a price for it and it hands some judged case over): it
    is what the prices ask for when the probabilities are right. Intervals: paired bootstrap of
    per-row costs.
    """
    from costlib.stats.bootstrap import paired_difference_interval

    c = as_cost_matrix(cost_matrix, other="y_prob")
    y = v.as_class_index(y_true, "y_true", c.shape[0])
    p = _as_prob_matrix(y_prob)
    v.same_length(y, p, "y_true", "y_prob")
    h = None if abstain_cost is None else v.as_price(abstain_cost, "abstain_cost")
    names = list(class_names)
    policies = {ARGMAX: np.argmax(p, axis=1), CHEAPEST: min_cost_decisions(p, c)}
    if h is not None:
        policies[CHEAPEST_OR_ABSTAIN] = min_cost_decisions(p, c, abstain_cost=h)
    fixed = constant_decision(y if y_fit is None else y_fit, c)
    baselines = {f"always decide {names[fixed]}": np.full(y.size, fixed)}
    if h is not None:
        baselines[HAND_OVER] = np.full(y.size, -1)

    def per_row(d):
        return np.where(d < 0, 0.0 if h is None else h, c[y, np.where(d < 0, 0, d)])

    rows, costs = [], {}
    for name, d in {**policies, **baselines}.items():
        r = per_row(d)
        costs[name] = r
        answered = d >= 0
        rows.append(
            {
                "policy": name,
                "uses the model": name in policies,
                "cost per case": float(r.mean()),
                "handed over": float(np.mean(~answered)),
                "accuracy of answers": float(np.mean(d[answered] == y[answered])) if answered.any() else np.nan,
            }
        )
    table = pd.DataFrame(rows)
    base = min(baselines, key=lambda b: (costs[b].mean(), b != f"always decide {names[fixed]}"))
    # handing over recommended only where it hands some case over: else it is the cheapest decision
    # under a longer name, and a team would set up hand-overs it never makes
    policy = CHEAPEST_OR_ABSTAIN if h is not None and bool(np.any(policies[CHEAPEST_OR_ABSTAIN] < 0)) else CHEAPEST
    iv = paired_difference_interval(costs[base], costs[policy], n_resamples=n_resamples, seed=seed)
    cheaper = []
    for other in policies:
        if other != policy and costs[other].mean() < costs[policy].mean() - 1e-12:
            d = paired_difference_interval(costs[other], costs[policy], n_resamples=n_resamples, seed=seed)
            cheaper.append((other, d.estimate, d.low, d.high))
    return MatrixRecommendation(
        policy,
        float(costs[policy].mean()),
        base,
        float(costs[base].mean()),
        iv.estimate,
        iv.low,
        iv.high,
        cheaper,
        table,
        {**policies, **baselines},
    )
