"""The settings that Streamlit's own ``bind="query-params"`` kept in the link (the model picked on
Calibration, the Cost matrix's hand-over switch, Train with costs' data and ways) are read through
`costlib.core.link.Settings` like every other: a value no widget would take gets the page's
sentence instead of a silent default, and a move is written back under the same key."""

from __future__ import annotations

import pytest

from tests.views.apptest_support import open_app


def said(at) -> list[str]:
    return [w.value.replace("\\", "") for w in at.warning]  # the sentences are Markdown-escaped


@pytest.mark.parametrize(
    ("page", "params", "words"),
    [
        ("views/calibration.py", {"data": "screening", "model": "nope"}, "The link's model “nope” is not one"),
        (
            "views/matrix.py",
            {"data": "tickets", "abstain_on": "yes"},
            "The link's switch for handing a case to a person “yes” is not one this page can use, so handing a case "
            "to a person is used instead.",
        ),
        ("views/train.py", {"train_data": "nope"}, "The link's training data “nope” is not one"),
    ],
)
def test_a_bound_widget_s_link_value_that_no_widget_takes_is_said(page, params, words):
    at = open_app(None, page, timeout=180, **params)
    assert any(words in s for s in said(at)), said(at)


def test_a_moved_bin_count_and_hand_over_switch_are_written_back_under_their_keys():
    at = open_app("screening", "views/calibration.py", bins="12")
    assert at.slider(key="bins").value == 12
    at.slider(key="bins").set_value(20).run()
    assert at.query_params["bins"] == "20"
    matrix = open_app("tickets", "views/matrix.py", abstain_on="false")
    assert matrix.toggle(key="abstain_on").value is False
    matrix.toggle(key="abstain_on").set_value(True).run()
    assert matrix.query_params["abstain_on"] == "true"


def test_a_bad_link_names_the_setting_and_the_sample_as_the_page_names_them():
    """Review 72, item C: ?data=bogus&c_fn=abc said "The link's c_fn: a price must be ..." and "... so compas is
    used instead": the link's key and the sample's key, neither of which the page shows."""
    at = open_app(None, "views/costs.py", timeout=180, data="bogus", c_fn="abc")
    notes = said(at)
    assert (
        "The link's data “bogus” is not one this page can use, so the built-in sample “Recidivism risk (COMPAS)” "
        "is used instead." in notes
    ), notes
    assert (
        "The link's price of a false negative was not used. A price must be a number from 0 to 1,000,000,000: got "
        "abc; using 3 instead." in notes
    ), notes
    assert not any("c_fn" in x or "so compas" in x for x in notes)
