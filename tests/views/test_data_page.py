"""Headless AppTest of the Data page: fixes by their action, class names, the sample in use,
repeated column names, very wide files and file names shown safely."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from costlib import loading
from tests.views.apptest_support import (
    USE_COLUMNS,
    assert_no_exception,
    chart_keys,
    mk,
    open_app,
    submit,
    texts,
    unescape,
    upload,
)


def data_page() -> AppTest:
    return open_app("compas", "views/data.py")


def test_ticking_read_as_log_odds_really_switches_the_scale():
    logits = [0.3, 2.5, -0.1, -1.2, 0.8, -2.0]
    frame = pd.DataFrame({"label": [1, 0, 1, 0, 1, 0], "risk": logits})
    at = data_page()
    upload(at, "logits.csv", frame.to_csv(index=False).encode())
    at.multiselect(key=mk(at, "scores")).set_value(["risk"])
    submit(at)
    assert "outside [0, 1]" in "\n".join(unescape(e.value) for e in at.error)
    fix = at.checkbox(key=f"fix_{loading.ACTION_LOGIT}")
    assert fix.label.startswith("Fix it: read the scores as log-odds")
    fix.check()
    submit(at)
    assert "Loaded “logits.csv”" in texts(at)
    ds = at.session_state["upload_dataset"]
    # the sigmoid by hand, 1 / (1 + e^-x), not the error again
    np.testing.assert_allclose(ds.scores["risk"], [1 / (1 + np.exp(-x)) for x in logits])
    assert ds.mapping.score_scale == "logit"
    assert at.radio(key=mk(at, "scale")).value == "logit"  # the form shows the scale that was used
    assert not at.error


def test_class_names_on_the_page_are_whole_words():
    frame = pd.DataFrame(
        {
            "topic": ["spam", "sport", "spam", "sport"],
            "prob_spam": [0.9, 0.2, 0.7, 0.4],
            "prob_sport": [0.1, 0.8, 0.3, 0.6],
        }
    )
    at = data_page()
    upload(at, "topics.csv", frame.to_csv(index=False).encode())
    at.multiselect(key=mk(at, "probs")).set_value(["prob_spam", "prob_sport"])
    at.selectbox(key=mk(at, "class_label")).set_value("topic")
    submit(at)  # widgets inside the form take their values on submit
    assert "Classes: spam, sport" in texts(at)  # not "am, ort" (os.path.commonprefix)
    ds = at.session_state["upload_dataset"]
    assert ds.class_names == ("spam", "sport") and ds.y_class.tolist() == [0, 1, 0, 1]


def test_the_sample_in_use_says_so_and_cannot_be_chosen_again():
    at = data_page()
    compas = at.button(key="use_compas")
    assert compas.label == "In use" and compas.disabled
    assert at.button(key="use_tickets").label == "Use “Support tickets (3 classes)”"
    assert not at.button(key="use_tickets").disabled
    at.button(key="use_tickets").click().run()
    assert_no_exception(at)
    assert at.button(key="use_tickets").label == "In use" and at.button(key="use_tickets").disabled
    assert at.button(key="use_compas").label == "Use “Recidivism risk (COMPAS)”"
    assert not at.button(key="use_compas").disabled


def test_a_repeated_column_name_loads_and_the_copies_can_be_mapped():
    data = b"label,score,score,group\n" + b"".join(
        f"{i % 2},{(i % 10) / 10},{((i * 7) % 10) / 10},{'ab'[i % 2]}\n".encode() for i in range(40)
    )
    at = data_page()
    upload(at, "joined.csv", data)
    assert 'the header repeats the name "score" (columns 2 and 3)' in texts(at)
    options = at.multiselect(key=mk(at, "scores")).options
    assert "score (column 2)" in options and "score (column 3)" in options
    at.multiselect(key=mk(at, "scores")).set_value(["score (column 3)"])
    submit(at)
    assert list(at.session_state["upload_dataset"].scores) == ["score (column 3)"]


def test_a_very_wide_file_offers_a_capped_list_and_says_how_many_columns_there_are():
    k = 3000
    header = ",".join(["label", "score"] + [f"c{i}" for i in range(k)])
    rows = "\n".join(",".join([str(r % 2), str(r / 10)] + [str(r)] * k) for r in range(6))
    at = data_page()
    upload(at, "wide.csv", (header + "\n" + rows + "\n").encode())
    text = texts(at)
    assert f"has {k + 2:,} columns; each list below offers {loading.MAX_COLUMNS_OFFERED:,} of them" in text
    assert f"{k + 2:,} columns. First rows of the first {loading.PREVIEW_COLUMNS} columns" in text
    label = at.selectbox(key=mk(at, "label"))
    assert len(label.options) == loading.MAX_COLUMNS_OFFERED + 1 and label.value == "label"  # + "(none)"
    assert at.dataframe[0].value.shape[1] == loading.PREVIEW_COLUMNS
    submit(at)
    assert at.session_state["upload_dataset"].n_rows == 6


@pytest.mark.parametrize("name", ["report\u202ecsv.exe.csv", "z" * 5000 + ".csv"])
def test_a_file_name_is_shown_sanitised(name):
    at = data_page()
    upload(at, name, b"label,score\n1,0.9\n0,0.2\n1,0.6\n")
    safe = loading.display_name(name)
    assert f"“{safe}”: 3 rows" in texts(at) or f'"{safe}": 3 rows' in texts(at)
    submit(at)
    assert f"Loaded “{safe}”" in texts(at)
    assert "\u202e" not in texts(at) and name not in texts(at)
    assert at.session_state["upload_dataset"].name == safe


def test_a_displayed_table_is_safe_for_the_toolbar_download():
    frame = pd.DataFrame(
        {
            "label": [1, 0, 1, 0],
            "score": [0.9, 0.1, 0.8, 0.3],
            "grp": ['=HYPERLINK("http://x")', "plain", '=HYPERLINK("http://x")', "plain"],
        }
    )
    at = data_page()
    upload(at, "groups.csv", frame.to_csv(index=False).encode())
    assert at.dataframe[0].value["grp"].tolist()[0].startswith("'=")  # the preview
    at.selectbox(key=mk(at, "group")).set_value("grp")
    submit(at)
    groups = [t.value for t in at.dataframe if "group" in t.value.columns][0]
    assert set(groups["group"]) == {'\'=HYPERLINK("http://x")', "plain"}


def test_an_upload_says_which_pages_use_it_and_a_binary_column_is_taken_as_the_label():
    from costlib.answers.roles import loaded_sentence
    from costlib.core.dataset import ColumnMapping

    data = b"churned,risk_score,region\n" + b"".join(
        f"{i % 2},{(i % 10) / 10 + 0.05:.2f},{'north' if i % 3 else 'south'}\n".encode() for i in range(60)
    )
    df = loading.read_table(data, "churn.csv")
    guess = loading.guess_mapping(df)
    assert guess.label == "churned" and guess.scores == ("risk_score",)  # no "label" name needed
    ds = loading.prepare(df, guess, name="churn.csv", fingerprint="x")
    kind, text = loaded_sentence(ds, "churn.csv")
    assert kind == "success"
    assert text.startswith("Loaded “churn.csv”. Costs & groups, Find my prices, Value and Calibration now use it.")
    assert "Cost matrix and Instance costs need columns it does not have" in text
    no_label = loading.prepare(
        df, ColumnMapping(scores=("risk_score",), group="region"), name="churn.csv", fingerprint="x"
    )
    kind, text = loaded_sentence(no_label, "churn.csv")
    assert kind == "warning" and "no page can use it yet: it lacks a label column with two values" in text


def test_broken_upload_is_a_sentence_and_the_previous_data_stays():
    at = open_app("compas", "views/data.py")
    bad = b"label,score\n1,0.3\n0,high\n1,0.9\n0,n/a\n"
    at.file_uploader(key="uploader").upload("broken.csv", bad, "text/csv").run()
    assert_no_exception(at)
    at.multiselect(key=mk(at, "scores")).set_value(["score"])
    submit = [b for b in at.button if b.label == USE_COLUMNS][0]
    submit.click().run()
    assert_no_exception(at)
    msg = unescape("\n".join(e.value for e in at.error))
    assert "broken.csv" in msg and '"score"' in msg
    assert "rows 3 and 5" in msg  # the file's lines, the header being line 1
    assert "Traceback" not in texts(at)
    at.switch_page("views/costs.py").run()
    assert_no_exception(at)
    assert "cost_chart" in chart_keys(at)  # COMPAS is still loaded


def test_a_new_upload_gets_fresh_mapping_widgets_seeded_from_its_own_columns():
    at = open_app("compas", "views/data.py")
    first = pd.DataFrame({"label": [0, 1, 0, 1] * 10, "old_score": np.linspace(0, 1, 40)})
    second = pd.DataFrame({"label": [1, 0] * 20, "new_score": np.linspace(1, 0, 40)})
    at.file_uploader(key="uploader").upload("a.csv", first.to_csv(index=False).encode(), "text/csv").run()
    assert at.multiselect(key=mk(at, "scores")).value == ["old_score"]
    at.file_uploader(key="uploader").upload("b.csv", second.to_csv(index=False).encode(), "text/csv").run()
    assert at.multiselect(key=mk(at, "scores")).value == ["new_score"]
    [b for b in at.button if b.label == USE_COLUMNS][0].click().run()
    assert_no_exception(at)
    assert list(at.session_state["upload_dataset"].scores) == ["new_score"]


def test_a_refusal_offers_the_fix_only_when_it_has_one():
    """Review 140: after a refusal that offered a fix (scores outside [0, 1]: read them as log-odds),
    a later refusal of the same file without one still said "Tick the fix above the button"."""
    frame = pd.DataFrame({"label": [1, 0, 1, 0, 1, 0], "risk": [0.3, 2.5, -0.1, -1.2, 0.8, -2.0], "y": [1, 2, 3] * 2})
    at = data_page()
    upload(at, "logits.csv", frame.to_csv(index=False).encode())
    at.multiselect(key=mk(at, "scores")).set_value(["risk"])
    submit(at)
    assert "Tick the fix above the button" in "\n".join(unescape(e.value) for e in at.error)
    at.selectbox(key=mk(at, "label")).set_value("y")  # three values: refused, and no fix offered for it
    submit(at)
    said = "\n".join(unescape(e.value) for e in at.error)
    assert "y" in said and "was not loaded" in said, said
    assert "Tick the fix above the button" not in said, said
