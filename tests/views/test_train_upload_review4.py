"""Train with costs, "Your own table" (review 4, hostile uploads): the outcome is never learned
from, a table without a price column gets no price chosen for it, and a bad second upload keeps
the table in use."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from costlib import loading
from costlib.present import training_words
from tests.views.apptest_support import assert_no_exception, open_app, texts, unescape

PAGE = "views/train.py"


def hostile() -> pd.DataFrame:
    """As inst_hostile.csv: a label, a score, a group, each case's price (delta) and a note."""
    rng = np.random.default_rng(7)
    n = 400
    delta = rng.normal(size=n)
    return pd.DataFrame(
        {
            "label": rng.integers(0, 2, n),  # the outcome column: named so, whatever it holds
            "score": rng.random(n),
            "group": rng.choice(["<img src=x onerror=alert(1)>", "**bold** $x$"], n),
            "delta": delta,
            "<b>note</b>": "x",
        }
    )


def upload(at: AppTest, name: str, content: bytes) -> AppTest:
    at.file_uploader(key="train_uploader").upload(name, content, "text/csv").run()
    assert_no_exception(at)
    return at


def own_table(frame: pd.DataFrame, name: str) -> tuple[AppTest, str]:
    at = open_app(None, PAGE, timeout=180)
    at.radio(key="train_data").set_value("upload").run()
    content = frame.to_csv(index=False).encode()
    return upload(at, name, content), loading.fingerprint(content)[:12]


def errors(at: AppTest) -> list[str]:
    return [unescape(e.value) for e in at.error]


def test_the_outcome_is_not_a_default_feature():
    """inst_hostile.csv: "Feature columns" started at [label, score], so every way of training
    learned from the outcome itself. Neither the outcome nor the price is a default feature, and the
    page says why the one named as the outcome is not."""
    at, tag = own_table(hostile(), "inst_hostile.csv")
    assert at.selectbox(key=f"train_delta_{tag}").value == "delta"
    assert at.multiselect(key=f"train_features_{tag}").value == ["score"]
    assert training_words.left_out_sentence({"label": "is named as the outcome"}) in texts(at)


def test_a_column_named_as_the_outcome_is_refused_by_hand_only_if_its_values_copy_the_label():
    """In Train the label is the price's sign, not a column: "label" chosen by hand is taken when its
    values do not copy that sign (here 0/1 at random), and refused, saying it is the answer the model
    is asked to predict, when they do; nothing is trained on it then."""
    at, tag = own_table(hostile(), "inst_hostile.csv")
    at.multiselect(key=f"train_features_{tag}").set_value(["label", "score"]).run()
    assert_no_exception(at)
    assert not errors(at), errors(at)
    assert [b for b in at.button if b.label == "Train and compare"]
    copy = hostile().assign(label=lambda f: (f["delta"] > 0).astype(int))
    at, tag = own_table(copy, "inst_hostile.csv")
    at.multiselect(key=f"train_features_{tag}").set_value(["label", "score"]).run()
    assert_no_exception(at)
    said = errors(at)
    assert len(said) == 1, said
    assert said[0].startswith('In "inst_hostile.csv", the column "label" splits the rows exactly as the label does')
    assert "it is the answer" in said[0] and "Leave it out of the features" in said[0]
    assert not at.get("plotly_chart") and not at.button


def test_a_copy_of_the_label_under_another_name_is_refused():
    """A column that splits the rows exactly as the label does (here 1 where the price is above 0,
    named "flag") is the answer too, whatever its name."""
    frame = hostile().drop(columns=["label"])
    frame["flag"] = (frame["delta"] > 0).astype(int)
    at, tag = own_table(frame, "copy.csv")
    at.multiselect(key=f"train_features_{tag}").set_value(["score", "flag"]).run()
    said = errors(at)
    assert len(said) == 1 and 'the column "flag" splits the rows exactly as the label does' in said[0], said


