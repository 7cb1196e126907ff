"""Instance costs without a split: is a cutoff picked on noise shipped, and does the interval hold?

    python benchmarks/instance_honesty.py                 # 200 data sets per design (about 1 minute)
    python benchmarks/instance_honesty.py --data-sets 40

Binormal scores (negatives N(0, 1), positives N(mu, 1)), each case's price |delta| lognormal(0,
sigma) independent of its label and score, no train/test split: `instance.recommend_nec` picks
the NEC-optimal cutoff on all rows and judges it cross-fitted (`binary.row_crossfit`). A cutoff t
truly costs rate Phi(t - mu) + (1 - rate) (1 - Phi(t)) in NEC, and the no-model choice rate (flag
nobody) or 1 - rate (flag everyone). Coverage is of the shipped cutoff's true saving; "width /
ideal" is the mean width over 3.92 x the standard deviation of the estimate's error.
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy.stats import norm

from costlib.core import ship as S
from costlib.instance import recommend_nec

# (rows, base rate, mu, sigma): no signal (mu 0) at two sizes and two spreads of prices, then signal
DESIGNS = (
    (300, 0.5, 0.0, 1.5),
    (2000, 0.5, 0.0, 1.5),
    (2000, 0.45, 0.0, 1.0),
    (300, 0.3, 1.0, 1.0),
    (2000, 0.3, 1.0, 1.0),
    (2000, 0.5, 0.5, 1.0),
    (300, 0.5, 1.0, 0.5),
)


def run(n: int, rate: float, mu: float, sigma: float, data_sets: int) -> dict:
    ships, covered, err, width = 0, 0, [], []
    for seed in range(data_sets):
        rng = np.random.default_rng(10_000 + seed)
        y = rng.random(n) < rate
        scores = rng.standard_normal(n) + mu * y
        size = rng.lognormal(0.0, sigma, n)
        rec = recommend_nec({"m": scores}, np.where(y, size, -size), n_resamples=200, seed=seed)
        t = rec.threshold
        nec = rate * norm.cdf(t - mu) + (1 - rate) * norm.sf(t) if np.isfinite(t) else min(rate, 1 - rate)
        truth = (rate if rec.baseline == "flag nobody" else 1 - rate) - nec
        ships += rec.status == S.SAVES
        if np.isfinite(rec.saving_low):
            covered += rec.saving_low <= truth <= rec.saving_high
            err.append(rec.saving - truth)
            width.append(rec.saving_high - rec.saving_low)
    return {
        "ships": ships / data_sets,
        "coverage": covered / max(len(err), 1),
        "width_over_ideal": float(np.mean(width) / (3.92 * np.std(err))) if len(err) > 1 else float("nan"),
        "bias": float(np.mean(err)) if err else float("nan"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-sets", type=int, default=200)
    args = ap.parse_args()
    print("| rows | base rate | mu (AUC) | sigma | ships | coverage | width / ideal | centre bias |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, rate, mu, sigma in DESIGNS:
        r = run(n, rate, mu, sigma, args.data_sets)
        auc = norm.cdf(mu / np.sqrt(2))
        print(
            f"| {n:,} | {rate} | {mu} ({auc:.2f}) | {sigma} | {r['ships']:.3f} | {r['coverage']:.3f} | "
            f"{r['width_over_ideal']:.2f} | {r['bias']:+.4f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
