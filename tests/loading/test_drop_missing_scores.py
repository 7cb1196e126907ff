"""A prediction file with a few empty scores (blank or NaN) is no longer refused whole: the refusal
offers to leave those rows out (`ACTION_DROP_SCORES`, as the labels' `ACTION_DROP_LABELS`), and
the dataset then keeps a note naming the rows left out. Text that is not a number is refused
without the offer (more likely the wrong column), and so is a score column with no number at all.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib import loading
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError

N = 300
EMPTY = [4, 50, 51, 200]  # data rows with a blank score: file rows 6, 52, 53 and 202 (the header is row 1)
MAPPING = ColumnMapping(label="label", positive="1", scores=("score",))


def _csv(n: int = N, empty=EMPTY, *, text: dict[int, str] | None = None) -> bytes:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, n)
    score = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, n), 0, 1).round(3).astype(object)
    score[list(empty)] = ""
    for i, cell in (text or {}).items():
        score[i] = cell
    return pd.DataFrame({"label": y, "score": score}).to_csv(index=False).encode()


def _load(data: bytes, mapping: ColumnMapping = MAPPING, **options):
    df = loading.read_table(data, "f.csv")
    return df, loading.prepare(df, mapping, name="f.csv", fingerprint="f", **options)


def _refusal(data: bytes, mapping: ColumnMapping = MAPPING, **options) -> DataError:
    with pytest.raises(DataError) as info:
        _load(data, mapping, **options)
    return info.value


def test_blank_scores_are_refused_with_the_offer_to_leave_their_rows_out():
    err = _refusal(_csv())
    assert err.message == (
        'In "f.csv", column "score" has 4 empty values (blank or not a number): rows 6, 52, 53 and 202.'
    )
    assert err.fix_action == loading.ACTION_DROP_SCORES == "drop_missing_scores"
    assert err.fix == "leave out the 4 rows with an empty score"
    assert err.column == "score"


def test_the_fix_leaves_out_exactly_the_empty_rows_and_says_which():
    data = _csv()
    mapping, options = loading.apply_fixes(MAPPING, [loading.ACTION_DROP_SCORES])
    assert mapping == MAPPING and options == {"drop_missing_scores": True}
    df, ds = _load(data, mapping, **options)
    kept = np.setdiff1d(np.arange(N), EMPTY)
    assert ds.n_rows == N - 4 == len(ds.y) == len(ds.scores["score"])
    np.testing.assert_array_equal(ds.y, df["label"].to_numpy()[kept])
    np.testing.assert_array_equal(ds.scores["score"], df["score"].to_numpy(dtype=float)[kept])
    assert ds.notes == (
        'In "f.csv", 4 rows with an empty score in column "score" were left out (rows 6, 52, 53 and 202); '
        "296 rows remain.",
    )


def test_nan_written_as_text_is_empty_too():
    err = _refusal(_csv(empty=[], text={7: "NaN", 9: "nan"}))
    assert err.fix_action == loading.ACTION_DROP_SCORES  # a missing-value marker (test_missing_markers)
    assert 'a missing-value marker like "NaN" or "nan" instead of a score in 2 rows' in err.message
    _, ds = _load(_csv(empty=[], text={7: "NaN", 9: "nan"}), drop_missing_scores=True)
    assert ds.n_rows == N - 2 and "rows 9 and 11" in ds.notes[0]


def test_text_that_is_not_a_number_keeps_its_refusal_without_the_offer():
    data = _csv(text={10: "high"})  # blank cells and one text cell: the column may be the wrong one
    err = _refusal(data)
    assert 'has 1 value that is not a number: row 12 ("high")' in err.message
    assert "It also has 4 empty cells" in err.message
    assert err.fix is None and err.fix_action is None
    again = _refusal(data, drop_missing_scores=True)  # asked anyway: still refused, nothing dropped
    assert again.message == err.message


def test_a_score_column_with_no_number_is_refused_without_the_offer():
    data = _csv(n=6, empty=range(6))
    for options in ({}, {"drop_missing_scores": True}):
        err = _refusal(data, **options)
        assert err.message == 'In "f.csv", no row has a score in column "score".'
        assert err.fix is None and err.fix_action is None and err.column == "score"


def test_several_models_leave_out_a_row_empty_in_any_of_them_and_name_the_columns():
    df = loading.read_table(_csv(), "f.csv")
    df["other"] = np.linspace(0.05, 0.95, N)
    df.loc[[4, 7], "other"] = np.nan  # row 4 is empty in both: it is left out once
    two = ColumnMapping(label="label", positive="1", scores=("score", "other"))
    with pytest.raises(DataError) as info:
        loading.prepare(df, two, name="f.csv", fingerprint="f")
    err = info.value
    assert 'column "score" has 4 empty values' in err.message and 'column "other" has 2 empty values' in err.message
    assert err.fix == "leave out the 5 rows with an empty score"  # the rows the fix leaves out, not one column's
    ds = loading.prepare(df, two, name="f.csv", fingerprint="f", drop_missing_scores=True)
    assert ds.n_rows == N - 5
    assert not np.isnan(ds.scores["other"]).any() and not np.isnan(ds.scores["score"]).any()
    assert ds.notes == (
        'In "f.csv", 5 rows with an empty score in columns "score" and "other" were left out '
        "(rows 6, 9, 52, 53 and 202); 295 rows remain.",
    )


def test_no_row_with_every_score_is_refused_without_the_offer():
    df = pd.DataFrame({"label": [0, 1, 0, 1], "a": [0.1, np.nan, 0.3, np.nan], "b": [np.nan, 0.8, np.nan, 0.6]})
    two = ColumnMapping(label="label", positive="1", scores=("a", "b"))
    for options in ({}, {"drop_missing_scores": True}):
        with pytest.raises(DataError) as info:
            loading.prepare(df, two, name="f.csv", fingerprint="f", **options)
        assert info.value.message == 'In "f.csv", no row has a score in every one of columns "a" and "b".'
        assert info.value.fix_action is None


def test_missing_labels_and_empty_scores_are_fixed_one_after_the_other_each_with_its_note():
    df = loading.read_table(_csv(), "f.csv")
    df["label"] = df["label"].astype(object)
    df.loc[[4, 20], "label"] = None  # row 4 lacks both: dropped for its label, never counted again
    err = _refusal(df.to_csv(index=False).encode())
    assert err.fix_action == loading.ACTION_DROP_LABELS  # labels come first, as before
    mapping, options = loading.apply_fixes(MAPPING, [loading.ACTION_DROP_LABELS])
    err = _refusal(df.to_csv(index=False).encode(), mapping, **options)
    assert err.fix_action == loading.ACTION_DROP_SCORES and err.fix == "leave out the 3 rows with an empty score"
    mapping, options = loading.apply_fixes(MAPPING, [loading.ACTION_DROP_LABELS, loading.ACTION_DROP_SCORES])
    _, ds = _load(df.to_csv(index=False).encode(), mapping, **options)
    assert ds.n_rows == N - 5
    assert ds.notes[0].startswith('In "f.csv", 2 rows with no label in column "label" were dropped (rows 6 and 22)')
    assert ds.notes[1].startswith('In "f.csv", 3 rows with an empty score in column "score" were left out')
    assert "(rows 52, 53 and 202); 295 rows remain." in ds.notes[1]
