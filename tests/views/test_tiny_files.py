"""A file too small to fit a cutoff on gets a sentence on every page, not a traceback (a first-time
review uploaded a two-row file: Costs & groups crashed formatting a cost that could not be fitted)."""

from __future__ import annotations

import pytest

from tests.views.apptest_support import assert_no_exception, load_file, open_app, texts

TWO_ROWS = b"label;score\n0;0,2\n1;0,8\n"  # semicolons and decimal commas, one case of each outcome


@pytest.fixture(scope="module")
def app():
    at = open_app(None, "views/data.py")
    load_file(at, "two.csv", TWO_ROWS)
    return at


@pytest.mark.parametrize("page", ["views/costs.py", "views/value.py", "views/calibration.py"])
def test_a_two_row_file_gets_an_answer_not_a_traceback(app, page):
    app.switch_page(page).run()
    assert_no_exception(app)


def test_costs_says_nothing_could_be_fitted(app):
    app.switch_page("views/costs.py").run()
    assert "no cutoff can be fitted on these rows" in texts(app)
