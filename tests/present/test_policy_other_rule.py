"""A policy of a rule other than the recommended one says so, and records the disparities of the
rule it ships (found by a fairness-audit reviewer on the COMPAS sample at per-group prices
African-American 1/3, Caucasian 2/2, Other 1/6).

The policy of "fair: demographic parity" said "not clearly better" at the top with that rule's
cutoffs, while ``decision`` (the audit's recommendation, `Audit.summary`, embedded unchanged) said
"ship the model" with another rule's cutoffs, and its ``disparities`` were those of "best cutoff
per group": the disparities in the file were not those of the rule ``costlib apply`` applies.
``decision`` stays the recommendation (readers read ``decision.recommended``); ``decision_is``
says what it is, and ``disparities`` holds those of the rule the file ships. The disparities are
checked against the flags ``apply_policy`` gives the judged rows, independently of how they were
computed.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from costlib import loading
from costlib.answers.audit import build_audit, dataset_models
from costlib.binary.disparity import THRESHOLD
from costlib.core import rules as R
from costlib.core.dataset import ColumnMapping
from costlib.handoff.policy import apply_policy
from costlib.present.policy import (
    DECISION_IS_NO_MODEL,
    DECISION_IS_OTHER,
    DECISION_IS_SHIPPED,
    DISPARITIES_HERE,
    DISPARITIES_NOT_HERE,
    NOT_APPLIED_OTHER,
    load_policy,
    policy_dict,
    policy_json,
)

COMPAS = Path(__file__).resolve().parents[2] / "costlib" / "samples" / "compas.csv"
PRICES = {"African-American": (1.0, 3.0), "Caucasian": (2.0, 2.0), "Other": (1.0, 6.0)}
FAIR = "fair: demographic parity"


def _dataset():
    raw, name = loading.read_path(COMPAS)
    df = loading.read_table(raw, name)
    mapping = ColumnMapping(label="two_year_recid", scores=("p_recid",), group="race", split="split")
    return loading.prepare(df, mapping, name=name, fingerprint=loading.fingerprint(raw))


@pytest.fixture(scope="module")
def compas():
    ds = _dataset()
    models = dataset_models(ds)
    audit = build_audit(models, PRICES, n_resamples=50, seed=0)
    judge = ds.purpose_rows("judge")
    return {"audit": audit, "models": models, "ds": ds, "judge": judge}


def _flagged_rates(policy: dict, c: dict) -> dict:
    """Each group's share of the judged rows that `apply_policy` flags under `policy`."""
    ds, judge = c["ds"], c["judge"]
    scores = np.asarray(ds.scores["p_recid"])[judge]
    groups = np.asarray(ds.groups)[judge].astype(str)
    flags = apply_policy(policy, scores, groups=groups)
    return {g: float(flags[groups == g].mean()) for g in np.unique(groups)}


def _recorded_rates(block: dict) -> dict:
    return {g: r["value"] for g, r in block["metrics"]["flagged_rate"].items()}


def test_the_reviewers_case_ships_another_rule_than_the_recommendation(compas):
    rec = compas["audit"].recommendation
    assert rec.ship_model and rec.rule != FAIR  # the file of FAIR is a file of another rule


def test_a_fairness_rules_policy_says_decision_is_the_recommendation_given_for_comparison(compas):
    audit = compas["audit"]
    policy = policy_dict(audit, FAIR, sweeps=compas["models"])
    words = R.rule_words(audit.recommendation.rule)
    assert policy["decision_is"] == DECISION_IS_OTHER.format(rule=FAIR) + DISPARITIES_HERE.format(
        rule=FAIR, recommended=words
    )
    assert "for comparison" in policy["decision_is"] and FAIR in policy["decision_is"]
    # decision is kept as the contract's summary of the recommendation, its recommended block saying
    # that this file does not apply it (review 74)
    summary = audit.summary()
    recommended = policy["decision"]["recommended"]
    assert policy["decision"] | {"recommended": summary["recommended"]} == summary
    assert recommended == summary["recommended"] | {
        "applied": False,
        "not_applied": NOT_APPLIED_OTHER.format(rule=FAIR),
    }
    assert policy["decision"]["recommended"]["rule"] == words
    assert policy["decision"]["disparities"]["rule"] == words


