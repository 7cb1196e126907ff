"""Costs before the outcomes are in: expected cost from calibrated probabilities, moved to a new
base rate (Saerens, Latinne and Decaestecker, 2002, "Adjusting the outputs of a classifier to new
a priori probabilities: a simple procedure", Neural Computation 14(1)).

The assumption, said wherever these numbers are shown: the scores are calibrated probabilities
on the rows the model was calibrated on, and only the base rate has moved since (label shift:
the cases of each class look as they did). Then a probability p moves to the new base rate
``prior`` as p' = a p / (a p + b (1 - p)) with a = prior / train_prior and
b = (1 - prior) / (1 - train_prior), and the new base rate is the fixed point of "the mean of the
moved probabilities" (the paper's EM).
"""

from __future__ import annotations

import numpy as np

from costlib.core import validation as v

BISECTION_STEPS = 64  # passes at most: 64 halvings of [0, 1] are past the last bit of a float64 base rate


def _rate(value, name: str, *, open_ends: bool) -> float:
    """A base rate: a number in [0, 1], or in (0, 1) when `open_ends` (one the odds divide by)."""
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        x = float("nan")
    ok = (0.0 < x < 1.0) if open_ends else (0.0 <= x <= 1.0)
    if isinstance(value, bool) or not ok:
        where = "strictly between 0 and 1" if open_ends else "from 0 to 1"
        raise ValueError(f"{name} must be a base rate (a share of positive cases) {where}: got {value!r}")
    return x


def move_to_prior(p: np.ndarray, prior: float, train_prior: float) -> np.ndarray:
    """Calibrated probabilities `p` (base rate `train_prior`) moved to the base rate `prior`."""
    a = prior / train_prior
    b = (1.0 - prior) / (1.0 - train_prior)
    num = a * p
    den = num + b * (1.0 - p)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), p)


def expected_cost_unlabelled(y_prob, *, cutoff, c_fp, c_fn, prior=None, train_prior=None) -> float:
    """Expected cost per case of flagging at `cutoff`, for cases whose outcome is not known yet.

    From calibrated probabilities p: ``mean(flagged * (1 - p) * c_fp + (not flagged) * p * c_fn)``,
    where a case is flagged when its score ``y_prob >= cutoff`` (the shipped rule reads the score
    as it is). With `prior` (the new base rate) and `train_prior` (the one the probabilities are
    calibrated to), each p is first moved to the new base rate (the module docstring).

    Parameters
    ----------
    y_prob : array-like of shape (n,)
        Calibrated probabilities of the positive class, in [0, 1].
    cutoff : float
        The shipped cutoff: flag iff ``y_prob >= cutoff`` (inf flags nobody).
    c_fp, c_fn : float
        Prices of a false positive and a false negative; finite, >= 0.
    prior, train_prior : float, optional
        The new base rate and the model's; both or neither. `train_prior` strictly in (0, 1).

    Returns
    -------
    float
        Expected cost per case; NaN (with a warning) without cases.

    Examples
    --------
    >>> expected_cost_unlabelled([0.1, 0.5, 0.9], cutoff=0.5, c_fp=1, c_fn=3)
    0.3
    >>> round(expected_cost_unlabelled([0.1, 0.5, 0.9], cutoff=0.5, c_fp=1, c_fn=3, prior=0.2, train_prior=0.5), 4)
    0.3963
    """
    p = v.as_float_1d(y_prob, "y_prob")
    p = v.as_probability(p, "y_prob")
    t = v.as_threshold(cutoff, "cutoff")
    c_fp = v.as_price(c_fp, "c_fp")
    c_fn = v.as_price(c_fn, "c_fn")
    if (prior is None) != (train_prior is None):
        raise ValueError("prior and train_prior go together: give both (the new base rate and the model's) or neither")
    flagged = p >= t
    if prior is not None:
        p = move_to_prior(p, _rate(prior, "prior", open_ends=False), _rate(train_prior, "train_prior", open_ends=True))
    if p.size == 0:
        v.warn_degenerate("no cases: the expected cost is NaN")
        return float("nan")
    return float(np.mean(np.where(flagged, (1.0 - p) * c_fp, p * c_fn)))


def estimate_prior(y_prob, *, train_prior) -> float:
    """The base rate of new cases, from their calibrated probabilities: the fixed point of the
    EM of Saerens, Latinne and Decaestecker (2002), which moves every probability to the
    current estimate and takes their mean as the next.

    That fixed point is where the slope of the EM's likelihood in the base rate q,
    ``sum((a - b) / (q a + (1 - q) b))`` with ``a = p / train_prior`` and
    ``b = (1 - p) / (1 - train_prior)``, is zero; the slope falls as q rises (the likelihood is
    concave), so the fixed point is found by Newton steps on the slope kept inside a bracket
    that only narrows (a bisection step when a Newton step would leave it), to the last bits of
    a float64 in a few passes over the cases (at most `BISECTION_STEPS`). The EM's own steps
    reach the same point but can take thousands of passes when the scores carry little signal.
    When the slope keeps one sign, the estimate is 0 or 1 (every case looks like one class);
    when it is zero everywhere (every probability equals `train_prior`), it stays `train_prior`.

    It assumes what the module docstring says: calibrated scores, and a shift in the base rate
    only. Under that assumption it is consistent; the mean of the unmoved probabilities is not
    (it stays pulled towards `train_prior`).

    Parameters
    ----------
    y_prob : array-like of shape (n,)
        Calibrated probabilities of the positive class, in [0, 1], of the new cases.
    train_prior : float
        The base rate the probabilities are calibrated to, strictly between 0 and 1.

    Returns
    -------
    float
        The estimated base rate in [0, 1]; NaN (with a warning) without cases.

    Examples
    --------
    >>> round(estimate_prior([0.9, 0.9, 0.9, 0.1], train_prior=0.5), 3)
    0.812
    """
    p = v.as_probability(v.as_float_1d(y_prob, "y_prob"), "y_prob")
    pi_t = _rate(train_prior, "train_prior", open_ends=True)
    if p.size == 0:
        v.warn_degenerate("no cases: the base rate is NaN")
        return float("nan")
    a, b = p / pi_t, (1.0 - p) / (1.0 - pi_t)
    d = a - b

    def slope(q: float) -> float:
        den = q * a + (1.0 - q) * b
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return float(np.sum(np.where(den > 0, d / np.where(den > 0, den, 1.0), np.sign(d) * np.inf)))

    at_0, at_1 = slope(0.0), slope(1.0)
    if at_0 <= 0 <= at_1:  # flat: every probability equals the model's base rate, which then stays
        return pi_t
    if at_0 <= 0:
        return 0.0
    if at_1 >= 0:
        return 1.0
    # inside (0, 1) every denominator b + q d is above zero: Newton steps on the slope, kept
    # inside the bracket that the slope's sign narrows (a bisection step when one would leave it)
    low, high, q = 0.0, 1.0, pi_t
    for _ in range(BISECTION_STEPS):
        r = d / (b + q * d)
        f, df = float(r.sum()), -float(np.dot(r, r))
        low, high = (q, high) if f > 0 else (low, q)
        step = q - f / df if df < 0 else 0.5 * (low + high)
        q_next = step if low < step < high else 0.5 * (low + high)
        if q_next == q or high - low <= 4 * np.finfo(float).eps:
            break
        q = q_next
    return float(q)
