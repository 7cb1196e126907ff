"""Tests for costlib.loading: reading uploads, guessing roles, validating, safe downloads."""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import io
import math
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field

import hypothesis
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.special import expit

from costlib import loading
from costlib.core.dataset import SPLIT_ROLES, ColumnMapping, Dataset
from costlib.core.errors import DataError
from costlib.loading import (
    fingerprint,
    guess_mapping,
    label_values,
    prepare,
    read_table,
    safe_csv,
)
from costlib.loading.messages import file_row

try:  # tests/ is a plain directory; be robust if it becomes a package
    from tests.loading import bad_files as bf
except ImportError:  # pragma: no cover
    import bad_files as bf  # type: ignore[no-redef]

BASIC = ColumnMapping(label="label", scores=("score",))


def load(data: bytes, filename: str, mapping: ColumnMapping | None = None, **kwargs):
    """read_table, then prepare when a mapping is given (what the Data page does)."""
    df = read_table(data, filename)
    if mapping is None:
        return df
    return prepare(df, mapping, name=filename, fingerprint=fingerprint(data), **kwargs)


@dataclass
class Case:
    id: str
    data: bytes
    filename: str
    mapping: ColumnMapping | None = BASIC
    kwargs: dict = field(default_factory=dict)
    expect: tuple[str, ...] = ()  # words the error message must contain
    column: str | None = None  # DataError.column (and quoted in the message)
    fix: str | None = None  # words DataError.fix must contain
    check: Callable | None = None  # for files that must load: check(result)


def _groups_csv(sizes: dict[str, int]) -> bytes:
    rows = []
    for g, k in sizes.items():
        rows += [(len(rows) % 2, 0.5, g) for _ in range(k)]
    return bf.csv_bytes(["label", "score", "group"], rows)


def _check_decimal_comma(ds: Dataset) -> None:
    np.testing.assert_allclose(ds.scores["score"], [0.25, 0.5, 0.75])
    assert list(ds.y) == [1, 0, 1]
    assert any("decimal comma" in n for n in ds.notes)


def _check_bom(ds: Dataset) -> None:
    assert ds.mapping.label == "label"
    assert list(ds.y) == [1, 0]


def _check_latin1(ds: Dataset) -> None:
    assert set(ds.groups) == {"Montréal", "Zürich", "São Paulo"}
    assert any("not UTF-8" in n for n in ds.notes)


def _check_y(expected: list[int]) -> Callable[[Dataset], None]:
    def check(ds: Dataset) -> None:
        assert ds.y.dtype == np.int8
        assert ds.y.tolist() == expected

    return check


def _check_logit(ds: Dataset) -> None:
    np.testing.assert_allclose(ds.scores["score"], expit([0.3, 2.5, -0.1, -1.2]))
    assert ds.probabilities


def _check_raw(ds: Dataset) -> None:
    assert ds.scores["score"].tolist() == [0.3, 2.5, -0.1, -1.2]
    assert not ds.probabilities


def _check_one_row_group(ds: Dataset) -> None:
    assert ds.groups.dtype == object and set(ds.groups) == {"A", "B", "C"}
    note = " ".join(ds.notes)
    assert '"C"' in note and "row 8" in note and "single row" in note


def _check_top_groups(ds: Dataset) -> None:
    assert len(set(ds.groups)) == 11 and "Other" in set(ds.groups)
    assert ds.n_rows == len(ds.groups)
    note = " ".join(ds.notes)
    assert "300 groups" in note and "10 largest" in note and "other 290" in note


def _check_votes(ds: Dataset) -> None:
    np.testing.assert_allclose(ds.delta, np.log(np.array([4, 1, 2, 1]) / np.array([1, 3, 2, 6])))


def _check_renormalised(ds: Dataset) -> None:
    np.testing.assert_allclose(ds.class_probs.sum(axis=1), 1.0)
    assert ds.class_names == ("a", "b", "c")
    assert any("2 rows" in n and "renormalised" in n for n in ds.notes)


def _check_split(ds: Dataset) -> None:
    assert ds.split.tolist() == ["train", "validation", "test", "validation", "train"]
    assert ds.has_role("test") and ds.rows("train").sum() == 2


def _check_dropped(ds: Dataset) -> None:
    assert ds.n_rows == 4 and ds.y.tolist() == [1, 0, 1, 0]
    assert ds.scores["score"].tolist() == [0.9, 0.7, 0.6, 0.1]
    note = " ".join(ds.notes)
    assert "2 rows" in note and "rows 3 and 6" in note and "dropped" in note


def _check_parquet(ds: Dataset) -> None:
    assert ds.n_rows == 4 and ds.y.tolist() == [1, 0, 0, 1]
    assert ds.groups.tolist() == ["a", "b", "a", "b"]


def _check_multiclass(ds: Dataset) -> None:
    assert ds.y is None and ds.class_names == ("billing", "tech", "sales")
    assert ds.y_class.tolist() == [0, 1, 2, 1]
    assert ds.class_probs.shape == (4, 3)


MC_HEADER = ["p_a", "p_b", "p_c"]
MC_BAD_SUMS = [(0.2, 0.3, 0.5), (0.2, 0.3, 0.4), (0.1, 0.1, 0.8), (0.5, 0.5, 0.2)]
MC_MAPPING = ColumnMapping(class_probs=("p_a", "p_b", "p_c"))
SCORES_01 = [(1, 0.3), (0, 2.5), (1, -0.1), (0, -1.2)]
LABEL_MISSING_ROWS = [(1, 0.9), ("", 0.8), (0, 0.7), (1, 0.6), ("NA", 0.5), (0, 0.1)]
VOTES = bf.csv_bytes(["n_yes", "n_no"], [(3, 0), (0, 2), (1, 1), (0, 5)])
VOTES_MAPPING = ColumnMapping(votes_yes="n_yes", votes_no="n_no")

