"""What honest estimates cost: the first recommendation (the deals into folds and the refit draws
are made) and a price move (they are reweighted), as ratios to a plain np.argsort of the same scores.

    python benchmarks/honest.py                 # 1e5 and 1e6 rows, with and without a split
    python benchmarks/honest.py --sizes 1e5     # one size
    python benchmarks/honest.py --capacity 0.2  # also under a review limit of 20% of the cases
    python benchmarks/honest.py --simulate      # the honest verdict on data with a known truth (issue 43)
    python benchmarks/honest.py --simulate --runs 40   # fewer data sets per design (faster)
    python benchmarks/honest.py --smoothed 1 --runs 200  # issue 43's rejected try: a smoothed cost curve's argmin
    python benchmarks/honest.py --groups-simulate --runs 40   # per-group costs, extra saving, review limit (issue 43)
    python benchmarks/honest.py --value-simulate --runs 40    # the Value page's gain (issue 43)
    python benchmarks/honest.py --value-simulate --value-cap 0.2 --runs 40   # within a cap on hand-overs
    python benchmarks/honest.py --one-interval --runs 100   # per-group prices: one figure, one interval (issue 43)
    python benchmarks/honest.py --outcome-simulate --runs 200   # the Value page at separate prices (per outcome)
    python benchmarks/honest.py --binary-spread --runs 500 --resamples 2000   # issue 43: the single cutoff's moves

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


GROUP_DESIGNS = (  # (rows, AUC, each group's base rate, the groups' shares of the rows): unequal groups
    (2000, 0.70, (0.3, 0.3), (0.7, 0.3)),
    (2000, 0.96, (0.3, 0.3, 0.3), (0.5, 0.3, 0.2)),
    (2000, 0.70, (0.15, 0.45), (0.7, 0.3)),
    (2000, 0.96, (0.1, 0.25, 0.4, 0.6), (0.4, 0.3, 0.2, 0.1)),
    (300, 0.70, (0.15, 0.45), (0.7, 0.3)),
    (300, 0.96, (0.3, 0.3, 0.3), (0.5, 0.3, 0.2)),
)


def interval_figures(est, low, high, truth) -> dict:
    """Coverage of `truth` by [`low`, `high`], the mean width over the ideal (3.92 x the standard
    deviation of the estimate's error against the truth across data sets) and the mean error
    (centre bias), over arrays of one value per data set (NaN rows are left out)."""
    est, low, high, truth = (np.asarray(x, dtype=np.float64) for x in (est, low, high, truth))
    ok = np.isfinite(est) & np.isfinite(low) & np.isfinite(high) & np.isfinite(truth)
    est, low, high, truth = est[ok], low[ok], high[ok], truth[ok]
    err = est - truth
    ideal = 3.92 * float(np.std(err, ddof=1)) if err.size > 1 else float("nan")
    return {
        "n": int(err.size),
        "coverage": float(np.mean((low <= truth) & (truth <= high))) if err.size else float("nan"),
        "width_over_ideal": float(np.mean(high - low) / ideal) if ideal > 0 else float("nan"),
        "bias": float(np.mean(err)) if err.size else float("nan"),
    }


def draw_groups(n: int, auc: float, rates, shares, seed: int, *, c_fp: float = 1.0, c_fn: float = 3.0):
    """(labels, scores, groups, per-group `Design`s) of one data set whose groups differ in base
    rate (`rates`, one a group) but not in signal: binormal scores as in `costlib.binary.simulation`,
    so each group's true cost of a cutoff is its `Design`'s formula; groups ``g0, g1, ...`` drawn
    at `shares`."""
    from costlib.binary.simulation import Design

    rng = np.random.default_rng([int(seed), 4343])
    p = np.asarray(shares, dtype=np.float64) / sum(shares)
    code = rng.choice(p.size, n, p=p)
    designs = [Design(n, auc, float(r), c_fp, c_fn) for r in rates]
    y = (rng.random(n) < np.asarray(rates, dtype=np.float64)[code]).astype(np.int64)
    s = rng.normal(0.0, 1.0, n) + designs[0].d * y
    return y, s, np.array([f"g{i}" for i in range(p.size)])[code], designs


def judge_groups(n, auc, rates, shares, seeds, *, c_fp=1.0, c_fn=3.0, n_resamples=1000) -> dict:
    """Issue 43's other intervals on data whose groups differ in base rate, one entry a data set:
    each group's cost per case under the recommended rule (``group_cost``: one (estimate, low,
    high, truth of the cutoffs shipped) a group), the per-group extra saving (``gain``: truth = the single
    cutoff's true cost minus the per-group cutoffs', both as fitted on all rows, each group at its
    share), whether the model ships (``ship``) and whether per-group cutoffs were found to pay
    (``per_group``: the recommended rule is per-group)."""
    from costlib.binary import decision as D
    from costlib.core import rules as R

    out = {"group_cost": [], "gain": [], "ship": [], "per_group": []}
    w = np.asarray(shares, dtype=np.float64) / sum(shares)
    names = [f"g{i}" for i in range(len(shares))]
    for seed in seeds:
        y, s, g, designs = draw_groups(n, auc, rates, shares, seed, c_fp=c_fp, c_fn=c_fn)
        ms = D.sweep_model(y, s, g, probabilities=False)
        rec = D.recommend(ms, (c_fp, c_fn), n_resamples=n_resamples, seed=int(seed) % 1000)

        def true_costs(rule, designs=designs, rec=rec):
            cut = rec.results.cutoffs[rule]
            return np.array([float(designs[i].cost(cut[name])) for i, name in enumerate(names)])

        bg = rec.results.by_group
        rows = bg[bg["rule"] == rec.rule].set_index("group")
        truth = true_costs(rec.rule)
        out["group_cost"].append(
            [
                (
                    float(rows.loc[nm, "cost_per_case"]),
                    float(rows.loc[nm, "low"]),
                    float(rows.loc[nm, "high"]),
                    truth[i],
                )
                for i, nm in enumerate(names)
            ]
        )
        if rec.group_gain is not None:
            gain = float(np.sum(w * (true_costs(R.SINGLE) - true_costs(R.COST_OPTIMAL))))
            out["gain"].append((*map(float, rec.group_gain), gain))
        out["ship"].append(bool(rec.ship_model))
        out["per_group"].append(rec.rule == R.COST_OPTIMAL)
    return out


def judge_capacity(n, auc, rate, cap, seeds, *, c_fp=1.0, c_fn=3.0, n_resamples=1000) -> list[tuple]:
    """The saving under a review limit `cap` (a share of the cases), one group, one entry a data
    set: (estimate, low, high, truth, ships). The truth is the true cost of the cheaper no-model
    choice within the limit (flag nobody, or flag a share `cap` at random) minus the true cost
    of the cutoff shipped (fitted within the limit on all rows)."""
    from costlib.binary import decision as D
    from costlib.binary.simulation import Design

    d = Design(n, auc, rate, c_fp, c_fn)
    nobody, everyone = c_fn * rate, c_fp * (1 - rate)
    base = min(nobody, cap * everyone + (1 - cap) * nobody)
    out = []
    for seed in seeds:
        y, s, _ = d.draw(seed)
        ms = D.sweep_model(y, s, None, probabilities=False)
        rec = D.recommend(ms, (c_fp, c_fn), n_resamples=n_resamples, seed=int(seed) % 1000, capacity=cap)
        t = next(iter(rec.cutoffs.values()))
        out.append((rec.saving, rec.saving_low, rec.saving_high, base - float(d.cost(t)), bool(rec.ship_model)))
    return out


def judge_value(n, auc, accuracy, k, seeds, *, reject_value=0.0, n_resamples=1000, max_reject=None) -> list[tuple]:
    """The Value page's gain without a split (`recommend_value` on one value sweep), one entry a
    data set: (gain, low, high, truth, ships). An answer is right with probability `accuracy`;
    its confidence is Phi of a binormal score (right N(d, 1), wrong N(0, 1)), so the true worth
    per case of accepting from confidence tau is accuracy P(N(d,1) >= t) - k (1 - accuracy)
    P(N(0,1) >= t) + reject_value P(rejected), t = Phi^-1(tau); the truth is that minus the
    true worth of the better no-model choice (hand everything over, answer everything). With a
    cap `max_reject` below 1 (a share of the cases handed over), the threshold is the best within
    it and the no-model choices are answering everything and handing over that share at random
    (`capacity.at_random`)."""
    from scipy.special import ndtr, ndtri

    from costlib.binary.capacity import at_random
    from costlib.binary.simulation import Design
    from costlib.core import ship as S
    from costlib.core.sweep import Sweep, sweep_arrays
    from costlib.value.recommendation import recommend_value

    d = Design(n, auc, accuracy)
    answer_all = accuracy - k * (1 - accuracy)
    if max_reject is None or max_reject >= 1:
        base = max(reject_value, answer_all)
    else:
        base = max(answer_all, at_random(max_reject, answer_all, reject_value))

    def worth(tau: float) -> float:
        t = float(ndtri(tau)) if np.isfinite(tau) else np.inf
        right, wrong = accuracy * ndtr(d.d - t), (1 - accuracy) * ndtr(-t)
        return float(right - k * wrong + reject_value * (1 - right - wrong))

    out = []
    for seed in seeds:
        y, s, _ = d.draw(seed)
        thresholds, tp, fp, n_pos, n_neg = sweep_arrays(y.astype(bool), ndtr(s), None)
        sweep = Sweep(thresholds, tp, fp, n_pos, n_neg)
        rec = recommend_value(
            {"m": sweep},
            k=k,
            reject_value=reject_value,
            n_resamples=n_resamples,
            seed=int(seed) % 1000,
            max_reject=max_reject,
        )
        out.append((rec.gain, rec.gain_low, rec.gain_high, worth(rec.tau) - base, rec.status == S.SAVES))
    return out


def simulate_groups(runs: int, n_resamples: int = 1000) -> None:
    """Print the per-group cost intervals', the per-group extra saving's and the within-limit
    saving's figures (`interval_figures`) on `GROUP_DESIGNS` and the capacity designs."""

    def show(head, fig, extra=""):
        print(f"{head:<44} " + " ".join(f"{k}={v:.3f}" for k, v in fig.items() if k != "n") + extra, flush=True)

    print(f"Per-group costs and extra saving, prices 1:3, {runs} data sets a design")
    for n, auc, rates, shares in GROUP_DESIGNS:
        r = judge_groups(n, auc, rates, shares, range(runs), n_resamples=n_resamples)
        head = f"{n:>5} {auc:.2f} rates {'/'.join(f'{x:g}' for x in rates)}"
        for i in range(len(rates)):  # each group apart: the ideal is the spread of its own estimate
            each = [sets[i] for sets in r["group_cost"]]
            show(head + f" g{i} cost", interval_figures(*zip(*each, strict=True)))
        if r["gain"]:
            gain = interval_figures(*zip(*r["gain"], strict=True))
            truth = float(np.mean([x[3] for x in r["gain"]]))
            show(head + " extra saving", gain, f" truth={truth:.4f} per_group={np.mean(r['per_group']):.3f}")
        print(f"{'':<44} ships={np.mean(r['ship']):.3f}", flush=True)
    print(f"Within a review limit, one group, prices 1:3, base rate 0.3, {runs} data sets a design")
    for n, auc, cap in ((2000, 0.70, 0.2), (2000, 0.96, 0.2), (300, 0.70, 0.2), (2000, 0.5, 0.2)):
        r = judge_capacity(n, auc, 0.3, cap, range(runs), n_resamples=n_resamples)
        est, lo, hi, truth, ship = zip(*r, strict=True)
        fig = interval_figures(est, lo, hi, truth)
        show(f"{n:>5} {auc:.2f} cap {cap:g} saving", fig, f" ships={np.mean(ship):.3f}")


