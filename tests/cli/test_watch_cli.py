"""python -m costlib watch POLICY FILE ...: per period, the shipped cutoff's cost beside the
period's own best, alerts only beyond the noise, label-free estimates where outcomes are not in."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from costlib.__main__ import main
from costlib.answers.audit import build_audit
from costlib.binary import decision as D
from costlib.present.policy import policy_json


def _cases(rng, n, prior, month):
    """Cases of a model calibrated at a base rate of 0.3 (label shift: only the base rate moves)."""
    y = (rng.random(n) < prior).astype(int)
    x = rng.normal(np.where(y == 1, 1.0, -1.0), 1.0)
    p = 1 / (1 + np.exp(-(2 * x + np.log(0.3 / 0.7))))
    days = pd.to_timedelta(rng.integers(0, 27, n), unit="D")
    return pd.DataFrame({"y": y, "p": p.round(4), "when": pd.Timestamp(month) + days})


@pytest.fixture
def shipped(tmp_path):
    rng = np.random.default_rng(0)
    train = _cases(rng, 3000, 0.3, "2025-12-01")
    audit = build_audit(D.sweep_model(train["y"], train["p"]), (1, 3), n_resamples=100, volume=10_000)
    path = tmp_path / "policy.json"
    path.write_text(policy_json(audit))
    return path, rng


def _run(capsys, *args):
    code = main(["watch", "--allow-unsigned", *map(str, args), "--resamples", "300", "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def _text(capsys, *args) -> str:
    """The printout of `costlib watch` (as `_run`, without --json)."""
    main(["watch", "--allow-unsigned", *map(str, args), "--resamples", "300"])
    return capsys.readouterr().out


def test_stable_months_keep_the_cutoff(shipped, tmp_path, capsys):
    policy, rng = shipped
    data = tmp_path / "stable.csv"
    pd.concat([_cases(rng, 1200, 0.3, f"2026-{m:02d}-01") for m in range(1, 13)]).to_csv(data, index=False)
    code, report, err = _run(capsys, policy, data, "--time", "when", "--score", "p", "--label", "y")
    assert code == 0, err
    assert len(report["periods"]) == 12 and not any(p["alert"] for p in report["periods"])
    assert all(p["measured"] and p["labelled"] == p["n"] == 1200 for p in report["periods"])


def test_a_shift_alerts_from_its_month_and_the_months_without_outcomes_are_estimated(shipped, tmp_path, capsys):
    policy, rng = shipped
    frames = [_cases(rng, 1200, 0.3 if m < 7 else 0.08, f"2026-{m:02d}-01") for m in range(1, 13)]
    df = pd.concat(frames, ignore_index=True)
    truth = df.copy()
    df["y"] = df["y"].astype("Int64")
    df.loc[df["when"] >= "2026-10-01", "y"] = pd.NA  # the newest months have no outcomes yet
    data = tmp_path / "shift.csv"
    df.to_csv(data, index=False)
    code, report, err = _run(capsys, policy, data, "--time", "when", "--score", "p", "--label", "y")
    assert code == 1, err  # an alert: a scheduled job pages someone
    periods = {p["period"]: p for p in report["periods"]}
    assert [p for p, r in periods.items() if r["alert"]][0] == "2026-07"
    assert not any(r["alert"] for p, r in periods.items() if p < "2026-07")
    late = periods["2026-11"]
    assert not late["measured"] and late["alert_basis"] == "estimated" and late["assumption"] == "holds"
    assert late["alert"] and late["regret_interval"][0] > 0  # alerts before its outcomes arrive
    assert late["base_rate"] == pytest.approx(0.08, abs=0.03)  # the EM finds the new base rate
    # the label-free cost is close to what the outcomes will say
    rows = truth[(truth["when"] >= "2026-11-01") & (truth["when"] < "2026-12-01")]
    cut = json.loads(policy.read_text())["thresholds"][0]["threshold"]
    flagged = rows["p"] >= cut
    measured = float(np.mean(np.where(flagged, (rows["y"] == 0) * 1.0, (rows["y"] == 1) * 3.0)))
    assert late["cost_per_case"] == pytest.approx(measured, rel=0.15)
    text_code = main(
        ["watch", "--allow-unsigned", str(policy), str(data), "--time", "when", "--score", "p", "--label", "y"]
    )
    out = capsys.readouterr().out
    assert text_code == 1 and "Refit: since 2026-07 the shipped cutoff has cost about" in out


def test_without_any_outcomes_the_month_the_base_rate_moves_alerts_on_the_estimate(tmp_path, capsys):
    """The issue's case: a policy fitted at a base rate of 0.2, a year whose base rate jumps to
    0.45 in July, no outcome column at all. Every shifted month alerts on the estimate (exit 1),
    no month before it does, and each says both readings and what to ship instead."""
    rng = np.random.default_rng(3)

    def cases(n, prior, month):
        y = (rng.random(n) < prior).astype(int)
        x = rng.normal(np.where(y == 1, 1.0, -1.0), 1.0)
        p = 1 / (1 + np.exp(-(2 * x + np.log(0.2 / 0.8))))
        return pd.DataFrame(
            {"p": p.round(4), "when": pd.Timestamp(month) + pd.to_timedelta(rng.integers(0, 27, n), "D")}
        )

    train = cases(4000, 0.2, "2025-12-01").assign(y=lambda d: (rng.random(len(d)) < d["p"]).astype(int))
    audit = build_audit(D.sweep_model(train["y"], train["p"]), (1, 3), n_resamples=100, volume=1500)
    policy = tmp_path / "policy.json"
    policy.write_text(policy_json(audit))
    data = tmp_path / "year.csv"
    pd.concat([cases(1500, 0.2 if m < 7 else 0.45, f"2026-{m:02d}-01") for m in range(1, 13)]).to_csv(data, index=False)
    code, report, err = _run(capsys, policy, data, "--time", "when", "--score", "p")
    assert code == 1, err
    periods = report["periods"]
    assert all(p["alert_basis"] == "estimated" and p["labelled"] == 0 for p in periods)
    assert [p["period"] for p in periods if p["alert"]] == [f"2026-{m:02d}" for m in range(7, 13)]
    for p in periods[6:]:
        ls, cal = p["readings"]["label_shift"], p["readings"]["calibrated"]
        assert ls["base_rate"] == pytest.approx(0.45, abs=0.06) and cal["base_rate"] < ls["base_rate"]
        assert ls["refit_cutoffs"]["everyone"] < report["policy"]["cutoffs"]["everyone"]  # more positives: lower
        assert not p["readings_agree"] and p["outcomes_to_tell"] >= 1 and cal["regret_per_case"] == 0
        assert p["cost_bracket"][0] <= min(ls["cost_per_case"], cal["cost_per_case"])
    main(["watch", "--allow-unsigned", str(policy), str(data), "--time", "when", "--score", "p"])
    out = capsys.readouterr().out
    assert "Refit if the share of positive cases moved: since 2026-07" in out and "What to ship instead" in out


@pytest.mark.parametrize(
    "args, words",
    [
        (["--time", "nope", "--score", "p"], '--time: "cases.csv" has no column "nope"'),
        (["--time", "when", "--score", "p", "--label", "bad"], 'column "bad" must hold 0 or 1'),
        (["--time", "p", "--score", "p"], 'column "p": times must be dates'),
    ],
)
def test_bad_input_gets_a_sentence_and_exit_2(shipped, tmp_path, capsys, args, words):
    policy, rng = shipped
    df = _cases(rng, 50, 0.3, "2026-01-01")
    df["bad"] = "maybe"
    data = tmp_path / "cases.csv"
    df.to_csv(data, index=False)
    code, _, err = _run(capsys, policy, data, *args)
    assert code == 2 and words in err, err


def test_a_month_of_negatives_only_flagged_by_the_cutoff_alerts_and_exits_1(shipped, tmp_path, capsys):
    policy, rng = shipped
    month = _cases(rng, 1000, 0.3, "2026-01-01")
    month["y"] = 0  # every outcome 0: each case the cutoff flags is a false alarm, and flagging nobody costs nothing
    data = tmp_path / "negatives.csv"
    month.to_csv(data, index=False)
    code, report, err = _run(capsys, policy, data, "--time", "when", "--score", "p", "--label", "y")
    (p,) = report["periods"]
    assert code == 1 and p["alert"] and p["no_model"] == "flag nobody", err
    assert p["regret_per_case"] == p["cost_per_case"] > 0 and p["regret_interval"][0] > 0
    out = _text(capsys, policy, data, "--time", "when", "--score", "p", "--label", "y")
    assert "flagging nobody instead would save" in out and "every outcome is negative" in out
    assert "Keep the cutoff" not in out


def test_a_month_too_small_to_judge_says_so_and_more_periods_than_the_bound_exit_2(shipped, tmp_path, capsys):
    policy, rng = shipped
    df = pd.concat([_cases(rng, 1000, 0.3, "2026-01-01"), _cases(rng, 1, 0.3, "2026-02-01")])
    data = tmp_path / "small.csv"
    df.to_csv(data, index=False)
    out = _text(capsys, policy, data, "--time", "when", "--score", "p", "--label", "y")
    assert "2026-02: 1 cases, 1 with outcomes; cost per case" in out and out.count("too few cases to judge: 1") == 2
    from costlib.watch.periods import MAX_PERIODS

    days = pd.DataFrame({"when": pd.date_range("2026-01-01", periods=MAX_PERIODS + 5, freq="D"), "p": 0.5, "y": 1})
    days.to_csv(data, index=False)
    code, _, err = _run(capsys, policy, data, "--time", "when", "--score", "p", "--label", "y", "--freq", "D")
    assert code == 2 and f"the dates span {MAX_PERIODS + 5} days with cases" in err, err
    assert "choose a coarser period (weeks or months instead of days)" in err


def test_the_built_in_year_as_downloaded_gives_the_pages_answer(tmp_path, capsys, monkeypatch):
    """The Watch page's two downloads of the built-in year (`answers.watch.sample_files`), run
    through the command the page shows, give the page's answer: its report of the same cases
    under the same policy at the page's resamples, and its headline."""
    import shlex

    from costlib.answers.watch import SAMPLE_COLUMNS, WATCH_RESAMPLES, sample_files, sample_inputs
    from costlib.present.watch_words import watch_verdict
    from costlib.watch.report import watch_report

    files = sample_files()
    (tmp_path / "watch_year_cases.csv").write_bytes(files.cases)
    (tmp_path / "watch_year_policy.json").write_bytes(files.policy)
    monkeypatch.chdir(tmp_path)
    args = shlex.split(files.command)
    assert args[:4] == ["python", "-m", "costlib", "watch"]
    code = main([*args[3:], "--json"])
    report = json.loads(capsys.readouterr().out)
    policy, df = sample_inputs()  # what the page watches on a first visit
    page = watch_report(policy, df, name="the built-in year", n_resamples=WATCH_RESAMPLES, **SAMPLE_COLUMNS)
    assert code == 1 and len(report["periods"]) == 12
    for mine, theirs in zip(report["periods"], page["periods"], strict=True):
        for field in ("period", "n", "labelled", "alert", "cost_per_case", "regret_per_case", "regret_interval"):
            assert mine[field] == theirs[field], (mine["period"], field)
    main(args[3:])
    out = capsys.readouterr().out
    assert watch_verdict(page, unit=policy["unit"]).headline in out.splitlines()


