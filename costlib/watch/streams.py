"""Simulated months with a known truth, for the tests and the benchmark of the label-free watch.

A case has one number x, normal around +1 for positives and -1 for negatives (sd 1); the model's
score is the Bayes posterior of x at the base rate `TRAIN_PRIOR`, so it is calibrated where the
policy was fitted. Three kinds of newer month:

- `label_shift`: only the base rate moves (the cases of each class look as before);
- `covariate_shift`: x is drawn from another normal and the outcome from the same posterior, so
  the model stays calibrated while the scores move (NannyML's CBPE assumes this);
- `changed_model`: the classes overlap more than they did (the model lost signal), a change that
  neither reading explains.
"""

from __future__ import annotations

import math

import numpy as np

TRAIN_PRIOR = 0.2
PRICES = (1.0, 3.0)
DIGITS = 4  # scores rounded as a file would hold them


def posterior(x: np.ndarray, prior: float = TRAIN_PRIOR) -> np.ndarray:
    """P(positive | x) at the base rate `prior`."""
    return 1.0 / (1.0 + np.exp(-(2.0 * x + math.log(prior / (1.0 - prior)))))


def label_shift(rng: np.random.Generator, n: int, prior: float, separation: float = 1.0):
    """(y, score) of `n` cases at the base rate `prior`; `separation` below 1: the model changed."""
    y = (rng.random(n) < prior).astype(int)
    x = rng.normal(np.where(y == 1, separation, -separation), 1.0)
    return y, np.round(posterior(x), DIGITS)


def covariate_shift(rng: np.random.Generator, n: int, mean: float, sd: float):
    """(y, score) of `n` cases whose x is normal(mean, sd), outcomes from the same posterior."""
    x = rng.normal(mean, sd, n)
    p = posterior(x)
    return (rng.random(n) < p).astype(int), np.round(p, DIGITS)


def changed_model(rng: np.random.Generator, n: int, prior: float = TRAIN_PRIOR):
    """(y, score) of `n` cases whose classes overlap more than the model knows (x at +-0.4)."""
    return label_shift(rng, n, prior, separation=0.4)


def shipped(rng: np.random.Generator, n: int = 4000, prices=PRICES) -> dict:
    """A policy as `costlib.watch.report` reads one, fitted on `n` reference cases: the
    cost-optimal cutoff of those cases, their base rate and their reference record."""
    from costlib.binary.costs import optimal_threshold
    from costlib.core.sweep import threshold_sweep
    from costlib.watch.reference import reference_record

    y, s = label_shift(rng, n, TRAIN_PRIOR)
    cut, _ = optimal_threshold(y, s, c_fp=prices[0], c_fn=prices[1])
    return {
        "thresholds": {"everyone": float(cut)},
        "prices": {"everyone": tuple(prices)},
        "base_rate": float(y.mean()),
        "reference": reference_record(threshold_sweep(y, s)),
        "data": {"n_rows": n},
    }


def true_cost(cutoff: float, prior: float, prices=PRICES, n: int = 400_000, seed: int = 99) -> float:
    """The expected cost per case of flagging at `cutoff` among label-shift cases at `prior`
    (a large sample, each case at its true probability)."""
    _, s = label_shift(np.random.default_rng(seed), n, prior)
    with np.errstate(divide="ignore", invalid="ignore"):  # a score of 1: odds without end, probability 1
        odds = s / (1.0 - s) * (prior / (1.0 - prior)) / (TRAIN_PRIOR / (1.0 - TRAIN_PRIOR))
        p = np.where(np.isinf(odds), 1.0, odds / (1.0 + odds))
    return float(np.mean(np.where(s >= cutoff, (1.0 - p) * prices[0], p * prices[1])))


def paper_em(p: np.ndarray, train_prior: float, *, tol: float = 1e-13, steps: int = 200_000) -> tuple[float, int]:
    """Saerens, Latinne and Decaestecker's EM as the paper writes it, the reference the root-finder
    (`costlib.watch.shift.prior_fixed_points`) is tested and timed against: move every probability
    to the estimate, take their mean, until a step moves it by less than `tol`. (base rate, steps)."""
    from costlib.watch.shift import move_to_prior

    q = train_prior
    for step in range(1, steps + 1):
        new = float(np.mean(move_to_prior(p, q, train_prior)))
        if abs(new - q) < tol or not 0 < new < 1:
            return new, step
        q = new
    return q, steps


def estimate_month(policy: dict, scores: np.ndarray, labels=None, *, n_resamples: int = 300, seed: int = 0, **kw):
    """`costlib.watch.estimate.estimate_period` of one simulated month under a `shipped` policy
    (one group, no outcomes unless `labels`, NaN where unknown)."""
    from costlib.watch.estimate import estimate_period, reference_prior

    prior, se = reference_prior(policy)
    return estimate_period(
        scores,
        np.full(scores.size, "everyone", dtype=object),
        np.full(scores.size, np.nan) if labels is None else np.asarray(labels, dtype=float),
        costs=policy["prices"],
        cutoffs=policy["thresholds"],
        train_prior=prior,
        train_prior_se=se,
        reference=policy.get("reference"),
        n_resamples=n_resamples,
        seed=seed,
        **kw,
    )
