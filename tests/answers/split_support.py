"""The screening sample split in ways that are not train and test rows, for the tests of
`Dataset.purpose_rows` on every page (the fixtures `no_train_rows` and `no_test_rows` are in
tests/answers/conftest.py)."""

from __future__ import annotations

import dataclasses
import io

import pandas as pd

from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes

SAMPLE = SAMPLES["screening"]  # train 3,200, validation 1,600, test 3,200 rows; two groups


def screening_frame() -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(sample_bytes("screening")))


def screening_dataset(df: pd.DataFrame, *, split: bool = True):
    """`df` prepared as the screening sample is (its split column mapped, unless `split` is False)."""
    mapping = dataclasses.replace(SAMPLE.mapping, split="split" if split else None)
    return prepare(df, mapping, name=SAMPLE.filename, fingerprint="f")
