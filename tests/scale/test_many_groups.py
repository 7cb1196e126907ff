"""Many small groups: the scan stays linear in the rows and the (group, score) cells, and every
path that would compare the groups one by one (the audit with --engine, a data-folder file, an
aggregate, Watch) says in one sentence, before it starts, that more than `MAX_GROUPS` cannot be
compared (the issue: 400,000 rows in 8,000 groups took 23 GB through DuckDB)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from costlib.core.errors import DataError
from costlib.core.settings import MAX_GROUPS

ROOT = Path(__file__).resolve().parents[2]
MEMORY_BOUND_MB = 600  # measured: 200 MB peak for the scan below, of which 100 MB is the imports


def _rows(n: int, k: int, seed: int = 11) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {"y": rng.integers(0, 2, n), "s": rng.random(n).round(6), "g": [f"unit {i}" for i in rng.integers(0, k, n)]}
    )


@pytest.fixture(scope="module")
def many(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("groups") / "groups.parquet"
    _rows(100_000, 5000).to_parquet(path)
    return path


def _peak_mb(code: str) -> tuple[float, str]:
    # VmHWM, the peak of this process's own memory: ru_maxrss would carry the forking pytest worker's over exec
    probe = code + "\nprint([int(x.split()[1]) / 1024 for x in open('/proc/self/status') if x.startswith('VmHWM')][0])"
    r = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    return float(lines[-1]), "\n".join(lines[:-1])


def test_a_scan_of_5000_groups_stays_under_its_memory_bound_and_counts_every_row(many):
    peak, out = _peak_mb(
        "from costlib.scale.scans import scan_grouped_sweep\n"
        f"gs = scan_grouped_sweep({str(many)!r}, label='y', score='s', group='g')\n"
        "print(len(gs.groups), int(gs.positives.sum() + gs.negatives.sum()))"
    )
    assert out.split() == ["5000", "100000"]
    assert peak < MEMORY_BOUND_MB, f"the scan took {peak:.0f} MB"


def test_the_audit_with_engine_refuses_many_groups_in_a_sentence_before_it_starts(many):
    peak, out = _peak_mb(
        "import contextlib, io, sys\n"
        "from costlib.__main__ import main\n"
        "err = io.StringIO()\n"
        "with contextlib.redirect_stderr(err):\n"
        f"    code = main(['audit', {str(many)!r}, '--label', 'y', '--score', 's', '--group', 'g', '--c-fp', '1',"
        " '--c-fn', '2', '--engine', 'duckdb', '--json'])\n"
        "print(code, err.getvalue().replace(chr(10), ' '))"
    )
    assert out.startswith("2 --group: In ") and "has 5,000 distinct groups" in out
    assert f"at most {MAX_GROUPS} can be compared" in out and "Leave the group column out" in out
    assert peak < MEMORY_BOUND_MB


def test_a_data_folder_file_an_aggregate_and_watch_say_the_same(many, tmp_path):
    from costlib.scale.aggregates import aggregate
    from costlib.scale.bigdata import dataset_from_aggregate, dataset_from_file
    from costlib.watch.report import watch_report

    with pytest.raises(DataError, match="has 5,000 distinct groups"):
        dataset_from_file(many, label="y", scores=["s"], group="g")
    rows = _rows(3000, MAX_GROUPS + 5)
    agg = tmp_path / "agg.parquet"
    aggregate(rows, label="y", score="s", group="g").to_parquet(agg)
    with pytest.raises(DataError, match="25 distinct groups.*Write the aggregate again without --group"):
        dataset_from_aggregate(agg.read_bytes(), name="agg.parquet")
    ok = dataset_from_aggregate(  # at the bound it loads
        _write(tmp_path, aggregate(_rows(3000, MAX_GROUPS), label="y", score="s", group="g")), name="ok.parquet"
    )
    assert len(next(iter(ok.sweeps.values())).groups) == MAX_GROUPS
    policy = {"thresholds": {"everyone": 0.5}, "prices": {"everyone": (1.0, 2.0)}, "data": {}}
    cases = rows.assign(when="2026-01-01")
    with pytest.raises(DataError, match="25 distinct groups"):
        watch_report(policy, cases, name="cases.csv", time="when", score="s", label="y", group="g")


def _write(tmp_path: Path, agg) -> bytes:
    path = tmp_path / "ok.parquet"
    agg.to_parquet(path)
    return path.read_bytes()
