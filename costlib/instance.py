"""Instance-level costs: each case carries a signed margin delta.

The sign of delta is the label (positive iff delta > 0) and its size the price of getting
the case wrong. Normalized excess cost (NEC) weighs each mistake by |delta|::

    NEC = sum_i |delta_i| [wrong_i] / sum_i |delta_i|

It has the error rate's scale (0 perfect, 0.5 coin flip, 1 always wrong) and equals the
error rate when every |delta| is the same. Error rate / NEC > 1 means the mistakes sit on
ambiguous (cheap) cases.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib import _validation as v
from costlib.sweep import Sweep, _sweep_core


def delta_from_votes(n_yes, n_no) -> np.ndarray:
    """Laplace-smoothed log-odds of the votes: ln((n_yes + 1) / (n_no + 1)).

    >>> delta_from_votes([3, 0], [0, 3]).round(4).tolist()
    [1.3863, -1.3863]
    """
    yes = v.as_float_1d(n_yes, "n_yes")
    no = v.as_float_1d(n_no, "n_no")
    v.same_length(yes, no, "n_yes", "n_no")
    for arr, name in ((yes, "n_yes"), (no, "n_no")):
        if (arr < 0).any():
            raise ValueError(v.MSG_NEGATIVE.format(name=name, value=arr[arr < 0][0].item()))
    return np.log((yes + 1.0) / (no + 1.0))


def delta_from_threshold(z, tau) -> np.ndarray:
    """delta = z - tau: a measurement and the threshold that defines the positive class."""
    z = v.as_float_1d(z, "z")
    return z - v.as_price(tau, "tau", allow_negative=True)


def delta_from_rating(rating, midpoint) -> np.ndarray:
    """delta = rating - midpoint (orient the scale so that positive means the positive class)."""
    r = v.as_float_1d(rating, "rating")
    return r - v.as_price(midpoint, "midpoint", allow_negative=True)


def _pred_delta(y_pred, delta):
    pred = v.as_binary(y_pred, "y_pred")
    d = v.as_float_1d(delta, "delta")
    v.same_length(pred, d, "y_pred", "delta")
    return pred, d


def normalized_excess_cost(y_pred, delta) -> float:
    """sum |delta| over mistakes / sum |delta| (NaN with a warning when every delta is 0)."""
    pred, d = _pred_delta(y_pred, delta)
    size = np.abs(d)
    total = size.sum()
    if total <= 0:
        v.warn_degenerate("every delta is 0: there is no cost to normalise by; NEC is NaN")
        return float("nan")
    wrong = pred != (d > 0)
    return float(size[wrong].sum() / total)


def error_rate(y_pred, delta) -> float:
    """Share of cases whose decision disagrees with the sign of delta."""
    pred, d = _pred_delta(y_pred, delta)
    if d.size == 0:
        v.warn_degenerate("no cases: error rate is NaN")
        return float("nan")
    return float(np.mean(pred != (d > 0)))


def nec_sweep(y_score, delta) -> Sweep:
    """The cost kernel with labels delta > 0 and weights |delta|."""
    s = v.as_float_1d(y_score, "y_score")
    d = v.as_float_1d(delta, "delta")
    v.same_length(s, d, "y_score", "delta")
    thresholds, tp, fp, n_pos, n_neg = _sweep_core(d > 0, s, np.abs(d))
    return Sweep(thresholds, tp, fp, n_pos, n_neg)


def nec_curve(y_score, delta):
    """(thresholds, nec): NEC when flagging iff score >= threshold, at every distinct score."""
    sweep = nec_sweep(y_score, delta)
    if sweep.total <= 0:
        v.warn_degenerate("every delta is 0: NEC is NaN")
        return sweep.thresholds, np.full(sweep.thresholds.shape, np.nan)
    return sweep.thresholds, (sweep.fp + sweep.fn) / sweep.total


def nec_table(models: dict, delta, *, threshold: float, groups=None) -> pd.DataFrame:
    """Per model (and per group when `groups` is given): error rate, NEC and their ratio
    when flagging iff score >= `threshold`; plus the flag-nobody baseline per group."""
    d = v.as_float_1d(delta, "delta")
    g = np.full(d.size, "all", dtype=object) if groups is None else np.asarray(groups, dtype=object)
    v.same_length(d, g, "delta", "groups")
    names = ["all"] if groups is None else ["all", *sorted(pd.unique(g).tolist())]
    out = []
    candidates = {**{m: v.as_float_1d(s, f"models[{m!r}]") >= threshold for m, s in models.items()},
                  "flag nobody": np.zeros(d.size, dtype=bool)}
    for model, pred in candidates.items():
        v.same_length(d, pred, "delta", f"models[{model!r}]")
        for name in names:
            sel = slice(None) if name == "all" else (g == name)
            dd, pp = d[sel], pred[sel]
            total = np.abs(dd).sum()
            err = float(np.mean(pp != (dd > 0))) if dd.size else float("nan")
            nec = float(np.abs(dd)[pp != (dd > 0)].sum() / total) if total > 0 else float("nan")
            out.append({"model": model, "group": name, "n": int(dd.size), "error rate": err, "NEC": nec,
                        "error rate / NEC": err / nec if nec > 0 else float("nan")})
    return pd.DataFrame(out)
