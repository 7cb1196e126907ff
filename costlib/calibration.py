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


def _inner_edges(n_bins: int) -> np.ndarray:
    """The inner edges of `n_bins` equal-width bins over [0, 1] (scikit-learn's "uniform")."""
    return np.linspace(0.0, 1.0, n_bins + 1)[1:-1]


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
        inner = _inner_edges(n_bins)
        ends = np.concatenate((np.searchsorted(self.p, inner, side="right"), [self.p.size]))
        starts = np.concatenate(([0], ends[:-1]))
        keep = ends > starts
        total = (ends - starts)[keep]
        sums = np.add.reduceat(self.p, starts[keep])  # each non-empty bin runs to the next one's start
        true = np.add.reduceat(self.y, starts[keep])
        return sums / total, true / total, total

    def bin_index(self, n_bins: int = 10) -> np.ndarray:
        """The bin (0 .. n_bins - 1) of each sorted score, as `bins` bins them (a score on an
        inner edge in the bin below)."""
        return np.searchsorted(_inner_edges(int(n_bins)), self.p, side="left")

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
CLOSE = "close enough"  # beyond chance, but within ECE_FLOOR: named as such, never "calibrated"
#: an error up to this is close enough to act on, even beyond chance: a large test set tells gaps of a point or two from
#: chance, and calling those "miscalibrated" would send every large model to rescaling; the page says this floor
ECE_FLOOR = 0.05


def miscalibrated(ece_before: float, ece_chance: float) -> bool:
    """Whether the error is beyond what chance gives a calibrated model on these rows and
    beyond `ECE_FLOOR`: the one test of miscalibration."""
    chance = ece_chance if math.isfinite(ece_chance) else 0.0
    return bool(ece_before > max(ECE_FLOOR, chance))


def calibration_advice(temperature: float, ece_before: float, ece_after: float, ece_chance: float) -> str:
    """What to do with a model's probabilities: KEEP (within what chance gives), CLOSE (beyond
    chance but within `ECE_FLOOR`), RESCALE (beyond both, and the temperature fitted on held-out
    rows lowers the error), CANNOT_FIX (beyond both, but the temperature is within 5% of 1),
    NOT_HELPING (beyond both, and rescaling does not lower the error) or NO_FIT (no temperature).

    >>> [calibration_advice(1.4, e, 0.02, 0.01) for e in (0.008, 0.03, 0.12)]
    ['keep', 'close enough', 'rescale']
    """
    if not math.isfinite(temperature):
        return NO_FIT
    if not miscalibrated(ece_before, ece_chance):
        return KEEP if math.isfinite(ece_chance) and ece_before <= ece_chance else CLOSE
    if abs(math.log(temperature)) < 0.05:
        return CANNOT_FIX
    return RESCALE if ece_after < ece_before else NOT_HELPING


# ---------------------------------------------------------------------------------------
# Calibration within each group: the error, its interval, and bins too small to read

MIN_BIN_CASES = 10  # a bin with fewer cases is marked on the reliability diagram: one case moves its share by 10%+
ECE_RESAMPLES = 1000  # bootstrap resamples of each group's calibration error
ECE_ROWS_BUDGET = 50_000_000  # rows x resamples drawn row by row at most; a larger group is drawn by cells


@dataclass(frozen=True, eq=False)
class GroupError:
    """One group's calibration error on its judged rows at one number of bins.

    group      the group's name
    cases      its judged rows; `positives` and `negatives` of them
    too_few    fewer than `folds.MIN_CLASS_ROWS` positives or negatives (the product's smallest
               group that gets a cutoff of its own): no error is claimed, `ece` and its interval are NaN
    ece        the expected calibration error (`BinnedScores.ece`)
    low, high  its 95% interval (`group_calibration`)
    chance     the error a calibrated model would still show on these scores by chance
               (`BinnedScores.ece_by_chance`): `ece` above it is beyond the noise
    draws      the resampled errors, `bias_corrected` (the interval's; empty when too few)
    """

    group: str
    cases: int
    positives: int
    negatives: int
    too_few: bool
    ece: float
    low: float
    high: float
    chance: float
    draws: np.ndarray

    @property
    def beyond_noise(self) -> bool:
        """Whether the error is beyond what chance gives a calibrated model on these cases."""
        return bool(not self.too_few and self.ece > self.chance)