CASES = [
    # -- files that are not tables ------------------------------------------------------
    Case("empty_file", b"", "empty.csv", expect=("empty.csv", "is empty")),
    Case("whitespace_only", b"  \n\r\n \n", "blank.csv", expect=("blank.csv", "is empty")),
    Case(
        "header_only",
        b"label,score\n",
        "header.csv",
        expect=("header.csv", '"label"', '"score"', "no data rows"),
    ),
    Case("binary_garbage", bf.garbage_bytes(), "data.csv", expect=("data.csv", "binary data")),
    Case("png_renamed_csv", bf.png_bytes(), "photo.csv", expect=("photo.csv", "PNG image")),
    Case("xlsx_workbook", bf.zip_bytes(), "book.xlsx", expect=("book.xlsx", "ZIP", "Excel")),
    Case(
        "csv_named_parquet",
        b"label,score\n1,0.5\n",
        "preds.parquet",
        expect=("preds.parquet", "PAR1"),
    ),
    Case(
        "space_separated_single_column",
        b"label score\n1 0.3\n0 0.2\n",
        "spaces.csv",
        expect=("spaces.csv", '"label score"', "single column", "spaces"),
        column="label score",
    ),
    Case(
        "ragged_line",
        b"label,score\n1,0.2\n0,0.3\n1,0.4,7\n",
        "ragged.csv",
        expect=("ragged.csv", "line 4", "3 fields", "header has 2"),
    ),
    Case(
        "unclosed_quote",
        b'label,score\n1,0.2\n0,"0.3\n1,0.4\n',
        "quote.csv",
        expect=("quote.csv", "line 3", "never closed"),
    ),
    Case(  # a repeated name whose columns differ loads; only mapping that name is refused
        "duplicate_columns",
        b"label,score, score\n1,0.2,0.3\n0,0.1,0.4\n",
        "dup.csv",
        expect=("dup.csv", '"score"', "columns 2 and 3", "repeats", '"score (column 2)" or "score (column 3)"'),
        column="score",
    ),
    # -- encodings and separators that must load ----------------------------------------
    Case(
        "semicolon_decimal_comma",
        b"label;score;group\n1;0,25;A\n0;0,5;B\n1;0,75;A\n",
        "de.csv",
        mapping=ColumnMapping(label="label", scores=("score",), group="group"),
        check=_check_decimal_comma,
    ),
    Case(
        "utf8_bom",
        b"\xef\xbb\xbf" + b"label,score\r\n1,0.9\r\n0,0.2\r\n",
        "bom.csv",
        check=_check_bom,
    ),
    Case(
        "latin1_groups",
        bf.csv_bytes(
            ["label", "score", "group"],
            [(1, 0.9, "Montréal"), (0, 0.2, "Zürich"), (1, 0.4, "São Paulo"), (0, 0.1, "Zürich")],
            encoding="latin-1",
        ),
        "latin.csv",
        mapping=ColumnMapping(label="label", scores=("score",), group="group"),
        check=_check_latin1,
    ),
    Case(
        "utf16_tab_separated",
        "label\tscore\n1\t0.9\n0\t0.2\n".encode("utf-16"),
        "excel.txt",
        check=_check_y([1, 0]),
    ),
    # -- labels -------------------------------------------------------------------------
    Case(
        "label_one_class",
        bf.csv_bytes(["label", "score"], [(1, i / 10) for i in range(6)]),
        "one.csv",
        expect=("one.csv", '"label"', 'only one value, "1"', "rows 2 to 7", "both"),
        column="label",
    ),
    Case(
        "label_three_values",
        bf.csv_bytes(["label", "score"], [("yes", 0.1), ("no", 0.2), ("maybe", 0.3), ("no", 0.4)]),
        "three.csv",
        expect=("three.csv", '"label"', "3 distinct values", '"maybe" (1 row, first at row 4)'),
        column="label",
    ),
    Case(
        "label_words_need_positive",
        bf.csv_bytes(["label", "score"], [("yes", 0.9), ("no", 0.2), ("yes", 0.4)]),
        "words.csv",
        expect=("words.csv", '"label"', '"yes" and "no"', "rows 2 and 3", "positive"),
        column="label",
    ),
    Case(
        "label_words_with_positive",
        bf.csv_bytes(["label", "score"], [("yes", 0.9), ("no", 0.2), (" yes ", 0.4)]),
        "words.csv",
        mapping=ColumnMapping(label="label", positive="yes", scores=("score",)),
        check=_check_y([1, 0, 1]),
    ),
    Case(
        "label_positive_not_found",
        bf.csv_bytes(["label", "score"], [("yes", 0.9), ("no", 0.2)]),
        "words.csv",
        mapping=ColumnMapping(label="label", positive="spam", scores=("score",)),
        expect=("words.csv", '"label"', '"spam"', "row 2", "row 3"),
        column="label",
    ),
    Case(
        "label_true_false_strings",
        b"label,score\nTrue,0.9\nfalse,0.2\nTRUE,0.4\nFalse,0.3\n",
        "bools.csv",
        check=_check_y([1, 0, 1, 0]),
    ),
    Case(
        "label_true_false_text_parquet",
        bf.parquet_bytes({"label": ["True", "False", "True"], "score": [0.9, 0.2, 0.4]}),
        "bools.parquet",
        check=_check_y([1, 0, 1]),
    ),
    Case(
        "label_one_zero_strings",
        bf.parquet_bytes({"label": pa.array(["1", "0", "0", "1"], pa.string()), "score": [0.9, 0.2, 0.4, 0.6]}),
        "strings.parquet",
        check=_check_y([1, 0, 0, 1]),
    ),
    Case(
        "missing_labels",
        bf.csv_bytes(["label", "score"], LABEL_MISSING_ROWS),
        "missing.csv",
        expect=("missing.csv", '"label"', "(a blank cell) in 1 row: row 3", 'marker like "NA" in 1 row: row 6'),
        column="label",
        fix="drop the 2 rows with a missing label",
    ),
    Case(
        "missing_labels_dropped",
        bf.csv_bytes(["label", "score"], LABEL_MISSING_ROWS),
        "missing.csv",
        kwargs={"drop_missing_labels": True},
        check=_check_dropped,
    ),
    # -- scores -------------------------------------------------------------------------
    Case(
        "scores_as_text",
        bf.csv_bytes(["label", "score"], [(1, 0.9), (0, "high"), (1, 0.3), (0, "n/a"), (1, "0.4.1")]),
        "preds.csv",
        expect=(
            'In "preds.csv", column "score" has 3 values that are not numbers: '
            'rows 3, 5 and 6 ("high", "n/a", "0.4.1").',
        ),
        column="score",
    ),
    Case(
        "scores_nan",
        bf.csv_bytes(["label", "score"], [(1, 0.9), (0, "NaN"), (1, "nan"), (0, 0.1)]),
        "nan.csv",
        expect=("nan.csv", '"score"', 'a missing-value marker like "NaN" or "nan"', "rows 3 and 4"),
        column="score",
    ),
    Case(
        "scores_empty_cells",
        bf.csv_bytes(["label", "score"], [(1, 0.9), (0, 0.2), (1, 0.3), (0, None)]),
        "blank_cells.csv",
        expect=("blank_cells.csv", '"score"', "1 empty value", "row 5"),
        column="score",
    ),
    Case(
        "scores_infinite",
        bf.csv_bytes(["label", "score"], [(1, "inf"), (0, 0.2), (1, 0.3), (0, 0.1), (1, "-inf")]),
        "inf.csv",
        expect=("inf.csv", '"score"', "2 infinite values", "rows 2 and 6"),
        column="score",
    ),
    Case(
        "probabilities_outside_01",
        bf.csv_bytes(["label", "score"], SCORES_01),
        "logits.csv",
        expect=(
            "logits.csv",
            '"score"',
            "3 values outside [0, 1]",
            "smallest -1.2",
            "largest 2.5",
            'rows 3, 4 and 5 ("2.5", "-0.1", "-1.2")',
            '"logit"',
        ),
        column="score",
        fix="log-odds",
    ),
    Case(
        "logit_scale_accepted",
        bf.csv_bytes(["label", "score"], SCORES_01),
        "logits.csv",
        mapping=ColumnMapping(label="label", scores=("score",), score_scale="logit"),
        check=_check_logit,
    ),
    Case(
        "raw_scale_accepted",
        bf.csv_bytes(["label", "score"], SCORES_01),
        "raw.csv",
        mapping=ColumnMapping(label="label", scores=("score",), score_scale="raw"),
        check=_check_raw,
    ),
    Case(
        "mapped_column_missing",
        bf.csv_bytes(["label", "score"], [(1, 0.9), (0, 0.2)]),
        "m.csv",
        mapping=ColumnMapping(label="label", scores=("scor",)),
        expect=("m.csv", '"scor"', "does not exist", '"label", "score"'),
        column="scor",
    ),
    # -- groups, weights, split ---------------------------------------------------------
    Case(
        "group_with_one_row",
        _groups_csv({"A": 3, "B": 3, "C": 1}),
        "g.csv",
        mapping=ColumnMapping(label="label", scores=("score",), group="group"),
        check=_check_one_row_group,
    ),
    Case(
        "group_300_values",
        bf.many_groups_csv(300),
        "groups.csv",
        mapping=ColumnMapping(label="label", scores=("score",), group="group"),
        expect=("groups.csv", '"group"', "300 distinct groups", '"g000"', "first at row 2"),
        column="group",
        fix="keep the 10 largest groups and put the rest in 'Other'",
    ),
    Case(
        "group_300_values_top10",
        bf.many_groups_csv(300),
        "groups.csv",
        mapping=ColumnMapping(label="label", scores=("score",), group="group"),
        kwargs={"top_groups": 10},
        check=_check_top_groups,
    ),
    Case(
        "negative_weights",
        bf.csv_bytes(
            ["label", "score", "weight"],
            [(1, 0.9, 1), (0, 0.2, -1), (1, 0.4, 2), (0, 0.3, 0), (1, 0.8, -0.5)],
        ),
        "w.csv",
        mapping=ColumnMapping(label="label", scores=("score",), weight="weight"),
        expect=("w.csv", '"weight"', "2 negative values", "rows 3 and 6", '"-1"', '"-0.5"'),
        column="weight",
    ),
    Case(
        "split_unknown_values",
        bf.csv_bytes(
            ["label", "score", "split"],
            [
                (1, 0.9, "train"),
                (0, 0.2, "test"),
                (1, 0.4, "trian"),
                (0, 0.3, "test"),
                (1, 0.8, None),
            ],
        ),
        "split.csv",
        mapping=ColumnMapping(label="label", scores=("score",), split="split"),
        expect=("split.csv", '"split"', "2 values", "rows 4 and 6", '"trian"'),
        column="split",
    ),
    Case(
        "split_aliases",
        bf.csv_bytes(
            ["label", "score", "split"],
            [
                (1, 0.9, "Train"),
                (0, 0.2, "VALID"),
                (1, 0.4, "holdout"),
                (0, 0.3, "calib"),
                (1, 0.8, "fit"),
            ],
        ),
        "split.csv",
        mapping=ColumnMapping(label="label", scores=("score",), split="split"),
        check=_check_split,
    ),
    # -- delta --------------------------------------------------------------------------
    Case(
        "delta_all_zero",
        bf.csv_bytes(["label", "delta"], [(1, 0), (0, 0.0), (1, 0), (0, 0)]),
        "delta.csv",
        mapping=ColumnMapping(label="label", delta="delta"),
        expect=("delta.csv", '"delta"', "rows 2 to 5", "nothing to weigh"),
        column="delta",
    ),
    Case(
        "votes_negative",
        bf.csv_bytes(["n_yes", "n_no"], [(3, 0), (0, 2), (1, -2), (0, 5)]),
        "votes.csv",
        mapping=VOTES_MAPPING,
        expect=("votes.csv", '"n_no"', "1 negative vote count", "row 4", '"-2"'),
        column="n_no",
    ),
    Case(
        "votes_non_integer",
        bf.csv_bytes(["n_yes", "n_no"], [(3, 0), (1.5, 2), (1, 1), (0, 5)]),
        "votes.csv",
        mapping=VOTES_MAPPING,
        expect=("votes.csv", '"n_yes"', "1 vote count that is not a whole number", "row 3", '"1.5"'),
        column="n_yes",
    ),
    Case("votes_ok", VOTES, "votes.csv", mapping=VOTES_MAPPING, check=_check_votes),
    Case(
        "rating_without_midpoint",
        bf.csv_bytes(["rating"], [(1,), (5,), (3,)]),
        "rating.csv",
        mapping=ColumnMapping(rating="rating"),
        expect=("rating.csv", '"rating"', "midpoint", "not given"),
        column="rating",
    ),
    # -- multiclass ---------------------------------------------------------------------
    Case(
        "multiclass_not_summing",
        bf.csv_bytes(MC_HEADER, MC_BAD_SUMS),
        "mc.csv",
        mapping=MC_MAPPING,
        expect=("mc.csv", '"p_a"', "do not sum to 1", "rows 3 and 5", '"sum 0.9"', '"sum 1.2"'),
        column="p_a",
        fix="renormalise each row to sum to 1",
    ),
    Case(
        "multiclass_renormalised",
        bf.csv_bytes(MC_HEADER, MC_BAD_SUMS),
        "mc.csv",
        mapping=MC_MAPPING,
        kwargs={"renormalise": True},
        check=_check_renormalised,
    ),
    Case(
        "multiclass_label_ok",
        bf.csv_bytes(
            ["ticket", "p_billing", "p_tech", "p_sales"],
            [
                ("billing", 0.7, 0.2, 0.1),
                ("Tech", 0.1, 0.8, 0.1),
                ("sales", 0.2, 0.2, 0.6),
                ("tech", 0.3, 0.4, 0.3),
            ],
        ),
        "tickets.csv",
        mapping=ColumnMapping(class_label="ticket", class_probs=("p_billing", "p_tech", "p_sales")),
        check=_check_multiclass,
    ),
    Case(
        "multiclass_unknown_class",
        bf.csv_bytes(
            ["true_class", *MC_HEADER],
            [("a", 0.2, 0.3, 0.5), ("b", 0.2, 0.4, 0.4), ("other", 0.1, 0.1, 0.8)],
        ),
        "mc.csv",
        mapping=ColumnMapping(class_label="true_class", class_probs=tuple(MC_HEADER)),
        expect=("mc.csv", '"true_class"', "row 4", '"other"', 'classes "a", "b" and "c"'),
        column="true_class",
    ),
    # -- Parquet ------------------------------------------------------------------------
    Case(
        "parquet_loads",
        bf.parquet_bytes({"label": [1, 0, 0, 1], "score": [0.9, 0.1, 0.3, 0.7], "group": ["a", "b", "a", "b"]}),
        "preds.parquet",
        mapping=ColumnMapping(label="label", scores=("score",), group="group"),
        check=_check_parquet,
    ),
    Case(
        "parquet_list_column",  # nothing but nested columns (with flat ones too, those are read: test_upload_review_*)
        bf.parquet_bytes({"tags": pa.array([["x"], []], pa.list_(pa.string()))}),
        "nested.parquet",
        expect=("nested.parquet", 'column "tags"', "nested"),
        column="tags",
    ),
    Case(
        "parquet_damaged",
        bf.parquet_bytes({"label": [1, 0], "score": [0.9, 0.1]})[:60],
        "cut.parquet",
        expect=("cut.parquet", "Parquet", "damaged"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_upload_table(case: Case) -> None:
    if case.check is not None:
        case.check(load(case.data, case.filename, case.mapping, **case.kwargs))
        return
    with pytest.raises(DataError) as info:
        load(case.data, case.filename, case.mapping, **case.kwargs)
    err = info.value
    assert case.expect, "an error case must say what the message contains"
    assert f'"{case.filename}"' in err.message
    for words in case.expect:
        assert words in err.message, f"{words!r} not in {err.message!r}"
    if case.column is not None:
        assert err.column == case.column
        assert f'"{case.column}"' in err.message
    if case.fix is not None:
        assert err.fix is not None and case.fix in err.fix
    assert (err.fix is None) == (err.fix_action is None)  # words and action come together
    assert str(err) == err.message
    assert "Traceback" not in err.message and "C error" not in err.message


def test_table_is_large_enough() -> None:
    assert len(CASES) >= 28
    assert len({c.id for c in CASES}) == len(CASES)


# ---------------------------------------------------------------------------------------
# Message formatting and templates
# ---------------------------------------------------------------------------------------


def test_many_offending_rows_are_summarised() -> None:
    rows = [(i % 2, "x" if i % 3 == 0 else 0.5) for i in range(1, 41)]
    with pytest.raises(DataError) as info:
        load(bf.csv_bytes(["label", "score"], rows), "many.csv", BASIC)
    msg = info.value.message
    assert "13 values that are not numbers" in msg
    assert "rows 4, 7, 10, 13 and 16 (first 5 of 13)" in msg


def test_message_templates_are_module_constants() -> None:
    names = [n for n in dir(loading) if n.startswith(("MSG_", "NOTE_", "FIX_"))]
    assert {"MSG_NOT_NUMBERS", "MSG_EMPTY", "MSG_HEADER_ONLY", "FIX_DROP_LABELS"} <= set(names)
    for n in names:
        assert isinstance(getattr(loading, n), str)
    with pytest.raises(DataError) as info:
        load(b"", "e.csv")
    assert info.value.message == loading.MSG_EMPTY.format(name="e.csv")


def test_decimal_comma_hint_when_not_detected() -> None:
    data = b'label,score\n1,"0,9"\n0,"0,2"\n'
    with pytest.raises(DataError) as info:
        load(data, "q.csv", BASIC)
    assert "decimal comma" in info.value.message and "rows 2 and 3" in info.value.message


def test_nothing_mapped_and_delta_sources() -> None:
    df = read_table(bf.csv_bytes(["delta", "n_yes", "n_no"], [(1, 2, 3)]), "d.csv")
    with pytest.raises(DataError, match="no column is chosen"):
        prepare(df, ColumnMapping(), name="d.csv", fingerprint="f")
    with pytest.raises(DataError, match="more than one source"):
        prepare(
            df,
            ColumnMapping(delta="delta", votes_yes="n_yes", votes_no="n_no"),
            name="d.csv",
            fingerprint="f",
        )


def test_rating_and_measurement_give_delta() -> None:
    df = read_table(bf.csv_bytes(["rating", "z"], [(1, 0.5), (5, 2.0), (3, 1.2)]), "r.csv")
    ds = prepare(df, ColumnMapping(rating="rating", rating_midpoint=3), name="r", fingerprint="")
    assert ds.delta.tolist() == [-2.0, 2.0, 0.0]
    ds = prepare(df, ColumnMapping(measurement="z", measurement_threshold=1.0), name="r", fingerprint="")
    np.testing.assert_allclose(ds.delta, [-0.5, 1.0, 0.2])


def test_read_table_notes_reach_dataset() -> None:
    data = b"label;score\n1;0,9\n0;0,1\n"
    ds = load(data, "n.csv", BASIC)
    assert ds.notes and "decimal comma" in ds.notes[0]
    assert ds.fingerprint == fingerprint(data)


def test_missing_group_values_become_a_named_group() -> None:
    data = bf.csv_bytes(["label", "score", "group"], [(1, 0.9, "A"), (0, 0.2, None), (1, 0.4, "A"), (0, 0.1, "B")])
    ds = load(data, "g.csv", ColumnMapping(label="label", scores=("score",), group="group"))
    assert ds.groups.tolist() == ["A", "(missing)", "A", "B"]
    assert any("row 3" in n and "(missing)" in n for n in ds.notes)


def test_positive_value_flips_numeric_labels() -> None:
    data = bf.csv_bytes(["label", "score"], [(1, 0.9), (0, 0.2)])
    ds = load(data, "p.csv", ColumnMapping(label="label", positive="0", scores=("score",)))
    assert ds.y.tolist() == [0, 1] and ds.mapping.positive == "0"


def test_fingerprint_is_sha256_hex() -> None:
    assert fingerprint(b"abc") == ("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")


# ---------------------------------------------------------------------------------------
# guess_mapping and label_values
# ---------------------------------------------------------------------------------------


def test_guess_mapping_binary() -> None:
    df = pd.DataFrame(
        {
            "id": [1, 2, 3, 4],
            "Outcome": ["yes", "no", "no", "yes"],
            "score_lr": [0.1, 0.8, 0.3, 0.6],
            "model_gbm": [-1.0, 2.0, 0.5, 0.1],
            "race": ["a", "b", "a", "b"],
            "split": ["train", "test", "Train", "test"],
            "weight": [1.0, 2.0, 1.0, 1.0],
        }
    )
    m = guess_mapping(df)
    assert m.label == "Outcome" and m.positive == "yes"
    assert m.scores == ("score_lr", "model_gbm") and m.score_scale == "raw"
    assert (m.group, m.split, m.weight) == ("race", "split", "weight")
    ds = prepare(df, m, name="t", fingerprint="")
    assert ds.y.tolist() == [1, 0, 0, 1]


def test_guess_mapping_multiclass_and_votes() -> None:
    df = pd.DataFrame(
        {
            "true_queue": ["billing", "tech", "sales", "tech"],
            "p_billing": [0.7, 0.1, 0.2, 0.3],
            "p_tech": [0.2, 0.8, 0.2, 0.4],
            "p_sales": [0.1, 0.1, 0.6, 0.3],
        }
    )
    m = guess_mapping(df)
    assert m.class_probs == ("p_billing", "p_tech", "p_sales")
    assert m.class_names == ("billing", "tech", "sales")
    assert m.class_label == "true_queue" and m.scores == () and m.label is None
    votes = pd.DataFrame({"is_toxic": [0, 1, 1], "n_yes": [0, 3, 2], "n_no": [4, 0, 1]})
    m = guess_mapping(votes)
    assert (m.label, m.votes_yes, m.votes_no, m.delta) == ("is_toxic", "n_yes", "n_no", None)


def test_guess_mapping_probability_scores_and_split_values() -> None:
    df = pd.DataFrame(
        {
            "two_year_recid": [0, 1, 0],
            "prob": [0.1, 0.9, 0.5],
            "fold": [0, 1, 2],  # numbered folds are not a train/test split
            "sex": ["F", "M", "F"],
        }
    )
    m = guess_mapping(df)
    assert m.label == "two_year_recid" and m.positive is None
    assert m.scores == ("prob",) and m.score_scale == "probability"
    assert m.split is None and m.group == "sex"


def test_label_values_text_sorted_and_capped() -> None:
    df = pd.DataFrame({"a": [1.0, 0.0, np.nan, 1.0], "b": ["yes", " no", None, "NA"]})
    assert label_values(df, "a") == ["0", "1"]
    assert label_values(df, "b") == ["no", "yes"]
    many = pd.DataFrame({"c": [f"v{i}" for i in range(80)] + ["v1"] * 5})
    values = label_values(many, "c")
    assert len(values) == 50 and "v1" in values
    with pytest.raises(DataError, match='"zz"'):
        label_values(df, "zz")


# ---------------------------------------------------------------------------------------
# safe_csv
# ---------------------------------------------------------------------------------------


def test_safe_csv_neutralises_formulas() -> None:
    df = pd.DataFrame(
        {
            "name": ["=cmd|' /C calc'!A0", "+SUM(A1)", "@x", "-2+3", "\tx", "ok", "-3.5"],
            "value": [-3.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        }
    )
    text = safe_csv(df).decode("utf-8")
    back = pd.read_csv(io.StringIO(text), keep_default_na=False)
    assert back["name"].tolist() == [
        "'=cmd|' /C calc'!A0",
        "'+SUM(A1)",
        "'@x",
        "'-2+3",
        "'\tx",
        "ok",
        "-3.5",
    ]
    assert back["value"].dtype == np.float64 and back["value"].iloc[0] == -3.5
    assert text.splitlines()[1].endswith(",-3.5")  # the number is written as a number


def test_safe_csv_header_and_index() -> None:
    df = pd.DataFrame({"=bad": ["a"]}, index=pd.Index(["@row"], name="rule"))
    text = safe_csv(df).decode("utf-8")
    assert text.splitlines()[0] == "rule,'=bad"
    assert text.splitlines()[1] == "'@row,a"


def test_safe_csv_neutralises_spaces_invisible_and_full_width_starts() -> None:
    cells = [
        " =1+1",  # a leading space: spreadsheets trim it and run the formula
        "\u00a0=1+1",  # a no-break space
        "\u200b=1+1",  # a zero-width space
        '＝HYPERLINK("http://x")',  # full-width equals sign
        "﹦1",  # small equals sign
        "＋cmd",  # full-width plus
        "＠SUM(A1)",  # full-width at
        "－2+3",  # full-width minus
        "\n=1",
    ]
    plain = ["-3.5", " -3.5", "a=b", "x", "－3.5", "ok =1"]
    back = pd.read_csv(
        io.StringIO(safe_csv(pd.DataFrame({"v": cells + plain})).decode()), keep_default_na=False, dtype=str
    )["v"].tolist()
    assert back == ["'" + c for c in cells] + plain


def test_safe_cells_makes_a_displayed_table_safe_for_the_toolbar_export() -> None:
    df = pd.DataFrame(
        {"group": pd.Categorical(["=cmd|'/C calc'!A0", "plain"]), "＝x": ["@home", "ok"], "n": [-1.5, 2.0]},
        index=pd.Index(["+a", "b"], name="=i"),
    )
    safe = loading.safe_cells(df)
    assert safe["group"].tolist() == ["'=cmd|'/C calc'!A0", "plain"]
    assert list(safe.columns) == ["group", "'＝x", "n"] and safe["'＝x"].tolist() == ["'@home", "ok"]
    assert safe.index.tolist() == ["'+a", "b"] and safe.index.name == "'=i"
    assert safe["n"].dtype == np.float64 and safe["n"].tolist() == [-1.5, 2.0]  # numbers stay numbers
    assert df["group"].tolist()[0].startswith("=")  # the caller's frame is not changed


# ---------------------------------------------------------------------------------------
# Fixes carry a machine-readable action
# ---------------------------------------------------------------------------------------

CASE = {c.id: c for c in CASES}


@pytest.mark.parametrize(
    "case_id, action",
    [
        ("missing_labels", loading.ACTION_DROP_LABELS),
        ("group_300_values", loading.ACTION_TOP_GROUPS),
        ("multiclass_not_summing", loading.ACTION_RENORMALISE),
        ("probabilities_outside_01", loading.ACTION_LOGIT),
    ],
)
def test_an_offered_fix_names_its_action_and_the_action_repairs_the_file(case_id, action) -> None:
    case = CASE[case_id]
    with pytest.raises(DataError) as info:
        load(case.data, case.filename, case.mapping)
    assert info.value.fix_action == action and info.value.fix
    mapping, options = loading.apply_fixes(case.mapping, [info.value.fix_action])
    ds = load(case.data, case.filename, mapping, **options)
    assert ds.n_rows > 0


def test_the_logit_fix_reads_the_scores_as_log_odds() -> None:
    case = CASE["probabilities_outside_01"]
    mapping, options = loading.apply_fixes(case.mapping, [loading.ACTION_LOGIT])
    assert mapping.score_scale == "logit" and options == {}
    ds = load(case.data, case.filename, mapping)
    # sigmoid by hand: 1 / (1 + e^-x) for the scores 0.3, 2.5, -0.1, -1.2
    np.testing.assert_allclose(ds.scores["score"], [1 / (1 + math.exp(-x)) for x in (0.3, 2.5, -0.1, -1.2)])
    assert ds.probabilities and ds.mapping.score_scale == "logit"


def test_apply_fixes_refuses_an_unknown_action() -> None:
    with pytest.raises(ValueError, match="actions holds 'read the scores as log-odds'"):
        loading.apply_fixes(BASIC, ["read the scores as log-odds"])
    assert loading.apply_fixes(BASIC, []) == (BASIC, {})
    assert set(loading.ACTIONS) == {
        "drop_missing_labels",
        "drop_missing_scores",
        "top_groups",
        "renormalise",
        "logit_scale",
        "percent_scores",
    }


# ---------------------------------------------------------------------------------------
# Multiclass class names: one function for the loader, its guess and the Data page
# ---------------------------------------------------------------------------------------


def test_class_names_keep_whole_words() -> None:
    # os.path.commonprefix(["prob_spam", "prob_sport"]) is "prob_sp": cutting it gives "am", "ort"
    assert loading.class_names_for(["prob_spam", "prob_sport"]) == ("spam", "sport")
    assert loading.class_names_for(["p_billing", "p_tech", "p_sales"]) == ("billing", "tech", "sales")
    assert loading.class_names_for(["p(cat)", "p(dog)"]) == ("cat", "dog")
    assert loading.class_names_for(["spam", "sport"]) == ("spam", "sport")  # no separator: whole names
    assert loading.class_names_for(["x_a", "y_a"]) == ("x_a", "y_a")
    assert loading.class_names_for([]) == ()


def test_guess_and_prepare_name_the_classes_alike() -> None:
    df = pd.DataFrame(
        {
            "topic": ["spam", "sport", "spam"],
            "prob_spam": [0.8, 0.1, 0.6],
            "prob_sport": [0.1, 0.8, 0.2],
            "prob_stocks": [0.1, 0.1, 0.2],
        }
    )
    guess = guess_mapping(df)
    assert guess.class_names == ("spam", "sport", "stocks")
    ds = prepare(df, dataclasses.replace(guess, class_names=()), name="t", fingerprint="")
    assert ds.class_names == guess.class_names and ds.y_class.tolist() == [0, 1, 0]


# ---------------------------------------------------------------------------------------
# Column names the header repeats
# ---------------------------------------------------------------------------------------


def test_identical_repeated_columns_are_kept_once_with_a_note() -> None:
    data = b"label,score,score,group\n1,0.9,0.9,a\n0,0.2,0.2,b\n"
    df = read_table(data, "join.csv")
    assert list(df.columns) == ["label", "score", "group"]
    assert any(
        'repeats the name "score" (columns 2 and 3)' in n and "one copy was kept" in n for n in df.attrs["notes"]
    )
    ds = load(data, "join.csv", BASIC)
    assert ds.scores["score"].tolist() == [0.9, 0.2]


def test_differing_repeated_columns_get_names_that_tell_them_apart() -> None:
    data = b"label,score,extra,extra,extra\n1,0.9,x,y,x\n0,0.2,z,w,z\n"
    df = read_table(data, "join.csv")
    # columns 3 and 5 are identical: one copy of them is kept, beside column 4
    assert list(df.columns) == ["label", "score", "extra (column 3)", "extra (column 4)"]
    assert df["extra (column 4)"].tolist() == ["y", "w"]
    note = " ".join(df.attrs["notes"])
    assert '"extra" (columns 3, 4 and 5)' in note and '"extra (column 3)" and "extra (column 4)"' in note
    ds = load(data, "join.csv", BASIC)  # the repeated column is not needed: the file loads
    assert ds.y.tolist() == [1, 0]
    ds = load(data, "join.csv", ColumnMapping(label="label", scores=("score",), group="extra (column 4)"))
    assert ds.groups.tolist() == ["y", "w"]
    with pytest.raises(DataError) as info:
        load(data, "join.csv", ColumnMapping(label="label", scores=("score",), group="extra"))
    assert info.value.column == "extra"
    assert 'choose "extra (column 3)" or "extra (column 4)"' in info.value.message


def test_repeated_names_in_parquet_and_in_a_frame_given_to_prepare() -> None:
    table = pa.Table.from_arrays(
        [pa.array([1, 0]), pa.array([0.9, 0.1]), pa.array([0.3, 0.4])], names=["label", "score", "score"]
    )
    buf = io.BytesIO()
    import pyarrow.parquet as pq

    pq.write_table(table, buf)
    df = read_table(buf.getvalue(), "dup.parquet")
    assert list(df.columns) == ["label", "score (column 2)", "score (column 3)"]
    frame = pd.DataFrame([[1, 0.9, 0.3], [0, 0.1, 0.4]], columns=["label", "score", "score"])
    with pytest.raises(DataError, match=r'choose "score \(column 2\)" or "score \(column 3\)"'):
        prepare(frame, BASIC, name="frame", fingerprint="")
    ds = prepare(frame, ColumnMapping(label="label", scores=("score (column 3)",)), name="frame", fingerprint="")
    assert ds.scores["score (column 3)"].tolist() == [0.3, 0.4]


def test_a_disambiguated_name_never_collides_with_a_real_one() -> None:
    data = b"label,score (column 3),score,score\n1,5,0.9,0.1\n0,6,0.2,0.3\n"
    df = read_table(data, "x.csv")
    assert len(set(df.columns)) == 4 and df["score (column 3)"].tolist() == [5, 6]
    assert df["score (column 3) (2)"].tolist() == [0.9, 0.2]


# ---------------------------------------------------------------------------------------
# The loader's own docstring examples
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("module", sorted(m.name for m in pkgutil.iter_modules(loading.__path__)))
def test_loading_doctests(module) -> None:
    result = doctest.testmod(importlib.import_module(f"costlib.loading.{module}"), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


# ---------------------------------------------------------------------------------------
# Noise: nothing but a DataFrame / Dataset or a DataError ever comes out (mostly errors;
# the fuzz tests below reach the success path)
# ---------------------------------------------------------------------------------------

CSVISH = st.text(alphabet=',;\t|"\n\r 0123456789.-eaNAyestrTFu\u00e9=', max_size=300)


@given(
    data=st.one_of(
        st.binary(max_size=2000),
        CSVISH.map(lambda s: s.encode("utf-8")),
        CSVISH.map(lambda s: s.encode("latin-1")),
        st.binary(max_size=400).map(lambda b: b"PAR1" + b),
    ),
    filename=st.sampled_from(["x.csv", "x.tsv", "x.parquet", "x.txt", "x", "X.CSV"]),
)
def test_read_table_noise(data: bytes, filename: str) -> None:
    """Random bytes: a DataFrame or a DataError naming the file, never a traceback."""
    try:
        df = read_table(data, filename)
    except DataError as err:
        assert filename in err.message
        assert "Traceback" not in err.message and "C error" not in err.message
        return
    assert isinstance(df, pd.DataFrame) and len(df) > 0 and len(df.columns) > 0
    assert isinstance(df.attrs["notes"], list)
    assert len(set(df.columns)) == len(df.columns)
    assert all(c == c.strip() for c in df.columns)


CELL_TEXT = ["yes", "no", "1", "0", "", " A ", "NaN", "NA", "train", "test", "val", "=x", "inf"]
COLS = ["a", "b", "c", "d", "e"]


def _column(kind: str, n: int) -> st.SearchStrategy:
    if kind == "float":
        return st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=n, max_size=n)
    if kind == "unit":
        return st.lists(st.floats(0, 1), min_size=n, max_size=n)
    if kind == "int":
        return st.lists(st.integers(-3, 5), min_size=n, max_size=n)
    if kind == "bool":
        return st.lists(st.booleans(), min_size=n, max_size=n)
    if kind == "text":
        return st.lists(st.sampled_from(CELL_TEXT), min_size=n, max_size=n)
    return st.lists(
        st.one_of(st.none(), st.sampled_from(CELL_TEXT), st.floats(), st.integers(-2, 2)),
        min_size=n,
        max_size=n,
    )


@st.composite
def frames_and_mappings(draw):
    n = draw(st.integers(0, 8))
    data = {}
    for c in COLS:
        kind = draw(st.sampled_from(["float", "unit", "int", "bool", "text", "mixed"]))
        values = draw(_column(kind, n))
        data[c] = pd.Series(values, dtype=object if kind == "mixed" else None)
    df = pd.DataFrame(data)
    col = st.one_of(st.none(), st.sampled_from(COLS), st.just("missing"))
    number = st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True))
    mapping = ColumnMapping(
        label=draw(col),
        positive=draw(st.one_of(st.none(), st.sampled_from(CELL_TEXT + ["True", "x"]))),
        scores=tuple(draw(st.lists(st.sampled_from(COLS), max_size=2))),
        score_scale=draw(st.sampled_from(["probability", "logit", "raw", "odd"])),
        group=draw(col),
        split=draw(col),
        weight=draw(col),
        delta=draw(st.one_of(st.none(), st.sampled_from(COLS))),
        votes_yes=draw(st.one_of(st.none(), st.sampled_from(COLS))),
        votes_no=draw(st.one_of(st.none(), st.sampled_from(COLS))),
        rating=draw(st.one_of(st.none(), st.sampled_from(COLS))),
        rating_midpoint=draw(number),
        measurement=draw(st.one_of(st.none(), st.sampled_from(COLS))),
        measurement_threshold=draw(number),
        class_label=draw(col),
        class_probs=tuple(draw(st.lists(st.sampled_from(COLS), max_size=3))),
        class_names=tuple(draw(st.lists(st.sampled_from(["a", "b", "1", "yes"]), max_size=3))),
    )
    kwargs = {
        "drop_missing_labels": draw(st.booleans()),
        "top_groups": draw(st.one_of(st.none(), st.integers(1, 3))),
        "renormalise": draw(st.booleans()),
    }
    return df, mapping, kwargs


@given(frames_and_mappings())
def test_prepare_noise(args) -> None:
    """Random cells and mappings: a Dataset or a DataError naming the file, never a traceback."""
    df, mapping, kwargs = args
    try:
        ds = prepare(df, mapping, name="fuzz.csv", fingerprint="f", **kwargs)
    except DataError as err:
        assert "fuzz.csv" in err.message
        return
    assert isinstance(ds, Dataset)
    n = ds.n_rows
    assert 0 < n <= len(df)
    if ds.y is not None:
        assert ds.y.dtype == np.int8 and len(ds.y) == n and set(ds.y.tolist()) == {0, 1}
    for values in ds.scores.values():
        assert values.dtype == np.float64 and len(values) == n and np.isfinite(values).all()
        if ds.probabilities:
            assert ((values >= 0) & (values <= 1)).all()
    if ds.groups is not None:
        assert len(ds.groups) == n and all(isinstance(g, str) for g in ds.groups)
    if ds.split is not None:
        assert set(ds.split.tolist()) <= set(SPLIT_ROLES)
    if ds.weight is not None:
        assert (ds.weight >= 0).all() and np.isfinite(ds.weight).all()
    if ds.delta is not None:
        assert len(ds.delta) == n and np.isfinite(ds.delta).all() and (ds.delta != 0).any()
    if ds.class_probs is not None:
        assert ds.class_probs.shape == (n, len(ds.class_names))
        np.testing.assert_allclose(ds.class_probs.sum(axis=1), 1.0, atol=1e-3)
    if ds.y_class is not None:
        assert len(ds.y_class) == n
        assert ((ds.y_class >= 0) & (ds.y_class < len(ds.class_names))).all()
    assert all(isinstance(note, str) for note in ds.notes)


# ---------------------------------------------------------------------------------------
# Fuzz tests: mostly valid tables, some with one targeted corruption. A valid table must
# load and give back exactly what was written; a corrupted one a sentence about that
# corruption (or, where the corruption is harmless, a table). `hypothesis.event` records
# how each example ended: pytest --hypothesis-show-statistics shows the shares.
# ---------------------------------------------------------------------------------------

NAME_PIECES = ["label", "score", "Zürich", "group", "naïve", "x", "日本", "<b>b</b>", "=cmd", "a b", "é_1"]
WORDS = ["apple", "Zürich", "São Paulo", "<i>x</i>", "=SUM(A1)", "@home", "naïve", "日本語", "a b c"]
SEPS = [",", ";", "\t", "|"]


@st.composite
def written_tables(draw):
    """(bytes, filename, names, expected columns): a CSV or Parquet file and what it holds."""
    n = draw(st.integers(1, 25))
    k = draw(st.integers(2, 5))
    pieces = draw(st.lists(st.sampled_from(NAME_PIECES), min_size=k, max_size=k))
    names = [f"{p} {i}" if i else p for i, p in enumerate(pieces)]  # distinct, never a number
    columns = {}
    for name in names:
        kind = draw(st.sampled_from(["int", "float", "text", "bool"]))
        if kind == "int":
            cells = draw(st.lists(st.integers(-(10**12), 10**12), min_size=n, max_size=n))
        elif kind == "float":
            finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
            cells = draw(st.lists(st.one_of(finite, st.none()), min_size=n, max_size=n))
        elif kind == "text":
            cells = draw(st.lists(st.one_of(st.sampled_from(WORDS), st.none()), min_size=n, max_size=n))
            if all(c is None for c in cells):
                cells[0] = "apple"
        else:
            cells = draw(st.lists(st.booleans(), min_size=n, max_size=n))
        columns[name] = (kind, cells)
    if draw(st.integers(0, 4)) == 0:
        return _parquet_file(names, columns), "upload.parquet", names, columns
    return (*_csv_file(draw, names, columns), names, columns)


def _parquet_file(names, columns) -> bytes:
    types = {"int": pa.int64(), "float": pa.float64(), "text": pa.string(), "bool": pa.bool_()}
    arrays = [pa.array(columns[c][1], types[columns[c][0]]) for c in names]
    buf = io.BytesIO()
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_arrays(arrays, names=names), buf)
    return buf.getvalue()


def _csv_file(draw, names, columns) -> tuple[bytes, str]:
    import csv

    sep = draw(st.sampled_from(SEPS))
    comma = sep != "," and draw(st.booleans())  # decimal comma
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=sep, lineterminator=newline, quoting=csv.QUOTE_MINIMAL)
    writer.writerow(names)
    for i in range(len(columns[names[0]][1])):
        row = []
        for c in names:
            v = columns[c][1][i]
            text = "" if v is None else repr(v) if isinstance(v, float) else str(v)
            row.append(text.replace(".", ",") if comma and isinstance(v, float) else text)
        writer.writerow(row)
    text = buf.getvalue()
    encodings = ["utf-8", "utf-8-sig", "utf-16"]
    try:
        text.encode("cp1252")
        encodings.append("cp1252")
    except UnicodeEncodeError:
        pass
    encoding = draw(st.sampled_from(encodings))
    return text.encode(encoding), draw(st.sampled_from(["upload.csv", "upload.txt", "upload.tsv", "upload"]))


