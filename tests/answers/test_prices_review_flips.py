"""One change of verdict, one number (a first-time product manager's review of Find my prices).

On COMPAS, answering as if a missed case cost 3 false alarms, the verdict flips inside the range
twice. After question 5 the page said the second flip was at "about 3.31", after question 6 "about
3.33", and Costs & groups' details, at the prices the answers set, that the model stays the
cheapest option up to 3.32: the page located the flip to within 1% between ratios spread over each
range (so each range gave its own number), Costs & groups reads it exactly."""

from __future__ import annotations

import re

import pytest

from costlib import loading
from costlib.answers import costs as answers_costs
from costlib.answers.audit import dataset_models
from costlib.answers.prices import prices_answer
from costlib.binary import decision, elicit, robust
from costlib.binary.robust import VerdictSpan
from costlib.binary.robust import located as _located
from costlib.loading.samples import SAMPLES, sample_bytes

RESAMPLES = 1000  # the page's default
FLIP = re.compile(r"at a ratio of about ([\d.,]+) it goes from “([^”]+)” to “([^”]+)”")


@pytest.fixture(scope="module")
def compas():
    data = sample_bytes("compas")
    sample = SAMPLES["compas"]
    ds = loading.prepare(
        loading.read_table(data, sample.filename),
        sample.mapping,
        name=sample.title,
        fingerprint=loading.fingerprint(data),
    )
    return dataset_models(ds)


def _conversation(models, truth: float) -> list:
    """The page's verdict headline after each answer of someone whose miss costs `truth` alarms."""
    costs, bracket, said = (1.0, 3.0), elicit.Bracket(), []
    for _ in range(12):
        answer = prices_answer(models, costs, bracket, names=elicit.Bracket().names, resamples=RESAMPLES, money=1.0)
        said.append(answer.verdict.headline)
        if answer.question is None:
            return said
        n = answer.question[0]
        choice = elicit.SAME if abs(truth - n) / n < 0.05 else elicit.MISS if truth > n else elicit.ALARM
        bracket = elicit.answer(answer.bracket, n, choice)
    raise AssertionError(said)


def test_every_range_says_the_same_flip_and_costs_agrees(compas):
    said = [FLIP.findall(h) for h in _conversation(compas, 3.0)]
    flips = [f for f in said if f]
    assert len(flips) >= 2, said  # two ranges around the same two flips (questions 5 and 6)
    assert all(f == flips[0] for f in flips), flips
    (ship, *_), (dearest, below, above) = flips[0][0], flips[0][-1]
    assert (below, above) == ("not clearly better", "do not let the model decide")
    assert ship == "2.8"
    # Costs & groups at the prices the answers set: the model stays the cheapest up to the same ratio
    rec = decision.recommend(compas, (1.0, 3.0), n_resamples=0)
    sentence = answers_costs.sensitivity(
        compas, rec, answers_costs.price_maps(compas, rec), unit="$", break_even=None
    ).sentence
    assert f"and {dearest} times a false positive" in sentence, (dearest, sentence)


def test_a_flip_is_located_the_same_from_either_side():
    """`robust.located` moves a flip found to within 1% to where the verdict changes; another
    change within 2% leaves it as it was found."""
    at = lambda r: "a" if r <= 2.0 else "b"  # noqa: E731
    span = VerdictSpan(1.0, 4.0, ((1.0, 2.01, "a"), (2.01, 4.0, "b")))
    other = VerdictSpan(1.5, 3.0, ((1.5, 1.99, "a"), (1.99, 3.0, "b")))
    for s in (span, other):
        located = _located(s, at)
        assert (
            located.pieces[0][1] == pytest.approx(2.0, rel=robust.FLIP_EXACT)
            and located.pieces[1][0] == located.pieces[0][1]
        )
    # a verdict that changes back within 2% (the span saw one change): the flip is kept as found
    crowded = VerdictSpan(1.0, 4.0, ((1.0, 2.0, "a"), (2.0, 4.0, "b")))
    assert _located(crowded, lambda r: "b" if 1.99 < r < 2.03 else "a").pieces[0][1] == 2.0
