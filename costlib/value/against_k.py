"""Value across k and across models: one model's value against k without a loop over k
(`value_against_k`), where the best model changes along k (`ranking_flips`), and every model's
value at one k (`value_table`), all read off value sweeps computed before
(`costlib.value.contract.value_sweep`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib.core import validation as v
from costlib.core.sweep import Sweep, argbest, hull_best_index
from costlib.value.contract import sweep_value, value_from_counts, value_sweep, value_threshold


def formula_threshold(k: float, reject_value: float = 0.0) -> float:
    """The confidence from which an answer is worth more than handing its case over, for a
    calibrated model at one price k of a wrong answer: accept when p * 1 - (1 - p) * k >= r, that
    is p >= (k + r) / (k + 1). With r = 0 (the default) it is the spec's tau* = k / (k + 1)
    (`contract.value_threshold`); with a handed-over case worth r it is higher for r > 0 (above 1:
    no answer is worth its case) and lower for r < 0.

    >>> formula_threshold(2), formula_threshold(2, 0.5), formula_threshold(2, -0.5)
    (0.6666666666666666, 0.8333333333333334, 0.5)
    """
    k = v.as_price(k, "k")
    r = v.as_price(reject_value, "reject_value", allow_negative=True)
    return (k + r) / (k + 1.0) if r else value_threshold(k)


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
    rule ``"tau*"``: the formula threshold (k + r) / (k + 1) (`formula_threshold`; k / (k + 1)
    at r = 0); rule ``"no model"``: reject all.
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
    tau_formula = (ks + r) / (ks + 1.0)  # `formula_threshold` at each k
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
    """Per model (from its value sweep): value and reject rate at tau* (`formula_threshold`, with
    the worth of a handed-over case), and the best tau.

    With `fit_sweeps` (value sweeps of a training split, same keys) the best tau is chosen
    there and its value read on `sweeps`' rows. Reads cached sweeps only, so it is cheap
    enough to recompute on every slider move.
    """
    k = v.as_price(k, "k")
    tau_star = formula_threshold(k, reject_value)
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
