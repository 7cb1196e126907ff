"""Review 72: switching on "Limit hand-overs" made the Value page's answer read as worth MORE
($0.449 a case against $0.415 without the limit) while the limit's box said it was worth $75 a
month less. Under a limit the answer prices both mistakes at their average, without one each at
its own price, and only a grey note said so. The headline now says so in its own sentence and
compares the answer with the best answer without the limit at that same pricing, in the box's
figure; the legend, the chart at k and the side-by-side table speak plain words."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest

from costlib.answers.value import value_answer
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present.value_words import CLASSIFICATION_NOTE, F1_HEADER, K_SEPARATE_NOTE

PRICES = {"": (1.0, 3.0)}  # the screening sample's defaults: a false positive $1, a false negative $3


def _screening(split: bool = True):
    import dataclasses

    s = SAMPLES["screening"]
    mapping = s.mapping if split else dataclasses.replace(s.mapping, split=None)
    frame = pd.read_csv(io.BytesIO(sample_bytes("screening")))
    return prepare(frame, mapping, name=s.filename, fingerprint="s" if split else "n")


@pytest.fixture(scope="module")
def screening():
    return _screening()


def _answer(ds, cap=None, costs=PRICES):
    return value_answer(ds, costs, names=[""], worth=1.0, reject_worth=0.0, cap=cap, unit="$", volume=10_000.0)


def _money(text: str) -> float:
    return float(text.replace("$", "").replace(",", ""))


def test_with_a_limit_the_headline_says_how_it_prices_and_never_reads_above_the_answer_without_it(screening):
    head = _answer(screening, cap=1000.0).verdict.headline
    # the pricing is said in the worth's own sentence, not only in a note
    worth_sentence = re.search(r"It is worth \$[0-9.]+ per case[^.]*\.[0-9]*[^.]*\.", head)
    assert worth_sentence is not None, head
    assert "priced at their average, $2.00" in worth_sentence.group(0)
    # compared with the best answer without the limit at that same pricing, never above it
    said = re.search(
        r"It is worth (\$[0-9.]+) per case.*That is (\$[0-9,.]+) a month less than the best answer without the "
        r"limit, worth (\$[0-9.]+) per case \(\$[0-9,]+ a month\) at this same pricing",
        head,
    )
    assert said is not None, head
    assert _money(said.group(1)) <= _money(said.group(3))


@pytest.mark.parametrize("split", [True, False])
@pytest.mark.parametrize("cap", [200.0, 1000.0, 2000.0])
def test_the_headline_and_the_limits_box_say_the_same_cost_of_the_limit(split, cap):
    answer = _answer(screening_of(split), cap=cap)
    head, box = answer.verdict.headline, answer.limit_note
    assert "at this same pricing" in head and "at this same pricing" in box
    in_head = re.search(r"That is (\$[0-9,.]+) a month less", head)
    in_box = re.search(r"worth (\$[0-9,.]+) a month less", box)
    assert (in_head is None) == (in_box is None), (head, box)
    if in_head is not None:
        assert in_head.group(1) == in_box.group(1)


_DS = {}


def screening_of(split: bool):
    if split not in _DS:
        _DS[split] = _screening(split)
    return _DS[split]


def test_the_grey_note_is_not_the_only_place_and_is_not_said_twice(screening):
    answer = _answer(screening, cap=1000.0)
    assert not any("prices every wrong answer alike" in d for d in answer.verdict.details)


def test_one_price_for_both_mistakes_keeps_the_headline_as_it_was(screening):
    head = _answer(screening, cap=1000.0, costs={"": (2.0, 2.0)}).verdict.headline
    assert "priced at their average" not in head and "at this same pricing" not in head


def test_the_chart_at_k_and_the_notes_speak_plain_words(screening):
    answer = _answer(screening)
    fig = answer.k_figure()
    assert "how much worse" not in fig.layout.xaxis.title.text
    assert "cancels out" in fig.layout.xaxis.title.text
    assert "k sets" not in K_SEPARATE_NOTE and "k sets" not in answer.k_sentence
    assert "cancels out 2 right answers" in answer.k_sentence
    assert answer.labels["classification"]["F1"] == F1_HEADER
    assert "F1 score (a balance of missed and false positives)" in CLASSIFICATION_NOTE
