"""Several group columns read as one (issue 41, item 2): each row's intersection group, built by
one key function for the audit (`prepare`) and for `costlib apply` (`intersections.key_column`),
held against a pandas groupby; a blank cell, a hostile value and a clash of names."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib import loading
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading import intersections
from costlib.loading.cells import MISSING_GROUP

HOSTILE = "<img src=x onerror=alert(1)> | =1+1 **b**"


def _frame(n: int = 400, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "y": rng.integers(0, 2, n),
            "s": rng.uniform(0, 1, n).round(3),
            "race": rng.choice(["A", "B", HOSTILE], n),
            "sex": rng.choice(["F", "M"], n),
            "age": rng.choice(["<25", "25-45", ">45"], n),
        }
    )


def _prepare(df: pd.DataFrame, group, **kw):
    return loading.prepare(df, ColumnMapping(label="y", scores=("s",), group=group), name="f.csv", fingerprint="", **kw)


@pytest.mark.parametrize("columns", [("race", "sex"), ("sex", "race"), ("race", "sex", "age")])
def test_the_groups_are_the_intersections_of_a_pandas_groupby(columns):
    df = _frame()
    ds = _prepare(df, list(columns))
    want = df.groupby(list(columns), sort=False).size()
    got = pd.Series(ds.groups).value_counts()
    assert len(got) == len(want)
    for values, count in want.items():
        key = " × ".join(values)  # the values in the order of the columns, as the key function joins them
        assert got[key] == count
        assert ds.group_parts[key] == tuple(values)
    assert ds.mapping.group == columns and ds.mapping.group_columns == columns
    # row by row, each row's group is its own values joined
    np.testing.assert_array_equal(ds.groups, df[list(columns)].agg(" × ".join, axis=1).to_numpy(dtype=object))


def test_a_hostile_value_stays_text_in_the_key():
    df = _frame()
    ds = _prepare(df, ["race", "sex"])
    assert f"{HOSTILE} × F" in set(ds.groups)
    assert ds.group_parts[f"{HOSTILE} × M"] == (HOSTILE, "M")


def test_a_blank_cell_in_any_column_is_read_as_the_single_column_reads_it():
    df = _frame(60)
    df.loc[[3, 10], "sex"] = None
    df.loc[[5], "race"] = ""
    alone = _prepare(df, "sex")
    ds = _prepare(df, ["race", "sex"])
    # the single column's rule (blank cells form the group "(missing)", with its note) in each column
    assert alone.groups[3] == MISSING_GROUP
    assert ds.groups[3] == f"{df.race[3]} × {MISSING_GROUP}"
    assert ds.groups[5] == f"{MISSING_GROUP} × {df.sex[5]}"
    assert ds.n_rows == len(df)
    assert any('column "sex" is blank in 2 values' in n for n in ds.notes)
    assert any('column "race" is blank in 1 value' in n for n in ds.notes)


def test_apply_builds_the_same_key_as_the_audit():
    df = _frame()
    df.loc[[7], "race"] = None
    ds = _prepare(df, ["race", "sex"])
    keys = intersections.key_column(df, "f.csv", ["race", "sex"])
    np.testing.assert_array_equal(keys, ds.groups)


def test_two_rows_of_values_with_one_name_are_refused():
    df = pd.DataFrame(
        {
            "y": [0, 1, 0, 1],
            "s": [0.1, 0.9, 0.2, 0.8],
            "a": ["x × y", "x", "x", "x"],
            "b": ["z", "y × z", "y × z", "y × z"],
        }
    )
    with pytest.raises(DataError, match="give the same intersection name"):
        _prepare(df, ["a", "b"])


def test_too_many_intersections_are_refused_and_the_fix_keeps_the_largest():
    rng = np.random.default_rng(0)
    n = 2000
    df = pd.DataFrame(
        {"y": rng.integers(0, 2, n), "s": rng.uniform(size=n), "a": rng.integers(0, 6, n), "b": rng.integers(0, 5, n)}
    )
    with pytest.raises(DataError) as err:
        _prepare(df, ["a", "b"])
    assert err.value.fix_action == "top_groups" and 'column "a × b" has 30 distinct groups' in err.value.message
    ds = _prepare(df, ["a", "b"], top_groups=10)
    assert len(set(ds.groups)) == 11 and set(ds.group_parts) == set(ds.groups)
    # the pooled rest takes a column's value only when its members share it
    assert ds.group_parts["Other"] == ("Other", "Other")


def test_one_group_column_given_as_a_list_is_the_single_column_path():
    df = _frame()
    one = _prepare(df, "race")
    for given in (["race"], ("race",), ["race", "race"]):
        ds = _prepare(df, given)
        assert ds.mapping.group == "race" and ds.group_parts is None
        np.testing.assert_array_equal(ds.groups, one.groups)
    assert ColumnMapping(group=[]).group is None


def test_a_missing_group_column_among_several_is_named():
    with pytest.raises(DataError, match='"sexx"'):
        _prepare(_frame(), ["race", "sexx"])


def test_the_serving_side_names_the_intersection_as_the_policy_records_it():
    df = _frame()
    ds = _prepare(df, ["race", "sex"])
    groups = intersections.group_series(df, "f.csv", ["race", "sex"])
    assert groups.name == "race × sex"  # the policy's data.group (`data_columns`)
    np.testing.assert_array_equal(groups.to_numpy(), ds.groups)
    one = intersections.group_series(df, "f.csv", "race")
    assert one.name == "race" and (one.to_numpy() == _prepare(df, "race").groups).all()
    with pytest.raises(DataError, match='no column "sexx"'):
        intersections.group_series(df, "f.csv", ["race", "sexx"])
