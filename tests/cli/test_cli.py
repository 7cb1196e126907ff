"""The command line: python -m costlib audit FILE ... (exit codes, output, written files)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_support import run_main

from costlib.__main__ import main
from costlib.present.policy import load_policy
from costlib.present.report import REPORT_SECTIONS

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = "costlib/samples/compas.csv"
BASE = [
    "audit",
    SAMPLE,
    "--label",
    "two_year_recid",
    "--score",
    "p_recid",
    "--split",
    "split",
    "--group",
    "race",
    "--resamples",
    "200",
]
USELESS = "Do not let the model decide: its cheapest cutoff on the train rows flags nobody"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "costlib", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_audit_prints_the_table_and_writes_report_and_policy(tmp_path):
    report, policy = tmp_path / "audit.html", tmp_path / "policy.json"
    r = _run(
        *BASE,
        "--c-fp",
        "5",
        "--c-fn",
        "3",
        "--c-fp-group",
        "Caucasian=8",
        "--report",
        str(report),
        "--policy",
        str(policy),
        "--fail-if-worse-than-nobody",
    )
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    out = r.stdout
    for word in (
        "cutoff 0.5",
        "cutoff from prices alone",
        "best single cutoff",
        "best cutoff per group",
        "flag nobody",
        "flag everyone",
        "fair: demographic parity",
        "fair: equal accuracy",
        "By group:",
        "African-American",
        "cost per case",
        "saving against flag nobody",
        "Ship the model",
    ):
        assert word in out, word
    assert "Caucasian: c_fp 8, c_fn 3" in out
    html = report.read_text(encoding="utf-8")
    for section in REPORT_SECTIONS:
        assert f'id="{section}"' in html
    back = load_policy(policy.read_text(encoding="utf-8"))
    assert back["rule"] == "best single cutoff"  # the recommendation, unless --rule says otherwise
    assert back["prices"] == {"African-American": (5.0, 3.0), "Caucasian": (8.0, 3.0), "Other": (5.0, 3.0)}
    assert back["data"]["sha256"] == hashlib.sha256((ROOT / SAMPLE).read_bytes()).hexdigest()
    assert len(set(back["thresholds"].values())) == 1


def test_fail_if_worse_than_nobody_exits_1_with_the_sentence():
    r = _run(*BASE, "--c-fp", "20", "--c-fn", "1", "--fail-if-worse-than-nobody")
    assert r.returncode == 1, r.stderr
    assert USELESS in r.stdout
    assert "Traceback" not in r.stderr


def test_missing_column_exits_2_with_a_sentence():
    r = _run("audit", SAMPLE, "--label", "two_year_recid", "--score", "no_such_score", "--c-fp", "1", "--c-fn", "1")
    assert r.returncode == 2
    assert '"no_such_score"' in r.stderr and "does not exist" in r.stderr
    assert "Traceback" not in r.stderr
    assert r.stdout == ""


# In-process runs of main() for the remaining paths (same code, no interpreter start-up).


def test_same_prices_without_the_flag_exit_0(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = run_main(capsys, *BASE, "--c-fp", "20", "--c-fn", "1")
    assert code == 0 and USELESS in out


def test_without_split_warns_and_uses_every_row(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = run_main(
        capsys,
        "audit",
        SAMPLE,
        "--label",
        "two_year_recid",
        "--score",
        "p_recid",
        "--c-fp",
        "2",
        "--c-fn",
        "1",
        "--resamples",
        "50",
    )
    assert code == 0
    assert "note: no --split column, so the fitted cutoffs are judged by cross-fitting" in err
    assert "everyone" in out and "all 6,172 rows" in out
    assert 'Judged: label "two_year_recid" (positive: 1), score "p_recid" (probability), no group, no split' in out


def _brute_summary(df, c_fp: float, c_fn: float) -> dict:
    """The decision summary from the rows alone: every candidate cutoff tried on the train rows
    (ties: the larger cutoff), judged on the test rows against the cheaper no-model choice."""
    train, test = df[df["split"] == "train"], df[df["split"] == "test"]
    y, s = train["two_year_recid"].to_numpy(), train["p_recid"].to_numpy()
    best, best_cost = None, None
    for t in [float("inf"), *sorted(set(s), reverse=True)]:
        cost = (c_fp * np.sum((s >= t) & (y == 0)) + c_fn * np.sum((s < t) & (y == 1))) / len(y)
        if best_cost is None or cost < best_cost - 1e-12:
            best, best_cost = t, cost
    yt, st_ = test["two_year_recid"].to_numpy(), test["p_recid"].to_numpy()
    cost = (c_fp * np.sum((st_ >= best) & (yt == 0)) + c_fn * np.sum((st_ < best) & (yt == 1))) / len(yt)
    nobody, everyone = c_fn * yt.mean(), c_fp * (1 - yt.mean())
    base = ("flag nobody", nobody) if nobody <= everyone else ("flag everyone", everyone)
    return {"cutoff": best, "cost": cost, "baseline": base, "saving": base[1] - cost, "n": len(yt)}


@pytest.mark.parametrize("c_fp, c_fn", [(1, 3), (1, 1), (20, 1)])
def test_json_is_the_decision_summary_and_nothing_else(c_fp, c_fn):
    r = _run(
        "audit",
        SAMPLE,
        "--label",
        "two_year_recid",
        "--score",
        "p_recid",
        "--split",
        "split",
        "--c-fp",
        str(c_fp),
        "--c-fn",
        str(c_fn),
        "--resamples",
        "50",
        "--json",
    )
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)  # one JSON object and nothing else on standard output
    assert set(got) == {
        *("recommended", "baseline", "saving_per_case", "judged_on", "n"),  # the contract's first keys
        *("ship_model", "saving_interval", "verdict", "model", "n_rows", "n_judged", "data"),  # its added keys
        *("estimate", "pooled_groups"),
        *("n_resamples", "seed"),  # what makes the intervals again
        *("capacity", "within_capacity"),  # null without --max-flagged
    }
    assert got["n_resamples"] == 50 and got["seed"] == 0
    assert got["capacity"] is None and got["within_capacity"] is None
    expected = _brute_summary(pd.read_csv(ROOT / SAMPLE), c_fp, c_fn)
    cut = expected["cutoff"]
    assert got["recommended"]["cutoffs"] == {"everyone": None if cut == float("inf") else cut}
    assert got["recommended"]["cost_per_case"] == pytest.approx(expected["cost"])
    assert got["baseline"] == {"rule": expected["baseline"][0], "cost_per_case": pytest.approx(expected["baseline"][1])}
    assert got["saving_per_case"] == pytest.approx(expected["saving"])
    assert got["judged_on"] == "test" and got["n"] == expected["n"] == got["n_judged"]
    low, high = got["saving_interval"]
    assert got["ship_model"] == (low > 0)
    verdict = (
        "ship the model"
        if got["ship_model"]
        else "not clearly better"
        if got["saving_per_case"] > 0
        else "do not let the model decide"
    )
    assert got["verdict"] == verdict
    assert got["model"] == "p_recid" and got["n_rows"] == len(pd.read_csv(ROOT / SAMPLE))
    assert got["data"] == {
        "file": Path(SAMPLE).name,
        "label": "two_year_recid",
        "positive": "1",
        "score": "p_recid",
        "scale": "probability",
        "group": None,
        "split": "split",
        "train": "train",
        "test": "test",
        "weight": None,  # every row counts once
        "sha256": hashlib.sha256((ROOT / SAMPLE).read_bytes()).hexdigest(),
    }


@pytest.mark.parametrize(
    "args, words",
    [
        (["--c-fp", "5", "--c-fn", "3", "--c-fp-group", "Martian=3"], 'names the group "Martian"'),
        (
            ["--c-fp", "5", "--c-fn", "3", "--policy", "p.json", "--rule", "no such rule"],
            '"no such rule" is not one of',
        ),
        (["--c-fp", "5", "--c-fn", "3", "--report", "/dev/full"], 'The output file "/dev/full" cannot be written'),
    ],
)
def test_bad_settings_exit_2(capsys, monkeypatch, tmp_path, args, words):
    monkeypatch.chdir(ROOT)
    code, _, err = run_main(capsys, *BASE, *args)
    assert code == 2 and words in err


def test_missing_file_exits_2(capsys, tmp_path):
    code, _, err = run_main(
        capsys, "audit", str(tmp_path / "nope.csv"), "--label", "y", "--score", "s", "--c-fp", "1", "--c-fn", "1"
    )
    assert code == 2 and "cannot be read" in err


@pytest.mark.parametrize(
    "args",
    [
        ["audit", SAMPLE, "--label", "two_year_recid", "--score", "p_recid", "--c-fp", "-1", "--c-fn", "1"],
        ["audit", SAMPLE, "--label", "two_year_recid", "--score", "p_recid", "--c-fn", "1"],
        [
            "audit",
            SAMPLE,
            "--label",
            "two_year_recid",
            "--score",
            "p_recid",
            "--c-fp",
            "1",
            "--c-fn",
            "1",
            "--c-fp-group",
            "nogroupprice",
        ],
        ["audit", SAMPLE, "--label", "two_year_recid", "--score", "p_recid", "--c-fp", "1e308", "--c-fn", "1"],
        [
            "audit",
            SAMPLE,
            "--label",
            "two_year_recid",
            "--score",
            "p_recid",
            "--c-fp",
            "1",
            "--c-fn",
            "1",
            "--tolerance",
            "5",
        ],
        [
            "audit",
            SAMPLE,
            "--label",
            "two_year_recid",
            "--score",
            "p_recid",
            "--c-fp",
            "1",
            "--c-fn",
            "1",
            "--seed",
            "-1",
        ],
        ["audit", SAMPLE, "--label", "two_year_recid", "--score", "p_recid", "--c-fp", "1", "--unit", "x" * 40],
    ],
)
def test_bad_arguments_exit_2(capsys, args):
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err
    if any(a in args for a in ("1e308", "--tolerance", "--seed")):
        assert "must be a" in err  # the sentence names the bound, not a raw numpy warning
    if "--unit" in args:
        assert "the unit must be at most 12 plain characters" in err


def test_no_command_exits_2(capsys):
    assert main([]) == 2


def test_engine_duckdb_gives_the_same_decision_summary_as_memory():
    args = [
        "audit",
        SAMPLE,
        "--label",
        "two_year_recid",
        "--score",
        "p_recid",
        "--split",
        "split",
        "--group",
        "race",
        "--c-fp",
        "1",
        "--c-fn",
        "2",
        "--c-fp-group",
        "Caucasian=3",
        "--resamples",
        "50",
        "--json",
    ]
    memory, duck = _run(*args), _run(*args, "--engine", "duckdb")
    assert memory.returncode == duck.returncode == 0, duck.stderr
    assert json.loads(memory.stdout) == json.loads(duck.stdout)  # the data dictionary too: file name, sha256


@pytest.mark.parametrize(
    "c_fp, c_fn, verdict, unless_ship, if_worse",
    [
        ("1", "2", "ship the model", 0, 0),
        ("3", "1", "not clearly better", 1, 0),  # saves on the test rows, but the interval reaches 0
        ("20", "1", "do not let the model decide", 1, 1),
    ],
)
def test_fail_unless_ship_exits_1_unless_the_verdict_is_ship(
    capsys, monkeypatch, c_fp, c_fn, verdict, unless_ship, if_worse
):
    """--fail-unless-ship: exit 1 unless the model ships; --fail-if-worse-than-nobody keeps its
    meaning (exit 1 only when the model should not decide), so "not clearly better" tells them apart."""
    monkeypatch.chdir(ROOT)
    args = ["audit", SAMPLE, "--label", "two_year_recid", "--score", "p_recid", "--split", "split"]
    args += ["--c-fp", c_fp, "--c-fn", c_fn, "--resamples", "200", "--json"]
    code, out, _ = run_main(capsys, *args, "--fail-unless-ship")
    summary = json.loads(out)  # the summary is printed whatever the exit code
    assert summary["verdict"] == verdict and summary["ship_model"] == (verdict == "ship the model")
    assert code == unless_ship
    assert run_main(capsys, *args, "--fail-if-worse-than-nobody")[0] == if_worse
    assert run_main(capsys, *args, "--fail-unless-ship", "--fail-if-worse-than-nobody")[0] == max(unless_ship, if_worse)
    assert run_main(capsys, *args)[0] == 0


def test_score_help_says_which_model_is_audited(capsys):
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    words = " ".join(capsys.readouterr().out.split())
    assert "the first one is audited" not in words
    assert 'recommends the one cheapest on the fitting rows (the JSON names it in "model")' in words
