"""``apply``: the decisions file is `apply_policy` row by row, named by the file's rows, and a
wrong column, scale or output is refused with a sentence before anything is written."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import costlib
from costlib.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
COMPAS = ROOT / "costlib" / "samples" / "compas.csv"


@pytest.fixture(scope="module")
def policy(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("apply") / "policy.json"
    args = ["audit", str(COMPAS), "--label", "two_year_recid", "--score", "p_recid", "--group", "age_cat"]
    args += ["--split", "split", "--c-fp", "1", "--c-fn", "3", "--resamples", "20", "--json", "--policy", str(path)]
    args += ["--rule", "cost-optimal"]
    assert main(args) == 0
    return path


def test_the_decisions_are_apply_policy_row_by_row(policy, tmp_path, capsys):
    cases = pd.read_csv(COMPAS).iloc[::3].assign(age_cat=lambda d: d["age_cat"].where(d.index % 7 > 0, "=new group"))
    cases.to_csv(tmp_path / "cases.csv", index=False)
    out = tmp_path / "decisions.csv"
    assert (
        main(["apply", "--allow-unsigned", str(policy), str(tmp_path / "cases.csv"), "--out", str(out), "--json"]) == 0
    )
    summary = json.loads(capsys.readouterr().out)
    got = pd.read_csv(out)
    want = costlib.apply_policy(policy, cases["p_recid"], groups=cases["age_cat"])
    assert list(got.columns) == ["row", "p_recid", "age_cat", "cutoff", "flagged"]
    assert got["row"].tolist() == list(range(2, len(cases) + 2))
    assert (got["flagged"].to_numpy() == want).all() and summary["flagged"] == int(want.sum())
    assert (got["age_cat"] == "'=new group").any()  # a formula-like cell is written harmless
    unseen = got["age_cat"] == "'=new group"
    assert (got.loc[unseen, "cutoff"] == json.loads(policy.read_text())["pooled_cutoff"]).all()
    assert summary["data"]["n_rows"] == len(cases) and summary["replaced"] is False


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (
            ["--score", "decile_score"],
            '--score: The policy was chosen on the score column "p_recid", not "decile_score"',
        ),
        (["--group", "sex_x"], '"cases.csv" has no column "sex_x"'),
    ],
)
def test_another_column_is_refused(policy, tmp_path, capsys, extra, words):
    pd.read_csv(COMPAS).to_csv(tmp_path / "cases.csv", index=False)
    out = tmp_path / "decisions.csv"
    assert main(["apply", "--allow-unsigned", str(policy), str(tmp_path / "cases.csv"), "--out", str(out), *extra]) == 2
    assert words in capsys.readouterr().err and not out.exists()


def test_scores_on_another_scale_and_an_output_over_the_input_are_refused(policy, tmp_path, capsys):
    cases = pd.read_csv(COMPAS).assign(p_recid=lambda d: d["decile_score"].astype(float))
    cases.to_csv(tmp_path / "cases.csv", index=False)
    assert (
        main(["apply", "--allow-unsigned", str(policy), str(tmp_path / "cases.csv"), "--out", str(tmp_path / "d.csv")])
        == 2
    )
    assert "probabilities from 0 to 1" in capsys.readouterr().err
    before = (tmp_path / "cases.csv").read_bytes()
    assert (
        main(
            [
                "apply",
                "--allow-unsigned",
                str(policy),
                str(tmp_path / "cases.csv"),
                "--out",
                str(tmp_path / "cases.csv"),
            ]
        )
        == 2
    )
    assert "is the input file" in capsys.readouterr().err and (tmp_path / "cases.csv").read_bytes() == before


def test_a_policy_with_one_cutoff_needs_no_group_column(tmp_path, capsys):
    path = tmp_path / "one.json"
    args = ["audit", str(COMPAS), "--label", "two_year_recid", "--score", "p_recid", "--split", "split"]
    assert main([*args, "--c-fp", "1", "--c-fn", "3", "--resamples", "20", "--policy", str(path)]) == 0
    capsys.readouterr()
    assert main(["apply", "--allow-unsigned", str(path), str(COMPAS), "--out", str(tmp_path / "d.csv")]) == 0
    got = pd.read_csv(tmp_path / "d.csv")
    assert list(got.columns) == ["row", "p_recid", "cutoff", "flagged"]
    cut = json.loads(path.read_text())["pooled_cutoff"]
    cut = np.inf if cut == "inf" else -np.inf if cut == "-inf" else cut
    assert (got["flagged"] == (got["p_recid"] >= cut)).all()
    assert "flags" in capsys.readouterr().out


def test_a_logit_policy_writes_its_cutoff_in_log_odds_and_unseen_groups_are_counted(tmp_path, capsys):
    from costlib.handoff.policy import logit_cutoff

    policy = {"rule": "cost-optimal", "cutoffs": {"a": 0.3, "b": 0.6}, "pooled_cutoff": 0.5, "scale": "logit"}
    policy |= {"score": "z", "group": "g"}
    (tmp_path / "p.json").write_text(json.dumps(policy))
    rng = np.random.default_rng(2)
    cases = pd.DataFrame({"z": rng.normal(size=50), "g": rng.choice(["a", "b", "c"], size=50)})
    cases.to_csv(tmp_path / "cases.csv", index=False)
    assert (
        main(
            [
                "apply",
                "--allow-unsigned",
                str(tmp_path / "p.json"),
                str(tmp_path / "cases.csv"),
                "--out",
                str(tmp_path / "d.csv"),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    got = pd.read_csv(tmp_path / "d.csv")
    want = {"a": logit_cutoff(0.3), "b": logit_cutoff(0.6), "c": logit_cutoff(0.5)}
    assert np.allclose(got["cutoff"], got["g"].map(want), rtol=0, atol=0)  # the cutoff in the score's units
    assert (got["flagged"] == (got["z"] >= got["cutoff"])).all()
    n_c = int((cases["g"] == "c").sum())
    assert f'{n_c:,} cases are in groups the policy has no cutoff of its own for ("c")' in out


def test_a_group_named_na_is_a_group_the_policy_never_saw(policy, tmp_path, capsys):
    """ "NA" is a group's name on every path (`loading.cells.group_codes`), as the audit reads it:
    a policy without it gives the case its pooled cutoff and says so."""
    cases = pd.read_csv(COMPAS).head(20)
    cases.loc[6, "age_cat"] = "NA"
    cases.to_csv(tmp_path / "cases.csv", index=False)
    assert (
        main(["apply", "--allow-unsigned", str(policy), str(tmp_path / "cases.csv"), "--out", str(tmp_path / "d.csv")])
        == 0
    )
    assert '1 cases are in groups the policy has no cutoff of its own for ("NA")' in capsys.readouterr().out


def test_one_groups_cutoff_is_not_everyones_and_unseen_groups_are_listed_shortened(tmp_path, capsys):
    (tmp_path / "short.json").write_text(json.dumps({"rule": "r", "cutoffs": {"a": 0.3}, "score": "s"}))
    names = [f"{i}" + "n" * 300 for i in range(8)]
    pd.DataFrame({"s": np.linspace(0, 1, 16), "g": ["a"] * 8 + names}).to_csv(tmp_path / "cases.csv", index=False)
    out = tmp_path / "d.csv"
    assert (
        main(
            ["apply", "--allow-unsigned", str(tmp_path / "short.json"), str(tmp_path / "cases.csv"), "--out", str(out)]
        )
        == 2
    )
    assert 'a cutoff per group of "group" ("a")' in capsys.readouterr().err and not out.exists()
    (tmp_path / "pooled.json").write_text(
        json.dumps({"rule": "r", "cutoffs": {"a": 0.3}, "pooled_cutoff": 0.5, "score": "s", "group": "g"})
    )
    assert (
        main(
            ["apply", "--allow-unsigned", str(tmp_path / "pooled.json"), str(tmp_path / "cases.csv"), "--out", str(out)]
        )
        == 0
    )
    line = next(x for x in capsys.readouterr().out.splitlines() if "pooled cutoff" in x)
    assert line.startswith("8 cases are in groups the policy has no cutoff of its own for") and "and 3 more" in line
    assert len(line) < 400
