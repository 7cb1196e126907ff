"""Train with costs, "By way of training", on the built-in sample at 1400 px (a first-time reader's
review): the rows a way was fitted on read "19,812" as every other count in the app does (the grid
showed the number bare, "19812"), and the table of the ways fits the 940 px the page gives it (its
columns took 944 px, and "price error" ran about 6 px past the page's edge).

Widths are the page's own (`display.fitted_columns`, as Chromium draws them; tests/views/
test_table_widths.py holds them against a lower bound); the room is that test's.
"""

from __future__ import annotations

import json

import pytest
from apptest_support import open_app

from costlib.present import training_page

ROOM_PX = 940  # a table's room at 1400 px, sidebar open (tests/views/test_table_widths.py)
PAGE = "views/train.py"


@pytest.fixture(scope="module")
def page():
    return open_app(None, PAGE, timeout=180)


def _table(at, column: str):
    return next(d for d in at.dataframe if column in d.value.columns)


def test_the_rows_each_way_was_fitted_on_read_with_a_thousands_separator(page):
    fitted = _table(page, training_page.COLUMN_WORDS["n_fit"]).value[training_page.COLUMN_WORDS["n_fit"]]
    cells = [str(x) for x in fitted]
    assert "19,812" in cells, cells[:8]  # standard training fits on every training row of a seed
    assert all(len(c) < 4 or "," in c for c in cells), cells


def test_the_table_of_the_ways_of_training_fits_the_page(page):
    table = _table(page, training_page.COST_COLUMN)
    config = json.loads(table.proto.columns or "{}")
    widths = {c: config[str(c)]["width"] for c in table.value.columns}
    assert sum(widths.values()) <= ROOM_PX, widths
