"""Temperature scaling and calibration diagnostics.

Every formula threshold in costlib (Elkan's t*, tau*, tau_pos, tau_neg) assumes calibrated
probabilities. Temperature scaling rescales logits by one number T fitted on held-out data
by minimising log loss; it keeps the ranking (accuracy unchanged) and changes value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from costlib.core import validation as v

_EPS = 1e-12


def _logits(p: np.ndarray) -> np.ndarray:
    from scipy.special import logit

    clipped = np.clip(p, _EPS, 1.0 - _EPS)
    return logit(clipped) if p.ndim == 1 else np.log(clipped)


def apply_temperature(y_prob, temperature):
    """Binary: sigmoid(logit(p) / T); multiclass: softmax(log p / T). T = 1 changes nothing,
    and a certain probability (0 or 1) stays certain at every T.

    Parameters
    ----------
    y_prob : array-like of shape (n,) or (n, K)
        Probabilities in [0, 1]: 1-D is the probability of class 1, 2-D holds one column per
        class (K >= 2).
    temperature : float
        T > 0. T > 1 flattens the probabilities towards 0.5 (or 1/K), T < 1 sharpens them.

    Returns
    -------
    numpy.ndarray
        The rescaled probabilities, of the same shape as `y_prob`; the ranking is unchanged.

    Raises
    ------
    ValueError
        If `y_prob` is not 1-D or 2-D with K >= 2 columns, is not finite or has values outside
        [0, 1], or if `temperature` is not a positive finite number.

    Examples
    --------
    >>> apply_temperature([0.2, 0.5, 0.9], 2.0)
    array([0.33333333, 0.5       , 0.75      ])
    >>> apply_temperature([[0.2, 0.8]], 2.0)
    array([[0.33333333, 0.66666667]])
    """
    from scipy.special import expit, log_softmax, logit

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
    from scipy.special import log_softmax

    lsm = log_softmax(z / t, axis=1)
    return float(-np.mean(lsm[np.arange(len(y)), y]))


T_BOUNDS = (0.01, 100.0)


def fit_temperature(y_true, y_prob) -> float:
    """The temperature T > 0 minimising log loss of the rescaled probabilities.

    Searched over log T in [log 0.01, log 100] (bounded Brent). NaN with a
    `DegenerateWarning` when the labels hold one class only (any sharpening then looks
    better), or when the log loss has no minimum inside the bounds (scores that carry no
    information, such as all 0.5, or that rank the cases backwards): there is then no
    temperature to fit, and the bound is not an answer.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False) when `y_prob` is 1-D; class indices 0..K-1 when
        `y_prob` is 2-D.
    y_prob : array-like of shape (n,) or (n, K)
        Held-out probabilities in [0, 1]: 1-D is the probability of class 1, 2-D one column
        per class.

    Returns
    -------
    float
        The fitted temperature T, to pass to `apply_temperature`; NaN when there is none.

    Raises
    ------
    ValueError
        If `y_prob` is not 1-D or 2-D with K >= 2 columns, is not finite or lies outside
        [0, 1]; if `y_true` is not binary (1-D) or not class indices 0..K-1 (2-D); or if the
        lengths differ.

    Warns
    -----
    DegenerateWarning
        When `y_true` is empty or holds one class only, or when the minimum sits at a bound
        of the search; T is then NaN.

    Examples
    --------
    >>> round(fit_temperature([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9]), 3)
    0.948
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
    from scipy.optimize import minimize_scalar

    z = _logits(p)
    lo, hi = np.log(T_BOUNDS[0]), np.log(T_BOUNDS[1])
    res = minimize_scalar(
        lambda lt: _log_loss(y, z, np.exp(lt)), bounds=(lo, hi), method="bounded", options={"xatol": 1e-6}
    )
    if res.x >= hi - 1e-3 or res.x <= lo + 1e-3:
        side = "flattening them ever further (T toward 100)" if res.x > 0 else "sharpening them ever further"
        v.warn_degenerate(
            "fit_temperature found no temperature: the log loss keeps falling by " + side + ", which happens "
            "when the scores carry no information (all equal) or rank the cases backwards; temperature is NaN"
        )
        return float("nan")
    return float(np.exp(res.x))


