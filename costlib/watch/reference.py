"""The reference a label-free watch holds newer cases against: the scores of the rows a policy
was fitted on, class by class, and whether they were calibrated there.

A policy carries it (``"reference"``, written from the fitting rows' sweep): at most
`MAX_BUCKETS` buckets of the scores in ascending order, each with its highest score and the
positives and negatives in it, so that the reference's distribution of each class is known
exactly at every bucket's upper end. Two things read it:

- **the label-shift test** (`label_shift_test`): when only the base rate has moved, the newer
  scores are the reference's positives and negatives mixed in a new proportion. The distance of
  the newer scores' distribution from the nearest such mixture (Kolmogorov-Smirnov at the bucket
  ends, minimised over the proportion) is compared with what chance gives when the mixture is
  true, both samples drawn again (a parametric bootstrap: the reference's own size counts too).
  A small p-value says the scores moved in a way a change of the base rate does not explain.
- **the calibration check** (`calibration_check`, made when the policy is written): the
  Hosmer-Lemeshow statistic of the fitting rows over `CALIBRATION_BINS` bins of equal size
  (the observed positives against the scores' sum, each bin's difference over its binomial
  variance), with its chi-square p-value: the label-free estimate assumes calibrated scores, and
  a reference that was not calibrated is said.
"""

from __future__ import annotations

import math

import numpy as np

from costlib.core.sweep import Sweep

MAX_BUCKETS = 500  # buckets of the reference's scores a policy keeps (its distribution known at each end)
CALIBRATION_BINS = 10
SHIFT_LEVEL = 0.01  # a label-shift test below this says the scores moved in another way (few false alarms)
CALIBRATION_LEVEL = 0.01
GOLDEN_STEPS = 30  # golden-section steps for the nearest mixture (to 1e-6 of the base rate: the gap moves as much)


def reference_record(sweep: Sweep) -> dict | None:
    """The ``"reference"`` block of a policy from the fitting rows' pooled sweep (unweighted rows,
    scores that are probabilities); None without both classes."""
    if not (sweep.positives > 0 and sweep.negatives > 0) or sweep.thresholds.size < 2:
        return None
    scores = sweep.thresholds[1:][::-1]  # ascending distinct scores
    pos = np.diff(sweep.tp)[::-1]
    neg = np.diff(sweep.fp)[::-1]
    total = pos + neg
    n = float(total.sum())
    mean = float(np.sum(total * scores) / n)
    ends = bucket_ends(total, MAX_BUCKETS)
    starts = np.concatenate(([0], ends[:-1] + 1))
    return {
        "rows": int(round(n)),
        "mean_score": mean,
        "score_sd": float(np.sqrt(np.sum(total * (scores - mean) ** 2) / n)),
        "scores": [float(x) for x in scores[ends]],
        "positives": [int(round(x)) for x in np.add.reduceat(pos, starts)],
        "negatives": [int(round(x)) for x in np.add.reduceat(neg, starts)],
        "calibration": calibration_check(scores, pos, neg),
    }


def bucket_ends(counts: np.ndarray, k: int) -> np.ndarray:
    """Indices of the last entry of each of at most `k` buckets of consecutive entries with
    (nearly) equal total `counts`; every entry when there are at most `k`."""
    if counts.size <= k:
        return np.arange(counts.size)
    cum = np.cumsum(counts)
    targets = cum[-1] * np.arange(1, k) / k
    ends = np.searchsorted(cum, targets, side="left")
    return np.unique(np.append(ends, counts.size - 1))


