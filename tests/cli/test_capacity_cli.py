"""The command line under a review limit: audit --max-flagged N (cases a month with --volume, or a
share), the answer within the limit in the text, the JSON, the report and the policy, and the
same answer read out of core with DuckDB."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import costlib
from costlib.__main__ import main
from costlib.present.policy import load_policy
from tests.cli.test_cli import ROOT, SAMPLE, _run

ARGS = ["audit", SAMPLE, "--label", "two_year_recid", "--score", "p_recid", "--split", "split"]
ARGS += ["--c-fp", "1", "--c-fn", "3", "--resamples", "100"]


def _json(capsys, *extra):
    code = main([*ARGS, *extra, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_a_limit_in_cases_a_month_gives_the_cheapest_cutoff_within_it(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    d = _json(capsys, "--volume", "10000", "--max-flagged", "2000")
    train = pd.read_csv(ROOT / SAMPLE).query("split == 'train'")
    t, _ = costlib.optimal_threshold_within(train["two_year_recid"], train["p_recid"], c_fp=1, c_fn=3, max_flagged=0.2)
    assert d["recommended"]["cutoffs"] == {"everyone": t}
    assert d["capacity"] == {"max_flagged": 0.2, "cases_per_month": 2000.0}
    w = d["within_capacity"]
    assert w["binding"] and w["unlimited"]["flagged_share"] > 0.2 >= w["flagged_share"] - 0.02
    assert w["extra_cost_per_case"] == pytest.approx(
        d["recommended"]["cost_per_case"] - w["unlimited"]["cost_per_case"]
    )
    # what more capacity saves is the change of the answer made again at a larger limit; COMPAS's
    # scores come in ten tied blocks, and at 2,600 a month the next one (to 2,680) fits in 100 more
    at = _json(capsys, "--volume", "10000", "--max-flagged", "2600")
    for more, key in ((1, "saving_per_extra_case"), (100, "saving_per_100_extra_cases")):
        again = _json(capsys, "--volume", "10000", "--max-flagged", str(2600 + more))
        assert at["within_capacity"][key] == pytest.approx(
            at["recommended"]["cost_per_case"] - again["recommended"]["cost_per_case"], abs=1e-12
        )
    assert at["within_capacity"]["saving_per_extra_case"] == 0 < at["within_capacity"]["saving_per_100_extra_cases"]
    # one more percent of 10,000 cases a month is 100 more
    assert at["within_capacity"]["saving_per_extra_percent"] == at["within_capacity"]["saving_per_100_extra_cases"]
    # the no-model choice within the limit: flagging everyone does not fit, flagging a random 20% does
    assert d["baseline"]["rule"] == "flag at random"
    # the same limit as a share, without a volume
    share = _json(capsys, "--max-flagged", "0.2")
    assert share["recommended"] == d["recommended"] and share["capacity"]["cases_per_month"] is None


def test_without_a_limit_the_record_says_so(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    d = _json(capsys)
    assert d["capacity"] is None and d["within_capacity"] is None


def test_a_limit_in_cases_without_a_volume_is_refused_with_a_sentence(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = main([*ARGS, "--max-flagged", "400"])
    _, err = capsys.readouterr()
    assert code == 2
    assert "--max-flagged 400 is a number of cases a month: give --volume" in err
    assert main([*ARGS, "--max-flagged", "0.3", "--volume", "10000"]) == 2
    assert "give --max-flagged 3,000, or leave out --volume" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main([*ARGS, "--max-flagged", "-3"])
    assert exit_.value.code == 2
    assert "argument --max-flagged: the cases a month your team can take must be a number" in capsys.readouterr().err


def test_the_text_report_and_policy_carry_the_limit(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    report, policy = tmp_path / "r.html", tmp_path / "p.json"
    code = main([*ARGS, "--volume", "10000", "--max-flagged", "2000", "--report", str(report), "--policy", str(policy)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Review limit: Your team can review 2,000 cases a month." in out
    assert "One more case a month that your team reviews " in out
    html = report.read_text()
    assert 'id="capacity"' in html and "Your team can review 2,000 cases a month." in html
    saved = load_policy(policy.read_text())
    assert saved["capacity"] == {"max_flagged": 0.2, "cases_per_month": 2000}


def test_a_model_that_does_not_ship_under_a_limit_hands_over_a_policy_of_flagging_at_random(
    capsys, monkeypatch, tmp_path
):
    monkeypatch.chdir(ROOT)
    data = tmp_path / "noise.csv"
    rng = __import__("numpy").random.default_rng(4)
    pd.DataFrame({"y": (rng.random(3000) < 0.4).astype(int), "s": rng.random(3000).round(3)}).to_csv(data, index=False)
    policy = tmp_path / "p.json"
    code = main(
        ["audit", str(data), "--label", "y", "--score", "s", "--c-fp", "1", "--c-fn", "4", "--resamples", "200"]
        + ["--max-flagged", "0.3", "--policy", str(policy), "--json"]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    d = json.loads(out)
    assert not d["ship_model"] and d["baseline"]["rule"] == "flag at random"
    saved = json.loads(policy.read_text())
    assert saved["rule"] == "flag at random" and saved["random_share"] == 0.3
    assert all(t["threshold"] == "inf" and "random" in t["meaning"] for t in saved["thresholds"])
    assert load_policy(policy.read_text())["random_share"] == 0.3


def test_engine_duckdb_gives_the_same_answer_within_a_limit():
    args = [*ARGS, "--group", "race", "--volume", "10000", "--max-flagged", "1500", "--json"]
    memory, duck = _run(*args), _run(*args, "--engine", "duckdb")
    assert memory.returncode == duck.returncode == 0, duck.stderr
    assert json.loads(memory.stdout) == json.loads(duck.stdout)
