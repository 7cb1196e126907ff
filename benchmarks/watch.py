"""The label-free watch, measured: how close its cost estimates come to the truth (beside
NannyML's CBPE when a Python with nannyml is given), how often it alerts on simulated streams
with a known truth, and what the EM's root-finder saves over the paper's EM steps.

    python benchmarks/watch.py                                 # about 4 minutes on 2 cores
    python benchmarks/watch.py --streams 100 --months 12       # larger
    python benchmarks/watch.py --cbpe-python /tmp/nanny/bin/python   # CBPE beside it

NannyML pins its own versions of pandas and scikit-learn, so it lives in a separate environment
(``python3 -m venv /tmp/nanny && /tmp/nanny/bin/pip install nannyml statsmodels``): this script
writes each simulated month to a file and asks that Python for CBPE's estimate of the same cost
(its estimated confusion matrix, as shares of the cases, at the prices; its ``business_value``
metric with ``normalize_business_value="per_prediction"`` did not equal that confusion matrix
priced in nannyml 0.13.1, -0.518 against -0.209 on one month, so it is not used).

Data: `costlib.watch.streams` (a model calibrated at a base rate of 0.2, prices 1:3, months of
1,500 cases, a policy fitted on its own 4,000 reference cases per stream).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the working tree's costlib

from costlib.watch import streams  # noqa: E402
from costlib.watch.estimate import prior_fixed_points  # noqa: E402
from costlib.watch.shift import estimate_prior  # noqa: E402

N = 1500

CBPE_SCRIPT = r"""
import json, sys, warnings
import pandas as pd, nannyml as nml
warnings.filterwarnings("ignore")
out = []
for job in json.load(open(sys.argv[1])):
    est = nml.CBPE(
        y_pred_proba="p", y_pred="flag", y_true="y", problem_type="classification_binary",
        metrics=["confusion_matrix"], normalize_confusion_matrix="all", chunk_number=1,
    )
    est.fit(pd.DataFrame(job["reference"]))
    res = est.estimate(pd.DataFrame(job["month"])).filter(period="analysis").to_df()
    fp, fn = res[("false_positive", "value")].iloc[0], res[("false_negative", "value")].iloc[0]
    out.append(float(fp * job["c_fp"] + fn * job["c_fn"]))
