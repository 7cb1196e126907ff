"""`costlib audit --reference-group NAME --fail-if-disparity` and the disparities on every surface
(issue 41, items 3 and 4): the JSON block, the printout, the report's table, the headline."""

from __future__ import annotations

import html as _html
import json
from pathlib import Path

import pandas as pd
import pytest
from cli_support import run_main

from costlib.__main__ import main
from costlib.core import rules as R
from costlib.present import words

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "costlib" / "samples" / "compas.csv"
HOSTILE = '<img src=x onerror=alert(1)> & "Black" | =1+1'


def _args(path, *more: str) -> list[str]:
    return [
        "audit",
        str(path),
        "--label",
        "two_year_recid",
        "--score",
        "p_recid",
        "--split",
        "split",
        "--group",
        "race",
        "--resamples",
        "100",
        "--c-fp",
        "1",
        "--c-fn",
        "3",
        *more,
    ]


@pytest.fixture(scope="module")
def even(tmp_path_factory) -> Path:
    """Two groups with exactly the same rows: every disparity is 1, none fails."""
    df = pd.read_csv(SAMPLE)
    path = tmp_path_factory.mktemp("even") / "even.csv"
    pd.concat([df.assign(race="one"), df.assign(race="two")]).to_csv(path, index=False)
    return path


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    df = pd.read_csv(SAMPLE)
    path = tmp_path_factory.mktemp("hostile") / "hostile.csv"
    df.assign(race=df["race"].replace({"African-American": HOSTILE})).to_csv(path, index=False)
    return path


SHIPS = ("--c-fn", "1")  # at 1:1 the model ships on COMPAS (at 1:3 it is not clearly better)


def test_fail_if_disparity_exits_1_when_a_disparity_fails_and_0_when_none_does(capsys, even):
    code, out, _ = run_main(capsys, *_args(SAMPLE, "--json", "--fail-if-disparity", *SHIPS))
    block = json.loads(out)["disparities"]
    assert json.loads(out)["verdict"] == "ship the model"
    assert block["fails"] is True and code == 1
    assert run_main(capsys, *_args(SAMPLE, "--json", *SHIPS))[0] == 0  # without the flag, the same audit exits 0
    code, out, _ = run_main(capsys, *_args(even, "--json", "--fail-if-disparity"))
    block = json.loads(out)["disparities"]
    assert block["fails"] is False and block["largest_failing"] is None and code == 0
    assert block["metrics"]["flagged_rate"]["two"]["ratio"] == 1.0


def test_fail_if_disparity_does_not_stop_a_run_whose_answer_keeps_the_choice_without_a_model(capsys):
    """Review 56: at 1:3 the answer keeps flagging everyone (not clearly better), which treats every
    group alike; the model's rule, not shipped, still fails the four-fifths rule and the JSON says
    so, but the pipeline was stopped by the rule it was told not to use. It now goes on."""
    code, out, _ = run_main(capsys, *_args(SAMPLE, "--json", "--fail-if-disparity"))
    summary = json.loads(out)
    assert summary["verdict"] == "not clearly better" and summary["disparities"]["fails"] is True
    assert code == 0


def test_reference_group_is_chosen_and_an_unknown_one_is_refused(capsys):
    code, out, _ = run_main(capsys, *_args(SAMPLE, "--json", "--reference-group", "Caucasian"))
    block = json.loads(out)["disparities"]
    assert code == 0 and block["reference_group"] == "Caucasian" and block["reference_chosen"] == "given"
    code, out, _ = run_main(capsys, *_args(SAMPLE, "--json"))
    assert json.loads(out)["disparities"]["reference_group"] == "African-American"  # the largest on the test rows
    code, out, err = run_main(capsys, *_args(SAMPLE, "--json", "--reference-group", "Martian"))
    assert code == 2 and out == "" and "Traceback" not in err
    assert "Martian" in err and "Caucasian" in err and len(err.strip().splitlines()) == 1


def test_the_disparity_flags_need_a_group(capsys):
    args = [a for a in _args(SAMPLE) if a not in ("--group", "race")]
    for flag in (["--fail-if-disparity"], ["--reference-group", "Caucasian"]):
        code, out, err = run_main(capsys, *args, *flag)
        assert code == 2 and "needs --group" in err and flag[0] in err


