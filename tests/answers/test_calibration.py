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
    want = reliability(fit, bins=bins, chance=chance, choice=choice, worth=2.0, unit="$", groups=groups)
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
    want = reliability(fit, bins=12, chance=chance, choice=choice, worth=2.0, unit="EUR", groups=group_section(fit, 12))
    _same(answer.at(12), want)
    assert "k = 4" in answer.at(12).caption and "mean weighted by each group" in answer.at(12).caption


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
    made = ["judged_cases", "calibration_fit", *["ece_by_chance", "group_calibration"] * 2]
    assert store.made == made  # each group's bootstrap once per bins
    assert again.verdict.headline == first.verdict.headline
    other = _answer(screening, MODEL, names, costs, unit="minutes", remember=store)
    other.at(10)
    priced = _answer(screening, MODEL, names, {"": (2.0, 2.0)}, remember=store)
    priced.at(15)
    assert store.made == made
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
