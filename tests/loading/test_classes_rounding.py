"""Class probabilities as a person writes them (3 decimals: rows summing to 0.999 or 1.001) are read,
each row renormalised to sum to 1; a row farther off is refused, the sentence saying the tolerance
(review 140: a file of three columns at 3 decimals was refused in 43 of its 600 rows at 0.001)."""

from __future__ import annotations

import numpy as np
import pytest

from costlib import loading
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading.classes import SUM_TOLERANCE
from tests.loading import bad_files as bf

MAPPING = ColumnMapping(class_label="truth", class_probs=("p_a", "p_b", "p_c"))
ROUNDED = [  # 1/3 to 3 decimals sums to 0.999; 0.334 + 0.333 + 0.334 to 1.001; the third row is exact
    ("a", "0.333", "0.333", "0.333"),
    ("b", "0.334", "0.333", "0.334"),
    ("c", "0.2", "0.3", "0.5"),
    ("a", "0.872", "0.031", "0.098"),  # a row of the review's file: 1.001
]


def _prepare(rows, **kwargs):
    df = loading.read_table(bf.csv_bytes(["truth", "p_a", "p_b", "p_c"], rows), "m.csv")
    return loading.prepare(df, MAPPING, name="m.csv", fingerprint="", **kwargs)


def test_rows_rounded_to_three_decimals_are_read_and_sum_to_one():
    ds = _prepare(ROUNDED)
    np.testing.assert_allclose(ds.class_probs.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    np.testing.assert_allclose(ds.class_probs[0], [1 / 3] * 3)  # 0.333 / 0.999
    np.testing.assert_allclose(ds.class_probs[1], np.array([0.334, 0.333, 0.334]) / 1.001)
    np.testing.assert_array_equal(ds.class_probs[2], [0.2, 0.3, 0.5])  # summing to 1 already: as written
    assert not any("renormalised" in n for n in ds.notes)  # rounding is not news


def test_a_row_beyond_rounding_is_refused_with_the_tolerance_said_once():
    assert SUM_TOLERANCE == 0.005
    rows = [*ROUNDED, ("b", "0.31", "0.33", "0.35")]  # 0.99: off by 0.01
    with pytest.raises(DataError) as info:
        _prepare(rows)
    said = info.value.message
    assert "do not sum to 1 (within 0.005) in 1 row: row 6" in said and '"sum 0.99"' in said, said
    assert said.count("do not sum to 1") == 1
    assert info.value.fix_action == loading.ACTION_RENORMALISE
    ds = _prepare(rows, renormalise=True)
    np.testing.assert_allclose(ds.class_probs.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    assert any("1 row" in n and "renormalised" in n for n in ds.notes)  # the fix ticked is said


@pytest.mark.parametrize("total", ["0.995", "1.005"])
def test_the_tolerance_is_inclusive(total):
    last = f"{float(total) - 0.5:.3f}"
    ds = _prepare([*ROUNDED, ("c", "0.2", "0.3", last)])
    assert abs(ds.class_probs[-1].sum() - 1.0) < 1e-15
