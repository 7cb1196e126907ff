"""A reviewer's uploads on the Data page (headless AppTest): scores given as percentages are said
in the mapping form with an offer to read them as probabilities, and the loaded sentence says the
pages that need probabilities need them (not "columns it does not have"); a reader's note is
shown once after "Use these columns"; a split value in other words ("holdout") is said; a Parquet
file with unused nested columns loads."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from tests.views.apptest_support import load_file, open_app, submit, unescape, upload

PERCENT_WORDS = "they look like percentages"


def _frame(n: int = 600, seed: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    p = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, n), 0, 1).round(4)
    return pd.DataFrame({"label": y, "score": p, "group": rng.choice(["A", "B"], n)})


def _csv(df: pd.DataFrame, **kw) -> bytes:
    return df.to_csv(index=False, **kw).encode()


def _infos(at) -> list[str]:
    return [unescape(i.value) for i in at.info]


def _said(at) -> str:
    return unescape("\n".join(x.value for x in (*at.info, *at.success, *at.warning, *at.error, *at.caption)))


def test_percent_scores_are_said_in_the_form_and_read_as_probabilities_when_ticked():
    df = _frame()
    df["score"] = (100 * df["score"]).round(2)
    at = open_app("compas", "views/data.py")
    upload(at, "scores_percent.csv", _csv(df))
    offer = [i for i in _infos(at) if PERCENT_WORDS in i]
    assert offer and 'the scores in column "score" all lie between 0 and 100' in offer[0], _infos(at)
    boxes = [c for c in at.checkbox if "as percentages" in c.label]
    assert len(boxes) == 1 and not boxes[0].value
    submit(at)  # not ticked: raw scores, and the reason the other pages need says so
    loaded = unescape(at.success[0].value)
    assert "Value and Calibration need scores that are probabilities, which raw scores are not" in loaded, loaded
    assert "Cost matrix and Instance costs need columns it does not have" in loaded
    assert "Value, Cost matrix" not in loaded
    assert not at.session_state["upload_dataset"].probabilities
    [c for c in at.checkbox if "as percentages" in c.label][0].check()
    submit(at)
    ds = at.session_state["upload_dataset"]
    assert ds.probabilities and ds.scores["score"].max() <= 1
    assert "Find my prices, Value and Calibration now use it" in unescape(at.success[0].value)
    assert "were read as percentages and divided by 100" in _said(at)
    assert [r.value for r in at.radio if r.label == "The scores are"] == ["probability"]  # the form shows it


def test_a_readers_note_is_shown_once_after_use_these_columns():
    df = _frame()
    at = open_app("compas", "views/data.py")
    load_file(at, "decimal_comma.csv", _csv(df, sep=";", decimal=","))
    notes = [i for i in _infos(at) if "decimal comma" in i]
    assert len(notes) == 1, _infos(at)
    dup = _frame()
    dup.insert(2, "score2", dup["score"])
    data = _csv(dup).replace(b"score2", b"score", 1)
    load_file(at, "dup_col.csv", data)
    notes = [i for i in _infos(at) if "the header repeats the name" in i]
    assert len(notes) == 1, _infos(at)


def test_a_split_value_in_other_words_is_said_on_the_data_page():
    df = _frame()
    df["split"] = np.where(
        np.arange(len(df)) % 3 == 0, "Train", np.where(np.arange(len(df)) % 3 == 1, "holdout", "TEST")
    )
    at = open_app("compas", "views/data.py")
    load_file(at, "split_odd.csv", _csv(df))
    assert '"holdout" read as test' in _said(at), _said(at)


def test_a_parquet_file_with_unused_nested_columns_loads():
    df = _frame(200)
    table = pa.Table.from_pandas(df, preserve_index=False)
    table = table.append_column("lst", pa.array([[i, 1] for i in range(200)]))
    buf = io.BytesIO()
    pq.write_table(table, buf)
    at = open_app("compas", "views/data.py")
    load_file(at, "nested.parquet", buf.getvalue(), mime="application/octet-stream")
    ds = at.session_state["upload_dataset"]
    assert ds.name == "nested.parquet" and ds.n_rows == 200
    assert 'column "lst" holds nested values' in _said(at) and "it was left out" in _said(at)