def assert_same_table(df: pd.DataFrame, names: list[str], columns: dict) -> None:
    """`df` holds exactly the cells that were written."""
    assert list(df.columns) == names
    assert len(df) == len(columns[names[0]][1])
    for c in names:
        kind, cells = columns[c]
        for got, want in zip(df[c].tolist(), cells, strict=True):
            if want is None:
                assert pd.isna(got), (c, got)
            elif kind == "float":
                assert float(got) == want, (c, got, want)
            elif kind == "int":
                assert int(got) == want, (c, got, want)
            elif kind == "bool":
                assert bool(got) is want, (c, got, want)
            else:
                assert got == want, (c, got, want)


CORRUPTIONS = ["ragged line", "unclosed quote", "NUL bytes", "no data rows", "PNG", "cut short", "repeat a column"]


def corrupt(data: bytes, filename: str, how: str, draw) -> tuple[bytes, tuple[str, ...]]:
    """`data` with one corruption, and words the error must contain ('' when it may load)."""
    if filename.endswith(".parquet"):
        cut = draw(st.integers(8, max(8, len(data) - 8)))
        return data[:cut], ("Parquet",)
    text, encoding = _decode(data)
    lines = text.splitlines(keepends=True)
    sep = next((s for s in SEPS if s in lines[0]), ",")
    if how == "ragged line" and len(lines) > 1:
        i = draw(st.integers(1, len(lines) - 1))
        lines[i] = lines[i].rstrip("\r\n") + sep + "extra" + sep + "more" + "\n"
        return "".join(lines).encode(encoding), (f"line {i + 1} of the file", "fields")
    if how == "unclosed quote" and len(lines) > 1:
        i = draw(st.integers(1, len(lines) - 1))
        lines[i] = '"' + lines[i]
        return "".join(lines).encode(encoding), ("",)
    if how == "NUL bytes" and encoding != "utf-16":
        at = draw(st.integers(0, len(data)))
        return data[:at] + b"\x00\x00" + data[at:], ("binary data",)
    if how == "no data rows":
        return lines[0].encode(encoding), ("no data rows",)
    if how == "PNG":
        return bf.png_bytes() + data, ("PNG image",)
    if how == "repeat a column":
        rows = [line.rstrip("\r\n") for line in lines]
        return "\n".join(r + sep + r.split(sep)[0] for r in rows).encode(encoding) + b"\n", ("",)
    cut = draw(st.integers(1, max(1, len(data) - 1)))
    return data[:cut], ("",)


