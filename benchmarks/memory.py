"""The pages' work per row: the peak memory of the pages on a prepared table, per row and
score column, in one session that opens Costs & groups and then Value (`--pages`), against
`costlib.loading.budget.WORK_PER_ROW` (what the upload budget reserves).

    python benchmarks/memory.py                        # 1e6 and 2e6 rows, 1 to 3 score columns, 0 to 20 groups
    python benchmarks/memory.py --cases 4e6:0:1

Each case runs in a fresh subprocess: it builds the table, prepares it, resets the kernel's
high-water mark (`echo 5 > /proc/self/clear_refs`), runs the pages headless (AppTest) on it, one after the other,
and prints (VmHWM - baseline) / (rows x score columns). The figure must stay under WORK_PER_ROW.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import gc, json, sys, time
import numpy as np, pandas as pd
sys.path.insert(0, {root!r})
from streamlit.testing.v1 import AppTest
from costlib import loading
from costlib.core.dataset import ColumnMapping
def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) * 1024
n, groups, models = {n}, {groups}, {models}
rng = np.random.default_rng(0)
cols = {{"label": (rng.random(n) < 0.3).astype(np.int8)}}
for m in range(models):
    cols[f"s{{m}}"] = rng.random(n)
if groups:
    cols["g"] = pd.Categorical(rng.integers(0, groups, n).astype(str))
mapping = ColumnMapping(label="label", scores=tuple(f"s{{m}}" for m in range(models)), group="g" if groups else None)
ds = loading.prepare(pd.DataFrame(cols), mapping, name="t", fingerprint="0" * 64)
gc.collect()
at = AppTest.from_file({app!r}, default_timeout=1800)
at.query_params["data"] = "compas"
at.run()
at.session_state["upload_dataset"] = ds
at.session_state["data"] = at.session_state["_keep_data"] = "upload"
at.query_params["data"] = "upload"
gc.collect()
open("/proc/self/clear_refs", "w").write("5")
base = status("VmRSS:")
t = time.perf_counter()
peaks = {{}}
for page in {pages!r}:
    at.switch_page(f"views/{{page}}.py").run()
    peaks[page] = round((status("VmHWM:") - base) / (n * models))
peak = status("VmHWM:") - base
gc.collect()
kept = status("VmRSS:") - base
print(json.dumps({{"rows": n, "groups": groups, "scores": models, "seconds": round(time.perf_counter() - t, 1),
                  "exceptions": len(at.exception), "peak_mb": round(peak / 2**20), "kept_mb": round(kept / 2**20),
                  "peak_after_each_page": peaks, "bytes_per_row_and_score": round(peak / (n * models))}}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default="1e6:0:1,2e6:10:1,2e6:2:3,2e6:20:2", help="rows:groups:scores,...")
    ap.add_argument("--pages", default="costs,value", help="the pages one session opens, in order (views/NAME.py)")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from costlib.loading.budget import WORK_PER_ROW

    worst = 0
    for case in args.cases.split(","):
        rows, groups, scores = case.split(":")
        code = CHILD.format(
            root=str(ROOT),
            app=str(ROOT / "app.py"),
            n=int(float(rows)),
            groups=int(groups),
            models=int(scores),
            pages=tuple(args.pages.split(",")),
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        result = json.loads(out.strip().splitlines()[-1])
        worst = max(worst, result["bytes_per_row_and_score"])
        print(json.dumps(result))
    verdict = "PASS" if worst <= WORK_PER_ROW else "MISS"
    print(f"worst {worst} bytes a row and score column against WORK_PER_ROW = {WORK_PER_ROW}: {verdict}")


if __name__ == "__main__":
    main()
