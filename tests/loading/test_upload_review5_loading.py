"""A reviewer's uploads, in the loader: a number column with text and blank cells names both kinds
with their rows; scores barely above 1 are not offered as percentages but said to be off; a
multiclass label with one value is told in multiclass words; a 1/2 label takes 2 as positive."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib import loading
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading.frames import number_column
from tests.loading import bad_files as bf

# ---------------------------------------------------------------------------------------
# 1. Text and blank cells in one number column: both kinds with their rows
# ---------------------------------------------------------------------------------------


def _cells_csv(column: str, cells: dict[int, str], n: int = 12) -> bytes:
    """label, score and weight; the data row i of `column` holds `cells[i]` (file row i + 2)."""
    rows = []
    for i in range(n):
        row = {"label": i % 2, "score": f"{0.1 + 0.07 * i:.2f}", "weight": "1"}
        row[column] = cells.get(i, row[column])
        rows.append([row["label"], row["score"], row["weight"]])
    return bf.csv_bytes(["label", "score", "weight"], rows)


@pytest.mark.parametrize(
    ("column", "mapping"),
    [
        ("score", ColumnMapping(label="label", scores=("score",))),
        ("weight", ColumnMapping(label="label", scores=("score",), weight="weight")),
    ],
)
def test_text_and_blank_cells_are_named_with_their_rows_in_one_sentence(column, mapping):
    # text at rows 3 and 9, blank at rows 5 and 11 ("nan" reads as blank), infinite at row 7
    df = loading.read_table(_cells_csv(column, {1: "high", 3: "", 5: "inf", 7: "n/a?", 9: "nan"}), "c.csv")
    with pytest.raises(DataError) as info:
        loading.prepare(df, mapping, name="c.csv", fingerprint="")
    said = info.value.message
    assert said == (
        f'In "c.csv", column "{column}" has 2 values that are not numbers: rows 3 and 9 ("high", "n/a?"). '
        "It also has 2 empty cells (blank or not a number): rows 5 and 11. "
        'It also has 1 infinite value: row 7 ("inf").'
    )  # before: "It also has 2 empty cells (blank or not a number)." with no row
    assert info.value.column == column


def test_one_blank_cell_beside_text_is_named_by_its_row():
    df = loading.read_table(_cells_csv("score", {0: "x", 4: ""}), "c.csv")
    with pytest.raises(DataError) as info:
        loading.prepare(df, ColumnMapping(label="label", scores=("score",)), name="c.csv", fingerprint="")
    assert info.value.message.endswith('row 2 ("x"). It also has 1 empty cell (blank or not a number): row 6.')


def test_apply_and_watch_read_a_score_column_with_the_uploads_sentence():
    # `costlib apply` and watch read their score column by `frames.number_column`: before, it named the
    # first bad row only ("row 3 holds 'high'"), not the blank and infinite cells after it
    df = loading.read_table(_cells_csv("score", {1: "high", 3: "", 5: "-inf"}), "c.csv")
    with pytest.raises(DataError) as apply:
        number_column(df, "c.csv", "score")
    with pytest.raises(DataError) as upload:
        loading.prepare(df, ColumnMapping(label="label", scores=("score",)), name="c.csv", fingerprint="")
    assert apply.value.message == upload.value.message
    assert 'row 3 ("high")' in apply.value.message and "(blank or not a number): row 5." in apply.value.message
    assert '1 infinite value: row 7 ("-inf")' in apply.value.message and apply.value.column == "score"
    huge = pd.DataFrame({"score": ["0.5", "9" * 100_000]})
    with pytest.raises(DataError) as info:
        number_column(huge, "h.csv", "score")
    assert "row 3" in info.value.message and len(info.value.message) < 200  # quoted shortened
    np.testing.assert_array_equal(number_column(pd.DataFrame({"s": ["0.5", "2"]}), "ok.csv", "s"), [0.5, 2.0])
