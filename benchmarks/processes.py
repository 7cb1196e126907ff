"""What the benchmarks read of processes and write as inputs, in one place.

`descendants` and `cpu_seconds` read Linux's ``/proc``; `write_predictions` writes the CSV of
predictions the load benchmarks upload (each with its own seed, so no two uploads are alike).
"""

from __future__ import annotations

import os
from pathlib import Path


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (children, their children, ...), from ``/proc``."""
    out, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        try:
            with open(f"/proc/{parent}/task/{parent}/children") as fh:
                kids = [int(x) for x in fh.read().split()]
        except OSError:
            kids = []
        out += kids
        frontier += kids
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process `pid` so far (all its threads)."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def write_predictions(path: Path, rows: int, seed: int) -> Path:
    """A CSV of `rows` predictions (label, score, region), its own seed: every upload differs."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    p = rng.random(rows).round(4)
    y = (rng.random(rows) < p).astype(int)
    group = np.where(rng.random(rows) < 0.4, "north", "south")
    pd.DataFrame({"label": y, "score": p, "region": group}).to_csv(path, index=False)
    return path
