"""Headless AppTest of the Data page (issue 44, item 4): a label or score column the guess
leaves out is named with the loader's reason as soon as the upload is used (a refusal: no page
could use the file), and the group select box starts on the guessed group."""

from __future__ import annotations

import pandas as pd
from streamlit.testing.v1 import AppTest

from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading import prepare, read_table
from tests.loading.test_guess_refusals import decimal_comma_scores, fair_like, three_valued_label
from tests.views.apptest_support import load_file, mk, open_app, texts, unescape


def by_hand(data: bytes, name: str, mapping: ColumnMapping) -> str:
    """What the loader says when `mapping`'s column is chosen by hand."""
    try:
        prepare(read_table(data, name), mapping, name=name, fingerprint="")
    except DataError as err:
        return err.message
    raise AssertionError("the column was taken")


def used(name: str, data: bytes) -> AppTest:
    """The Data page after `data` was uploaded as `name` and its guessed columns were used."""
    at = open_app("compas", "views/data.py")
    load_file(at, name, data)
    return at


def test_a_three_valued_label_is_named_the_first_time_the_upload_is_used():
    data = three_valued_label().to_csv(index=False).encode()
    at = used("outcomes.csv", data)
    error = unescape("\n".join(e.value for e in at.error))
    assert "with these columns: it lacks a label column with two values. Not taken as the label: in" in error
    said = by_hand(data, "outcomes.csv", ColumnMapping(label="outcome"))
    assert said[3:] in error  # the sentence the page gives when "outcome" is chosen by hand
    assert "“outcomes.csv” was not loaded" in error
    assert at.session_state.get("upload_dataset") is None  # refused: no page could use it


def test_decimal_comma_scores_are_named_the_first_time_the_upload_is_used():
    data = decimal_comma_scores()
    at = used("comma.csv", data)
    error = unescape("\n".join(e.value for e in at.error))
    assert "it lacks a score column. Not taken as a score: in" in error
    assert by_hand(data, "comma.csv", ColumnMapping(scores=("score",)))[3:] in error
    assert "decimal comma" in error and '"0,10"' in error


def test_with_neither_role_the_refusal_of_the_upload_names_both_columns():
    data = decimal_comma_scores().replace(b"label,", b"outcome,").replace(b"\n1,", b"\n2,", 3)
    at = open_app("compas", "views/data.py")
    load_file(at, "both.csv", data)
    error = unescape("\n".join(e.value for e in at.error))
    assert "no column is chosen for a label, a score" in error
    assert 'Not taken as the label: in "both.csv", column "outcome" has 3 distinct values' in error
    assert 'Not taken as a score: in "both.csv", column "score" has 20 values that are not numbers' in error
    assert "Traceback" not in texts(at)


def test_the_group_select_box_starts_on_the_guessed_group_for_fair_data():
    frame = fair_like()
    at = open_app("compas", "views/data.py")
    at.file_uploader(key="uploader").upload("fair.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    assert at.selectbox(key=mk(at, "group")).value == "occupation"
    load_file(at, "fair.csv", frame.to_csv(index=False).encode())
    ds = at.session_state["upload_dataset"]
    assert ds.mapping.group == "occupation"
    assert sorted(pd.unique(ds.groups)) == sorted(str(v) for v in frame["occupation"].unique())


def test_a_group_with_too_many_values_is_left_out_and_named_when_the_upload_is_used():
    n = 60
    frame = pd.DataFrame(
        {
            "label": [i % 2 for i in range(n)],
            "score": [i / n for i in range(n)],
            "region": [f"r{i % 25}" for i in range(n)],
        }
    )
    data = frame.to_csv(index=False).encode()
    at = used("regions.csv", data)
    assert at.session_state["upload_dataset"].groups is None  # loaded, without groups
    success = unescape("\n".join(s.value for s in at.success))
    said = by_hand(data, "regions.csv", ColumnMapping(label="label", scores=("score",), group="region"))
    assert "Not taken as the group: in " + said[3:] in success


def test_after_a_refused_upload_what_is_loaded_names_the_data_it_still_is():
    """A refused upload leaves the sample loaded: the summary under it said "What is loaded" with
    the sample's rows and did not say whose they were, right under the upload's refusal."""
    from costlib.loading.samples import SAMPLES
    from costlib.present import labels

    data = decimal_comma_scores().replace(b"label,", b"outcome,").replace(b"\n1,", b"\n2,", 3)
    at = open_app("compas", "views/data.py")
    load_file(at, "both.csv", data)
    assert at.error
    heads = [unescape(h.value) for h in at.subheader]
    assert labels.LOADED_NAMED.format(name=SAMPLES["compas"].title) in heads, heads
