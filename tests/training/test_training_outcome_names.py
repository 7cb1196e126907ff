"""Train with costs and the columns named like an outcome (review: two lists, two spellings).

The upload's columns named like the outcome came from a copy of the loader's label names that lacked
"two_year_recid" and "is_recid" and read names by lower case and spaces only; and a name alone
refused a column chosen by hand as a feature, though in Train the label is each price's sign, not
a column: "y" or "class" may be any feature. Now the names are the loader's, read as the loader reads
them (`loading.cells.norm_name`), and only keep a column out of the default features; a hand-chosen
one is refused only when its values copy the label.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib.core.errors import DataError
from costlib.loading.cells import norm_name
from costlib.loading.guessing import LABEL_NAMES
from costlib.training.data import MSG_WHY_OUTCOME, answer_columns, from_table


def table(n: int = 200, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    delta = rng.normal(size=n)
    return pd.DataFrame(
        {
            "y": rng.integers(0, 2, n),  # named as an outcome, values unrelated to the price's sign
            "class": rng.integers(0, 3, n),
            "Two Year-Recid": rng.integers(0, 2, n),
            "is_recid": rng.integers(0, 2, n),
            "score": rng.random(n),
            "delta": delta,
        }
    )


def test_every_label_name_of_the_loader_is_kept_out_of_the_defaults_as_the_loader_reads_it():
    why = answer_columns(table())
    for column in ("y", "class", "Two Year-Recid", "is_recid"):
        assert why.get(column) == MSG_WHY_OUTCOME, (column, why)
    assert "score" not in why
    frame = pd.DataFrame({name: [0, 1] for name in LABEL_NAMES} | {"x": [1.0, 2.0]})
    assert set(answer_columns(frame)) >= set(LABEL_NAMES)
    assert norm_name("Two Year-Recid") in LABEL_NAMES


@pytest.mark.parametrize("column", ["y", "class", "Two Year-Recid", "is_recid"])
def test_a_column_named_as_the_outcome_is_a_feature_when_chosen_by_hand(column):
    data = from_table(table(), name="t.csv", fingerprint="f" * 64, features=(column, "score"), delta="delta")
    assert data.X.shape == (200, 2)


def test_a_column_whose_values_copy_the_label_is_refused_whatever_its_name():
    frame = table()
    frame["y"] = (frame["delta"] > 0).astype(int)
    frame["margin"] = frame["delta"] * 3  # the price's sign under another name
    for column in ("y", "margin"):
        with pytest.raises(DataError, match="splits the rows exactly as the label does"):
            from_table(frame, name="t.csv", fingerprint="f" * 64, features=(column, "score"), delta="delta")
