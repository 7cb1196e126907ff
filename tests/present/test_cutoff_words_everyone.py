"""A per-group cutoff at or below a group's lowest score flags everyone in it, and the answer says
so: on COMPAS at per-group prices (African-American 1/3, Caucasian 2/2, Other 1/6) the headline read
"… Other at 0.1994 or more", the lowest score there, which hid that the model is not used for that
group at all (found by a fairness-audit reviewer)."""

from __future__ import annotations

import pytest

from costlib.present import words


def test_three_groups_or_more_are_listed_with_a_comma_before_the_last():
    said = words.cutoffs_text({"a": 0.6, "b": 0.1, "c": 0.3}, grouped=True, lowest={"a": 0.0, "b": 0.1, "c": 0.0})
    assert said == "flag a at 0.6 or more, everyone in b, and c at 0.3 or more"  # not "everyone in b and c"


def test_a_cutoff_at_a_groups_lowest_score_is_said_as_everyone_in_it():
    cut = {"a": 0.4, "b": 0.1994}
    assert words.cutoffs_text(cut, grouped=True) == "flag a at 0.4 or more and b at 0.1994 or more"
    said = words.cutoffs_text(cut, grouped=True, lowest={"a": 0.01, "b": 0.1994})
    assert said == "flag a at 0.4 or more and everyone in b"
    assert words.cutoffs_text(cut, grouped=True, lowest={"a": 0.01, "b": 0.1}) == (
        "flag a at 0.4 or more and b at 0.1994 or more"
    )


def test_the_headline_says_everyone_in_a_group_whose_cutoff_flags_all_of_it():
    from costlib.answers.audit import build_audit, dataset_models
    from costlib.core import rules as R
    from tests.present.test_policy_other_rule import PRICES, _dataset

    audit = build_audit(dataset_models(_dataset()), PRICES, n_resamples=200, seed=0)
    rec = audit.recommendation
    if rec.rule != R.COST_OPTIMAL or rec.cutoffs["Other"] > rec.lowest["Other"]:
        pytest.fail(f"the reviewer's case no longer holds: {rec.rule}, {rec.cutoffs}, lowest {rec.lowest}")
    assert "everyone in Other" in audit.verdict.headline or ", and everyone in Other" in audit.verdict.headline
    assert "Other at" not in audit.verdict.headline