@dataclass(frozen=True, eq=False)
class BinnedScores:
    """Labels and probabilities validated once and sorted by probability, so that the
    equal-width bins of any count are read off the sorted scores: a move of a Bins slider
    costs a `searchsorted` of the edges and one pass of sums, never a new validation.

    The binning is scikit-learn's (`calibration_curve` with ``strategy="uniform"``): edges
    ``linspace(0, 1, n_bins + 1)``, a score on an inner edge falls in the bin below. The
    curve, the counts and the ECE all come from these bins.
    """

    p: np.ndarray  # probabilities, ascending
    y: np.ndarray  # float labels (0/1) in the same order

    @classmethod
    def of(cls, y_true, y_prob) -> BinnedScores:
        y, p = v.binary_pair(y_true, y_prob, score_name="y_prob", probability=True)
        order = np.argsort(p, kind="stable")
        return cls(p=p[order], y=y[order].astype(np.float64))

    def bins(self, n_bins: int = 10) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(mean predicted, observed rate, count) per non-empty bin, in bin order."""
        n_bins = int(n_bins)
        if n_bins < 1:
            raise ValueError(f"n_bins must be at least 1: got {n_bins!r}")
        if self.p.size == 0:
            v.warn_degenerate("no cases: the reliability diagram is empty")
            return np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64)
        inner = np.linspace(0.0, 1.0, n_bins + 1)[1:-1]
        ends = np.concatenate((np.searchsorted(self.p, inner, side="right"), [self.p.size]))
        starts = np.concatenate(([0], ends[:-1]))
        keep = ends > starts
        total = (ends - starts)[keep]
        sums = np.add.reduceat(self.p, starts[keep])  # each non-empty bin runs to the next one's start
        true = np.add.reduceat(self.y, starts[keep])
        return sums / total, true / total, total

    def ece(self, n_bins: int = 10) -> float:
        """Sum over the bins of (bin share) * abs(observed rate - mean predicted); NaN without cases."""
        mean_pred, frac_pos, counts = self.bins(n_bins)
        if counts.sum() == 0:
            v.warn_degenerate("no cases: ECE is NaN")
            return float("nan")
        return float(np.sum(counts * np.abs(frac_pos - mean_pred)) / counts.sum())

    def ece_by_chance(self, n_bins: int = 10, *, level: float = 0.95, n_draws: int = 400, seed: int = 0) -> float:
        """`ece_by_chance` of these probabilities (the labels play no part)."""
        if not 0 < float(level) < 1:
            raise ValueError(f"level must be strictly between 0 and 1: got {level!r}")
        if int(n_draws) < 1:
            raise ValueError(f"n_draws must be at least 1: got {n_draws!r}")
        mean_pred, _, counts = self.bins(n_bins)
        if counts.sum() == 0:
            return float("nan")
        rng = np.random.default_rng(seed)
        drawn = rng.binomial(counts, mean_pred, size=(int(n_draws), counts.size)) / counts
        ece = np.abs(drawn - mean_pred) @ counts / counts.sum()
        return float(np.quantile(ece, level))


def calibration_bins(y_true, y_prob, *, n_bins: int = 10):
    """(mean predicted, observed rate, count) per non-empty equal-width bin of P(class 1):
    `BinnedScores.bins` (scikit-learn's binning; a score on an inner edge falls in the bin below)."""
    return BinnedScores.of(y_true, y_prob).bins(n_bins)


def reliability(y_true, y_prob, *, n_bins: int = 10):
    """(mean predicted, observed rate, count) per non-empty bin: `calibration_bins`.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_prob : array-like of shape (n,)
        Predicted probabilities of class 1, in [0, 1].
    n_bins : int, default=10
        Number of equal-width bins over [0, 1] (edges ``linspace(0, 1, n_bins + 1)``; a
        score on an inner edge falls in the bin below).

    Returns
    -------
    mean_predicted : numpy.ndarray
        Mean predicted probability in each non-empty bin, in bin order.
    observed_rate : numpy.ndarray
        Share of positives in each of those bins.
    count : numpy.ndarray of int
        Number of cases in each of those bins. Empty bins are left out of all three arrays.

    Raises
    ------
    ValueError
        If `y_true` is not binary, `y_prob` is not finite or lies outside [0, 1], the lengths
        differ, or `n_bins` is below 1.

    Warns
    -----
    DegenerateWarning
        When there are no cases; three empty arrays are returned.

    Examples
    --------
    >>> reliability([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], n_bins=2)
    (array([0.28333333, 0.78333333]), array([0.33333333, 0.66666667]), array([3, 3]))
    """
    return calibration_bins(y_true, y_prob, n_bins=n_bins)


def expected_calibration_error(y_true, y_prob, *, n_bins: int = 10) -> float:
    """ECE: sum over equal-width bins of (bin share) * abs(observed rate - mean predicted).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_prob : array-like of shape (n,)
        Predicted probabilities of class 1, in [0, 1].
    n_bins : int, default=10
        Number of equal-width bins over [0, 1], binned as in `reliability`.

    Returns
    -------
    float
        The ECE, between 0 (calibrated in every bin) and 1; NaN when there are no cases.

    Raises
    ------
    ValueError
        If `y_true` is not binary, `y_prob` is not finite or lies outside [0, 1], the lengths
        differ, or `n_bins` is below 1.

    Warns
    -----
    DegenerateWarning
        When there are no cases; the ECE is then NaN.

    Examples
    --------
    >>> expected_calibration_error([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], n_bins=2)
    0.08333333333333333
    """
    return BinnedScores.of(y_true, y_prob).ece(n_bins)


def ece_by_chance(y_prob, *, n_bins: int = 10, level: float = 0.95, n_draws: int = 400, seed: int = 0) -> float:
    """The ECE a perfectly calibrated model would still show on these scores, by chance.

    The `level` quantile of the ECE when each case's outcome is drawn as a coin with its own
    predicted probability: per bin, the positives are drawn Binomial(count, mean predicted).
    (The true count is a sum of unequal coins, whose variance is at most the binomial's, so
    this errs towards calling a gap noise.) An observed ECE below it is within the noise of
    the number of cases and bins.

    >>> round(ece_by_chance([0.2] * 50 + [0.8] * 50, n_bins=10), 3) > 0.05
    True
    """
    p = v.as_probability(y_prob, "y_prob")
    return BinnedScores.of(np.zeros(p.size, dtype=np.int8), p).ece_by_chance(
        n_bins, level=level, n_draws=n_draws, seed=seed
    )


def brier_score(y_true, y_prob) -> float:
    """Mean squared difference between the probability and the outcome (scikit-learn's
    ``brier_score_loss``, which a test holds it to). Written out here because importing
    ``sklearn.metrics`` for one mean took 1.4 s of a fresh server's first Costs page."""
    y, p = v.binary_pair(y_true, y_prob, score_name="y_prob", probability=True)
    if y.size == 0:
        v.warn_degenerate("no cases: the Brier score is NaN")
        return float("nan")
    return float(np.mean((p - y) ** 2))


# ---------------------------------------------------------------------------------------
# The one calibration test: every page's advice comes from here

RESCALE, KEEP, CANNOT_FIX, NO_FIT, NOT_HELPING = "rescale", "keep", "cannot fix", "no fit", "not helping"
ECE_FLOOR = 0.05  # an expected calibration error below this is never called miscalibrated


def miscalibrated(ece_before: float, ece_chance: float) -> bool:
    """Whether the error is beyond what chance gives a calibrated model on these rows (and
    beyond `ECE_FLOOR`): the one test of miscalibration."""
    chance = ece_chance if math.isfinite(ece_chance) else 0.0
    return bool(ece_before > max(ECE_FLOOR, chance))


def calibration_advice(temperature: float, ece_before: float, ece_after: float, ece_chance: float) -> str:
    """What to do with a model's probabilities: RESCALE (beyond chance, and the temperature
    fitted on held-out rows lowers the error), KEEP (within what chance gives), CANNOT_FIX
    (beyond chance, but the temperature is within 5% of 1), NOT_HELPING (beyond chance, and
    rescaling does not lower the error) or NO_FIT (no temperature could be fitted).

    >>> calibration_advice(1.4, 0.03, 0.02, 0.04), calibration_advice(1.4, 0.12, 0.03, 0.04)
    ('keep', 'rescale')
    """
    if not math.isfinite(temperature):
        return NO_FIT
    if not miscalibrated(ece_before, ece_chance):
        return KEEP
    if abs(math.log(temperature)) < 0.05:
        return CANNOT_FIX
    return RESCALE if ece_after < ece_before else NOT_HELPING