ONE_INTERVAL_DESIGNS = (  # (name, rows, AUC, each group's base rate, shares, each group's (c_fp, c_fn))
    ("no signal, flag everyone", 2000, 0.5, (0.3, 0.3), (0.7, 0.3), ((1, 7.5), (1, 3))),
    ("no signal, flag everyone", 300, 0.5, (0.3, 0.3), (0.7, 0.3), ((1, 7.5), (1, 3))),
    ("no signal, flag everyone", 300, 0.5, (0.35, 0.3), (0.6, 0.4), ((1, 7.5), (1, 3))),
    ("no signal, flag nobody", 2000, 0.5, (0.2, 0.2), (0.7, 0.3), ((1, 1), (1, 3))),
    ("no signal, flag nobody", 300, 0.5, (0.2, 0.25), (0.7, 0.3), ((1, 1), (1, 2))),
    ("no signal, 3 groups", 2000, 0.5, (0.4, 0.4, 0.4), (0.5, 0.3, 0.2), ((1, 3), (1, 7.5), (1, 2))),
    ("no signal, groups' choices differ", 2000, 0.5, (0.45, 0.45), (0.5, 0.5), ((1, 1), (1, 1.5))),
    ("compas-like", 2000, 0.70, (0.48, 0.35), (0.8, 0.2), ((1, 3), (1, 7.5))),
    ("weak", 300, 0.65, (0.45, 0.25), (0.6, 0.4), ((1, 3), (1, 3))),
    ("weak, per-group pays", 2000, 0.62, (0.45, 0.15), (0.6, 0.4), ((1, 3), (1, 3))),
    ("per-group pays", 2000, 0.70, (0.15, 0.45), (0.7, 0.3), ((1, 3), (1, 3))),
    ("per-group pays", 300, 0.70, (0.15, 0.45), (0.7, 0.3), ((1, 3), (1, 3))),
    ("per-group pays", 2000, 0.96, (0.1, 0.25, 0.4, 0.6), (0.4, 0.3, 0.2, 0.1), ((1, 3),) * 4),
)


