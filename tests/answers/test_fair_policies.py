"""Which fairness rules Costs & groups offers as policy files, decided in answers.costs (issue
40), and the one within-the-limit test it shares with the cost chart's levels."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from costlib.answers.costs import fair_policies_offered
from costlib.present.capacity_words import within_limit

# five fairness rules as `fairness_results` sums them up; "e" is randomised (it has no row of
# its own in the judged results: its file records the bands)
SUMMARY = pd.DataFrame(
    {
        "rule": ["a", "b", "c", "d", "e"],
        "feasible": [True, True, False, True, True],
        "within_tolerance_on_test": [True, False, True, True, False],
        "randomised": [False, False, False, False, True],
    }
)
# the share of the judged rows each flags: "d" flags 30%
RESULTS = SimpleNamespace(overall=pd.DataFrame({"flagged_rate": [0.1, 0.2, 0.1, 0.3]}, index=["a", "b", "c", "d"]))


def test_without_a_limit_every_feasible_rule_is_offered_the_randomised_one_too():
    assert fair_policies_offered(SUMMARY, RESULTS, None) == {"a": True, "b": False, "d": True, "e": False}


def test_the_rules_within_the_tolerance_are_offered_first():
    # the picker's first choice is the policy downloaded by default: not one whose gap fails
    summary = SUMMARY.assign(within_tolerance_on_test=[False, True, True, True, False])
    assert list(fair_policies_offered(summary, RESULTS, None)) == ["b", "d", "a", "e"]


def test_under_a_limit_only_the_feasible_rules_within_it_are_offered():
    # 25% of the cases: "d" (30%) is over it; "e" flags an unjudged share: not offered under a limit
    assert fair_policies_offered(SUMMARY, RESULTS, 0.25) == {"a": True, "b": False}
    # 15%: "b" (20%) is over it too
    assert fair_policies_offered(SUMMARY, RESULTS, 0.15) == {"a": True}
    # a share of 1 binds no rule, but is still a limit: the randomised rule is not offered (the
    # page never asks so: a limit of every case is no limit, `capacity_words.limit_in_force`)
    assert fair_policies_offered(SUMMARY, RESULTS, 1.0) == {"a": True, "b": False, "d": True}


def test_within_the_limit_means_judged_and_not_over_it():
    overall = RESULTS.overall
    assert within_limit(overall, "a", 0.25) and not within_limit(overall, "d", 0.25)
    assert within_limit(overall, "d", None)
    assert not within_limit(overall, "e", None)  # not a judged rule


def test_the_questions_bracket_is_marked_only_while_their_prices_hold():
    from costlib.answers.costs import questions_bracket

    record = {"ratio_chosen": 4.0, "ratio_low": 3.0, "ratio_high": 5.0}
    assert questions_bracket(record, {"a": (1.0, 4.0), "b": (2.0, 8.0)}) == (3.0, 5.0)  # 4/1 = 8/2 = 4
    assert questions_bracket(record, {"a": (1.0, 4.0), "b": (1.0, 6.0)}) is None  # b moved by hand
    assert questions_bracket(None, {"a": (1.0, 4.0)}) is None  # no questions answered
