"""A file read through DuckDB is read in one version: swapped between the passes, it is read
again (or refused when it keeps changing); replaced under the same name, rows and modification
time, it is another dataset, never the old one's answer."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from costlib.core.errors import DataError
from costlib.scale import bigdata, refining, scans, score_stats, snapshot
from costlib.scale.aggregates import aggregate
from costlib.scale.scans import scan_group_costs, scan_optimal_thresholds

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


def scores(seed: int, n: int = 400) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    s = rng.random(n)
    return pd.DataFrame({"y": (rng.random(n) < s).astype(int), "s": s.round(3), "t": rng.random(n).round(3)})


def write(df: pd.DataFrame, path: Path) -> Path:
    df.to_csv(path, index=False, float_format="%.3f")  # fixed widths: flipped labels keep the size
    return path


def swap_in(monkeypatch, path: Path, versions: list[Path], *, every: bool = False) -> list[int]:
    """After the checking pass (`validate`) of every reader, replace `path` with the next of
    `versions` (once, or on `every` pass); the passes that follow read the new file."""
    done: list[int] = []
    real = score_stats.validate

    def check_then_swap(scan, frame):
        done.append(1)
        real(scan, frame)
        if every or len(done) == 1:
            shutil.copyfile(versions[(len(done) - 1) % len(versions)], path.with_suffix(".next"))
            os.replace(path.with_suffix(".next"), path)

    for module in (score_stats, refining, scans):
        monkeypatch.setattr(module, "validate", check_then_swap)
    return done


READERS = {
    "data folder": lambda p: bigdata.dataset_from_file(p, label="y", scores=["s"]),
    "aggregate": lambda p: aggregate(str(p), label="y", score="s"),
    "optimal thresholds": lambda p: scan_optimal_thresholds(str(p), label="y", score="s", costs=(1, 3)),
    "group costs": lambda p: scan_group_costs(str(p), label="y", score="s", group=None, costs=(1, 3), thresholds=0.5),
}


@pytest.mark.parametrize("reader", list(READERS))
def test_labels_swapped_in_after_the_rows_were_checked_are_checked_again(tmp_path, monkeypatch, reader):
    good = scores(0)
    path = write(good, tmp_path / "scores.csv")
    bad = write(good.assign(y=good["y"].where(good.index % 7 != 3, 2)), tmp_path / "bad.csv")  # 57 labels are 2
    done = swap_in(monkeypatch, path, [bad])
    # before: the counting passes read the new file and counted its 57 rows labelled 2 as neither class
    with pytest.raises(DataError, match=r'column "y" \(label\) has 57 rows whose label is not 0/1 .*\(found 2\)'):
        READERS[reader](path)
    assert len(done) == 2  # checked once on each version


def test_a_file_that_keeps_changing_between_the_passes_is_refused(tmp_path, monkeypatch):
    path = write(scores(0), tmp_path / "scores.csv")
    versions = [write(scores(1), tmp_path / "b.csv"), write(scores(2), tmp_path / "c.csv")]
    swap_in(monkeypatch, path, versions, every=True)
    with pytest.raises(DataError) as info:
        bigdata.dataset_from_file(path, label="y", scores=["s", "t"])
    assert info.value.message == snapshot.MSG_CHANGED.format(source=f'"{path}"')


def test_a_file_changed_a_moment_ago_is_read_once_its_change_time_cannot_repeat(tmp_path):
    path = write(scores(0), tmp_path / "scores.csv")
    changed = path.stat().st_ctime_ns
    started: list[int] = []
    snapshot.consistent(str(path), lambda: started.append(time.time_ns()))
    assert started[0] - changed >= snapshot.SETTLE_NS  # a write within the same tick would go unseen


def test_the_identity_of_a_glob_counts_every_file_it_matches(tmp_path):
    write(scores(0), tmp_path / "a.csv")
    before = snapshot.identity(str(tmp_path / "*.csv"))
    write(scores(0), tmp_path / ".b.csv")  # DuckDB's glob reads hidden files too
    after = snapshot.identity(str(tmp_path / "*.csv"))
    assert [Path(p).name for p, _ in after] == [".b.csv", "a.csv"] and after[1] == before[0]
    assert snapshot.identity("SELECT 1 AS y") == () and snapshot.identity(pd.DataFrame()) == ()