def judge_one_interval(n, auc, rates, shares, prices, seeds, *, n_resamples=1000) -> list[dict]:
    """Per-group prices (`prices`: one (c_fp, c_fn) a group), one entry a data set: whether the
    single cutoff, cross-fitted, is the no-model choice on every judged row (``same``), the
    recommended rule and whether it ships, the per-group cutoffs' saving against the no-model
    choice as shown (``shown``: estimate, low, high) and +- 1.96 fold-aware standard errors
    (``fold``: the single cutoff's rule, `honest.row_se`), the extra saving (``gain``), the single
    cutoff's saving against the no-model choice (``single``), and the
    truths: the no-model choice's true cost minus the per-group cutoffs' (``truth``) and the
    single cutoff's minus theirs (``truth_gain``), all cutoffs as fitted on all rows, each
    group at its share. Data: `draw_groups` (groups differ in base rate, not in signal)."""
    from costlib.binary import decision as D
    from costlib.binary import honest as H
    from costlib.binary.simulation import Design
    from costlib.core import rules as R

    w = np.asarray(shares, dtype=np.float64) / sum(shares)
    names = [f"g{i}" for i in range(len(shares))]
    designs = [Design(n, auc, float(r), float(c[0]), float(c[1])) for r, c in zip(rates, prices, strict=True)]
    out = []
    for seed in seeds:
        y, s, g, _ = draw_groups(n, auc, rates, shares, seed)
        ms = D.sweep_model(y, s, g, probabilities=False)
        rec = D.recommend(ms, dict(zip(names, prices, strict=True)), n_resamples=n_resamples, seed=int(seed) % 1000)
        res, o = rec.results, rec.results.overall

        def true(rule, res=res):
            cut = res.cutoffs[rule]
            return float(np.sum(w * np.array([float(designs[i].cost(cut[nm])) for i, nm in enumerate(names)])))

        est = -float(o.loc[R.COST_OPTIMAL, "vs_baseline"])
        se = res.row_se.get(R.COST_OPTIMAL, float("nan"))
        out.append(
            {
                "same": R.SINGLE in res.same_as_baseline,
                "per_group": rec.rule == R.COST_OPTIMAL,
                "ship": bool(rec.ship_model),
                "shown": (est, -float(o.loc[R.COST_OPTIMAL, "vs_high"]), -float(o.loc[R.COST_OPTIMAL, "vs_low"])),
                "fold": (est, est - H.Z95 * se, est + H.Z95 * se),
                "gain": tuple(map(float, rec.group_gain)),
                "single": -float(o.loc[R.SINGLE, "vs_baseline"]),
                "truth": true(res.baseline) - true(R.COST_OPTIMAL),
                "truth_gain": true(R.SINGLE) - true(R.COST_OPTIMAL),
            }
        )
    return out


