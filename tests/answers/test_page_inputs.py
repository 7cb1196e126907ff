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


# ---------------------------------------------------------------------------------------
# The review limit and the audit the downloads build, from a session's settings


def test_a_limit_of_every_case_a_month_is_no_limit():
    from costlib.present.capacity_words import limit_in_force

    assert limit_in_force(400, 1000) == (0.4, False)
    assert limit_in_force(999, 1000) == (0.999, False)
    assert limit_in_force(1000, 1000) == (None, True)  # every case: no limit
    assert limit_in_force(5000, 1000) == (None, True)
    assert limit_in_force(None, 1000) == (None, False)
    assert limit_in_force(400, 0) == (None, False)  # no volume: the limit cannot be a share


def test_the_audit_reads_the_questions_in_force_the_reference_and_the_limit_of_the_settings():
    from costlib.answers.costs import session_options
    from costlib.core.link import Settings

    record = {"ratio_chosen": 4.0, "ratio_low": 3.0, "ratio_high": 5.0}
    chosen = Settings(resamples=300, tolerance=0.1, price_questions=record, reference_group="b")
    got = session_options(chosen, {"a": (1.0, 4.0), "b": (1.0, 4.0)}, ["a", "b"], cap=250, volume=1000)
    assert got["n_resamples"] == 300 and got["fairness_tolerance"] == 0.1
    assert got["price_questions"]["in_force"] is True and got["price_questions"]["ratio_now"] == 4.0
    assert got["reference_group"] == "b"
    assert (got["capacity"], got["capacity_cases"]) == (0.25, 250)
    moved = session_options(chosen, {"a": (1.0, 6.0), "b": (1.0, 4.0)}, ["a", "b"], cap=None, volume=1000)
    assert moved["price_questions"]["in_force"] is False  # prices moved off the answers: said so
    assert (moved["capacity"], moved["capacity_cases"]) == (None, None)
    other = session_options(chosen, {}, ["a", "c"], cap=1000, volume=1000)
    assert other["reference_group"] is None  # "b" is not a group of this data: the largest
    assert (other["capacity"], other["capacity_cases"]) == (None, None)  # every case: no limit
    assert session_options(Settings(), {}, ["a"])["price_questions"] is None


def test_the_audit_maker_builds_the_audit_of_the_settings(compas):
    from costlib.answers.costs import audit_maker
    from costlib.core.link import Settings

    models = dataset_models(compas, ("p_recid",))
    groups = list(models["p_recid"].groups)
    costs = {g: (1.0, 3.0) for g in groups}
    chosen = Settings(resamples=50, tolerance=0.2, reference_group=groups[-1])
    made = audit_maker(models, costs, compas, chosen, cap=600, unit="$", volume=1000, criteria=())()
    assert (made.n_resamples, made.fairness_tolerance, made.capacity_cases) == (50, 0.2, 600)
    assert made.recommendation.capacity == 0.6
    assert made.disparities.reference == groups[-1]


def test_the_audit_reads_the_chosen_criteria_only_while_the_fairness_rules_are_on():
    from costlib.answers.audit import audit_criteria
    from costlib.answers.costs import session_options
    from costlib.binary.fairness import FAIRNESS_CRITERIA
    from costlib.core.link import Settings

    assert audit_criteria(Settings(fairness=True)) == tuple(FAIRNESS_CRITERIA)  # none chosen yet: every one
    assert audit_criteria(Settings(fairness=True, criteria=["equal accuracy"])) == ("equal accuracy",)
    assert audit_criteria(Settings(fairness=True, criteria=[])) == ()
    assert audit_criteria(Settings(fairness=False, criteria=["equal accuracy"])) == ()
    assert audit_criteria(Settings()) == ()  # the toggle not read yet: off
    chosen = Settings(fairness=True, criteria=("equal opportunity",))
    assert session_options(chosen, {}, ["a"])["criteria"] == ("equal opportunity",)
