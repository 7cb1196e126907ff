"""The Value and Cost matrix pages on a split that is not train and test rows (`Dataset.purpose_rows`).

A split of test and validation rows (no train rows) fits on the validation rows: the Value page
says so, as Costs & groups does (`words.fitted_rows`). A split without test rows fits and judges
on every row."""

from __future__ import annotations

import dataclasses
import io
import re

import pandas as pd
import pytest

from costlib.answers.value import value_answer
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from tests.answers import split_support

SAMPLE = split_support.SAMPLE
_frame, _dataset = split_support.screening_frame, split_support.screening_dataset


def _value(ds, **more):
    options = {"names": [""], "worth": 1.0, "reject_worth": 0.0, "unit": "$", "volume": 1000.0, **more}
    return value_answer(ds, {"": (1.0, 5.0)}, **options)


def _said(verdict) -> str:
    return " ".join([verdict.headline, *verdict.details, *verdict.asides])


FITTED_ON = r"The thresholds? (is|are) fitted on the {rows} rows and judged on the 3,200 test rows\."


@pytest.mark.parametrize("cap", [None, 50.0])
def test_value_says_the_validation_rows_fitted_where_there_are_no_train_rows(no_train_rows, cap):
    """The Value answer said "The threshold is fitted on the train rows" of the validation rows."""
    answer = _value(_dataset(no_train_rows), cap=cap)
    said = _said(answer.verdict) + " " + (answer.limit_note or "")
    assert answer.rec.fit_role == "validation"
    if cap is not None:
        assert answer.rec.capacity.unlimited.fit_role == "validation"
    # one threshold at k (under a limit), one per answer at the two prices (`value.per_outcome`)
    assert re.search(FITTED_ON.format(rows="validation"), said)
    assert "train rows" not in said


def test_value_with_train_rows_still_says_train(no_train_rows):
    answer = _value(_dataset(_frame()))
    assert answer.rec.fit_role == "train"
    assert re.search(FITTED_ON.format(rows="train"), _said(answer.verdict))


def test_value_note_without_test_rows_does_not_say_the_data_has_no_split(no_test_rows):
    """Value hides its calibration table without test rows, and its note said "This data has no split"."""
    from costlib.present import value_words as vw

    answer, plain = _value(_dataset(no_test_rows)), _value(_dataset(no_test_rows, split=False))
    assert not answer.calibrates and not plain.calibrates
    assert answer.no_validation_note == vw.NO_TEST_ROWS_NOTE
    assert "no split" not in answer.no_validation_note and "no test rows" in answer.no_validation_note
    assert plain.no_validation_note == vw.NO_VALIDATION_NOTE
    only_test = _frame().assign(split="test")
    assert _value(_dataset(only_test)).no_validation_note == vw.ONLY_TEST_ROWS_NOTE


def _tickets(*, test_rows: bool, split: bool = True):
    mapping = SAMPLES["tickets"].mapping
    df = pd.read_csv(io.BytesIO(sample_bytes("tickets")))  # validation 1,501 and test 1,499 rows
    if not test_rows:
        df = df.assign(split=df["split"].replace({"test": "train"}))
    mapping = dataclasses.replace(mapping, split="split" if split else None)
    return prepare(df, mapping, name=SAMPLES["tickets"].filename, fingerprint="f")


def _matrix(ds):
    from costlib.answers.matrix import default_matrix, matrix_answer

    c = default_matrix(ds.class_names)
    return matrix_answer(ds, c, 0.3, handover_price=0.3, unit="$", volume=1000)


def test_matrix_without_test_rows_picks_and_judges_on_every_row_and_says_so():
    """Without test rows the choice without a model was picked on the validation rows and judged on
    every row, validation rows included; now it is the answer of the file without a split, as the
    Calibration page's temperature is (`calibration.temperature_rows`)."""
    answer, plain = _matrix(_tickets(test_rows=False)), _matrix(_tickets(test_rows=False, split=False))
    assert (answer.rec.baseline, answer.rec.baseline_cost, answer.rec.cost) == (
        plain.rec.baseline,
        plain.rec.baseline_cost,
        plain.rec.cost,
    )
    assert answer.verdict == plain.verdict
    rows = answer.verdict.details[-1]
    assert rows.startswith("This data has no test rows, so all its 3,000 rows are judged")
    assert "is picked on them too" in rows and "validation rows" not in rows


def test_matrix_with_test_rows_picks_on_the_validation_rows_as_before():
    rows = _matrix(_tickets(test_rows=True)).verdict.details[-1]
    assert rows.startswith(
        "Judged on the 1,499 test rows of the 3,000: the choice without a model is picked on the 1,501 validation rows"
    )


def test_value_k_caption_names_the_rows_that_fitted(no_train_rows, no_test_rows):
    """The caption of worth against k said "fitted on train when there is a split" of any data."""
    assert "fitted on the validation rows)" in _value(_dataset(no_train_rows)).k_caption
    assert "fitted on the train rows)" in _value(_dataset(_frame())).k_caption
    assert "picked on the very rows drawn)" in _value(_dataset(no_test_rows)).k_caption
