"""Bounded under load: a cell, a column name, a label value or a group as long as a file allows.

Whatever the file holds, a page sends the browser at most MAX_CELL_CHARS characters of one
value (in a table, a widget's options, a sentence or a chart), and what the page sends stays
small: before, a CSV whose first cell was 100 MB shipped it to the browser in the preview and
a Parquet string of 50 MB ended in Streamlit's MessageSizeError. The values themselves are
kept whole: choosing a cut option maps the whole column or value.
"""

from __future__ import annotations

import io

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from costlib.core.escaping import MAX_CELL_CHARS
from tests.views.apptest_support import USE_COLUMNS, assert_no_exception, mk, open_app

BIG = 5_000_000  # characters of the one huge cell
LONG = 300_000  # characters of a name, a label value, a group
PAGE_BYTES = 250_000  # what one page may send: less than one long value whole


def data_page() -> AppTest:
    return open_app("compas", "views/data.py", timeout=300)


def elements(node) -> list:
    children = getattr(node, "children", None)
    if children:
        return [e for child in children.values() for e in elements(child)]
    return [node] if getattr(node, "proto", None) is not None else []


def page_bytes(at: AppTest) -> int:
    """What the page's elements carry to the browser (their protobuf messages)."""
    return sum(len(e.proto.SerializeToString()) for block in (at.main, at.sidebar) for e in elements(block))


def longest_option(at: AppTest) -> int:
    return max((len(o) for w in (*at.selectbox, *at.multiselect, *at.radio) for o in w.options), default=0)


def longest_cell(at: AppTest) -> int:
    """The longest text cell or column name of every table on the page."""
    lengths = [0]
    for table in at.dataframe:
        df = table.value
        lengths += [len(str(c)) for c in df.columns]
        lengths += [len(x) for c in range(df.shape[1]) for x in df.iloc[:, c] if isinstance(x, str)]
    return max(lengths)


def assert_bounded(at: AppTest) -> None:
    assert_no_exception(at)
    assert longest_option(at) <= MAX_CELL_CHARS
    assert longest_cell(at) <= MAX_CELL_CHARS
    assert page_bytes(at) < PAGE_BYTES, page_bytes(at)


def upload(at: AppTest, name: str, data: bytes) -> None:
    at.file_uploader(key="uploader").upload(name, data, "application/octet-stream").run()


def preview(at: AppTest):
    return at.dataframe[0]


def dictionary(codes: np.ndarray, values: list[str]) -> pa.DictionaryArray:
    """A text column as Parquet stores a repeated string: each distinct value once."""
    return pa.DictionaryArray.from_arrays(pa.array(codes), pa.array(values))


def parquet(table: pa.Table) -> bytes:
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


def test_a_csv_whose_first_cell_is_5_mb_is_previewed_in_short_cells():
    wide = "c" * LONG  # a column name as long as a header may be: offered in every list of the form
    data = f"label,score,note,{wide}\n1,0.9,{'x' * BIG},0.8\n0,0.2,short,0.1\n1,0.7,c,0.6\n".encode()
    at = data_page()
    upload(at, "huge_cell.csv", data)
    assert_bounded(at)
    head = preview(at).value
    assert head["note"].tolist() == ["x" * (MAX_CELL_CHARS - 1) + "…", "short", "c"]
    assert len(preview(at).proto.SerializeToString()) < 20_000  # the 5 MB cell went to the browser
    captions = "\n".join(c.value for c in at.caption)
    assert "with 2 cells longer than 200 characters cut short" in captions.replace("\\", "")
    # the long name is offered cut, and choosing it maps the whole column
    score = at.multiselect(key=mk(at, "scores"))
    assert "c" * (MAX_CELL_CHARS - 1) + "…" in score.options
    score.set_value(["score", wide])
    [b for b in at.button if b.label == USE_COLUMNS][0].click().run()
    assert_bounded(at)
    assert list(at.session_state["upload_dataset"].scores) == ["score", wide]