def test_no_price_column_is_said_and_none_is_chosen():
    """c_dupcols.csv (decided, score, score, outcome): the first column, "decided", was taken as the
    price and the error blamed the file ("3,000 values that are not numbers"). Now the page says no
    price column was found, chooses none and waits for the person's choice; once chosen, the
    features leave it out."""
    frame = pd.DataFrame(
        {
            "decided": pd.date_range("2026-01-01", periods=300, freq="D").strftime("%Y-%m-%d"),
            "score": np.linspace(0, 1, 300),
            "score.1": 0.5,
            "outcome": np.arange(300) % 2,
        }
    )
    at, tag = own_table(frame, "c_dupcols.csv")
    assert not errors(at), errors(at)
    assert training_words.no_price_sentence("c_dupcols.csv") in texts(at)
    box = at.selectbox(key=f"train_delta_{tag}")
    assert box.value is None and box.placeholder == training_words.TRAIN_WORDS["pick_column"]
    assert not [m for m in at.multiselect if m.key == f"train_features_{tag}"]  # nothing to learn from yet
    box.set_value("score.1").run()
    assert_no_exception(at)
    assert at.multiselect(key=f"train_features_{tag}").value == ["score"]  # not the price, not the outcome


def test_a_bad_second_upload_keeps_the_table_in_use():
    """inst_hostile.csv mapped and ready, then c_empty.csv (a header and no rows): the page showed
    only the error. Now the earlier table stays in use, said under the refusal as the Data page says
    it, and its choices are still there."""
    at, tag = own_table(hostile(), "inst_hostile.csv")
    assert "Press **Train and compare**" in " ".join(x.value for x in at.info)
    upload(at, "c_empty.csv", b"decided,score,outcome,region\n")
    said = errors(at)
    assert len(said) == 1, said
    assert "c_empty.csv" in said[0] and "“c_empty.csv” was not loaded." in said[0], said
    assert "Your previous file, “inst_hostile.csv”, is still loaded." in said[0], said
    assert at.multiselect(key=f"train_features_{tag}").value == ["score"]
    assert "Your file: inst_hostile.csv (400 rows)." in texts(at)
    assert "Press **Train and compare**" in " ".join(x.value for x in at.info)


def review_files(folder: Path) -> dict[str, bytes]:
    """The review's files, made again at their shapes (they were read from /tmp/review4/f, absent on CI,
    so the test was always skipped there): the hostile table; c_empty.csv, no byte at all; c_dupcols.csv,
    a date, a score, a second column also named "score" (read as "score.1") and a 0/1 outcome, 2,999
    rows; c_hugeline.csv, one row whose score is a number of millions of digits (here 2 million, beyond
    any float: the review's had 31 million)."""
    dates = [f"2026-{m:02d}-01" for m in range(1, 10)]
    dup = "decided,score,score,outcome\n" + "".join(
        f"{dates[i % 9]},{i % 10 / 10:.1f},0.5,{i % 2}\n" for i in range(2999)
    )
    files = {
        "inst_hostile.csv": hostile().to_csv(index=False).encode(),
        "c_empty.csv": b"",
        "c_dupcols.csv": dup.encode(),
        "c_hugeline.csv": b"decided,score,outcome,region\n2026-01-01," + b"9" * 2_000_000 + b",1,north\n",
    }
    for name, raw in files.items():
        (folder / name).write_bytes(raw)
    return {name: (folder / name).read_bytes() for name in files}


def test_the_reviews_own_files(tmp_path):
    """The files of the review itself, as uploaded there, in its order."""
    files = review_files(tmp_path)
    at = open_app(None, PAGE, timeout=180)
    at.radio(key="train_data").set_value("upload").run()
    raw = files["inst_hostile.csv"]
    tag = loading.fingerprint(raw)[:12]
    upload(at, "inst_hostile.csv", raw)
    assert at.multiselect(key=f"train_features_{tag}").value == ["score"]
    upload(at, "c_empty.csv", files["c_empty.csv"])
    assert "“inst_hostile.csv”, is still loaded" in errors(at)[0]
    for name in ("c_dupcols.csv", "c_hugeline.csv"):
        raw = files[name]
        upload(at, name, raw)
        assert at.selectbox(key=f"train_delta_{loading.fingerprint(raw)[:12]}").value is None
        assert training_words.no_price_sentence(name) in texts(at)
        assert not errors(at), errors(at)
