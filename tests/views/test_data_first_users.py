"""What first-time users of the Data page met: a column mapping lost once another page was
shown, a reloaded tab whose Data page contradicted itself, "None" in the preview of a blank
score and "1 value that is not numbers"."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from costlib.present import labels as t
from tests.views.apptest_support import assert_no_exception, mk, open_app, submit, texts, upload

ROWS = b"label,score,other,group\n" + b"".join(
    f"{i % 2},{(i % 10) / 10},{((i * 7) % 10) / 10},{'ab'[i % 2]}\n".encode() for i in range(40)
)


def visit_costs_and_come_back(at: AppTest) -> None:
    at.switch_page("views/costs.py").run()
    assert_no_exception(at)
    at.switch_page("views/data.py").run()
    assert_no_exception(at)


def mapped_without_a_group() -> AppTest:
    at = open_app("compas", "views/data.py")
    upload(at, "cases.csv", ROWS)
    assert at.selectbox(key=mk(at, "group")).value == "group"  # the guess
    at.selectbox(key=mk(at, "group")).set_value(t.NO_COLUMN_CHOSEN)
    at.multiselect(key=mk(at, "scores")).set_value(["score", "other"])
    submit(at)
    ds = at.session_state["upload_dataset"]
    assert ds.mapping.group is None and list(ds.scores) == ["score", "other"]
    return at


def test_the_mapping_form_stays_with_the_users_choices_after_another_page():
    at = mapped_without_a_group()
    visit_costs_and_come_back(at)
    # the uploader lost the file (Streamlit drops it with the page), the form did not
    assert "cases.csv" in texts(at) and t.KEPT_UPLOAD.split("“")[0] in texts(at)
    assert at.selectbox(key=mk(at, "group")).value == t.NO_COLUMN_CHOSEN  # not the guess "group"
    assert at.multiselect(key=mk(at, "scores")).value == ["score", "other"]
    # one role changed, the button pressed again: the same file, its new mapping
    at.multiselect(key=mk(at, "scores")).set_value(["other"])
    submit(at)
    ds = at.session_state["upload_dataset"]
    assert list(ds.scores) == ["other"] and ds.mapping.group is None and ds.name == "cases.csv"
    assert "Loaded “cases.csv”" in texts(at)


def test_uploading_the_same_file_again_keeps_the_last_choices():
    at = mapped_without_a_group()
    visit_costs_and_come_back(at)
    upload(at, "cases.csv", ROWS)
    assert at.selectbox(key=mk(at, "group")).value == t.NO_COLUMN_CHOSEN
    assert at.multiselect(key=mk(at, "scores")).value == ["score", "other"]


def test_a_reloaded_tab_without_its_upload_says_so_once_and_plainly():
    at = open_app("upload", "views/data.py")  # ?data=upload in a new session: no file
    said = texts(at)
    assert "one is already loaded" not in said
    assert t.UPLOAD_GONE in said and t.NOTHING_LOADED in said
    assert t.DATA_WORDS["upload_gone"] in said  # the sidebar says why its choice has no file
    assert t.DATA_WORDS["no_upload"] not in said  # the other pages' words, pointing to this page
    links = [p.proto.label for p in at.get("page_link")]
    assert t.DATA_WORDS["to_data_page"] not in links and t.DATA_TO_COSTS not in links
    # uploading there loads the file and the page stops saying it is gone
    upload(at, "cases.csv", ROWS)
    submit(at)
    assert t.UPLOAD_GONE not in texts(at) and at.session_state["upload_dataset"].name == "cases.csv"


def test_a_blank_score_is_an_empty_cell_in_the_preview_and_the_refusal_reads_right():
    at = open_app("compas", "views/data.py")
    upload(at, "blank.csv", b"label,score\n1,0.9\n0,\n1,0.6\n0,0.2\n")
    preview = at.dataframe[0]
    assert preview.value["score"].isna().sum() == 1
    assert preview.proto.placeholder == t.MISSING_CELL  # shown as "–", never "None"
    upload(at, "word.csv", b"label,score\n1,0.9\n0,high\n1,0.6\n0,0.2\n")
    submit(at)
    said = texts(at)
    assert "has 1 value that is not a number" in said and "not numbers" not in said


def test_the_kept_form_says_so_while_a_sample_is_in_use_and_takes_the_file_back():
    at = mapped_without_a_group()
    at.button(key="use_compas").click().run()
    visit_costs_and_come_back(at)
    said = texts(at)
    assert t.KEPT_UPLOAD_AWAY.split("“")[0] in said and "is kept for this session" in said
    assert at.selectbox(key=mk(at, "group")).value == t.NO_COLUMN_CHOSEN
    submit(at)
    assert at.session_state["_keep_data"] == "upload" and at.session_state["upload_dataset"].mapping.group is None