def test_a_parquet_repeating_one_long_string_is_previewed_without_message_size_error():
    # dictionary-encoded, as Parquet stores a repeated string: a category in pandas, whose
    # whole dictionary Arrow would send with even the first rows
    rows = 2000
    text = dictionary(np.zeros(rows, np.int32), ["y" * BIG])
    names = dictionary(np.arange(rows, dtype=np.int32), [f"{i:0300d}" for i in range(rows)])  # 2,000 categories
    rng = np.random.default_rng(4)
    table = pa.table({"label": rng.integers(0, 2, rows), "score": rng.random(rows), "text": text, "id": names})
    at = data_page()
    upload(at, "long_text.parquet", parquet(table))
    assert_bounded(at)
    assert preview(at).value["text"].tolist() == ["y" * (MAX_CELL_CHARS - 1) + "…"] * 5
    assert len(preview(at).proto.SerializeToString()) < 20_000


def long_names_file() -> tuple[bytes, dict]:
    """Parquet (a repeated string is stored once) with long label values, groups and a model name."""
    rng = np.random.default_rng(7)
    n = 400
    y = rng.integers(0, 2, n)
    names = {
        "yes": "Y" * LONG + "es",  # a label value
        "model": "m" * LONG + "_2",  # a second score column
        "a": "G" * LONG + "a",  # two groups that read the same once cut
        "b": "G" * LONG + "b",
    }
    table = pa.table(
        {
            "outcome": dictionary((1 - y).astype(np.int32), [names["yes"], "no"]),
            "score": np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1),
            names["model"]: np.clip(0.2 * y + 0.8 * rng.random(n), 0, 1),
            "grp": dictionary((np.arange(n) % 2).astype(np.int32), [names["b"], names["a"]]),
            "split": np.where(np.arange(n) % 3, "train", "test"),
        }
    )
    return parquet(table), names


@pytest.fixture(scope="module")
def loaded() -> tuple[AppTest, dict]:
    """The Data page with long label values, a long model name and long groups mapped and loaded."""
    config.set_option("client.showErrorDetails", "full")
    data, names = long_names_file()
    at = data_page()
    upload(at, "long_names.parquet", data)
    assert_bounded(at)
    at.selectbox(key=mk(at, "label")).set_value("outcome")
    at.run()
    positive = at.selectbox(key=mk(at, "positive"))
    assert sorted(len(o) for o in positive.options) == [2, MAX_CELL_CHARS]
    positive.set_value(names["yes"])
    at.selectbox(key=mk(at, "group")).set_value("grp")
    at.selectbox(key=mk(at, "split")).set_value("split")
    at.multiselect(key=mk(at, "scores")).set_value(["score", names["model"]])
    [b for b in at.button if b.label == USE_COLUMNS][0].click().run()
    assert_bounded(at)
    return at, names


def test_a_cut_value_maps_the_whole_value_and_what_is_loaded_is_bounded(loaded):
    at, names = loaded
    ds = at.session_state["upload_dataset"]
    assert ds.mapping.positive == names["yes"] and list(ds.scores) == ["score", names["model"]]
    assert set(ds.groups) == {names["a"], names["b"]}
    groups = [t.value for t in at.dataframe if "group" in t.value.columns][0]
    assert len(groups) == 2 and groups["group"].map(len).max() == MAX_CELL_CHARS


@pytest.mark.parametrize(
    ("page", "toggles"),
    [
        ("views/costs.py", ("per_group", "details", "fair")),
        ("views/value.py", ()),
        ("views/prices.py", ()),
        ("views/calibration.py", ()),
    ],
)
def test_every_page_sends_a_bounded_amount_of_a_long_name(loaded, page, toggles):
    at, _ = loaded
    at.switch_page(page).run()
    for key in toggles:
        at.toggle(key=key).set_value(True).run()
    assert_bounded(at)
    for chart in at.get("plotly_chart"):
        assert "G" * (MAX_CELL_CHARS + 1) not in chart.proto.spec and "m" * (MAX_CELL_CHARS + 1) not in chart.proto.spec
    pickers = [s for s in at.selectbox if s.key in ("curve_model", "value_model", "model")]
    for picker in pickers:  # a model picked by its cut name is the whole model
        picker.set_value(at.session_state["upload_dataset"].mapping.scores[1]).run()
        assert_bounded(at)
