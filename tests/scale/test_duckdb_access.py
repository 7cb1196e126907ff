"""DuckDB opens only the files a source names (`access.limit_access`): a query source that reaches
for another file (a path built as it runs, ``glob()``, ``read_text()``, ``read_blob()``) is refused
with a sentence before that file is opened, by the engine and by the output guard's lookup alike;
the files it names, their patterns and DuckDB's own spill files still work, and no statement can
set the limit back. The file a refused query reaches for is a named pipe: opening it for reading
is seen (a writer can then open it without blocking), so "nothing is read" is checked, not assumed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time

import pandas as pd
import pytest

from costlib import DataError
from costlib.__main__ import main
from costlib.scale.access import MSG_NOT_LOCAL, MSG_NOT_NAMED
from costlib.scale.engines import connect
from costlib.scale.query_files import query_files


@contextlib.contextmanager
def watched_pipe(path):
    """A named pipe at `path`; yields a list that gains an entry when anything opens it to read
    (the reader then sees an empty file, so nothing hangs)."""
    os.mkfifo(path)
    opened: list[bool] = []
    stop = threading.Event()

    def watch():
        while not stop.is_set():
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)  # succeeds only while a reader has it open
            except OSError as exc:
                if exc.errno != errno.ENXIO:
                    raise
                time.sleep(0.01)
                continue
            opened.append(True)
            os.close(fd)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield opened
    finally:
        stop.set()
        thread.join()


@pytest.fixture
def files(tmp_path):
    """A data folder with two parts of a table and a secret beside them, and an elsewhere folder."""
    data = tmp_path / "data"
    data.mkdir()
    for i in (1, 2):
        pd.DataFrame({"y": [0, 1, 1], "s": [0.1, 0.7, 0.9]}).to_csv(data / f"part{i}.csv", index=False)
    (tmp_path / "elsewhere").mkdir()
    return tmp_path


def _open(text):
    """The rows of query source `text` as DuckDB reads them through the engine."""
    engine = connect("duckdb", text)
    try:
        return engine.sql(f"SELECT * FROM {engine.open(text)}")
    finally:
        engine.close()


#: query sources that read the named part and reach for "{p}" (a pipe), a file they do not name
REACHES = [
    ("SELECT y, s, (SELECT count(*) FROM read_csv(concat('{d}/', 'x.csv'))) AS n FROM '{src}'", "{d}/x.csv"),
    ("SELECT y, s FROM '{src}' WHERE EXISTS (SELECT 1 FROM read_text('{d}/' || 'x.csv'))", "{d}/x.csv"),
    ("SELECT y, s, (SELECT count(*) FROM read_blob(concat('{d}', '/x.csv'))) AS n FROM '{src}'", "{d}/x.csv"),
    ("SELECT y, s, (SELECT count(*) FROM glob(concat('{d}', '/*'))) AS n FROM '{src}'", "{d}/*"),
]


@pytest.mark.parametrize(("template", "reached"), REACHES)
@pytest.mark.parametrize("where", ["elsewhere", "data"])  # beside the named file is no different
def test_a_query_reading_a_file_it_does_not_name_is_refused_before_that_file_opens(files, template, reached, where):
    d = str(files / where)
    src = files / "data" / "part1.csv"
    text = template.format(d=d, src=src)
    with watched_pipe(files / where / "x.csv") as opened:
        assert str(files / where / "x.csv") not in query_files(text)  # the output guard's lookup opens nothing
        with pytest.raises(DataError) as err:
            _open(text)
        out = files / "agg.parquet"
        assert main(["aggregate", text, "--label", "y", "--score", "s", "--out", str(out)]) == 2
    assert str(err.value) == MSG_NOT_NAMED.format(path=reached.format(d=d))
    assert not opened and not out.exists()


def test_the_named_files_patterns_and_relative_paths_are_read(files, monkeypatch):
    monkeypatch.chdir(files / "data")
    monkeypatch.setenv("HOME", str(files))
    for text in [
        f"SELECT * FROM '{files}/data/part*.csv'",
        "SELECT * FROM '~/data/part1.csv' UNION ALL SELECT * FROM '~/data/part2.csv'",
        "SELECT * FROM read_csv(['part1.csv', 'part2.csv'])",
        "SELECT * FROM 'part1.csv' UNION ALL SELECT * FROM 'part2.csv'",
    ]:
        assert len(_open(text)) == 6, text
    rows = _open(f"{files}/data/part*.csv")  # a path source's pattern
    assert len(rows) == 6
    # the pattern names its matches, not their folder: a file beside them is still not named
    (files / "data" / "notes.txt").write_text("secret")
    with pytest.raises(DataError, match="which the source does not name"):
        _open("SELECT * FROM 'part*.csv' WHERE EXISTS (SELECT 1 FROM read_text('not' || 'es.txt'))")


def test_a_url_is_not_read_and_no_extension_comes_with_it(files):
    url = "http://127.0.0.1:9/x.csv"
    with pytest.raises(DataError) as err:
        _open(url)
    assert str(err.value) == MSG_NOT_LOCAL.format(path=url)
    with pytest.raises(DataError) as err:
        _open(f"SELECT * FROM read_csv('{url}')")
    assert str(err.value) == MSG_NOT_LOCAL.format(path=url)


def test_the_limit_cannot_be_set_back_and_a_scan_still_spills(files, monkeypatch):
    spill = files / "spill"
    spill.mkdir()
    monkeypatch.setenv("COSTLIB_DUCKDB_TEMP", str(spill))
    monkeypatch.setenv("COSTLIB_DUCKDB_MEMORY_LIMIT", "100MB")
    big = files / "data" / "big.parquet"
    writer = connect("duckdb", "SELECT 1 AS y")
    writer.execute(
        f"COPY (SELECT i % 2 AS y, hash(i)::VARCHAR || repeat('x', 30) AS h FROM range(4000000) t(i)) TO '{big}'"
    )
    writer.close()
    engine = connect("duckdb", str(big))
    seen: set[str] = set()
    stop = threading.Event()

    def watch():  # DuckDB removes its spill files when the query ends: look while it runs
        while not stop.is_set():
            seen.update(os.listdir(spill))
            time.sleep(0.02)

    thread = threading.Thread(target=watch, daemon=True)
    try:
        view = engine.open(f"SELECT * FROM '{big}'")
        for setting in ["enable_external_access = true", "allowed_paths = ['/']", "autoload_known_extensions = true"]:
            with pytest.raises(DataError, match="configuration has been locked"):
                engine.execute(f"SET {setting}")
        thread.start()
        n = engine.sql(f"SELECT count(DISTINCT h) AS n FROM {view}")["n"].iloc[0]
    finally:
        stop.set()
        engine.close()
    assert n == 4_000_000
    assert any(name.endswith(".tmp") for name in seen), seen  # the scan spilled to its temporary folder
