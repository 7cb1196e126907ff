"""A split that is not train and test rows, on every page that reads it (`Dataset.purpose_rows`).

A split of test and validation rows (no train rows) fits on the validation rows and judges on the
test rows, on the Value page as on Costs & groups: the answer the same file gets when its
validation rows are called train rows. A split without test rows holds nothing out to judge a
temperature on, so the Calibration page fits and judges it on every row and says so, as without
a split."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from costlib.answers.calibration import calibration_answer, calibration_rows, rescale_gain
from costlib.answers.value import value_answer
from costlib.answers.value_sections import calibrated_sweeps
from costlib.loading.preparing import prepare
from costlib.present import calibration_words as cw
from tests.answers import split_support

SAMPLE = split_support.SAMPLE
_frame, _dataset = split_support.screening_frame, split_support.screening_dataset


def _value(ds):
    options = {"names": [""], "worth": 1.0, "reject_worth": 0.0, "unit": "$", "volume": 1000.0}
    return value_answer(ds, {"": (1.0, 5.0)}, **options).rec


def test_value_fits_on_the_validation_rows_and_judges_on_the_test_rows(no_train_rows):
    """It cross-fitted on the test rows alone (the validation rows unread) while Costs & groups
    fitted on the validation rows and judged on the test rows."""
    rec = _value(_dataset(no_train_rows))
    renamed = no_train_rows.assign(split=no_train_rows["split"].replace({"validation": "train"}))
    want = _value(_dataset(renamed))
    assert (rec.judged_on, rec.estimate, rec.n_judged) == ("test", "test", 3200)
    assert (rec.model, rec.tau, rec.status) == (want.model, want.tau, want.status)
    np.testing.assert_allclose([rec.gain, rec.gain_low, rec.gain_high], [want.gain, want.gain_low, want.gain_high])


MODEL = "score_overconfident"


def _calibration(ds):
    return calibration_answer(ds, MODEL, names=[""], costs={"": (1.0, 5.0)}, worth=2.0, unit="$")


def test_without_test_rows_the_temperature_is_fitted_and_judged_on_every_row_and_said_so(no_test_rows):
    """Fitted on the validation rows and judged on every row, validation rows included, it had a
    held-out interval and a verdict; now it is the file without a split's temperature, with no
    interval, no verdict on rescaling and a warning that says why."""
    ds, plain = _dataset(no_test_rows), _dataset(no_test_rows, split=False)
    assert calibration_rows(ds) is None and calibration_rows(_dataset(_frame())) == "validation"
    answer, want = _calibration(ds), _calibration(plain)
    assert answer.fit.fit_on == "same" and answer.fit.t == want.fit.t
    assert answer.warning == cw.NO_TEST_ROWS_TO_CALIBRATE != want.warning
    assert np.isnan(rescale_gain(answer.fit, 4.0)).all()
    shown = answer.at(10).verdict
    cut = "both read on the cases the rescaling was fitted on. "  # the same answer, then each its own fix
    assert shown.headline.split(cut)[0] == want.at(10).verdict.headline.split(cut)[0]
    assert shown.headline.endswith(cw.TO_GET_VERDICT[cw.NO_TEST_ROWS_TO_CALIBRATE])
    assert shown.headline.startswith("No verdict on rescaling: it is fitted on the same cases it is checked on")
    assert cw.CHECKED_ON_SAME in shown.details and cw.CHECKED_ON not in shown.details
    cal = calibrated_sweeps(ds)  # the Value page's temperatures: the Calibration page's
    assert cal.rows == "same" and cal.temperatures[MODEL] == answer.fit.t


def test_a_split_of_test_rows_only_is_warned_as_such():
    """A review found it warned "No validation or train split … Map a split column" although a split
    column was mapped, all of its rows test rows."""
    df = _frame().assign(split="test")
    answer = _calibration(_dataset(df))
    assert answer.fit.fit_on == "same" and answer.warning == cw.ONLY_TEST_ROWS_TO_CALIBRATE


def test_with_test_rows_the_temperature_is_held_out_as_before(no_train_rows):
    answer = _calibration(_dataset(no_train_rows))
    assert answer.fit.fit_on == "validation" and answer.warning is None
    assert np.isfinite(rescale_gain(answer.fit, 4.0)).all()
    assert cw.CHECKED_ON in answer.at(10).verdict.details


def _costs_of(models) -> dict:
    return {g: (1.0, 4.0) for g in next(iter(models.values())).groups}


def _said(verdict) -> str:
    return " ".join([verdict.headline, *verdict.details, *verdict.asides])


@pytest.mark.parametrize("weighted", [False, True])
def test_costs_say_the_validation_rows_fitted_where_there_are_no_train_rows(no_train_rows, weighted):
    """The answer called the validation rows that fitted the cutoffs "the 1,600 train rows"."""
    from costlib.answers.audit import dataset_models
    from costlib.answers.costs import costs_answer
    from costlib.present import words

    df = no_train_rows.assign(w=np.random.default_rng(0).integers(1, 4, len(no_train_rows)).astype(float))
    mapping = dataclasses.replace(SAMPLE.mapping, weight="w" if weighted else None)
    models = dataset_models(prepare(df, mapping, name=SAMPLE.filename, fingerprint="f"))
    answer = costs_answer(models, _costs_of(models), resamples=50, unit="$", volume=1000)
    said = _said(answer.verdict)
    assert answer.rec.fit_role == "validation" and words.fitted_rows(answer.rec) == "the validation rows"
    rows = "validation rows (" if weighted else "1,600 validation rows and judged on the 3,200 test rows"
    assert f"Cutoffs are fitted on the {rows}" in said
    assert "train rows" not in said


def _record(df: pd.DataFrame) -> tuple[dict, tuple]:
    from costlib.answers.audit import dataset_models
    from costlib.answers.costs import audit_maker

    ds = _dataset(df)
    models = dataset_models(ds)
    audit = audit_maker(models, _costs_of(models), ds, n_resamples=20, criteria=())()
    return audit.summary(), tuple(audit.data_overall.index)


def test_the_audit_record_names_the_rows_it_fitted_and_judged(no_test_rows, no_train_rows):
    """A split without test rows was recorded as fitted on "train" and judged on "test" though
    every row was both (judged_on "all"); a split without train rows as fitted on "train"."""
    record, splits = _record(no_test_rows)
    assert record["judged_on"] == "all" and record["data"]["split"] == "split"
    assert (record["data"]["train"], record["data"]["test"], splits) == (None, None, ("all",))
    record, splits = _record(no_train_rows)
    assert record["judged_on"] == "test"
    assert (record["data"]["train"], record["data"]["test"], splits) == ("validation", "test", ("validation", "test"))
    record, splits = _record(_frame())
    assert (record["data"]["train"], record["data"]["test"], splits) == ("train", "test", ("train", "test"))


def test_the_report_says_the_rows_it_fitted_on(no_test_rows, no_train_rows):
    """The report's record read 'train rows: “None”, test rows: “None”' for a split without test
    rows, and its judged sentence called validation rows train rows."""
    from costlib.answers.audit import dataset_models
    from costlib.answers.costs import audit_maker
    from costlib.present.report import audit_html

    def html(df):
        ds = _dataset(df)
        models = dataset_models(ds)
        return audit_html(audit_maker(models, _costs_of(models), ds, n_resamples=20, criteria=())())

    said = html(no_test_rows)
    assert "“None”" not in said and "no test rows: every row is fitted and judged" in said
    said = html(no_train_rows)
    assert "fitted on the 1,600 validation rows" in said and "1,600 train rows" not in said
    assert "Each group on the validation rows and the test rows" in said and "training rows" not in said
