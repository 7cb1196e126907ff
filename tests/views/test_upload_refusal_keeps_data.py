"""Headless AppTest of the Data page: a file refused after "Use these columns" leaves the data
loaded before it in use, whichever check refused it, and the refusal says so under the button.

A file whose label column has a third value, or whose score column is text, used to load
without a label (or a score) that no page could use: "What is loaded" named it and every page
drew on a built-in sample, the good file lost."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib.present import labels
from tests.views.apptest_support import USE_COLUMNS, load_file, open_app, unescape


def good_frame(n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    score = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, n), 0, 1).round(4)
    return pd.DataFrame({"label": y, "score": score, "group": np.where(rng.random(n) < 0.5, "A", "B")})


def csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


def third_label_value() -> bytes:
    frame = good_frame()
    frame["label"] = frame["label"].astype(str)
    frame.loc[312, "label"] = "2"
    return csv(frame)


def text_scores() -> bytes:
    frame = good_frame()
    frame["score"] = np.where(frame["score"] > 0.5, "high", "low")
    return csv(frame)


def quoted_decimal_commas() -> bytes:
    frame = good_frame()
    frame["score"] = [f"{v:.4f}".replace(".", ",") for v in frame["score"]]
    return frame.to_csv(index=False, quoting=1).encode()


def negative_weights() -> bytes:
    frame = good_frame()
    frame["weight"] = 1.0
    frame.loc[5, "weight"] = -1.0
    return csv(frame)


BAD = {
    "third.csv": third_label_value,
    "text.csv": text_scores,
    "commas.csv": quoted_decimal_commas,
    "weights.csv": negative_weights,
}


def errors(at) -> str:
    return unescape("\n".join(e.value for e in at.error))


@pytest.mark.parametrize("bad", sorted(BAD))
def test_a_refused_file_leaves_the_good_file_loaded_and_says_so(bad):
    at = open_app("compas", "views/data.py")
    load_file(at, "good.csv", csv(good_frame()))
    assert at.session_state["upload_dataset"].name == "good.csv"
    load_file(at, bad, BAD[bad]())
    assert at.session_state["upload_dataset"].name == "good.csv"  # the good file stays
    assert at.session_state["data"] == "upload"
    heads = [unescape(h.value) for h in at.subheader]
    assert labels.LOADED_NAMED.format(name="good.csv") in heads, heads
    said = errors(at)
    assert f"“{bad}” was not loaded" in said, said
    assert "Your previous data, “good.csv”, is still loaded" in said, said
    assert not at.success  # no "Loaded …" sentence


def test_a_refused_first_file_says_the_sample_is_still_in_use():
    at = open_app("compas", "views/data.py")
    load_file(at, "text.csv", text_scores())
    assert at.session_state.get("upload_dataset") is None
    said = errors(at)
    assert "“text.csv” was not loaded" in said and 'column "score"' in said, said
    assert "is still in use" in said and "COMPAS" in said, said


def test_the_refusal_is_under_the_button_not_above_the_form():
    at = open_app("compas", "views/data.py")
    load_file(at, "good.csv", csv(good_frame()))
    load_file(at, "text.csv", text_scores())
    blocks = list(at.main)
    kinds = [type(b).__name__ for b in blocks]
    button = next(i for i, b in enumerate(blocks) if getattr(b, "label", None) == USE_COLUMNS)
    error = next(i for i, k in enumerate(kinds) if k == "Error")
    assert error == button + 1, kinds  # right under the button, not above the form
