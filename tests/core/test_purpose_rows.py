"""Which rows fit and which judge, for every split a file may have (`Dataset.purpose_rows`).

Cutoffs fitted on some rows are never judged on rows that include them: a split with test rows
fits on other rows (the train rows, else the rows that are not test rows) and judges on the test
rows; a split without test rows (or with nothing but test rows) fits and judges on every row, as
without a split, so that the pages cross-fit."""

from __future__ import annotations

import numpy as np
import pytest

from costlib.core.dataset import ColumnMapping, Dataset

T, V, S = "train", "validation", "test"


def _dataset(roles):
    split = None if roles is None else np.array(roles, dtype=object)
    return Dataset(name="d", fingerprint="", n_rows=6, mapping=ColumnMapping(split=None if roles is None else "s"),
                   split=split)  # fmt: skip


ALL = [True] * 6

CASES = {
    # split roles per row: (fit, judge, calibrate)
    "train and test": ([T, T, V, S, S, T], ([1, 1, 0, 0, 0, 1], [0, 0, 0, 1, 1, 0], [0, 0, 1, 0, 0, 0])),
    "train and test only": ([T, T, T, S, S, T], ([1, 1, 1, 0, 0, 1], [0, 0, 0, 1, 1, 0], [1, 1, 1, 0, 0, 1])),
    "train and validation only": ([T, T, V, V, T, T], (ALL, ALL, [0, 0, 1, 1, 0, 0])),
    "test and validation only": ([S, S, V, V, S, V], ([0, 0, 1, 1, 0, 1], [1, 1, 0, 0, 1, 0], [0, 0, 1, 1, 0, 1])),
    "test only": ([S] * 6, (ALL, ALL, ALL)),
    "train only": ([T] * 6, (ALL, ALL, ALL)),
    "validation only": ([V] * 6, (ALL, ALL, ALL)),
    "no split": (None, (ALL, ALL, ALL)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_split_fits_judges_and_calibrates_on_its_rows(case):
    roles, expected = CASES[case]
    ds = _dataset(roles)
    for purpose, rows in zip(("fit", "judge", "calibrate"), expected, strict=True):
        got = ds.purpose_rows(purpose)
        assert got.dtype == bool and got.tolist() == [bool(r) for r in rows], (case, purpose)


@pytest.mark.parametrize("case", list(CASES))
def test_fitted_rows_are_judged_only_when_they_are_every_row(case):
    """Either fit and judge are the same rows (the pages cross-fit) or no row does both."""
    ds = _dataset(CASES[case][0])
    fit, judge = ds.purpose_rows("fit"), ds.purpose_rows("judge")
    assert np.array_equal(fit, judge) or not (fit & judge).any()
    if np.array_equal(fit, judge):
        assert fit.all()


def test_an_unknown_purpose_is_refused():
    with pytest.raises(KeyError):
        _dataset([T, S, T, S, T, S]).purpose_rows("train")
