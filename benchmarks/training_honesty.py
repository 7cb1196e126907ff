"""Train with costs: do the intervals over seeds hold, and does the verdict ship only what pays?

    python benchmarks/training_honesty.py              # 200 data sets per design (about 10 minutes)
    python benchmarks/training_honesty.py --data-sets 40
    python benchmarks/training_honesty.py --data-sets 2 --fits 2 --out /tmp/honesty.json  # a quick run

The Train with costs page (and ``costlib train``) re-splits one data set ten times (seeds) and
ships a way of training with costs when the 95% interval over seeds of its change in NEC
against standard training is all below zero (`present.training_words.training_verdict_of`).
The seeds share their rows, so the plain t interval over seeds treats correlated results as
independent. This script measures, on the synthetic controls of `training.synthetic`, both the
plain interval and the corrected resampled t interval the product uses (Nadeau and Bengio
2003; `training.summary.t_interval`):

- the truth of a design (rows `n`, whether the costs are predictable, their strength `kappa`):
  each way's relative change of NEC against standard training for models trained on 0.8 n
  fresh rows, judged on 100,000 fresh rows, as the ratio of the mean NEC over `--fits` fresh
  training sets, 1 - E[NEC(way)] / E[NEC(standard)];
- per data set of `n` rows: `compare_training` with 10 seeds, `training_summary` with the
  correction and without it (test_to_train=0), and the verdict of each;
- coverage of the truth by each way's 95% interval, pooled over the ways, and the ship rate;
  a ship is *false* when the way shipped is not truly cheaper than standard training.

The shuffled control (``predictable=False``) has no signal: every way is truly as dear as
standard training or dearer, so any ship is false. Results go to
benchmarks/training_honesty.json.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd

from costlib.present.training_words import named_way, training_verdict_of
from costlib.training.compare import METHODS, _run_one, compare_training, estimators
from costlib.training.summary import held_for_pick, training_summary
from costlib.training.synthetic import synthetic_costs

TEST_ROWS = 100_000
# (rows, costs predictable, kappa): no signal at three sizes, a strong and a weak signal
DESIGNS = (
    (1000, False, 1.0),
    (2000, False, 1.0),
    (5000, False, 1.0),
    (500, True, 1.0),
    (1000, True, 1.0),
    (5000, True, 1.0),
    (1000, True, 0.3),
    (5000, True, 0.3),
)
OUT = Path(__file__).with_name("training_honesty.json")


def truth(n: int, predictable: bool, kappa: float, *, fits: int = 200, test_rows: int = TEST_ROWS) -> dict:
    """{way: true relative change of NEC against standard training} for models trained on
    round(0.8 n) fresh rows of the design, judged on `test_rows` fresh rows (one draw, shared)."""
    X_test, d_test = synthetic_costs(test_rows, predictable=predictable, kappa=kappa, random_state=10**6)
    clf, reg = estimators(None, METHODS)
    nec = {m: [] for m in METHODS}
    for t in range(fits):
        X, d = synthetic_costs(round(0.8 * n), predictable=predictable, kappa=kappa, random_state=5 * 10**5 + t)
        X_all, d_all = np.vstack([X, X_test]), np.concatenate([d, d_test])
        train, test = np.arange(len(d)), np.arange(len(d), len(d_all))
        for m in METHODS:
            nec[m].append(_run_one(X_all, d_all, train, test, m, clf, reg, 0, t)["nec"])
    mean = {m: float(np.mean(v)) for m, v in nec.items()}
    return {m: mean[m] / mean["standard"] - 1 for m in METHODS}


def judge(n: int, predictable: bool, kappa: float, data_sets: int, *, first: int = 1000) -> list[dict]:
    """Per data set and way of training: the change over seeds with the corrected and the
    plain interval, and each verdict's shipped way (None when it does not ship)."""
    rows = []
    for r in range(first, first + data_sets):
        X, d = synthetic_costs(n, predictable=predictable, kappa=kappa, random_state=r)
        results = compare_training(X, d, seeds=10, n_jobs=1)
        for name, ratio in (("corrected", None), ("plain", 0.0)):
            summary = held_for_pick(training_summary(results, test_to_train=ratio))  # the verdict's pick held
            verdict = training_verdict_of(summary)
            shipped = named_way(summary) if verdict.kind == "success" else None
            for _, s in summary[summary["method"] != "standard"].iterrows():
                rows.append(
                    {
                        "data_set": r,
                        "interval": name,
                        "method": s["method"],
                        "change": s["nec_change"],
                        "low": s["nec_change_low"],
                        "high": s["nec_change_high"],
                        "shipped": shipped,
                    }
                )
    return rows


def figures(rows: list[dict], true: dict) -> dict:
    """Per interval: coverage of the truth (pooled over ways), mean width, ship rate and false
    ships (a shipped way not truly cheaper than standard training)."""
    df = pd.DataFrame(rows)
    df["truth"] = df["method"].map(true)
    out = {}
    for name, g in df.groupby("interval"):
        covered = (g["low"] <= g["truth"]) & (g["truth"] <= g["high"])
        ships = g.drop_duplicates("data_set")["shipped"]
        false = sum(true[m] >= 0 for m in ships.dropna())  # 0 when nothing shipped (an empty sum, not '')
        out[name] = {
            "coverage": round(float(covered.mean()), 3),
            "coverage_by_way": {m: round(float(c), 3) for m, c in covered.groupby(g["method"]).mean().items()},
            "mean_width": round(float((g["high"] - g["low"]).mean()), 4),
            "ship_rate": round(float(ships.notna().mean()), 3),
            "false_ships": int(false),
            "data_sets": int(ships.size),
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-sets", type=int, default=200)
    ap.add_argument("--fits", type=int, default=200, help="fresh training sets behind each truth")
    ap.add_argument("--out", type=Path, default=OUT, help=f"where the results go (default {OUT.name} here)")
    args = ap.parse_args()
    report = []
    for n, predictable, kappa in DESIGNS:
        t0 = time.perf_counter()
        true = truth(n, predictable, kappa, fits=args.fits)
        got = figures(judge(n, predictable, kappa, args.data_sets), true)
        entry = {"n": n, "predictable": predictable, "kappa": kappa, "truth": true, **got}
        entry["seconds"] = round(time.perf_counter() - t0, 1)
        report.append(entry)
        c, p = got["corrected"], got["plain"]
        print(
            f"n={n:5d} {'predictable' if predictable else 'shuffled   '} kappa={kappa}: best true change "
            f"{min(v for m, v in true.items() if m != 'standard'):+.3f}; coverage corrected {c['coverage']:.3f} "
            f"plain {p['coverage']:.3f}; ships corrected {c['ship_rate']:.3f} ({c['false_ships']} false) plain "
            f"{p['ship_rate']:.3f} ({p['false_ships']} false) of {c['data_sets']}",
            flush=True,
        )
    args.out.write_text(json.dumps({"data_sets": args.data_sets, "fits": args.fits, "designs": report}, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
