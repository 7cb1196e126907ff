"""Value: what the model is worth when it may hand cases to a person."""

import numpy as np
import pandas as pd
import streamlit as st

import costlib
from costlib import figures, words
from costlib.calibration import apply_temperature, fit_temperature
from costlib.value import (
    classification_table,
    cost_sensitive_value,
    ranking_flips,
    sweep_value,
    value_against_k,
    value_sweep,
    value_table,
)
from pages._common import (
    current_dataset,
    memo,
    model_picker,
    page_header,
    rows,
    say,
    show_table,
    unit_and_volume,
)

K_OPTIONS = sorted(
    {
        *np.round(np.arange(0, 2.0001, 0.05), 2),
        *np.round(np.arange(2.25, 5.0001, 0.25), 2),
        *np.round(np.arange(5.5, 20.0001, 0.5), 2),
    }
)
K_GRID = np.linspace(0, 20, 201)

page_header(
    "Value",
    "A model that answers only when confident and hands the rest to a person. Value per case, in units "
    "of one correct answer: V = (1 − ρ)(α − k(1 − α)) with ρ the share handed over and α the accuracy "
    "of the answers given.",
)
ds = current_dataset(needs="probabilities")
if ds is None:
    st.stop()
unit, volume = unit_and_volume("value")

c1, c2, c3 = st.columns([2, 1, 1])
k = c1.select_slider(
    "k: how much worse is a wrong answer than a right one is good?",
    options=K_OPTIONS,
    value=2.0,
    key="k",
    bind="query-params",
    help="k = 2: a wrong answer costs twice what a right one earns. k = 0: only accuracy counts.",
)
reject_value = c2.number_input(
    "Value of handing a case over",
    value=0.0,
    step=0.1,
    min_value=-20.0,
    max_value=1.0,
    key="reject",
    bind="query-params",
    help="0: a person handles it at no gain or loss (the default).",
)
gain = c3.number_input(
    "A correct answer is worth (in your unit)",
    min_value=0.0,
    value=1.0,
    step=0.5,
    key="gain",
    bind="query-params",
    help="Turns value per case into money per month.",
)
model = model_picker(ds)
judge = rows(ds, "judge")
y = ds.y[judge]
sweeps = {m: memo("value_sweep", ds, (m,), lambda m=m: value_sweep(y, ds.scores[m][judge])) for m in ds.scores}
sweep = sweeps[model]

tau_star = costlib.value_threshold(k)
values = sweep_value(sweep, k, reject_value)
# The best threshold is chosen on the training rows when there are some, and judged here.
fit = rows(ds, "fit")
fit_sweeps = None
if ds.has_role("train") and ds.has_role("test"):
    fit_sweeps = {m: memo("value_sweep_fit", ds, (m,), lambda m=m: value_sweep(ds.y[fit], ds.scores[m][fit]))
                  for m in ds.scores}
table = value_table(sweeps, k=k, reject_value=reject_value, fit_sweeps=fit_sweeps).set_index("model")
row = table.loc[model]
verdict = words.value_verdict(
    row["value at best tau"],
    k=k,
    reject_value=reject_value,
    tau=row["best tau"],
    unit=unit,
    unit_value=gain,
    volume=volume,
    name=model,
)
say("markdown", verdict, bold=True)
leaders = words.value_leaders(table.reset_index(), k=k)
if leaders:
    say("markdown", leaders)

m = st.columns(4)
m[0].metric(
    "Value per case at τ* = k/(k+1)",
    f"{row['value at tau*']:.4f}",
    help="Answer when confidence ≥ k/(k+1): right for calibrated probabilities.",
)
m[1].metric("Handed over at τ*", f"{row['reject rate at tau*']:.1%}")
m[2].metric(
    "Value per case at the best threshold",
    f"{row['value at best tau']:.4f}",
    delta=f"{row['value at best tau'] - reject_value:+.4f} vs no model",
)
best_tau = row["best tau"]
m[3].metric("Best confidence threshold", "answer nothing" if not np.isfinite(best_tau) else f"{best_tau:.4f}",
            help="Chosen on the train rows and judged on the test rows when the data has both; otherwise "
                 "chosen and judged on the same rows, which flatters it.")

fig = figures.value_tau_figure(
    sweep.thresholds,
    values,
    tau_star=tau_star,
    tau_opt=best_tau,
    value_opt=row["value at best tau"],
    reject_value=reject_value,
    label=model,
    title=f"Value per case against the confidence threshold (k = {k:g}, {words.plain(model)})",
)
st.plotly_chart(fig, key="value_tau_chart")

