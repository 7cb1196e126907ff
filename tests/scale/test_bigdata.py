"""Big data on the dashboard: a data folder read through DuckDB, aggregate files, counts-only pages."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from costlib import answers, value
from costlib.binary import decision
from costlib.core.errors import DataError
from costlib.present import words
from costlib.present.value_verdict import unset_prices_clause, value_verdict
from costlib.scale import bigdata

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


@pytest.fixture
def folder(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    rng = np.random.default_rng(0)
    n = 3000
    s = rng.random(n).round(3)
    df = pd.DataFrame(
        {
            "y": (rng.random(n) < s).astype(int),
            "s": s,
            "g": rng.choice(["a", "b"], n),
            "split": rng.choice(["train", "test"], n),
        }
    )
    df.to_parquet(data / "scores.parquet")
    df.to_csv(data / "scores.csv", index=False)
    (data / "notes.txt").write_text("not a table")
    (data / ".hidden.csv").write_text("y,s\n1,0.5\n")
    (data / "sub").mkdir()
    outside = tmp_path / "secret.csv"
    outside.write_text("y,s\n1,0.5\n")
    os.symlink(outside, data / "link.csv")
    return data, df


def test_the_data_folder_offers_only_its_own_tables(folder):
    data, _ = folder
    assert bigdata.list_files(data) == ["scores.csv", "scores.parquet"]
    for bad in (
        "../secret.csv",
        "/etc/passwd",
        ".hidden.csv",
        "link.csv",
        "sub",
        "notes.txt",
        "scores.parquet/..",
        "..",
        "",
    ):
        with pytest.raises(DataError, match="is not one of the files in the data folder"):
            bigdata.safe_path(data, bad)
    assert bigdata.safe_path(data, "scores.parquet") == (data / "scores.parquet").resolve()


@pytest.mark.parametrize("name", ["scores.parquet", "scores.csv"])
def test_a_file_read_through_duckdb_gives_the_in_memory_answer(folder, name):
    data, df = folder
    ds = bigdata.dataset_from_file(bigdata.safe_path(data, name), label="y", scores=["s"], group="g", split="split")
    fit = (df["split"] == "train").to_numpy()
    want = decision.recommend(
        decision.sweep_model(df["y"], df["s"], df["g"], fit=fit, judge=~fit, name="s"), (1, 3), n_resamples=300
    )
    got = decision.recommend(ds.sweeps, (1, 3), n_resamples=300)
    assert got.summary() == want.summary()
    assert (got.saving_low, got.saving_high) == (want.saving_low, want.saving_high)
    assert ds.counts_only and ds.n_rows == len(df)


def test_an_aggregate_file_loads_on_the_data_page_and_costs_answers_from_it(folder, tmp_path):
    data, df = folder
    out = tmp_path / "agg.parquet"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "costlib",
            "aggregate",
            str(data / "scores.parquet"),
            "--label",
            "y",
            "--score",
            "s",
            "--group",
            "g",
            "--split",
            "split",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["data"] = "compas"
    at.run()
    at.file_uploader(key="aggregate_upload").upload("agg.parquet", out.read_bytes(), "application/octet-stream").run()
    assert not at.exception
    at.switch_page("views/costs.py").run()
    assert not at.exception
    fit = (df["split"] == "train").to_numpy()
    ms = decision.sweep_model(df["y"], df["s"], df["g"], fit=fit, judge=~fit, name="s")
    rec = decision.recommend({"s": ms}, (1, 3), n_resamples=1000)
    boxes = [x.value for x in (*at.success, *at.warning, *at.error) if "per case" in x.value]
    assert boxes == [words.md_escape(answers.costs_verdict(rec, ms, unit="$", volume=10_000).headline)]
    # Value reads its sweeps from the counts: the same answer as from the rows
    at.switch_page("views/value.py").run()
    assert not at.exception
    assert not any("holds counts, not rows" in x.value.replace("\\", "") for x in at.info)
    k = float(at.session_state["k"])
    tr, te = df[fit], df[~fit]
    want = value.recommend_value(
        {"s": value.value_sweep(te["y"], te["s"])}, k=k, fit_sweeps={"s": value.value_sweep(tr["y"], tr["s"])}
    )
    priced = unset_prices_clause(worth=1.0, reject_worth=0.0, worth_default=1.0, reject_default=0.0, unit="$")
    headline = value_verdict(want, k=k, worth=1.0, unit="$", volume=10_000, priced=priced).headline
    shown = [x.value for x in (*at.success, *at.warning, *at.info, *at.error)]
    assert words.md_escape(headline) in shown
    at.switch_page("views/calibration.py").run()  # a page that needs rows says so and draws on a sample
    assert any("holds counts, not rows" in x.value.replace("\\", "") for x in at.info)


def test_the_data_page_opens_a_folder_file_with_duckdb(folder, monkeypatch):
    data, df = folder
    monkeypatch.setenv(bigdata.DATA_DIR_ENV, str(data))
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["data"] = "compas"
    at.run()
    at.selectbox(key="folder_file").set_value("scores.parquet")
    at.selectbox(key="folder_label").set_value("y")
    at.multiselect(key="folder_scores").set_value(["s"])
    at.selectbox(key="folder_group").set_value("g")
    at.selectbox(key="folder_split").set_value("split")
    [b for b in at.button if b.label == "Open with DuckDB"][0].click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.session_state["upload_dataset"].counts_only
    at.switch_page("views/costs.py").run()
    assert not at.exception
    assert "cost_chart" in {c.key for c in at.get("plotly_chart")}


def test_a_binned_aggregate_states_its_bound_in_words(tmp_path):
    from costlib.scale.aggregates import aggregate

    rng = np.random.default_rng(1)
    n = 4000
    df = pd.DataFrame({"y": rng.integers(0, 2, n), "s": rng.lognormal(0, 2, n), "g": rng.choice(["a", "b"], n)})
    agg = aggregate(df, label="y", score="s", group="g", max_thresholds=300)
    agg.to_parquet(tmp_path / "b.parquet")
    ds = bigdata.dataset_from_aggregate((tmp_path / "b.parquet").read_bytes(), name="b.parquet")
    assert not agg.exact
    assert agg.meta["bound"]["statement"] in ds.notes  # the sentence, not the dict it sits in
    assert all(isinstance(note, str) for note in ds.notes)


def test_a_folder_file_with_more_scores_than_the_budget_is_pooled_and_says_so(folder, monkeypatch):
    data, df = folder
    exact = bigdata.dataset_from_file(data / "scores.parquet", label="y", scores=["s"], group="g")
    assert len(exact.notes) == 1  # exact: the note says only where the counts come from
    monkeypatch.setattr(bigdata, "FOLDER_MAX_THRESHOLDS", 200)
    pooled = bigdata.dataset_from_file(data / "scores.parquet", label="y", scores=["s"], group="g")
    assert any("bins per binade" in note for note in pooled.notes)
    whole, kept = exact.sweeps["s"].fit, pooled.sweeps["s"].fit
    for g in whole.groups:
        assert len(kept[g].thresholds) < len(whole[g].thresholds)
        # every kept threshold is a real one, with the exact counts there
        idx = whole[g].index_at(kept[g].thresholds)
        np.testing.assert_array_equal(whole[g].thresholds[idx], kept[g].thresholds)
        np.testing.assert_array_equal(whole[g].tp[idx], kept[g].tp)
    assert pooled.n_rows == exact.n_rows == len(df)


def test_a_folder_files_chosen_columns_are_read_alone_and_refused_past_the_budget(tmp_path, monkeypatch):
    from costlib.loading.budget import UPLOAD_MEMORY_ENV

    path = tmp_path / "cases.parquet"
    pd.DataFrame({"when": ["2026-01-01"] * 3, "p": [0.1, 0.5, 0.9], "other": ["x", "y", "z"]}).to_parquet(path)
    got = bigdata.read_columns(path, ["when", "p"])
    assert list(got.columns) == ["when", "p"] and got["p"].tolist() == [0.1, 0.5, 0.9]
    with pytest.raises(DataError, match='no column "nope"'):
        bigdata.read_columns(path, ["nope"])
    monkeypatch.setenv(UPLOAD_MEMORY_ENV, "0.0001")  # about 100 bytes: three rows of two columns pass it
    with pytest.raises(DataError, match="has 3 rows: its 2 columns would take about"):
        bigdata.read_columns(path, ["when", "p"])


def test_a_folder_csvs_byte_order_mark_is_not_part_of_its_first_column_name(tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes("\ufeffwhen,p\n2026-01-01,0.5\n".encode())
    assert bigdata.columns_of(path) == ["when", "p"]
    assert bigdata.read_columns(path, ["when"]).shape == (1, 1)


def test_a_folder_file_named_like_a_pattern_is_refused_not_read_as_one(tmp_path):
    for name in ("a.csv", "b.csv"):
        (tmp_path / name).write_text("y,s\n0,0.1\n1,0.9\n")
    (tmp_path / "*.csv").write_text("y,s\n1,0.5\n")
    assert "*.csv" in bigdata.list_files(tmp_path)  # shown, so that its sentence can be read
    with pytest.raises(DataError, match="wildcard character"):
        bigdata.safe_path(tmp_path, "*.csv")
    with pytest.raises(DataError, match="wildcard character"):
        bigdata.safe_path(tmp_path, "[ab].csv")


def test_a_query_source_runs_one_read_only_statement(tmp_path):
    from costlib.scale.engines import connect

    target = tmp_path / "x.csv"
    engine = connect("duckdb", "SELECT 1 AS y")
    try:
        with pytest.raises(DataError, match="one SELECT statement"):
            engine.open(f"SELECT 1 AS y; COPY (SELECT 42) TO '{target}'")
        with pytest.raises(DataError):  # closing the wrapper a SELECT * FROM (...) would put around it
            engine.open(f"SELECT 1 AS a); COPY (SELECT 42 AS x) TO '{target}'; SELECT * FROM (SELECT 1 AS a")
        with pytest.raises(DataError):  # not a SELECT: not read as a query at all
            engine.open(f"COPY (SELECT 42) TO '{target}'")
        assert not target.exists()  # nothing but a read ever ran
        for query in (
            "SELECT 1 AS y, 0.5 AS s;",
            "SELECT 1 AS y -- a note",
            "WITH t AS (SELECT 1 AS y) SELECT * FROM t",
        ):
            view = engine.open(query)
            assert engine.sql(f"SELECT * FROM {view}")["y"].tolist() == [1]
    finally:
        engine.close()


def test_an_aggregate_says_its_fingerprint_is_a_checksum_not_a_signature_on_the_page_and_in_the_report(tmp_path):
    from costlib.answers.audit import build_audit
    from costlib.present.report import audit_html
    from costlib.scale.aggregates import aggregate

    rng = np.random.default_rng(3)
    p = rng.random(400).round(2)
    aggregate(pd.DataFrame({"y": (rng.random(400) < p).astype(int), "s": p}), label="y", score="s").to_parquet(
        tmp_path / "a.parquet"
    )
    ds = bigdata.dataset_from_aggregate((tmp_path / "a.parquet").read_bytes(), name="a.parquet")
    assert bigdata.NOT_A_SIGNATURE in ds.notes  # the Data page shows a dataset's notes
    audit = build_audit(dict(ds.sweeps), (1.0, 2.0), n_resamples=0, data_notes=ds.notes, data_name=ds.name)
    assert "it is a checksum, not a signature" in audit_html(audit)


def test_a_data_folder_whose_path_is_a_pattern_is_refused_and_csv_names_are_duckdbs(tmp_path):
    odd = tmp_path / "[q1]"
    odd.mkdir()
    (odd / "a.csv").write_text("y,s\n0,0.1\n")
    with pytest.raises(DataError, match="wildcard character .* in its path"):
        bigdata.safe_path(odd, "a.csv")
    semi = tmp_path / "semi.csv"
    semi.write_text("label;score\n0;0.1\n1;0.9\n")
    assert bigdata.columns_of(semi) == ["label", "score"]


def test_a_folder_file_with_a_repeated_header_or_a_bad_csv_line_gets_the_projects_sentence(tmp_path):
    """The upload path names a repeated column and a bad cell; the data folder said nothing (DuckDB
    renamed the second "s" to "s_1" and the first was used) or DuckDB's own words."""
    from costlib.scale.bigdata import columns_of, dataset_from_file

    dup = tmp_path / "dup.csv"
    dup.write_text("y,s,s\n0,0.1,0.9\n1,0.8,0.2\n")
    with pytest.raises(DataError, match='the column name "s" twice \\(columns 2 and 3\\)'):
        columns_of(dup)
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table([[0], [0.1], [0.9]], names=["y", "s", "s"]), tmp_path / "dup.parquet")
    with pytest.raises(DataError, match='"s" twice'):
        columns_of(tmp_path / "dup.parquet")
    quoted = tmp_path / "quoted.csv"
    quoted.write_text('y,"a,b",s\n0,1,0.1\n1,2,0.9\n')  # a delimiter inside a quoted name is not a repeat
    assert columns_of(quoted) == ["y", "a,b", "s"]
    bad = tmp_path / "bad.csv"
    bad.write_text("y,s\n" + "0,0.1\n1,0.9\n" * 15_000 + "0,abc\n")
    with pytest.raises(DataError, match="line 30,002 cannot be read: a cell there does not fit its column"):
        dataset_from_file(bad, label="y", scores=["s"])
