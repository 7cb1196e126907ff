"""Costs & groups on rows that carry weights: is noise shipped, is a model that pays, does the interval hold?

    python benchmarks/weighted_honesty.py                 # 200 data sets per design (a few minutes)
    python benchmarks/weighted_honesty.py --runs 40
    python benchmarks/weighted_honesty.py --heavy         # heavy-tailed weights, and a review limit of 20%
    python benchmarks/weighted_honesty.py --heavy --designs 0,2,4   # some of them (two shells: two cores)

The population: binormal scores (negatives N(0, 1), positives N(d, 1), d = sqrt(2) Phi^-1(AUC)),
base rate `rate`, two groups (70/30) with the same signal. The file holds every positive and a
share `keep` of the negatives, each kept negative with weight 1 / keep (the common case of
downsampled negatives); "jitter" multiplies every weight by a lognormal(0, 0.5) factor as
well (survey-like weights), and the `--heavy` designs by a heavy-tailed one (`factor`: Pareto of
shape 1.5 or 2.5, lognormal(0, 1) or (0, 1.5)), some under a review limit of 20%. No split:
`decision.recommend` fits the cutoffs on the rows and judges them cross-fitted, row by row
(`binary.weighted_rows`).

The truth a saving is judged against is the population's: a cutoff t costs
c_fp (1 - rate) P(N(0, 1) >= t) + c_fn rate P(N(d, 1) < t) per case, the no-model choice
min(c_fn rate, c_fp (1 - rate)); the truth is the shipped cutoffs' saving (each group at its
cutoff and its share) over the better no-model choice in the population. Coverage is of that
truth; "width / ideal" is the mean width over 3.92 x the standard deviation of the estimate's error.
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy.stats import norm

from costlib.binary import decision as D
from costlib.binary.simulation import summarize
from costlib.core import rules as R

# (population rows, AUC, base rate, share of negatives kept, price of a missed case, jitter)
DESIGNS = (
    (3000, 0.5, 0.1, 0.2, 9.0, False),
    (3000, 0.5, 0.1, 0.2, 5.0, True),
    (20000, 0.5, 0.1, 0.1, 9.0, False),
    (1000, 0.5, 0.3, 0.5, 3.0, False),
    (3000, 0.7, 0.1, 0.2, 5.0, False),
    (20000, 0.7, 0.1, 0.1, 9.0, True),
    (3000, 0.96, 0.1, 0.2, 3.0, False),
)

# (design as in DESIGNS, review limit): heavy-tailed weights, and the plain ones under a limit
HEAVY = (
    ((3000, 0.5, 0.1, 0.2, 9.0, False), 0.2),
    ((3000, 0.7, 0.1, 0.2, 5.0, False), 0.2),
    ((3000, 0.5, 0.1, 0.2, 9.0, "pareto 1.5"), None),
    ((3000, 0.5, 0.1, 0.2, 9.0, "pareto 1.5"), 0.2),
    ((20000, 0.5, 0.1, 0.1, 9.0, "pareto 1.5"), None),
    ((3000, 0.5, 0.1, 0.2, 9.0, "lognormal 1.5"), None),
    ((3000, 0.5, 0.1, 0.2, 9.0, "lognormal 1.5"), 0.2),
    ((20000, 0.5, 0.1, 0.1, 9.0, "lognormal 1.5"), 0.2),
    ((1000, 0.5, 0.3, 0.5, 3.0, "lognormal 1.5"), 0.2),
    ((3000, 0.7, 0.1, 0.2, 5.0, "pareto 1.5"), None),
    ((3000, 0.7, 0.1, 0.2, 5.0, "pareto 1.5"), 0.2),
    ((3000, 0.7, 0.1, 0.2, 5.0, "pareto 2.5"), None),
    ((3000, 0.7, 0.1, 0.2, 5.0, "lognormal 1.0"), None),
    ((3000, 0.7, 0.1, 0.2, 5.0, "lognormal 1.5"), None),
    ((3000, 0.7, 0.1, 0.2, 5.0, "lognormal 1.5"), 0.2),
    ((20000, 0.7, 0.1, 0.1, 9.0, "pareto 1.5"), None),
    ((20000, 0.7, 0.1, 0.1, 9.0, "lognormal 1.5"), None),
    ((20000, 0.7, 0.1, 0.1, 9.0, "lognormal 1.5"), 0.2),
    ((3000, 0.96, 0.1, 0.2, 3.0, "pareto 1.5"), None),
    ((3000, 0.96, 0.1, 0.2, 3.0, "lognormal 1.5"), None),
)


def factor(jitter, rng: np.random.Generator, size: int) -> np.ndarray:
    """Each kept row's weight factor: `jitter` True is "lognormal 0.5"; "lognormal s" draws
    lognormal(0, s), "pareto a" a Pareto of shape a and minimum 1 (heavy-tailed: its variance is
    infinite below a = 2). The factor is drawn apart from the row, so the weighted rows still
    stand for the population."""
    kind, shape = ("lognormal 0.5" if jitter is True else jitter).split()
    if kind == "pareto":
        return 1.0 + rng.pareto(float(shape), size)
    return rng.lognormal(0.0, float(shape), size)


def draw(n: int, auc: float, rate: float, keep: float, jitter, seed: int):
    """(labels, scores, groups, weights) of one data set (`jitter`: False, or a `factor`)."""
    rng = np.random.default_rng(seed)
    d = np.sqrt(2.0) * norm.ppf(auc)
    y = rng.random(n) < rate
    kept = y | (rng.random(n) < keep)
    y = y[kept]
    s = rng.standard_normal(y.size) + d * y
    w = np.where(y, 1.0, 1.0 / keep)
    if jitter:
        w = w * factor(jitter, rng, y.size)
    g = np.where(rng.random(y.size) < SHARES["a"], "a", "b")
    return y, s, g, w


SHARES = {"a": 0.7, "b": 0.3}  # the groups' shares of the population (the same signal and base rate)


def truth(rec, auc: float, rate: float, c_fn: float, capacity: float | None = None) -> float:
    """The population saving of `rec`'s shipped cutoffs (one per group: each at its group's share)
    over the better no-model choice in the population (under a review limit `capacity`: flagging
    nobody, or flagging that share at random)."""
    d = np.sqrt(2.0) * norm.ppf(auc)
    cost = sum(
        share * ((1 - rate) * norm.sf(rec.cutoffs[g]) + c_fn * rate * norm.cdf(rec.cutoffs[g] - d))
        for g, share in SHARES.items()
    )
    nobody, everyone = c_fn * rate, 1 - rate
    other = everyone if capacity is None else capacity * everyone + (1 - capacity) * nobody
    return float(min(nobody, other) - cost)


def run(
    n: int, auc: float, rate: float, keep: float, c_fn: float, jitter, data_sets: int, capacity: float | None = None
) -> dict:
    """`simulation.summarize` of the design's data sets (ships, coverage, width over the ideal,
    centre bias), ``shipped_truth``: the mean true saving of what was shipped, and ``n_eff``: the
    median of Kish's effective number of rows, sum(w)^2 / sum(w^2)."""
    rows, n_eff = [], []
    for seed in range(data_sets):
        y, s, g, w = draw(n, auc, rate, keep, jitter, 20_000 + seed)
        n_eff.append(w.sum() ** 2 / np.sum(w * w))
        ms = D.sweep_model(y, s, g, sample_weight=w)
        rec = D.recommend(ms, (1.0, c_fn), n_resamples=200, seed=seed, capacity=capacity)
        rows.append(
            {
                "saving": rec.saving,
                "truth": truth(rec, auc, rate, c_fn, capacity),
                "low": rec.saving_low,
                "high": rec.saving_high,
                "ship": rec.ship_model,
                "per_group": rec.rule != R.SINGLE,
            }
        )
    shipped = [r["truth"] for r in rows if r["ship"]]
    return {
        **summarize(rows),
        "shipped_truth": float(np.mean(shipped)) if shipped else float("nan"),
        "n_eff": float(np.median(n_eff)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", "--data-sets", dest="runs", type=int, default=200, help="data sets a design")
    ap.add_argument("--heavy", action="store_true", help="heavy-tailed weights, and a review limit (HEAVY)")
    ap.add_argument("--designs", help="only these designs, by their place in the list (0,2,4)")
    args = ap.parse_args()
    designs = HEAVY if args.heavy else tuple((d, None) for d in DESIGNS)
    if args.designs:
        designs = tuple(designs[int(i)] for i in args.designs.split(","))
    head = ("population rows", "AUC", "base rate", "negatives kept", "prices", "weights", "limit", "Kish rows")
    print("| " + " | ".join((*head, "ships", "coverage", "width / ideal")) + " |")
    print("|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---:|")
    for (n, auc, rate, keep, c_fn, jitter), capacity in designs:
        r = run(n, auc, rate, keep, c_fn, jitter, args.runs, capacity)
        weights = {False: "1 / kept share", True: "jittered"}.get(jitter, jitter)
        print(
            f"| {n:,} | {auc} | {rate} | {keep} | 1:{c_fn:g} | {weights} | "
            f"{'none' if capacity is None else f'{capacity:.0%}'} | {r['n_eff']:,.0f} | "
            f"{r['ships']:.3f} | {r['coverage']:.3f} | {r['width_over_ideal']:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
