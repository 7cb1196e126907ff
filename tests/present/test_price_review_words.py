"""A first-time product manager's review of Find my prices, its words: the intro without the
conversation's jargon, the middle of the range said as what it is (the middle on a ratio scale),
and the cutoffs a range moves through read as English."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import costlib
from costlib.answers.prices import prices_answer
from costlib.binary import decision as D
from costlib.binary import elicit, robust
from costlib.present import labels as t
from costlib.present import price_words, words

JARGON = ("bracket", "ratio", "factor")


def test_the_intro_says_what_the_questions_do_in_plain_words():
    """ "A few such answers bracket the ratio between the two prices ... narrower than a factor of
    1.5": three words a first reader has to look up."""
    said = [word for word in JARGON if word in t.PRICES_WHAT.lower()]
    assert not said, (said, t.PRICES_WHAT)
    assert "how many times worse a missed case is than a false alarm" in t.PRICES_WHAT
    assert "1.5 times" in t.PRICES_WHAT


def test_the_button_says_which_middle_it_sets():
    """ "a miss to the middle of the bracket": 'bracket' is jargon, and a PM reads the middle of 32 to
    1,000 as 516, not 179."""
    assert "bracket" not in t.USE_PRICES_HELP
    assert "ratio scale" in t.USE_PRICES_HELP and "from 10 to 1,000 that is 100" in t.USE_PRICES_HELP


# ---------------------------------------------------------------------------------------
# The page's answer (`price_words.bracket_verdict`) and Costs & groups' sentence (`answers_sentence`)


@pytest.fixture(scope="module")
def compas():
    df = pd.read_csv(costlib.__path__[0] + "/samples/compas.csv")
    fit, judge = (df.split == "train").to_numpy(), (df.split == "test").to_numpy()
    return {"p_recid": D.sweep_model(df.two_year_recid, df.p_recid, df.race, fit=fit, judge=judge, name="p_recid")}


def _record(low: float, high: float, answers: int = 5) -> dict:
    return {
        "outcomes": {"miss": "a missed case", "false_alarm": "a false alarm"},
        "answers": list(range(answers)),
        "ratio_low": low,
        "ratio_high": high,
        "ratio_chosen": float(np.sqrt(low * high)),
    }


def test_the_middle_is_said_to_be_on_a_ratio_scale(compas):
    """ "(set to the middle, 179)" for the range 32 to 1,000: a PM expects about 516."""
    table = elicit.pieces(compas["p_recid"].fit_pooled, 32.0, 1000.0)
    said = price_words.answers_sentence(
        _record(32.0, 1000.0), table, lowest_score=compas["p_recid"].fit_pooled.lowest_score
    )
    assert "the middle on a ratio scale, 179 (about 5.6 times 32, as 1,000 is about 5.6 times 179)" in said, said
    assert "(set to the middle, 179)" not in said


def test_the_cutoffs_a_range_moves_through_read_as_english(compas):
    """ "from flag at ≥ 0.6032 to flag everyone", on the page after the first answer."""
    models = compas
    bracket = elicit.answer(elicit.Bracket(), 1.0, elicit.MISS)
    answer = prices_answer(models, (1.0, 3.0), bracket, names=bracket.names, resamples=0, money=1.0, unit="$")
    text = " ".join((answer.verdict.headline, *answer.verdict.details))
    assert "from flagging cases scoring 0.6032 or more to flagging everyone (no model needed)" in text, text
    assert "flag at" not in text and "≥" not in text
    table = elicit.pieces(models["p_recid"].fit_pooled, 1.0, 1000.0)
    costs_says = price_words.answers_sentence(
        _record(1.0, 1000.0), table, lowest_score=models["p_recid"].fit_pooled.lowest_score
    )
    assert "moves from flagging cases scoring 0.6032 or more to flagging everyone" in costs_says, costs_says


