"""The command line never writes over its own input, never one output over another, never half
a file; it says when it replaced a file (`costlib.cli.outputs`)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from costlib.__main__ import main
from costlib.cli import outputs


@pytest.fixture
def data(tmp_path):
    rng = np.random.default_rng(1)
    p = rng.random(300).round(3)
    path = tmp_path / "data.csv"
    pd.DataFrame({"y": (rng.random(300) < p).astype(int), "s": p}).to_csv(path, index=False)
    return path


def _audit(data, *extra):
    return main(
        ["audit", str(data), "--label", "y", "--score", "s", "--c-fp", "1", "--c-fn", "2", "--resamples", "10", *extra]
    )


@pytest.mark.parametrize("flag", ["--report", "--policy"])
def test_an_output_that_is_the_input_is_refused_and_the_input_kept(data, capsys, flag):
    before = data.read_bytes()
    assert _audit(data, flag, str(data)) == 2
    assert "is the input file" in capsys.readouterr().err
    assert data.read_bytes() == before


def test_an_output_linked_to_the_input_and_two_outputs_on_one_file_are_refused(data, tmp_path, capsys):
    link = tmp_path / "report.html"
    link.symlink_to(data)
    before = data.read_bytes()
    assert _audit(data, "--report", str(link)) == 2
    assert "(the same file)" in capsys.readouterr().err and data.read_bytes() == before
    same = tmp_path / "out.json"
    assert _audit(data, "--report", str(same), "--policy", str(same)) == 2
    assert "--report and --policy name the same file" in capsys.readouterr().err
    assert not same.exists()


def test_a_replaced_file_is_said_and_a_link_is_replaced_not_its_target(data, tmp_path, capsys):
    keep = tmp_path / "keep.html"
    keep.write_text("mine")
    link = tmp_path / "report.html"
    link.symlink_to(keep)
    assert _audit(data, "--report", str(link)) == 0
    out = capsys.readouterr().out
    assert f"Report written to {link} (it replaced the file that was there)." in out
    assert keep.read_text() == "mine" and not link.is_symlink() and "<html" in link.read_text().lower()
    fresh = tmp_path / "new.json"
    assert _audit(data, "--policy", str(fresh)) == 0
    assert f"written to {fresh}." in capsys.readouterr().out


def test_a_failed_write_leaves_the_old_file_and_no_half_file(tmp_path):
    old = tmp_path / "out.txt"
    old.write_text("old")

    def fail(tmp):
        with open(tmp, "w") as fh:
            fh.write("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(outputs.DataError, match="No space left on device"):
        outputs.write_atomic(str(old), "--report", fail)
    assert old.read_text() == "old" and sorted(os.listdir(tmp_path)) == ["out.txt"]


def test_aggregate_refuses_to_write_over_its_source(data, capsys):
    before = data.read_bytes()
    code = main(["aggregate", str(data), "--label", "y", "--score", "s", "--out", str(data)])
    assert code == 2 and "is the input file" in capsys.readouterr().err and data.read_bytes() == before


def test_inputs_named_by_brackets_patterns_hard_links_or_a_query_are_kept(tmp_path, data, capsys):
    odd = tmp_path / "in[1].csv"  # a literal name that is also a pattern
    odd.write_bytes(data.read_bytes())
    assert _audit(odd, "--report", str(odd)) == 2 and odd.read_bytes() == data.read_bytes()
    hard = tmp_path / "hard.csv"
    os.link(data, hard)
    assert _audit(data, "--report", str(hard)) == 2 and "(the same file)" in capsys.readouterr().err
    nested = tmp_path / "g" / "deep"
    nested.mkdir(parents=True)
    part = nested / "a.parquet"
    pd.read_csv(data).to_parquet(part)
    before = part.read_bytes()
    pattern = str(tmp_path / "g" / "**" / "*.parquet")
    code = main(["aggregate", pattern, "--label", "y", "--score", "s", "--out", str(part)])
    assert code == 2 and part.read_bytes() == before  # DuckDB's ** reads it: so does the check
    query = f"SELECT * FROM '{part}'"
    code = main(["aggregate", query, "--label", "y", "--score", "s", "--out", str(part)])
    assert code == 2 and "a file the query that reads the rows reads" in capsys.readouterr().err
    assert part.read_bytes() == before


def test_files_a_query_reads_through_a_pattern_or_a_built_name_and_hidden_matches_are_kept(
    tmp_path, data, capsys, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    frame = pd.read_csv(data)
    frame.to_parquet("part1.parquet")
    frame.to_parquet(".part2.parquet")  # DuckDB's * matches hidden files; Python's glob does not
    frame.to_csv("all.csv", index=False)
    kept = {name: Path(name).read_bytes() for name in ("part1.parquet", ".part2.parquet", "all.csv")}
    flags = ["--label", "y", "--score", "s"]
    for source, out in [
        ("SELECT * FROM '*.parquet'", "part1.parquet"),
        ("SELECT * FROM read_parquet('part' || '1.parquet')", "part1.parquet"),
        ("SELECT * FROM 'a*.csv'", "all.csv"),
        ("*.parquet", ".part2.parquet"),
    ]:
        assert main(["aggregate", source, *flags, "--out", out]) == 2, (source, out)
        assert out in capsys.readouterr().err
    code = main(["audit", "SELECT * FROM 'a*.csv'", "--engine", "duckdb", *flags, "--c-fp", "1", "--c-fn", "2",
                 "--policy", "all.csv"])  # fmt: skip
    assert code == 2
    assert {name: Path(name).read_bytes() for name in kept} == kept
    other = tmp_path / "elsewhere"
    other.mkdir()  # a file of the same name in another folder is not the input: it may be written
    assert main(["aggregate", "SELECT * FROM 'part1.parquet'", *flags, "--out", str(other / "part1.parquet")]) == 0


def test_a_replaced_file_keeps_its_permissions_and_a_new_one_gets_the_umasks(tmp_path):
    old = tmp_path / "shared.html"
    old.write_text("old")
    old.chmod(0o644)
    outputs.write_text(str(old), "--report", "new")
    assert old.read_text() == "new" and (old.stat().st_mode & 0o777) == 0o644
    umask = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.html"
        outputs.write_text(str(fresh), "--report", "x")
        assert (fresh.stat().st_mode & 0o777) == 0o644
    finally:
        os.umask(umask)


def test_an_output_in_no_folder_or_that_is_a_folder_is_refused_before_any_work(tmp_path, data, capsys):
    assert _audit(data, "--report", str(tmp_path / "missing" / "r.html")) == 2
    assert "does not exist" in capsys.readouterr().err
    assert _audit(data, "--report", str(tmp_path)) == 2
    assert "it is a folder" in capsys.readouterr().err


def test_a_query_never_installs_or_loads_an_extension(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))  # where DuckDB would put a downloaded extension
    monkeypatch.chdir(tmp_path)
    query = "SELECT 1 AS y, 0.5 AS s FROM read_csv('http://127.0.0.1:9/x.csv')"
    assert main(["aggregate", query, "--label", "y", "--score", "s", "--out", "agg.parquet"]) == 2
    assert "httpfs" in capsys.readouterr().err and not (tmp_path / ".duckdb").exists()


def test_a_pipe_an_empty_path_and_a_half_done_run_are_said(tmp_path, data, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkfifo(tmp_path / "pipe")
    assert _audit(data, "--report", str(tmp_path / "pipe")) == 2  # it would wait for a reader forever
    assert "it is a pipe" in capsys.readouterr().err
    assert _audit(data, "--report", "") == 2 and "the path is empty" in capsys.readouterr().err
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "p.json").mkdir()  # a folder where the policy would go: it cannot be written
    monkeypatch.setattr("costlib.cli.audit.check_outputs", lambda *a, **k: None)  # get past the early check
    assert _audit(data, "--report", "r.html", "--policy", str(tmp_path / "locked" / "p.json")) == 2
    err = capsys.readouterr().err
    assert "Before it: Report written to r.html" in err and (tmp_path / "r.html").exists()


def test_files_named_like_sql_are_files_and_queries_may_start_with_comments(tmp_path, data, monkeypatch):
    from costlib.scale.sources import is_query

    monkeypatch.chdir(tmp_path)
    (tmp_path / "table.csv").write_bytes(data.read_bytes())
    assert not is_query("table.csv") and is_query("table x") and is_query("-- note\nSELECT 1")
    assert is_query("/* a */ SELECT 1") and not is_query("no such file.csv")
    assert main(["aggregate", "table.csv", "--label", "y", "--score", "s", "--out", "a.parquet"]) == 0
    assert (
        main(["aggregate", "-- mine\nSELECT * FROM 'table.csv'", "--label", "y", "--score", "s", "--out", "b.parquet"])
        == 0
    )
    assert main(["aggregate", "table.csv", "--label", "y", "--score", "s", "--out", "a.csv"]) == 2  # Parquet only


@pytest.mark.parametrize("as_query", [False, True])
def test_a_pattern_that_lists_too_much_is_refused_before_anything_is_read(tmp_path, monkeypatch, capsys, as_query):
    """`aggregate` over a pattern whose listing passes `listing.MAX_LISTED` (lowered to 10 here:
    the tree holds 12 folders of one file) says so in a sentence, and writes nothing."""
    from costlib.scale import listing

    monkeypatch.setattr(listing, "MAX_LISTED", 10)
    for i in range(12):
        (tmp_path / f"part{i}").mkdir()
        (tmp_path / f"part{i}" / "rows.csv").write_text("y,s\n1,0.5\n0,0.25\n")
    pattern = f"{tmp_path}/**/*.csv"
    source = f"SELECT * FROM '{pattern}'" if as_query else pattern
    out = tmp_path / "agg.parquet"
    assert main(["aggregate", source, "--label", "y", "--score", "s", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f'The pattern "{pattern}" lists more than 10 files and folders' in err and "Traceback" not in err
    assert not out.exists()
