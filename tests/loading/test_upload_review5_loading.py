"""A reviewer's uploads, in the loader: a number column with text and blank cells names both kinds
with their rows; scores barely above 1 are not offered as percentages but said to be off; a
multiclass label with one value is told in multiclass words; a 1/2 label takes 2 as positive."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from costlib import loading
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading.cells import PERCENT_ABOVE, barely_above_one, looks_like_percent
from costlib.loading.frames import number_column
from tests.loading import bad_files as bf

# ---------------------------------------------------------------------------------------
# 1. Text and blank cells in one number column: both kinds with their rows
# ---------------------------------------------------------------------------------------


def _cells_csv(column: str, cells: dict[int, str], n: int = 12) -> bytes:
    """label, score and weight; the data row i of `column` holds `cells[i]` (file row i + 2)."""
    rows = []
    for i in range(n):
        row = {"label": i % 2, "score": f"{0.1 + 0.07 * i:.2f}", "weight": "1"}
        row[column] = cells.get(i, row[column])
        rows.append([row["label"], row["score"], row["weight"]])
    return bf.csv_bytes(["label", "score", "weight"], rows)


@pytest.mark.parametrize(
    ("column", "mapping"),
    [
        ("score", ColumnMapping(label="label", scores=("score",))),
        ("weight", ColumnMapping(label="label", scores=("score",), weight="weight")),
    ],
)
def test_text_and_blank_cells_are_named_with_their_rows_in_one_sentence(column, mapping):
    # text at rows 3 and 9, blank at rows 5 and 11 ("nan" reads as blank), infinite at row 7
    df = loading.read_table(_cells_csv(column, {1: "high", 3: "", 5: "inf", 7: "n/a?", 9: "nan"}), "c.csv")
    with pytest.raises(DataError) as info:
        loading.prepare(df, mapping, name="c.csv", fingerprint="")
    said = info.value.message
    assert said == (
        f'In "c.csv", column "{column}" has 2 values that are not numbers: rows 3 and 9 ("high", "n/a?"). '
        "It also has 2 empty cells (blank or not a number): rows 5 and 11. "
        'It also has 1 infinite value: row 7 ("inf").'
    )  # before: "It also has 2 empty cells (blank or not a number)." with no row
    assert info.value.column == column


def test_one_blank_cell_beside_text_is_named_by_its_row():
    df = loading.read_table(_cells_csv("score", {0: "x", 4: ""}), "c.csv")
    with pytest.raises(DataError) as info:
        loading.prepare(df, ColumnMapping(label="label", scores=("score",)), name="c.csv", fingerprint="")
    assert info.value.message.endswith('row 2 ("x"). It also has 1 empty cell (blank or not a number): row 6.')


def test_apply_and_watch_read_a_score_column_with_the_uploads_sentence():
    # `costlib apply` and watch read their score column by `frames.number_column`: before, it named the
    # first bad row only ("row 3 holds 'high'"), not the blank and infinite cells after it
    df = loading.read_table(_cells_csv("score", {1: "high", 3: "", 5: "-inf"}), "c.csv")
    with pytest.raises(DataError) as apply:
        number_column(df, "c.csv", "score")
    with pytest.raises(DataError) as upload:
        loading.prepare(df, ColumnMapping(label="label", scores=("score",)), name="c.csv", fingerprint="")
    assert apply.value.message == upload.value.message
    assert 'row 3 ("high")' in apply.value.message and "(blank or not a number): row 5." in apply.value.message
    assert '1 infinite value: row 7 ("-inf")' in apply.value.message and apply.value.column == "score"
    huge = pd.DataFrame({"score": ["0.5", "9" * 100_000]})
    with pytest.raises(DataError) as info:
        number_column(huge, "h.csv", "score")
    assert "row 3" in info.value.message and len(info.value.message) < 200  # quoted shortened
    np.testing.assert_array_equal(number_column(pd.DataFrame({"s": ["0.5", "2"]}), "ok.csv", "s"), [0.5, 2.0])


# ---------------------------------------------------------------------------------------
# 2. Scores barely above 1 are not percentages: not offered so, and said to be off
# ---------------------------------------------------------------------------------------


def _over_one_csv(high: float = 1.49, n: int = 200) -> tuple[bytes, np.ndarray]:
    """Probabilities gone a little over 1: about one in ten above 1, the largest `high`."""
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, n)
    p = np.clip(0.3 + 0.5 * y + rng.normal(0, 0.25, n), 0, high).round(3)
    p[7] = high
    return bf.csv_bytes(["label", "score"], zip(y, p, strict=True)), p


@pytest.mark.parametrize(
    ("values", "percent", "over"),
    [
        ([0.2, 1.2, 1.49], False, True),  # a score slightly above 1: before, offered as percentages
        ([0.1, 0.7, 1.3, 1.1, 2.0], False, True),  # a sum of two probabilities is at most 2
        ([0.1, 0.7, 1.3, 2.5], True, False),  # above the bound: percentages of a rare event
        ([41.5, 85.65, 0.0, 100.0], True, False),
        ([0.2, 0.9, 1.0], False, False),  # probabilities
        ([-0.2, 0.9, 1.3], False, False),  # below 0: neither
    ],
)
def test_percent_is_offered_only_well_above_one(values, percent, over):
    v = np.array(values)
    assert looks_like_percent(v) is percent and barely_above_one(v) is over
    assert PERCENT_ABOVE == 2.0


def test_scores_barely_above_one_are_not_offered_as_percentages_and_are_said_to_be_off():
    data, p = _over_one_csv()
    df = loading.read_table(data, "over.csv")
    guess = loading.guess_mapping(df)
    assert guess.scores == ("score",) and guess.score_scale == "raw"
    assert loading.percent_columns(df, guess.scores) == {}  # before: {"score": 1.49}, "they look like percentages"
    ds = loading.prepare(df, guess, name="over.csv", fingerprint="")
    above = np.flatnonzero(p > 1)
    said = [n for n in ds.notes if "above 1" in n]
    assert len(said) == 1, ds.notes  # before: loaded as raw scores without a word
    assert said[0].startswith(
        f'In "over.csv", the scores in column "score" lie between 0 and 1.49, with {len(above)} values above 1: '
        f"rows {above[0] + 2}, {above[1] + 2},"
    )
    assert "percentages would spread much further towards 100" in said[0] and "Value and Calibration" in said[0]
    np.testing.assert_array_equal(ds.scores["score"], p)  # read as they are


def test_scores_barely_above_one_refused_as_probabilities_say_why_and_offer_no_log_odds():
    data, _ = _over_one_csv()
    df = loading.read_table(data, "over.csv")
    m = ColumnMapping(label="label", scores=("score",), score_scale="probability")
    for options in ({}, {"percent": True}):  # ticking "percentages" does not read them so either
        with pytest.raises(DataError) as info:
            loading.prepare(df, m, name="over.csv", fingerprint="", **options)
        assert "largest 1.49" in info.value.message and "Only a few rows are outside [0, 1]" in info.value.message
        assert info.value.fix_action is None
    # mostly above 1, yet all below 2: before, offered the log-odds reading (every chance above one half)
    cells = [(i % 2, 0.9 + i / 40) for i in range(20)]  # 0.9 to 1.375, 14 of 20 above 1
    most = loading.read_table(bf.csv_bytes(["label", "score"], cells), "m.csv")
    with pytest.raises(DataError) as info:
        loading.prepare(most, m, name="m.csv", fingerprint="")
    assert info.value.fix_action is None
    assert info.value.message.endswith(
        "Yet they all lie between 0 and 1.375, which looks like probabilities gone a little over 1 (a sum of several "
        "probabilities, or a model that does not keep its answers between 0 and 1) rather than log-odds or "
        'percentages: correct them where they are made, or choose "raw" to use them on the cost pages only.'
    )


def test_real_percentages_are_still_offered_and_probabilities_are_not_noted():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 100)
    pct = (100 * np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, 100), 0, 1)).round(1)
    df = loading.read_table(bf.csv_bytes(["label", "score"], zip(y, pct, strict=True)), "pct.csv")
    assert list(loading.percent_columns(df, ["score"])) == ["score"]
    raw = loading.prepare(
        df, ColumnMapping(label="label", scores=("score",), score_scale="raw"), name="pct.csv", fingerprint=""
    )
    assert not [n for n in raw.notes if "above 1" in n]
    prob = loading.read_table(bf.csv_bytes(["label", "score"], zip(y, pct / 100, strict=True)), "p.csv")
    ds = loading.prepare(
        prob, ColumnMapping(label="label", scores=("score",), score_scale="raw"), name="p.csv", fingerprint=""
    )
    assert not [n for n in ds.notes if "above 1" in n]


# ---------------------------------------------------------------------------------------
# 3. A multiclass label with one value is told in multiclass words
# ---------------------------------------------------------------------------------------


def _one_class_csv(label: str = "label", value: str = "b", n: int = 12) -> bytes:
    rng = np.random.default_rng(7)
    p = rng.dirichlet([1, 1, 1], n).round(3)
    p[:, 2] = (1 - p[:, 0] - p[:, 1]).round(3)
    return bf.csv_bytes([label, "p_a", "p_b", "p_c"], [(value, *row) for row in p])


ONE_CLASS = (
    'In "mc.csv", column "{column}" has only one value, "b", in all 12 rows (rows 2 to 13); a multiclass label '
    'needs cases of at least two classes (the probability columns are for "a", "b" and "c").'
)


@pytest.mark.parametrize("column", ["label", "class", "y"])
def test_a_multiclass_label_with_one_value_is_told_in_multiclass_words(column):
    df = loading.read_table(_one_class_csv(column), "mc.csv")
    guess = loading.guess_mapping(df)
    assert guess.class_probs == ("p_a", "p_b", "p_c")
    assert guess.class_label == column and guess.label is None  # before: taken as a binary label
    with pytest.raises(DataError) as info:
        loading.prepare(df, guess, name="mc.csv", fingerprint="")
    said = info.value.message
    assert said == ONE_CLASS.format(column=column) and "binary" not in said  # before: "a binary label needs both"
    assert info.value.column == column


def test_a_one_value_label_mapped_beside_class_probabilities_alone_is_told_in_multiclass_words():
    df = loading.read_table(_one_class_csv(), "mc.csv")
    m = ColumnMapping(label="label", class_probs=("p_a", "p_b", "p_c"))  # chosen under the binary label
    with pytest.raises(DataError) as info:
        loading.prepare(df, m, name="mc.csv", fingerprint="")
    assert info.value.message == ONE_CLASS.format(column="label")
    with_scores = dataclasses.replace(m, scores=("p_a",))  # a score beside it: the binary label's words
    with pytest.raises(DataError, match="a binary label needs both"):
        loading.prepare(df, with_scores, name="mc.csv", fingerprint="")


def test_a_column_of_ones_beside_numbered_classes_is_not_taken_for_their_label():
    rng = np.random.default_rng(8)
    p = rng.dirichlet([1, 1, 1], 12).round(3)
    p[:, 2] = (1 - p[:, 0] - p[:, 1]).round(3)
    data = bf.csv_bytes(["copies", "p_0", "p_1", "p_2"], [(1, *row) for row in p])
    guess = loading.guess_mapping(loading.read_table(data, "n.csv"))
    assert guess.class_probs == ("p_0", "p_1", "p_2") and guess.class_label is None


# ---------------------------------------------------------------------------------------
# 4. A label coded 1/2: 2, the larger, is shown as the positive class; the command line asks
# ---------------------------------------------------------------------------------------


def _labels_csv(values: tuple[str, str], n: int = 40) -> bytes:
    return bf.csv_bytes(["label", "score"], [(values[i % 2], f"{0.2 + 0.6 * (i % 2):.1f}") for i in range(n)])


@pytest.mark.parametrize(
    ("values", "positive"),
    [(("1", "2"), "2"), (("2", "1"), "2"), (("0", "2"), "2"), (("-1", "1"), "1"), (("1", "3"), "3")],
)
def test_a_label_of_two_numbers_shows_the_larger_as_the_positive_class(values, positive):
    from costlib.answers.data import positive_choice  # the Data page's picker

    df = loading.read_table(_labels_csv(values), "l.csv")
    guess = loading.guess_mapping(df)
    assert guess.label == "label" and guess.positive == positive  # before: None for 1/2
    shown, first = positive_choice(df, "label", guess)
    assert shown[first] == positive  # before: "1", the picker's first value, for 1/2 and 0/2 alike
    assert loading.likely_positive(sorted(values)) == positive
    assert loading.prepare(df, guess, name="l.csv", fingerprint="").mapping.positive == positive
    with pytest.raises(DataError, match="choose which one means positive"):  # no value given (the command line)
        loading.prepare(df, ColumnMapping(label="label", scores=("score",)), name="l.csv", fingerprint="")


def test_words_and_zero_one_labels_keep_their_positive_class():
    assert loading.likely_positive(["maybe", "no", "yes"]) == "yes"
    assert loading.likely_positive(["0", "1"]) == "1" and loading.likely_positive(["1", "cat"]) == "1"
    assert loading.likely_positive(["cat", "dog"]) is None
    df = loading.read_table(
        bf.csv_bytes(["label", "score"], [(i % 2, 0.1 + 0.8 * (i % 2)) for i in range(10)]), "b.csv"
    )
    assert loading.guess_mapping(df).positive is None  # 0/1: read as 1 by prepare, no picker
