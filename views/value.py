"""Value: what the model is worth when it may hand cases to a person."""

import numpy as np
import pandas as pd
import streamlit as st

from costlib import value
from costlib.calibration import apply_temperature, fit_temperature
from costlib.core import settings
from costlib.present import figures, words
from views._ui.data import group_names, model_sweeps, rows
from views._ui.display import say, show_table, show_verdict
from views._ui.memo import memo
from views._ui.page import setup
from views._ui.prices import stored_costs
from views._ui.state import ensure_setting, keep, remembered, set_setting, setting, setting_notes

K_OPTIONS = sorted(
    {
        *np.round(np.arange(0, 2.0001, 0.05), 2),
        *np.round(np.arange(2.25, 5.0001, 0.25), 2),
        *np.round(np.arange(5.5, 20.0001, 0.5), 2),
    }
)
K_GRID = np.linspace(0, 20, 201)

ds, unit, volume = setup(
    "Value",
    "A model that answers only when it is confident enough and hands the rest to a person. What is that worth "
    "per case and per month, against handing everything over or letting the model answer everything?",
    needs="value",
)
costs = stored_costs(group_names(ds))
c_fp, c_fn = np.mean([p[0] for p in costs.values()]), np.mean([p[1] for p in costs.values()])
if ds.counts_only:  # an aggregate file or a table read through DuckDB: the value sweeps come from the counts
    counted = model_sweeps(ds)
    sweeps = {
        m: memo("value_sweep", ds, (m,), lambda ms=ms: value.value_sweep_from_counts(ms.judge_pooled))
        for m, ms in counted.items()
    }
    split = all(ms.judged_on == "test" for ms in counted.values())
    fit_sweeps = (
        {
            m: memo("value_sweep_fit", ds, (m,), lambda ms=ms: value.value_sweep_from_counts(ms.fit_pooled))
            for m, ms in counted.items()
        }
        if split
        else None
    )
else:
    judge, fit = rows(ds, "judge"), rows(ds, "fit")
    split = ds.has_role("train") and ds.has_role("test")
    y = ds.y[judge]
    sweeps = {
        m: memo("value_sweep", ds, (m,), lambda m=m: value.value_sweep(y, ds.scores[m][judge])) for m in ds.scores
    }
    fit_sweeps = None
    if split:
        fit_sweeps = {
            m: memo("value_sweep_fit", ds, (m,), lambda m=m: value.value_sweep(ds.y[fit], ds.scores[m][fit]))
            for m in ds.scores
        }


def reset_k() -> None:
    set_setting("k", None)


def pick_k() -> None:
    set_setting("k", float(st.session_state["k"]))


