"""A policy that keeps the choice without a model says, in its ``decision.recommended`` block, that
the model's cutoffs there are not applied (review 74, item 3).

On COMPAS at $1 a false positive and $3 a false negative (and Offensive language at $1 and $15)
the verdict keeps flagging everyone: the file's top level said ``"rule": "flag everyone"`` with
``"threshold": "-inf"``, while further down ``"decision": {"recommended": {"rule": "best single
cutoff", "cutoffs": {...}}}``. A system or person reading "recommended" alone would ship the
model's cutoff. The block keeps the contract's keys (`Audit.summary`) and adds ``"applied"``
(false) and ``"not_applied"``: the verdict, and what the file applies instead. The ``--json``
summary on standard output is the contract's, unchanged (its ``ship_model`` says the same).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from costlib.__main__ import main
from costlib.present.policy import NOT_APPLIED_NO_MODEL, load_policy

ROOT = Path(__file__).resolve().parents[2]
COMPAS = ROOT / "costlib" / "samples" / "compas.csv"
ARGS = ["audit", str(COMPAS), "--label", "two_year_recid", "--score", "p_recid", "--group", "race"]
ARGS += ["--split", "split", "--resamples", "200", "--json"]


def _run(tmp_path, capsys, c_fn: str) -> tuple[dict, dict]:
    path = tmp_path / f"policy_{c_fn}.json"
    assert main([*ARGS, "--c-fp", "1", "--c-fn", c_fn, "--policy", str(path)]) in (0, 1)
    summary = json.loads(capsys.readouterr().out)
    policy = json.loads(path.read_text(encoding="utf-8"))
    load_policy(path.read_text(encoding="utf-8"))  # still read back
    return summary, policy


def test_the_recommended_cutoffs_a_policy_does_not_apply_say_so(tmp_path, capsys):
    summary, policy = _run(tmp_path, capsys, "3")
    assert summary["verdict"] == "not clearly better" and not summary["ship_model"]  # as the review saw
    assert policy["rule"] == "flag everyone"
    block = policy["decision"]["recommended"]
    assert block["rule"] == "best single cutoff" and block["cutoffs"] == summary["recommended"]["cutoffs"]
    assert block["applied"] is False
    assert block["not_applied"] == NOT_APPLIED_NO_MODEL.format(verdict="not clearly better", rule="flag everyone")
    assert block["not_applied"].startswith("not applied: the verdict is “not clearly better”, so this file applies")
    # the contract's summary on standard output is unchanged: no key added to its recommended block
    assert set(summary["recommended"]) == {"rule", "cutoffs", "cost_per_case"}
    assert {k: v for k, v in block.items() if k not in ("applied", "not_applied")} == summary["recommended"]


@pytest.mark.parametrize("c_fn", ["1.5"])
def test_a_policy_that_applies_the_recommended_rule_says_so(tmp_path, capsys, c_fn):
    summary, policy = _run(tmp_path, capsys, c_fn)
    block = policy["decision"]["recommended"]
    assert summary["ship_model"], summary  # COMPAS ships at 1:1.5; a skip here would hide the applied case
    assert block["applied"] is True and "not_applied" not in block
    assert policy["rule_words"] == block["rule"]


def test_a_policy_whose_verdict_says_not_to_let_the_model_decide_says_so_too(tmp_path, capsys):
    summary, policy = _run(tmp_path, capsys, "5")
    assert summary["verdict"] == "do not let the model decide"
    block = policy["decision"]["recommended"]
    assert block["applied"] is False and policy["rule"] == summary["baseline"]["rule"]
    assert block["not_applied"].startswith("not applied: the verdict is “do not let the model decide”")