def _decode(data: bytes) -> tuple[str, str]:
    for encoding in ("utf-16",) if data[:2] in (b"\xff\xfe", b"\xfe\xff") else ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding), "utf-16" if encoding == "utf-16" else "utf-8"
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


@given(table=written_tables(), how=st.sampled_from([None] * len(CORRUPTIONS) + CORRUPTIONS), data=st.data())
def test_read_table_fuzz(table, how, data) -> None:
    raw, filename, names, columns = table
    if how is None:
        df = read_table(raw, filename)
        hypothesis.event("valid table: loaded")
        assert_same_table(df, names, columns)
        return
    raw, words = corrupt(raw, filename, how, data.draw)
    try:
        df = read_table(raw, filename)
    except DataError as err:
        hypothesis.event(f"{how}: DataError")
        assert f'"{filename}"' in err.message and "Traceback" not in err.message
        for w in words:
            assert w in err.message, (how, err.message)
        return
    hypothesis.event(f"{how}: loaded")
    assert words in (("",), ("Parquet",)) or how == "ragged line" and "extra" in df.to_string(), (how, df)
    assert len(df) > 0 and len(set(df.columns)) == len(df.columns)
    assert all(c == c.strip() for c in df.columns)


@st.composite
def valid_frames(draw):
    """A table any user could upload, its mapping and what prepare must make of it."""
    n = draw(st.integers(2, 40))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    y[0], y[-1] = 1, 0  # both classes
    words = draw(st.sampled_from([None, ("yes", "no"), ("spam", "ham"), ("True", "False")]))
    label = y if words is None else [words[0] if v else words[1] for v in y]
    score = draw(st.lists(st.floats(0, 1), min_size=n, max_size=n))
    df = pd.DataFrame({"label": label, "score": score})
    m = ColumnMapping(
        label="label", positive=None if words in (None, ("True", "False")) else words[0], scores=("score",)
    )
    if draw(st.booleans()):
        df["group"] = draw(st.lists(st.sampled_from(["north", "south", " east ", "<b>w</b>"]), min_size=n, max_size=n))
        m = dataclasses.replace(m, group="group")
    if draw(st.booleans()):
        df["split"] = draw(st.lists(st.sampled_from(sorted(loading.SPLIT_ALIASES)), min_size=n, max_size=n))
        m = dataclasses.replace(m, split="split")
    if draw(st.booleans()):
        df["weight"] = draw(st.lists(st.floats(0.5, 5), min_size=n, max_size=n))
        m = dataclasses.replace(m, weight="weight")
    if draw(st.booleans()):
        # 5 - v == v never: delta is never all 0; its sign agrees with the label (a disagreeing one is refused)
        yes = [draw(st.integers(3, 5) if v else st.integers(0, 2)) for v in y]
        df["n_yes"], df["n_no"] = yes, [5 - v for v in yes]
        m = dataclasses.replace(m, votes_yes="n_yes", votes_no="n_no")
    if draw(st.booleans()):
        raw = np.array(draw(st.lists(st.lists(st.integers(1, 9), min_size=3, max_size=3), min_size=n, max_size=n)))
        probs = raw / raw.sum(axis=1, keepdims=True)
        for j, c in enumerate(("prob_spam", "prob_sport", "prob_news")):
            df[c] = probs[:, j]
        topic = draw(st.lists(st.sampled_from(["spam", "sport", "news"]), min_size=n, max_size=n))
        if len(set(topic)) == 1:  # a multiclass label of one class is refused (a0d9f47): a valid table has two
            topic[0] = "news" if topic[0] != "news" else "spam"
        df["topic"] = topic
        m = dataclasses.replace(m, class_probs=("prob_spam", "prob_sport", "prob_news"), class_label="topic")
    return df, m