@st.fragment
def live_value() -> None:
    """The worth of a right answer and k in, one answer out: reruns alone when they move."""
    st.subheader("Your prices")
    remembered("gain", 1.0, bound=settings.GAIN)
    remembered(
        "reject_worth",
        0.0,
        bound=settings.Bound("the worth of a handed-over case", -settings.PRICE_MAX, settings.PRICE_MAX, 0.0),
    )
    c1, c2, c3 = st.columns([1, 1, 2])
    worth = c1.number_input(
        f"A right answer is worth ({unit or 'your unit'})",
        min_value=0.0,
        max_value=settings.PRICE_MAX,
        step=0.5,
        format="%g",
        key="gain",
        on_change=keep,
        args=("gain",),
        help="What the business gains when the model answers a case correctly.",
    )
    reject_worth = c2.number_input(
        f"A case handed over is worth ({unit or 'your unit'})",
        step=0.5,
        format="%g",
        key="reject_worth",
        on_change=keep,
        args=("reject_worth",),
        help="0: a person handles it at no gain or loss (the default).",
    )
    st.query_params["gain"], st.query_params["reject_worth"] = f"{worth:g}", f"{reject_worth:g}"
    derived = value.k_from_prices(c_fp, c_fn, worth) if worth > 0 else 20.0
    # k follows the prices until the slider moves; the moved value is the setting "k" (and ?k=)
    ensure_setting("k", None, parse=float, valid=lambda v: v is None or 0 <= v <= 20)
    setting_notes()
    override = setting("k")
    k = float(override) if override is not None else float(min(derived, 20.0))
    options = K_OPTIONS if k in K_OPTIONS else sorted({*K_OPTIONS, k})
    if st.session_state.get("k") != k:  # only when k came from elsewhere: keeps key presses
        st.session_state["k"] = k
    c3.select_slider(
        "k: how much worse is a wrong answer than a right one is good?",
        options=options,
        key="k",
        on_change=pick_k,
        format_func=lambda x: f"{x:.3g}",
        help="k = 2: a wrong answer costs twice what a right one earns. k = 0: only accuracy counts.",
    )
    if override is not None:
        st.query_params["k"] = f"{k:g}"
        c3.button("Back to k from my prices", key="k_reset", on_click=reset_k)
    else:
        st.query_params.pop("k", None)
    say(
        "caption",
        f"k = {derived:.3g} follows from your prices: a wrong answer costs on average "
        f"{words.money((c_fp + c_fn) / 2, unit)} (the mean of a false positive's {words.money(c_fp, unit)} and a false "
        f"negative's {words.money(c_fn, unit)}, set on Costs & groups) and a right answer earns "
        f"{words.money(worth, unit)}."
        + ("" if override is None else f" You moved the slider to k = {k:g}.")
        + (
            f" Your prices are lopsided (a false negative costs {words.ratio_text(c_fn / c_fp)} times a false "
            "positive): k averages them, and “Separate prices per outcome” below prices each mistake on its own."
            if c_fp > 0 and not 0.5 <= c_fn / c_fp <= 2
            else ""
        )
        + " Unlike Costs & groups, a case here can be handed to a person, so the two pages can answer differently.",
    )
    r = reject_worth / worth if worth > 0 else 0.0
    rec = memo(
        "value_rec", ds, (k, r), lambda: value.recommend_value(sweeps, k=k, reject_value=r, fit_sweeps=fit_sweeps)
    )
    st.subheader("What to ship")
    verdict = words.value_recommendation_verdict(rec, k=k, worth=worth, unit=unit, volume=volume)
    show_verdict(verdict, "Why not the formula threshold?")
    base = {"hand everything over": "hand everything over", "answer everything": "answer everything"}[rec.baseline]
    m = st.columns(4)
    m[0].metric(
        "Worth per case",
        words.money(rec.value * worth, unit),
        help="On the test rows, answering from the recommended confidence threshold.",
    )
    m[1].metric(
        "Worth a month",
        words.money(rec.value * worth * volume, unit) if volume else "set a volume",
        help=f"Worth per case times {volume:,.0f} cases a month.",
    )
    m[2].metric(
        "Gain per case",
        words.money(rec.gain * worth, unit),
        help=f"Against {base}: the better of handing every case to a person and letting the model answer every case.",
    )
    m[3].metric(
        "Handed to a person",
        f"{rec.reject_rate:.0%}",
        help="Share of cases whose confidence is below the recommended threshold.",
    )
    model = rec.model
    if len(sweeps) > 1:
        model = st.columns([1, 2])[0].selectbox(
            "Curve of the model", list(sweeps), index=list(sweeps).index(rec.model), key="value_model"
        )
    sweep = sweeps[model]
    row = rec.models.set_index("model").loc[model]
    fig = figures.value_tau_figure(
        sweep.thresholds,
        value.sweep_value(sweep, k, r) * worth,
        tau_star=value.value_threshold(k),
        tau_opt=float(row["tau"]),
        value_opt=float(row["value"]) * worth,
        reject_value=r * worth,
        label=model,
        title=f"Worth per case against the confidence threshold, {model} (k = {k:.3g}, test rows)",
        unit=unit,
    )
    st.plotly_chart(fig, key="value_tau_chart")
    st.session_state["_value_k"] = (k, r)
    drawn = st.session_state.get("_value_k_drawn")
    if not st.session_state.get("_value_full_run") and drawn is not None and drawn != (k, r):
        c1, c2 = st.columns([3, 1], vertical_alignment="center")
        say(
            "info",
            f"The chart of value against k and the tables below are still for k = {drawn[0]:.3g}.",
            where=c1,
        )
        if c2.button("Update them for this k", key="value_refresh_below"):
            st.rerun(scope="app")


# A full run draws everything for the k of this run; a k move reruns only the fragment, which
# then sees that the sections below were drawn for another k.
st.session_state["_value_full_run"] = True
live_value()

k, r = st.session_state.get("_value_k", (2.0, 0.0))
worth = float(setting("gain", 1.0))
st.subheader("Which model is worth more depends on k")
long = pd.concat(
    [
        memo(
            "value_k",
            ds,
            (m, r),
            lambda m=m: value.value_against_k(
                None,
                None,
                K_GRID,
                reject_value=r,
                sweep=sweeps[m],
                fit_sweep=None if fit_sweeps is None else fit_sweeps[m],
            ),
        ).assign(model=m)
        for m in sweeps
    ],
    ignore_index=True,
)
flips = value.ranking_flips(long, rule="tau*") if len(sweeps) > 1 else None
st.plotly_chart(
    figures.value_k_figure(long.assign(value=long["value"] * worth), flips=flips, current_k=k, unit=unit),
    key="value_k_chart",
)
st.session_state["_value_k_drawn"], st.session_state["_value_full_run"] = (k, r), False
say(
    "caption",
    f"Worth per case when a right answer earns {words.money(worth, unit)}. Solid: each model at its best "
    "threshold (fitted on train when there is a split); dotted: at the formula threshold τ* = k/(k+1), which trusts "
    "the probabilities; dashed: hand everything over. The black dotted line is your k.",
)

