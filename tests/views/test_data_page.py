"""Headless AppTest of the Data page: fixes by their action, class names, the sample in use,
repeated column names, very wide files and file names shown safely."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from costlib import loading

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture(autouse=True)
def _full_errors():
    config.set_option("client.showErrorDetails", "full")
    yield


def data_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["data"] = "compas"
    at.run()
    at.switch_page("views/data.py").run()
    assert_ok(at)
    return at


def assert_ok(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]


def unescape(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def shown(at: AppTest) -> str:
    parts = [x.value for x in (*at.markdown, *at.caption, *at.success, *at.error, *at.info, *at.warning)]
    return unescape("\n".join(parts))


def mk(at: AppTest, role: str) -> str:
    return f"map_{role}_{at.session_state['_mapping_for'][:12]}"


def upload(at: AppTest, name: str, data: bytes) -> None:
    at.file_uploader(key="uploader").upload(name, data, "text/csv").run()
    assert_ok(at)


def submit(at: AppTest) -> None:
    [b for b in at.button if b.label == "Use these columns"][0].click().run()
    assert_ok(at)


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
    assert "Loaded “logits.csv”" in shown(at)
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
    assert "Classes: spam, sport" in shown(at)  # not "am, ort" (os.path.commonprefix)
    ds = at.session_state["upload_dataset"]
    assert ds.class_names == ("spam", "sport") and ds.y_class.tolist() == [0, 1, 0, 1]


def test_the_sample_in_use_says_so_and_cannot_be_chosen_again():
    at = data_page()
    compas = at.button(key="use_compas")
    assert compas.label == "In use" and compas.disabled
    assert at.button(key="use_tickets").label == "Use this sample" and not at.button(key="use_tickets").disabled
    at.button(key="use_tickets").click().run()
    assert_ok(at)
    assert at.button(key="use_tickets").label == "In use" and at.button(key="use_tickets").disabled
    assert at.button(key="use_compas").label == "Use this sample" and not at.button(key="use_compas").disabled


def test_a_repeated_column_name_loads_and_the_copies_can_be_mapped():
    data = b"label,score,score,group\n" + b"".join(
        f"{i % 2},{(i % 10) / 10},{((i * 7) % 10) / 10},{'ab'[i % 2]}\n".encode() for i in range(40)
    )
    at = data_page()
    upload(at, "joined.csv", data)
    assert 'the header repeats the name "score" (columns 2 and 3)' in shown(at)
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
    text = shown(at)
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
    assert f"“{safe}”: 3 rows" in shown(at) or f'"{safe}": 3 rows' in shown(at)
    submit(at)
    assert f"Loaded “{safe}”" in shown(at)
    assert "\u202e" not in shown(at) and name not in shown(at)
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