def test_a_score_column_other_than_the_policys_and_a_cutoff_beyond_probabilities_are_said(shipped, tmp_path, capsys):
    """Review 4: the Watch page now says when the score column watched is not the one the policy was
    fitted on, and when a probability cutoff lies outside 0 to 1; the command line says the same
    sentences on standard error (`answers.watch_inputs`), so a cutoff fitted on one model's scores
    is never watched on another's without a word."""
    policy, rng = shipped
    data = tmp_path / "cases.csv"
    cases = pd.concat([_cases(rng, 600, 0.3, f"2026-{m:02d}-01") for m in range(1, 4)])
    cases.assign(other=cases["p"]).to_csv(data, index=False)
    fitted_on = json.loads(policy.read_text())["data"]["score"]
    assert fitted_on not in cases.columns
    _, _, err = _run(capsys, policy, data, "--time", "when", "--score", "other", "--label", "y")
    assert f'The policy was fitted on the score column "{fitted_on}", and "cases.csv" has no such column' in err, err
    assert 'Its cutoff is watched on "other", as chosen under “--score”' in err, err
    far = json.loads(policy.read_text())
    far["thresholds"] = [t | {"threshold": 5.0} for t in far["thresholds"]]
    (tmp_path / "far.json").write_text(json.dumps(far))
    _, _, err = _run(capsys, tmp_path / "far.json", data, "--time", "when", "--score", "p", "--label", "y")
    assert "flags nobody: its scores are probabilities, from 0 to 1, and the cutoff is above 1." in err, err