if ds.counts_only:
    say(
        "caption",
        f"“{ds.name}” holds counts, not rows: separate prices per outcome, the models side by side at the cutoff "
        "0.5 and calibration need each case's score and label, so they are not shown for it.",
    )
    st.stop()

with st.expander("Separate prices per outcome: a right positive worth more than a right negative"):
    say(
        "caption",
        "In units of a right negative answer (worth 1). From your prices: a false positive costs "
        f"{words.money(c_fp, unit)} and a false negative {words.money(c_fn, unit)}; with a right answer worth "
        f"{words.money(setting('gain', 1.0), unit)}, that is k_fp and k_fn below.",
    )
    worth = float(setting("gain", 1.0)) or 1.0
    c = st.columns(3)
    k_tp = c[0].number_input("A true positive is worth (k_tp)", min_value=0.0, value=1.0, step=0.5, key="k_tp")
    k_fp = c[1].number_input(
        "A false positive costs (k_fp)", min_value=0.0, value=float(c_fp / worth), step=0.5, key="k_fp"
    )
    k_fn = c[2].number_input(
        "A false negative costs (k_fn)", min_value=0.0, value=float(c_fn / worth), step=0.5, key="k_fn"
    )
    cs = memo(
        "acceptance_rules",
        ds,
        (k_tp, k_fp, k_fn),
        lambda: value.acceptance_rules_table(
            y, {mm: ds.scores[mm][judge] for mm in ds.scores}, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn
        ),
    )
    # in the user's unit: k_* are in units of a right negative answer, which is worth `worth`
    cs = cs.assign(**{"value per case": cs["value per case"] * worth})
    show_table(
        cs,
        "acceptance_rules",
        key="cs",
        column_config={
            "value per case": st.column_config.NumberColumn(f"worth per case ({unit or 'your unit'})", format="%.4f"),
            "handed over": st.column_config.NumberColumn(format="percent"),
        },
    )
    say(
        "caption",
        "“By class thresholds” answers a positive when p ≥ k_fp/(k_tp + k_fp) and a negative when "
        "1 − p ≥ k_fn/(1 + k_fn); “by expected value” takes, case by case, the action whose expected value is "
        "highest. They differ when a right positive is worth more than a right negative.",
    )

with st.expander("Models side by side at the cutoff 0.5 (no reject option)"):
    cls = memo(
        "classification",
        ds,
        (c_fp, c_fn),
        lambda: value.classification_table(y, {mm: ds.scores[mm][judge] for mm in ds.scores}, k_fp=c_fp, k_fn=c_fn),
    )
    show_table(
        cls,
        "models",
        key="models",
        column_config={
            "cost-sensitive error": st.column_config.NumberColumn(
                f"price of the errors per case ({unit or 'your unit'})", format="%.4f"
            )
        },
    )
    st.caption(
        "Accuracy, F1 and the price of the errors per case use the cutoff 0.5 and ignore the reject option, "
        "so they can rank models differently from value."
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
            lambda mm=mm: value.value_sweep(y, apply_temperature(ds.scores[mm][judge], temps[mm])),
        )
        for mm in ds.scores
        if np.isfinite(temps[mm])
    }
    before = value.value_table(sweeps, k=k, reject_value=r).set_index("model")
    after = value.value_table(cal_sweeps, k=k, reject_value=r).set_index("model")
    comp = (
        pd.DataFrame(
            {
                "temperature (fitted on validation)": pd.Series(temps),
                "worth at τ* before": before["value at tau*"] * worth,
                "worth at τ* after": after["value at tau*"] * worth,
            }
        )
        .rename_axis("model")
        .reset_index()
    )
    show_table(
        comp,
        "calibration_value",
        key="cal",
        column_config={
            c: st.column_config.NumberColumn(f"{c} ({unit or 'per case'})", format="%.4f")
            for c in ("worth at τ* before", "worth at τ* after")
        },
    )
    st.caption(
        "Worth per case. Temperature scaling keeps each model's ranking but fixes what τ* = k/(k+1) assumes: "
        "calibrated probabilities."
    )
else:
    st.caption(
        "This data has no validation split, so there is nothing held out to calibrate on. Map a split column "
        "with 'validation' rows on the Data page to see value before and after temperature scaling."
    )
