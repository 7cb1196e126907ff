"""Hostile uploads of review 4, in the loader: a class name ending in ")" (or holding brackets and
Markdown) is its column's name after the prefix, exactly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib import loading
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