def test_a_logit_policys_cutoff_beyond_the_probabilities_its_scores_are_read_as_is_said(shipped, tmp_path, capsys):
    """A policy on log-odds has its cutoffs compared with the scores turned into probabilities (the
    report's `core.scales.on_scale`): a cutoff of 1.5 there flags nobody, and 0 everyone. Before,
    `cutoff_words` skipped every policy not on probabilities, and the command line said nothing."""
    policy, rng = shipped
    cases = pd.concat([_cases(rng, 600, 0.3, f"2026-{m:02d}-01") for m in range(1, 4)])
    p = cases["p"].clip(1e-4, 1 - 1e-4)
    data = tmp_path / "log_odds.csv"
    cases.assign(p=np.log(p / (1 - p))).to_csv(data, index=False)
    for cutoff, words in ((1.5, "flags nobody"), (0.0, "flags everyone")):
        far = json.loads(policy.read_text())
        far["data"]["scale"] = "logit"
        far["thresholds"] = [t | {"threshold": cutoff} for t in far["thresholds"]]
        far["pooled_cutoff"] = cutoff
        (tmp_path / "far.json").write_text(json.dumps(far))
        _, report, err = _run(capsys, tmp_path / "far.json", data, "--time", "when", "--score", "p", "--label", "y")
        assert {p["flagged_share"] for p in report["periods"]} == {0.0 if cutoff else 1.0}
        assert f"note: The policy's cutoff (flag a case when its score is at least {cutoff:g}) {words}" in err, err
        assert "log-odds" in err, err