def test_a_settled_range_says_what_it_ships_in_words(compas):
    """The box of a range where the cutoff and the verdict hold (COMPAS, 1.7 to 2): what Costs & groups
    answers at the middle of the range, on a ratio scale, and the cutoff in words."""
    ms = compas["p_recid"]
    low, high = 1.7, 2.0
    bracket = elicit.Bracket(low=low, high=high, answers=((low, elicit.MISS), (high, elicit.ALARM)))
    bracket, table, span = robust.settle(bracket, ms.fit_pooled, compas, n_resamples=1000)
    at_middle = D.recommend(compas, (2.0, 2.0 * bracket.middle), n_resamples=1000)
    said = price_words.bracket_verdict(
        bracket, table, sweep=ms.fit_pooled, price=2.0, span=span, unit="$", volume=100, at_middle=at_middle
    )
    t = table["threshold"].iloc[0]
    assert f"gives the same decision: “Ship the model”, flagging cases scoring {t:.4g} or more." in said.headline
    costs_says = words.recommendation_verdict(at_middle, unit="$", volume=100).headline
    assert any(d.startswith("At the middle of the range on a ratio scale (") for d in said.details), said.details
    assert any(d.endswith(f"Costs & groups answers: {costs_says}") for d in said.details), said.details


@pytest.fixture(scope="module")
def screening_settled():
    """Screening's two models and the range settled by review 63's answers (a false alarm is worse at
    1, a miss is worse at 0.032, about the same at 0.18), with 1,000 resamples as the page."""
    df = pd.read_csv(costlib.__path__[0] + "/samples/screening_two_models.csv")
    fit, judge = (df.split == "train").to_numpy(), (df.split == "test").to_numpy()
    models = {
        m: D.sweep_model(df.label, df[m], df.group, fit=fit, judge=judge, name=m)
        for m in ("score_calibrated", "score_overconfident")
    }
    bracket = elicit.Bracket()
    for choice in (elicit.ALARM, elicit.MISS, elicit.SAME):
        answer = prices_answer(models, (1.0, 1.0), bracket, names=bracket.names, resamples=1000, money=1.0, unit="$")
        bracket = elicit.answer(answer.bracket, answer.question[0], choice)
    return models, bracket


def _settled(screening_settled, **sample):
    models, bracket = screening_settled
    return prices_answer(
        models, (1.0, 1.0), bracket, names=bracket.names, resamples=1000, money=1.0, unit="$", **sample
    )


def test_a_settled_range_that_keeps_the_choice_without_the_model_leads_with_that_answer(screening_settled):
    """Review 63: the box read "Settled: ... Within this range the best decision moves through 2
    cutoffs, from flagging cases scoring 0.9837 or more to ..." while the line under it said Costs &
    groups answers "Not clearly better: keep flagging nobody". The settled box leads with that one
    answer; the cutoffs are what the model would do if used anyway."""
    answer = _settled(screening_settled)
    said = answer.verdict
    assert answer.bracket.settled is not None and answer.question is None
    assert said.headline.startswith("Settled: a missed case costs between"), said.headline
    assert "Costs & groups answers: Not clearly better: keep flagging nobody" in said.headline, said.headline
    assert "moves through" not in said.headline and said.kind != "success"
    assert any(d.startswith("Were the model used anyway, its cheapest cutoff would move through") for d in said.details)


def test_a_settled_range_on_a_sample_names_its_models_the_samples(screening_settled):
    """Find my prices quotes Costs & groups' answer at the middle of a settled range: on a built-in
    sample it says "the cheaper of the sample's 2 models", as Costs & groups does (review 63)."""
    said = {sample: _settled(screening_settled, sample=sample).verdict.headline for sample in (True, False)}
    assert "the sample's 2 models" in said[True] and "your 2 models" not in said[True], said[True]
    assert "your 2 models" in said[False], said[False]


def test_the_per_group_questions_say_they_change_nothing_until_the_prices_are_used():
    """Review 63: moving a group's slider under "Do misses cost differently in different groups?"
    changed nothing on the page, and nothing said why."""
    assert f"“{t.USE_PRICES}”" in t.GROUPS_DIFFER_WHAT and "Nothing on this page changes" in t.GROUPS_DIFFER_WHAT
