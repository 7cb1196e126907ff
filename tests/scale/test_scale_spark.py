"""The same out-of-core answers on Spark (local mode): equal to the in-memory kernel and to DuckDB.

One SparkSession (``local[2]``) serves every test here; the tests share an xdist group so that
``pytest -n 2`` starts one JVM, not two. Spark needs Java; the README's test command installs a
Java runtime where ``java`` is missing.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from numpy.testing import assert_array_equal

from costlib.binary.costs import compare_rules
from costlib.core.errors import DataError
from costlib.core.sweep import grouped_sweep, threshold_sweep
from costlib.scale import binning, refining
from costlib.scale import scans as scale
from costlib.scale.aggregates import aggregate, load_aggregate
from costlib.scale.spark import quiet_spark, spark_session
from costlib.scale.sql_gate import spark_select
from tests.scale.test_scale import assert_same_optimum, assert_same_sweep, expected_optimum, frame, special_scores

pytestmark = pytest.mark.xdist_group("spark")


@pytest.fixture(scope="session")
def spark():
    session = spark_session("local[2]")
    yield session
    session.stop()


def to_spark(spark, df: pd.DataFrame):
    with quiet_spark():
        return spark.createDataFrame(pa.Table.from_pandas(df, preserve_index=False))


def test_bins_in_spark_equal_the_float_parts_computed_in_numpy(spark):
    # Spark's LOG2 is a quotient of logarithms (off by one near some powers of two): the bins must not care
    x = special_scores()
    rows = to_spark(spark, pd.DataFrame({"s": x}))
    rows.createOrReplaceTempView("costlib_test_bins")
    bins = ", ".join(f"{binning.bin_sql('s', bits)} AS b{bits}" for bits in binning.LEVELS)
    got = spark.sql(f"SELECT {bins} FROM costlib_test_bins").toArrow()
    for bits in binning.LEVELS:
        assert_array_equal(got.column(f"b{bits}").to_numpy(), binning.bin_numpy(x, bits))


def test_near_codes_in_spark_are_the_bins_and_its_first_pass_counts_by_them(spark, monkeypatch):
    # Spark's first pass, without weights, counts by the cheap codes too (comparisons and one exact
    # product, cast to INT): each code gives back numpy's bin for scores in [2**-16, 2) and zero,
    # the rest (negative, tiny, 2 or more, NaN, infinite) has none; probabilities are counted by the
    # codes, logits fall back to the general bins, and the optimum is the in-memory one either way
    x = np.concatenate((special_scores(), np.random.default_rng(2).random(3000), [1.0, 2.0, np.nextafter(2.0, 0)]))
    x = np.concatenate((x, [2.0**-16, np.nextafter(2.0**-16, 0), np.inf, -np.inf, np.nan]))
    to_spark(spark, pd.DataFrame({"s": x})).createOrReplaceTempView("costlib_test_near")
    bits = binning.LEVELS[0]
    codes = spark.sql(f"SELECT {binning.near_bin_sql('s', bits, cast='INT')} AS c FROM costlib_test_near").toArrow()
    bins, known = binning.near_bins(codes.column("c").to_numpy(), bits)
    inside = ((x >= 2.0**-16) & (x < 2.0)) | (x == 0)
    assert_array_equal(known, inside)
    assert_array_equal(bins[inside], binning.bin_numpy(x[inside], bits))
    calls = []
    plain = refining._near_pass1
    monkeypatch.setattr(refining, "_near_pass1", lambda scan: calls.append(plain(scan)) or calls[-1])
    for kind, near in (("ties", True), ("signed", False)):
        df = frame(kind, n=2000, groups=4, seed=9)
        sdf = to_spark(spark, df)
        got = scale.scan_optimal_thresholds(sdf, label="y", score="s", group="g", costs=(1, 3), engine="spark")
        assert_same_optimum(got, expected_optimum(df, 1, 3))
        assert (calls.pop() is not None) == near and not calls


def test_spark_answers_equal_in_memory(spark):
    # weighted optimum, weighted sweeps per split, and the (unweighted) rules table: every query shape
    df = frame("ties", n=4000, groups=10, seed=7)
    df["split"] = np.where(np.arange(len(df)) % 3 == 0, "test", "train")
    sdf = to_spark(spark, df)
    got = scale.scan_optimal_thresholds(sdf, label="y", score="s", group="g", weight="w", costs=(1, 3), engine="spark")
    assert_same_optimum(got, expected_optimum(df, 1, 3, "w"))
    sweeps = scale.scan_grouped_sweep(sdf, label="y", score="s", group="g", split="split", weight="w", engine="spark")
    for role in ("train", "test"):
        m = df["split"] == role
        assert_same_sweep(sweeps[role], grouped_sweep(df["y"][m], df["s"][m], df["g"][m], sample_weight=df["w"][m]))
    prices = {g: (1, 1 + g) for g in range(10)}
    got = scale.scan_compare_rules(sdf, label="y", score="s", group="g", split="split", costs=prices, engine="spark")
    tr, te = df[df["split"] == "train"], df[df["split"] == "test"]
    want = compare_rules((tr["y"], tr["s"], tr["g"]), (te["y"], te["s"], te["g"]), costs=prices)
    pd.testing.assert_frame_equal(got, want)


def test_spark_refinement_rounds_equal_in_memory(spark, monkeypatch):
    monkeypatch.setattr(refining, "ROW_LIMIT", 0)  # every level of refinement runs on Spark
    df = frame("gaps", n=4000, groups=4, seed=8)
    got = scale.scan_optimal_thresholds(
        to_spark(spark, df), label="y", score="s", group="g", weight="w", costs=(2, 3), engine="spark"
    )
    assert_same_optimum(got, expected_optimum(df, 2, 3, "w"))


def test_spark_unbounded_scores_and_real_weights(spark):
    df = frame("lognormal", n=3000, groups=3, seed=4)
    sdf = to_spark(spark, df)
    got = scale.scan_optimal_thresholds(sdf, label="y", score="s", group="g", weight="wr", costs=(1, 2), engine="spark")
    assert_same_optimum(got, expected_optimum(df, 1, 2, "wr"), exact=False)
    duck = scale.scan_optimal_thresholds(df, label="y", score="s", group="g", weight="wr", costs=(1, 2))
    assert got["threshold"].tolist() == duck["threshold"].tolist()


def test_spark_reads_a_path_and_aggregates(spark, tmp_path):
    df = frame("signed", n=2000, groups=2, seed=9)
    df.to_parquet(tmp_path / "rows.parquet")
    agg = aggregate(str(tmp_path / "rows.parquet"), label="y", score="s", group="g", engine="spark")
    agg.to_parquet(tmp_path / "agg.parquet")
    back = load_aggregate(tmp_path / "agg.parquet")
    assert back.exact and back.provenance["engine"] == "spark"
    assert_same_sweep(back.sweep(), grouped_sweep(df["y"], df["s"], df["g"]))


def test_spark_bad_input_gets_a_sentence(spark):
    df = frame("ties", n=300, groups=2)
    sdf = to_spark(spark, df.assign(y=df["y"] * 3))
    with pytest.raises(DataError, match=r'column "y" \(label\) has \d+ rows whose label is not 0/1'):
        scale.scan_optimal_thresholds(sdf, label="y", score="s", costs=(1, 1), engine="spark")
    with pytest.raises(DataError, match='score="p": the DataFrame has no column "p"'):
        scale.scan_optimal_thresholds(sdf, label="y", score="p", costs=(1, 1), engine="spark")
    with pytest.raises(ValueError, match='pass engine="spark"'):
        scale.scan_optimal_thresholds(sdf, label="y", score="s", costs=(1, 1))


def test_spark_edge_cases_equal_in_memory(spark):
    """One group, no group column, every score equal, and a group with one class only."""
    one = frame("ties", n=800, groups=1, seed=11)
    equal = frame("equal", n=800, groups=3, seed=12)
    one_class = frame("ties", n=1200, groups=3, seed=13)
    one_class.loc[one_class["g"] == 0, "y"] = 0  # group 0 has no positives
    for df, costs in ((one, (1, 3)), (equal, (2, 1)), (one_class, (1, 4))):
        got = scale.scan_optimal_thresholds(
            to_spark(spark, df), label="y", score="s", group="g", weight="w", costs=costs, engine="spark"
        )
        assert_same_optimum(got, expected_optimum(df, *costs, "w"))
        duck = scale.scan_optimal_thresholds(df, label="y", score="s", group="g", weight="w", costs=costs)
        pd.testing.assert_frame_equal(got, duck)
    whole = scale.scan_grouped_sweep(to_spark(spark, one), label="y", score="s", engine="spark")
    want = threshold_sweep(one["y"], one["s"])
    assert whole.groups == (None,)
    for field in ("thresholds", "tp", "fp"):
        assert_array_equal(getattr(whole[None], field), getattr(want, field))


def test_the_audit_command_on_spark_gives_the_duckdb_summary(spark, capsys):
    """`python -m costlib audit --engine spark`, run in this process so that it finds the session."""
    import json
    from pathlib import Path

    from costlib.__main__ import main

    sample = str(Path(__file__).resolve().parents[2] / "costlib" / "samples" / "compas.csv")
    args = ["audit", sample, "--label", "two_year_recid", "--score", "p_recid", "--split", "split"]
    args += ["--group", "race", "--c-fp", "1", "--c-fn", "2", "--resamples", "50", "--json"]
    out = {}
    for engine in ("spark", "duckdb"):
        assert main([*args, "--engine", engine]) == 0
        out[engine] = json.loads(capsys.readouterr().out)
    assert out["spark"] == out["duckdb"]


def test_the_answer_within_a_review_limit_on_spark_is_the_duckdb_one(spark, capsys):
    import json
    from pathlib import Path

    from costlib.__main__ import main

    sample = str(Path(__file__).resolve().parents[2] / "costlib" / "samples" / "compas.csv")
    args = ["audit", sample, "--label", "two_year_recid", "--score", "p_recid", "--split", "split"]
    args += ["--group", "race", "--c-fp", "1", "--c-fn", "3", "--resamples", "50", "--json"]
    args += ["--volume", "10000", "--max-flagged", "1500"]
    out = {}
    for engine in ("spark", "duckdb"):
        assert main([*args, "--engine", engine]) == 0
        out[engine] = json.loads(capsys.readouterr().out)
    assert out["spark"] == out["duckdb"]
    assert out["spark"]["within_capacity"]["binding"]


#: texts Spark's own parser reads as something other than one query, or that call Java code
SPARK_REFUSED = [
    "INSERT INTO costlib_gate_t SELECT 1 AS y",
    "CREATE TABLE costlib_gate_t AS SELECT 1 AS y",
    "WITH a AS (SELECT 1 AS y) INSERT INTO costlib_gate_t SELECT * FROM a",
    "SET costlib.gate = x",
    "CACHE TABLE costlib_gate_c AS SELECT 1 AS y",
    "EXECUTE IMMEDIATE 'CREATE TABLE costlib_gate_t AS SELECT 1 AS y'",
    "BEGIN CREATE TABLE costlib_gate_t AS SELECT 1 AS y; END",
    "SELECT 1 AS y; CREATE TABLE costlib_gate_t AS SELECT 1 AS y",
    "SELECT CAST(reflect('java.lang.System', 'setProperty', 'costlib.gate', 'x') IS NULL AS INT) AS y, 0.5 AS s",
    "WITH a AS (SELECT java_method('java.lang.System', 'setProperty', 'costlib.gate', 'x') AS y) SELECT * FROM a",
    "SELECT IDENTIFIER('reflect')('java.lang.System', 'setProperty', 'costlib.gate', 'x') AS y",
]


def test_a_spark_query_passes_spark_s_own_gate_and_nothing_else_runs(spark, tmp_path, monkeypatch):
    """engine="spark" reads a query in Spark SQL (``DISTRIBUTE BY``: DuckDB's parser refused it),
    proven one query by Spark's parser before it runs; commands, inserts and Java calls are
    refused with a sentence and leave no table, no setting, no property and no warehouse file."""
    monkeypatch.chdir(tmp_path)  # where a CREATE TABLE would put its spark-warehouse folder
    df = frame("ties", n=400, groups=2, seed=3)
    df.to_parquet(tmp_path / "rows.parquet")
    text = f"SELECT `y`, `s` AS `the score`, `g` FROM parquet.`{tmp_path}/rows.parquet` DISTRIBUTE BY `g`"
    got = scale.scan_optimal_thresholds(text, label="y", score="the score", group="g", costs=(1, 2), engine="spark")
    assert_same_optimum(got, expected_optimum(df, 1, 2))
    for refused in SPARK_REFUSED:  # the gate itself, then the engine (a text not starting as a query is a path)
        with pytest.raises(DataError, match="must be one SELECT statement|cannot be read as SQL"):
            spark_select(spark, refused)
        with pytest.raises(DataError):
            scale.scan_optimal_thresholds(refused, label="y", score="s", costs=(1, 2), engine="spark")
    assert not spark.catalog.tableExists("costlib_gate_t") and not spark.catalog.tableExists("costlib_gate_c")
    assert spark.conf.get("costlib.gate", None) is None
    assert spark._jvm.java.lang.System.getProperty("costlib.gate") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.parquet"]


def test_the_cli_reads_a_spark_query_with_spark_s_gate_and_guards_the_files_it_reads(
    spark, tmp_path, capsys, monkeypatch
):
    """`aggregate` and `audit` with ``--engine spark``: Spark SQL (``DISTRIBUTE BY``, which
    DuckDB's parser refuses) reaches Spark; an output that the query reads (a file, a match of
    its pattern, a file in the folder it reads) is refused before anything runs; a table whose
    files the text does not name is refused rather than guessed."""
    from costlib.__main__ import main
    from costlib.cli.outputs import MSG_NAMED_BY_QUERY
    from costlib.scale.query_files import MSG_SPARK_UNNAMED_FILES

    df = frame("ties", n=400, groups=2, seed=5)
    (tmp_path / "parts").mkdir()
    df.to_parquet(tmp_path / "parts" / "rows.parquet")
    named = MSG_NAMED_BY_QUERY.split("{path}")[1]
    base = ["--label", "y", "--score", "s", "--group", "g", "--engine", "spark"]
    read = str(tmp_path / "parts" / "rows.parquet")
    for where in ("parts/rows.parquet", "parts/*.parq{uet,x}", "parts"):
        text = f"SELECT `y`, `s`, `g` FROM parquet.`{tmp_path}/{where}` DISTRIBUTE BY `g`"
        assert main(["aggregate", text, *base, "--out", read]) == 2
        assert named in capsys.readouterr().err
        assert main(["audit", text, *base, "--c-fp", "1", "--c-fn", "2", "--report", read]) == 2
        assert named in capsys.readouterr().err
    # a relative path is Spark's: from the folder its JVM started in, not from Python's working folder
    monkeypatch.chdir(tmp_path / "parts")
    relative = os.path.relpath(read, spark._jvm.java.lang.System.getProperty("user.dir"))
    text = f"SELECT `y`, `s`, `g` FROM parquet.`{relative}` DISTRIBUTE BY `g`"
    assert main(["aggregate", text, *base, "--out", read]) == 2
    assert named in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["parts", "rows.parquet"]  # nothing written
    text = f"SELECT `y`, `s`, `g` FROM parquet.`{tmp_path}/parts` DISTRIBUTE BY `g`"
    assert main(["aggregate", text, *base, "--out", str(tmp_path / "agg.parquet")]) == 0
    assert_same_sweep(load_aggregate(tmp_path / "agg.parquet").sweep(), grouped_sweep(df["y"], df["s"], df["g"]))
    capsys.readouterr()
    unnamed = MSG_SPARK_UNNAMED_FILES.split("{what}")[1]
    for text in ("SELECT * FROM costlib_guard_t", "SELECT * FROM read_files('/etc/hostname')"):
        assert main(["aggregate", text, *base, "--out", str(tmp_path / "other.parquet")]) == 2
        assert unnamed in capsys.readouterr().err
    assert not (tmp_path / "other.parquet").exists()
