"""Amounts beside money are in money (review 3): Instance costs' histogram ran "-2 to 2" in delta's own
units on a page of dollars, and Train with costs' "price error" read 0.4525 beside a cost per case in $."""

import io

import numpy as np
import pandas as pd
import pytest

from costlib import answers
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.training.data import tweets_precomputed, tweets_sample


@pytest.fixture(scope="module")
def instance_answer():
    s = SAMPLES["offensive"]
    ds = prepare(pd.read_csv(io.BytesIO(sample_bytes("offensive"))), s.mapping, name=s.filename, fingerprint="o")
    return answers.instance_answer(ds)


def test_the_histogram_of_cases_is_in_the_pages_money(instance_answer):
    a = instance_answer
    fig = a.delta_figure(2.0, "$")
    assert fig.layout.xaxis.title.text == "cost of a mistake on the case ($)"
    x = np.concatenate([np.asarray(t.x, float) for t in fig.data])  # negative cases, then positive (review 71)
    # a mistake on a case costs the price times its |delta| over a typical case's (the terms' reading)
    d = np.concatenate([a.delta[a.delta <= 0], a.delta[a.delta > 0]])
    np.testing.assert_allclose(x, 2.0 * np.abs(d) / np.mean(np.abs(a.delta)))
    assert np.mean(np.abs(x)) == pytest.approx(2.0)  # a typical case's mistake costs the price


def test_the_price_error_is_in_the_pages_money():
    pre = tweets_precomputed()
    assert pre is not None, "the shipped precomputed result must match the shipped tweets sample"
    typical = tweets_sample().typical  # mean |delta| of the rows priced above 0
    a = answers.training_answer(
        pre.results, pre.predictability["r2"], methods=tuple(pre.settings["methods"]), price=2.0, unit="$",
        typical=typical,
    )  # fmt: skip
    table = a.summary_table.set_index(a.summary_table.columns[0])
    mae = pre.results.loc[pre.results["method"] == "regression", "delta_mae"].mean()
    assert table.loc["price regression", "price error"] == f"${2.0 * mae / typical:.3f}"  # $0.690, was 0.4525
    every = a.results_table
    assert every.loc[every.iloc[:, 0] == "price regression", "price error"].str.startswith("$").all()