def assert_prepared(ds: Dataset, df: pd.DataFrame, m: ColumnMapping) -> None:
    """Every array against the table, computed here the slow way."""
    n = len(df)
    assert ds.n_rows == n
    positive = {None: "1", "yes": "yes", "spam": "spam"}.get(m.positive, m.positive)
    words = [str(v).strip() for v in df["label"]]
    want_y = [1 if w == positive or (positive == "1" and w == "True") else 0 for w in words]
    assert ds.y.dtype == np.int8 and ds.y.tolist() == want_y
    assert ds.scores["score"].tolist() == df["score"].tolist()
    if m.group:
        assert ds.groups.tolist() == [g.strip() for g in df["group"]]
    if m.split:
        assert ds.split.tolist() == [loading.SPLIT_ALIASES[v] for v in df["split"]]
    if m.weight:
        assert ds.weight.tolist() == df["weight"].tolist()
    if m.votes_yes:
        # delta from votes: log((yes + 1) / (no + 1)), as in _check_votes above
        want = [math.log((a + 1) / (b + 1)) for a, b in zip(df["n_yes"], df["n_no"], strict=True)]
        np.testing.assert_allclose(ds.delta, want, rtol=1e-12)
    if m.class_probs:
        assert ds.class_names == ("spam", "sport", "news")
        np.testing.assert_array_equal(ds.class_probs, df[list(m.class_probs)].to_numpy())
        assert ds.y_class.tolist() == [ds.class_names.index(t) for t in df["topic"]]


