"""Many groups out of core: time and peak memory of a scan by group count, DuckDB and Spark.

    python benchmarks/groups.py                  # 1e6 rows x 10, 1,000 and 10,000 groups, DuckDB and Spark
    python benchmarks/groups.py --engines duckdb --rows 1e5

Each figure is one run in a fresh interpreter (so the peak, its ``VmHWM``, is the run's own),
against the same interpreter importing costlib and reading nothing (``import``). Rows: labels
0/1, scores rounded to 6 digits (about a million distinct values), group names ``unit i`` drawn
uniformly. The scan is `costlib.scan_grouped_sweep` (exact: one cell per group and score); the
audit with ``--engine`` refuses more than `MAX_GROUPS` groups from its validating pass, so it is
timed beside it (``audit refuses``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import sys, time, warnings
warnings.filterwarnings("ignore")
sys.path.insert(0, {root!r})
import costlib.scale.scans as scans
t = time.perf_counter()
{body}
peak = [int(x.split()[1]) / 1024 for x in open("/proc/self/status") if x.startswith("VmHWM")][0]
print(time.perf_counter() - t, peak)
"""

SCAN = "gs = scans.scan_grouped_sweep({path!r}, label='y', score='s', group='g', engine={engine!r})"
AUDIT = (
    "import contextlib, io\nfrom costlib.__main__ import main\n"
    "with contextlib.redirect_stderr(io.StringIO()):\n"
    "    main(['audit', {path!r}, '--label', 'y', '--score', 's', '--group', 'g', '--c-fp', '1', '--c-fn', '2',"
    " '--engine', {engine!r}, '--json'])"
)


def _run(body: str) -> tuple[float, float]:
    r = subprocess.run([sys.executable, "-c", PROBE.format(root=str(ROOT), body=body)], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(r.stderr[-2000:])
    seconds, peak = r.stdout.split()[-2:]
    return float(seconds), float(peak)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=float, default=1e6)
    ap.add_argument("--groups", default="10,1000,10000")
    ap.add_argument("--engines", default="duckdb,spark")
    args = ap.parse_args()
    n = int(args.rows)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        base = _run("pass")
        print(f"import: {base[1]:.0f} MB peak")
        for k in (int(x) for x in args.groups.split(",")):
            rng = np.random.default_rng(11)
            path = str(Path(tmp) / f"rows_{k}.parquet")
            pd.DataFrame(
                {
                    "y": rng.integers(0, 2, n),
                    "s": rng.random(n).round(6),
                    "g": [f"unit {i}" for i in rng.integers(0, k, n)],
                }
            ).to_parquet(path)
            for engine in args.engines.split(","):
                seconds, peak = _run(SCAN.format(path=path, engine=engine))
                refused = _run(AUDIT.format(path=path, engine=engine)) if k > 20 else (float("nan"), float("nan"))
                row = {"rows": n, "groups": k, "engine": engine, "scan_s": seconds, "scan_peak_mb": peak,
                       "audit_refuses_s": refused[0], "audit_peak_mb": refused[1], "import_mb": base[1]}  # fmt: skip
                out.append(row)
                print(
                    f"{n:,} rows, {k:>6,} groups, {engine:6}: scan {seconds:5.1f} s, peak {peak:5.0f} MB; "
                    f"audit refuses in {refused[0]:4.1f} s, peak {refused[1]:4.0f} MB"
                )
    stamp = time.strftime("%Y-%m-%d %H:%M")
    print(json.dumps({"measured": stamp, "figures": out}))


if __name__ == "__main__":
    main()
