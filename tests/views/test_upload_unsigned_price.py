"""A price column with no price below 0 and no label column (review 140): the Data page loaded it,
its signs made every case positive, and the pages said "400 of 400 cases positive" and "do not let
the model decide". It is now refused, naming the file and the column and saying what to do, and
the data in use stays; beside a label the same column loads, signed by the label. Train with costs,
where a price's sign is always the class, still refuses one class in its own words."""

from __future__ import annotations

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from costlib import loading
from costlib.present import labels as t
from tests.views.apptest_support import assert_no_exception, load_file, mk, open_app, submit, unescape, upload

N = 200
REFUSED = 'In "costs.csv", no label column is chosen, so the sign of each price in column "cost" says whether'


def priced(label: bool) -> pd.DataFrame:
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, N)
    score = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, N), 0, 1).round(4)
    frame = pd.DataFrame({"score": score, "cost": (1 + 99 * rng.random(N)).round(2)})
    return frame.assign(label=y) if label else frame


def csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


def errors(at: AppTest) -> str:
    return unescape("\n".join(e.value for e in at.error))


def use_the_price(at: AppTest) -> None:
    at.radio(key=mk(at, "delta_src")).set_value(t.DELTA_COLUMN)
    at.selectbox(key=mk(at, "delta")).set_value("cost")
    submit(at)


def test_an_unsigned_price_without_a_label_is_refused_and_the_sample_stays():
    at = open_app("compas", "views/data.py")
    upload(at, "costs.csv", csv(priced(label=False)))
    use_the_price(at)
    assert "upload_dataset" not in at.session_state
    assert at.session_state["data"] == "compas"
    said = errors(at)
    assert REFUSED in said, said
    assert "Choose the label column" in said and "a minus sign" in said, said
    assert "“costs.csv” was not loaded" in said and "is still in use" in said, said
    assert "Tick the fix above the button" not in said, said
    assert not at.success


def test_it_keeps_the_upload_in_use_and_one_key_holds_the_refusal():
    at = open_app("compas", "views/data.py")
    load_file(at, "good.csv", csv(priced(label=True)))
    assert at.session_state["upload_dataset"].name == "good.csv"
    upload(at, "costs.csv", csv(priced(label=False)))
    use_the_price(at)
    assert at.session_state["upload_dataset"].name == "good.csv"  # nothing loaded is lost
    said = errors(at)
    assert REFUSED in said and "Your previous data, “good.csv”, is still loaded" in said, said
    sentence, offered_fix = at.session_state["_refusal"]  # the sentence and whether it offered a fix, one key
    assert sentence.startswith(REFUSED) and offered_fix is False
    assert "_load_fix" not in at.session_state and "_load_error" not in at.session_state


def test_beside_a_label_the_same_prices_load_signed_by_the_label():
    at = open_app("compas", "views/data.py")
    upload(at, "costs.csv", csv(priced(label=True)))
    assert at.selectbox(key=mk(at, "delta")).value == "cost"  # guessed beside the label
    at.selectbox(key=mk(at, "label")).set_value("label")
    use_the_price(at)
    ds = at.session_state["upload_dataset"]
    assert int((ds.delta > 0).sum()) == int(ds.y.sum()) and 0 < int(ds.y.sum()) < N
    assert np.allclose(np.abs(ds.delta), priced(label=True)["cost"])
    assert "_refusal" not in at.session_state


def test_train_with_costs_still_reads_the_sign_as_the_class_and_refuses_one_class():
    frame = priced(label=False).rename(columns={"score": "x"})
    at = open_app(None, "views/train.py", timeout=180)
    at.radio(key="train_data").set_value("upload").run()
    at.file_uploader(key="train_uploader").upload("costs.csv", csv(frame), "text/csv").run()
    assert_no_exception(at)
    tag = loading.fingerprint(csv(frame))[:12]
    at.selectbox(key=f"train_delta_{tag}").set_value("cost").run()
    assert_no_exception(at)
    said = errors(at)
    assert f"positive in all {N} rows" in said and "needs both positive" in said, said  # its own one-class refusal
    assert "no label column is chosen" not in said, said  # Train has no label column to choose
