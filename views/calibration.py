"""Calibration: are the probabilities what they say? Formula thresholds assume they are."""

import numpy as np
import pandas as pd
import streamlit as st

from costlib.calibration import BinnedScores, apply_temperature, brier_score, fit_temperature
from costlib.present import figures, words
from costlib.value import k_from_prices, value_sweep, value_table
from views._ui.data import group_names, model_picker, rows
from views._ui.display import show_table, show_verdict
from views._ui.memo import memo
from views._ui.page import setup
from views._ui.prices import stored_costs
from views._ui.state import setting

ds, unit, volume = setup(
    "Calibration",
    "The formula cutoffs (c_fp/(c_fp+c_fn), τ* = k/(k+1)) assume calibrated probabilities: of the cases scored 0.7, "
    "about 70% are positive. Temperature scaling fits one number T on held-out rows and rescales the scores by it; "
    "the ranking (and accuracy) stays, the formula cutoffs become right.",
    needs="probabilities",
)
model = model_picker(ds)
bins = st.columns([1, 1])[0].slider(
    "Bins",
    min_value=5,
    max_value=30,
    value=10,
    key="bins",
    bind="query-params",
    help="Equal-width bins of the predicted probability (scikit-learn's binning).",
)
costs = stored_costs(group_names(ds))
c_fp, c_fn = np.mean([p_[0] for p_ in costs.values()]), np.mean([p_[1] for p_ in costs.values()])
worth = float(setting("gain", 1.0)) or 1.0
k = setting("k") if setting("k") is not None else min(20.0, k_from_prices(c_fp, c_fn, worth))
fit_rows, judge = rows(ds, "calibrate"), rows(ds, "judge")
fit_on = "validation" if ds.has_role("validation") else "train" if ds.has_role("train") else "same"
if fit_on == "same":
    st.warning(
        "No validation or train split: the temperature is fitted and judged on the same rows, which flatters "
        "it. Map a split column on the Data page."
    )
y, p = memo("judged", ds, (model,), lambda: (ds.y[judge], ds.scores[model][judge]))  # not copied on every move
t = memo("temperature", ds, (model,), lambda: fit_temperature(ds.y[fit_rows], ds.scores[model][fit_rows]))
p_cal = memo("calibrated", ds, (model,), lambda: apply_temperature(p, t)) if np.isfinite(t) else p
# sorted once per model: a Bins move reads the bins off the sorted scores
binned = memo("binned", ds, (model,), lambda: BinnedScores.of(y, p))
binned_cal = memo("binned_calibrated", ds, (model,), lambda: BinnedScores.of(y, p_cal))
ece_before, ece_after = binned.ece(bins), binned_cal.ece(bins)
chance = memo("ece_by_chance", ds, (model, bins), lambda: binned.ece_by_chance(bins))
verdict = words.calibration_verdict(model, t, fit_on, ece_before, ece_after, ece_chance=chance)
show_verdict(verdict)
m = st.columns(5)
m[0].metric("Temperature T", f"{t:.3f}" if np.isfinite(t) else "none")
m[1].metric(
    "ECE before",
    f"{ece_before:.4f}",
    help="Expected calibration error: the average gap between the "
    "predicted probability and the observed share of positives, weighted by the cases in each bin.",
)
m[2].metric(
    "ECE after",
    f"{ece_after:.4f}",
    delta=f"{ece_after - ece_before:+.4f}" if abs(ece_after - ece_before) >= 5e-5 else None,
    delta_color="inverse",
)
brier_help = "Mean squared difference between probability and outcome (lower is better)."
brier = memo("brier", ds, (model,), lambda: (brier_score(y, p), brier_score(y, p_cal)))
m[3].metric("Brier before", f"{brier[0]:.4f}", help=brier_help)
m[4].metric("Brier after", f"{brier[1]:.4f}", help=brier_help)
curves = [(f"{model} (before)", *binned.bins(bins))]
if np.isfinite(t):
    curves.append((f"{model} (after T = {t:.2f})", *binned_cal.bins(bins)))
st.plotly_chart(figures.reliability_figure(curves, title=f"Reliability diagram, {model}"), key="reliability")

before = memo("value_sweep", ds, (model,), lambda: value_sweep(y, p))
after = memo("value_sweep_cal_page", ds, (model,), lambda: value_sweep(y, p_cal))
vt = pd.concat([value_table({"before": before}, k=k), value_table({"after": after}, k=k)], ignore_index=True)
view = pd.DataFrame(
    {
        "probabilities": vt["model"],
        "worth per case at τ*": vt["value at tau*"].map(lambda x: words.money(x * worth, unit)),
        "handed over at τ*": vt["reject rate at tau*"].map(words.percent),
        "worth at the best τ (same rows)": vt["value at best tau"].map(lambda x: words.money(x * worth, unit)),
    }
)
show_table(view, "value_before_after", key="cal_value")
gain = (vt.loc[1, "value at tau*"] - vt.loc[0, "value at tau*"]) * worth
st.caption(
    f"At your prices (k = {k:.3g}, a right answer worth {words.money(worth, unit)}; set on Costs & groups and "
    f"Value), calibration changes the worth per case at τ* = k/(k+1) by {words.money(gain, unit)}; the best "
    "value over all thresholds hardly moves, because the ranking is unchanged. Handing every case over is "
    "worth 0."
)