def simulate_one_interval(runs: int, n_resamples: int = 1000) -> None:
    """Print, on `ONE_INTERVAL_DESIGNS`, how often the single cutoff is the no-model choice on the
    judged rows, per-group cutoffs are recommended and the model ships, and the per-group
    cutoffs' saving's interval as shown and +- 1.96 fold-aware standard errors (`interval_figures`:
    coverage, width over the ideal), over all data sets and over those where the two are one."""
    print(f"Per-group prices, {runs} data sets a design ('same': the single cutoff is the no-model choice)")
    for name, n, auc, rates, shares, prices in ONE_INTERVAL_DESIGNS:
        r = judge_one_interval(n, auc, rates, shares, prices, range(runs), n_resamples=n_resamples)
        same = [x for x in r if x["same"]]

        def figs(rows, key, truth="truth"):
            if len(rows) < 2:
                return "-"
            f = interval_figures(*zip(*(x[key] for x in rows), strict=True), [x[truth] for x in rows])
            return f"{f['coverage']:.2f} at {f['width_over_ideal']:.2f}"

        share = {k: np.mean([x[k] for x in r]) for k in ("same", "per_group", "ship", "truth")}
        print(
            f"{name:<34} {n:>5} {auc:.2f} same={share['same']:.2f} per_group={share['per_group']:.3f}"
            f" ships={share['ship']:.3f} truth={share['truth']:+.4f}"
            f" | shown {figs(r, 'shown')} fold-aware {figs(r, 'fold')} | same: shown {figs(same, 'shown')}"
            f" fold-aware {figs(same, 'fold')} gain {figs(same, 'gain', 'truth_gain')}",
            flush=True,
        )