def test_a_fairness_rules_policy_records_the_disparities_of_the_rule_it_ships(compas):
    audit = compas["audit"]
    policy = policy_dict(audit, FAIR, sweeps=compas["models"])
    block = policy["disparities"]
    assert block["rule"] == FAIR == policy["rule"]
    assert block["threshold"] == THRESHOLD and block["reference_group"] == "African-American"  # the largest
    assert block["reference_group"] == policy["decision"]["disparities"]["reference_group"]
    # what `apply` does with this file's cutoffs on the judged rows is what the block records
    applied = _flagged_rates(policy, compas)
    assert _recorded_rates(block) == pytest.approx(applied, abs=1e-12)
    # and not what the recommendation's block records (a different rule, different flags)
    assert _recorded_rates(policy["decision"]["disparities"]) != pytest.approx(applied, abs=1e-6)
    # demographic parity: the flagged rates lie close together, the recommendation's do not
    spread = max(applied.values()) - min(applied.values())
    assert spread <= audit.fairness_tolerance + 0.05


def test_the_recommended_rules_policy_keeps_its_one_block_of_disparities(compas):
    audit = compas["audit"]
    for kwargs in ({}, {"sweeps": compas["models"]}):
        policy = policy_dict(audit, **kwargs)
        assert policy["rule"] == audit.recommendation.rule
        assert policy["decision_is"] == DECISION_IS_SHIPPED
        assert "disparities" not in policy  # decision's are this rule's
        assert _recorded_rates(policy["decision"]["disparities"]) == pytest.approx(_flagged_rates(policy, compas))


def test_the_audit_keeps_its_sweeps_so_every_caller_writes_the_rules_disparities(compas):
    """The page's and the command line's downloads call `policy_json` without sweeps."""
    audit = compas["audit"]
    assert audit.sweeps is compas["models"][audit.recommendation.model]
    assert json.loads(policy_json(audit, FAIR)) == json.loads(policy_json(audit, FAIR, sweeps=compas["models"]))
    assert json.loads(policy_json(audit, FAIR))["disparities"]["rule"] == FAIR


def test_without_the_sweeps_the_file_says_it_holds_no_disparities_of_its_rule(compas):
    audit = dataclasses.replace(compas["audit"], sweeps=None)  # an audit made without its sweeps
    policy = policy_dict(audit, FAIR)
    assert policy["disparities"] is None
    words = R.rule_words(audit.recommendation.rule)
    assert policy["decision_is"] == DECISION_IS_OTHER.format(rule=FAIR) + DISPARITIES_NOT_HERE.format(
        rule=FAIR, recommended=words
    )


@pytest.mark.parametrize("with_sweeps", [False, True])
def test_the_file_of_another_rule_is_still_read_and_applied(compas, with_sweeps):
    audit = compas["audit"] if with_sweeps else dataclasses.replace(compas["audit"], sweeps=None)
    text = policy_json(audit, FAIR)
    raw = json.loads(text)
    assert ("disparities" in raw) and ((raw["disparities"] is not None) == with_sweeps)
    back = load_policy(text)
    assert back["rule"] == FAIR and back["thresholds"] == audit.cutoffs[FAIR]
    assert back["verdict"] == raw["verdict"]
    flags = apply_policy(back, np.array([0.0, 1.0, 0.5]), groups=["Caucasian", "Other", "African-American"])
    assert flags.tolist() == [False, True, audit.cutoffs[FAIR]["African-American"] <= 0.5]


def test_a_policy_that_keeps_the_choice_without_a_model_says_its_cutoffs_are_not_applied(compas):
    models = compas["models"]
    for c_fn in (0.4, 0.3, 0.2, 8.0, 12.0):
        audit = build_audit(models, {g: (1.0, c_fn) for g in PRICES}, n_resamples=30, seed=0)
        rec = audit.recommendation
        if not rec.ship_model and rec.shipped_rule != rec.rule:
            break
    else:
        pytest.fail("no price kept the choice without a model on COMPAS")
    policy = policy_dict(audit, sweeps=models)
    base = rec.shipped_rule
    assert policy["rule"] == base
    assert policy["decision_is"] == DECISION_IS_NO_MODEL.format(rule=R.rule_words(base)) + DISPARITIES_HERE.format(
        rule=R.rule_words(base), recommended=R.rule_words(rec.rule)
    )
    assert policy["disparities"]["rule"] == R.rule_words(base)
    assert _recorded_rates(policy["disparities"]) == pytest.approx(_flagged_rates(policy, compas))


def test_sweeps_of_another_model_are_refused(compas):
    sweeps = dataclasses.replace(compas["models"]["p_recid"], name="another")
    with pytest.raises(ValueError, match="recommended model"):
        policy_dict(compas["audit"], FAIR, sweeps=sweeps)
