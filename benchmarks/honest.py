"""What honest estimates cost: the first recommendation (the deals into folds and the refit draws
are made) and a price move (they are reweighted), as ratios to a plain np.argsort of the same scores.

    python benchmarks/honest.py                 # 1e5 and 1e6 rows, with and without a split
    python benchmarks/honest.py --sizes 1e5     # one size
    python benchmarks/honest.py --capacity 0.2  # also under a review limit of 20% of the cases
    python benchmarks/honest.py --simulate      # the honest verdict on data with a known truth (issue 43)
    python benchmarks/honest.py --simulate --runs 40   # fewer data sets per design (faster)
    python benchmarks/honest.py --smoothed 1 --runs 200  # issue 43's rejected try: a smoothed cost curve's argmin

Under a review limit the prices differ by group (so that per-group cutoffs share the limit: the
knapsack runs on every fold and every resample).

Data: uniform scores with a signal (about n distinct values: the worst case), 3 groups,
1,000 resamples (the dashboard's and the command line's default). Each figure is the median of
a few repeats measured in this run; ratios compare like with like across machines.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the working tree's costlib

from costlib.binary import decision as D  # noqa: E402


def timed(fn, repeat: int = 3) -> float:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def run(n: int, capacity: float | None = None) -> list[tuple]:
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, n)
    s = np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1)
    g = rng.choice(["a", "b", "c"], n)
    split = rng.random(n) < 0.5
    argsort = timed(lambda: np.argsort(s, kind="stable"))
    rows = []

    def book(p: float):
        return (1, p) if capacity is None else {"a": (1.0, p), "b": (1.0, 2 * p), "c": (2.0, p)}

    for name, kw in (("split", {"fit": split, "judge": ~split}), ("no split", {})):
        first = []
        for _ in range(2):  # a fresh model each time: the deals and draws are made again
            ms = D.sweep_model(y, s, g, **kw)
            t = time.perf_counter()
            D.recommend(ms, book(2.0), n_resamples=1000, capacity=capacity)
            first.append(time.perf_counter() - t)
        prices = iter(np.linspace(2.05, 3.0, 20))
        move = timed(
            lambda ms=ms, prices=prices: D.recommend(
                ms, book(float(next(prices))), n_resamples=1000, capacity=capacity
            ),
            repeat=5,
        )
        label = name if capacity is None else f"{name}, cap {capacity:.0%}"
        rows.append((n, label, statistics.median(first), move, argsort))
    return rows


PRICES = ((1.0, 1.0), (1.0, 3.0), (1.0, 10.0))
SHARES = ((0.7, 0.3), (0.5, 0.3, 0.2), (0.4, 0.3, 0.15, 0.1, 0.05))


def no_signal_designs(sizes=(300, 2000, 20_000)) -> list:
    """No signal (AUC 0.5) across rows, base rates, 2 to 5 unequal groups and prices: every
    combination of size and price, the base rate and the groups turning with them (the base rate
    where flagging costs about what the baseline does, the hardest, comes up at every size)."""
    from costlib.binary.simulation import Design

    rates = (0.5, 0.25, 0.1, 0.3)
    out = []
    for i, n in enumerate(sizes):
        for j, (c_fp, c_fn) in enumerate(PRICES):
            for m in range(len(rates)):
                out.append(Design(n, 0.5, rates[(i + j + m) % 4], c_fp, c_fn, SHARES[(i + j + m) % 3]))
    return out


def signal_designs(sizes=(300, 2000), aucs=(0.70, 0.96), base_rate=0.3) -> list:
    """A known signal: one group, base rate 0.3, each AUC, size and price ratio."""
    from costlib.binary.simulation import Design

    return [Design(n, a, base_rate, c_fp, c_fn) for n in sizes for a in aucs for c_fp, c_fn in PRICES]


def simulate(runs: int) -> None:
    """Print the verdicts' figures on the simulated designs (`costlib.binary.simulation`)."""
    from costlib.binary.simulation import judge_design, summarize

    def line(d, s):
        head = f"{d.n:>6,} {d.auc:>4.2f} {d.base_rate:>4.2f} {d.c_fp:g}:{d.c_fn:g} {len(d.shares)}"
        print(f"{head:<28} " + " ".join(f"{k}={v:.3f}" for k, v in s.items() if k != "runs"), flush=True)

    print(f"Known signal, {runs} data sets a design (truth: the shipped cutoffs' true saving)")
    for d in signal_designs():
        line(d, {"best": d.best_saving, **summarize(judge_design(d, range(runs)))})

    print(f"No signal, {runs} data sets a design (false ships: 'ships'; per-group cutoffs shipped: 'per_group')")
    ships = total = 0
    for d in no_signal_designs():
        rows = judge_design(d, range(runs if d.n <= 2000 else max(1, runs // 5)), wald=d.n <= 2000)
        ships += sum(r["ship"] for r in rows)
        total += len(rows)
        line(d, summarize(rows))
    print(f"false ships: {ships} of {total}")


SMOOTHED_DESIGNS = (  # (n, AUC, base rate, c_fp, c_fn): where a smoothed pick helped or hurt
    (300, 0.5, 0.3, 1.0, 10.0),
    (2000, 0.5, 0.5, 1.0, 3.0),
    (300, 0.5, 0.1, 1.0, 10.0),
    (2000, 0.7, 0.3, 1.0, 10.0),
    (300, 0.7, 0.3, 1.0, 3.0),
    (300, 0.7, 0.3, 1.0, 1.0),
)


def smoothed_pick(par: float):
    """A context that makes the product pick fitted cutoffs by the argmin of the cost curve's
    moving average over +- ``par * sqrt(entries)`` neighbouring cutoffs (about rows, with
    continuous scores) instead of the argmin of the curve itself: the cross-fit's picks
    (`folds.argbest`), the shipped single cutoff (`judged_rules.argbest`) and the per-group one
    (`Sweep.best`), so that the estimate is of the procedure shipped. Issue 43's try at a less
    noisy rule at small n, rejected (`benchmarks/README.md`): an experiment, not a product option."""
    import math
    from unittest.mock import patch

    from costlib.binary import folds, judged_rules
    from costlib.core import sweep

    plain, plain_best = sweep.argbest, sweep.Sweep.best

    def argbest(values, *, maximize=False):
        v = np.asarray(values, dtype=np.float64)
        if maximize or v.size < 50 or not np.all(np.isfinite(v)):
            return plain(values, maximize=maximize)
        h = max(1, round(par * math.sqrt(v.size - 1)))
        padded = np.concatenate((np.full(h, v[0]), v, np.full(h, v[-1])))
        cum = np.concatenate(([0.0], np.cumsum(padded)))
        return int(np.argmin(cum[2 * h + 1 :] - cum[: -2 * h - 1]))  # ties: the larger cutoff

    def best(self, c_fp, c_fn):
        if self.positives <= 0 or self.negatives <= 0:
            return plain_best(self, c_fp, c_fn)
        return argbest(self.errors_cost(c_fp, c_fn))

    stack = contextlib.ExitStack()
    for target, name, new in (
        (folds, "argbest", argbest),
        (judged_rules, "argbest", argbest),
        (sweep.Sweep, "best", best),
    ):
        stack.enter_context(patch.object(target, name, new))
    return stack


def smoothed(par: float, runs: int) -> None:
    """Print the verdicts' figures with the plain and the smoothed pick (`smoothed_pick`) on
    `SMOOTHED_DESIGNS`, the same seeds for both, 200 resamples (the saving's interval does not
    read them)."""
    from costlib.binary.simulation import Design, judge_design, summarize

    for n, auc, rate, c_fp, c_fn in SMOOTHED_DESIGNS:
        d = Design(n, auc, rate, c_fp, c_fn)
        for label in ("argmin", f"smoothed {par:g}"):
            with smoothed_pick(par) if label != "argmin" else contextlib.nullcontext():
                rows = judge_design(d, range(runs), n_resamples=200, wald=auc > 0.5)
            s = summarize(rows)
            s["truth"] = float(np.mean([r["truth"] for r in rows]))
            head = f"{n:>6,} {auc:>4.2f} {rate:>4.2f} {c_fp:g}:{c_fn:g} {label:<12}"
            print(head + " ".join(f"{k}={v:.3f}" for k, v in s.items() if k not in ("runs", "per_group")), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e5,1e6", help="comma-separated row counts")
    parser.add_argument("--capacity", type=float, help="also under a review limit (a share of the cases)")
    parser.add_argument("--simulate", action="store_true", help="judge the verdicts on simulated data instead")
    parser.add_argument("--runs", type=int, default=200, help="data sets per simulated design")
    parser.add_argument("--smoothed", type=float, help="issue 43's try: pick cutoffs on a smoothed cost curve")
    args = parser.parse_args()
    if args.smoothed is not None:
        smoothed(args.smoothed, args.runs)
        return
    if args.simulate:
        simulate(args.runs)
        return
    print(f"{'rows':>9}  {'data':<18} {'first (s)':>9} {'x argsort':>9} {'move (ms)':>9} {'x argsort':>9}")
    for n in (int(float(x)) for x in args.sizes.split(",")):
        caps = (None,) if args.capacity is None else (None, args.capacity)
        for rows, name, first, move, argsort in (r for cap in caps for r in run(n, cap)):
            ratios = f"{first / argsort:>9.1f} {1000 * move:>9.0f} {move / argsort:>9.2f}"
            print(f"{rows:>9,}  {name:<18} {first:>9.2f} {ratios}")


if __name__ == "__main__":
    main()
