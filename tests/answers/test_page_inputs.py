"""What the pages read before their answer, decided in costlib (issue 40: a page is widgets ->
settings -> one memoised call -> draw): a data set's groups and sweeps, the counted data's
included, each remembered through the page's memo."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from counting_memo import Store

from costlib.answers.audit import dataset_models
from costlib.answers.roles import group_names
from costlib.answers.value_sections import value_sweeps
from costlib.binary.model_sweeps import SINGLE_GROUP
from costlib.core.dataset import ColumnMapping, Dataset
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes


@pytest.fixture(scope="module")
def compas():
    s = SAMPLES["compas"]
    return prepare(pd.read_csv(io.BytesIO(sample_bytes("compas"))), s.mapping, name=s.filename, fingerprint="c")


def _counted(ds: Dataset) -> Dataset:
    """`ds` known by its counts only (as an aggregate file reads): its sweeps, no rows."""
    sweeps = dataset_models(ds, tuple(ds.scores))
    return Dataset(name="agg.parquet", fingerprint="a", n_rows=ds.n_rows, mapping=ds.mapping, sweeps=sweeps)


def test_the_groups_are_sorted_by_their_text_once_through_the_memo():
    groups = np.array(["b", "10", "a", "2", "b", "a"], dtype=object)
    ds = Dataset(name="t", fingerprint="t", n_rows=6, mapping=ColumnMapping(), groups=groups)
    store = Store()
    assert group_names(ds, remember=store) == ["10", "2", "a", "b"]  # by text: "10" < "2"
    assert group_names(ds, remember=store) == ["10", "2", "a", "b"]
    assert store.made == ["group_names"]


def test_without_a_group_column_there_is_one_group_and_nothing_to_remember():
    ds = Dataset(name="t", fingerprint="t", n_rows=2, mapping=ColumnMapping())
    store = Store()
    assert group_names(ds, remember=store) == [SINGLE_GROUP]
    assert store.made == []


def test_counted_data_has_its_counts_groups_in_their_order_and_its_counted_sweeps(compas):
    counted = _counted(compas)
    store = Store()
    sweeps = counted.sweeps
    assert group_names(counted, remember=store) == list(next(iter(sweeps.values())).groups)
    got = dataset_models(counted, remember=store)
    assert list(got) == list(sweeps) and all(got[m] is sweeps[m] for m in sweeps)
    assert got is not sweeps  # a copy: the caller may not change the data set's own
    assert store.made == []  # nothing sorted: there are no rows


def test_each_models_sweep_is_sorted_once_through_the_memo(compas):
    store = Store()
    first = dataset_models(compas, remember=store)
    again = dataset_models(compas, remember=store)
    assert list(first) == list(compas.scores)
    assert store.made == ["model_sweeps"] * len(compas.scores)
    assert all(again[m] is first[m] for m in first)
    assert store.kept.keys() == {("model_sweeps", (m,)) for m in compas.scores}
    assert list(first[next(iter(first))].groups) == group_names(compas)


def test_the_value_sections_of_counted_data_read_the_same_sweeps(compas):
    counted = _counted(compas)
    judged = value_sweeps(counted).judge
    assert list(judged) == list(dataset_models(counted))
