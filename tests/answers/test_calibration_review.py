"""A product manager's review of the Calibration page (at $1 a false alarm, $3 a miss, a right
answer worth $1, 10,000 cases a month): it checked a model other than the one shipped, drew
"keep the probabilities" in an alarm's red, read a cutoff and money other than Costs & groups'
without saying so, and on data without a split spoke of test cases there were none of."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from costlib.answers.audit import dataset_models
from costlib.answers.calibration import calibration_answer
from costlib.core.dataset import ColumnMapping
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present import calibration_group_words as gw
from costlib.present import calibration_money as cm
from costlib.present import calibration_words as cw

PRICES = (1.0, 3.0)  # a false alarm, a miss: k = (1 + 3) / 2 = 2 right answers, the Value cutoff 2/3


def _ds(key: str, mapping=None):
    s = SAMPLES[key]
    return prepare(pd.read_csv(io.BytesIO(sample_bytes(key))), mapping or s.mapping, name=s.filename, fingerprint=key)


def _names(ds) -> list:
    return sorted({str(g) for g in ds.groups}) if ds.groups is not None else [""]


def _answer(ds, model: str, **kw):
    names = _names(ds)
    costs = {g: PRICES for g in names}
    return calibration_answer(ds, model, names=names, costs=costs, unit="$", volume=10_000.0, **kw)


@pytest.fixture(scope="module")
def screening():
    return _ds("screening")


@pytest.fixture(scope="module")
def compas():
    return _ds("compas")


def test_the_model_checked_first_is_the_one_costs_and_groups_picks(screening, compas):
    """Review 1: the page opened on score_calibrated while Costs & groups and Value both ship
    score_overconfident at these prices."""
    from costlib.answers.calibration import costs_pick

    costs = {g: PRICES for g in _names(screening)}
    assert costs_pick(dataset_models(screening), costs, resamples=200).model == "score_overconfident"
    one = costs_pick(dataset_models(compas), {g: PRICES for g in _names(compas)}, resamples=200)  # one model:
    assert one.model == "p_recid"  # its verdict on shipping it, which the answer agrees with; nothing picked among
    pick = costs_pick(dataset_models(screening), costs, resamples=200)  # it ships at these prices (review 71)
    first = _answer(screening, "score_overconfident", pick=pick).picked
    assert first == cw.PICKED_FIRST.format(model="score_overconfident") and "Costs & groups judges cheapest" in first
    other = _answer(screening, "score_calibrated", pick=pick).picked
    assert "Costs & groups judges score_overconfident cheapest" in other and other.startswith(
        "Checked: score_calibrated."
    )
    assert _answer(compas, "p_recid").picked is None
    assert _answer(compas, "p_recid", pick=one).picked is None  # no "judged cheapest" among one model


def test_keeping_the_probabilities_is_not_drawn_as_an_alarm(compas):
    """Review 2: "Do not rescale: keep p_recid's probabilities as they are" was red, the colour
    of "do not let the model decide" elsewhere."""
    verdict = _answer(compas, "p_recid").at(10).verdict
    assert verdict.headline.startswith(cw.DO_NOT_RESCALE + ": keep p_recid's probabilities as they are")
    assert verdict.kind in ("success", "info"), verdict.kind


@pytest.mark.parametrize(("advice", "kind"), [("keep", "success"), ("not helping", "info"), ("cannot fix", "warning")])
def test_the_colour_of_keeping_follows_what_the_probabilities_are(advice, kind):
    why = cw.calibration_verdict("m", advice, 1.2, "validation", 0.05, 0.06, 0.03)
    v = cw.rescale_verdict("m", why, advice, before=0.1, after=0.09, low=-0.02, high=-0.005, fit_on="validation")
    assert v.headline.startswith(cw.DO_NOT_RESCALE) and v.kind == kind


def test_the_page_says_up_front_which_cutoff_and_money_it_reads(compas):
    """Review 3: Costs at $1/$3 reads a cost at the cutoff 0.25; this page a worth at the Value
    page's 0.667. Said near the top in plain words, and the answer names its cutoff."""
    answer = _answer(compas, "p_recid")
    assert "at least 0.6666 confident" in answer.money and "0.25 from your prices alone" in answer.money
    assert answer.money.startswith("At your prices the model answers the cases it is at least 0.6666 confident of")
    assert "the threshold the Value page recommends is fitted on data instead, so it can differ" in answer.money
    assert answer.money.endswith(".")
    for term in ("τ*", "k/(k+1)", "ECE", "temperature"):
        assert term not in answer.money
    head = answer.at(10).verdict.headline
    assert "the confidence your prices ask for before the model answers (0.6666; each wrong answer at $2.00" in head
    # the first paragraph no longer promises that every cutoff from prices (Costs' too) is checked here
    assert "The cutoffs computed from your prices assume they do" not in cw.CALIBRATION_WHAT
    # nor that it checks the Value page's threshold: Value recommends one fitted on data (review 4)
    assert "the one the Value page uses" not in cw.CALIBRATION_WHAT
    assert "this page checks that confidence, not the threshold the Value page fits on data" in cw.CALIBRATION_WHAT
    # plain words first: the technical names are in the terms box under the answer
    for term in ("temperature", "log-odds", "judged rows", "T ="):
        assert term not in cw.CALIBRATION_WHAT
    said = answer.at(10).verdict
    assert any("Temperature scaling: T = " in x for x in said.asides) and cw.JUDGED_ROWS in said.asides
    assert not any("T = " in x or "log-odds" in x or "judged rows" in x for x in said.details)


