"""Calibration: are the probabilities what they say? Formula thresholds assume they are."""

import numpy as np
import pandas as pd
import streamlit as st

from costlib import figures, words
from costlib.calibration import apply_temperature, expected_calibration_error, fit_temperature, reliability
from costlib.value import value_sweep, value_table
from pages._common import current_dataset, memo, model_picker, page_header, rows, say, show_table

page_header(
    "Calibration",
    "Elkan's threshold, τ* = k/(k+1) and the class thresholds all assume calibrated probabilities: of "
    "the cases scored 0.7, about 70% are positive. Temperature scaling fits one number T on held-out "
    "rows and rescales the logits by it; the ranking (and accuracy) stays, the value at τ* changes.",
)
ds = current_dataset(needs="probabilities")
if ds is None:
    st.stop()
model = model_picker(ds)
c1, c2 = st.columns(2)
bins = c1.slider("Bins", min_value=5, max_value=30, value=10, key="bins", bind="query-params")
k = c2.slider(
    "k for the value comparison", min_value=0.0, max_value=20.0, value=2.0, step=0.1, key="cal_k", bind="query-params"
)
fit_rows = rows(ds, "calibrate")
judge = rows(ds, "judge")
fit_on = "validation" if ds.has_role("validation") else "train" if ds.has_role("train") else "all"
if fit_on == "all":
    st.warning(
        "No validation or train split: the temperature is fitted and judged on the same rows, which "
        "flatters it. Map a split column on the Data page."
    )
y_fit, y = ds.y[fit_rows], ds.y[judge]
p_fit, p = ds.scores[model][fit_rows], ds.scores[model][judge]
t = memo("temperature", ds, (model,), lambda: fit_temperature(y_fit, p_fit))
p_cal = memo("calibrated", ds, (model,), lambda: apply_temperature(p, t)) if np.isfinite(t) else p
ece_before = expected_calibration_error(y, p, n_bins=bins)
ece_after = expected_calibration_error(y, p_cal, n_bins=bins)
direction = (
    "overconfident: the fit softens its probabilities"
    if t > 1
    else "underconfident: the fit sharpens its probabilities"
    if t < 1
    else "already calibrated"
)
if abs(np.log(t)) < 0.05:  # within about 5% of 1: nothing worth correcting
    direction = "close to calibrated already (T is within 5% of 1)"
say(
    "markdown",
    f"T = {t:.3f} (fitted on the {fit_on} rows): {model} is {direction}. Expected calibration error "
    f"on the judged rows goes from {ece_before:.3f} to {ece_after:.3f}."
    + (" Temperature scaling does not help on these rows: keep the original probabilities."
       if ece_after > ece_before else ""),
    bold=True,
)
m = st.columns(3)
m[0].metric("Temperature T", f"{t:.3f}")
m[1].metric("ECE before", f"{ece_before:.4f}")
m[2].metric("ECE after", f"{ece_after:.4f}", delta=f"{ece_after - ece_before:+.4f}", delta_color="inverse")
curves = [
    (f"{words.plain(model)} (before)", *reliability(y, p, n_bins=bins)),
    (f"{words.plain(model)} (after T = {t:.2f})", *reliability(y, p_cal, n_bins=bins)),
]
st.plotly_chart(
    figures.reliability_figure(curves, title=f"Reliability diagram, {words.plain(model)}"), key="reliability"
)

before = memo("value_sweep", ds, (model,), lambda: value_sweep(y, p))
after = memo("value_sweep_cal_page", ds, (model,), lambda: value_sweep(y, p_cal))
vt = pd.concat([value_table({"before": before}, k=k), value_table({"after": after}, k=k)], ignore_index=True)
vt = vt.rename(columns={"model": "probabilities"})
show_table(vt, "value_before_after", key="cal_value")
gain = vt.loc[1, "value at tau*"] - vt.loc[0, "value at tau*"]
st.caption(
    f"Not using the model is worth 0 per case (the baseline). At k = {k:g}, calibration changes the value at "
    f"τ* by {gain:+.4f} per case; the best value over all thresholds hardly moves, because the ranking is "
    "unchanged."
)
