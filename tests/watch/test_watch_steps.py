"""Where the Watch page is with the inputs it has (`answers.watch_inputs.watch_step`), decided
without Streamlit: the page (`views/watch.py`, through `views/_ui/watch_inputs.py`) waits for what
is missing, answers the session's last inputs again or the built-in year, or the person's own."""

from __future__ import annotations

import itertools

import pandas as pd
import pytest

from costlib.answers import watch_inputs as s


def _step(from_costs=False, policy_given=False, cases_given=False, last_from_costs=None, earlier=False, asked=None):
    def earlier_policy():
        if asked is not None:
            asked.append(True)
        return earlier

    return s.watch_step(
        from_costs=from_costs,
        policy_given=policy_given,
        cases_given=cases_given,
        last_from_costs=last_from_costs,
        earlier_policy=earlier_policy,
    )


def _reference(from_costs, policy_given, cases_given, last_from_costs, earlier):
    """The page's own conditions before they moved out of it, in their order."""
    given_policy = from_costs or policy_given
    if not cases_given and given_policy and not from_costs:
        return s.WAIT_CASES
    last = last_from_costs is not None
    if last and from_costs and not last_from_costs:
        last = False  # inputs watched under a policy file: not what Costs & groups recommends now
    if not cases_given and from_costs and not last:
        return s.WAIT_CASES_NOW
    if cases_given and not given_policy and not earlier:
        return s.WAIT_POLICY
    if not cases_given:
        return s.LAST_INPUTS if last else s.SAMPLE_YEAR
    return s.OWN_INPUTS


@pytest.mark.parametrize(
    "from_costs, policy_given, cases_given, last_from_costs, earlier",
    list(itertools.product((False, True), (False, True), (False, True), (None, False, True), (False, True))),
)
def test_every_combination_of_inputs_gives_the_step_the_page_took(
    from_costs, policy_given, cases_given, last_from_costs, earlier
):
    got = _step(from_costs, policy_given, cases_given, last_from_costs, earlier)
    assert got == _reference(from_costs, policy_given, cases_given, last_from_costs, earlier)


def test_the_named_cases():
    assert _step() == s.SAMPLE_YEAR  # a first visit: the built-in year
    assert _step(policy_given=True) == s.WAIT_CASES
    assert _step(last_from_costs=False) == s.LAST_INPUTS  # back on the page: the last inputs again
    assert _step(from_costs=True, last_from_costs=False) == s.WAIT_CASES_NOW  # a policy file's inputs: not these
    assert _step(from_costs=True, last_from_costs=True) == s.LAST_INPUTS
    assert _step(cases_given=True) == s.WAIT_POLICY
    assert _step(cases_given=True, earlier=True) == s.OWN_INPUTS  # the policy that read before, still in use
    assert _step(from_costs=True, cases_given=True) == s.OWN_INPUTS


def test_the_earlier_policy_is_asked_for_only_when_the_cases_come_without_one():
    """Asking reads the kept policy back, which marks it as used in the session's memo."""
    asked = []
    _step(cases_given=True, policy_given=True, asked=asked)
    _step(policy_given=True, asked=asked)
    _step(asked=asked)
    assert asked == []
    _step(cases_given=True, asked=asked)
    assert asked == [True]


def test_columns_and_periods():
    assert s.column_choices(["when", "p"], "p") == (["when", "p"], 1)
    assert s.column_choices(["when", "p"], None) == (["when", "p"], None)  # waits for the person's pick
    assert s.column_choices(["when", "y"], None, optional=True)[1] == 0  # no column
    assert s.content_key(b"abc") == s.content_key(b"abc") != s.content_key(b"abd")
    days = pd.Series(pd.date_range("2026-01-01", periods=400, freq="D"))
    offered, why = s.period_offer(days)
    assert offered == ["M", "W"] and why.startswith("Not offered for these cases: days")
