"""Headless AppTest of the Data page: a 300-row file with 4 blank scores is refused with a fix to
tick (leave those rows out); ticked, it loads and the page says which rows were left out. After
a refused upload the other pages answer on the built-in sample and say so ("not your data"), where
they used to show the sample's figures without a word."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tests.views.apptest_support import open_app, submit, texts, unescape, upload

EMPTY = [4, 50, 51, 200]  # file rows 6, 52, 53 and 202
NOTE = (
    'In "f.csv", 4 rows with an empty score in column "score" were left out (rows 6, 52, 53 and 202); 296 rows remain.'
)


def _csv() -> bytes:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    score = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, 300), 0, 1).round(3).astype(object)
    score[EMPTY] = ""
    return pd.DataFrame({"label": y, "score": score, "group": rng.choice(["A", "B"], 300)}).to_csv(index=False).encode()


def _answer(at) -> str:
    """The page's answer box (an answer on a sample instead is in a neutral box: `words.on_sample`)."""
    boxes = [unescape(x.value) for x in (*at.success, *at.warning, *at.error, *at.info)]
    boxes = [b for b in boxes if "per case" in b]
    assert len(boxes) == 1, boxes
    return boxes[0]


def _fix_boxes(at):
    return [c for c in at.checkbox if "leave out the 4 rows with an empty score" in c.label]


def test_blank_scores_are_refused_with_a_fix_that_leaves_their_rows_out_with_a_note():
    at = open_app("compas", "views/data.py")
    upload(at, "f.csv", _csv())
    submit(at)
    said = unescape("\n".join(e.value for e in at.error))
    assert 'column "score" has 4 empty values (blank or not a number): rows 6, 52, 53 and 202' in said, said
    assert "“f.csv” was not loaded" in said and "Tick the fix above the button" in said, said
    assert "upload_dataset" not in at.session_state
    boxes = _fix_boxes(at)
    assert len(boxes) == 1 and not boxes[0].value, [c.label for c in at.checkbox]
    boxes[0].check()
    submit(at)
    ds = at.session_state["upload_dataset"]
    assert ds.name == "f.csv" and ds.n_rows == 296 and at.session_state["data"] == "upload"
    assert ds.notes == (NOTE,)
    assert NOTE in texts(at)  # said under "What is loaded"
    assert not at.error


def test_after_a_refused_upload_the_other_pages_say_the_sample_is_not_your_data():
    at = open_app("compas", "views/data.py")
    upload(at, "f.csv", _csv())
    submit(at)
    at.switch_page("views/costs.py").run()
    sample = "on the built-in sample “Recidivism risk (COMPAS)”, not your data"
    assert sample in _answer(at), _answer(at)
    at.switch_page("views/data.py").run()  # the uploader has dropped the file: the last upload was still refused
    at.switch_page("views/costs.py").run()
    assert sample in _answer(at), _answer(at)
    at.switch_page("views/data.py").run()
    upload(at, "f.csv", _csv())
    submit(at)
    _fix_boxes(at)[0].check()
    submit(at)
    assert at.session_state["upload_dataset"].n_rows == 296
    at.switch_page("views/costs.py").run()  # the file is loaded: the page answers for it
    box = _answer(at)
    assert "built-in sample" not in box and "not your data" not in box, box


def test_a_sample_chosen_without_any_upload_is_answered_as_before():
    at = open_app("compas", "views/costs.py")
    assert "built-in sample" not in _answer(at)


def test_a_sample_chosen_after_a_refused_upload_is_the_users_choice():
    """A last read: the refusal's flag was cleared only when an upload loaded, so a user who then
    picked a sample on purpose was told on every page that it was not their data."""
    at = open_app("compas", "views/data.py")
    upload(at, "f.csv", _csv())
    submit(at)
    at.switch_page("views/costs.py").run()
    assert "not your data" in _answer(at)
    at.sidebar.selectbox(key="data").set_value("screening").run()
    assert "not your data" not in _answer(at), _answer(at)
