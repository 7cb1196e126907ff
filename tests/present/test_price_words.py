"""How much the prices matter, in words (`price_words.sensitivity_sentence`): when a choice
without a model is the cheapest option, the sentence does not send the reader to the verdict to
learn whether it beats the choice without a model (it is one); and the range over which the model
can pay is not said twice when it is the range over which it stays the cheapest."""

from __future__ import annotations

import math

from costlib.present.price_words import MODEL_LEADS, NO_MODEL_LEADS, sensitivity_sentence


def test_a_choice_without_a_model_is_not_compared_with_itself():
    said = sensitivity_sentence(("flag everyone", 3.5, math.inf), (1.0, 7.5), "$", judged="all rows")
    assert "“flag everyone”" in said
    assert MODEL_LEADS not in said
    assert NO_MODEL_LEADS.format(judged="all rows") in said


def test_the_model_leading_points_to_the_verdict():
    said = sensitivity_sentence(("p", 0.25, 3.6), (1.0, 3.0), "$", judged="the test rows")
    assert MODEL_LEADS in said and "the model “p” at its best single cutoff" in said


def test_the_same_range_is_said_once():
    """No split: the model stays the cheapest exactly where it can beat both choices without a
    model, on the same rows; the two ranges were both said, word for word."""
    same = sensitivity_sentence(("p", 0.241, 3.64), (1.0, 3.0), "$", break_even=(0.241, 3.64), model="p")
    assert same.count("between 0.241 and 3.64 times") == 1
    other = sensitivity_sentence(("p", 0.3, 3.0), (1.0, 2.0), "$", break_even=(0.241, 3.64), model="p")
    assert "between 0.3 and 3 times" in other and "between 0.241 and 3.64 times" in other


def test_the_model_cheapest_here_under_a_verdict_that_keeps_the_no_model_choice_says_so():
    """Review 56: "the cheapest option on the test rows is the model “p_recid” at its best single
    cutoff" read as a second answer beneath "Not clearly better: keep flagging everyone"."""
    said = sensitivity_sentence(("p", 0.25, 3.6), (1.0, 3.0), "$", judged="the test rows", kept="flag everyone")
    assert MODEL_LEADS not in said
    assert "not clearly cheaper than the choice without a model" in said and "keeps “flag everyone”" in said


def test_not_clearly_cheaper_is_a_whole_sentence():
    """Review 72: 'But not clearly cheaper than the choice without a model, ...: so the verdict above keeps
    “flag everyone”.' had no subject: it now names the model and reads as one sentence."""
    said = sensitivity_sentence(("p", 0.25, 3.6), (1.0, 3.0), "$", judged="the test rows", kept="flag everyone")
    assert "But not" not in said and ": so" not in said
    assert " It is not clearly cheaper than the choice without a model, though, once the luck" in said
