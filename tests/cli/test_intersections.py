"""`costlib audit --group a --group b` (issue 41, item 2): the groups are the intersections, the
per-group prices and the reference group name them, each column is reported alone too, in the
JSON, the printout, the report and the policy; the refusals; one --group is the path it was."""

from __future__ import annotations

import html as _html
import json
from pathlib import Path

import pandas as pd
import pytest
from cli_support import run_main

import costlib
from costlib import apply_policy
from costlib.loading.intersections import key_column
from costlib.present.policy import load_policy

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "costlib" / "samples" / "compas.csv"
HOSTILE = '<img src=x onerror=alert(1)> & "Black" | =1+1'
INTERSECTIONS = {f"{r} × {s}" for r in ("African-American", "Caucasian", "Other") for s in ("Female", "Male")}


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
        "--resamples",
        "60",
        "--c-fp",
        "1",
        "--c-fn",
        "3",
        *more,
    ]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    df = pd.read_csv(SAMPLE)
    df.loc[df["race"] == "Other", "race"] = HOSTILE
    path = tmp_path_factory.mktemp("hostile") / "hostile.csv"
    df.to_csv(path, index=False)
    return path


def test_json_names_the_intersections_and_each_column_alone(capsys):
    code, out, _ = run_main(capsys, *_args(SAMPLE, "--group", "race", "--group", "sex", "--json"))
    assert code == 0
    s = json.loads(out)
    assert s["data"]["group"] == "race × sex" and s["data"]["group_columns"] == ["race", "sex"]
    assert set(s["recommended"]["cutoffs"]) == INTERSECTIONS
    assert set(s["disparities"]["metrics"]["flagged_rate"]) == INTERSECTIONS
    assert s["disparities"]["reference_group"] == "African-American × Male"  # the largest intersection
    by_column = s["disparities_by_column"]
    assert list(by_column) == ["race", "sex"]
    assert set(by_column["race"]["metrics"]["false_positive_rate"]) == {"African-American", "Caucasian", "Other"}
    assert by_column["race"]["reference_group"] == "African-American"
    assert by_column["sex"]["reference_group"] == "Male"
    # the intersections are counted as a groupby of the judged rows
    df = pd.read_csv(SAMPLE)
    test = df[df["split"] == "test"]
    want = test.groupby(["race", "sex"]).size()
    rates = s["disparities"]["metrics"]["flagged_rate"]
    cut = s["recommended"]["cutoffs"]
    for (race, sex), n in want.items():
        rows = test[(test["race"] == race) & (test["sex"] == sex)]
        t = cut[f"{race} × {sex}"]
        flagged = (rows["p_recid"] >= (float("inf") if t is None else t)).mean()
        assert len(rows) == n
        assert rates[f"{race} × {sex}"]["value"] == pytest.approx(flagged, abs=1e-9)


def test_printout_names_the_group_columns_and_has_a_table_per_column(capsys):
    code, out, _ = run_main(capsys, *_args(SAMPLE, "--group", "race", "--group", "sex"))
    assert code == 0
    assert 'groups the intersections of "race" × "sex"' in out
    assert "African-American × Female: c_fp 1, c_fn 3" in out
    assert "Column “race” alone" in out and "Column “sex” alone" in out
    assert "against the reference group “African-American × Male”" in out


def test_per_group_prices_and_the_reference_group_name_intersections(capsys):
    code, out, _ = run_main(
        capsys,
        *_args(
            SAMPLE,
            "--group",
            "race",
            "--group",
            "sex",
            "--c-fp-group",
            "Caucasian × Female=7",
            "--reference-group",
            "Caucasian × Female",
            "--json",
        ),
    )
    assert code == 0, out
    s = json.loads(out)
    assert s["disparities"]["reference_group"] == "Caucasian × Female"
    assert s["disparities"]["reference_chosen"] == "given"
    code, _, err = run_main(capsys, *_args(SAMPLE, "--group", "race", "--group", "sex", "--c-fp-group", "Male=7"))
    assert code == 2
    assert 'names the group "Male", which is not in the intersections of the columns "race" × "sex"' in err
    code, _, err = run_main(capsys, *_args(SAMPLE, "--group", "race", "--group", "sex", "--reference-group", "Male"))
    assert code == 2 and "“African-American × Female”" in err


def test_fail_if_disparity_reads_the_intersections_and_the_columns(capsys):
    code, out, _ = run_main(
        capsys, *_args(SAMPLE, "--group", "race", "--group", "sex", "--json", "--fail-if-disparity", "--c-fn", "1")
    )  # at 1:1 the model ships: the flag reads the shipped rule's disparities
    s = json.loads(out)
    assert set(s["disparities"]["metrics"]["flagged_rate"]) == INTERSECTIONS
    fails = s["disparities"]["fails"] or any(d["fails"] for d in s["disparities_by_column"].values())
    assert fails and code == 1


def test_a_group_column_that_does_not_exist_is_named(capsys):
    code, out, err = run_main(capsys, *_args(SAMPLE, "--group", "gender", "--group", "race"))
    assert code == 2 and out == ""
    assert '"gender"' in err and "Traceback" not in err


