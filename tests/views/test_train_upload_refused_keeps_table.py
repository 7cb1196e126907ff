"""Train with costs, "Your own table": a second file that reads but whose columns are then refused
(its price column has one sign only, a feature chosen is the outcome, no price column at all) kept
nothing of the table in use before: the page showed the refusal alone, and the ready table was
gone. A file that cannot be read already kept it ("… is still loaded"); now a refused one does too:
the refusal names the file and why, says the earlier table is still in use, and the page goes on
with it, its own column choices included."""

from __future__ import annotations

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from costlib import loading
from costlib.answers.training import named_verdict
from costlib.present import labels as t
from costlib.present import training_page, training_words
from costlib.training import data as training_data
from costlib.training.compare import compare_training
from costlib.training.kept import kept_of_results
from costlib.training.summary import training_summary
from tests.views.apptest_support import assert_no_exception, open_app, texts, unescape

PAGE = "views/train.py"
FIRST = "first cases.csv"
STILL = t.previous_upload_sentence(FIRST, "file")  # “Your previous file, “first cases.csv”, is still loaded.”
PRESS = "Press **Train and compare**"


def first_table() -> pd.DataFrame:
    rng = np.random.default_rng(11)
    n = 300
    x = rng.normal(size=(n, 3))
    delta = x[:, 0] + rng.normal(size=n)
    return pd.DataFrame({"x0": x[:, 0], "x1": x[:, 1], "x2": x[:, 2], "delta": delta})


def tag(frame: pd.DataFrame) -> str:
    return loading.fingerprint(frame.to_csv(index=False).encode())[:12]


def upload(at: AppTest, name: str, frame: pd.DataFrame) -> AppTest:
    at.file_uploader(key="train_uploader").upload(name, frame.to_csv(index=False).encode(), "text/csv").run()
    assert_no_exception(at)
    return at


def ready_first() -> tuple[AppTest, str]:
    """The first table mapped and ready, one of its guessed features left out by hand."""
    at = open_app(None, PAGE, timeout=180)
    at.radio(key="train_data").set_value("upload").run()
    frame = first_table()
    upload(at, FIRST, frame)
    at.multiselect(key=f"train_features_{tag(frame)}").set_value(["x0", "x1"]).run()
    assert_no_exception(at)
    assert PRESS in " ".join(x.value for x in at.info)
    first = training_data.from_table(frame, name=FIRST, fingerprint="f", features=("x0", "x1"), delta="delta")
    return at, training_page.data_sentence(first)


def errors(at: AppTest) -> list[str]:
    return [unescape(e.value) for e in at.error]


def assert_first_in_use(at: AppTest, first_sentence: str) -> None:
    """The page goes on with the first table as it was chosen (two features, not three)."""
    assert first_sentence in texts(at), texts(at)
    assert PRESS in " ".join(x.value for x in at.info)
    assert [b for b in at.button if b.label == "Train and compare"]


def test_a_second_file_whose_price_has_one_sign_keeps_the_first_in_use():
    at, first_sentence = ready_first()
    second = first_table().assign(delta=lambda f: f["delta"].abs() + 1.0)  # every case positive
    upload(at, "second.csv", second)
    said = errors(at)
    assert len(said) == 1, said
    assert 'the delta of "second.csv" is positive in all 300 rows' in said[0], said  # which file and why
    assert "“second.csv” was not loaded." in said[0] and STILL in said[0], said
    assert_first_in_use(at, first_sentence)
    at.number_input(key="train_seeds").set_value(2)
    next(b for b in at.button if b.label == "Train and compare").click().run()
    assert_no_exception(at)
    frame = first_table()  # trained on the first table, as chosen: two features
    results = compare_training(frame[["x0", "x1"]].to_numpy(), frame["delta"].to_numpy(), seeds=2)
    want = named_verdict(
        training_summary(results), kept_of_results(results), price=1.0, unit="$", volume=10_000
    ).headline
    assert want in [unescape(x.value).strip("*") for x in [*at.success, *at.warning, *at.error, *at.info]]


def test_a_second_file_whose_features_are_refused_keeps_the_first_in_use():
    """Its only column besides the price is the outcome: no feature by default, and chosen by hand
    it is refused; the first table stays in use throughout, and a good third file replaces it."""
    at, first_sentence = ready_first()
    second = first_table()[["delta"]].assign(label=lambda f: (f["delta"] > 0).astype(int))
    upload(at, "second.csv", second)
    said = errors(at)
    assert len(said) == 1 and said[0].startswith('In "second.csv", no feature column is chosen'), said
    assert "“second.csv” was not loaded." in said[0] and STILL in said[0], said
    assert_first_in_use(at, first_sentence)
    at.multiselect(key=f"train_features_{tag(second)}").set_value(["label"]).run()
    assert_no_exception(at)
    said = errors(at)
    assert len(said) == 1, said
    assert said[0].startswith('In "second.csv", the column "label" splits the rows exactly as the label does'), said
    assert "“second.csv” was not loaded." in said[0] and STILL in said[0], said
    assert_first_in_use(at, first_sentence)
    upload(at, "third.csv", first_table().drop(columns=["x2"]))  # fine: in use, nothing else said
    assert not errors(at) and STILL not in texts(at)
    assert "Your file: third.csv (300 rows)." in texts(at) and first_sentence in texts(at)  # x0 and x1 again


def test_a_second_file_without_a_price_column_keeps_the_first_in_use_while_one_is_chosen():
    at, first_sentence = ready_first()
    second = first_table().rename(columns={"delta": "amount"})  # named like no price
    upload(at, "second.csv", second)
    assert training_words.no_price_sentence("second.csv") in texts(at)
    assert STILL in texts(at)
    assert_first_in_use(at, first_sentence)


def test_the_same_file_with_a_refused_choice_is_refused_as_before():
    """No earlier file: a refused choice of the file in use (no feature at all) stops the page at
    the refusal, as before: its earlier choices are not taken instead."""
    at, _ = ready_first()
    at.multiselect(key=f"train_features_{tag(first_table())}").set_value([]).run()
    assert_no_exception(at)
    said = errors(at)
    assert len(said) == 1 and STILL not in said[0], said
    assert not at.button
