"""The loader names each case's own price as the pages do, "price column", never "delta" (the
internal field keeps its name); and with no label column, a price column with no price below 0
is refused instead of making every case positive (review 140)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from costlib import loading
from costlib.core.dataset import ColumnMapping, Dataset
from costlib.core.errors import DataError
from costlib.loading import messages
from costlib.present import labels

ROWS = 40


def frame(price) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    y = np.arange(ROWS) % 2
    return pd.DataFrame({"label": y, "score": rng.random(ROWS).round(3), "cost": price})


def prepare(df: pd.DataFrame, **roles) -> Dataset:
    return loading.prepare(df, ColumnMapping(scores=("score",), **roles), name="fees.csv", fingerprint="")


def refused(df: pd.DataFrame, **roles) -> str:
    with pytest.raises(DataError) as err:
        loading.refuse_unsigned_price(prepare(df, **roles))
    return err.value.message


# ---------------------------------------------------------------------------------------
# words


def test_no_loader_sentence_says_delta():
    said = {n: getattr(messages, n) for n in messages.__all__}
    found = {n: s for n, s in said.items() if re.search(r"delta", s, re.IGNORECASE)}
    assert not found, found


def test_the_data_pages_price_form_says_no_delta():
    shown = [labels.INSTANCE_HEADER, labels.DELTA_SOURCE_LABEL, *labels.DELTA_SOURCES, labels.MAP_PRICE]
    shown += [labels.MAP_DELTA, *labels.NEEDS["delta"][:1]]
    assert not [s for s in shown if "delta" in s.lower() or "δ" in s], shown


@pytest.mark.parametrize(
    ("roles", "values", "start"),
    [
        ({"delta": "cost"}, 0.0, 'In "fees.csv", the price of each case, from the price column "cost", is 0 in all'),
        ({"rating": "cost", "rating_midpoint": 2.0}, 2.0, "the price of each case, from the rating "),
    ],
)
def test_a_price_of_zero_everywhere_is_said_in_the_pages_words(roles, values, start):
    with pytest.raises(DataError) as err:
        prepare(frame(values), **roles)
    assert start in err.value.message, err.value.message
    assert "delta" not in err.value.message


def test_two_price_sources_are_named_in_the_pages_words():
    df = frame(1.0).assign(r=3.0)
    with pytest.raises(DataError) as err:
        prepare(df, delta="cost", rating="r", rating_midpoint=3.0)
    said = err.value.message
    assert said == (
        'In "fees.csv", each case\'s price is chosen from more than one source '
        '(the price column "cost" and the rating "r"); choose one.'
    )


def test_prices_too_large_to_add_up_are_said_in_the_pages_words():
    with pytest.raises(DataError) as err:
        prepare(frame([1e308, -1e308] * (ROWS // 2)), label="label", delta="cost")
    assert err.value.message.startswith(
        'In "fees.csv", the prices of the cases, from the price column "cost", are too large to add up'
    ), err.value.message


def test_nothing_chosen_names_the_price_column():
    with pytest.raises(DataError) as err:
        loading.prepare(frame(1.0), ColumnMapping(), name="fees.csv", fingerprint="")
    assert "a price column" in err.value.message and "delta" not in err.value.message


# ---------------------------------------------------------------------------------------
# an unsigned price with no label


def test_an_all_positive_price_without_a_label_is_refused_with_what_to_do():
    said = refused(frame(np.linspace(1, 40, ROWS)), delta="cost")
    assert said.startswith('In "fees.csv", no label column is chosen'), said
    assert 'column "cost"' in said and f"in all {ROWS} rows (rows 2 to {ROWS + 1})" in said, said
    assert "every case would be positive" in said, said
    assert "Choose the label column" in said and "give the prices of the negative cases a minus sign" in said, said


def test_prices_of_zero_and_more_without_a_label_are_refused_too():
    """Zero is no sign: a column of sizes with some free cases is still sizes."""
    said = refused(frame([0.0, 3.0] * (ROWS // 2)), delta="cost")
    assert "no label column is chosen" in said


def test_the_refusal_names_the_column_it_refuses():
    with pytest.raises(DataError) as err:
        loading.refuse_unsigned_price(prepare(frame(2.0), delta="cost"))
    assert err.value.column == "cost"


@pytest.mark.parametrize(
    ("roles", "price"),
    [
        ({"delta": "cost"}, [2.0, -3.0] * (ROWS // 2)),  # signed: its sign is the class
        ({"delta": "cost", "label": "label"}, 2.0),  # beside a label: the size of each case's price
        ({"rating": "cost", "rating_midpoint": 0.0}, 2.0),  # a rating is not a price column: its own rule
        ({"label": "label"}, 2.0),  # no price at all
    ],
)
def test_what_is_not_refused(roles, price):
    ds = prepare(frame(price), **roles)
    assert loading.refuse_unsigned_price(ds) is ds
