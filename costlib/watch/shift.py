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
    a float64 in a few passes over the distinct probabilities (`prior_fixed_points`, which finds it for
    many resamples at once; at most `BISECTION_STEPS` passes). The EM's own steps
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
    values, counts = np.unique(p, return_counts=True)  # equal probabilities move alike: one term each
    return float(prior_fixed_points(values, counts[None, :].astype(np.float64), pi_t)[0])


def prior_fixed_points(p: np.ndarray, weights: np.ndarray, train_prior) -> np.ndarray:
    """The base rate of each row of `weights` (b, m) over the probabilities `p` (m,) calibrated
    to `train_prior` (a number, or one per row): the root of the EM likelihood's slope in the
    base rate q, ``sum(w (a - b) / (q a + (1 - q) b))`` with ``a = p / train_prior`` and
    ``b = (1 - p) / (1 - train_prior)``. The slope falls as q rises, so Newton steps kept inside
    a bracket that only narrows find it in a few passes (`costlib.watch.shift.estimate_prior`).
    0 or 1 when the slope keeps one sign; `train_prior` when it is zero everywhere."""
    w = np.atleast_2d(np.asarray(weights, dtype=np.float64))
    pi = np.broadcast_to(np.asarray(train_prior, dtype=np.float64), (w.shape[0],))[:, None]
    a = p[None, :] / pi
    b = (1.0 - p[None, :]) / (1.0 - pi)
    d = a - b
    live = w > 0

    def end_slope(den):  # the slope where the denominators are `den`: +-inf where a live one is 0
        with np.errstate(over="ignore"):  # a probability of 0 or 1 beside a tiny one: the slope is that large
            terms = np.divide(w * d, den, out=np.zeros(np.broadcast_shapes(w.shape, d.shape)), where=den > 0)
        top = np.any(live & (den == 0) & (d > 0), axis=1)
        bottom = np.any(live & (den == 0) & (d < 0), axis=1)
        return np.where(top, np.inf, np.where(bottom, -np.inf, terms.sum(axis=1)))

    at_0, at_1 = end_slope(b), end_slope(a)
    q = pi[:, 0].copy()
    flat = (at_0 <= 0) & (at_1 >= 0)
    q[~flat & (at_0 <= 0)] = 0.0
    q[~flat & (at_1 >= 0)] = 1.0
    rows = np.flatnonzero(~flat & (at_0 > 0) & (at_1 < 0))
    if rows.size == 0:
        return q
    if rows.size < w.shape[0]:
        w, b, d = w[rows], np.broadcast_to(b, w.shape)[rows], np.broadcast_to(d, w.shape)[rows]
    q[rows] = _newton(w, b, d, q[rows])
    return q


def _newton(w: np.ndarray, b: np.ndarray, d: np.ndarray, start: np.ndarray) -> np.ndarray:
    """`prior_fixed_points`' root of each row of `w`, `b`, `d` (rows, m), from `start` (rows,) in
    the bracket [0, 1]. A row stops when its step no longer moves it or its bracket is within a few
    bits; only the rows still moving are passed over again (most stop within ten passes, a few
    take thirty more), and never fewer than two at a time where there were two, so that each
    row's sums are the same numbers as over all of them (NumPy's ``einsum`` takes another path
    for one row)."""
    n = w.shape[0]
    low, high = np.zeros(n), np.ones(n)
    x = np.array(start, dtype=np.float64)
    moving = np.ones(n, dtype=bool)
    at = np.arange(n)  # the rows `w`, `b` and `d` hold now
    eps = 4 * np.finfo(float).eps
    for _ in range(BISECTION_STEPS):
        xa, lo, hi = x[at], low[at], high[at]
        r = d / (b + xa[:, None] * d)
        wr = w * r
        f = wr.sum(axis=1)
        df = -np.einsum("ij,ij->i", wr, r)
        lo, hi = np.where(f > 0, xa, lo), np.where(f > 0, hi, xa)
        with np.errstate(divide="ignore", invalid="ignore"):
            step = np.where(df < 0, xa - f / df, 0.5 * (lo + hi))
        x_next = np.where((lo < step) & (step < hi), step, 0.5 * (lo + hi))
        still = moving[at] & ~((x_next == xa) | (hi - lo <= eps))
        low[at], high[at], moving[at] = lo, hi, still
        x[at] = np.where(still, x_next, xa)
        left = int(still.sum())
        if left == 0:
            break
        if left <= 0.75 * at.size and at.size > 2:  # fewer rows to pass over: keep those (two at least)
            keep = np.flatnonzero(still)
            if keep.size < 2:
                keep = np.union1d(keep, np.flatnonzero(~still)[: 2 - keep.size])
            at, w, b, d = at[keep], w[keep], b[keep], d[keep]
    return x
