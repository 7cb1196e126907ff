"""The rows of a stray outcome cell are named in words that agree with their number.

Review: `watch.report._odd_rows` said 'besides '0' and '1', row 6 ("2") hold others': one row
"holds" another outcome, two or more "hold" others.
"""

from __future__ import annotations

import pandas as pd
import pytest

from costlib.core.errors import DataError
from costlib.watch.report import labels_of


def _refusal(cells: list[str]) -> str:
    with pytest.raises(DataError) as err:
        labels_of(pd.Series(cells), "c.csv", "y")
    return err.value.message


def test_one_stray_row_holds_another_outcome():
    said = _refusal(["0", "1", "0", "1", "2", "1"])  # the "2" is on the file's row 6 (row 1: the header)
    assert said.endswith("""; besides '0' and '1', row 6 ("2") holds another."""), said


def test_two_stray_rows_hold_others():
    said = _refusal(["0", "1", "0", "1", "2", "1", "1", "yes"])
    assert said.endswith("""; besides '0' and '1', rows 6 and 9 ("2", "yes") hold others."""), said


def test_more_stray_rows_than_are_shown_hold_others():
    said = _refusal(["0", "1"] * 20 + ["2"] * 7)
    assert "rows 42, 43, 44, 45 and 46 (first 5 of 7)" in said and said.endswith("hold others."), said
