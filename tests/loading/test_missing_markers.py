"""A score cell holding a missing-value marker as text ("NA", "null", "-", with spaces or not) is an
empty score: refused with the offer to leave its rows out (`ACTION_DROP_SCORES`), said apart from
blank cells, and named in the note kept after the fix. A CSV keeps "NA" as text on purpose (a group
called "NA" stays a group), so only the score and label columns read the markers as missing. A score
column with any other text keeps its refusal, without the offer.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from costlib import loading
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading.cells import NUMBER_NA_TOKENS

N = 300
MARKED = {4: "NA", 50: "NA", 51: "null", 200: " NA "}  # file rows 6, 52, 53 and 202 (the header is row 1)
MAPPING = ColumnMapping(label="label", positive="1", scores=("score",))


def _frame(n: int = N, cells: dict[int, str] | None = None) -> pd.DataFrame:
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, n)
    score = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, n), 0, 1).round(3).astype(object)
    for i, cell in (MARKED if cells is None else cells).items():
        score[i] = cell
    group = np.where(np.arange(n) % 3 == 0, "NA", "b")  # a group named "NA": a group like any other
    return pd.DataFrame({"label": y, "score": score, "group": group})


def _csv(df: pd.DataFrame) -> bytes:
    return df.to_csv(index=False).encode()


def _load(data: bytes, mapping: ColumnMapping = MAPPING, name: str = "f.csv", **options):
    df = loading.read_table(data, name)
    return df, loading.prepare(df, mapping, name=name, fingerprint="f", **options)


def _refusal(data: bytes, mapping: ColumnMapping = MAPPING, name: str = "f.csv", **options) -> DataError:
    with pytest.raises(DataError) as info:
        _load(data, mapping, name, **options)
    return info.value


def test_na_and_null_scores_are_offered_the_fix_and_then_left_out_with_a_note():
    data = _csv(_frame())
    err = _refusal(data)
    assert err.message == (
        'In "f.csv", column "score" has a missing-value marker like "NA" or "null" instead of a score '
        "in 4 rows: rows 6, 52, 53 and 202."
    )
    assert err.fix_action == loading.ACTION_DROP_SCORES and err.column == "score"
    assert err.fix == "leave out the 4 rows with an empty score"
    mapping, options = loading.apply_fixes(MAPPING, [err.fix_action])
    df, ds = _load(data, mapping, **options)
    kept = np.setdiff1d(np.arange(N), list(MARKED))
    assert ds.n_rows == 296 == len(ds.y) == len(ds.scores["score"])
    np.testing.assert_array_equal(ds.y, df["label"].to_numpy()[kept])
    np.testing.assert_array_equal(ds.scores["score"], df["score"].to_numpy()[kept].astype(float))
    assert ds.notes == (
        'In "f.csv", 4 rows with an empty score in column "score" were left out (rows 6, 52, 53 and 202); '
        '296 rows remain. The file marked them missing with "NA" or "null".',
    )


@pytest.mark.parametrize("marker", ["NA", "N/A", "NaN", "nan", "null", "NULL", "None", "-", "?", "  na ", " - "])
def test_every_common_marker_is_an_empty_score(marker):
    assert marker.strip().lower() in NUMBER_NA_TOKENS
    err = _refusal(_csv(_frame(cells={7: marker})))
    assert err.fix_action == loading.ACTION_DROP_SCORES
    assert f'a missing-value marker like "{marker.strip()}" instead of a score in 1 row: row 9.' in err.message
    _, ds = _load(_csv(_frame(cells={7: marker})), drop_missing_scores=True)
    assert ds.n_rows == N - 1
    assert ds.notes[0].endswith(f'The file marked it missing with "{marker.strip()}".')


def test_blank_and_marked_scores_are_said_apart_and_left_out_together():
    data = _csv(_frame(cells={4: "", 50: "NA", 51: "", 60: "?"}))
    err = _refusal(data)
    assert err.message == (
        'In "f.csv", column "score" has 2 empty values (blank or not a number): rows 6 and 53. '
        'It also has a missing-value marker like "NA" or "?" in 2 rows: rows 52 and 62.'
    )
    assert err.fix == "leave out the 4 rows with an empty score"
    _, ds = _load(data, drop_missing_scores=True)
    assert ds.n_rows == N - 4
    assert ds.notes[0].endswith(
        '(rows 6, 52, 53 and 62); 296 rows remain. The file marked 2 of them missing with "NA" or "?": rows 52 and 62.'
    )


@pytest.mark.parametrize("text", ["high", "0,5", "n.a."])
def test_other_text_in_a_score_column_keeps_its_refusal_naming_the_row(text):
    data = _csv(_frame(cells={4: "NA", 10: text}))
    for options in ({}, {"drop_missing_scores": True}):
        err = _refusal(data, **options)
        assert err.message.startswith('In "f.csv", column "score" has 2 values that are not numbers: ')
        assert f'rows 6 and 12 ("NA", "{text}")' in err.message
        assert err.fix is None and err.fix_action is None


def test_one_text_cell_alone_is_refused_naming_its_row():
    err = _refusal(_csv(_frame(cells={10: "high"})))
    assert err.message == 'In "f.csv", column "score" has 1 value that is not a number: row 12 ("high").'
    assert err.fix_action is None


def test_a_group_called_na_stays_a_group():
    mapping = ColumnMapping(label="label", positive="1", scores=("score",), group="group")
    _, ds = _load(_csv(_frame(cells={})), mapping)
    assert sorted(set(ds.groups)) == ["NA", "b"]
    assert int(np.sum(ds.groups == "NA")) == 100 and ds.n_rows == N
    _, ds = _load(_csv(_frame()), mapping, drop_missing_scores=True)  # and after the score fix
    assert sorted(set(ds.groups)) == ["NA", "b"] and ds.n_rows == 296


def test_a_score_column_of_markers_only_is_refused_without_the_offer():
    data = _csv(_frame(n=6, cells=dict.fromkeys(range(6), "NA")))
    for options in ({}, {"drop_missing_scores": True}):
        err = _refusal(data, **options)
        assert err.message == 'In "f.csv", no row has a score in column "score".'
        assert err.fix_action is None


def test_a_parquet_string_score_column_with_na_is_offered_the_same_fix():
    pytest.importorskip("pyarrow")
    df = _frame()
    df["score"] = df["score"].astype(str)  # a string column, as a tool that writes "NA" leaves it
    buf = io.BytesIO()
    df.to_parquet(buf, index=False)
    err = _refusal(buf.getvalue(), name="f.parquet")
    assert err.fix_action == loading.ACTION_DROP_SCORES
    assert 'has a missing-value marker like "NA" or "null" instead of a score in 4 rows: rows 6, 52, 53 and 202.' in (
        err.message
    )
    _, ds = _load(buf.getvalue(), name="f.parquet", drop_missing_scores=True)
    assert ds.n_rows == 296 and "marked them missing" in ds.notes[0]


def _labels(cells: dict[int, object]) -> bytes:
    df = _frame(cells={})
    df["label"] = df["label"].astype(object)
    for i, cell in cells.items():
        df.loc[i, "label"] = cell
    return _csv(df)


def test_labels_marked_missing_are_said_so_as_the_scores_are():
    data = _labels({4: "NA", 20: "?"})  # "?" is a missing label as "NA" was ("-" is not: "+"/"-" labels)
    err = _refusal(data)
    assert err.message == (
        'In "f.csv", column "label" has a missing-value marker like "NA" or "?" instead of a label '
        "in 2 rows: rows 6 and 22."
    )
    assert err.fix_action == loading.ACTION_DROP_LABELS
    _, ds = _load(data, drop_missing_labels=True)
    assert ds.n_rows == N - 2
    assert ds.notes[0].endswith('298 rows remain. The file marked them missing with "NA" or "?".')


def test_blank_and_marked_labels_are_said_apart():
    data = _labels({4: "", 20: "null"})
    err = _refusal(data)
    assert err.message == (
        'In "f.csv", column "label" has no label (a blank cell) in 1 row: row 6. '
        'It also has a missing-value marker like "null" in 1 row: row 22.'
    )
    _, ds = _load(data, drop_missing_labels=True)
    assert ds.notes[0].endswith('298 rows remain. The file marked 1 of them missing with "null": row 22.')


def test_blank_labels_alone_keep_their_sentence_and_note():
    data = _labels({4: "", 20: ""})
    assert _refusal(data).message == 'In "f.csv", column "label" has no label (blank or NA) in 2 rows: rows 6 and 22.'
    _, ds = _load(data, drop_missing_labels=True)
    assert (
        ds.notes[0]
        == 'In "f.csv", 2 rows with no label in column "label" were dropped (rows 6 and 22); 298 rows remain.'
    )


def test_plus_and_minus_labels_are_two_classes():
    df = _frame(cells={})
    df["label"] = np.where(df["label"] == 1, "+", "-")
    _, ds = _load(_csv(df), ColumnMapping(label="label", positive="+", scores=("score",)))
    assert ds.n_rows == N and set(ds.y.tolist()) == {0, 1}
