"""What honest estimates cost: the first recommendation (folds and refit draws are made) and a
price move (they are reweighted), as ratios to a plain np.argsort of the same scores.

    python benchmarks/honest.py                 # 1e5 and 1e6 rows, with and without a split
    python benchmarks/honest.py --sizes 1e5     # one size
    python benchmarks/honest.py --capacity 0.2  # also under a review limit of 20% of the cases

Under a review limit the prices differ by group (so that per-group cutoffs share the limit: the
knapsack runs on every fold and every resample).

Data: uniform scores with a signal (about n distinct values: the worst case), 3 groups,
1,000 resamples (the dashboard's and the command line's default). Each figure is the median of
a few repeats measured in this run; ratios compare like with like across machines.
"""

from __future__ import annotations

import argparse
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
        for _ in range(2):  # a fresh model each time: the folds and draws are made again
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e5,1e6", help="comma-separated row counts")
    parser.add_argument("--capacity", type=float, help="also under a review limit (a share of the cases)")
    args = parser.parse_args()
    print(f"{'rows':>9}  {'data':<18} {'first (s)':>9} {'x argsort':>9} {'move (ms)':>9} {'x argsort':>9}")
    for n in (int(float(x)) for x in args.sizes.split(",")):
        caps = (None,) if args.capacity is None else (None, args.capacity)
        for rows, name, first, move, argsort in (r for cap in caps for r in run(n, cap)):
            ratios = f"{first / argsort:>9.1f} {1000 * move:>9.0f} {move / argsort:>9.2f}"
            print(f"{rows:>9,}  {name:<18} {first:>9.2f} {ratios}")


if __name__ == "__main__":
    main()
