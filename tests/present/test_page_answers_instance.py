"""The Instance costs page's one answer in words (`page_answers.nec_verdict`): in the user's
money per case and a month at the price of a mistake on a typical case, the verdict unchanged."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from costlib.core import ship as S
from costlib.present.page_answers import instance_caption, instance_terms, nec_verdict


def _rec(status: str, **kw) -> SimpleNamespace:
    base = {
        "model": "score_lr",
        "threshold": 0.6381,
        "nec": 0.04,
        "error_rate": 0.06,
        "baseline": "flag everyone",
        "baseline_nec": 0.15,
        "saving": 0.11,
        "saving_low": 0.10,
        "saving_high": 0.12,
        "status": status,
        "judged_on": "test",
        "estimate": "test",
    }
    return SimpleNamespace(**{**base, **kw})


def test_a_shipped_model_is_said_in_money_per_case_and_a_month():
    # at $2.50 a typical mistake: the model 0.04 * 2.5 = $0.100 a case, x 2,000 = $200 a month;
    # flagging everyone 0.15 * 2.5 = $0.375 ($750.00); the saving 0.11 * 2.5 = $0.275 ($550.00),
    # its interval 0.10 * 2.5 = $0.250 to 0.12 * 2.5 = $0.300
    v = nec_verdict(_rec(S.SAVES), price=2.5, unit="$", volume=2000)
    assert v.kind == "success"
    assert v.headline == (
        "Ship the model: flag a case when the score of “score_lr” is at least 0.6381 (fitted on the train rows). "
        "It costs $0.100 per case ($200 a month) against $0.375 per case ($750 a month) for flagging "
        "everyone, the cheaper choice without a model: it saves $0.275 per case, $550 a month "
        "(95% interval of the saving $0.250 to $0.300)."
    )
    # error rate 6% against a weighted error of 4%: the mistakes fall on cheaper cases than a typical one
    assert v.details[0] == (
        "It is wrong on 6.0% of the test cases, mostly on ambiguous cases, where a mistake costs less than on a "
        "typical case: its mistakes add up to 4.0% of what getting every case wrong would cost (its weighted error)."
    )
    assert "$2.50" in v.details[1]


def test_an_unclear_saving_keeps_the_choice_without_a_model_and_says_why_in_money():
    v = nec_verdict(_rec(S.UNCLEAR, saving_low=-0.02, saving_high=0.2), price=10.0, unit="€", volume=None)
    assert v.kind == "warning"
    # the two costs at the same decimals, so that they subtract as the saving reads (1.50 - 0.40 = 1.10),
    # no more than the interval's width warrants (`amounts.shown_saving`'s `by_width`)
    assert v.headline.startswith("Not clearly better: keep flagging everyone, at €1.50 per case.")
    assert ", at €0.40 per case: it might save €1.10 per case, but the 95% interval of the saving" in v.headline
    assert "−€0.20 to €2.00 includes zero" in v.headline


@pytest.mark.parametrize("status", [S.WORSE, S.ADDS_NOTHING, S.NO_ANSWER])
def test_a_model_not_shipped_is_said_against_the_cost_of_the_choice_without_one(status):
    v = nec_verdict(_rec(status, nec=0.2, error_rate=0.2), price=1.0, unit="minutes", volume=100)
    assert v.kind == "error"
    without = "flagging everyone, the cheaper choice without a model, at 0.150 minutes per case (15.00 minutes a month)"
    assert without in v.headline
    assert len(v.details) == 1 and "share of the mistake cost (its weighted error) times that price" in v.details[0]


def test_the_caption_and_the_terms_say_where_the_costs_come_from():
    votes = SimpleNamespace(votes_yes="n_yes", rating=None, measurement=None)
    column = SimpleNamespace(votes_yes=None, rating=None, measurement=None)
    assert instance_caption(votes, 10310, 12391, "test") == (
        "How costly a mistake on each case is comes from the annotators' votes: the more of them agree, the "
        "costlier a mistake on the case. 10,310 of the 12,391 test cases are positive."
    )
    assert "all rows" not in instance_caption(column, 3, 4, "all") and "3 of the 4 cases" in instance_caption(
        column, 3, 4, "all"
    )
    terms = instance_terms(votes, 1.48, price=2.0, unit="$")
    assert len(terms) == 5 and all(t.endswith(".") for t in terms)
    assert "($2.00), a case of average |δ| (1.48 here)" in terms[2]


def test_the_two_costs_and_the_saving_subtract_as_they_read():
    """The page read "$0.036 ... against $0.143 ... it saves $0.106" (0.143 - 0.036 = 0.107)."""
    rec = _rec(S.SAVES, nec=0.03645, saving_low=0.1, saving_high=0.113)
    rec = SimpleNamespace(**{**vars(rec), "baseline_nec": 0.14260, "saving": 0.14260 - 0.03645})
    said = nec_verdict(rec, price=1.0, unit="$", volume=None).headline
    costs = [float(x) for x in re.findall(r"\$(\d+\.\d+) per case", said)]
    assert len(costs) == 3 and costs[1] - costs[0] == pytest.approx(costs[2], abs=1e-9), said


@pytest.mark.parametrize("status", [S.SAVES, S.UNCLEAR, S.WORSE])
def test_the_sample_answered_for_is_named_after_the_verdicts_shared_words(status):
    """Review 58, item 7: the sample the page answers for instead of the chosen data is in the
    answer's first sentence, after the verdict's words every page shares; the rest is unchanged."""
    from costlib.present.words import on_sample

    rec = _rec(status, saving_low=-0.02 if status != S.SAVES else 0.10)
    plain = nec_verdict(rec, price=2.0, unit="$", volume=100)
    v = on_sample(plain, "Offensive language (votes)")
    head, rest = plain.headline.split(": ", 1)
    assert head in ("Ship the model", "Not clearly better", "Do not let the model decide")
    assert v.headline == f"{head}: on the built-in sample “Offensive language (votes)”, not your data, {rest}"
    assert (v.kind, v.details) == ("info", plain.details)  # a neutral box: not the verdict's colour on the sample
    assert on_sample(plain, None) is plain


@pytest.mark.parametrize(("error_rate", "words"), [(0.264, "about as costly"), (0.35, "ambiguous"), (0.2, "clear-cut")])
def test_where_the_mistakes_fall_is_said_only_beyond_a_tenth_of_one(error_rate, words):
    """Review 60, item 4: a ratio of error rate to NEC of 0.989 read "mostly on clear-cut cases"."""
    v = nec_verdict(_rec(S.SAVES, error_rate=error_rate, nec=0.267), price=1.0, unit="$", volume=None)
    assert words in " ".join(v.details)


def test_a_model_named_score_is_not_said_as_scores_score():
    """Review 60, item 9: a column called "score" read "flag a case when score's score is at least"."""
    v = nec_verdict(_rec(S.SAVES, model="score"), price=1.0, unit="$", volume=None)
    assert "the score of “score” is at least" in v.headline and "score's score" not in v.headline


def test_a_headline_without_a_verdicts_words_is_not_cut_to_name_the_sample():
    """Every page's answer now names the sample it falls back to (review 60, item 1: Costs answered
    for COMPAS under "Your file: votes.csv"); a headline that is a plain sentence stays whole."""
    from costlib.present.words import Verdict, on_sample

    plain = Verdict("info", "Choose at least one way of training.")
    assert on_sample(plain, "Tweets") is plain


def test_the_glossary_gives_the_band_the_answer_reads_where_the_mistakes_fall_by():
    """The terms said "above 1 ... below 1" after the answer began to read a band round 1."""
    from costlib.present.page_answers import APART, instance_terms

    votes = SimpleNamespace(votes_yes="n_yes", rating=None, measurement=None)
    (term,) = [x for x in instance_terms(votes, 1.31) if x.startswith("Where the mistakes fall")]
    assert f"above {APART:g}," in term and f"below {1 / APART:.2f}," in term and "in between" in term