GROUP_ALONE_DESIGNS = (  # (name, rows, AUC, each group's base rate, shares, each group's (c_fp, c_fn))
    ("no signal, base rates 0.2 / 0.48", 2000, 0.5, (0.2, 0.48), (0.5, 0.5), ((1, 3), (1, 3))),
    ("no signal, base rates 0.2 / 0.48", 300, 0.5, (0.2, 0.48), (0.5, 0.5), ((1, 3), (1, 3))),
    *ONE_INTERVAL_DESIGNS[6:],
    ("signal, base rates 0.2 / 0.48", 2000, 0.70, (0.2, 0.48), (0.5, 0.5), ((1, 3), (1, 3))),
)


def simulate_group_alone(runs: int, n_resamples: int = 1000, capacity: float | None = None) -> None:
    """Print, on `GROUP_ALONE_DESIGNS`, how often per-group cutoffs are recommended, how often the
    model ships and with which rule, how often per-group cutoffs are held back because deciding by
    group alone saves as much (`Recommendation.held_by_groups`), and, where it ships, the true saving
    of what ships against the no-model choice and against deciding by group alone (each group's own
    cheaper choice, no model), the cutoffs as fitted on all rows, each group at its share. Within a
    review limit (`capacity`) the no-model choices are flagging at random up to it, for everyone or
    spent on the groups where a flag saves most (`costlib.binary.group_alone.shares`)."""
    from costlib.binary import decision as D
    from costlib.binary import group_alone as A
    from costlib.binary.simulation import Design
    from costlib.core import rules as R

    limit = "" if capacity is None else f", within a review limit of {capacity:g}"
    print(f"Deciding by group alone, {runs} data sets a design{limit}")
    for name, n, auc, rates, shares, prices in GROUP_ALONE_DESIGNS:
        w = np.asarray(shares, dtype=np.float64) / sum(shares)
        names = [f"g{i}" for i in range(len(shares))]
        designs = [Design(n, auc, float(r), float(c[0]), float(c[1])) for r, c in zip(rates, prices, strict=True)]
        pos, neg = w * np.array([d.base_rate for d in designs]), w * np.array([1 - d.base_rate for d in designs])
        c_fp, c_fn = np.array([d.c_fp for d in designs]), np.array([d.c_fn for d in designs])
        alone = float(A.cost(pos, neg, c_fp, c_fn, A.shares(pos, neg, c_fp, c_fn, capacity)))
        nobody, everyone = float(np.sum(c_fn * pos)), float(np.sum(c_fp * neg))
        base = min(nobody, everyone if capacity is None else (1 - capacity) * nobody + capacity * everyone)
        per_group = held = 0
        ships = {R.SINGLE: [], R.COST_OPTIMAL: []}
        for seed in range(runs):
            y, s, g, _ = draw_groups(n, auc, rates, shares, seed)
            ms = D.sweep_model(y, s, g, probabilities=False)
            costs = dict(zip(names, prices, strict=True))
            rec = D.recommend(ms, costs, n_resamples=n_resamples, seed=seed % 1000, capacity=capacity)
            per_group += rec.rule == R.COST_OPTIMAL or rec.held_by_groups
            held += rec.held_by_groups
            if rec.ship_model:
                cut = rec.results.cutoffs[rec.rule]
                true = float(np.sum(w * np.array([float(designs[i].cost(cut[nm])) for i, nm in enumerate(names)])))
                ships[rec.rule].append((base - true, alone - true))

        def said(rule, ships=ships):
            x = np.array(ships[rule]).reshape(-1, 2)
            if not len(x):
                return "0"
            return f"{len(x) / runs:.3f} (true saving {x[:, 0].mean():+.4f}, over group alone {x[:, 1].mean():+.4f})"

        print(
            f"{name:<36} {n:>5} {auc:.2f} per-group={per_group / runs:.3f} held={held / runs:.3f}"
            f" ships per-group={said(R.COST_OPTIMAL)} single={said(R.SINGLE)}",
            flush=True,
        )


