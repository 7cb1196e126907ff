"""The SQL gate (`costlib.scale.sql_gate`): nothing a person wrote runs unless it is one read-only
SELECT, and nothing is written when it is not. Each refusal runs in a fresh folder watched for new
files (the working folder, the temporary folder and the folder the statement names)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from costlib import DataError
from costlib.__main__ import main
from costlib.scale.engines import connect
from costlib.scale.query_files import query_files
from costlib.scale.sql_gate import read_only_select

#: statements that write, load, attach or change settings; {f} is a file path in the watched folder
WRITES = [
    "COPY (SELECT 42 AS x) TO '{f}'",
    "COPY (SELECT 42 AS x) TO '{f}' (FORMAT parquet)",
    "EXPORT DATABASE '{f}'",
    "ATTACH '{f}' AS other",
    "INSTALL httpfs",
    "LOAD httpfs",
    "PRAGMA enable_profiling",
    "SET threads = 1",
    "CALL enable_logging('FileSystem')",
    "CREATE TABLE t AS SELECT 1",
    "CREATE SECRET s (TYPE s3, KEY_ID 'a', SECRET 'b')",
    "INSERT INTO t VALUES (1)",
    "DROP TABLE t",
    "CHECKPOINT",
    "VACUUM",
]
#: one-statement SELECTs that would still write or run SQL of their own
HIDDEN = [
    "WITH a AS (COPY (SELECT 42 AS x) TO '{f}') SELECT 1 AS y",
    "WITH a AS (SELECT 1) SELECT * FROM query('COPY (SELECT 42 AS x) TO ''{f}''')",
    "SELECT * FROM query('SELECT 1 AS y')",
    "SELECT * FROM main.query('SELECT 1 AS y')",
    "SELECT * FROM query_table('t')",
    "SELECT * FROM checkpoint()",
    "SELECT setseed(0.5)",
]
READ = "SELECT * FROM read_csv_auto('{src}')"
#: texts that hide a separator or use look-alikes
LOOKALIKES = [
    "ＳＥＬＥＣＴ 1",  # fullwidth letters
    "SELECT 1；COPY (SELECT 42 AS x) TO '{f}'",  # fullwidth semicolon
    "SELECT 1\u037e COPY (SELECT 42 AS x) TO '{f}'",  # Greek question mark, which looks like ';'
    "SELECT 1 /* ; */ ; COPY (SELECT 42 AS x) TO '{f}'",
    "SELECT ';' AS y; COPY (SELECT 42 AS x) TO '{f}'",
    "SELECT 1 -- ;\n; COPY (SELECT 42 AS x) TO '{f}'",
    "SELECT $$;$$ AS y; COPY (SELECT 42 AS x) TO '{f}'",
]


class Watched:
    """A fresh folder to write into, the working folder moved into it, and every new file seen."""

    def __init__(self, root: Path):
        self.root = root
        self.target = root / "pwn.csv"
        self.src = root / "in.csv"
        pd.DataFrame({"y": [0, 1, 0, 1], "s": [0.1, 0.8, 0.3, 0.6]}).to_csv(self.src, index=False)
        self._tmp = Path(tempfile.gettempdir())
        self.before = self._files()

    def _files(self) -> set[str]:
        here = {str(p) for p in self.root.rglob("*")}
        return here | {str(p) for p in self._tmp.iterdir() if p.name.startswith("pwn")}

    def fill(self, text: str) -> str:
        return text.format(f=self.target, src=self.src)

    def new(self) -> set[str]:
        return self._files() - self.before


@pytest.fixture
def watched(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return Watched(tmp_path)


def _refused_everywhere(watched: Watched, text: str) -> None:
    """The gate, the file finder the CLI's output guard uses, and a DuckDB engine all refuse
    `text` with a sentence; nothing new appears."""
    with pytest.raises(DataError) as gate:
        read_only_select(text)
    assert str(gate.value).endswith((".", ")")) and "Traceback" not in str(gate.value)
    with pytest.raises(DataError):
        query_files(text)
    engine = connect("duckdb", "SELECT 1 AS y")
    try:
        with pytest.raises(DataError):
            engine.open(text)
    finally:
        engine.close()
    assert not watched.new(), f"{text!r} wrote {watched.new()}"


@pytest.mark.parametrize("write", WRITES + HIDDEN + LOOKALIKES)
def test_a_write_is_refused_alone_first_and_last(watched, write):
    write = watched.fill(write)
    read = watched.fill(READ)
    for text in (write, f"{read}; {write}", f"{write}; {read}", f"{read};\n{write};\n{read}"):
        _refused_everywhere(watched, text)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.sampled_from(WRITES + HIDDEN), min_size=1, max_size=3),
    st.integers(0, 3),
    st.sampled_from(["", " ", "\n", "/* x */", "-- x\n"]),
    st.sampled_from([";", "; ", ";\n", " ;"]),
    st.booleans(),
)
def test_stacked_statements_in_any_order_and_spacing_are_refused(watched, writes, at, pad, sep, upper):
    parts = [watched.fill(w) for w in writes]
    parts.insert(min(at, len(parts)), watched.fill(READ))
    text = sep.join(pad + p + pad for p in parts)
    _refused_everywhere(watched, text.upper() if upper and "'" not in text else text)


def test_the_aggregate_command_of_the_issue_writes_nothing(watched, capsys):
    """Issue 45: the output guard ran DESCRIBE on the raw text, which ran its COPY, before refusing it."""
    query = f"SELECT * FROM read_csv_auto('{watched.src}'); COPY (SELECT 42 AS x) TO '{watched.target}'"
    code = main(["aggregate", query, "--label", "y", "--score", "s", "--out", str(watched.root / "agg.parquet")])
    assert code == 2 and "one SELECT statement" in capsys.readouterr().err
    assert not watched.new()


def test_audit_with_an_engine_refuses_a_hidden_write(watched, capsys):
    query = watched.fill(HIDDEN[0])
    code = main(["audit", query, "--engine", "duckdb", "--label", "y", "--score", "s", "--c-fp", "1", "--c-fn", "2"])
    assert code == 2 and "COPY" in capsys.readouterr().err
    assert not watched.new()


@pytest.mark.parametrize(
    "text",
    [
        "SELECT * FROM read_csv_auto('{src}')",
        "  select y, s from '{src}' ;  ",
        "-- a note first\nSELECT * FROM '{src}' -- and after",
        "WITH t AS (SELECT * FROM '{src}') SELECT * FROM t WHERE s > 0.2",
        "SELECT 'COPY; ATTACH' AS note, * FROM '{src}'",  # the words inside a string constant
        'SELECT y AS "copy", s AS "set" FROM \'{src}\'',  # and as quoted names
        "FROM '{src}' SELECT y, s",
    ],
)
def test_reads_pass_and_run_as_the_gate_returned_them(watched, text):
    text = watched.fill(text)
    statement = read_only_select(text)
    assert ";" not in statement.rstrip()[-1:]
    engine = connect("duckdb", "SELECT 1 AS y")
    try:
        view = engine.open(text)
        assert len(engine.sql(f"SELECT * FROM {view}")) >= 3
    finally:
        engine.close()
    assert str(watched.src) in query_files(text)
    assert not watched.new()


def test_a_refusal_names_the_word_and_how_to_keep_a_column_of_that_name(watched):
    with pytest.raises(DataError, match=r"holds 'copy'.*double quotes"):
        read_only_select(f"SELECT copy FROM '{watched.src}'")
    with pytest.raises(DataError, match="must be text"):
        read_only_select(b"SELECT 1")
    assert os.path.exists(watched.src)
