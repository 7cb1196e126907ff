"""Benchmark of costlib's exact sweep against its floor (np.sort) and the usual alternatives.

    python benchmarks/run.py                   # n = 1e5, 1e6, 1e7 (about 2 minutes when idle)
    python benchmarks/run.py --quick           # n = 1e5, 1e6 only
    python benchmarks/run.py --sizes 1e5,1e6,1e7 --repeat 5

Every figure is the best of a few repeats (time.perf_counter) measured in this one run, so
the ratios compare like with like; the repeats are interleaved (see bench_size). At n >= 5e6
at most 3 repeats are made; the roc_curve loops get at most 2, the naive grid 1 at n = 1e6.
Data: scores uniform on [0, 1) (about n distinct values: the worst case for the sweep), bool
labels with ~30% positives, weights uniform on [0.5, 1.5), group codes uniform over 2 or 10
groups. Peak memory is measured in a fresh subprocess per case (see `_memory_child`).
Results are printed and written to benchmarks/results.json.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gc
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # benchmark the working tree's costlib, not an installed one

import costlib  # noqa: E402
from costlib.value import value_sweep  # noqa: E402

GROUP_COUNTS = (2, 10)
GRID = np.round(0.05 + 0.005 * np.arange(191), 3)  # 0.05, 0.055, ..., 1.0: 191 thresholds
KS = np.linspace(0, 20, 201)
NAIVE_MAX_N = 5_000_000  # the naive grid is skipped above this (it would take minutes)
LARGE_N = 5_000_000  # at or above this, at most 3 repeats
SEED = 20240601
CHUNK = 1 << 20


# ---------------------------------------------------------------- data and timing


def make_data(n: int, seed: int = SEED, weights: bool = True):
    """scores, bool labels, weights; made in chunks so no n-sized temporaries are left behind."""
    rng = np.random.default_rng(seed)
    s = rng.random(n)
    y = np.empty(n, dtype=bool)
    for a in range(0, n, CHUNK):
        b = min(n, a + CHUNK)
        y[a:b] = rng.random(b - a) < 0.3
    w = None
    if weights:
        w = rng.random(n)
        w += 0.5
    return s, y, w


def make_groups(n: int, k: int, seed: int = SEED) -> np.ndarray:
    return np.random.default_rng(seed + k).integers(0, k, n)


def _loadavg() -> float:
    try:
        return float(open("/proc/loadavg").read().split()[0])
    except OSError:
        return float("nan")


def timed(fn) -> tuple[float, float]:
    """(wall seconds by time.perf_counter, this process's CPU seconds) of one call."""
    gc.collect()
    c0 = time.process_time()
    t0 = time.perf_counter()
    out = fn()
    t = time.perf_counter() - t0
    c = time.process_time() - c0
    del out
    return t, c


# ---------------------------------------------------------------- the alternatives


def roc_per_group(y, s, groups, k):
    """sklearn's full ROC (every distinct score) for each group, the usual loop."""
    from sklearn.metrics import roc_curve

    return [roc_curve(y[m], s[m], drop_intermediate=False) for m in (groups == g for g in range(k))]


def naive_grid(y, s, groups, k, grid=GRID):
    """The common published example: for every threshold and every group, select the
    group's rows again and count FP and FN with boolean masks."""
    out = np.zeros((len(grid), k, 2), dtype=np.int64)
    for i, t in enumerate(grid):
        for g in range(k):
            m = groups == g
            yg = y[m]
            sg = s[m]
            flag = sg >= t
            out[i, g, 0] = np.count_nonzero(flag & ~yg)  # FP
            out[i, g, 1] = np.count_nonzero(~flag & yg)  # FN
    return out


# ---------------------------------------------------------------- memory (fresh subprocess)


def _status(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key):
                return int(line.split()[1]) * 1024
    raise KeyError(key)


def _memory_child(n: int, weighted: bool, label_dtype: str) -> dict:
    """Runs in a fresh interpreter: make the inputs, take VmRSS as the baseline, reset the
    high-water mark (echo 5 > /proc/self/clear_refs) so input creation cannot count, call
    threshold_sweep once, read VmHWM. Then the same call again under tracemalloc (numpy
    reports its buffers to it) as a second opinion."""
    import tracemalloc

    s, y, w = make_data(n, weights=weighted)
    if label_dtype != "bool":
        y = y.astype(label_dtype)
    in_bytes = s.nbytes + y.nbytes + (w.nbytes if w is not None else 0)
    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        reset = True
    except OSError:
        reset = False
    base = _status("VmRSS:")
    hwm0 = _status("VmHWM:")
    sw = costlib.threshold_sweep(y, s, sample_weight=w)
    hwm = _status("VmHWM:")
    out_bytes = sw.thresholds.nbytes + sw.tp.nbytes + sw.fp.nbytes
    del sw
    gc.collect()
    tracemalloc.start()
    _result = costlib.threshold_sweep(y, s, sample_weight=w)  # kept alive while the peak is read
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "n": n,
        "weighted": weighted,
        "label_dtype": label_dtype,
        "input_bytes": in_bytes,
        "baseline_rss": base,
        "hwm_reset": reset,
        "hwm_before_call": hwm0,
        "peak_rss": hwm,
        "extra_rss_over_input": (hwm - base) / in_bytes,
        "extra_traced_over_input": traced_peak / in_bytes,
        "output_over_input": out_bytes / in_bytes,
    }