def test_headline_names_the_largest_failing_disparity_and_only_then(capsys, even):
    code, out, _ = run_main(capsys, *_args(SAMPLE, "--json"))
    block = json.loads(out)["disparities"]
    big = block["largest_failing"]
    code, out, _ = run_main(capsys, *_args(SAMPLE))
    headline = next(line for line in out.splitlines() if line.startswith("Not clearly better"))
    # the verdict keeps the choice without the model: its rule's disparity is not a "But" to it
    lead = words.DISPARITY_LEADS[R.NOT_CLEARLY]
    assert lead in headline and f"“{big['group']}”" in headline and words.DISPARITY_LEAD not in headline
    assert "the four-fifths rule fails" in headline
    assert "Disparities of" in out and "false negative rate" in out  # the table, under its caption
    code, out, _ = run_main(capsys, *_args(even))
    assert lead not in out and "four-fifths rule fails" not in out


def test_report_has_the_disparities_table_and_the_headline(capsys, tmp_path, even):
    report = tmp_path / "r.html"
    assert run_main(capsys, *_args(SAMPLE, "--report", str(report)))[0] == 0
    text = report.read_text()
    assert "<caption>Disparities of" in text and "the four-fifths rule fails" in text
    report2 = tmp_path / "r2.html"
    assert run_main(capsys, *_args(even, "--report", str(report2)))[0] == 0
    assert "<caption>Disparities of" in report2.read_text()
    assert "the four-fifths rule fails" not in report2.read_text()


def test_hostile_group_names_stay_text_in_report_json_and_printout(capsys, tmp_path, hostile):
    report = tmp_path / "h.html"
    code, out, _ = run_main(capsys, *_args(hostile, "--json", "--reference-group", HOSTILE, "--report", str(report)))
    assert code == 0
    block = json.loads(out)["disparities"]
    assert block["reference_group"] == HOSTILE and HOSTILE in block["metrics"]["flagged_rate"]
    text = report.read_text()
    assert "<img src=x" not in text and _html.escape(HOSTILE, quote=True) in text
    code, out, _ = run_main(capsys, *_args(hostile, "--reference-group", HOSTILE))
    assert code == 0 and HOSTILE in out  # printed as the text it is


def test_a_stated_threshold_is_the_one_judged_and_said(capsys):
    """--disparity-threshold R: a ratio passes inside [R, 1/R]. A looser R passes what the
    four-fifths rule fails, the JSON records R, and the headline names the range it used."""
    code, out, _ = run_main(capsys, *_args(SAMPLE, "--json", "--fail-if-disparity", *SHIPS))
    four_fifths = json.loads(out)["disparities"]
    worst = max(
        max(r["ratio"], 1 / r["ratio"])
        for m in four_fifths["metrics"].values()
        for r in m.values()
        if isinstance(r.get("ratio"), float) and 0 < r["ratio"] < float("inf")
    )
    assert code == 1
    loose = max(0.5, round(1 / worst - 0.01, 2))
    code, out, _ = run_main(
        capsys, *_args(SAMPLE, "--json", "--fail-if-disparity", "--disparity-threshold", str(loose), *SHIPS)
    )
    block = json.loads(out)["disparities"]
    assert block["threshold"] == pytest.approx(loose)
    assert code == (1 if block["fails"] else 0) and (block["fails"] is False or loose == 0.5)
    _, out, _ = run_main(capsys, *_args(SAMPLE, "--disparity-threshold", "0.9"))
    assert "the disparity range 0.9 to 1.11" in out


def test_a_threshold_out_of_its_bound_or_without_a_group_is_refused(capsys):
    for value in ("0.3", "1.5", "nan"):
        with pytest.raises(SystemExit) as exit_:  # argparse's own refusal, after its usage line
            main(_args(SAMPLE, "--disparity-threshold", value))
        out, err = capsys.readouterr()
        assert exit_.value.code == 2 and out == "" and "Traceback" not in err
        assert "argument --disparity-threshold: the disparity threshold must be a number from 0.5 to 1" in err
    args = [a for a in _args(SAMPLE) if a not in ("--group", "race")]
    code, _, err = run_main(capsys, *args, "--disparity-threshold", "0.9")
    assert code == 2 and "needs --group" in err and "--disparity-threshold" in err
