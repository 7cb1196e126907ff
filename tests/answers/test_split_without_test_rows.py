"""A split column without test rows does not judge cutoffs on the rows that fitted them.

A file whose split holds train and validation rows but no test rows used to fit its cutoffs on
the train rows and judge them on every row, train rows included, as if they were held out: a
flattering answer. Now it fits and judges on every row and cross-fits, so its answer is the one
the same file gets with its split column left out, on the Costs & groups page (unweighted and
weighted rows), the Value page and the Instance page; and the Data page says so. A split with test rows but no
train rows fits on its other rows (the validation rows) and judges on the test rows: the answer
the same file gets when those rows are called train rows."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import pandas as pd
import pytest

from costlib.answers.audit import dataset_models
from costlib.answers.costs import costs_answer
from costlib.answers.data import loaded_answer
from costlib.answers.instance import instance_answer
from costlib.answers.value import value_answer
from costlib.binary import decision
from costlib.binary import honest as H
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present.split_words import NO_TEST_ROWS, NO_TRAIN_ROWS

SAMPLE = SAMPLES["screening"]  # train 3,200, validation 1,600, test 3,200 rows; two groups


def _frame() -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(sample_bytes("screening")))


def _dataset(df: pd.DataFrame, *, split: bool = True, weight: str | None = None):
    mapping = dataclasses.replace(SAMPLE.mapping, split="split" if split else None, weight=weight)
    return prepare(df, mapping, name=SAMPLE.filename, fingerprint="f")


@pytest.fixture(scope="module")
def no_test_rows():
    """The sample with its test rows called validation rows: train and validation rows only."""
    df = _frame()
    return df.assign(split=df["split"].replace({"test": "validation"}))


def _same(a, b) -> None:
    """Two recommendations give the same answer, to the cutoffs and the interval."""
    assert (a.model, a.rule, a.status, a.judged_on, a.estimate) == (b.model, b.rule, b.status, b.judged_on, b.estimate)
    assert a.cutoffs == b.cutoffs and (a.n_fit, a.n_judged) == (b.n_fit, b.n_judged)
    got = np.array([a.cost, a.saving, a.saving_low, a.saving_high])
    want = np.array([b.cost, b.saving, b.saving_low, b.saving_high])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)


def _costs(models) -> dict:
    return {g: (1.0, 4.0) for g in next(iter(models.values())).groups}


def test_costs_are_cross_fitted_as_without_the_split(no_test_rows):
    split_ds, plain_ds = _dataset(no_test_rows), _dataset(no_test_rows, split=False)
    models, plain = dataset_models(split_ds), dataset_models(plain_ds)
    costs = _costs(models)
    answer = costs_answer(models, costs, resamples=200, unit="$", volume=1000)
    rec = answer.rec
    assert rec.judged_on == "all" and rec.estimate == H.CROSS_FITTED
    assert rec.n_fit == rec.n_judged == len(no_test_rows)
    same = costs_answer(plain, costs, resamples=200, unit="$", volume=1000)
    _same(rec, same.rec)
    assert answer.verdict.headline == same.verdict.headline
    assert rec.summary()["judged_on"] == "all"
    # the data has a split column, so the details must not say it has none
    assert not any("no train/test split" in d for d in answer.verdict.details)
    assert any("No rows are set aside for testing" in d for d in answer.verdict.details)


def test_weighted_rows_get_the_cross_fitted_interval_as_without_the_split(no_test_rows):
    """Weighted rows judged beside the rows that fitted them got no interval at all (and so never
    shipped); now they are cross-fitted, with the interval the file without a split gets."""
    w = np.random.default_rng(0).integers(1, 4, len(no_test_rows)).astype(float)
    df = no_test_rows.assign(w=w)
    models = dataset_models(_dataset(df, weight="w"))
    plain = dataset_models(_dataset(df, split=False, weight="w"))
    costs = _costs(models)
    rec = decision.recommend(models, costs, n_resamples=200)
    assert rec.weighted and rec.intervals and np.isfinite([rec.saving_low, rec.saving_high]).all()
    assert rec.estimate == H.CROSS_FITTED
    _same(rec, decision.recommend(plain, costs, n_resamples=200))


def test_value_is_cross_fitted_as_without_the_split(no_test_rows):
    names, costs = [""], {"": (1.0, 5.0)}
    options = {"names": names, "worth": 1.0, "reject_worth": 0.0, "unit": "$", "volume": 1000.0}
    split_ds, plain_ds = _dataset(no_test_rows), _dataset(no_test_rows, split=False)
    rec = value_answer(split_ds, costs, **options).rec
    want = value_answer(plain_ds, costs, **options).rec
    assert rec.judged_on == "all" and rec.estimate == "cross-fitted"
    assert (rec.model, rec.tau, rec.judged_on, rec.estimate) == (want.model, want.tau, want.judged_on, want.estimate)
    np.testing.assert_allclose([rec.gain, rec.gain_low, rec.gain_high], [want.gain, want.gain_low, want.gain_high])


def test_instance_costs_are_cross_fitted_as_without_the_split():
    """The votes sample (instance costs) with its test rows called validation rows."""
    sample = SAMPLES["offensive"]
    df = pd.read_csv(io.BytesIO(sample_bytes("offensive")))
    df = df.assign(split=df["split"].replace({"test": "validation"}))
    rec = instance_answer(prepare(df, sample.mapping, name="o", fingerprint="o")).rec
    plain = dataclasses.replace(sample.mapping, split=None)
    want = instance_answer(prepare(df, plain, name="o", fingerprint="o")).rec
    assert rec.judged_on == "all" and rec.estimate == "cross-fitted"
    assert (rec.model, rec.threshold, rec.estimate) == (want.model, want.threshold, want.estimate)
    np.testing.assert_allclose(
        [rec.saving, rec.saving_low, rec.saving_high], [want.saving, want.saving_low, want.saving_high]
    )


def test_the_data_page_says_there_are_no_test_rows(no_test_rows):
    shown = loaded_answer(_dataset(no_test_rows)).split_sentence
    assert shown == f"Rows per split: train 3,200, validation 4,800. {NO_TEST_ROWS}"
    usual = loaded_answer(_dataset(_frame())).split_sentence
    assert usual == "Rows per split: train 3,200, validation 1,600, test 3,200"


def test_without_train_rows_the_validation_rows_fit_and_the_test_rows_judge():
    """Test and validation rows only: fitted on the validation rows (never on the test rows they
    are judged on), the answer of the file that calls its validation rows train rows."""
    df = _frame().query("split != 'train'")
    models = dataset_models(_dataset(df))
    renamed = dataset_models(_dataset(df.assign(split=df["split"].replace({"validation": "train"}))))
    costs = _costs(models)
    rec = decision.recommend(models, costs, n_resamples=200)
    assert rec.judged_on == "test" and (rec.n_fit, rec.n_judged) == (1600, 3200)
    _same(rec, decision.recommend(renamed, costs, n_resamples=200))
    assert loaded_answer(_dataset(df)).split_sentence.endswith(NO_TRAIN_ROWS)
