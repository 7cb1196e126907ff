"""A price column read beside a label column (review 140): a product manager's price column is all
positive, and its sign used to replace every label ("400 of the 400 cases are positive" on the
Instance costs page while the Data page said 205). An unsigned price is each case's size of a
mistake, the label the label column's; a signed one must agree with the label, or is refused."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib import loading
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading.guessing import guess_mapping

MAPPING = ColumnMapping(label="label", scores=("score",), delta="price")


def frame(price) -> pd.DataFrame:
    label = np.array([0, 1, 1, 0, 1, 0, 1, 0])
    return pd.DataFrame({"label": label, "score": np.linspace(0.1, 0.9, 8), "price": price})


def test_an_all_positive_price_column_is_each_cases_size_and_the_label_stays_the_label_columns():
    price = np.array([0.5, 3.0, 1.0, 2.0, 4.0, 0.25, 1.5, 0.75])
    ds = loading.prepare(frame(price), MAPPING, name="prices.csv", fingerprint="")
    np.testing.assert_array_equal(np.abs(ds.delta), price)
    np.testing.assert_array_equal(ds.delta > 0, ds.y == 1)  # before: every delta > 0, every case positive
    assert int((ds.delta > 0).sum()) == int(ds.y.sum()) == 4


def test_the_positive_class_chosen_is_the_one_the_price_is_signed_by():
    price = np.array([0.5, 3.0, 1.0, 2.0, 4.0, 0.25, 1.5, 0.75])
    df = frame(price).assign(label=lambda f: f["label"].map({0: "stay", 1: "churn"}))
    ds = loading.prepare(
        df,
        ColumnMapping(label="label", positive="stay", scores=("score",), delta="price"),
        name="p.csv",
        fingerprint="",
    )
    np.testing.assert_array_equal(ds.delta > 0, df["label"].to_numpy() == "stay")


def test_a_signed_price_column_that_agrees_with_the_label_is_read_as_it_is():
    price = np.array([-0.5, 3.0, 1.0, -2.0, 4.0, -0.25, 1.5, -0.75])
    ds = loading.prepare(frame(price), MAPPING, name="prices.csv", fingerprint="")
    np.testing.assert_array_equal(ds.delta, price)


def test_a_signed_price_column_that_disagrees_with_the_label_is_refused_naming_its_rows():
    price = np.array([-0.5, 3.0, -1.0, -2.0, 4.0, 0.25, 1.5, -0.75])  # rows 4 and 7 of the file disagree
    with pytest.raises(DataError) as info:
        loading.prepare(frame(price), MAPPING, name="prices.csv", fingerprint="")
    said = info.value.message
    assert said.startswith('In "prices.csv", column "price" has prices below 0'), said
    assert 'in 2 rows that sign disagrees with the label in column "label"' in said, said
    assert 'rows 4 and 7 ("-1", "0.25")' in said, said
    assert info.value.column == "price"


def test_without_a_label_column_the_sign_is_still_the_label():
    price = np.array([-0.5, 3.0, -1.0, -2.0, 4.0, 0.25, 1.5, -0.75])
    ds = loading.prepare(frame(price), ColumnMapping(scores=("score",), delta="price"), name="p.csv", fingerprint="")
    np.testing.assert_array_equal(ds.delta, price)


@pytest.mark.parametrize("name", ["price", "Price", "COST", "amount"])
def test_a_column_named_like_a_price_is_guessed_as_the_price_beside_a_label(name):
    df = frame(np.arange(1.0, 9.0)).rename(columns={"price": name})
    assert guess_mapping(df).delta == name


def test_a_price_is_not_guessed_without_a_label_nor_over_a_delta_column():
    alone = frame(np.arange(1.0, 9.0)).drop(columns="label")
    assert guess_mapping(alone).delta is None  # its sign would be every case's label: all positive
    both = frame(np.arange(1.0, 9.0)).assign(delta=lambda f: np.where(f["label"] == 1, 0.5, -0.5))
    assert guess_mapping(both).delta == "delta"


def test_votes_whose_majority_disagrees_with_the_label_are_refused_not_read_as_the_label():
    df = frame(np.ones(8)).assign(n_yes=[0, 3, 0, 2, 4, 0, 1, 0], n_no=[3, 0, 2, 0, 0, 2, 1, 3])  # rows 4 and 5
    mapping = ColumnMapping(label="label", scores=("score",), votes_yes="n_yes", votes_no="n_no")
    with pytest.raises(DataError) as info:
        loading.prepare(df, mapping, name="votes.csv", fingerprint="")
    said = info.value.message
    assert said.startswith('In "votes.csv", the class each case gets from the votes "n_yes" and "n_no" disagrees'), said
    assert 'with the label in column "label" in 2 rows (more yes votes than no where' in said, said
    assert 'or more no votes than yes where it is "1"): rows 4 and 5.' in said, said
    agreeing = df.assign(n_yes=[0, 3, 2, 0, 4, 0, 1, 0], n_no=[3, 0, 0, 2, 0, 2, 1, 3])  # a tie (row 8) costs nothing
    ds = loading.prepare(agreeing, mapping, name="votes.csv", fingerprint="")
    assert ((ds.delta > 0) == (ds.y == 1))[ds.delta != 0].all()


def test_a_margin_whose_signs_are_not_the_labels_is_not_guessed_as_the_price():
    rng = np.random.default_rng(9)
    df = pd.DataFrame({"label": rng.integers(0, 2, 100), "margin": rng.normal(0, 3, 100).round(3)})
    assert guess_mapping(df).delta is None  # the loader would refuse it: a score, most likely
    signed = df.assign(margin=np.where(df["label"] == 1, 1.0, -1.0) * df["margin"].abs())
    assert guess_mapping(signed).delta == "margin"
