"""The Calibration page's answer object: one call gives what the page showed with its functions
one by one (the k from the prices, the temperature, the warning, the reliability at a number of
bins), and moving the bins, the prices or the unit never fits the temperature or counts the
judged cases again."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from counting_memo import Store

from costlib.answers.calibration import (
    CalibrationAnswer,
    calibration_answer,
    calibration_fit,
    group_section,
    reliability,
    rescale_gain,
)
from costlib.answers.value_k import judged_cases, value_k
from costlib.core import settings
from costlib.core.dataset import ColumnMapping
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present import calibration_words as cw
from costlib.present.labels import NO_SPLIT_TO_CALIBRATE

MODEL = "score_overconfident"


def _sample(key: str, mapping=None):
    s = SAMPLES[key]
    df = pd.read_csv(io.BytesIO(sample_bytes(key)))
    return prepare(df, mapping or s.mapping, name=s.filename, fingerprint=key)


@pytest.fixture(scope="module")
def screening():
    return _sample("screening")


@pytest.fixture(scope="module")
def compas():
    return _sample("compas")


def _answer(ds, model, names, costs, **kw) -> CalibrationAnswer:
    options = {"worth": 2.0, "moved_k": None, "unit": "$"} | kw
    return calibration_answer(ds, model, names=names, costs=costs, **options)


def _same(got, want):
    assert got.verdict.headline == want.verdict.headline and got.verdict.details == want.verdict.details
    assert got.metrics == want.metrics
    assert got.figure.to_dict() == want.figure.to_dict()
    pd.testing.assert_frame_equal(got.table, want.table)
    assert got.caption == want.caption and got.note == want.note
    assert (got.groups is None) == (want.groups is None)
    if got.groups is not None:
        assert got.groups.sentence == want.groups.sentence and got.groups.method == want.groups.method
        pd.testing.assert_frame_equal(got.groups.table, want.groups.table)
        assert got.groups.figure.to_dict() == want.groups.figure.to_dict()


@pytest.mark.parametrize("bins", [5, 10, 23])
def test_the_answer_is_what_the_page_said_with_the_functions_one_by_one(screening, bins):
    names, costs = [""], {"": (1.0, 5.0)}
    answer = _answer(screening, MODEL, names, costs)
    choice = value_k(costs, judged_cases(screening, names), 2.0, None, settings.K.high)
    assert answer.choice == choice and answer.choice.k == pytest.approx(1.5)  # (1 + 5) / 2 = 3 over a worth of 2
    fit = calibration_fit(screening, MODEL)
    assert answer.fit.t == fit.t and answer.fit.fit_on == fit.fit_on == "validation"
    assert answer.warning is None
    chance = fit.binned.ece_by_chance(bins)
    groups = group_section(fit, bins)
    gain = rescale_gain(fit, choice.k)
    want = reliability(fit, bins=bins, chance=chance, choice=choice, worth=2.0, unit="$", groups=groups, gain=gain)
    _same(answer.at(bins), want)


def test_per_group_prices_and_a_moved_k_are_read_as_the_value_page_reads_them(compas):
    names = sorted({str(g) for g in compas.groups})
    costs = {g: (1.0 + i, 2.0) for i, g in enumerate(names)}
    model = next(iter(compas.scores))
    answer = _answer(compas, model, names, costs, moved_k=4.0, unit="EUR")
    choice = value_k(costs, judged_cases(compas, names), 2.0, 4.0, settings.K.high)
    assert answer.choice == choice and choice.per_group and choice.moved
    fit = calibration_fit(compas, model)
    chance = fit.binned.ece_by_chance(12)
    want = reliability(
        fit,
        bins=12,
        chance=chance,
        choice=choice,
        worth=2.0,
        unit="EUR",
        groups=group_section(fit, 12),
        gain=rescale_gain(fit, choice.k),
    )
    _same(answer.at(12), want)
    assert (
        "each wrong answer at 8.00 EUR, from the k set on the Value page" in answer.at(12).caption
        and "mean weighted by each group" in answer.at(12).caption
    )


def test_without_a_split_the_answer_warns_that_the_temperature_flatters_itself():
    mapping = ColumnMapping(label="label", scores=(MODEL,))  # the split column left unmapped
    ds = _sample("screening", mapping)
    answer = _answer(ds, MODEL, [""], {"": (1.0, 1.0)})
    assert answer.fit.fit_on == "same" and answer.warning == NO_SPLIT_TO_CALIBRATE


def test_moving_the_bins_the_prices_or_the_unit_never_refits_or_recounts(screening):
    store = Store()
    names, costs = [""], {"": (1.0, 5.0)}
    answer = _answer(screening, MODEL, names, costs, remember=store)
    assert store.made == ["judged_cases", "calibration_fit"]  # nothing of the bins until asked
    first = answer.at(10)
    answer.at(15)
    again = answer.at(10)
    made = ["judged_cases", "calibration_fit", "ece_by_chance", "group_calibration", "rescale_gain"]
    made += ["ece_by_chance", "group_calibration"]
    assert store.made == made  # each group's bootstrap once per bins, the gain's once per k
    assert again.verdict.headline == first.verdict.headline
    other = _answer(screening, MODEL, names, costs, unit="minutes", remember=store)
    other.at(10)
    priced = _answer(screening, MODEL, names, {"": (2.0, 2.0)}, remember=store)
    priced.at(15)
    assert store.made == [*made, "rescale_gain"]  # other prices, another k: the gain's interval again
    assert other.fit is answer.fit is priced.fit
    assert "minutes" in other.at(10).caption and "$" not in other.at(10).caption
    assert priced.choice.k != answer.choice.k
    np.testing.assert_allclose(priced.at(15).figure.data[1].x, answer.at(15).figure.data[1].x)


@pytest.mark.parametrize("bins", range(5, 31))
def test_the_ece_change_is_the_difference_of_the_two_numbers_shown(screening, bins):
    """ "0.0169" and "0.0194" change by "+0.0025" (not "+0.0024"), and a fall reads with the
    typographic minus, its arrow and colour set to match (Streamlit reads only an ASCII "-")."""
    tiles = {m["label"]: m for m in _answer(screening, "score_calibrated", [""], {"": (1.0, 3.0)}).at(bins).metrics}
    before, after = (float(tiles[label]["value"]) for label in (cw.ERROR_BEFORE, cw.ERROR_AFTER))
    change = tiles[cw.ERROR_AFTER].get("delta")
    if change is None:
        assert before == after
        return
    assert "-" not in change and float(change.replace("\u2212", "-")) == pytest.approx(after - before, abs=1e-9)
    falls = after < before
    assert change.startswith("\u2212") == falls
    assert tiles[cw.ERROR_AFTER]["delta_arrow"] == ("down" if falls else "up")
    assert tiles[cw.ERROR_AFTER]["delta_color"] == ("green" if falls else "red")


def test_the_answer_is_the_worth_rescaling_adds_with_its_interval_in_the_users_money(screening):
    """Review: "Calibration has no ship verdict": the page answered in calibration error only, its
    worth at the prices' cutoff in a caption below the chart. The answer now is the worth rescaling
    adds per case and a month, judged by the shared ship rule on its paired interval."""
    names, costs = [""], {"": (1.0, 5.0)}
    answer = _answer(screening, MODEL, names, costs, volume=1000.0)
    shown = answer.at(10)
    low, high = rescale_gain(answer.fit, answer.choice.k)
    y, p, p_cal = answer.fit.rows
    from costlib.value.contract import value_score

    gain = value_score(y, p_cal, k=answer.choice.k).value - value_score(y, p, k=answer.choice.k).value
    assert low <= gain <= high and low < high
    assert shown.verdict.headline.startswith(
        ("Ship the model with", "Not clearly better: keep", "Do not rescale: keep")
    )
    assert "per case ($" in shown.verdict.headline and "a month)" in shown.verdict.headline
    # the calibration error is the reason under the answer, without an order of its own that could contradict it
    assert shown.verdict.details[0].startswith(f"{MODEL}'s probabilities")
    assert not any(advice in " ".join(shown.verdict.details) for advice in (cw.ADVICE["rescale"], cw.ADVICE["keep"]))


def test_a_rescaling_fitted_on_the_rows_it_is_judged_on_gets_no_verdict():
    mapping = ColumnMapping(label="label", scores=(MODEL,))  # the split column left unmapped
    ds = _sample("screening", mapping)
    answer = _answer(ds, MODEL, [""], {"": (1.0, 1.0)})
    assert rescale_gain(answer.fit, answer.choice.k) == pytest.approx((np.nan, np.nan), nan_ok=True)
    v = answer.at(10).verdict
    assert v.kind == "info" and v.headline.startswith("No verdict on rescaling: it is fitted on the same cases")


@pytest.mark.parametrize(
    ("low", "head", "kind"),
    [
        (
            0.01,
            "Ship the model with its probabilities rescaled: at the confidence your prices ask for before the model "
            "answers, m is worth",
            "success",
        ),
        (-0.01, "Not clearly better: keep m's probabilities as they are, worth $0.100 per case ($100 a", "warning"),
    ],
)
def test_the_rescaling_verdict_is_the_shared_ship_rule_on_its_interval(low, head, kind):
    why = cw.calibration_verdict("m", "rescale", 1.5, "validation", 0.08, 0.02, 0.03)
    v = cw.rescale_verdict(
        "m", why, "rescale", before=0.1, after=0.13, low=low, high=0.05, fit_on="validation", unit="$", volume=1000
    )
    assert v.kind == kind and v.headline.startswith(head), v.headline
    assert "$0.030 per case ($30 a month) more" in v.headline  # as $130 and $100 read: whole
    assert "95% interval of the gain" in v.headline
    if kind == "warning":  # the more honest probabilities are said as what they are, not as a reason to rescale
        assert cw.OTHER_PRICES in v.details[0] and cw.ADVICE["rescale"] not in v.details[0]


def test_a_model_that_loses_either_way_is_said_so_first_under_the_answer():
    why = cw.calibration_verdict("m", "keep", 1.0, "validation", 0.01, 0.01, 0.03)
    v = cw.rescale_verdict(
        "m", why, "keep", before=-0.1, after=-0.1, low=0.0, high=0.0, fit_on="validation", unit="$", volume=1000
    )
    assert v.details[0] == cw.BELOW_HANDING_OVER.format(nothing="$0.00 per case ($0.00 a month)")


def test_the_worth_table_reads_at_the_decimals_of_the_answer(screening):
    """The answer said '$0.4512 per case' and the table under it '$0.451 per case'."""
    shown = _answer(screening, MODEL, [""], {"": (1.0, 2.0)}, worth=1.0, volume=10_000.0).at(10)
    for cell in shown.table.iloc[:, 1]:
        assert cell in shown.verdict.headline, (cell, shown.verdict.headline)
