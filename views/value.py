"""Value: what the model is worth when it may hand cases to a person."""

import streamlit as st

from costlib import answers
from costlib.core import settings
from costlib.core.escaping import option_names
from costlib.present import labels as t
from views._ui import value_inputs
from views._ui.data import fallback_title, group_names
from views._ui.details import details_setting
from views._ui.display import say, show_chart, show_metrics, show_table, show_verdict
from views._ui.memo import memo, memo_of
from views._ui.page import live, setup
from views._ui.prices import stored_costs

ds, unit, volume = setup(t.PAGE_VALUE, t.VALUE_WHAT, needs="value")
names = group_names(ds)
costs = stored_costs(names)


def answer_at(worth: float, reject_worth: float, moved_k: float | None) -> answers.ValueAnswer:
    """The page's one answer at these settings, remembered by them (its sweeps and its
    recommendation through `remember`: a unit or a volume never sorts the rows again)."""
    return memo(
        "value_answer",
        ds,
        (tuple(names), tuple(costs.items()), worth, reject_worth, moved_k, cap, unit, volume),
        lambda: answers.value_answer(
            ds,
            costs,
            names=names,
            worth=worth,
            reject_worth=reject_worth,
            moved_k=moved_k,
            cap=cap,
            unit=unit,
            volume=volume,
            remember=memo_of(ds),
        ),
    )


@live
def live_value() -> None:
    """The worth of a right answer and k in, one answer out: reruns alone when they move (what
    does not move with them is drawn around it: every element drawn here is redrawn on every move)."""
    c1, c2, c3 = st.columns([1, 1, 2])
    worth, reject_worth = value_inputs.worth_inputs(c1, c2, unit)
    moved_k = value_inputs.k_setting()
    answer = answer_at(worth, reject_worth, moved_k)
    value_inputs.k_slider(c3, answer.choice)
    say("caption", answer.k_sentence)
    st.subheader(t.WHAT_TO_SHIP)
    show_verdict(answer.verdict, answer.verdict_more, sample=fallback_title())
    show_metrics(answer.metrics)
    if answer.limit_note is not None:
        say("info", answer.limit_note)
    model = answer.rec.model
    if len(answer.models) > 1:
        model = st.selectbox(  # a fixed width, not a column: one element fewer on every move
            t.CURVE_OF_MODEL,
            answer.models,
            index=answer.models.index(answer.rec.model),
            key="value_model",
            width=420,
            format_func=option_names(answer.models),
        )
    show_chart(answer.tau_figure(model), key="value_tau_chart")
    if answer.apart:  # the answer prices each mistake on its own: the chart at k, below and folded
        with st.expander(t.ONE_PRICE_CHART):
            show_chart(answer.one_price_figure(model), key="value_one_price_chart")
    st.session_state["_value_at"] = (worth, reject_worth, moved_k)
    # what the sections below were drawn for, if drawn
    lag = answer.lag_sentence(st.session_state.get("_value_k_drawn"))
    if not st.session_state.get("_value_full_run") and lag is not None:
        c1, c2 = st.columns([3, 1], vertical_alignment="center")
        say("info", lag, where=c1)
        if c2.button(t.UPDATE_FOR_K, key="value_refresh_below"):
            st.rerun(scope="app")


st.subheader(t.YOUR_PRICES)
cap = value_inputs.capacity_inputs(*st.columns([1, 1, 2], vertical_alignment="bottom")[:2])
# A full run draws everything for the k of this run; a k move reruns only the fragment, which
# then sees that the sections below were drawn for another k.
st.session_state["_value_full_run"] = True
live_value()
st.session_state["_value_full_run"] = False

if not details_setting(answers.VALUE_DETAILS):
    st.session_state.pop("_value_k_drawn", None)  # nothing below to fall behind the k above
    st.stop()

answer = answer_at(*st.session_state.get("_value_at", (settings.GAIN.default, settings.REJECT_WORTH.default, None)))
st.subheader(t.K_DEPENDS)
show_chart(answer.k_figure(), key="value_k_chart")
st.session_state["_value_k_drawn"] = answer.drawn_for
say("caption", answer.k_caption)

if answer.counts_only_note is not None:
    say("caption", answer.counts_only_note)
    st.stop()

labels = answer.labels
with st.expander(t.PER_OUTCOME):
    say("caption", answer.per_outcome_sentence)
    k_fp_default, k_fn_default = answer.outcome_defaults
    c = st.columns(3)
    k_tp = c[0].number_input(t.K_TP, min_value=0.0, value=1.0, step=0.5, key="k_tp")
    k_fp = c[1].number_input(t.K_FP, min_value=0.0, value=k_fp_default, step=0.5, key="k_fp")
    k_fn = c[2].number_input(t.K_FN, min_value=0.0, value=k_fn_default, step=0.5, key="k_fn")
    show_table(
        answer.acceptance_table(k_tp=k_tp, k_fp=k_fp, k_fn=k_fn),
        "acceptance_rules",
        key="cs",
        column_config={
            **{c: st.column_config.NumberColumn(label, format="%.4f") for c, label in labels["acceptance"].items()},
            answer.handed_over_column: st.column_config.NumberColumn(format="percent"),
        },
    )
    say("caption", answer.acceptance_note)

with st.expander(t.SIDE_BY_SIDE):
    show_table(
        answer.classification_table(),
        "models",
        key="models",
        column_config={
            c: st.column_config.NumberColumn(label, format="%.4f") for c, label in labels["classification"].items()
        },
    )
    st.caption(answer.classification_note)

st.subheader(t.BEFORE_AFTER_CALIBRATION)
if answer.calibrates:
    show_table(
        answer.calibration_table(),
        "calibration_value",
        key="cal",
        column_config={
            c: st.column_config.NumberColumn(label, format="%.4f") for c, label in labels["calibration"].items()
        },
    )
    st.caption(answer.calibration_note)
    for advice in answer.calibration_advice():
        say("caption", advice)
else:
    st.caption(answer.no_validation_note)
