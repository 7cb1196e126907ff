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
            "The link's abstain_on “yes” is not one this page can use, so handing a case to a person is used instead.",
        ),
        ("views/train.py", {"train_data": "nope"}, "The link's train_data “nope” is not one"),
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
