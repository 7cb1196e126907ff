"""A first-time user's review of the Value page (2026-12-07), items 1 and 2.

1. At k = 0 (a wrong answer costs nothing) the verdict read, in red with a warning sign, "Do not let
   the model decide which cases to hand over: ... so let the model answer every case": coherent, but
   an alarm over the answer "use the model on every case". The verdict stays the rule's (do not let
   the model decide), and says first what to do and that it is the best choice at these prices, in
   the calm colour ("info"); keeping the model out, or a choice that loses money, stays red.
2. Amounts beside an interval claimed digits no interval that wide can tell ("$0.000031 per case
   better (95% interval of the difference −$0.013378 to $0.012062)"): they read at the interval's
   precision now (`amounts.width_digits`), the estimate, its ends and the tiles alike.
"""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest

from costlib.answers.value import value_answer
from costlib.core import rules as R
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present.words import verdict_head

MONEY = re.compile(r"[−-]?\$\d[\d,]*\.(\d+)")


def _sample(key: str):
    s = SAMPLES[key]
    return prepare(pd.read_csv(io.BytesIO(sample_bytes(key))), s.mapping, name=s.filename, fingerprint=key)


@pytest.fixture(scope="module")
def compas():
    return _sample("compas")


@pytest.fixture(scope="module")
def screening():
    return _sample("screening")


def _answer(ds, k: float, reject_worth: float = 0.0):
    return value_answer(
        ds, {"": (1.0, 3.0)}, names=[""], worth=1.0, reject_worth=reject_worth, moved_k=k, unit="$", volume=10_000.0
    )


def test_at_k_zero_answering_every_case_is_said_as_the_best_choice_not_as_an_alarm(compas):
    answer = _answer(compas, 0.0)
    v = answer.verdict
    assert v.headline.startswith(verdict_head(R.DO_NOT))  # the three-verdict rule is unchanged
    assert v.kind == "info", v.kind  # was "error": red, with a warning sign
    assert v.headline.startswith(
        "Do not let the model decide which cases to hand over: let the model answer every case, the best choice at "
        "these prices, worth $0.658 per case ($6,576 a month)."
    ), v.headline
    assert "adds nothing when a wrong answer costs nothing" in v.headline  # not "0 times as bad"
    # the tiles say the same thing: what the verdict keeps, none handed over
    assert [m["value"] for m in answer.metrics] == ["$0.658", "$6,576", "0%"]


def test_keeping_the_model_out_stays_red(compas):
    """Where the verdict hands every case to a person (the model should not answer on its own), the
    colour is still the alarm's."""
    answer = _answer(compas, 20.0)
    assert answer.rec.kept[0] == "hand everything over" and answer.verdict.kind == "error"


def _decimals(text: str) -> list[int]:
    return [len(m) for m in MONEY.findall(text)]


def test_a_difference_inside_its_interval_reads_at_the_intervals_precision(screening):
    """Screening at k = 1, a hand-over worth $0.30: the threshold from prices alone came out
    $0.000031 better than the fitted one, give or take a cent and a half."""
    answer = _answer(screening, 1.0, 0.3)
    (aside,) = answer.verdict.asides
    assert "came out about as good on the test rows (95% interval of the difference −$0.013 to $0.012)" in aside, aside
    assert "$0.000031" not in aside and "−$0.013378" not in aside


def test_two_worths_a_hair_apart_read_at_the_gains_interval_in_the_verdict_and_the_tiles(screening):
    """Screening at k = 1: 'worth $0.61031 per case ..., against $0.61000 ... but the 95% interval
    −$0.00781 to ...' read five decimals of two worths whose gain chance moves by a cent."""
    answer = _answer(screening, 1.0)
    v = answer.verdict
    assert v.headline.startswith(verdict_head(R.NOT_CLEARLY))
    # a month as the per-case worth reads, times 10,000 cases (`amounts.month_figure`): not '$6,103' beside '$0.610'
    assert "would be worth $0.610 per case ($6,100 a month), against $0.610 per case ($6,100 a month)" in v.headline
    assert re.search(r"95% interval −\$0\.00\d to \$0\.00\d of the gain includes zero", v.headline), v.headline
    assert max(_decimals(v.headline)) == 3
    tiles = {m["label"]: m["value"] for m in answer.metrics}
    assert tiles["Worth per case, model answers all"] == tiles["Worth per case with the threshold"] == "$0.610"
    assert tiles["It might gain per case"] == "$0.00"  # the shown worths' difference, as the verdict reads


def test_a_gain_that_ships_keeps_its_ends_off_zero_and_its_decimals_at_the_width(compas):
    answer = _answer(compas, 1.0, 0.3)
    v = answer.verdict
    assert v.kind == "success"
    # $0.393 x 10,000 cases: a month as the per-case worth reads (`amounts.month_figure`), not $3,925
    assert "It is worth $0.393 per case ($3,930 a month), against $0.315 per case ($3,150 a month)" in v.headline, (
        v.headline
    )
    # the gain is named, its worths subtract to it as read and its month is their months' difference; its
    # interval sits beside it, not after the worth without the threshold (review 74)
    assert (
        "for letting the model answer every case: a gain of $0.078 per case "
        "(95% interval $0.053 to $0.101), $780 a month." in v.headline
    ), v.headline
