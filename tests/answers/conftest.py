"""Fixtures of the answers' tests: the screening sample split in ways that are not train and
test rows (`split_support`)."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.answers.split_support import screening_frame


@pytest.fixture(scope="module")
def no_train_rows() -> pd.DataFrame:
    """The sample without its train rows: validation 1,600 and test 3,200 rows."""
    return screening_frame().query("split != 'train'")


@pytest.fixture(scope="module")
def no_test_rows() -> pd.DataFrame:
    """The sample with its test rows called validation rows: train 3,200 and validation 4,800 rows."""
    df = screening_frame()
    return df.assign(split=df["split"].replace({"test": "validation"}))
