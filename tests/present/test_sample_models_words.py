"""On a built-in sample the answers name its models as the sample's, never "your 2 models": the
person chose the sample, they did not bring its models (a first-time product manager read "the
cheaper of your 2 models" on the screening sample). On an upload the models stay "your".

Whether data is a sample is `loading.samples.is_sample` of its fingerprint, the one test of it;
the words take its answer as ``sample`` (`labels.whose_models`)."""

from __future__ import annotations

import dataclasses
import io
import re

import numpy as np
import pandas as pd
import pytest

from costlib.answers.audit import dataset_models
from costlib.binary import decision as D
from costlib.loading.preparing import prepare
from costlib.loading.reading import fingerprint
from costlib.loading.samples import SAMPLES, is_sample, sample_bytes
from costlib.present import words
from costlib.present.value_words import value_picked_sentence
from costlib.value.recommendation import recommend_value

YOURS = re.compile(r"\byour \d+ models\b")
SAMPLES_MODELS = re.compile(r"\bthe sample's \d+ models\b")


def _text(verdict) -> str:
    return " ".join([verdict.headline, *verdict.details, *verdict.asides])


def _screening(*, split: bool):
    s = SAMPLES["screening"]
    frame = pd.read_csv(io.BytesIO(sample_bytes("screening")))
    mapping = s.mapping if split else dataclasses.replace(s.mapping, split=None)
    return prepare(frame, mapping, name=s.title, fingerprint=fingerprint(sample_bytes("screening")))


@pytest.mark.parametrize("split", [True, False], ids=["split", "no split"])
def test_costs_answer_on_the_screening_sample_names_the_samples_models(split):
    """The screening sample's two models, fitted on train rows (the cheaper of 2 "on the train
    rows") or without its split (the cheapest of 2, picked on the rows that judge it: the details
    say why the interval is wider). The same rows uploaded as one's own file say "your"."""
    ds = _screening(split=split)
    assert is_sample(ds.fingerprint)
    rec = D.recommend(dataset_models(ds), (1.0, 5.0), n_resamples=100, seed=0)
    assert len(rec.models) == 2
    said = _text(words.recommendation_verdict(rec, unit="$", volume=1000, sample=is_sample(ds.fingerprint)))
    assert not YOURS.search(said), said
    assert SAMPLES_MODELS.search(said), said
    if not split:
        assert "The cheapest of the sample's 2 models is picked on these same rows" in said, said
    upload = dataclasses.replace(ds, fingerprint="f" * 64)  # the same rows as a file of one's own
    assert not is_sample(upload.fingerprint)
    yours = _text(words.recommendation_verdict(rec, unit="$", volume=1000, sample=is_sample(upload.fingerprint)))
    assert YOURS.search(yours) and not SAMPLES_MODELS.search(yours), yours


def test_value_picked_sentence_names_the_samples_models():
    """The Value page's note on a model picked as the best of several on the rows that judge it."""
    from costlib.core.sweep import Sweep, sweep_arrays

    rng = np.random.default_rng(0)
    right = rng.random(3000) < 0.5

    def scores(shift):
        return np.clip(0.5 + shift * (right - 0.5) + rng.normal(0, 0.2, right.size), 0, 1)

    sweeps = {m: Sweep(*sweep_arrays(right, scores(shift), None)) for m, shift in (("a", 0.6), ("b", 0.4))}
    rec = recommend_value(sweeps, k=1.0, n_resamples=100, seed=0)
    assert rec.picked_among == 2
    sample, upload = value_picked_sentence(rec, sample=True), value_picked_sentence(rec)
    assert sample and upload
    assert sample.startswith("The best of the sample's 2 models") and not YOURS.search(sample), sample
    assert upload.startswith("The best of your 2 models"), upload
