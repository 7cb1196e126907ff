"""The Value page's headline on a built-in sample (the sample chosen, or the fallback of data that
cannot answer Value) says "the best of the sample's 2 models", never "your 2 models": those models
are the sample's (a reviewer read the fallback's headline as being about their own models)."""

from __future__ import annotations

import dataclasses
import io

import pandas as pd

from costlib.answers.value import value_answer
from costlib.loading import prepare
from costlib.loading.reading import fingerprint
from costlib.loading.samples import SAMPLES, is_sample, sample_bytes


def _screening(fp: str):
    s = SAMPLES["screening"]
    return prepare(pd.read_csv(io.BytesIO(sample_bytes("screening"))), s.mapping, name=s.title, fingerprint=fp)


def _headline(ds) -> str:
    answer = value_answer(ds, {"": (1.0, 5.0)}, names=[""], worth=1.0, reject_worth=0.0, unit="$", volume=1000.0)
    return answer.verdict.headline


def test_the_samples_models_are_the_samples_not_yours():
    sample = _screening(fingerprint(sample_bytes("screening")))
    assert is_sample(sample.fingerprint)
    head = _headline(sample)
    assert "the best of the sample's 2 models" in head and "your 2 models" not in head, head
    yours = dataclasses.replace(sample, fingerprint="f" * 64)  # the same rows uploaded as a file of one's own
    assert not is_sample(yours.fingerprint)
    assert "the best of your 2 models" in _headline(yours)
