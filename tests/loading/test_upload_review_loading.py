"""A reviewer's uploads on the Data page, in the loader: scores given as percentages are read as
probabilities only when asked (divided by 100, with a note); a split value named in other words
("holdout") is said, not merged silently; a Parquet file with unused nested columns is read
without them (with a note) instead of refused whole."""

from __future__ import annotations

import io

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from costlib import loading
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading.cells import looks_like_percent
from costlib.loading.form_choices import percent_columns
from costlib.loading.parquet import parquet_memory_estimate
from tests.loading import bad_files as bf


def _rows(n: int = 200, seed: int = 3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    p = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, n), 0, 1).round(4)
    split = rng.choice(["Train", "holdout", "TEST"], n)
    return y, p, split


def _percent_csv() -> bytes:
    y, p, split = _rows()
    return bf.csv_bytes(["label", "score", "split"], zip(y, (100 * p).round(2), split, strict=True))


@pytest.mark.parametrize(
    "values, percent",
    [
        ([41.5, 85.65, 0.0, 100.0], True),
        ([0.2, 0.9, 1.0], False),  # probabilities
        ([0.2, 0.9, 5.0], False),  # one stray value above 1: an error in a row, not a scale
        ([5.0, 5.0, 0.5], False),  # one distinct value above 1
        ([3.0, 140.0, 50.0], False),  # above 100
        ([-1.0, 40.0, 50.0], False),  # below 0
    ],
)
def test_what_looks_like_percentages(values, percent):
    assert looks_like_percent(np.array(values)) is percent


def test_the_form_offers_percentages_and_the_fix_reads_them_as_probabilities_with_a_note():
    data = _percent_csv()
    df = loading.read_table(data, "pct.csv")
    guess = loading.guess_mapping(df)
    assert guess.scores == ("score",) and guess.score_scale == "raw"  # as the reviewer found it
    assert list(percent_columns(df, guess.scores)) == ["score"]
    use, options = loading.apply_fixes(guess, [loading.ACTION_PERCENT])
    assert use.score_scale == "probability" and options == {"percent": True}
    ds = loading.prepare(df, use, name="pct.csv", fingerprint="", **options)
    assert ds.probabilities and ds.scores["score"].min() >= 0 and ds.scores["score"].max() <= 1
    np.testing.assert_allclose(ds.scores["score"], df["score"].to_numpy(float) / 100)
    assert any('"score" were read as percentages and divided by 100' in n for n in ds.notes), ds.notes
    raw = loading.prepare(df, guess, name="pct.csv", fingerprint="")  # not ticked: raw, as before
    assert not raw.probabilities and raw.scores["score"].max() > 1


def test_the_percent_fix_leaves_a_probability_column_beside_it_as_it_is():
    y, p, _ = _rows()
    df = loading.read_table(
        bf.csv_bytes(["label", "score_a", "score_b"], zip(y, (100 * p).round(2), p, strict=True)), "two.csv"
    )
    m = ColumnMapping(label="label", scores=("score_a", "score_b"))
    use, options = loading.apply_fixes(m, [loading.ACTION_PERCENT])
    ds = loading.prepare(df, use, name="two.csv", fingerprint="", **options)
    np.testing.assert_allclose(ds.scores["score_b"], p)
    np.testing.assert_allclose(ds.scores["score_a"], (100 * p).round(2) / 100)


def test_a_split_value_in_other_words_is_said():
    y, p, split = _rows()
    df = loading.read_table(bf.csv_bytes(["label", "score", "split"], zip(y, p, split, strict=True)), "odd.csv")
    ds = loading.prepare(
        df, ColumnMapping(label="label", scores=("score",), split="split"), name="odd.csv", fingerprint=""
    )
    said = [n for n in ds.notes if "split" in n]
    assert said == ['In "odd.csv", the split column "split" names splits in words of its own: "holdout" read as test.']
    plain = loading.read_table(
        bf.csv_bytes(["label", "score", "split"], zip(y, p, np.char.lower(split.astype(str)), strict=True)), "p.csv"
    )
    plain = plain.assign(split=plain["split"].astype(str).str.replace("holdout", "test"))
    ds = loading.prepare(
        plain, ColumnMapping(label="label", scores=("score",), split="split"), name="p.csv", fingerprint=""
    )
    assert not [n for n in ds.notes if "split" in n]  # the roles' own names say nothing


def _nested_parquet(*, flat: bool = True) -> bytes:
    y, p, _ = _rows(50)
    cols = {"label": pa.array(y), "score": pa.array(p)} if flat else {}
    cols["nested"] = pa.array([{"a": int(i), "b": [int(i)]} for i in range(50)])
    cols["lst"] = pa.array([[int(i), 1] for i in range(50)])
    buf = io.BytesIO()
    pq.write_table(pa.table(cols), buf)
    return buf.getvalue()


def test_unused_nested_parquet_columns_are_left_out_with_a_note_not_the_whole_file():
    data = _nested_parquet()
    df = loading.read_table(data, "nested.parquet")
    assert list(df.columns) == ["label", "score"]
    assert df.attrs["notes"] == [
        'In "nested.parquet", columns "nested" and "lst" hold nested values (lists, structs or maps), which cannot '
        "be used as table cells; they were left out and the other columns read."
    ]
    ds = loading.prepare(df, ColumnMapping(label="label", scores=("score",)), name="nested.parquet", fingerprint="")
    assert ds.n_rows == 50
    with pytest.raises(DataError, match="nested values"):  # nothing else to read: refused
        loading.read_table(_nested_parquet(flat=False), "only.parquet")


def test_the_footer_estimate_counts_the_columns_read():
    pfile = pq.ParquetFile(pa.BufferReader(_nested_parquet()))
    whole = parquet_memory_estimate(pfile.metadata, pfile.schema_arrow)
    flat = parquet_memory_estimate(pfile.metadata, pfile.schema_arrow, ["label", "score"])
    assert 0 < flat < whole and flat >= 50 * 16
