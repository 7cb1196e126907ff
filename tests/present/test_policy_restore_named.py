"""A policy file that restores nothing is named in the sentence, as every upload's refusal is
(a reviewer read "This is not a usable costlib policy file: it is not JSON" without the file)."""

from __future__ import annotations

import pytest

from costlib.core.errors import DataError
from costlib.present.policy import load_policy
from costlib.present.policy_restore import MissingPrices, policy_settings, restore_refusal


def test_a_policy_that_is_not_json_is_named():
    with pytest.raises(DataError) as info:
        load_policy(b"{garbage")
    said = restore_refusal(info.value, "policy_garbage.json")
    assert said.startswith('The file "policy_garbage.json" is not a usable costlib policy file: it is not JSON')
    assert said.endswith(").")


def test_a_policy_without_the_groups_prices_is_named():
    with pytest.raises(MissingPrices) as info:
        policy_settings({"prices": {"a": (1.0, 3.0)}}, ["a", "b"])
    assert info.value.message == 'The policy has no prices for the group "b" of this data; nothing was changed.'
    said = restore_refusal(info.value, "old.json")
    assert said == 'The policy "old.json" has no prices for the group "b" of this data; nothing was changed.'
    assert restore_refusal(DataError("Something else."), "x.json") == '"x.json": Something else.'


def test_a_policy_made_on_other_data_says_so_first_and_names_both_data_sets():
    """Review 72: the COMPAS policy restored on the screening data said only that it had no prices
    for the group "A"; its record names the data it was made on, which is the reason."""
    saved = {"prices": {"Caucasian": (1.0, 3.0)}, "data": {"name": "Recidivism risk (COMPAS)", "sha256": "aaa"}}
    with pytest.raises(MissingPrices) as info:
        policy_settings(saved, ["A", "B"])
    said = restore_refusal(info.value, "policy_compas.json", fingerprint="bbb", data_name="Screening (two models)")
    assert said.startswith(
        'The policy "policy_compas.json" was made on another data set, "Recidivism risk (COMPAS)", not on the '
        'data in use, "Screening (two models)", and it has no prices for the group "A"'
    ), said
    # the reason it was not applied is the missing group (a policy made on other data with the same groups
    # is applied, refitted): a last read
    assert said.endswith("of this data, so it was not applied. Nothing was changed."), said
    # the same data (or a record without its fingerprint): the missing group alone, as before
    same = restore_refusal(info.value, "policy_compas.json", fingerprint="aaa", data_name="x")
    assert same.startswith('The policy "policy_compas.json" has no prices for the group "A"')