def test_with_prices_per_group_or_a_moved_k_no_single_costs_cutoff_is_named(compas):
    names = _names(compas)
    costs = {g: (1.0 + i, 3.0) for i, g in enumerate(names)}
    per_group = calibration_answer(compas, "p_recid", names=names, costs=costs, unit="$")
    assert cm.COSTS_CUTOFFS in per_group.money and "from prices alone" not in per_group.money
    moved = calibration_answer(compas, "p_recid", names=names, costs={g: PRICES for g in names}, moved_k=4.0)
    assert "at least 0.8 confident" in moved.money and "from the k set on the Value page" in moved.money


def test_without_a_split_the_words_speak_of_the_rows_used_and_agree_with_the_numbers():
    """Review 4: without a split the group table said "test cases", its footnote "its own test
    cases", and "No verdict on rescaling" was followed by "at these prices that is not worth a
    decision" beside a gain of +$0.021 per case."""
    mapping = ColumnMapping(label="label", scores=("score_overconfident",), group="group")  # no split
    ds = _ds("screening", mapping)
    shown = _answer(ds, "score_overconfident").at(10)
    assert shown.verdict.headline.startswith("No verdict on rescaling")
    assert cw.OTHER_PRICES not in " ".join(shown.verdict.details)
    said = [
        shown.verdict.headline,
        *shown.verdict.details,
        shown.caption,
        shown.groups.sentence,
        shown.groups.method,
        *shown.groups.table.columns,
    ]
    assert not [x for x in said if "test" in x.lower()], said
    assert "cases" in shown.groups.table.columns


def test_with_test_rows_the_groups_still_say_test_cases(compas):
    groups = _answer(compas, "p_recid").at(10).groups
    assert gw.GROUP_TABLE["cases"] == "test cases" in groups.table.columns
    assert "its own test cases" in groups.method


def test_the_gain_a_month_reads_as_the_two_whole_months_it_is_the_difference_of(screening):
    """Review 4: '$4,512 a month' and '$4,584 a month', then '$71.88 a month' more. The worths read at the
    decimals the gain's interval warrants ('$0.451', '$0.458'), each month as that amount reads at 10,000
    cases (`amounts.month_figure`), and the gain a month still their difference: '$70', not '$72'."""
    head = _answer(screening, "score_overconfident").at(10).verdict.headline
    assert "$0.451 per case ($4,510 a month)" in head and "$0.458 per case ($4,580 a month)" in head, head
    assert "$0.007 per case ($70 a month) more" in head and "71.88" not in head, head