def _break(df: pd.DataFrame, m: ColumnMapping, how: str, row: int):
    """(table, mapping, column named, words the message must hold, fix action offered or None)."""
    df = df.copy()
    at = f"row {file_row(row)}"
    if how == "text score":
        df["score"] = df["score"].astype(object)
        df.loc[row, "score"] = "high"
        return df, m, "score", (at, '"high"', "not a number"), None  # one cell: "1 value that is not a number"
    if how == "blank score":
        df.loc[row, "score"] = np.nan
        return df, m, "score", (at, "empty"), loading.ACTION_DROP_SCORES  # n >= 2: never every score
    if how == "score above 1":
        df.loc[row, "score"] = 1.5
        scores = df["score"].astype(float)
        # the log-odds fix is offered only when most scores are outside [0, 1] (another scale)
        stray = ((scores < 0) | (scores > 1)).mean() <= 0.5
        return df, m, "score", (at, "outside [0, 1]"), None if stray else loading.ACTION_LOGIT
    if how == "blank label":
        df["label"] = df["label"].astype(object)
        df.loc[row, "label"] = None
        return df, m, "label", (at, "no label"), loading.ACTION_DROP_LABELS
    if how == "one class":
        df["label"] = df["label"].iloc[0]
        return df, m, "label", ("only one value",), None
    if how == "negative weight" and m.weight:
        df.loc[row, "weight"] = -1.0
        return df, m, "weight", (at, "negative"), None
    if how == "unknown split" and m.split:
        df.loc[row, "split"] = "trian"
        return df, m, "split", (at, '"trian"'), None
    if how == "probabilities off" and m.class_probs:
        df.loc[row, list(m.class_probs)] *= 0.5  # the row sums to 0.5, each cell still in [0, 1]
        return df, m, "prob_spam", (at, "do not sum to 1"), loading.ACTION_RENORMALISE
    if how == "negative votes" and m.votes_yes:
        df.loc[row, "n_no"] = -1
        return df, m, "n_no", (at, "negative vote"), None
    # "missing column", and the breaks above whose column this table lacks
    return df, dataclasses.replace(m, scores=("scroe",)), "scroe", ('"scroe"', "does not exist"), None