def calibration_check(scores: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> dict:
    """Hosmer-Lemeshow over `CALIBRATION_BINS` bins of equal size of the distinct `scores`
    (ascending) with their positives and negatives: ``{"statistic", "bins", "p_value"}``. The
    p-value is the chi-squared survival function ``scipy.special.chdtrc``, the very function
    ``scipy.stats.chi2.sf`` calls: the same number without importing ``scipy.stats`` (a quarter
    of a second or more on the first Watch answer of a server)."""
    from scipy.special import chdtrc

    total = pos + neg
    ends = bucket_ends(total, CALIBRATION_BINS)
    starts = np.concatenate(([0], ends[:-1] + 1))
    observed = np.add.reduceat(pos, starts)
    expected = np.add.reduceat(total * scores, starts)
    variance = np.add.reduceat(total * scores * (1.0 - scores), starts)
    used = variance > 0
    stat = float(np.sum((observed[used] - expected[used]) ** 2 / variance[used]))
    bins = int(used.sum())
    return {
        "statistic": stat,
        "bins": bins,
        "p_value": float(chdtrc(bins, stat)) if bins else None,
    }


def calibrated(reference: dict | None) -> bool | None:
    """Whether the reference's scores were calibrated within chance (None when unknown)."""
    p = ((reference or {}).get("calibration") or {}).get("p_value")
    if p is None or not math.isfinite(p):
        return None
    return bool(p >= CALIBRATION_LEVEL)


def _distance(month_cdf: np.ndarray, pos_cdf: np.ndarray, neg_cdf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distance, proportion) of each row of (b, k) CDFs at the bucket ends: the largest gap
    between the month's CDF and the mixture ``q pos + (1 - q) neg`` at the q in [0, 1] that makes
    it smallest (the gap is convex in q: golden-section search)."""
    a = month_cdf - neg_cdf
    d = pos_cdf - neg_cdf

    def gap(q):  # max |a - q d| by row, in one scratch array
        out = q[:, None] * d
        np.subtract(a, out, out=out)
        return np.max(np.abs(out, out=out), axis=1)

    lo = np.zeros(a.shape[0])
    hi = np.ones(a.shape[0])
    ratio = (math.sqrt(5) - 1) / 2
    x1, x2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    f1, f2 = gap(x1), gap(x2)
    for _ in range(GOLDEN_STEPS):  # one new point a step: the interval shrinks by the golden ratio
        left = f1 <= f2
        hi = np.where(left, x2, hi)
        lo = np.where(left, lo, x1)
        new = np.where(left, hi - ratio * (hi - lo), lo + ratio * (hi - lo))
        f_new = gap(new)
        x1, x2 = np.where(left, new, x2), np.where(left, x1, new)
        f1, f2 = np.where(left, f_new, f2), np.where(left, f1, f_new)
    q = np.where(f1 <= f2, x1, x2)
    ends = np.stack([np.zeros_like(q), np.ones_like(q), q])  # the gap at either end, in case it is smallest
    gaps = np.stack([gap(e) for e in ends])
    best = np.argmin(gaps, axis=0)
    return gaps[best, np.arange(q.size)], ends[best, np.arange(q.size)]


def _cdfs(counts: np.ndarray) -> np.ndarray:
    """(b, k + 1) counts to (b, k) CDFs at the first k bucket ends."""
    total = counts.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (np.cumsum(counts, axis=-1) / np.where(total > 0, total, 1))[..., :-1]


def label_shift_test(reference: dict, scores: np.ndarray, *, n_resamples: int, seed: int = 0) -> tuple[float, float]:
    """(p-value, proportion) of the test that `scores` are the reference's classes mixed in some
    proportion (the module docstring); the proportion is the base rate of the nearest mixture.
    NaN p-value without resamples, scores or both classes in the reference."""
    upper = np.asarray(reference["scores"], dtype=np.float64)
    pos = np.append(np.asarray(reference["positives"], dtype=np.float64), 0.0)
    neg = np.append(np.asarray(reference["negatives"], dtype=np.float64), 0.0)
    n1, n0, n = int(pos.sum()), int(neg.sum()), int(np.asarray(scores).size)
    if n1 == 0 or n0 == 0 or n == 0 or upper.size < 2:
        return math.nan, math.nan
    month = np.bincount(np.searchsorted(upper, scores, side="left"), minlength=upper.size + 1).astype(np.float64)
    observed, q = _distance(_cdfs(month[None]), _cdfs(pos[None]), _cdfs(neg[None]))
    if not n_resamples:
        return math.nan, float(q[0])
    rng = np.random.default_rng([int(seed), 42])
    p1, p0 = pos / n1, neg / n0
    mixed = q[0] * p1 + (1.0 - q[0]) * p0
    beyond = 0
    for start in range(0, int(n_resamples), 250):
        b = min(250, int(n_resamples) - start)
        draws = _distance(
            _cdfs(rng.multinomial(n, mixed / mixed.sum(), size=b).astype(np.float64)),
            _cdfs(rng.multinomial(n1, p1, size=b).astype(np.float64)),
            _cdfs(rng.multinomial(n0, p0, size=b).astype(np.float64)),
        )[0]
        beyond += int(np.sum(draws >= observed[0] - 1e-12))
    return (1 + beyond) / (1 + int(n_resamples)), float(q[0])
