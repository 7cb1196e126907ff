"""Links a careless or hostile person writes (issue on hostile input, round three): prices too
small to be compared, a seed count of infinity. Each gets a sentence and the default, never an
exception box."""

from __future__ import annotations

import pytest

from tests.views.apptest_support import open_app

SMALL = "at least 0.000000001 in size"


@pytest.mark.parametrize(
    ("page", "params", "words"),
    [
        ("views/costs.py", {"data": "compas", "c_fp": "5e-324", "c_fn": "5e-324", "details": "true"}, SMALL),
        ("views/costs.py", {"data": "compas", "c_fp": "5e-324", "c_fn": "1e-323"}, "only the ratio of the prices"),
        ("views/value.py", {"data": "screening", "gain": "5e-324", "reject_worth": "1e9"}, SMALL),
        ("views/value.py", {"data": "screening", "k": "5e-324", "gain": "5e-324"}, SMALL),
        ("views/train.py", {"train_seeds": "inf"}, "The seeds must be a number from 1 to 50"),
        ("views/train.py", {"train_seeds": "1e400"}, "The seeds must be a number from 1 to 50"),
        # issue 26: values that were dropped without a word
        (
            "views/calibration.py",
            {"data": "compas", "bins": "1000"},
            "The number of score bands must be a number from 5 to 30",
        ),
        ("views/instance.py", {"data": "offensive", "threshold": "nan"}, "The cutoff must be a number from"),
        ("views/value.py", {"data": "screening", "k": "nan"}, "the k that follows from your prices is used instead"),
    ],
)
def test_a_value_no_widget_would_take_gets_a_sentence_not_an_exception(page, params, words):
    at = open_app(None, page, timeout=180, **params)
    said = [w.value.replace("\\", "") for w in at.warning]  # the sentences are Markdown-escaped
    assert any(words in s for s in said), said
