"""Review 71 (items 1 and 2), the Calibration page on the screening sample at $5 a false flag and $1 a
miss: it said "Checked: score_overconfident, the model Costs & groups picks at your prices" while Costs
& groups at the same prices said "Not clearly better: keep flagging nobody" (it ships no model); its
green "Ship the model with its probabilities rescaled" beside that read as a contradiction, the two
answering different questions unsaid; and its caption said "k = 2 ... τ* = k/(k+1)"."""

from __future__ import annotations

import pytest

from costlib.answers.audit import dataset_models
from costlib.answers.calibration import calibration_answer, costs_pick
from costlib.answers.costs import costs_answer
from costlib.present import calibration_words as cw
from costlib.present.amounts import cutoff_number
from tests.answers.test_calibration_review import _ds, _names

DEAR_FLAGS = (5.0, 1.0)  # a false flag, a miss: Costs & groups ships nothing on screening
RESAMPLES = 200


@pytest.fixture(scope="module")
def screening():
    return _ds("screening")


def _costs(ds, prices):
    return {g: prices for g in _names(ds)}


def _answer(ds, model, prices, pick):
    names = _names(ds)
    return calibration_answer(ds, model, names=names, costs=_costs(ds, prices), unit="$", volume=10_000.0, pick=pick)


def test_the_pick_says_costs_and_groups_does_not_ship_it_where_its_verdict_does_not(screening):
    models, costs = dataset_models(screening), _costs(screening, DEAR_FLAGS)
    rec = costs_answer(models, costs, resamples=RESAMPLES).rec  # Costs & groups' own verdict, read, not made again
    pick = costs_pick(models, costs, resamples=RESAMPLES)
    assert not rec.ship_model and (pick.model, pick.ships, pick.verdict) == (rec.model, False, rec.verdict)
    said = _answer(screening, pick.model, DEAR_FLAGS, pick).picked
    assert said.startswith(f"Checked: {rec.model}, the model Costs & groups judges cheapest at your prices")
    assert "does not ship it" in said and "Not clearly better" not in said, said  # the answer says the verdict
    assert "picks" not in said and "a decision would rest on" not in said
    other = next(m for m in models if m != pick.model)
    said = _answer(screening, other, DEAR_FLAGS, pick).picked
    assert said.startswith(f"Checked: {other}. At your prices Costs & groups judges {rec.model} cheapest but does not")
    assert "a decision would rest on" not in said


def test_where_costs_and_groups_ships_the_pick_the_sentence_says_it_ships(screening):
    models, costs = dataset_models(screening), _costs(screening, (1.0, 3.0))
    pick = costs_pick(models, costs, resamples=RESAMPLES)
    assert pick.ships and pick.model == costs_answer(models, costs, resamples=RESAMPLES).rec.model
    said = _answer(screening, pick.model, (1.0, 3.0), pick).picked
    assert said == cw.PICKED_FIRST.format(model=pick.model) and "judges cheapest at your prices and ships" in said


def test_the_verdict_says_beside_it_which_question_it_answers(screening):
    pick = costs_pick(dataset_models(screening), _costs(screening, DEAR_FLAGS), resamples=RESAMPLES)
    verdict = _answer(screening, pick.model, DEAR_FLAGS, pick).at(10).verdict
    assert verdict.details[-1] == cw.question_sentence(1.0, "$"), verdict.details
    said = verdict.details[-1]
    assert "another question than Costs & groups'" in said and "handing the rest to a person" in said
    assert "a right answer counted as worth $1.00" in said and "Value page" in said
    assert said.count(". ") == 0 and said.endswith(".")  # one sentence


@pytest.mark.parametrize(
    ("prices", "cutoff", "costs_cutoff"), [((1.0, 3.0), 2 / 3, 0.25), ((11.0, 13.0), 12 / 13, None)]
)
def test_the_cutoff_is_the_confidence_the_model_answers_from_shown_as_every_threshold(
    screening, prices, cutoff, costs_cutoff
):
    answer = _answer(screening, "score_calibrated", prices, None)
    money = answer.money
    assert f"at least {cutoff_number(cutoff)} confident of" in money
    assert "confidence from which the model answers" in money
    flags = cutoff_number(prices[0] / sum(prices))
    assert f"the cutoff from which Costs & groups flags a case ({flags} from your prices alone)" in money
    assert "right answer is worth" in money and "wrong one costs" in money  # the formula in words
    caption = answer.at(10).caption
    for text in (money, caption):
        for notation in ("τ", "k =", "k/(k", "(k+1)", "k)"):
            assert notation not in text, (notation, text)


def test_at_equal_prices_the_page_says_its_cutoff_is_costs_and_groups_own(screening):
    # $1 a false flag and $1 a miss, a right answer worth $1: both pages' cutoffs read 0.5
    money = _answer(screening, "score_calibrated", (1.0, 1.0), None).money
    assert "at least 0.5 confident of" in money and "prices every wrong answer at $1.00" in money  # review 72
    assert "is the same here as the cutoff from which Costs & groups flags a case (0.5 from your prices alone)" in money
    assert "is not the cutoff" not in money and "1 right answers" not in money