BREAKS = [
    "text score",
    "blank score",
    "score above 1",
    "blank label",
    "one class",
    "negative weight",
    "unknown split",
    "probabilities off",
    "negative votes",
    "missing column",
]


@given(table=valid_frames(), how=st.sampled_from([None] * len(BREAKS) + BREAKS), data=st.data())
def test_prepare_fuzz(table, how, data) -> None:
    df, m = table
    if how is None:
        ds = prepare(df, m, name="fuzz.csv", fingerprint="f")
        hypothesis.event("valid table: prepared")
        assert_prepared(ds, df, m)
        return
    row = data.draw(st.integers(0, len(df) - 1))
    bad, m2, column, words, action = _break(df, m, how, row)
    how = "missing column" if column == "scroe" else how
    with pytest.raises(DataError) as info:
        prepare(bad, m2, name="fuzz.csv", fingerprint="f")
    err = info.value
    assert '"fuzz.csv"' in err.message and err.column == column, (how, err.message)
    for w in words:
        assert w in err.message, (how, err.message)
    assert err.fix_action == action, (how, err.message)
    if action is None:
        hypothesis.event(f"{how}: DataError")
        return
    fixed, options = loading.apply_fixes(m2, [action])
    try:
        ds = prepare(bad, fixed, name="fuzz.csv", fingerprint="f", **options)
    except DataError as again:  # dropping the row with a blank label or score may leave a single class
        assert how in ("blank label", "blank score") and "only one value" in again.message, again.message
        hypothesis.event(f"{how}: fixed, then one class left")
        return
    hypothesis.event(f"{how}: fixed and prepared")
    if how == "score above 1":  # the scores were read as log-odds
        np.testing.assert_allclose(ds.scores["score"], 1 / (1 + np.exp(-bad["score"].to_numpy(float))))
    if how == "blank label":
        assert ds.n_rows == len(df) - 1 and f"row {file_row(row)}" in " ".join(ds.notes)
    if how == "probabilities off":
        np.testing.assert_allclose(ds.class_probs.sum(axis=1), 1.0)


