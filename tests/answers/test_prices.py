"""The Find my prices page's answer object: one call settles the bracket, asks the next question
and gives the verdict, the cutoffs in play and the sweep the price book is set from."""

from __future__ import annotations

import numpy as np
import pytest

from costlib.answers.prices import PricesAnswer, prices_answer, prices_from_answers
from costlib.binary import elicit
from costlib.binary.model_sweeps import sweep_model

NAMES = ("a missed fraud", "a blocked customer")


@pytest.fixture(scope="module")
def models():
    rng = np.random.default_rng(3)
    y = rng.random(3000) < 0.3
    score = np.clip(rng.normal(0.35 + 0.3 * y, 0.15), 0, 1)
    return {"m": sweep_model(y, score, None)}


def _answer(models, bracket, **kw):
    costs = (1.0, 3.0)
    return prices_answer(models, costs, bracket, names=NAMES, resamples=0, money=2.0, unit="EUR", **kw)


def test_a_fresh_bracket_asks_the_first_question_in_the_users_words(models):
    answer = _answer(models, elicit.Bracket())
    assert isinstance(answer, PricesAnswer)
    assert answer.bracket.names == NAMES
    n, sentence, worse_miss, worse_alarm = answer.question
    assert sentence.startswith("Question 1: ")
    assert elicit.RANGE[0] < n < elicit.RANGE[1]
    assert NAMES[0] in worse_miss + sentence
    assert len(answer.table) == len(elicit.pieces(answer.sweep, *elicit.RANGE))


def test_a_bracket_inside_one_cutoff_stops_asking(models):
    """Two answers that pin the ratio between two neighbouring cutoff changes leave one cutoff in
    play: the answer settles the bracket (robust) and asks nothing more."""
    pieces = elicit.pieces(models["m"].fit_pooled, *elicit.RANGE)
    around_3 = pieces[(pieces["ratio_low"] < 3) & (pieces["ratio_high"] > 3)].iloc[0]
    low, high = around_3["ratio_low"] * 1.01, around_3["ratio_high"] / 1.01
    bracket = elicit.Bracket(low=low, high=high, answers=((low, elicit.MISS), (high, elicit.ALARM)))
    answer = _answer(models, bracket)
    assert answer.question is None
    assert answer.bracket.settled == "robust"
    assert len(answer.table) == 1
    assert answer.verdict.headline  # says what the one cutoff means


def test_a_bracket_across_cutoffs_keeps_asking(models):
    answer = _answer(models, elicit.answer(elicit.Bracket(), 4.0, elicit.MISS))
    assert answer.question is not None and answer.question[1].startswith("Question 2: ")
    assert answer.bracket.settled is None
    assert len(answer.table) > 1


def test_the_price_book_it_sets_is_the_bracket_middle_times_the_alarm_price(models):
    bracket = elicit.answer(elicit.Bracket(), 4.0, elicit.MISS)
    answer = _answer(models, bracket)
    plan = prices_from_answers(answer.bracket, answer.sweep, money=2.0, unit="EUR", names=["everyone"], multipliers={})
    assert plan["c_fp"] == 2.0
    assert plan["c_fn"] == pytest.approx(2.0 * answer.bracket.middle)


def test_the_chart_says_on_which_rows_the_cutoffs_were_fitted(models):
    """Without a split the cutoffs are fitted on all rows, and the chart's title says so (it said
    "train rows" whatever the data); with a split, the train rows."""
    rng = np.random.default_rng(4)
    y = rng.random(2000) < 0.3
    score = np.clip(rng.normal(0.35 + 0.3 * y, 0.15), 0, 1)
    train = rng.random(2000) < 0.5
    title = _answer(models, elicit.Bracket()).figure.layout.title.text
    assert "(all rows)" in title and "train" not in title
    with_split = {"m": sweep_model(y, score, None, fit=train, judge=~train)}
    assert "(train rows)" in _answer(with_split, elicit.Bracket()).figure.layout.title.text