def simulate_value(runs: int, n_resamples: int = 1000, max_reject: float | None = None) -> None:
    """Print the Value page's gain figures (`judge_value`): accuracy 0.7, k 2 (prices 1:3 with a
    right answer worth 1), nothing for a handed-over case; AUC 0.5 is the no-signal design. With
    `max_reject`, within that cap on the cases handed over."""
    cap = "" if max_reject is None else f", at most {max_reject:g} handed over"
    print(f"Value's gain without a split, accuracy 0.7, k 2{cap}, {runs} data sets a design")
    for n in (2000, 300):
        for auc in (0.70, 0.96, 0.5):
            r = judge_value(n, auc, 0.7, 2.0, range(runs), n_resamples=n_resamples, max_reject=max_reject)
            est, lo, hi, truth, ship = zip(*r, strict=True)
            fig = interval_figures(est, lo, hi, truth)
            print(
                f"{n:>5} {auc:.2f} gain " + " ".join(f"{k}={v:.3f}" for k, v in fig.items() if k != "n"),
                f"ships={np.mean(ship):.3f} truth={np.mean(truth):.4f}",
                flush=True,
            )


OUTCOME_PRICES = (
    (1.0, 10.0),
    (1.0, 3.0),
)  # (c_fp, c_fn) with a right answer worth 1: k_fp, k_fn as the page passes them


def outcome_worth(d: float, base_rate: float, t_pos: float, t_neg: float, *, k_fp, k_fn, k_tp=1.0, r=0.0) -> float:
    """The true worth per case of the per-outcome rule (`value.per_outcome`) on the design of
    `judge_outcome`: scores N(d y, 1), the model's probability p = Phi(s - d/2), so it answers
    positive when s >= d/2; a positive answer is accepted when p >= t_pos (s >= d/2 + Phi^-1(t_pos)),
    a negative one when 1 - p >= t_neg (s <= d/2 - Phi^-1(t_neg)); -inf accepts every such answer,
    inf none."""
    from scipy.special import ndtr, ndtri

    def cut(t: float) -> float:  # how far past d/2 an answer of confidence t lies
        return np.inf if t == np.inf else (0.0 if t <= 0.5 else float(ndtri(t)))

    a, b = d / 2 + cut(t_pos), d / 2 - cut(t_neg)  # accepted: s >= a (positive), s < b (negative)
    pos_right, pos_wrong = base_rate * ndtr(d - a), (1 - base_rate) * ndtr(-a)
    neg_right, neg_wrong = (1 - base_rate) * ndtr(b), base_rate * ndtr(b - d)
    answered = pos_right + pos_wrong + neg_right + neg_wrong
    return float(k_tp * pos_right - k_fp * pos_wrong + neg_right - k_fn * neg_wrong + r * (1 - answered))


def outcome_baseline(d: float, base_rate: float, *, k_fp, k_fn, k_tp=1.0, r=0.0) -> float:
    """The true worth per case of the best choice without the model's thresholds, the module's four:
    hand every case over, the model answers every case, answer positive for every case, negative."""
    answer_all = outcome_worth(d, base_rate, -np.inf, -np.inf, k_fp=k_fp, k_fn=k_fn, k_tp=k_tp, r=r)
    return max(r, answer_all, base_rate * k_tp - (1 - base_rate) * k_fp, (1 - base_rate) - base_rate * k_fn)


def judge_outcome(n, auc, c_fp, c_fn, seeds, *, base_rate=0.3) -> list[tuple]:
    """The Value page's answer at separate prices without a split (`recommend_outcome`, cross-fitted),
    one entry a data set: (gain, low, high, truth, ships). Rows as `costlib.binary.simulation.Design`
    draws them (base rate, negatives N(0, 1), positives N(d, 1)); the model's probability is
    Phi(s - d/2) (without signal uniform and unrelated to the label). A right answer is worth 1, a case
    handed over 0, k_fp = c_fp and k_fn = c_fn (the page's units at a right answer worth 1). The truth
    is the shipped thresholds' (fitted on all rows) true worth per case (`outcome_worth`, exact) minus
    the best true worth of the module's choices without them (`outcome_baseline`)."""
    from scipy.special import ndtr

    from costlib.binary.simulation import Design
    from costlib.core import ship as S
    from costlib.value.per_outcome import recommend_outcome

    design = Design(n, auc, base_rate)
    d, prices = design.d, {"k_fp": c_fp, "k_fn": c_fn}
    base = outcome_baseline(d, base_rate, **prices)
    out = []
    for seed in seeds:
        y, s, _ = design.draw(seed)
        rec = recommend_outcome(y, {"m": ndtr(s - d / 2)}, **prices, seed=int(seed) % 1000)
        truth = outcome_worth(d, base_rate, rec.tau_pos, rec.tau_neg, **prices) - base
        out.append((rec.gain, rec.gain_low, rec.gain_high, truth, rec.status == S.SAVES))
    return out


