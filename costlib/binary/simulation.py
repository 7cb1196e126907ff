"""Simulated data sets with a known truth, to judge the honest recommendation by.

Scores are binormal: a negative case's score is N(0, 1), a positive case's N(d, 1), with
d = sqrt(2) * Phi^-1(AUC), so the model's AUC is exactly the one asked for (AUC 0.5 is no
signal). Every group draws from the same law (groups change who is in the rows, not the
signal), so the truth of any cutoffs is a formula:

    cost(t) per case = c_fp * (1 - pi) * P(N(0, 1) >= t) + c_fn * pi * P(N(d, 1) < t)

the no-model baseline costs min(c_fn * pi, c_fp * (1 - pi)), and the best single cutoff is
t* = d / 2 - log(c_fn * pi / (c_fp * (1 - pi))) / d (where the two densities' weighted
slopes meet). The true saving of shipped cutoffs is the baseline's true cost minus theirs
(per-group cutoffs: each group at its share of the population).

`wald_interval` is the comparator of issue 43: a plain 5-fold cross-fitted Wald interval
(each row judged by the cutoff picked on the other folds, mean saving +- 1.96 standard errors
of the per-row savings), written from rows, apart from the package's counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Design:
    """One simulated design: rows, the model's AUC, the base rate, the prices and the groups'
    shares of the rows (unequal shares: each group's size is drawn from them)."""

    n: int
    auc: float
    base_rate: float
    c_fp: float = 1.0
    c_fn: float = 1.0
    shares: tuple = (1.0,)

    @property
    def d(self) -> float:
        """The distance between the classes' score means (`auc` = Phi(d / sqrt(2)))."""
        from scipy.special import ndtri

        return float(math.sqrt(2.0) * ndtri(self.auc))

    @property
    def baseline(self) -> float:
        """The true cost per case of the cheaper decision without a model."""
        return min(self.c_fn * self.base_rate, self.c_fp * (1.0 - self.base_rate))

    def cost(self, cutoff) -> np.ndarray:
        """The true cost per case of flagging every case whose score is at least `cutoff`."""
        from scipy.special import ndtr

        t = np.asarray(cutoff, dtype=np.float64)
        return self.c_fp * (1 - self.base_rate) * ndtr(-t) + self.c_fn * self.base_rate * ndtr(t - self.d)

    def saving(self, cutoffs) -> float:
        """The true saving per case of `cutoffs` (one number, or one per group in `shares`
        order) over the baseline."""
        t = np.broadcast_to(np.asarray(cutoffs, dtype=np.float64), (len(self.shares),))
        w = np.asarray(self.shares, dtype=np.float64) / sum(self.shares)
        return float(self.baseline - np.sum(w * self.cost(t)))

    @property
    def best_saving(self) -> float:
        """The true saving of the best single cutoff (0 without signal: the baseline is best)."""
        d = self.d
        if d <= 0:
            return 0.0
        t = d / 2 - math.log(self.c_fn * self.base_rate / (self.c_fp * (1 - self.base_rate))) / d
        return max(0.0, self.saving(t))

    def draw(self, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(labels, scores, groups) of one data set, seeded; groups are named ``g0, g1, ...``."""
        rng = np.random.default_rng([int(seed), 43])
        y = (rng.random(self.n) < self.base_rate).astype(np.int64)
        s = rng.normal(0.0, 1.0, self.n) + self.d * y
        p = np.asarray(self.shares, dtype=np.float64) / sum(self.shares)
        g = np.array([f"g{i}" for i in range(len(p))])[rng.choice(len(p), self.n, p=p)]
        return y, s, g


def _folds(y: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Each row's fold: the rows of each class dealt into `k` folds of (nearly) equal size."""
    fold = np.empty(y.size, dtype=np.int64)
    for label in (0, 1):
        rows = np.flatnonzero(y == label)
        f = (np.arange(rows.size) + int(rng.integers(k))) % k
        rng.shuffle(f)
        fold[rows] = f
    return fold


def _best_cutoff(y: np.ndarray, s: np.ndarray, c_fp: float, c_fn: float) -> float:
    """The cheapest cutoff on rows (every distinct score and +inf; ties: the larger cutoff)."""
    order = np.argsort(-s, kind="stable")
    ys, ss = y[order], s[order]
    last = np.concatenate((np.flatnonzero(np.diff(ss) != 0), [ss.size - 1]))  # last row of each score
    tp = np.concatenate(([0.0], np.cumsum(ys)[last]))
    fp = np.concatenate(([0.0], np.cumsum(1 - ys)[last]))
    cost = c_fp * fp + c_fn * (tp[-1] - tp)
    j = int(np.argmin(cost))
    return math.inf if j == 0 else float(ss[last[j - 1]])


def wald_interval(y, s, *, c_fp: float, c_fn: float, k: int = 5, seed: int = 0) -> tuple[float, float, float]:
    """(saving, low, high) per case of the plain k-fold cross-fitted Wald interval: each row's
    saving is what the no-model baseline (the cheaper on all rows; ties: flag nobody) costs on
    it minus what the cutoff picked on the other folds costs on it; the interval is their mean
    +- 1.96 standard errors.

    >>> y = np.array([0, 1] * 50)
    >>> s = y + np.linspace(0, 0.5, 100)
    >>> est, lo, hi = wald_interval(y, s, c_fp=1, c_fn=1)
    >>> round(est, 1), lo > 0
    (0.5, True)
    """
    y, s = np.asarray(y, dtype=np.int64), np.asarray(s, dtype=np.float64)
    fold = _folds(y, k, np.random.default_rng([int(seed), 5]))
    pos = y.mean()
    nobody = c_fn * pos <= c_fp * (1 - pos)
    base = c_fn * y if nobody else c_fp * (1 - y)
    saving = np.zeros(y.size)
    for f in range(k):
        fit, test = fold != f, fold == f
        t = _best_cutoff(y[fit], s[fit], c_fp, c_fn)
        flagged = s[test] >= t
        saving[test] = base[test] - np.where(flagged, c_fp * (1 - y[test]), c_fn * y[test])
    est = float(saving.mean())
    se = float(saving.std(ddof=1) / math.sqrt(y.size))
    return est, est - 1.96 * se, est + 1.96 * se


def judge_design(design: Design, seeds, *, n_resamples: int = 1000, wald: bool = True) -> list[dict]:
    """One row per seed: the recommendation's saving, interval, verdict and rule, the true
    saving of the cutoffs it recommends and (`wald`) the comparator's interval on the same rows."""
    from costlib.binary import decision as D
    from costlib.binary.model_sweeps import sweep_model
    from costlib.core import rules as R

    rows = []
    for seed in seeds:
        y, s, g = design.draw(seed)
        grouped = len(design.shares) > 1
        ms = sweep_model(y, s, g if grouped else None, probabilities=False)
        rec = D.recommend(ms, (design.c_fp, design.c_fn), n_resamples=n_resamples, seed=int(seed) % 1000)
        names = [f"g{i}" for i in range(len(design.shares))] if grouped else list(rec.cutoffs)
        cut = [rec.cutoffs.get(n, rec.cutoffs.get(next(iter(rec.cutoffs)))) for n in names]
        row = {
            "seed": int(seed),
            "saving": rec.saving,
            "low": rec.saving_low,
            "high": rec.saving_high,
            "ship": bool(rec.ship_model),
            "per_group": bool(rec.ship_model and rec.rule == R.COST_OPTIMAL),
            "truth": design.saving(np.array(cut, dtype=np.float64)) if len(cut) > 1 else design.saving(cut[0]),
            "best": design.best_saving,
        }
        if wald:
            est, lo, hi = wald_interval(y, s, c_fp=design.c_fp, c_fn=design.c_fn, seed=seed)
            row.update(wald_saving=est, wald_low=lo, wald_high=hi, wald_ship=lo > 0)
        rows.append(row)
    return rows


def summarize(rows: list[dict]) -> dict:
    """Over the rows of `judge_design`: ship rates, coverage of the shipped cutoffs' true saving,
    mean width over the ideal (3.92 x the standard deviation of the estimate's error) and the
    mean error (centre bias)."""
    saving = np.array([r["saving"] for r in rows])
    truth = np.array([r["truth"] for r in rows])
    low, high = np.array([r["low"] for r in rows]), np.array([r["high"] for r in rows])
    err = saving - truth
    ideal = 3.92 * float(np.std(err, ddof=1)) if len(rows) > 1 else math.nan
    out = {
        "runs": len(rows),
        "ships": float(np.mean([r["ship"] for r in rows])),
        "per_group": float(np.mean([r["per_group"] for r in rows])),
        "coverage": float(np.mean((low <= truth) & (truth <= high))),
        "width_over_ideal": float(np.nanmean(high - low) / ideal) if ideal > 0 else math.nan,
        "bias": float(np.mean(err)),
    }
    if ideal > 0:  # an interval of the ideal width about the same estimate: the most an honest one ships
        out["ideal_ships"] = float(np.mean(saving - ideal / 2 > 0))
    if "wald_ship" in rows[0]:
        out["wald_ships"] = float(np.mean([r["wald_ship"] for r in rows]))
        w_err = np.array([r["wald_saving"] for r in rows]) - truth
        w_lo, w_hi = np.array([r["wald_low"] for r in rows]), np.array([r["wald_high"] for r in rows])
        out["wald_coverage"] = float(np.mean((w_lo <= truth) & (truth <= w_hi)))
        w_ideal = 3.92 * float(np.std(w_err, ddof=1)) if len(rows) > 1 else math.nan
        out["wald_width_over_ideal"] = float(np.mean(w_hi - w_lo) / w_ideal) if w_ideal > 0 else math.nan
    return out
