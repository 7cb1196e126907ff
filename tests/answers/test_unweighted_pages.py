"""A file with a weight column: Costs & groups and Find my prices count each row by its weight;
Value and Calibration count each row once. Before, the Data page said all four "now use it" and
Value answered for the rows as if unweighted without a word (found by a first-time user whose
negatives were downsampled 1 in 10: Value's answer was the same with and without the weights)."""

from __future__ import annotations

import numpy as np

from costlib.answers.roles import loaded_sentence, unweighted_note
from costlib.core.dataset import ColumnMapping, Dataset
from costlib.present import labels


def _ds(weight):
    y = np.array([1, 0, 0, 1, 0, 0])
    return Dataset(
        name="d", fingerprint="", n_rows=6, mapping=ColumnMapping(label="y", scores=("p",)), y=y,
        scores={"p": np.array([0.9, 0.2, 0.4, 0.7, 0.1, 0.3])}, probabilities=True, weight=weight,
    )  # fmt: skip


def test_the_pages_that_count_each_row_once_say_so_beside_a_weight_column():
    weighted = _ds(np.array([1.0, 5.0, 5.0, 1.0, 5.0, 5.0]))
    for role in ("value", "probabilities", "delta", "multiclass"):
        assert unweighted_note(weighted, role) == labels.UNWEIGHTED_PAGE
    for role in labels.WEIGHTED_ROLES:
        assert unweighted_note(weighted, role) is None
    assert unweighted_note(_ds(None), "value") is None


def test_the_data_page_names_the_pages_that_do_not_read_the_weights():
    kind, said = loaded_sentence(_ds(np.array([1.0, 5.0, 5.0, 1.0, 5.0, 5.0])), "w.csv")
    assert kind == "success"
    assert "Value and Calibration count each row once: they do not read the weight column." in said
    assert "count each row once" not in loaded_sentence(_ds(None), "w.csv")[1]