# ---------------------------------------------------------------------------------------
# Size: 2,000,000 rows stay quick (unmarked, so it runs in the normal suite; ~1 s here)
# ---------------------------------------------------------------------------------------


def test_two_million_rows_load() -> None:
    n = 2_000_000
    data = bf.big_csv(n)
    df = read_table(data, "big.csv")
    assert len(df) == n and list(df.columns) == ["label", "score", "group"]
    ds = prepare(df, guess_mapping(df), name="big.csv", fingerprint=fingerprint(data))
    assert ds.n_rows == n and set(ds.groups[:2]) == {"A", "B"}
    assert math.isclose(float(ds.scores["score"].mean()), float(df["score"].mean()))


def test_no_loading_function_is_longer_than_60_lines() -> None:
    """Issue 12: the loader stays in small parts (a docstring does not count)."""
    import ast
    from pathlib import Path

    long = []
    for path in sorted(Path(loading.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                body = node.body[1:] if ast.get_docstring(node) else node.body
                lines = body[-1].end_lineno - body[0].lineno + 1 if body else 0
                if lines > 60:
                    long.append(f"{path.name}:{node.name} ({lines} lines)")
    assert not long, long


def test_summary_tables_count_rows_and_the_positive_share_per_group() -> None:
    df = pd.DataFrame(
        {
            "label": [1, 0, 1, 1, 0],
            "score": [0.9, 0.1, 0.8, 0.7, 0.2],
            "g": ["a", "a", "b", "b", "=x"],
            "split": ["train", "test", "train", "train", "test"],
        }
    )
    ds = prepare(
        df, ColumnMapping(label="label", scores=("score",), group="g", split="split"), name="t", fingerprint=""
    )
    scores, groups = loading.summary_tables(ds)
    assert scores.iloc[0].tolist() == ["score", 0.1, 0.9, 5]
    # a: 2 rows, 1 positive -> 0.5; b: 2 rows, 2 positives -> 1.0; "=x" (neutralised): 1 row, none
    assert groups.set_index("group").to_dict("index") == {
        "a": {"rows": 2, "positive share": 0.5},
        "b": {"rows": 2, "positive share": 1.0},
        "'=x": {"rows": 1, "positive share": 0.0},
    }
    assert loading.rows_per_split_sentence(ds) == "Rows per split: train 3, test 2"
    assert loading.summary_metrics(ds) == [("Rows", "5"), ("Positives", "3 (60.0%)"), ("Groups", "3"), ("Splits", "2")]


def test_one_stray_score_is_not_offered_the_log_odds_fix_that_would_rescale_every_score():
    from costlib.core.dataset import ColumnMapping
    from costlib.core.errors import DataError

    rng = np.random.default_rng(0)
    p = rng.random(50).round(3)
    p[7] = 1.7
    df = pd.DataFrame({"y": rng.integers(0, 2, 50), "s": p})
    with pytest.raises(DataError) as err:
        loading.prepare(df, ColumnMapping(label="y", scores=("s",)), name="f.csv", fingerprint="x")
    assert err.value.fix_action is None and "Only a few rows are outside [0, 1]" in err.value.message
    df["s"] = rng.normal(0, 3, 50)  # most values outside: another scale, and the fix is offered
    with pytest.raises(DataError) as err:
        loading.prepare(df, ColumnMapping(label="y", scores=("s",)), name="f.csv", fingerprint="x")
    assert err.value.fix_action == "logit_scale"


def test_the_positive_class_picker_prefers_a_positive_looking_value():
    assert loading.likely_positive(["maybe", "no", "yes"]) == "yes"
    assert loading.likely_positive(["Negative", "Positive"]) == "Positive"
    assert loading.likely_positive(["cat", "dog"]) is None


def test_a_score_column_with_words_is_not_blamed_on_decimal_commas_and_empty_cells_are_named_too():
    from costlib.core.dataset import ColumnMapping

    m = ColumnMapping(label="y", scores=("s",))
    words_df = read_table(b'y,s\n0,high\n1,high\n0,"0,45"\n1,high\n0,\n1,0.5\n', "bad.csv")
    with pytest.raises(DataError) as info:
        prepare(words_df, m, name="bad.csv", fingerprint="x")
    assert "decimal comma" not in info.value.message  # one in four looks like one: not the explanation
    assert info.value.message.endswith("It also has 1 empty cell (blank or not a number): row 6.")
    commas = read_table(b'y,s\n0,"0,3"\n1,"0,45"\n0,0.2\n', "c.csv")
    with pytest.raises(DataError, match="decimal comma"):
        prepare(commas, m, name="c.csv", fingerprint="x")


FLAGS = {"positive": "--positive", "score_scale": "--scale"}


@pytest.mark.parametrize(
    "df, mapping, page, command_line",
    [
        (
            pd.DataFrame({"y": ["no", "yes", "no"], "s": [0.2, 0.5, 0.7]}),
            ColumnMapping(label="y", scores=("s",)),
            "choose which one means positive.",
            "choose which one means positive (--positive VALUE).",
        ),
        (
            pd.DataFrame({"y": ["no", "yes", "no"], "s": [0.2, 0.5, 0.7]}),
            ColumnMapping(label="y", positive="maybe", scores=("s",)),
            'the positive value "maybe" does not occur',
            'the positive value "maybe" (--positive) does not occur',
        ),
        (
            pd.DataFrame({"y": [0, 1, 0], "s": [2.0, 5.0, 7.0]}),  # deciles, not probabilities
            ColumnMapping(label="y", scores=("s",)),
            'choose the "logit" scale, for other real-valued scores choose "raw".',
            'choose the "logit" scale (--scale logit), for other real-valued scores choose "raw" (--scale raw).',
        ),
        (
            pd.DataFrame({"y": [0, 1, 0, 1], "s": [0.2, 0.5, 0.7, 1.5]}),  # one stray value
            ColumnMapping(label="y", scores=("s",)),
            "or map the column as raw scores if it is not a probability.",
            "or map the column as raw scores (--scale raw) if it is not a probability.",
        ),
    ],
)
def test_a_sentence_asking_for_a_setting_names_its_flag_only_when_given_flags(df, mapping, page, command_line):
    """One template per sentence: the dashboard's words, and the command line's flag added."""
    with pytest.raises(DataError) as on_page:
        prepare(df, mapping, name="d.csv", fingerprint="")
    with pytest.raises(DataError) as on_command_line:
        prepare(df, mapping, name="d.csv", fingerprint="", flags=FLAGS)
    assert page in on_page.value.message and "--" not in on_page.value.message
    assert command_line in on_command_line.value.message
    assert (
        on_command_line.value.message.replace(" (--scale logit)", "")
        .replace(" (--scale raw)", "")
        .replace(" (--positive VALUE)", "")
        .replace(" (--positive)", "")
        == on_page.value.message
    )
    assert on_command_line.value.column == on_page.value.column and on_command_line.value.fix == on_page.value.fix


def test_a_count_of_bad_rows_reads_with_the_apps_thousands_separator():
    """Review 60, item 8b: "column "note" has 3000 values that are not numbers ... (first 5 of 3000)"."""
    from costlib.loading.messages import MSG_NOT_NUMBERS, rows_sentence

    said = rows_sentence(
        MSG_NOT_NUMBERS, name="votes.csv", rownums=[2, 3, 4, 5, 6], count=3000, texts=["x"] * 5, column="note"
    )
    assert "has 3,000 values that are not numbers" in said and "(first 5 of 3,000)" in said and "3000" not in said


def test_a_score_column_with_one_value_throughout_is_noted():
    """Review 60, item 8a: a constant column mapped as the score loaded without a word; the pages
    then found no cutoff to recommend ("recommended: inf")."""
    from costlib.core.dataset import ColumnMapping
    from costlib.loading.preparing import prepare

    df = pd.DataFrame({"label": [0, 1] * 1500, "const": 1.0, "score": np.linspace(0, 1, 3000)})
    ds = prepare(df, ColumnMapping(label="label", scores=("const", "score")), name="votes.csv", fingerprint="f")
    said = [n for n in ds.notes if "same score" in n]
    assert said == [
        'In "votes.csv", column "const" holds the same score (1) in all 3,000 rows: it cannot tell one case from '
        "another, so no page will let it decide. Check that it is the model's score."
    ]
