"""The one percentile interval and the one check of an interval's arguments.

Every interval in costlib is a percentile interval of bootstrap draws: the draws that are
finite, cut at (1 - level) / 2 from either end.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LEVEL = 0.95  # the level of every interval unless a caller asks otherwise
MIN_RESAMPLES = 10  # fewer draws than this cannot make a percentile interval


@dataclass(frozen=True)
class Interval:
    """An estimate with its percentile interval at `level`.

    >>> iv = Interval(0.5, 0.25, 0.75, 0.95)
    >>> str(iv), iv.includes_zero()
    ('[0.25, 0.75]', False)
    """

    estimate: float
    low: float
    high: float
    level: float

    def includes_zero(self) -> bool:
        return bool(self.low <= 0.0 <= self.high)

    def __str__(self) -> str:
        return f"[{self.low:.4g}, {self.high:.4g}]"


def percentile_interval(samples: np.ndarray, level: float = LEVEL) -> tuple[float, float]:
    """(low, high): the percentile interval of the finite `samples` (NaN, NaN without any).

    >>> percentile_interval(np.array([1.0, 2.0, np.nan, 3.0]), level=0.5)
    (1.5, 2.5)
    """
    finite = samples[np.isfinite(samples)]
    if finite.size == 0:
        return float("nan"), float("nan")
    alpha = (1.0 - level) / 2.0
    lo, hi = np.quantile(finite, [alpha, 1.0 - alpha])
    return float(lo), float(hi)


def percentile_intervals(samples: np.ndarray, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """`percentile_interval` of every column of (resamples, m) `samples`, the columns without a
    non-finite draw in one quantile call (a price move computes a few dozen of them).

    >>> lo, hi = percentile_intervals(np.array([[1.0, 1.0], [2.0, np.nan], [3.0, 3.0]]), level=0.5)
    >>> lo.tolist(), hi.tolist()
    ([1.5, 1.5], [2.5, 2.5])
    """
    samples = samples.reshape(samples.shape[0], -1)
    whole = np.isfinite(samples).all(axis=0)
    lo, hi = np.full(samples.shape[1], np.nan), np.full(samples.shape[1], np.nan)
    if samples.shape[0] and whole.any():
        alpha = (1.0 - level) / 2.0
        lo[whole], hi[whole] = np.quantile(samples[:, whole], [alpha, 1.0 - alpha], axis=0)
    for j in np.flatnonzero(~whole):
        lo[j], hi[j] = percentile_interval(samples[:, j], level)
    return lo, hi


def centred_interval(
    estimate: float, samples: np.ndarray, level: float = LEVEL, *, about=np.mean
) -> tuple[float, float]:
    """(low, high): `estimate` plus the percentile interval of the finite `samples` about
    their mean (or `about` of them: the median always lies inside that interval, so the result
    holds the estimate), the interval of an honest estimate whose resamples are centred elsewhere
    (a resample refits a cutoff on fewer distinct rows than the data, so its cost sits above the
    estimate's: only its spread is read). NaN without a finite estimate or sample.

    >>> centred_interval(10.0, np.array([1.0, 2.0, np.nan, 3.0]), level=0.5)
    (9.5, 10.5)
    """
    finite = samples[np.isfinite(samples)]
    if finite.size == 0 or not np.isfinite(estimate):
        return float("nan"), float("nan")
    lo, hi = percentile_interval(finite - about(finite), level)
    return float(estimate + lo), float(estimate + hi)


def centred_intervals(
    estimates: np.ndarray, samples: np.ndarray, level: float = LEVEL
) -> tuple[np.ndarray, np.ndarray]:
    """`centred_interval` of every column of (resamples, m) `samples` about its estimate (m,).

    >>> lo, hi = centred_intervals(np.array([0.0, 5.0]), np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]), level=0.5)
    >>> lo.tolist(), hi.tolist()
    ([-0.5, 4.5], [0.5, 5.5])
    """
    samples = samples.reshape(samples.shape[0], -1)
    finite = np.isfinite(samples)
    count = finite.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        centre = np.where(finite, samples, 0.0).sum(axis=0) / np.where(count > 0, count, np.nan)
    lo, hi = percentile_intervals(samples - centre, level)
    est = np.asarray(estimates, dtype=np.float64).reshape(-1)
    ok = np.isfinite(est)
    return np.where(ok, est + lo, np.nan), np.where(ok, est + hi, np.nan)


def check_resamples(n_resamples, minimum: int = MIN_RESAMPLES) -> None:
    """`n_resamples` must be a whole number of at least `minimum` (ValueError naming it otherwise).

    >>> check_resamples(10.5, minimum=1)
    Traceback (most recent call last):
    ...
    ValueError: n_resamples must be a whole number of at least 1: got 10.5
    """
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int | np.integer) or n_resamples < minimum:
        raise ValueError(f"n_resamples must be a whole number of at least {minimum}: got {n_resamples!r}")


MSG_LEVEL = "level must be a number strictly between 0 and 1: got {value!r}"


def as_level(level) -> float:
    """The confidence level of an interval, checked: a number strictly between 0 and 1.

    The one check of a level, for the bootstrap's intervals and the t intervals over seeds.

    >>> as_level(1.5)
    Traceback (most recent call last):
    ...
    ValueError: level must be a number strictly between 0 and 1: got 1.5
    """
    if isinstance(level, bool) or not isinstance(level, (int, float, np.integer, np.floating)) or not 0 < level < 1:
        raise ValueError(MSG_LEVEL.format(value=level))
    return float(level)


def check_level(level: float, n_resamples: int) -> None:
    """The arguments of a bootstrap interval: `level` (`as_level`), at least 10 resamples."""
    as_level(level)
    check_resamples(n_resamples)