print(json.dumps(out))
"""


def accuracy(streams_n: int, cbpe_python: str | None) -> None:
    """Label-free cost per case against the month's realized cost: mean error and mean absolute
    error per kind of month, for both readings (and CBPE)."""
    kinds = {
        "label shift 0.2 -> 0.1": lambda r: streams.label_shift(r, N, 0.1),
        "label shift 0.2 -> 0.45": lambda r: streams.label_shift(r, N, 0.45),
        "covariate shift, calibrated": lambda r: streams.covariate_shift(r, N, -0.8, 1.2),
        "model lost signal": lambda r: streams.changed_model(r, N),
    }
    print("\n## Label-free cost per case against the realized cost (error = estimate - realized)\n")
    print("| months | reading: base rate moved | reading: cases changed | CBPE | shipped cost (realized) |")
    print("|---|---|---|---|---|")
    for kind, draw in kinds.items():
        errs = {"em": [], "cal": [], "cbpe": []}
        realized, jobs = [], []
        for stream in range(streams_n):
            rng = np.random.default_rng([stream, 21])
            policy = streams.shipped(rng)
            t = policy["thresholds"]["everyone"]
            y, s = draw(rng)
            e = streams.estimate_month(policy, s, n_resamples=0)
            spent = float(np.mean(np.where(s >= t, 1 - y, 3 * y)))
            realized.append(spent)
            errs["em"].append(e.label_shift.cost - spent)
            errs["cal"].append(e.calibrated.cost - spent)
            if cbpe_python:
                ry, rs = streams.label_shift(np.random.default_rng([stream, 5]), 4000, streams.TRAIN_PRIOR)
                jobs.append((t, ry, rs, y, s, spent))
        if cbpe_python:
            errs["cbpe"] = cbpe_errors(cbpe_python, jobs)

        def cell(xs):
            if not xs:
                return "–"
            return f"{statistics.mean(xs):+.4f} (abs {statistics.mean(map(abs, xs)):.4f})"

        cells = " | ".join(cell(errs[k]) for k in ("em", "cal", "cbpe"))
        print(f"| {kind} | {cells} | {statistics.mean(realized):.3f} |")


def cbpe_errors(python: str, jobs: list) -> list:
    """CBPE's estimate of each month's cost per case minus the realized cost (one process for all)."""
    payload = [
        {
            "c_fp": 1.0,
            "c_fn": 3.0,
            "reference": {"p": rs.tolist(), "flag": (rs >= t).astype(int).tolist(), "y": ry.tolist()},
            "month": {"p": s.tolist(), "flag": (s >= t).astype(int).tolist()},
        }
        for t, ry, rs, _, s, _ in jobs
    ]
    with tempfile.TemporaryDirectory() as tmp:
        script, path = Path(tmp) / "cbpe.py", Path(tmp) / "jobs.json"
        script.write_text(CBPE_SCRIPT)
        path.write_text(json.dumps(payload))
        run = subprocess.run([python, str(script), str(path)], capture_output=True, text=True, check=False)
    if run.returncode != 0:
        print(f"CBPE failed: {run.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return []
    return [est - job[5] for est, job in zip(json.loads(run.stdout), jobs, strict=True)]


def alerts(streams_n: int, months: int) -> None:
    """Alert rates and interval coverage on simulated unlabelled streams."""
    print(f"\n## Alerts on unlabelled streams ({streams_n} streams x {months} months of {N:,} cases)\n")
    rows = []
    for kind, draw, formula in (
        ("stationary (0.2)", lambda r: streams.label_shift(r, N, 0.2), False),
        ("stationary, the formula's cutoff 0.25", lambda r: streams.label_shift(r, N, 0.2), True),
        ("base rate 0.2 -> 0.1", lambda r: streams.label_shift(r, N, 0.1), False),
        ("base rate 0.2 -> 0.3", lambda r: streams.label_shift(r, N, 0.3), False),
        ("base rate 0.2 -> 0.45", lambda r: streams.label_shift(r, N, 0.45), False),
        ("covariate shift, calibrated", lambda r: streams.covariate_shift(r, N, -0.8, 1.2), False),
        ("model lost signal", lambda r: streams.changed_model(r, N), False),
    ):
        alert = fails = inside = total = 0
        for stream in range(streams_n):
            rng = np.random.default_rng([stream, 22])
            policy = streams.shipped(rng)
            if formula:
                policy["thresholds"] = {"everyone": 0.25}
            t = policy["thresholds"]["everyone"]
            for m in range(months):
                y, s = draw(rng)
                e = streams.estimate_month(policy, s, seed=m)
                alert += e.alert
                fails += e.assumption == "fails"
                low, high = e.bracket
                inside += low <= float(np.mean(np.where(s >= t, 1 - y, 3 * y))) <= high
                total += 1
        rows.append((kind, alert / total, fails / total, inside / total))
    print("| months | alert | scores fit no base-rate change | bracket holds the realized cost |")
    print("|---|---|---|---|")
    for kind, a, f, i in rows:
        print(f"| {kind} | {a:.1%} | {f:.1%} | {i:.1%} |")
    cover, widths, total = 0, [], 0
    for stream in range(streams_n):
        rng = np.random.default_rng([stream, 23])
        policy = streams.shipped(rng)
        t = policy["thresholds"]["everyone"]
        for m, q in enumerate((0.1, 0.15, 0.2, 0.3, 0.45)):
            _, s = streams.label_shift(rng, N, q)
            e = streams.estimate_month(policy, s, seed=m)
            truth = streams.true_cost(t, q) - streams.true_cost(e.label_shift.refit["everyone"], q)
            cover += e.label_shift.regret_low <= truth <= e.label_shift.regret_high
            widths.append(e.label_shift.regret_high - e.label_shift.regret_low)
            total += 1
    print(
        f"\nInterval of the estimated regret (base rates 0.1 to 0.45): covers the true regret in {cover / total:.1%} "
        f"of {total} months, mean width {statistics.mean(widths):.4f} per case."
    )


def em_speed() -> None:
    """The root-finder against the paper's EM steps, one month and 1,000 resamples."""
    print("\n## The EM: root-finder against the paper's steps\n")
    print("| scores | paper's EM (steps) | root-finder | speed-up | 1,000 resamples: loop | at once | speed-up |")
    print("|---|---|---|---|---|---|---|")
    rng = np.random.default_rng(0)
    for label, sep in (("strong signal", 1.0), ("weak signal", 0.15)):
        _, s = streams.label_shift(rng, N, 0.3, separation=sep)
        t = time.perf_counter()
        _, steps = streams.paper_em(s, 0.2, tol=1e-12, steps=100_000)
        t_paper = time.perf_counter() - t
        t_root = best(lambda s=s: estimate_prior(s, train_prior=0.2))
        values, counts = np.unique(s, return_counts=True)
        w = np.random.default_rng(1).poisson(counts, size=(1000, counts.size)).astype(float)
        t_loop = best(
            lambda v=values, w=w: [estimate_prior(np.repeat(v, r.astype(int)), train_prior=0.2) for r in w], 1
        )
        t_once = best(lambda v=values, w=w: prior_fixed_points(v, w, 0.2), 3)
        print(
            f"| {label} | {t_paper * 1e3:.1f} ms ({steps:,}) | {t_root * 1e3:.2f} ms | {t_paper / t_root:.0f}x | "
            f"{t_loop * 1e3:.0f} ms | {t_once * 1e3:.0f} ms | {t_loop / t_once:.1f}x |"
        )


def best(fn, repeat: int = 5) -> float:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return min(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--streams", type=int, default=40)
    ap.add_argument("--months", type=int, default=6)
    ap.add_argument("--cbpe-python", help="a Python with nannyml installed, for CBPE beside the estimate")
    args = ap.parse_args()
    em_speed()
    accuracy(args.streams, args.cbpe_python)
    alerts(args.streams, args.months)


if __name__ == "__main__":
    main()
