"""The Data page's price column (review 140): chosen inside the form, "price column" showed no
picker until "Use these columns" was pressed, the file then loaded without prices and only said
that Instance costs "needs columns it does not have"; a column named "price" was not guessed."""

from __future__ import annotations

from costlib.present import labels as t
from tests.views.apptest_support import mk, open_app, submit, texts, upload

ROWS = "".join(f"{i % 2},{(i % 10) / 10},{1 + (i * 7) % 5}\n" for i in range(40)).encode()


def test_a_price_column_is_guessed_and_shown_and_loads_signed_by_the_label():
    at = open_app("compas", "views/data.py")
    upload(at, "priced.csv", b"label,score,Price\n" + ROWS)
    assert at.radio(key=mk(at, "delta_src")).value == t.DELTA_COLUMN
    assert at.selectbox(key=mk(at, "delta")).value == "Price"
    submit(at)
    ds = at.session_state["upload_dataset"]
    assert int((ds.delta > 0).sum()) == int(ds.y.sum()) == 20  # the label column's, not the price's sign
    assert "Instance costs need" not in texts(at) and "Instance costs needs" not in texts(at)


def test_the_price_picker_is_there_before_price_column_is_chosen_and_an_empty_one_is_refused():
    at = open_app("compas", "views/data.py")
    upload(at, "fees.csv", b"label,score,fee\n" + ROWS)
    assert at.radio(key=mk(at, "delta_src")).value == t.NO_DELTA  # "fee" is no price name
    picker = at.selectbox(key=mk(at, "delta"))  # drawn already: a form redraws nothing until its button
    assert picker.label == t.MAP_PRICE and picker.value == t.NO_COLUMN_CHOSEN
    at.radio(key=mk(at, "delta_src")).set_value(t.DELTA_COLUMN)
    submit(at)
    assert "upload_dataset" not in at.session_state  # not loaded without the prices asked for
    said = texts(at)
    assert 'In "fees.csv", each case\'s own price is to come from "price column", but no price column is chosen' in said
    at.selectbox(key=mk(at, "delta")).set_value("fee")
    submit(at)
    ds = at.session_state["upload_dataset"]
    assert ds.mapping.delta == "fee" and int((ds.delta > 0).sum()) == int(ds.y.sum())
