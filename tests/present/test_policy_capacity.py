"""A policy file's review limit in cases a month that is not a number of cases is dropped with a
note, and the file's share (max_flagged) sets the limit, never the default of 1,000 cases a month
(issue 44)."""

from __future__ import annotations

import json

import pytest

from costlib.present.policy import load_policy
from costlib.present.policy_records import MSG_CASES_PER_MONTH
from tests.present.test_policy_positive import compas_policy


@pytest.fixture(scope="module")
def limited() -> dict:
    return compas_policy(volume=10_000, max_flagged=0.04)


@pytest.mark.parametrize("bad", [True, -3, 1.5, "many", 1e300])
def test_a_count_that_is_not_one_leaves_the_files_share_with_a_note(limited, bad):
    policy = {**limited, "capacity": {**limited["capacity"], "cases_per_month": bad}}
    loaded = load_policy(json.dumps(policy))
    assert loaded["capacity"]["max_flagged"] == limited["capacity"]["max_flagged"]
    assert loaded["capacity"]["cases_per_month"] is None  # the page takes max_flagged x the cases a month
    share = f"{limited['capacity']['max_flagged']:.4g}"
    assert MSG_CASES_PER_MONTH.format(high="1,000,000,000,000", value=repr(bad), share=share) in loaded["notes"]
    assert not any("1,000 instead" in note for note in loaded["notes"])


def test_a_count_that_is_one_is_kept_without_a_note(limited):
    policy = {**limited, "capacity": {**limited["capacity"], "cases_per_month": 400}}
    loaded = load_policy(json.dumps(policy))
    assert loaded["capacity"]["cases_per_month"] == 400 and not loaded["notes"]