@dataclass(frozen=True, eq=False)
class GroupCalibration:
    """Each group's calibration error (`GroupError`, in the order of the groups' names) and the
    gap between the least and the best calibrated of the groups with enough cases.

    by_group   tuple of `GroupError`
    worst      the least calibrated group with enough cases (its `GroupError`), or None
    best       the best calibrated one, or None (also None when fewer than two have enough cases)
    gap        worst's error minus best's (NaN without both); `gap_low`, `gap_high` its 95% interval
    """

    n_bins: int
    by_group: tuple
    worst: GroupError | None
    best: GroupError | None
    gap: float
    gap_low: float
    gap_high: float

    @property
    def gap_beyond_noise(self) -> bool:
        """Whether the least calibrated group is beyond the noise on its own (`GroupError.beyond_noise`)
        and its gap to the best calibrated group is too (the gap's interval lies above 0)."""
        return bool(self.worst is not None and self.worst.beyond_noise and self.gap_low > 0)


def too_few_cases(positives: int, negatives: int) -> bool:
    """Whether a group is too small to read its calibration: fewer than `folds.MIN_CLASS_ROWS`
    positives or negatives, the size below which a group gets no cutoff of its own either.

    >>> too_few_cases(19, 500), too_few_cases(20, 20)
    (True, False)
    """
    from costlib.binary.folds import own_cutoff

    return not bool(own_cutoff(positives, negatives))