def measure_memory(n: int, weighted: bool, label_dtype: str) -> dict:
    cmd = [sys.executable, __file__, "--_memory", f"{n},{int(weighted)},{label_dtype}"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=os.environ.copy())
    return json.loads(out.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- one size


def bench_size(n: int, repeat: int, log) -> dict:
    """Time every figure at one n. The repeats are interleaved (round 1 runs every task,
    then round 2, ...) so that a burst of load from other processes hits all figures
    alike instead of one; each figure keeps its best round."""
    r = min(repeat, 3) if n >= LARGE_N else repeat
    r_roc = min(r, 2)  # the roc_curve loops are slow
    r_naive = 1 if n >= 500_000 else min(r, 2)  # the naive grid even more so
    s, y, w = make_data(n)
    groups = {k: make_groups(n, k) for k in GROUP_COUNTS}
    vs = value_sweep(y, s)
    tasks = [
        ("np.sort", lambda: np.sort(s), r),
        ("np.argsort", lambda: np.argsort(s), r),
        ("threshold_sweep", lambda: costlib.threshold_sweep(y, s), r),
        ("threshold_sweep_w", lambda: costlib.threshold_sweep(y, s, sample_weight=w), r),
    ]
    for k, g in groups.items():
        tasks += [
            (f"grouped_sweep[{k}]", lambda g=g: costlib.grouped_sweep(y, s, g), r),
            (f"grouped_sweep_w[{k}]", lambda g=g: costlib.grouped_sweep(y, s, g, sample_weight=w), r),
            (f"roc_curve_loop[{k}]", lambda g=g, k=k: roc_per_group(y, s, g, k), r_roc),
        ]
        if n <= NAIVE_MAX_N:
            tasks.append((f"naive_grid[{k}]", lambda g=g, k=k: naive_grid(y, s, g, k), r_naive))
    tasks += [
        ("value_sweep", lambda: value_sweep(y, s), r),
        ("value_against_k(sweep=)", lambda: costlib.value_against_k(y, s, KS, sweep=vs), r),
        ("value_against_k", lambda: costlib.value_against_k(y, s, KS), r),
    ]
    t = {name: float("inf") for name, _, _ in tasks}
    cpu = dict(t)
    for rnd in range(r):
        for name, fn, reps in tasks:
            if rnd < reps:
                wall, c = timed(fn)
                t[name] = min(t[name], wall)
                cpu[name] = min(cpu[name], c)
        log(f"  n={n:.0e} round {rnd + 1}/{r} done (load average {_loadavg()})")
    res = {
        "n": n,
        "repeat": r,
        "repeat_roc": r_roc,
        "repeat_naive": r_naive,
        "positives": int(y.sum()),
        "time": t,
        "cpu_time": cpu,
    }

    q = res["ratio"] = {}
    srt = t["np.sort"]
    q["argsort/sort"] = t["np.argsort"] / srt
    q["sweep/sort"] = t["threshold_sweep"] / srt
    q["sweep_w/sort"] = t["threshold_sweep_w"] / srt
    q["sweep/argsort"] = t["threshold_sweep"] / t["np.argsort"]
    for k in GROUP_COUNTS:
        q[f"grouped[{k}]/sort"] = t[f"grouped_sweep[{k}]"] / srt
        q[f"grouped_w[{k}]/sort"] = t[f"grouped_sweep_w[{k}]"] / srt
        q[f"speedup_vs_roc[{k}]"] = t[f"roc_curve_loop[{k}]"] / t[f"grouped_sweep[{k}]"]
        if f"naive_grid[{k}]" in t:
            q[f"speedup_vs_naive[{k}]"] = t[f"naive_grid[{k}]"] / t[f"grouped_sweep[{k}]"]
    q["value_k(sweep=)/value_sweep"] = t["value_against_k(sweep=)"] / t["value_sweep"]
    q["value_k/value_sweep"] = t["value_against_k"] / t["value_sweep"]
    return res


def check_exactness(log) -> None:
    """Cheap sanity check that what is timed is right: the grouped sweep's counts agree with
    roc_curve's per group, and the weighted sweep's totals with the weight sums."""
    from sklearn.metrics import roc_curve

    s, y, w = make_data(20_000, seed=1)
    s = np.round(s, 3)  # ties, so that collapsing them is exercised
    g = make_groups(s.size, 3, seed=1)
    gs = costlib.grouped_sweep(y, s, g)
    for k in range(3):
        m = g == k
        fpr, tpr, thr = roc_curve(y[m], s[m], drop_intermediate=False)
        sw = gs[k]
        assert np.array_equal(sw.thresholds, thr), "thresholds differ from roc_curve"
        assert np.array_equal(sw.tp, np.round(tpr * y[m].sum())), "tp differs from roc_curve"
        assert np.array_equal(sw.fp, np.round(fpr * (~y[m]).sum())), "fp differs from roc_curve"
    ws = costlib.threshold_sweep(y, s, sample_weight=w)
    assert np.isclose(ws.tp[-1], w[y].sum()) and np.isclose(ws.fp[-1], w[~y].sum())
    log("  exactness check against roc_curve: ok")


# ---------------------------------------------------------------- report


def _fmt_t(x):
    if x is None:
        return "-"
    return f"{x * 1e3:.1f} ms" if x < 1 else f"{x:.2f} s"


def _fmt_r(x):
    return "-" if x is None else (f"{x:.1f}x" if x < 100 else f"{x:.0f}x")


def evaluate_targets(results: list[dict], memory: list[dict]) -> list[dict]:
    by_n = {r["n"]: r for r in results}
    rows = []

    def add(name, value, limit, ok, where):
        rows.append({"target": name, "where": where, "value": value, "limit": limit, "pass": bool(ok)})

    for n in (10**6, 10**7):
        if n not in by_n:
            continue
        q = by_n[n]["ratio"]
        add("unweighted threshold_sweep <= 5x np.sort", q["sweep/sort"], 5.0, q["sweep/sort"] <= 5.0, f"n={n:.0e}")
        add("weighted threshold_sweep <= 10x np.sort", q["sweep_w/sort"], 10.0, q["sweep_w/sort"] <= 10.0, f"n={n:.0e}")
        for k in GROUP_COUNTS:
            v = q[f"grouped[{k}]/sort"]
            add(f"unweighted grouped_sweep[{k}] <= 5x np.sort", v, 5.0, v <= 5.0, f"n={n:.0e}")
            v = q[f"grouped_w[{k}]/sort"]
            add(f"weighted grouped_sweep[{k}] <= 10x np.sort", v, 10.0, v <= 10.0, f"n={n:.0e}")
    if 10**6 in by_n:
        for k in GROUP_COUNTS:
            v = by_n[10**6]["ratio"].get(f"speedup_vs_naive[{k}]")
            if v is not None:
                add(f"grouped_sweep[{k}] >= 100x faster than naive grid", v, 100.0, v >= 100.0, "n=1e+06")
    if 10**7 in by_n:
        for k in GROUP_COUNTS:
            v = by_n[10**7]["ratio"][f"speedup_vs_roc[{k}]"]
            add(f"grouped_sweep[{k}] >= 3x faster than roc_curve loop", v, 3.0, v >= 3.0, "n=1e+07")
    for n, r in by_n.items():
        v = r["ratio"]["value_k/value_sweep"]
        add("value_against_k (201 k, end to end) <= 2x value_sweep", v, 2.0, v <= 2.0, f"n={n:.0e}")
    for m in memory:
        if m["n"] < 10**6:  # page granularity and allocator caching dominate below this
            continue
        v = m["extra_rss_over_input"]
        lab = f"{'weighted' if m['weighted'] else 'unweighted'}, {m['label_dtype']} labels"
        add(f"peak extra memory <= 4x inputs ({lab})", v, 4.0, v <= 4.0, f"n={m['n']:.0e}")
    return rows


def print_report(results, memory, targets, log):
    ns = [r["n"] for r in results]
    head = f"{'figure':<34s}" + "".join(f"{f'n={n:.0e}':>12s}" for n in ns)
    log("\nTimes (best of repeats)")
    log(head)
    names = list(results[-1]["time"].keys())
    for r in results:
        for k in r["time"]:
            if k not in names:
                names.append(k)
    for name in names:
        log(f"{name:<34s}" + "".join(f"{_fmt_t(r['time'].get(name)):>12s}" for r in results))
    log("\nRatios")
    log(head)
    rnames = []
    for r in results:
        for k in r["ratio"]:
            if k not in rnames:
                rnames.append(k)
    for name in rnames:
        log(f"{name:<34s}" + "".join(f"{_fmt_r(r['ratio'].get(name)):>12s}" for r in results))
    if memory:
        log("\nPeak memory of threshold_sweep above the inputs (fresh subprocess; VmHWM - VmRSS)")
        log(f"{'case':<34s}{'input MB':>10s}{'extra/input':>13s}{'tracemalloc':>13s}{'output/input':>14s}")
        for m in memory:
            lab = f"n={m['n']:.0e} {'weighted' if m['weighted'] else 'unweighted'} {m['label_dtype']}"
            log(
                f"{lab:<34s}{m['input_bytes'] / 1e6:>10.0f}{m['extra_rss_over_input']:>12.2f}x"
                f"{m['extra_traced_over_input']:>12.2f}x{m['output_over_input']:>13.2f}x"
            )
    log("\nTargets")
    for t in targets:
        cmp = ">=" if "faster" in t["target"] else "<="
        log(
            f"  {'PASS' if t['pass'] else 'MISS'}  {t['target']:<58s} {t['where']:<8s} "
            f"{_fmt_r(t['value']):>7s} (limit {cmp} {t['limit']:g}x)"
        )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1e5,1e6,1e7", help="comma-separated n (default 1e5,1e6,1e7)")
    ap.add_argument("--quick", action="store_true", help="n = 1e5, 1e6 only")
    ap.add_argument("--repeat", type=int, default=5, help="repeats per figure (best is kept; <= 3 at n >= 5e6)")
    ap.add_argument("--no-memory", action="store_true", help="skip the memory subprocesses")
    ap.add_argument("--out", default=str(HERE / "results.json"))
    ap.add_argument("--_memory", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)

    if a._memory:
        n, wt, ldt = a._memory.split(",")
        print(json.dumps(_memory_child(int(n), bool(int(wt)), ldt)))
        return 0

    sizes = [10**5, 10**6] if a.quick else [int(float(x)) for x in a.sizes.split(",") if x]
    log = lambda msg: print(msg, flush=True)  # noqa: E731
    t_start = time.perf_counter()
    sweep_src = (ROOT / "costlib" / "core" / "sweep.py").read_bytes()
    meta = {
        "date": _dt.datetime.now().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "sklearn": __import__("sklearn").__version__,
        "pandas": __import__("pandas").__version__,
        "cpu": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "costlib_sweep_py_sha256": hashlib.sha256(sweep_src).hexdigest()[:16],
        "sizes": sizes,
        "repeat": a.repeat,
        "label_dtype": "bool",
    }
    log(
        f"costlib benchmark {meta['date']}  numpy {meta['numpy']}  sklearn {meta['sklearn']}  "
        f"cpus {meta['cpus']}  sweep.py {meta['costlib_sweep_py_sha256']}"
    )
    meta["loadavg_start"] = _loadavg()
    if meta["loadavg_start"] > 0.5 * (os.cpu_count() or 1):
        log(
            f"  warning: load average {meta['loadavg_start']} on {os.cpu_count()} cpus: other processes "
            "are running, times are inflated and noisy (ratios within a run are interleaved)"
        )
    check_exactness(log)
    results = [bench_size(n, a.repeat, log) for n in sizes]
    memory = []
    if not a.no_memory:
        n_mem = max(sizes)
        for wt in (False, True):
            for ldt in ("bool", "int64"):
                memory.append(measure_memory(n_mem, wt, ldt))
                log(
                    f"  memory n={n_mem:.0e} weighted={wt} labels={ldt}: "
                    f"{memory[-1]['extra_rss_over_input']:.2f}x input"
                )
    targets = evaluate_targets(results, memory)
    print_report(results, memory, targets, log)
    meta["loadavg_end"] = _loadavg()
    meta["elapsed_s"] = round(time.perf_counter() - t_start, 1)
    log(f"\ntotal {meta['elapsed_s']} s; wrote {a.out}")
    summary = {"meta": meta, "results": results, "memory": memory, "targets": targets}
    Path(a.out).write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