def test_several_groups_with_an_engine_are_refused(capsys):
    code, _, err = run_main(capsys, *_args(SAMPLE, "--group", "race", "--group", "sex", "--engine", "duckdb"))
    assert code == 2
    assert "--group is given 2 times" in err


def test_hostile_values_in_an_intersection_stay_text(capsys, tmp_path, hostile):
    report = tmp_path / "r.html"
    code, out, _ = run_main(
        capsys, *_args(hostile, "--group", "race", "--group", "sex", "--json", "--report", str(report))
    )
    assert code == 0
    s = json.loads(out)
    assert f"{HOSTILE} × Male" in s["disparities"]["metrics"]["flagged_rate"]
    assert HOSTILE in s["disparities_by_column"]["race"]["metrics"]["flagged_rate"]
    page = report.read_text(encoding="utf-8")
    assert "<img src=x" not in page
    assert _html.escape(f"{HOSTILE} × Male", quote=False) in page or _html.escape(f"{HOSTILE} × Male") in page
    assert "Column “sex” alone" in page and "“race”, “sex”: the groups are their intersections" in page


def test_the_policy_records_the_group_columns_and_decides_each_row_by_its_intersection(capsys, tmp_path):
    policy = tmp_path / "p.json"
    args = _args(SAMPLE, "--group", "race", "--group", "sex", "--rule", "cost-optimal", "--policy", str(policy))
    code, _, _ = run_main(capsys, *args)
    assert code == 0
    text = policy.read_text(encoding="utf-8")
    loaded = load_policy(text)
    assert loaded["data"]["group"] == "race × sex" and loaded["data"]["group_columns"] == ["race", "sex"]
    assert set(loaded["thresholds"]) == INTERSECTIONS
    # what `costlib apply` needs: the same key from the same columns, then each row its group's cutoff
    df = pd.read_csv(SAMPLE)
    keys = key_column(df, "compas.csv", loaded["data"]["group_columns"])
    flags = apply_policy(json.loads(text), df["p_recid"].to_numpy(), groups=keys)
    want = df["p_recid"].to_numpy() >= pd.Series(keys).map(loaded["thresholds"]).to_numpy(dtype=float)
    assert (flags == want).all()
    # a policy whose group columns do not make its group is refused
    bad = json.loads(text)
    bad["data"]["group_columns"] = ["sex", "race"]
    with pytest.raises(Exception, match="group_columns"):
        load_policy(json.dumps(bad))


def test_one_group_given_twice_or_as_a_list_of_one_is_the_single_column_path(capsys):
    code, out, _ = run_main(capsys, *_args(SAMPLE, "--group", "race", "--group", "race", "--json"))
    one_code, one, _ = run_main(capsys, *_args(SAMPLE, "--group", "race", "--json"))
    assert code == one_code == 0
    s, t = json.loads(out), json.loads(one)
    assert s == t
    assert s["data"]["group"] == "race" and "group_columns" not in s["data"]
    assert "disparities_by_column" not in s
    # in Python, a list of one group column is that column (the same groups, cutoffs and disparities)
    a = costlib.audit(
        pd.read_csv(SAMPLE),
        label="two_year_recid",
        score="p_recid",
        split="split",
        group=["race"],
        c_fp=1,
        c_fn=3,
        n_resamples=60,
    )
    got = a.summary()
    assert got["data"]["group"] == "race" and got["recommended"] == s["recommended"]
    assert got["disparities"] == s["disparities"] and not a.column_disparities


def test_costlib_apply_builds_the_policys_intersections_from_its_columns(capsys, tmp_path, monkeypatch):
    """`costlib apply` on a policy fitted on race × sex reads both columns (from the policy, or
    from --group given twice), decides each row by its intersection's cutoff and writes the group."""
    monkeypatch.delenv("COSTLIB_SIGNING_KEY", raising=False)
    policy = tmp_path / "p.json"
    args = _args(SAMPLE, "--group", "race", "--group", "sex", "--rule", "cost-optimal", "--policy", str(policy))
    assert run_main(capsys, *args)[0] == 0
    loaded = load_policy(policy.read_text(encoding="utf-8"))
    df = pd.read_csv(SAMPLE)
    want_groups = df["race"] + " × " + df["sex"]
    want = df["p_recid"].to_numpy() >= want_groups.map(loaded["thresholds"]).to_numpy(dtype=float)
    for more in ([], ["--group", "race", "--group", "sex"]):
        out = tmp_path / "decisions.csv"
        code, _, err = run_main(
            capsys, "apply", str(policy), str(SAMPLE), "--out", str(out), "--allow-unsigned", "--json", *more
        )
        assert code == 0, err
        got = pd.read_csv(out)
        assert (got["race × sex"] == want_groups).all()
        assert (got["flagged"].to_numpy() == want).all()
    code, _, err = run_main(
        capsys,
        "apply",
        str(policy),
        str(SAMPLE),
        "--out",
        str(tmp_path / "d.csv"),
        "--allow-unsigned",
        "--group",
        "race",
        "--group",
        "gender",
    )
    assert code == 2 and "gender" in err and "Traceback" not in err