def ece_draws(binned: BinnedScores, n_bins: int, *, n_resamples: int = ECE_RESAMPLES, seed=0) -> np.ndarray:
    """(n_resamples,) expected calibration errors of `binned`'s rows resampled with replacement
    (the row bootstrap), at `n_bins` bins: each row keeps its bin and its gap y - p, so a resample's
    error is the sum over bins of abs(the bin's summed gaps) over the rows.

    Drawn as counts of the distinct (gap, bin) pairs when they are few (exact, as
    `stats.bootstrap.resampled_sums` does); else by index in chunks while rows x resamples stay
    within `ECE_ROWS_BUDGET`; past it, by cells (`_cell_draws`); seeded by `seed`.
    """
    from costlib.stats.bootstrap import CHUNK, categories, draw_counts

    n, b = binned.p.size, int(n_resamples)
    if n == 0:
        return np.full(b, np.nan)
    rng = np.random.default_rng(seed)
    gap, where = binned.y - binned.p, binned.bin_index(n_bins)
    cats, counts = categories(gap, where)
    if cats is not None:
        per_bin = np.zeros((cats.shape[0], int(n_bins)))
        per_bin[np.arange(cats.shape[0]), cats[:, 1].astype(np.int64)] = cats[:, 0]
        return np.abs(draw_counts(counts, n, b, rng) @ per_bin).sum(axis=1) / n
    if n * b > ECE_ROWS_BUDGET:
        return _cell_draws(binned, where, int(n_bins), b, rng)
    out = np.empty(b)
    step = max(1, CHUNK // n)
    for start in range(0, b, step):
        stop = min(b, start + step)
        idx = rng.integers(0, n, size=(stop - start, n))
        flat = (where[idx] + int(n_bins) * np.arange(stop - start)[:, None]).ravel()
        sums = np.bincount(flat, weights=gap[idx].ravel(), minlength=(stop - start) * int(n_bins))
        out[start:stop] = np.abs(sums.reshape(stop - start, int(n_bins))).sum(axis=1) / n
    return out


def bias_corrected(ece: float, draws: np.ndarray) -> np.ndarray:
    """`draws` (bootstrap errors of a sample whose error is `ece`) moved down by twice their mean
    excess over `ece`: the bootstrap's bias correction, centred on ``2 ece - mean(draws)``.

    A sample's error reads high (a sum of absolute gaps: the sample's noise adds to the true
    gaps), and a resample's reads above the sample's by about as much; the corrected draws are
    centred where the error is once that excess is taken off.

    >>> bias_corrected(0.02, np.array([0.02, 0.03, 0.04])).round(3).tolist()
    [0.0, 0.01, 0.02]
    """
    draws = np.asarray(draws, dtype=float)
    return draws - 2.0 * (np.nanmean(draws) - ece) if draws.size else draws


def _cell_draws(binned: BinnedScores, where: np.ndarray, n_bins: int, b: int, rng) -> np.ndarray:
    """`ece_draws` of a large sample by its (bin, outcome) cells, in O(resamples x bins): the
    cells' counts are drawn exactly (one multinomial, as the row bootstrap draws them), and the
    sum of the scores of the m rows a cell draws is drawn from its mean and spread, normal with
    mean m x the cell's mean score and variance m x their variance (the central limit; within a
    bin the scores differ by at most its width, so the outcomes carry nearly all the noise)."""
    from costlib.stats.bootstrap import draw_counts

    cell = where * 2 + binned.y.astype(np.int64)
    size = 2 * n_bins
    counts = np.bincount(cell, minlength=size)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(counts > 0, np.bincount(cell, weights=binned.p, minlength=size) / counts, 0.0)
        square = np.where(counts > 0, np.bincount(cell, weights=binned.p**2, minlength=size) / counts, 0.0)
    spread = np.sqrt(np.clip(square - mean**2, 0.0, None))
    m = draw_counts(counts, binned.p.size, b, rng)  # (b, cells)
    scores = m * mean + np.sqrt(m) * spread * rng.standard_normal(m.shape)
    gaps = m * (np.arange(size) % 2) - scores  # the positives drawn, less their scores
    return np.abs(gaps.reshape(b, n_bins, 2).sum(axis=2)).sum(axis=1) / binned.p.size


def ece_interval(ece: float, corrected: np.ndarray, chance: float, *, level: float = 0.95) -> tuple[float, float]:
    """(low, high): the `level` interval of a calibration error `ece`, the percentile interval of
    its `bias_corrected` bootstrap draws, widened to hold `ece` itself; it starts at 0 when `ece`
    is within what chance gives a calibrated model on these scores (`chance`, the test
    `miscalibrated` reads): a calibrated group's error is 0 in truth and above 0 only by chance.

    On simulated scores (tests/test_calibration_groups.py) it covers 0 for calibrated scores in
    about 95% of samples (and a true error of 0.1 in about 91%), where the plain percentile
    interval of the draws never covers 0.

    >>> ece_interval(0.02, np.array([0.0, 0.01, 0.02]), 0.05, level=0.5)
    (0.0, 0.02)
    """
    from costlib.stats.intervals import percentile_interval

    if not math.isfinite(ece):
        return float("nan"), float("nan")
    low, high = percentile_interval(np.asarray(corrected, dtype=float), level)
    low = 0.0 if not ece > chance else max(0.0, min(low, ece))
    return low, max(high, ece)


def group_calibration(
    y_true, y_prob, groups, *, n_bins: int = 10, n_resamples: int = ECE_RESAMPLES, seed: int = 0
) -> GroupCalibration:
    """Each group's expected calibration error with its 95% interval (`ece_interval` of the
    group's rows resampled `n_resamples` times, `ece_draws`, seeded by `seed` and the group's
    place), what chance gives a calibrated model on its scores, and the least against the best
    calibrated group (the gap's interval: the percentile interval of the difference of the two
    groups' `bias_corrected` draws, resampled apart).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (0/1 or True/False).
    y_prob : array-like of shape (n,)
        Predicted probabilities of class 1, in [0, 1].
    groups : array-like of shape (n,)
        Each row's group (read as text); the groups come out sorted by name.
    n_bins : int, default=10
        Equal-width bins over [0, 1], binned as in `reliability`, the same for every group.

    Returns
    -------
    GroupCalibration
        A group with fewer than `folds.MIN_CLASS_ROWS` positives or negatives is `too_few`: its
        error is NaN and it is neither the least nor the best calibrated.

    Examples
    --------
    >>> gc = group_calibration([0, 1] * 50 + [0, 1] * 50, [0.3, 0.7] * 50 + [0.1, 0.9] * 50, ["a"] * 100 + ["b"] * 100)
    >>> [round(g.ece, 2) for g in gc.by_group], gc.worst.group
    ([0.3, 0.1], 'a')
    """
    y, p = v.binary_pair(y_true, y_prob, score_name="y_prob", probability=True)
    g = np.asarray(groups, dtype=object).astype(str)
    v.same_length(y, g, "y_true", "groups")
    rows = []
    for i, name in enumerate(sorted(set(g.tolist()))):
        sel = g == name
        binned = BinnedScores.of(y[sel], p[sel])
        positives = int(binned.y.sum())
        negatives = int(binned.y.size) - positives
        if too_few_cases(positives, negatives):
            nan = float("nan")
            rows.append(GroupError(name, int(sel.sum()), positives, negatives, True, nan, nan, nan, nan, np.zeros(0)))
            continue
        ece, chance = binned.ece(n_bins), binned.ece_by_chance(n_bins)
        draws = ece_draws(binned, n_bins, n_resamples=n_resamples, seed=[int(seed), i])
        corrected = bias_corrected(ece, draws)
        low, high = ece_interval(ece, corrected, chance)
        rows.append(GroupError(name, int(sel.sum()), positives, negatives, False, ece, low, high, chance, corrected))
    read = [r for r in rows if not r.too_few]
    worst = max(read, key=lambda r: r.ece, default=None)
    best = min((r for r in read if r is not worst), key=lambda r: r.ece, default=None)
    gap = gap_low = gap_high = float("nan")
    if worst is not None and best is not None:
        from costlib.stats.intervals import percentile_interval

        gap = worst.ece - best.ece
        gap_low, gap_high = percentile_interval(worst.draws - best.draws)
    return GroupCalibration(int(n_bins), tuple(rows), worst, best, gap, gap_low, gap_high)
