"""One rule for a price source's sign beside a label column (review 140, the review of 8381cfb,
99d299b and e54c6c0): the guess leaves out every source the loader would refuse beside the label
it guessed (a delta, a column named like a price, votes), both read the rule and the positive
class from one home (`price_signs`), the refusal for votes, a rating or a measurement says which
way each sign reads, and `costlib.loading.SUM_TOLERANCE` is the tolerance the loader reads."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib import loading
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading import classes, roles
from costlib.loading.guessing import guess_mapping
from costlib.loading.price_signs import label_classes, sign_disagreements

LABEL = np.array([0, 1, 1, 0, 1, 0, 1, 0])
YES_AGREE = [0, 3, 2, 0, 4, 0, 1, 0]  # a tie (row 8 of the file) costs nothing and agrees with any label
NO_AGREE = [3, 0, 0, 2, 0, 2, 1, 3]


def votes_file(yes, no) -> pd.DataFrame:
    return pd.DataFrame({"label": LABEL, "score": np.linspace(0.1, 0.9, 8), "n_yes": yes, "n_no": no})


def loads(df: pd.DataFrame) -> bool:
    try:
        loading.prepare(df, guess_mapping(df), name="guessed.csv", fingerprint="")
    except DataError:
        return False
    return True


def test_votes_at_odds_with_the_guessed_label_are_not_guessed_and_the_guess_loads():
    agreeing = votes_file(YES_AGREE, NO_AGREE)
    m = guess_mapping(agreeing)
    assert (m.label, m.votes_yes, m.votes_no) == ("label", "n_yes", "n_no")
    assert loads(agreeing)
    odds = votes_file([0, 3, 0, 2, 4, 0, 1, 0], [3, 0, 2, 0, 0, 2, 1, 3])  # rows 4 and 5 of the file disagree
    m = guess_mapping(odds)
    assert m.label == "label" and (m.votes_yes, m.votes_no) == (None, None), m
    assert loads(odds)  # before: refused, for votes the user never chose


@pytest.mark.parametrize("name", ["cost", "Amount", "price"])
def test_a_signed_column_named_like_a_price_at_odds_with_the_label_is_not_guessed(name):
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"label": rng.integers(0, 2, 60), "score": rng.uniform(0, 1, 60)})
    df[name] = rng.normal(0, 2, 60).round(2)  # signed, most signs at odds with the label
    m = guess_mapping(df)
    assert m.label == "label" and m.delta is None, m
    assert loads(df)
    signed = df.assign(**{name: np.where(df["label"] == 1, 1.0, -1.0) * df[name].abs()})
    assert guess_mapping(signed).delta == name and loads(signed)


def test_a_margin_left_out_leaves_room_for_a_price_column():
    rng = np.random.default_rng(5)
    label = rng.integers(0, 2, 50)
    df = pd.DataFrame({"label": label, "margin": rng.normal(0, 3, 50), "price": rng.uniform(1, 4, 50)})
    assert guess_mapping(df).delta == "price" and loads(df)


@pytest.mark.parametrize(
    "values, positive",
    [(["Yes", "no", "no", "Yes", ""], "yes"), (["1", "2", "2", "1", "1"], "2.0"), (["0", "1", "1", "", "0"], None)],
)
def test_the_guess_and_the_loader_read_the_positive_class_one_way(values, positive):
    label = pd.Series(values)
    ds = loading.prepare(
        pd.DataFrame({"label": label}),
        ColumnMapping(label="label", positive=positive),
        name="l.csv",
        fingerprint="",
        drop_missing_labels=True,
    )
    read = label_classes(label, positive)
    np.testing.assert_array_equal(read[read >= 0], ds.y)  # before: "yes" of Yes/no was not read at all
    assert (read < 0).sum() == label.eq("").sum()


def test_one_sign_rule_for_every_source_a_tie_and_an_unknown_label_agree():
    values = np.array([2.0, -1.0, 0.0, -3.0, 1.0, np.nan])
    y = np.array([0, 0, 1, 1, -1, 1])
    assert sign_disagreements(values, y).tolist() == [True, False, False, True, False, False]


def test_the_votes_refusal_says_which_way_the_votes_read():
    df = votes_file([0, 3, 0, 2, 4, 0, 1, 0], [3, 0, 2, 0, 0, 2, 1, 3])
    mapping = ColumnMapping(label="label", scores=("score",), votes_yes="n_yes", votes_no="n_no")
    with pytest.raises(DataError) as info:
        loading.prepare(df, mapping, name="votes.csv", fingerprint="")
    said = info.value.message
    reads = '(more yes votes than no where the label is "0", or more no votes than yes where it is "1"): rows 4 and 5.'
    assert reads in said, said


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("rating", {"rating_midpoint": 3}, '(a rating above 3 where the label is "0", or below 3 where it is "1")'),
        ("measurement", {"measurement_threshold": 3}, "(a measurement above 3 where the label is"),
    ],
)
def test_a_rating_or_measurement_refusal_says_which_way_it_reads(field, value, words):
    df = pd.DataFrame({"label": LABEL, "score": np.linspace(0.1, 0.9, 8), "r": [1, 5, 5, 4, 5, 1, 5, 1]})
    mapping = ColumnMapping(label="label", scores=("score",), **{field: "r"}, **value)
    with pytest.raises(DataError) as info:
        loading.prepare(df, mapping, name="r.csv", fingerprint="")
    assert words in info.value.message, info.value.message
    assert "row 5" in info.value.message


def test_the_public_sum_tolerance_is_the_one_the_loader_reads():
    assert loading.SUM_TOLERANCE == classes.SUM_TOLERANCE == 0.005  # before: 0.001, read by nothing
    assert not hasattr(roles, "SUM_TOLERANCE")
