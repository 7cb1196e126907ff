"""Review 73: the Value page says k in words wherever a first-time reader meets it after its first
sentence. The chart's title read "(k = 2, test rows)" and the lopsided-prices note "at k = 2 times a
right answer's worth (the slider)"; a product manager does not know k. Both now say it as the page's
first sentence about k does: "one wrong answer cancels out 2 right answers". On the chart it is the
subtitle: in the title, the words ran past the chart's edge at 1,400 px."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from costlib.answers.value import value_answer
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present.value_verdict import lopsided_sentence
from costlib.present.value_words import cancels_out, k_from_prices_sentence

TITLE_CHARS = 125  # about 890 px of the title's bold 14 px at 7.1 px a character: the folded chart is 906 px wide


def _screening(split: bool):
    import dataclasses

    s = SAMPLES["screening"]
    mapping = s.mapping if split else dataclasses.replace(s.mapping, split=None)
    frame = pd.read_csv(io.BytesIO(sample_bytes("screening")))
    return prepare(frame, mapping, name=s.filename, fingerprint=f"k{split}")


@pytest.mark.parametrize("split", [True, False])
@pytest.mark.parametrize(("costs", "moved"), [((1.0, 3.0), None), ((2.0, 2.0), None), ((2.0, 2.0), 1.5)])
def test_the_chart_says_k_in_words_under_a_title_that_fits(split, costs, moved):
    answer = value_answer(
        _screening(split), {"": costs}, names=[""], worth=1.0, reject_worth=0.0, moved_k=moved, unit="$", volume=1e4
    )
    fig = answer.one_price_figure(answer.rec.model)
    title, subtitle = fig.layout.title.text, fig.layout.title.subtitle.text
    assert "k =" not in title and "k=" not in title and "(k" not in title, title
    assert subtitle == f"At this price, {cancels_out(answer.k)}", subtitle
    assert len(subtitle) <= TITLE_CHARS, subtitle
    if split:  # without a split, "all rows, which flatter the thresholds picked on them" is long of its own
        assert len(title) <= TITLE_CHARS, title


def test_the_lopsided_note_says_the_slider_in_words():
    said = lopsided_sentence(c_fp=1, c_fn=9, k=3.5, moved=True, unit="$")
    assert said is not None and "k =" not in said, said
    assert "one wrong answer cancels out 3.5 right answers" in said, said


def test_k_is_worded_in_one_place():
    """The first sentence about k and the places after it say k the same way (`cancels_out`)."""
    first = k_from_prices_sentence(c_fp=1, c_fn=3, derived=2, k=2, moved=False, per_group=False, worth=1, unit="$")
    assert cancels_out(2) in first
    assert cancels_out(1) == "one wrong answer cancels out 1 right answer"
