"""Calibration: are the probabilities what they say? Formula thresholds assume they are."""

import numpy as np
import pandas as pd
import streamlit as st

from costlib import figures, words
from costlib.calibration import (
    apply_temperature,
    brier_score,
    calibration_bins,
    expected_calibration_error,
    fit_temperature,
)
from costlib.value import value_sweep, value_table
from pages._common import memo, model_picker, rows, say, setup, show_table

ds, unit, volume = setup(
    "Calibration",
    "The formula cutoffs (c_fp/(c_fp+c_fn), τ* = k/(k+1)) assume calibrated probabilities: of the cases scored 0.7, "
    "about 70% are positive. Temperature scaling fits one number T on held-out rows and rescales the scores by it; "
    "the ranking (and accuracy) stays, the formula cutoffs become right.",
    needs="probabilities",
)
model = model_picker(ds)
c1, c2 = st.columns(2)
bins = c1.slider("Bins", min_value=5, max_value=30, value=10, key="bins", bind="query-params",
                 help="Equal-width bins of the predicted probability (scikit-learn's binning).")
k = c2.slider("k for the value comparison", min_value=0.0, max_value=20.0, value=2.0, step=0.1, key="cal_k",
              bind="query-params")
fit_rows, judge = rows(ds, "calibrate"), rows(ds, "judge")
fit_on = "validation" if ds.has_role("validation") else "train" if ds.has_role("train") else "same"
if fit_on == "same":
    st.warning("No validation or train split: the temperature is fitted and judged on the same rows, which flatters "
               "it. Map a split column on the Data page.")
y, p = ds.y[judge], ds.scores[model][judge]
t = memo("temperature", ds, (model,), lambda: fit_temperature(ds.y[fit_rows], ds.scores[model][fit_rows]))
p_cal = memo("calibrated", ds, (model,), lambda: apply_temperature(p, t)) if np.isfinite(t) else p
ece_before = expected_calibration_error(y, p, n_bins=bins)
ece_after = expected_calibration_error(y, p_cal, n_bins=bins)
verdict = words.calibration_verdict(model, t, fit_on, ece_before, ece_after)
say(verdict.kind, verdict.headline)
m = st.columns(4)
m[0].metric("Temperature T", f"{t:.3f}" if np.isfinite(t) else "none")
m[1].metric("ECE before", f"{ece_before:.4f}", help="Expected calibration error: the average gap between the "
            "predicted probability and the observed share of positives, weighted by the cases in each bin.")
m[2].metric("ECE after", f"{ece_after:.4f}", delta=f"{ece_after - ece_before:+.4f}", delta_color="inverse")
m[3].metric("Brier score before → after", f"{brier_score(y, p):.4f} → {brier_score(y, p_cal):.4f}",
            help="Mean squared difference between probability and outcome (lower is better).")
curves = [(f"{model} (before)", *calibration_bins(y, p, n_bins=bins))]
if np.isfinite(t):
    curves.append((f"{model} (after T = {t:.2f})", *calibration_bins(y, p_cal, n_bins=bins)))
st.plotly_chart(figures.reliability_figure(curves, title=f"Reliability diagram, {model}"), key="reliability")

before = memo("value_sweep", ds, (model,), lambda: value_sweep(y, p))
after = memo("value_sweep_cal_page", ds, (model,), lambda: value_sweep(y, p_cal))
vt = pd.concat([value_table({"before": before}, k=k), value_table({"after": after}, k=k)], ignore_index=True)
vt = vt.rename(columns={"model": "probabilities", "value at tau*": "value at τ*", "reject rate at tau*":
                        "handed over at τ*", "best tau": "best τ (same rows)", "value at best tau": "value at best τ"})
show_table(vt, "value_before_after", key="cal_value",
           column_config={"handed over at τ*": st.column_config.NumberColumn(format="percent")})
gain = vt.loc[1, "value at τ*"] - vt.loc[0, "value at τ*"]
st.caption(f"Value in right answers per case; handing every case over is worth 0. At k = {k:g}, calibration changes "
           f"the value at τ* by {gain:+.4f} per case; the best value over all thresholds hardly moves, because the "
           "ranking is unchanged.")
