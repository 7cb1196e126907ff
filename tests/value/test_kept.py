"""What the Value page's verdict keeps when the model's threshold does not ship
(`ValueRecommendation.kept`), and that the page's first number is that choice's worth, as the
verdict states it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from costlib import answers, value
from costlib.binary import decision as D
from costlib.present import page_answers
from costlib.present.value_verdict import value_verdict
from costlib.present.value_words import BASELINE_WORDS, VALUE_GAIN_AGAINST, value_gain_tile
from tests.views.apptest_support import screening_value


@pytest.fixture(scope="module")
def shipped():
    _, rec = screening_value(3.0)
    assert rec.status == D.SAVES
    return rec


@pytest.mark.parametrize(
    ("status", "tau", "kept"),
    [
        (D.SAVES, 0.8, None),
        (D.NO_ANSWER, 0.8, None),
        (D.UNCLEAR, 0.8, value.HAND_OVER),  # the baseline: the better choice without a threshold
        (D.WORSE, 0.8, value.HAND_OVER),
        (D.ADDS_NOTHING, np.inf, value.HAND_OVER),  # the fitted threshold hands every case over
        (D.ADDS_NOTHING, 0.0, value.ANSWER_ALL),  # ... or accepts every answer, whatever the baseline
    ],
)
def test_the_kept_choice_and_the_first_number_agree_with_the_verdict(shipped, status, tau, kept):
    rec = dataclasses.replace(
        shipped, status=status, tau=tau, value=0.18, baseline=value.HAND_OVER, baseline_value=0.2, gain=-0.02
    )
    assert (rec.kept[0] if rec.kept else None) == kept
    tiles = answers.value_metrics(rec, worth=1.0, unit="$", volume=1000)
    if status == D.NO_ANSWER:
        assert tiles == ()
        return
    if kept is None:
        # shipped: its gain first, then its worth (the choice without it is worth something here)
        gain_tile = value_gain_tile(value.HAND_OVER)  # the gain, against what the verdict compares it with
        assert gain_tile == "Gain per case over handing all to a person"
        assert [t["label"] for t in tiles[:3]] == [gain_tile, "Gain a month", answers.VALUE_WORTH_TILE]
        assert tiles[0]["value"] == "−$0.020" and tiles[2]["value"] == "$0.180"
        return
    # what the verdict keeps is worth this per case: the threshold's when it answers every case, the
    # baseline's when it hands every case over (the baseline itself)
    worth = 0.18 if status == D.ADDS_NOTHING and kept != value.HAND_OVER else 0.2
    assert tiles[0]["label"] == answers.VALUE_BASELINE_TILE[kept] and tiles[0]["value"] == f"${worth:.3f}"
    headline = value_verdict(rec, k=3.0, unit="$").headline
    assert f"${worth:.3f} per case" in headline
    assert page_answers.VALUE_BASELINES[kept].split()[0] in tiles[0]["help"]


def test_every_choice_without_a_threshold_has_its_words_and_its_number():
    assert set(page_answers.VALUE_BASELINES) == {value.HAND_OVER, value.ANSWER_ALL, value.HAND_AT_RANDOM}
    # at separate prices one answer for every case is a choice without a model too (`value.per_outcome`)
    every = {*page_answers.VALUE_BASELINES, value.ALL_POSITIVE, value.ALL_NEGATIVE}
    assert set(answers.VALUE_BASELINE_TILE) == set(BASELINE_WORDS) == set(VALUE_GAIN_AGAINST) == every


@pytest.mark.parametrize(("status", "gain", "verb"), [(D.UNCLEAR, 0.02, "might gain"), (D.WORSE, -0.02, "would lose")])
def test_a_gain_whose_interval_reaches_zero_is_what_the_threshold_might_gain(shipped, status, gain, verb):
    """Beneath "Not clearly better", "It would gain a month $53.77" read as a reason to ship (review 57)."""
    rec = dataclasses.replace(
        shipped, status=status, tau=0.8, value=0.2 + gain, baseline=value.HAND_OVER, baseline_value=0.2, gain=gain
    )
    labels = [t["label"] for t in answers.value_metrics(rec, worth=1.0, unit="$", volume=1000)]
    assert f"It {verb} per case" in labels and f"It {verb} a month" in labels
