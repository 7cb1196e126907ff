"""The Value page on COMPAS as a first-time product-manager review drove it (review 61): prices
$1 and $3 on Costs & groups, k moved to 2.75, 10,000 cases a month and a limit on the hand-overs.
What the page shows is the answer `value_answer` gives (tests/value/test_value_first_review.py)."""

from __future__ import annotations

from tests.views.apptest_support import metric, open_app, texts, verdict_box


def open_value(cap: int):
    return open_app("compas", "views/value.py", c_fp=1, c_fn=3, k=2.75, value_cap_on="true", value_cap=cap)


def test_a_limit_of_200_keeps_handing_over_at_random_and_says_the_limit_is_why():
    at = open_value(200)
    box = verdict_box(at)
    assert at.error and box.startswith("Do not let the model decide which cases to hand over: within your limit of 200")
    assert "to a person at random, so do that, worth −$0.278 per case" in box
    assert "let the model answer every case" not in box and "reject option" not in box
    assert "The limit is why: without it, the best confidence threshold on the train rows would hand over 7,507" in box
    assert "which you have not changed" in box
    assert metric(at, "Worth per case, random hand-overs") == "−$0.278"
    assert metric(at, "Handed to a person") == "2%"
    shown = texts(at)
    assert "Costs & groups prices each mistake on its own" in shown


def test_a_limit_of_1000_says_every_choice_loses_money_and_does_not_compare_a_threshold_over_it():
    at = open_value(1000)
    box = verdict_box(at)
    assert box.startswith("Ship the model: every choice within the limit loses money, and this one loses least.")
    shown = texts(at)
    assert "came out $0.244 per case better" not in shown
    assert "is not a choice here: on the train rows it would hand over 7,507 cases a month" in shown