def outcome_best_gain(d: float, base_rate: float, **prices) -> float:
    """The true gain of the best pair of thresholds (a fine grid of each answer's confidence)."""
    from scipy.special import ndtr

    grid = np.r_[ndtr(np.linspace(0.0, 8.0, 1601)), np.inf]
    pos = max(outcome_worth(d, base_rate, t, np.inf, **prices) for t in grid)
    neg = max(outcome_worth(d, base_rate, np.inf, t, **prices) for t in grid)
    r = prices.get("r", 0.0)
    return pos + neg - r - outcome_baseline(d, base_rate, **prices)


def check_outcome_truth(rows: int = 2_000_000) -> None:
    """Print `outcome_worth` beside the mean worth of the same thresholds on `rows` fresh rows."""
    from scipy.special import ndtr

    from costlib.binary.simulation import Design
    from costlib.value.per_outcome import outcome_row_values

    for auc, (c_fp, c_fn), taus in ((0.5, (1.0, 3.0), (0.6, 0.7)), (0.96, (1.0, 10.0), (0.55, 0.97))):
        design = Design(rows, auc, 0.3)
        y, s, _ = design.draw(10**6)
        fresh, _ = outcome_row_values(y, ndtr(s - design.d / 2), *taus, k_tp=1.0, k_fp=c_fp, k_fn=c_fn, r=0.0)
        exact = outcome_worth(design.d, 0.3, *taus, k_fp=c_fp, k_fn=c_fn)
        print(
            f"truth check AUC {auc:.2f} {c_fp:g}:{c_fn:g} at {taus}: exact {exact:.5f}, {rows:,} fresh rows "
            f"{fresh.mean():.5f} +- {fresh.std() / np.sqrt(rows):.5f}",
            flush=True,
        )


def simulate_outcome(runs: int) -> None:
    """Print the per-outcome answer's figures (`judge_outcome`, `interval_figures`) per design:
    no signal (AUC 0.5) and signal (0.70, 0.96), 300 and 2,000 rows, base rate 0.3, 1:10 and 1:3."""
    from costlib.binary.simulation import Design

    check_outcome_truth()
    print(f"Value at separate prices without a split (cross-fitted), base rate 0.3, {runs} data sets a design")
    for c_fp, c_fn in OUTCOME_PRICES:
        for n in (2000, 300):
            for auc in (0.5, 0.70, 0.96):
                t = time.perf_counter()
                est, lo, hi, truth, ship = zip(*judge_outcome(n, auc, c_fp, c_fn, range(runs)), strict=True)
                fig = interval_figures(est, lo, hi, truth)
                best = outcome_best_gain(Design(n, auc, 0.3).d, 0.3, k_fp=c_fp, k_fn=c_fn)
                print(
                    f"{c_fp:g}:{c_fn:g} {n:>5} {auc:.2f} ships={np.mean(ship):.3f} ({sum(ship)} of {len(ship)}) "
                    + " ".join(f"{k}={v:.3f}" for k, v in fig.items())
                    + f" truth={np.mean(truth):.4f} best={best:.4f} mean_gain={np.mean(est):.4f}"
                    + f" ({time.perf_counter() - t:.0f} s)",
                    flush=True,
                )


SPREAD_DESIGNS = (  # (rows, AUC, base rate, c_fp, c_fn): the no-signal gap first, then the designs it could cost
    (2000, 0.5, 0.3, 1.0, 1.0),
    (300, 0.5, 0.3, 1.0, 1.0),
    (2000, 0.5, 0.3, 1.0, 3.0),
    (300, 0.5, 0.5, 1.0, 1.0),
    (300, 0.70, 0.3, 1.0, 1.0),
    (300, 0.70, 0.3, 1.0, 3.0),
    (300, 0.70, 0.3, 1.0, 10.0),
    (2000, 0.70, 0.3, 1.0, 1.0),
    (300, 0.96, 0.3, 1.0, 10.0),
)


