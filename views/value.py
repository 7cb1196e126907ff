"""Value: what the model is worth when it may hand cases to a person."""

import streamlit as st

from costlib import answers, value
from costlib.core import settings
from costlib.core.escaping import option_names
from costlib.present import capacity_words, page_answers
from views._ui import value_inputs
from views._ui.data import group_names
from views._ui.details import details_setting
from views._ui.display import say, show_chart, show_metrics, show_table, show_verdict
from views._ui.memo import memo
from views._ui.page import live, setup
from views._ui.prices import stored_costs
from views._ui.state import setting

ds, unit, volume = setup(
    "Value",
    "A model that answers only when it is confident enough and hands the rest to a person. What is that worth "
    "per case and per month, against handing everything over or letting the model answer everything?",
    needs="value",
)
names = group_names(ds)
costs = stored_costs(names)
cases = memo("judged_cases", ds, tuple(names), lambda: answers.judged_cases(ds, names))
sweeps = memo("value_sweeps", ds, (), lambda: answers.value_sweeps(ds))


@live
def live_value() -> None:
    """The worth of a right answer and k in, one answer out: reruns alone when they move (what
    does not move with them is drawn around it: every element drawn here is redrawn on every move)."""
    c1, c2, c3 = st.columns([1, 1, 2])
    worth, reject_worth = value_inputs.worth_inputs(c1, c2, unit)
    choice = value_inputs.k_slider(c3, worth, costs, cases)
    k = choice.k
    say("caption", answers.value_k_sentence(choice, worth, unit))
    r = answers.reject_value_of(reject_worth, worth)
    rec = memo(
        "value_rec",
        ds,
        (k, r, share),
        lambda: value.recommend_value(sweeps.judge, k=k, reject_value=r, fit_sweeps=sweeps.fit, max_reject=share),
    )
    st.subheader("What to ship")
    verdict = page_answers.value_recommendation_verdict(rec, k=k, worth=worth, unit=unit, volume=volume)
    show_verdict(verdict, "Why not the formula threshold?")
    show_metrics(answers.value_metrics(rec, worth=worth, unit=unit, volume=volume))
    if cap is not None and share is None:
        say("info", answers.VALUE_CAP_NO_VOLUME)
    elif rec.capacity is not None:
        say("info", answers.value_capacity_sentence(rec, cap=cap, volume=volume, worth=worth, unit=unit))
    model = rec.model
    if len(sweeps.judge) > 1:
        model = st.selectbox(  # a fixed width, not a column: one element fewer on every move
            "Curve of the model",
            list(sweeps.judge),
            index=list(sweeps.judge).index(rec.model),
            key="value_model",
            width=420,
            format_func=option_names(list(sweeps.judge)),
        )
    fig = answers.value_tau_figure(sweeps, rec, model, k=k, reject_value=r, worth=worth, unit=unit)
    show_chart(fig, key="value_tau_chart")
    st.session_state["_value_k"] = (k, r, worth)
    drawn = st.session_state.get("_value_k_drawn")  # what the sections below were drawn for, if drawn
    if not st.session_state.get("_value_full_run") and drawn is not None and drawn != (k, r, worth):
        c1, c2 = st.columns([3, 1], vertical_alignment="center")
        say("info", answers.value_lag_sentence(drawn[0], drawn[2], unit), where=c1)
        if c2.button("Update them for this k", key="value_refresh_below"):
            st.rerun(scope="app")


st.subheader("Your prices")
cap = value_inputs.capacity_inputs(*st.columns([1, 1, 2], vertical_alignment="bottom")[:2])
share = capacity_words.cap_share(cap, volume)
# A full run draws everything for the k of this run; a k move reruns only the fragment, which
# then sees that the sections below were drawn for another k.
st.session_state["_value_full_run"] = True
live_value()
st.session_state["_value_full_run"] = False

if not details_setting(answers.VALUE_DETAILS):
    st.session_state.pop("_value_k_drawn", None)  # nothing below to fall behind the k above
    st.stop()

k, r, worth = st.session_state.get("_value_k", (settings.K.default, 0.0, settings.GAIN.default))
st.subheader("Which model is worth more depends on k")
against_k = memo("value_k", ds, (r,), lambda: answers.value_against_k(sweeps, value_inputs.K_GRID, reject_value=r))
show_chart(answers.value_k_figure(against_k, k=k, worth=worth, unit=unit), key="value_k_chart")
st.session_state["_value_k_drawn"] = (k, r, worth)
say("caption", answers.value_k_caption(worth, unit))

if ds.counts_only:
    say("caption", answers.counts_only_value_sentence(ds.name))
    st.stop()

choice = answers.value_k(costs, cases, worth, None, value_inputs.K_MAX)  # the mean prices, for the tables below
with st.expander("Separate prices per outcome: a right positive worth more than a right negative"):
    say("caption", answers.per_outcome_sentence(choice, setting("gain", 1.0), unit))
    worth = answers.worth_unit(float(setting("gain", 1.0)))
    k_fp_default, k_fn_default = answers.outcome_prices(choice, worth)
    c = st.columns(3)
    k_tp = c[0].number_input("A true positive is worth (k_tp)", min_value=0.0, value=1.0, step=0.5, key="k_tp")
    k_fp = c[1].number_input("A false positive costs (k_fp)", min_value=0.0, value=k_fp_default, step=0.5, key="k_fp")
    k_fn = c[2].number_input("A false negative costs (k_fn)", min_value=0.0, value=k_fn_default, step=0.5, key="k_fn")
    cs = memo(
        "acceptance_rules",
        ds,
        (k_tp, k_fp, k_fn, worth),
        lambda: answers.acceptance_table(ds, k_tp=k_tp, k_fp=k_fp, k_fn=k_fn, worth=worth),
    )
    show_table(
        cs,
        "acceptance_rules",
        key="cs",
        column_config={
            "value per case": st.column_config.NumberColumn(f"worth per case ({unit or 'your unit'})", format="%.4f"),
            "handed over": st.column_config.NumberColumn(format="percent"),
        },
    )
    say("caption", answers.ACCEPTANCE_RULES_NOTE)

with st.expander("Models side by side at the cutoff 0.5 (no reject option)"):
    cls = memo(
        "classification",
        ds,
        (choice.c_fp, choice.c_fn),
        lambda: answers.classification_table(ds, c_fp=choice.c_fp, c_fn=choice.c_fn),
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
    st.caption(answers.CLASSIFICATION_NOTE)

st.subheader("Before and after calibration")
if answers.calibration_rows(ds):
    comp = memo(
        "value_calibration",
        ds,
        (k, r, worth),
        lambda: answers.value_calibration_table(
            memo("calibrated_sweeps", ds, (), lambda: answers.calibrated_sweeps(ds)),
            sweeps,
            k=k,
            reject_value=r,
            worth=worth,
        ),
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
    st.caption(answers.CALIBRATION_VALUE_NOTE)
    for m in ds.scores:
        advice = memo("calibration_advice", ds, (m,), lambda m=m: answers.calibration_advice_line(ds, m))
        if advice:
            say("caption", advice)
else:
    st.caption(answers.NO_VALIDATION_NOTE)
