"""The Value page ships a threshold by the one ship rule (`core.ship`): only when the whole 95%
interval of its gain is above zero. Without an interval (no resamples: the bounds are NaN) the
gain is "not clearly better", never "ship" (main shipped it: a NaN lower bound passed its test)."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from costlib.core import rules as R
from costlib.core import ship as S
from costlib.present.value_verdict import value_verdict
from costlib.value import recommend_value, value_sweep

SAMPLE = Path(__file__).resolve().parents[2] / "costlib" / "samples" / "screening_two_models.csv"


def _sweeps():
    df = pd.read_csv(SAMPLE)
    tr, te = df[df["split"] == "train"], df[df["split"] == "test"]
    models = ("score_calibrated", "score_overconfident")
    return {m: value_sweep(te["label"], te[m]) for m in models}, {m: value_sweep(tr["label"], tr[m]) for m in models}


def test_a_gain_without_an_interval_does_not_ship():
    judge, fit = _sweeps()
    with_iv = recommend_value(judge, k=3, fit_sweeps=fit, n_resamples=200)
    assert with_iv.status == S.SAVES and with_iv.gain_low > 0  # the same gain ships with its interval
    rec = recommend_value(judge, k=3, fit_sweeps=fit, n_resamples=0)
    assert math.isnan(rec.gain_low) and math.isnan(rec.gain_high)
    assert rec.gain == with_iv.gain > 0
    assert rec.status == S.UNCLEAR
    assert R.verdict_of(rec.status) == R.NOT_CLEARLY
    headline = value_verdict(rec, k=3.0, unit="$").headline
    assert "no interval to tell the gain from chance" in headline


def test_the_status_is_the_ship_rules_on_the_gain_and_its_interval():
    judge, fit = _sweeps()
    for k in (0.5, 1.0, 3.0, 9.0):
        for n_resamples in (0, 100):
            rec = recommend_value(judge, k=k, fit_sweeps=fit, n_resamples=n_resamples)
            if rec.status in (S.ADDS_NOTHING, S.NO_ANSWER):
                continue
            assert rec.status == S.saving_status(
                rec.gain, rec.gain_low, rec.gain_high, tolerance=1e-12 * max(1, abs(rec.baseline_value))
            )