def binary_spread(runs: int, n_resamples: int, first_seed: int = 0) -> None:
    """Issue 43: the binary saving's interval of one cutoff for everyone holds how far the cutoff
    shipped moves with the rows (`refit_moves.single_cutoff_moves`, held `AT_LEAST`; before
    2026-12-07 it did not, and "hypot", the Value page's rule, and "max", the one adopted, were
    tried here: benchmarks/README.md). Per design: coverage, ships and width over the ideal of the
    product's interval, how often the moves bind (wider than the rows' error alone), and the
    Wald comparator's ships. Seeds `first_seed` to `first_seed + runs - 1`."""
    from costlib.binary.decision import recommend
    from costlib.binary.honest import Z95
    from costlib.binary.model_sweeps import sweep_model
    from costlib.binary.refit_moves import single_cutoff_moves
    from costlib.binary.simulation import Design, wald_interval
    from costlib.core import rules as R
    from costlib.core.prices import prices_for

    print(f"The refit moves on the binary saving, seeds {first_seed}-{first_seed + runs - 1}, {n_resamples} resamples")
    for n, auc, rate, c_fp, c_fn in SPREAD_DESIGNS:
        d = Design(n, auc, rate, c_fp, c_fn)
        rows = []
        for seed in range(first_seed, first_seed + runs):
            y, s, _ = d.draw(seed)
            ms = sweep_model(y, s, None, probabilities=False)
            rec = recommend(ms, (c_fp, c_fn), n_resamples=n_resamples, seed=seed % 1000)
            binds = False
            if rec.rule == R.SINGLE:
                moves = single_cutoff_moves(ms, prices_for(ms.groups, (c_fp, c_fn)), seed=seed % 1000)
                binds = bool(np.isclose(rec.saving_high - rec.saving, Z95 * np.sqrt(moves), rtol=1e-9))
            wald = wald_interval(y, s, c_fp=c_fp, c_fn=c_fn, seed=seed)
            truth = d.saving(rec.cutoffs[next(iter(rec.cutoffs))])
            rows.append((rec.saving, rec.saving_low, rec.saving_high, truth, binds, wald[1]))
        est, lo, hi, truth, binds, wald_lo = (np.array(x, dtype=float) for x in zip(*rows, strict=True))
        ideal = 3.92 * float(np.std(est - truth, ddof=1))
        cover, ships = np.mean((lo <= truth) & (truth <= hi)), np.mean(lo > 0)
        print(
            f"{n:>5} {auc:.2f} {rate:g} {c_fp:g}:{c_fn:g} coverage {cover:.3f} ships {ships:.3f} "
            f"width {np.mean(hi - lo) / ideal:.2f} moves bind {np.mean(binds):.3f} Wald {np.mean(wald_lo > 0):.3f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e5,1e6", help="comma-separated row counts")
    parser.add_argument("--capacity", type=float, help="also under a review limit (a share of the cases)")
    parser.add_argument("--simulate", action="store_true", help="judge the verdicts on simulated data instead")
    parser.add_argument("--runs", type=int, default=200, help="data sets per simulated design")
    parser.add_argument("--groups-simulate", action="store_true", help="per-group and within-limit intervals")
    parser.add_argument("--value-simulate", action="store_true", help="the Value page's gain interval")
    parser.add_argument("--one-interval", action="store_true", help="per-group prices: one figure, one interval")
    parser.add_argument("--group-alone", action="store_true", help="per-group cutoffs against deciding by group alone")
    parser.add_argument("--outcome-simulate", action="store_true", help="the Value page at separate prices")
    parser.add_argument("--value-cap", type=float, help="--value-simulate within this cap on the cases handed over")
    parser.add_argument("--resamples", type=int, default=1000, help="resamples for the simulated intervals")
    parser.add_argument("--smoothed", type=float, help="issue 43's try: pick cutoffs on a smoothed cost curve")
    parser.add_argument("--binary-spread", action="store_true", help="issue 43: the single cutoff's moves on Costs")
    parser.add_argument("--first-seed", type=int, default=0, help="--binary-spread: the first data set's seed")
    args = parser.parse_args()
    if args.binary_spread:
        binary_spread(args.runs, args.resamples, args.first_seed)
        return
    if args.smoothed is not None:
        smoothed(args.smoothed, args.runs)
        return
    if args.outcome_simulate:
        simulate_outcome(args.runs)
        return
    if args.one_interval:
        simulate_one_interval(args.runs, args.resamples)
        return
    if args.group_alone:
        simulate_group_alone(args.runs, args.resamples, args.capacity)
        return
    if args.groups_simulate or args.value_simulate:
        if args.groups_simulate:
            simulate_groups(args.runs, args.resamples)
        if args.value_simulate:
            simulate_value(args.runs, args.resamples, args.value_cap)
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
