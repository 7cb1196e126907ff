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
from costlib.present import page_answers, price_words, words

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
    text = page_answers.bracket_verdict(bracket, table, sweep=ms.fit_pooled, price=1.0, span=span).headline
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
    said = page_answers.bracket_verdict(bracket, table, sweep=ms.fit_pooled, price=2.0, span=span, unit="$", volume=100)
    assert f"the verdict “{R.SHIP}”" in said.headline
    # the settled answer says what the decision costs, in money per case and a month, at the middle
    # of the range (it gave a ratio range only)
    middle = float(np.sqrt(low * high))
    t = table["threshold"].iloc[0]
    cost = float(ms.fit_pooled.cost(2.0, 2.0 * middle)[ms.fit_pooled.index_at(t)])
    assert any(words.per_case_and_month(cost, 100, "$") in d for d in said.details), said.details