st.subheader("Which model is worth more depends on k")
long = pd.concat(
    [
        memo(
            "value_k",
            ds,
            (m, reject_value),
            lambda m=m: value_against_k(None, None, K_GRID, reject_value=reject_value, sweep=sweeps[m],
                                        fit_sweep=None if fit_sweeps is None else fit_sweeps[m]),
        ).assign(model=m)
        for m in sweeps
    ],
    ignore_index=True,
)
flips = ranking_flips(long, rule="tau*") if len(sweeps) > 1 else None
st.plotly_chart(figures.value_k_figure(long, flips=flips, current_k=k), key="value_k_chart")
if flips is not None and len(flips):
    first = flips.iloc[0]
    say(
        "caption",
        f"At the formula threshold τ* the ranking flips {len(flips)} time(s); first at k ≈ {first['k']:.2g}, "
        f"where {first['leader']} overtakes {first['previous']}. Lines: solid = best τ (fitted on train when "
        "there is a split), dotted = τ* = k/(k+1), dashed = no model.",
    )

st.subheader("Separate prices per outcome")
c = st.columns(3)
k_tp = c[0].number_input(
    "A true positive is worth (k_tp)",
    min_value=0.0,
    value=1.0,
    step=0.5,
    key="k_tp",
    bind="query-params",
    help="In units of a correct negative (worth 1).",
)
k_fp = c[1].number_input(
    "A false positive costs (k_fp)", min_value=0.0, value=float(k), step=0.5, key="k_fp", bind="query-params"
)
k_fn = c[2].number_input(
    "A false negative costs (k_fn)", min_value=0.0, value=float(k), step=0.5, key="k_fn", bind="query-params"
)
tau_pos, tau_neg = costlib.class_thresholds(k_tp=k_tp, k_fp=k_fp, k_fn=k_fn)
cs = []
for mm in ds.scores:
    for rule in ("paper", "bayes"):
        r = memo("cs_value", ds, (mm, rule, k_tp, k_fp, k_fn), lambda mm=mm, rule=rule: cost_sensitive_value(
            y, ds.scores[mm][judge], k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, rule=rule))
        cs.append({"model": mm, "rule": rule, "value per case": r.value, "handed over": r.reject_rate})
cs = pd.DataFrame(cs)
show_table(
    cs, "cost_sensitive_value", key="cs", column_config={"handed over": st.column_config.NumberColumn(format="percent")}
)
wide = cs.pivot(index="model", columns="rule", values="value per case")
gap = (wide["bayes"] - wide["paper"]).loc[model]
say(
    "caption",
    f"“paper” accepts a positive answer when p ≥ {tau_pos:.3f} and a negative one when 1 − p ≥ {tau_neg:.3f}; "
    f"“bayes” takes, case by case, the action with the highest expected value. For {model} the gap is "
    f"{gap:+.4f} per case" + (" (bayes is better here)." if gap > 1e-12 else "."),
)

st.subheader("Models side by side")
cls = memo(
    "classification",
    ds,
    (k_fp, k_fn),
    lambda: classification_table(y, {mm: ds.scores[mm][judge] for mm in ds.scores}, k_fp=k_fp, k_fn=k_fn),
)
show_table(cls.merge(table.reset_index(), on="model"), "models", key="models")
st.caption(
    "Accuracy, F1 and cost-sensitive error use the cutoff 0.5 and ignore the reject option, so they can "
    "rank models differently from value."
)

st.subheader("Before and after calibration")
if ds.has_role("validation"):
    val = rows(ds, "calibrate")
    temps = {
        mm: memo("temperature", ds, (mm,), lambda mm=mm: fit_temperature(ds.y[val], ds.scores[mm][val]))
        for mm in ds.scores
    }
    cal_sweeps = {
        mm: memo(
            "value_sweep_cal",
            ds,
            (mm,),
            lambda mm=mm: value_sweep(y, apply_temperature(ds.scores[mm][judge], temps[mm])),
        )
        for mm in ds.scores
    }
    after = value_table(cal_sweeps, k=k, reject_value=reject_value).set_index("model")
    comp = (
        pd.DataFrame(
            {
                "temperature (fitted on validation)": pd.Series(temps),
                "value at tau* before": table["value at tau*"],
                "value at tau* after": after["value at tau*"],
                "best value before": table["value at best tau"],
                "best value after": after["value at best tau"],
            }
        )
        .rename_axis("model")
        .reset_index()
    )
    show_table(comp, "calibration_value", key="cal")
    st.caption(
        "Temperature scaling keeps each model's ranking (so the best value barely moves) but fixes what "
        "τ* = k/(k+1) assumes: calibrated probabilities."
    )
else:
    st.info(
        "This data has no validation split, so there is nothing held out to calibrate on. Map a split column "
        "with 'validation' rows on the Data page to see value before and after temperature scaling."
    )
