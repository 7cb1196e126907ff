"""The Data page's summary of weighted rows counts the cases the rows stand for: a file of
downsampled negatives, each weighted 5, is 9.9% positive, not the 35% its rows are."""

from __future__ import annotations

import numpy as np

from costlib.core.dataset import ColumnMapping, Dataset
from costlib.loading.summary import summary_metrics, summary_tables, weights_sentence


def _ds(weight):
    y = np.array([1, 1, 0, 0, 0, 0, 1, 0])
    groups = np.array(["a", "a", "a", "a", "b", "b", "b", "b"])
    return Dataset(
        name="d", fingerprint="", n_rows=8, mapping=ColumnMapping(weight="w"), y=y, groups=groups, weight=weight,
        scores={"m": np.linspace(0, 1, 8)},
    )  # fmt: skip


def test_weighted_rows_say_the_cases_and_the_positive_share_by_weight():
    w = np.where(np.array([1, 1, 0, 0, 0, 0, 1, 0]) == 1, 1.0, 5.0)
    metrics = dict(m for m in summary_metrics(_ds(w)) if m)
    assert metrics["Rows"] == "8" and "Positives" not in metrics  # short: a tile shows about 12 characters
    assert metrics["Positives by weight"] == "10.7%"  # 3 of 28, where the rows say 37.5%
    assert weights_sentence(_ds(w)) == (
        "The rows carry weights (column “w”): the 8 rows stand for 28 cases, and 3 rows are positive."
    )
    groups = summary_tables(_ds(w))[-1].set_index("group")
    assert groups.loc["a", "cases by weight"] == 12 and groups.loc["b", "cases by weight"] == 16
    assert np.isclose(groups.loc["a", "positive share (by weight)"], 2 / 12)
    assert np.isclose(groups.loc["b", "positive share (by weight)"], 1 / 16)


def test_unweighted_rows_read_as_before():
    metrics = dict(m for m in summary_metrics(_ds(None)) if m)
    assert metrics["Rows"] == "8" and metrics["Positives"] == "3 (37.5%)" and weights_sentence(_ds(None)) is None
    groups = summary_tables(_ds(None))[-1].set_index("group")
    assert "cases by weight" not in groups and np.isclose(groups.loc["a", "positive share"], 0.5)
