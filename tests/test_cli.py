"""The command line: python -m costlib audit FILE ... (exit codes, output, written files)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from costlib.__main__ import main
from costlib.report import REPORT_SECTIONS, load_policy

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = "costlib/samples/compas.csv"
BASE = ["audit", SAMPLE, "--label", "two_year_recid", "--score", "p_recid", "--split", "split", "--group", "race",
        "--resamples", "200"]
WORSE = "the model should not be making these decisions at these prices"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "costlib", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_audit_prints_the_table_and_writes_report_and_policy(tmp_path):
    report, policy = tmp_path / "audit.html", tmp_path / "policy.json"
    r = _run(*BASE, "--c-fp", "5", "--c-fn", "3", "--c-fp-group", "Caucasian=8", "--report", str(report),
             "--policy", str(policy), "--fail-if-worse-than-nobody")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    out = r.stdout
    for word in ("threshold 0.5", "elkan", "cost-optimal", "flag nobody", "fair: demographic parity",
                 "fair: equal accuracy", "all groups", "African-American", "cost/100", "vs nobody",
                 "At these prices the best rule"):
        assert word in out, word
    assert "Caucasian: c_fp 8, c_fn 3" in out
    html = report.read_text(encoding="utf-8")
    for section in REPORT_SECTIONS:
        assert f'id="{section}"' in html
    back = load_policy(policy.read_text(encoding="utf-8"))
    assert back["rule"] == "cost-optimal"
    assert back["prices"] == {"African-American": (5.0, 3.0), "Caucasian": (8.0, 3.0), "Other": (5.0, 3.0)}
    assert back["data"]["sha256"] == hashlib.sha256((ROOT / SAMPLE).read_bytes()).hexdigest()
    assert back["thresholds"]["Caucasian"] == float("inf")


def test_fail_if_worse_than_nobody_exits_1_with_the_sentence():
    r = _run(*BASE, "--c-fp", "20", "--c-fn", "1", "--fail-if-worse-than-nobody")
    assert r.returncode == 1, r.stderr
    assert WORSE in r.stdout
    assert "Traceback" not in r.stderr


def test_missing_column_exits_2_with_a_sentence():
    r = _run("audit", SAMPLE, "--label", "two_year_recid", "--score", "no_such_score", "--c-fp", "1", "--c-fn", "1")
    assert r.returncode == 2
    assert '"no_such_score"' in r.stderr and "does not exist" in r.stderr
    assert "Traceback" not in r.stderr
    assert r.stdout == ""


# In-process runs of main() for the remaining paths (same code, no interpreter start-up).


def _main(capsys, *args: str):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_same_prices_without_the_flag_exit_0(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = _main(capsys, *BASE, "--c-fp", "20", "--c-fn", "1")
    assert code == 0 and WORSE in out


def test_without_split_warns_and_uses_every_row(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = _main(capsys, "audit", SAMPLE, "--label", "two_year_recid", "--score", "p_recid", "--c-fp", "2",
                           "--c-fn", "1", "--resamples", "50")
    assert code == 0
    assert "warning: no --split column" in err
    assert "everyone" in out and "all 6,172 rows" in out


@pytest.mark.parametrize("args, words", [
    (["--c-fp", "5", "--c-fn", "3", "--c-fp-group", "Martian=3"], 'names the group "Martian"'),
    (["--c-fp", "5", "--c-fn", "3", "--policy", "p.json", "--rule", "no such rule"], '"no such rule" is not one of'),
])
def test_bad_settings_exit_2(capsys, monkeypatch, tmp_path, args, words):
    monkeypatch.chdir(ROOT)
    code, _, err = _main(capsys, *BASE, *args)
    assert code == 2 and words in err


def test_missing_file_exits_2(capsys, tmp_path):
    code, _, err = _main(capsys, "audit", str(tmp_path / "nope.csv"), "--label", "y", "--score", "s", "--c-fp", "1",
                         "--c-fn", "1")
    assert code == 2 and "cannot be read" in err


@pytest.mark.parametrize("args", [
    ["audit", SAMPLE, "--label", "two_year_recid", "--score", "p_recid", "--c-fp", "-1", "--c-fn", "1"],
    ["audit", SAMPLE, "--label", "two_year_recid", "--score", "p_recid", "--c-fn", "1"],
    ["audit", SAMPLE, "--label", "two_year_recid", "--score", "p_recid", "--c-fp", "1", "--c-fn", "1",
     "--c-fp-group", "nogroupprice"],
])
def test_bad_arguments_exit_2(capsys, args):
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_no_command_exits_2(capsys):
    assert main([]) == 2
