"""A file read through DuckDB is read in one version: swapped between the passes, it is read
again (or refused when it keeps changing); replaced under the same name, rows and modification
time, it is another dataset, never the old one's answer."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

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


def _sweeps(ds) -> dict:
    return {
        score: [(g, m.fit[g].thresholds.tolist(), m.fit[g].tp.tolist()) for g in m.fit.groups]
        for score, m in ds.sweeps.items()
    }


def swap_after_the_first_score(monkeypatch, path: Path, new: Path) -> list[str]:
    """Replace `path` with `new` once the first score column's scan is done (each score column is
    scanned on its own, by `bigdata.scan_sweeps`); the score columns scanned, in order."""
    real, calls = bigdata.scan_sweeps, []

    def swap(*args, **kwargs):
        out = real(*args, **kwargs)
        if not calls:
            shutil.copyfile(new, path.with_suffix(".next"))
            os.replace(path.with_suffix(".next"), path)
        calls.append(kwargs["score"])
        return out

    monkeypatch.setattr(bigdata, "scan_sweeps", swap)
    return calls


def test_a_file_swapped_between_two_score_columns_gives_the_new_files_answer_for_both(tmp_path, monkeypatch):
    path = write(scores(0), tmp_path / "scores.csv")
    new = write(scores(1), tmp_path / "new.csv")
    want = _sweeps(bigdata.dataset_from_file(new, label="y", scores=["s", "t"]))
    old = _sweeps(bigdata.dataset_from_file(path, label="y", scores=["s", "t"]))
    calls = swap_after_the_first_score(monkeypatch, path, new)
    got = bigdata.dataset_from_file(path, label="y", scores=["s", "t"])
    assert calls == ["s", "t", "s", "t"]  # read again, whole
    assert _sweeps(got) == want and want["s"] != old["s"]  # before: "s" from the old file, "t" from the new


def replace_keeping_name_rows_and_time(path: Path, df: pd.DataFrame) -> None:
    """Write `df` over `path` in place with the old size and modification time (os.utime)."""
    st = path.stat()
    write(df, path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)


def test_a_file_replaced_with_the_same_name_rows_and_time_is_another_dataset(tmp_path):
    a = scores(0)
    path = write(a, tmp_path / "scores.csv")
    first = bigdata.dataset_from_file(path, label="y", scores=["s"])
    replace_keeping_name_rows_and_time(path, a.assign(y=1 - a["y"]))
    again = bigdata.dataset_from_file(path, label="y", scores=["s"])
    assert again.n_rows == first.n_rows and again.name == first.name
    assert again.fingerprint != first.fingerprint  # before: "file:scores.csv:<mtime>" for both
    assert snapshot.identity(path) != snapshot.identity(tmp_path / "other.csv")
    assert again.sweeps["s"].fit.positives.sum() == (1 - a["y"]).sum()  # the new labels


def _open(at: AppTest, name: str) -> str:
    """Open `name` from the data folder on the Data page; the Costs & groups verdict on it."""
    at.switch_page("views/data.py").run()
    at.selectbox(key="folder_file").set_value(name)
    at.selectbox(key="folder_label").set_value("y")
    at.multiselect(key="folder_scores").set_value(["s"])
    [b for b in at.button if b.label == "Open with DuckDB"][0].click().run()
    assert not at.exception, [e.message for e in at.exception]
    at.switch_page("views/costs.py").run()
    assert not at.exception, [e.message for e in at.exception]
    boxes = [x.value for x in (*at.success, *at.warning, *at.error) if "per case" in x.value]
    assert len(boxes) == 1, boxes
    return boxes[0]


def test_the_data_page_shows_the_new_files_answer_after_a_same_name_rows_and_time_replacement(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    folder.mkdir()
    a = scores(0, 2000)
    b = a.assign(y=1 - a["y"])  # the scores now point the wrong way: another verdict
    write(b, folder / "b.csv")
    path = write(a, folder / "scores.csv")
    monkeypatch.setenv(bigdata.DATA_DIR_ENV, str(folder))
    fresh = AppTest.from_file(APP, default_timeout=120)
    fresh.query_params["data"] = "compas"
    fresh.run()
    want = _open(fresh, "b.csv")
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["data"] = "compas"
    at.run()
    old = _open(at, "scores.csv")
    assert old != want
    replace_keeping_name_rows_and_time(path, b)
    assert _open(at, "scores.csv") == want  # before: the old file's verdict, remembered by name and time


def test_audit_with_engine_counts_every_score_and_hashes_one_version_of_the_file(tmp_path, monkeypatch, capsys):
    from costlib.__main__ import main

    path = write(scores(0), tmp_path / "scores.csv")
    new = write(scores(1), tmp_path / "new.csv")
    args = ["--engine", "duckdb", "--label", "y", "--score", "s", "--score", "t", "--c-fp", "1", "--c-fn", "3"]
    args += ["--resamples", "50", "--json"]
    assert main(["audit", str(new), *args]) == 0
    want = json.loads(capsys.readouterr().out)
    calls = swap_after_the_first_score(monkeypatch, path, new)
    assert main(["audit", str(path), *args]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == {**want, "data": {**want["data"], "file": "scores.csv"}}  # before: "s" judged on the old rows
    assert got["data"]["sha256"] == hashlib.sha256(new.read_bytes()).hexdigest()  # the rows counted
    assert calls == ["s", "t", "s", "t"]
