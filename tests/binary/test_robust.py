"""Robust means the whole verdict: the Find-my-prices bracket on COMPAS where the cutoff holds
but the verdict flips, against the recommendation read directly at each side of each flip."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import costlib
from costlib.binary import decision as D
from costlib.binary import elicit, robust
from costlib.core import rules as R
from costlib.present import labels, price_words, words

SAMPLE = costlib.__path__[0] + "/samples/compas.csv"


@pytest.fixture(scope="module")
def compas():
    df = pd.read_csv(SAMPLE)
    fit, judge = (df.split == "train").to_numpy(), (df.split == "test").to_numpy()
    ms = D.sweep_model(df.two_year_recid, df.p_recid, df.race, fit=fit, judge=judge, name="p_recid")
    return {"p_recid": ms}


def test_a_bracket_with_one_cutoff_and_two_verdicts_is_not_robust(compas):
    ms = compas["p_recid"]
    bracket = elicit.Bracket(low=2.4, high=3.7, answers=((2.4, elicit.MISS), (3.7, elicit.ALARM)))
    assert len(elicit.pieces(ms.fit_pooled, 2.4, 3.7)) == 1  # the cutoff alone would call it robust
    bracket, table, span = robust.settle(bracket, ms.fit_pooled, compas, n_resamples=1000)
    assert bracket.settled is None and not span.holds
    for ratio, below, above in span.flips:  # each flip is where the recommendation's verdict changes
        assert robust.verdict_at(compas, ratio / 1.02, n_resamples=1000) == below
        assert robust.verdict_at(compas, ratio * 1.02, n_resamples=1000) == above
    assert span.pieces[0][2] == R.SHIP and span.pieces[-1][2] != R.SHIP
    text = price_words.bracket_verdict(bracket, table, sweep=ms.fit_pooled, price=1.0, span=span).headline
    assert "but not the same verdict" in text and words.ratio_text(span.flips[0][0]) in text
    record = {"outcomes": {"miss": "a miss", "false_alarm": "an alarm"}, "answers": [1, 2], "ratio_low": 2.4}
    record |= {"ratio_high": 3.7, "ratio_chosen": float(np.sqrt(2.4 * 3.7))}
    sentence = price_words.answers_sentence(record, table, span=span)
    assert "robust" not in sentence and "the verdict is not" in sentence


def test_a_bracket_where_cutoff_and_verdict_hold_settles(compas):
    ms = compas["p_recid"]
    low, high = 1.7, 2.0  # inside one piece of the cutoff (0.379 from 1.64 to 2.10), and the model ships
    bracket = elicit.Bracket(low=low, high=high, answers=((low, elicit.MISS), (high, elicit.ALARM)))
    bracket, table, span = robust.settle(bracket, ms.fit_pooled, compas, n_resamples=1000)
    assert len(table) == 1 and span.holds and bracket.settled == "robust"
    middle = float(np.sqrt(low * high))
    at_middle = D.recommend(compas, (2.0, 2.0 * middle), n_resamples=1000)
    said = price_words.bracket_verdict(
        bracket, table, sweep=ms.fit_pooled, price=2.0, span=span, unit="$", volume=100, at_middle=at_middle
    )
    t = table["threshold"].iloc[0]
    assert f"gives the same decision: “Ship the model”, flagging cases scoring {t:.4g} or more." in said.headline
    assert said.kind == "success"
    # the settled answer says what Costs & groups will answer at the middle of the range, in its own
    # words: judged on rows the cutoff was not fitted on, per case and a month (not the fitting rows' cost)
    costs_says = words.recommendation_verdict(at_middle, unit="$", volume=100).headline
    assert any(d.endswith(f"Costs & groups answers: {costs_says}") for d in said.details), said.details
    assert not any("fitted on" in d and "it costs" in d for d in said.details)


@pytest.mark.parametrize(("low", "high"), [(0.01, 0.02), (40.0, 60.0)])
def test_a_settled_bracket_that_does_not_ship_names_the_choice_without_the_model(compas, low, high):
    """Review 58: 'Any ratio from 0.001 to 0.032 gives the same decision, flag at ≥ 0.9949 and the
    verdict “do not let the model decide”', in a green box. Where the verdict keeps the choice
    without the model, the box names that choice, not the model's cutoff; it is not green (the model
    is not shipped) and, review 71, not red either: a settled answer is not an error (`settled_kind`)."""
    ms = compas["p_recid"]
    bracket = elicit.Bracket(low=low, high=high, answers=((low, elicit.MISS), (high, elicit.ALARM)))
    bracket, table, span = robust.settle(bracket, ms.fit_pooled, compas, n_resamples=1000)
    assert span.holds and span.pieces[0][2] != R.SHIP
    at_middle = D.recommend(compas, (1.0, bracket.middle), n_resamples=1000)
    said = price_words.bracket_verdict(bracket, table, sweep=ms.fit_pooled, price=1.0, span=span, at_middle=at_middle)
    if len(table) == 1:
        keep = words.BASELINE_WORDS[at_middle.baseline]
        assert f"gives the same decision: “{words.verdict_head(span.pieces[0][2])}”, keep {keep}." in said.headline
        assert "flag at ≥" not in said.headline and "flagging cases scoring" not in said.headline
    assert said.kind == price_words.settled_kind(at_middle.verdict) == "info"
    assert any("Costs & groups answers: " + words.verdict_head(at_middle.verdict) in d for d in said.details)


def test_the_prices_sentence_counts_its_answers_in_words(compas):
    """Review 58: 'Your prices come from 1 answers'."""
    ms = compas["p_recid"]
    table = elicit.pieces(ms.fit_pooled, 1.7, 2.0)
    record = {"outcomes": {"miss": "a miss", "false_alarm": "an alarm"}, "ratio_low": 1.7, "ratio_high": 2.0}
    record |= {"ratio_chosen": float(np.sqrt(1.7 * 2.0))}
    assert "come from 1 answer:" in price_words.answers_sentence(record | {"answers": [1]}, table)
    assert "come from 2 answers:" in price_words.answers_sentence(record | {"answers": [1, 2]}, table)
    assert labels.group_multiplier_label("a miss", "Other") == "a miss in group “Other” is … as one elsewhere"