def test_volume_gives_the_pages_headline_and_what_to_ship_at_the_sidebars_cases_a_month(tmp_path, capsys, monkeypatch):
    """The page says its amounts a month at the sidebar's cases a month and names them; the command
    line had no cases a month of its own, so its headline named the policy's (1,500) where the page
    named 10,000. With --volume both say the same words at the same volume."""
    import shlex

    from costlib.answers.watch import SAMPLE_COLUMNS, WATCH_RESAMPLES, sample_files, sample_inputs, watch_answer

    files = sample_files()
    (tmp_path / files.cases_name).write_bytes(files.cases)
    (tmp_path / files.policy_name).write_bytes(files.policy)
    monkeypatch.chdir(tmp_path)
    args = shlex.split(files.command)[3:]
    assert main([*args, "--volume", "10000"]) == 1
    out = capsys.readouterr().out.splitlines()
    policy, df = sample_inputs()
    answer = watch_answer(
        policy, df, name=files.cases_name, columns=SAMPLE_COLUMNS, freq="M", n_resamples=WATCH_RESAMPLES, unit=""
    )
    refit = answer.refit(10_000)
    headline = answer.verdict_for(refit, 10_000).headline
    assert "10,000" in headline and headline in out
    ship = answer.ship_words(refit, 10_000)
    assert ship and all(line in out for line in ship)
    main(args)  # without it: the policy's cases a month, named as such
    assert headline not in capsys.readouterr().out.splitlines()
