"""Upload costs: peak memory of read_table + prepare, bomb files, and very wide files.

    python benchmarks/loading.py                      # everything (about 3 minutes on 2 idle cores)
    python benchmarks/loading.py --only memory        # or: bombs, wide
    python benchmarks/loading.py --rows 1e7 --root /some/other/checkout   # measure another tree

Every case runs in a fresh subprocess, so one case's memory cannot count for another and
`VmHWM` (the kernel's high-water mark of resident memory) belongs to that case alone.

memory  A CSV of `--rows` rows (label 0/1, a float score printed with full precision, a group
        "A"/"B"; about 24 bytes a row) is made in the child. The child then resets the
        high-water mark (`echo 5 > /proc/self/clear_refs`), takes `VmRSS` as the baseline, runs
        `read_table` and `prepare` (label, score, group) and reads `VmHWM`. The figure is
        (VmHWM - baseline) / needed, where needed is what the session must keep: labels as
        int8, scores as float64, groups as 1-byte codes (10 bytes a row). The upload's bytes
        are made before the baseline (Streamlit holds them in any case).
bombs   Parquet files of two repeated values compressed to almost nothing (the recipe from
        issue 14): the time to a refusal (or to a result) and the peak memory above baseline.
wide    A CSV with 10,000 and 100,000 columns c0.. and 5 rows: the time for read_table +
        guess_mapping, the work the server does before it can draw the mapping form.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _status(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    raise RuntimeError(field)


def _reset_peak() -> int:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return _status("VmRSS:")


def make_csv(n: int) -> bytes:
    """label,score,group: `n` rows made by repeating a random block (fast, little memory)."""
    import random

    rng = random.Random(0)
    block = 1000
    lines = [f"{int(rng.random() < 0.3)},{rng.random()!r},{'AB'[i % 2]}\n" for i in range(block)]
    body = "".join(lines).encode()
    reps, rest = divmod(n, block)
    return b"label,score,group\n" + body * reps + "".join(lines[:rest]).encode()


def make_bomb(n: int, kind: str) -> bytes:
    """A Parquet file of `n` rows of two repeated values (ints or strings), dictionary-encoded."""
    import io

    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    chunk = 1 << 20
    writer_buf = io.BytesIO()
    if kind == "int":
        schema = pa.schema([("label", pa.int64()), ("score", pa.float64())])
    else:
        schema = pa.schema([("label", pa.string()), ("group", pa.string())])
    with pq.ParquetWriter(writer_buf, schema, compression="zstd") as w:
        done = 0
        while done < n:
            k = min(chunk, n - done)
            if kind == "int":
                t = pa.table({"label": np.zeros(k, dtype=np.int64), "score": np.full(k, 0.5)}, schema=schema)
            else:
                t = pa.table({"label": pa.array(["yes"] * k), "group": pa.array(["A"] * k)}, schema=schema)
            w.write_table(t, row_group_size=k)
            done += k
    return writer_buf.getvalue()


def child_memory(n: int) -> dict:
    from costlib.core.dataset import ColumnMapping
    from costlib.loading import fingerprint, prepare, read_table

    data = make_csv(n)
    base = _reset_peak()
    t0 = time.perf_counter()
    df = read_table(data, "big.csv")
    t1 = time.perf_counter()
    hwm_read = _status("VmHWM:") - base
    ds = prepare(
        df,
        ColumnMapping(label="label", scores=("score",), group="group"),
        name="big.csv",
        fingerprint=fingerprint(data),
    )
    t2 = time.perf_counter()
    hwm = _status("VmHWM:") - base
    kept = _status("VmRSS:") - base
    needed = n * (1 + 8 + 1)
    return {
        "rows": n,
        "csv_bytes": len(data),
        "needed_bytes": needed,
        "frame_bytes": int(df.memory_usage(deep=True, index=False).sum()),
        "peak_read_bytes": hwm_read,
        "peak_bytes": hwm,
        "kept_bytes": kept,
        "peak_over_needed": round(hwm / needed, 2),
        "read_s": round(t1 - t0, 2),
        "prepare_s": round(t2 - t1, 2),
        "n_rows": ds.n_rows,
    }


def child_bomb(n: int, kind: str) -> dict:
    from costlib.core.errors import DataError
    from costlib.loading import read_table

    data = make_bomb(n, kind)
    base = _reset_peak()
    t0 = time.perf_counter()
    try:
        df = read_table(data, "bomb.parquet")
        outcome = f"read {len(df):,} rows"
    except DataError as err:
        outcome = "refused: " + err.message[:160]
    t1 = time.perf_counter()
    return {
        "rows": n,
        "kind": kind,
        "file_bytes": len(data),
        "outcome": outcome,
        "seconds": round(t1 - t0, 2),
        "peak_bytes": _status("VmHWM:") - base,
    }


def child_wide(k: int) -> dict:
    from costlib.loading import guess_mapping, read_table

    header = ",".join(f"c{i}" for i in range(k))
    rows = "\n".join(",".join(str((i + j) % 7 / 7) for j in range(k)) for i in range(5))
    data = (header + "\n" + rows + "\n").encode()
    t0 = time.perf_counter()
    try:
        df = read_table(data, "wide.csv")
        t1 = time.perf_counter()
        guess_mapping(df)
        t2 = time.perf_counter()
        outcome = f"{df.shape[1]:,} columns"
    except Exception as err:  # the 'before' code refuses 100k columns as duplicates
        t1 = t2 = time.perf_counter()
        outcome = f"{type(err).__name__}: {str(err)[:120]}"
    return {
        "columns": k,
        "bytes": len(data),
        "read_s": round(t1 - t0, 2),
        "guess_s": round(t2 - t1, 2),
        "outcome": outcome,
    }


def run_child(root: Path, *args: str, timeout: float = 900) -> dict:
    cmd = [sys.executable, __file__, "--child", *args, "--root", str(root)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        return {"args": args, "error": (r.stderr or r.stdout)[-400:]}
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", choices=("memory", "bombs", "wide"))
    ap.add_argument("--rows", default="1e7")
    ap.add_argument("--root", default=str(ROOT))
    ap.add_argument("--child", nargs="*")
    args = ap.parse_args()
    root = Path(args.root).resolve()
    if args.child is not None:
        sys.path.insert(0, str(root))
        what, *rest = args.child
        out = {
            "memory": lambda: child_memory(int(float(rest[0]))),
            "bomb": lambda: child_bomb(int(float(rest[0])), rest[1]),
            "wide": lambda: child_wide(int(rest[0])),
        }[what]()
        print(json.dumps(out))
        return
    results = {}
    if args.only in (None, "memory"):
        results["memory"] = r = run_child(root, "memory", args.rows)
        print("memory:", json.dumps(r))
    if args.only in (None, "bombs"):
        results["bombs"] = []
        for n, kind in ((20_000_000, "int"), (100_000_000, "int"), (100_000_000, "str")):
            r = run_child(root, "bomb", str(n), kind)
            results["bombs"].append(r)
            print("bomb:", json.dumps(r))
    if args.only in (None, "wide"):
        results["wide"] = []
        for k in (10_000, 100_000):
            r = run_child(root, "wide", str(k))
            results["wide"].append(r)
            print("wide:", json.dumps(r))


if __name__ == "__main__":
    main()
