"""The Value page's headline on small data without a split: a threshold worth no more than the
choice without it keeps that choice, and the headline says the verdict is about which cases to hand
over, never "Do not let the model decide" followed by "keep letting the model answer every case"
(review: a PM could not tell whether to use the model at all); k = 1 reads "as bad as", not
"1 times as bad as"."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from costlib import value
from costlib.binary import decision as D
from costlib.present.value_verdict import as_bad, value_verdict

# the reviewer's 40 rows (label, score), no split column
LABELS = [0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0]
LABELS += [0, 1, 0, 0]
SCORES = [0.1275, 0.3218, 0.9569, 0.3036, 0.1604, 0.8573, 0.478, 0.1568, 0.3769, 0.0144, 0.481, 0.1156, 0.064]
SCORES += [0.0383, 0.6725, 0.2377, 0.3368, 0.0435, 0.4824, 0.0465, 0.5475, 0.4821, 0.7352, 0.9643, 0.6488]
SCORES += [0.4146, 0.3309, 0.2111, 0.9795, 0.5975, 0.0809, 0.8707, 0.1641, 0.3965, 0.4674, 0.0199, 0.0169]
SCORES += [0.766, 0.7752, 0.0806]


def _tiny(k: float):
    sweep = value.value_sweep(np.array(LABELS), np.array(SCORES))
    return value.recommend_value({"score": sweep}, k=k)


def test_a_threshold_worth_no_more_keeps_the_choice_and_says_it_is_about_the_hand_overs():
    rec = _tiny(2.0)
    assert rec.status == D.WORSE and rec.judged_on == "all" and rec.baseline == value.ANSWER_ALL
    head = value_verdict(rec, k=2.0, unit="$").headline
    assert head.startswith("Do not let the model decide which cases to hand over: ")
    assert "keep letting the model answer every case" in head


@pytest.mark.parametrize("baseline", [value.ANSWER_ALL, value.HAND_OVER])
def test_every_worse_headline_names_which_cases_to_hand_over(baseline):
    rec = dataclasses.replace(_tiny(2.0), baseline=baseline)
    head = value_verdict(rec, k=2.0, unit="$").headline
    assert "Do not let the model decide:" not in head
    assert head.startswith("Do not let the model decide which cases to hand over")


def test_k_of_one_is_as_bad_as_without_one_times():
    assert as_bad(1.0) == "a wrong answer is as bad as a right one is good"
    assert as_bad(1.5) == "a wrong answer is 1.5 times as bad as a right one is good"
    head = value_verdict(_tiny(1.0), k=1.0, unit="$").headline
    assert "1 times" not in head and "when a wrong answer is as bad as a right one is good" in head
