"""The Value page's answer as a first-time product-manager review read it on COMPAS (review 61;
prices: a false positive $1, a false negative $3; 10,000 cases a month):

1. a limit of 200 hand-overs a month recommended letting the model answer every case (−$0.284 a
   case, "the reject option adds nothing") while handing 200 cases over at random, the choice it was
   judged against and marked on the chart, was worth more (−$0.278): the limit, not the model, is
   why no threshold is used, and the answer keeps the better choice;
2. a limit of 1,000 said a plain "Ship the model" over a worth of −$0.2052 a case, and compared it
   with the formula threshold that breaks the limit;
3. the prices the page used without the person setting them were not said, nor why Costs & groups
   can answer differently when the two mistakes' prices are lopsided;
4. the first lines used "reject option", τ and k/(k+1).
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from costlib import value
from costlib.answers.value import value_answer
from costlib.core import ship as S
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present.amounts import money, percent

COSTS = {"": (1.0, 3.0)}  # k = (1 + 3) / 2 = 2 from the prices
VOLUME = 10_000.0
#: what a product manager reads first must not use these (they are said in the details and the help)
JARGON = ("reject option", "τ", "k/(k+1)", "k =", "formula")


@pytest.fixture(scope="module")
def compas():
    s = SAMPLES["compas"]
    return prepare(pd.read_csv(io.BytesIO(sample_bytes("compas"))), s.mapping, name=s.filename, fingerprint="c")


@pytest.fixture(scope="module")
def screening_no_split():
    """The screening sample without its split: thresholds picked and judged (cross-fitted) on all rows."""
    import dataclasses

    s = SAMPLES["screening"]
    mapping = dataclasses.replace(s.mapping, split=None)
    return prepare(pd.read_csv(io.BytesIO(sample_bytes("screening"))), mapping, name=s.filename, fingerprint="n")


def _answer(ds, *, cap=None, k=None, worth=1.0, reject_worth=0.0, costs=COSTS):
    return value_answer(
        ds,
        costs,
        names=[""],
        worth=worth,
        reject_worth=reject_worth,
        moved_k=k,
        cap=cap,
        unit="$",
        volume=VOLUME,
    )


def test_a_limit_too_small_for_any_threshold_keeps_handing_over_at_random_and_says_the_limit_is_why(compas):
    answer = _answer(compas, cap=200, k=2.75)
    rec = answer.rec
    assert rec.baseline == value.HAND_AT_RANDOM and rec.capacity.binding
    # the threshold fitted within the limit answers every case, worth less than the baseline
    assert rec.status == S.ADDS_NOTHING and rec.value < rec.baseline_value
    assert rec.kept == (value.HAND_AT_RANDOM, rec.baseline_value)
    head = answer.verdict.headline
    assert "let the model answer every case" not in head
    assert "adds nothing" not in head
    assert f"handing 200 cases a month ({percent(0.02, 0)}) to a person at random" in head
    assert money(rec.baseline_value, "$") + " per case" in head and money(rec.value, "$") not in head
    # the unlimited answer uses a threshold: the limit is the reason, with what it would hand over
    free = rec.capacity.unlimited.tau
    assert np.isfinite(free) and "The limit is why" in head
    assert f"would hand over {rec.capacity.unlimited_fit_reject_rate * VOLUME:,.0f} cases a month" in head
    # the numbers under it are that choice's, and the limit's note says the same
    tiles = {m["label"]: m["value"] for m in answer.metrics}
    assert tiles["Worth per case, random hand-overs"] == money(rec.baseline_value, "$")
    assert tiles["Handed to a person"] == "2%"
    assert tiles["Worth a month"] == "−$2,783"  # −0.27833 a case times 10,000
    assert "let the model answer every case" not in answer.limit_note
    assert "handing 200 cases to a person at random" in answer.limit_note


@pytest.mark.parametrize("cap", [0, 50, 200, 400, 700, 1000, 2000, 5000, 9000])
@pytest.mark.parametrize("data", ["compas", "screening_no_split"])
def test_under_a_limit_the_answer_is_never_worth_less_than_the_choice_it_is_judged_against(request, data, cap):
    """Also without a split, where the worth of a threshold is cross-fitted: when the one fitted
    answers every case (the choice without a model), its worth is that choice's, not the estimate
    of the thresholds the folds picked (at k = 0.5 on screening, 0.70986 against 0.70990)."""
    ds = request.getfixturevalue(data)
    for k in (0.5, 1.0, 2.0, 2.75, 5.0):
        rec = _answer(ds, cap=cap, k=k).rec
        worth = rec.value if rec.kept is None else rec.kept[1]  # of what the verdict says to do
        assert worth >= rec.baseline_value - 1e-12, (cap, k, rec.status, worth, rec.baseline_value)


def test_when_every_choice_loses_money_the_answer_says_so_and_leaves_out_thresholds_over_the_limit(compas):
    answer = _answer(compas, cap=1000, k=2.75)
    rec = answer.rec
    assert rec.status == S.SAVES and rec.value < 0 and rec.baseline_value < 0
    head = answer.verdict.headline
    assert head.startswith("Ship the model: every choice within the limit loses money, and this one loses least.")
    # the formula threshold hands over more than the limit on the train rows: not compared
    assert rec.capacity.formula_fit_reject_rate > rec.capacity.max_reject
    said = " ".join(answer.verdict.asides)
    assert "came out" not in said and "better" not in said
    assert "is not a choice here" in said and "more than the 1,000 people can take" in said
    # where the model earns money, nothing is said of losses
    assert "loses money" not in _answer(compas).verdict.headline


def test_the_formula_threshold_within_the_limit_is_still_compared(compas):
    """A limit the formula threshold keeps: its comparison stays (at k = 2 it hands over under half)."""
    answer = _answer(compas, cap=9000)
    c = answer.rec.capacity
    assert c.formula_fit_reject_rate <= c.max_reject
    assert "is not a choice here" not in " ".join(answer.verdict.asides)


def test_the_headline_names_the_prices_the_person_has_not_set(compas):
    head = _answer(compas).verdict.headline
    assert head.endswith(
        "This is with a right answer worth $1.00 and a case handed over worth $0.00, the defaults, which you have "
        "not changed."
    )
    head = _answer(compas, reject_worth=0.25).verdict.headline
    assert head.endswith("This is with a right answer worth $1.00, the default, which you have not changed.")
    assert "which you have not changed" not in _answer(compas, worth=2.0, reject_worth=0.5).verdict.headline


@pytest.mark.parametrize(
    ("costs", "lopsided"),
    [({"": (1.0, 3.0)}, True), ({"": (2.0, 1.0)}, True), ({"": (1.0, 1.5)}, False), ({"": (3.0, 2.0)}, False)],
)
def test_lopsided_prices_say_in_the_details_that_costs_and_groups_can_answer_differently(compas, costs, lopsided):
    """With the slider moved the answer prices every wrong answer alike (at k), and says so when the
    prices are lopsided; left at the prices, two prices that differ are each priced on their own."""
    answer = _answer(compas, costs=costs, k=2.0)
    said = " ".join(answer.verdict.details)
    assert ("Costs & groups prices each mistake on its own" in said) == lopsided
    if lopsided:
        assert "so for the same data it can answer differently" in said
        assert "Costs & groups" not in answer.verdict.headline  # a detail, not the answer
    said = " ".join(_answer(compas, costs=costs).verdict.details)
    assert "Costs & groups prices each mistake on its own" not in said
    assert "Each mistake is priced on its own" in said


@pytest.mark.parametrize(
    ("cap", "k"), [(None, None), (None, 0.5), (None, 20.0), (None, 2.75), (200, 2.75), (1000, 2.75), (400, 5.0)]
)
def test_what_a_product_manager_reads_first_is_in_plain_words(compas, cap, k):
    answer = _answer(compas, cap=cap, k=k)
    first = [answer.verdict.headline, *(m["label"] for m in answer.metrics)]
    said = [(term, x) for x in first for term in JARGON if term in x]
    assert not said, said


def test_every_choice_loses_money_only_when_no_models_threshold_makes_any():
    """A review found "every choice loses money, and this one loses least" where the model picked on
    the train rows lost on the test rows while the other model's threshold made money there: the
    claim read the picked model's thresholds only."""
    from costlib.present.value_verdict import value_verdict
    from costlib.value.contract import sweep_value
    from costlib.value.recommendation import recommend_value

    rng = np.random.default_rng(0)
    n = 2000

    def informative(y):  # confident and right on 30% of the rows, else about 0.5
        return np.where(rng.random(n) < 0.3, np.where(y == 1, 0.99, 0.01), rng.uniform(0.45, 0.55, n))

    y_fit, y_judged = rng.integers(0, 2, n), rng.integers(0, 2, n)
    fit = {"A": value.value_sweep(y_fit, informative(y_fit)), "B": value.value_sweep(y_fit, rng.uniform(0.45, 0.55, n))}
    judged = {
        "A": value.value_sweep(y_judged, rng.uniform(0.45, 0.55, n)),
        "B": value.value_sweep(y_judged, informative(y_judged)),
    }
    rec = recommend_value(judged, k=5.0, reject_value=-0.2, fit_sweeps=fit, n_resamples=50)
    assert rec.model == "A" and sweep_value(judged["B"], 5.0, -0.2).max() > 0  # B makes money on the judged rows
    assert rec.best_choice_value > 0
    assert "loses money" not in value_verdict(rec, k=5.0).headline


def test_the_aside_names_the_threshold_from_prices_with_the_worth_of_a_hand_over(compas):
    """With a case handed over worth r, the threshold from prices alone is (k + r)/(k + 1), as the
    chart at k marks it (`against_k.formula_threshold`); the aside worked out k/(k+1) itself and
    named 0.733 at k = 2.75 where the chart drew 0.8666 (r = 0.5 right answers)."""
    answer = _answer(compas, cap=1000, k=2.75, reject_worth=0.5)
    said = " ".join(answer.verdict.asides)
    assert answer.rec.formula_tau == (2.75 + 0.5) / (2.75 + 1)
    assert "The threshold from prices alone, 0.8666, is not a choice here" in said, said
