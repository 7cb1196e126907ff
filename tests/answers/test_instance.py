"""The Instance costs page's answer object: its figures and another cutoff's tables come from the
answer, and at the recommended cutoff they say what the recommendation says."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from costlib.answers.instance import instance_answer
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes


@pytest.fixture(scope="module")
def answer():
    s = SAMPLES["offensive"]
    ds = prepare(pd.read_csv(io.BytesIO(sample_bytes("offensive"))), s.mapping, name=s.filename, fingerprint="o")
    return instance_answer(ds)


def test_at_the_recommended_cutoff_the_table_says_what_the_recommendation_says(answer):
    rec = answer.rec
    _, overall, _ = answer.at_cutoff(rec.threshold)
    row = overall.set_index("option").loc[rec.model]
    assert row["NEC"] == pytest.approx(rec.nec)
    assert row["error rate"] == pytest.approx(rec.error_rate)
    assert overall.set_index("option").loc[rec.baseline, "NEC"] == pytest.approx(rec.baseline_nec)


def test_the_cutoff_reads_the_same_on_the_chart_as_in_the_answer(answer):
    """The answer and the slider say 0.6381; the chart title said 0.64 and the marker 0.638."""
    rec = answer.rec
    shown = f"{rec.threshold:.4g}"
    fig, _, _ = answer.at_cutoff(rec.threshold)
    assert fig.layout.title.text.endswith(f"at the cutoff {shown}")
    marks = [a.text for a in answer.figure().layout.annotations]
    assert f"recommended: {shown}" in marks, marks


def test_the_figures_show_every_model_and_every_judged_delta(answer):
    lines = answer.figure()
    shown = {t.name for t in lines.data}
    assert set(answer.curves["model"]) <= shown
    hist = answer.delta_figure()
    assert sum(np.asarray(t.x).size for t in hist.data) == answer.delta.size
