"""Temperature scaling and calibration diagnostics.

Every formula threshold in costlib (Elkan's t*, tau*, tau_pos, tau_neg) assumes calibrated
probabilities. Temperature scaling rescales logits by one number T fitted on held-out data
by minimising log loss; it keeps the ranking (accuracy unchanged) and changes value.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import expit, log_softmax, logit
from sklearn.calibration import calibration_curve

from costlib import _validation as v

_EPS = 1e-12


def _logits(p: np.ndarray) -> np.ndarray:
    clipped = np.clip(p, _EPS, 1.0 - _EPS)
    return logit(clipped) if p.ndim == 1 else np.log(clipped)


def apply_temperature(y_prob, temperature):
    """Binary: sigmoid(logit(p) / T); multiclass: softmax(log p / T). T = 1 changes nothing,
    and a certain probability (0 or 1) stays certain at every T."""
    p = v.as_probability(y_prob, "y_prob")
    t = float(temperature)
    if not np.isfinite(t) or t <= 0:
        raise ValueError(v.MSG_TEMPERATURE.format(value=temperature))
    with np.errstate(divide="ignore"):  # log 0 = -inf is exact here: the class stays impossible
        z = (logit(p) if p.ndim == 1 else np.log(p)) / t
    return expit(z) if p.ndim == 1 else np.exp(log_softmax(z, axis=1))


def _log_loss(y, z, t):
    if z.ndim == 1:
        zt = z / t
        # -[y log s(zt) + (1 - y) log(1 - s(zt))], computed stably
        return float(np.mean(np.logaddexp(0.0, -zt) * y + np.logaddexp(0.0, zt) * (1 - y)))
    lsm = log_softmax(z / t, axis=1)
    return float(-np.mean(lsm[np.arange(len(y)), y]))


def fit_temperature(y_true, y_prob) -> float:
    """The temperature T > 0 minimising log loss of the rescaled probabilities.

    Searched over log T in [log 0.01, log 100] (bounded Brent). NaN with a warning when the
    labels hold one class only (any sharpening then looks better; nothing to fit).
    """
    p = v.as_probability(y_prob, "y_prob")
    if p.ndim == 1:
        y = v.as_binary(y_true, "y_true").astype(np.float64)
    else:
        y = v.as_class_index(y_true, "y_true", p.shape[1])
    v.same_length(y, p, "y_true", "y_prob")
    if y.size == 0 or np.unique(y).size < 2:
        v.warn_degenerate("fit_temperature needs both outcomes in y_true: temperature is NaN")
        return float("nan")
    z = _logits(p)
    res = minimize_scalar(lambda lt: _log_loss(y, z, np.exp(lt)), bounds=(np.log(0.01), np.log(100.0)),
                          method="bounded", options={"xatol": 1e-6})
    return float(np.exp(res.x))


def reliability(y_true, y_prob, *, n_bins: int = 10):
    """(mean predicted, observed rate, count) per non-empty equal-width bin of P(class 1).

    Uses scikit-learn's calibration_curve; the counts are returned for sizing markers.
    """
    y, p = v.binary_pair(y_true, y_prob, score_name="y_prob", probability=True)
    if y.size == 0:
        v.warn_degenerate("no cases: the reliability diagram is empty")
        return np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64)
    frac_pos, mean_pred = calibration_curve(y, p, n_bins=n_bins, strategy="uniform")
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    idx = np.clip(np.searchsorted(edges[1:-1], p, side="right"), 0, n_bins - 1)
    counts = np.bincount(idx, minlength=n_bins)
    return mean_pred, frac_pos, counts[counts > 0]


def expected_calibration_error(y_true, y_prob, *, n_bins: int = 10) -> float:
    """ECE: sum over equal-width bins of (bin share) * |observed rate - mean predicted|."""
    mean_pred, frac_pos, counts = reliability(y_true, y_prob, n_bins=n_bins)
    if counts.sum() == 0:
        v.warn_degenerate("no cases: ECE is NaN")
        return float("nan")
    return float(np.sum(counts * np.abs(frac_pos - mean_pred)) / counts.sum())
