"""Hostile uploads of review 4, in the loader: a class name ending in ")" (or holding brackets and
Markdown) is its column's name after the prefix, exactly; a file that looks as if it had more than
two classes is told what is wrong with that reading (negative probabilities, rows not summing to 1);
a column with blank and infinite cells names both kinds in one refusal; a price column whose sizes
add up past the largest float is refused at load (it loaded, then costs read "n/a")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib import loading
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading.roles import too_large_to_add
from tests.loading import bad_files as bf

HOSTILE_CLASSES = ("gold (A)", "silver (B)", "[link](http://x)", "**bold**", "$x$", "<img src=x onerror=alert(1)>")


def _multiclass_csv(classes, *, n=60, seed=4, scale=1.0, negative_at=None, label="label"):
    """A label of `classes` and their probability columns "p_<class>" (rows sum to `scale`);
    data row `negative_at` (0-based) gets -0.4 in the second column."""
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(len(classes)), n) * scale
    if negative_at is not None:
        p[negative_at, 1] = -0.4
    y = [classes[i % len(classes)] for i in range(n)]
    rows = [[y[i], *(f"{v:.6f}" for v in p[i])] for i in range(n)]
    return bf.csv_bytes([label, *(f"p_{c}" for c in classes)], rows)


# ---------------------------------------------------------------------------------------
# 1. Class names round-trip from their column names
# ---------------------------------------------------------------------------------------

_NAME = st.text(min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(names=st.lists(_NAME, min_size=2, max_size=6, unique=True), form=st.sampled_from(["p_{}", "prob_{}", "p({})"]))
def test_a_class_name_is_its_column_name_after_the_prefix_exactly(names, form):
    # before: every name lost a closing ")" ("gold (A)" -> "gold (A"), and a shared start was cut
    assert loading.class_names_for([form.format(n) for n in names]) == tuple(names)


@pytest.mark.parametrize(
    "columns, names",
    [
        (["p_gold (A)", "p_silver (B)", "p_bronze (C)"], ("gold (A)", "silver (B)", "bronze (C)")),
        (["p_[link](http://x)", "p_**bold**"], ("[link](http://x)", "**bold**")),
        (["p(a))", "p(b))"], ("a)", "b)")),  # the parentheses of "p(...)" only
        (["score(cat)", "score(dog)"], ("cat", "dog")),  # a shared prefix cut at "(": one ")" off
        (["score_x (1)", "score_y (2)"], ("x (1)", "y (2)")),  # cut at "_": the ")" is the name's
        (["p_a", "p_a"], ("p_a", "p_a")),  # two classes with one name: the columns' names
    ],
)
def test_class_names_keep_their_own_parentheses(columns, names):
    assert loading.class_names_for(columns) == names


def test_a_file_whose_classes_end_in_parentheses_or_hold_markdown_loads_with_its_classes_as_written():
    classes = HOSTILE_CLASSES[:3] + HOSTILE_CLASSES[3:]
    data = _multiclass_csv(classes, label="tier")
    df = loading.read_table(data, "mc.csv")
    guess = loading.guess_mapping(df)
    assert guess.class_label == "tier" and guess.class_names == classes  # before: tier was taken as a group
    ds = loading.prepare(df, guess, name="mc.csv", fingerprint="")
    assert ds.class_names == classes
    assert sorted(set(np.asarray(ds.y_class).tolist())) == list(range(len(classes)))


# ---------------------------------------------------------------------------------------
# 2. A file that looks multiclass is told what is wrong with that reading
# ---------------------------------------------------------------------------------------


def test_a_negative_class_probability_is_named_with_its_column_and_row():
    df = loading.read_table(_multiclass_csv(("billing", "tech", "sales"), negative_at=7), "neg.csv")
    guess = loading.guess_mapping(df)
    assert not guess.class_probs  # the guess does not read a negative probability as one
    refused = loading.refusals(df, guess, name="neg.csv")
    (said,) = refused["multiclass"]
    assert "the class probabilities have 1 negative value" in said
    assert 'column "p_tech", row 9 ("-0.4")' in said  # data row 7 is the file's row 9
    assert "do not sum to 1" in said and "row 9" in said.split("do not sum to 1")[1]
    assert "logit" not in said  # a class probability is not a score on another scale


def test_rows_that_do_not_sum_to_one_are_named_and_the_fix_is_offered_when_mapped():
    df = loading.read_table(_multiclass_csv(("billing", "tech", "sales"), scale=1.5), "nosum.csv")
    guess = loading.guess_mapping(df)
    (said,) = loading.refusals(df, guess, name="nosum.csv")["multiclass"]
    assert "do not sum to 1" in said and "rows 2, 3, 4, 5 and 6 (first 5 of 60)" in said and '"sum 1.5"' in said
    mapping = ColumnMapping(class_label="label", class_probs=("p_billing", "p_tech", "p_sales"))
    with pytest.raises(DataError) as info:
        loading.prepare(df, mapping, name="nosum.csv", fingerprint="")
    assert info.value.fix_action == loading.ACTION_RENORMALISE  # values above 1 only: renormalising mends them
    ds = loading.prepare(df, mapping, name="nosum.csv", fingerprint="", renormalise=True)
    np.testing.assert_allclose(ds.class_probs.sum(axis=1), 1.0)


def test_a_negative_probability_is_refused_even_when_renormalising():
    df = loading.read_table(_multiclass_csv(("a", "b", "c"), negative_at=0), "n.csv")
    mapping = ColumnMapping(class_label="label", class_probs=("p_a", "p_b", "p_c"))
    with pytest.raises(DataError, match="negative") as info:
        loading.prepare(df, mapping, name="n.csv", fingerprint="", renormalise=True)
    assert info.value.fix_action is None and info.value.column == "p_b"


def test_a_good_multiclass_file_and_a_binary_file_have_no_multiclass_refusal():
    good = loading.read_table(_multiclass_csv(("billing", "tech", "sales")), "ok.csv")
    assert "multiclass" not in loading.near_misses(good, loading.guess_mapping(good))
    binary = loading.read_table(b"label,score\n0,0.1\n1,0.9\n0,0.3\n", "b.csv")
    assert loading.near_misses(binary, loading.guess_mapping(binary)) == {}


# ---------------------------------------------------------------------------------------
# 3. Every kind of bad cell at once
# ---------------------------------------------------------------------------------------


def _delta_csv(cells: dict[int, str], n: int = 30) -> bytes:
    rows = [
        [i % 2, f"{0.1 + 0.8 * (i % 2):.2f}", cells.get(i, f"{(-1) ** (i + 1) * (i + 1) / 10:.2f}")] for i in range(n)
    ]
    return bf.csv_bytes(["label", "score", "delta"], rows)


def test_blank_and_infinite_cells_are_named_in_one_refusal():
    df = loading.read_table(_delta_csv({13: "inf", 20: "NaN"}), "d.csv")
    with pytest.raises(DataError) as info:
        loading.prepare(
            df, ColumnMapping(label="label", scores=("score",), delta="delta"), name="d.csv", fingerprint=""
        )
    said = info.value.message
    # before: only "row 22" (the blank); row 15's infinity was said on the next upload
    assert "1 empty value (blank or not a number): row 22" in said and '1 infinite value: row 15 ("inf")' in said
    assert info.value.column == "delta"


def test_text_blank_and_infinite_cells_are_named_in_one_refusal():
    df = loading.read_table(_delta_csv({3: "high", 5: "", 8: "-inf"}), "d.csv")
    with pytest.raises(DataError) as info:
        loading.prepare(
            df, ColumnMapping(label="label", scores=("score",), delta="delta"), name="d.csv", fingerprint=""
        )
    said = info.value.message
    assert 'row 5 ("high")' in said and "1 empty cell (blank or not a number): row 7." in said
    assert '1 infinite value: row 10 ("-inf")' in said


# ---------------------------------------------------------------------------------------
# 4. Prices whose total overflows
# ---------------------------------------------------------------------------------------


def test_prices_whose_sizes_add_up_past_the_largest_float_are_refused_at_load():
    df = loading.read_table(_delta_csv({i: "1e+308" for i in range(30)} | {3: "-1e+308"}), "huge.csv")
    with pytest.raises(DataError) as info:
        loading.prepare(
            df, ColumnMapping(label="label", scores=("score",), delta="delta"), name="huge.csv", fingerprint=""
        )
    said = info.value.message
    assert said.startswith(
        'In "huge.csv", the prices of the cases, from the price column "delta", are too large to add up'
    )
    assert (
        'All 30 of its values are 1e+308 or more in size: rows 2, 3, 4, 5 and 6 (first 5 of 30) ("1e+308", "1e+308", '
        '"1e+308", "-1e+308", "1e+308").' in said
    )
    assert info.value.column == "delta"


def test_only_the_largest_prices_are_named():
    # signed as the labels (a price's sign that disagrees with its label is refused)
    cells = {i: f"{(-1) ** (i + 1) * 0.5:.1f}" for i in range(30)} | {7: "1.5e308", 12: "-1e308", 20: "1.5e308"}
    df = loading.read_table(_delta_csv(cells), "two.csv")
    with pytest.raises(DataError) as info:
        loading.prepare(
            df, ColumnMapping(label="label", scores=("score",), delta="delta"), name="two.csv", fingerprint=""
        )
    assert 'The largest 2 values, without which the total would fit, are in rows 9 and 22 ("1.5e+308", "1.5e+308")' in (
        info.value.message
    )
    one = loading.read_table(
        _delta_csv(cells | {20: "-0.5"}), "one.csv"
    )  # 1.5e308 + 1e308 overflows: without the first, fits
    with pytest.raises(
        DataError, match=r'The largest value, without which the total would fit, is in row 9 \("1.5e\+308"\)\.'
    ):
        loading.prepare(
            one, ColumnMapping(label="label", scores=("score",), delta="delta"), name="one.csv", fingerprint=""
        )
    fits = loading.read_table(_delta_csv(cells | {12: "-1e307", 20: "-0.5"}), "fits.csv")
    ds = loading.prepare(
        fits, ColumnMapping(label="label", scores=("score",), delta="delta"), name="fits.csv", fingerprint=""
    )
    assert np.isfinite(np.abs(ds.delta).sum())


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(st.floats(-1e308, 1e308, allow_nan=False), st.sampled_from([1e308, -1.7e308, 0.0])),
        min_size=1,
        max_size=40,
    )
)
def test_the_largest_prices_named_are_those_without_which_the_total_fits(values):
    values = np.array(values)
    mask = too_large_to_add(values)
    with np.errstate(over="ignore"):
        total = np.abs(values).sum()
        assert (mask is None) == bool(np.isfinite(total))
        if mask is not None:
            assert np.isfinite(np.abs(values[~mask]).sum())
            assert np.abs(values[mask]).min() >= np.abs(values[~mask]).max(initial=0.0)  # the largest ones


def test_weights_whose_total_overflows_are_refused_at_load_too():
    # before: 1e308 on every row loaded, and the cost at every cutoff was NaN
    rows = [[i % 2, f"{0.1 + 0.8 * (i % 2):.2f}", "1e308" if i in (4, 9) else "1"] for i in range(30)]
    df = loading.read_table(bf.csv_bytes(["label", "score", "weight"], rows), "w.csv")
    mapping = ColumnMapping(label="label", scores=("score",), weight="weight")
    with pytest.raises(DataError) as info:
        loading.prepare(df, mapping, name="w.csv", fingerprint="")
    said = info.value.message
    assert said.startswith('In "w.csv", the weights in column "weight" are too large to add up')
    assert 'The largest 2 values, without which the total would fit, are in rows 6 and 11 ("1e+308", "1e+308")' in said
    assert info.value.column == "weight"
