"""Find my prices: a few "which is worse?" questions that bracket the cost ratio, stopping as
soon as more precision would not change the cutoff to ship."""

import streamlit as st

from costlib import answers
from costlib.answers.prices import ANSWERED_FIELDS, settings_from_answers
from costlib.binary import elicit
from costlib.binary.elicit import ALARM, MISS, SAME
from costlib.core import settings
from costlib.core.escaping import distinct_labels, label
from costlib.loading.samples import is_sample
from costlib.present import labels as t
from views._ui.data import COSTS_PAGE, fallback_title, group_names, model_sweeps
from views._ui.display import say, show_chart, show_table, show_verdict
from views._ui.page import setup
from views._ui.prices import stored_costs
from views._ui.state import adopt, setting

ds, unit, volume = setup(t.PAGE_PRICES, t.PRICES_WHAT, needs="binary")
names = group_names(ds)
costs = stored_costs(names)

st.subheader(t.NAME_MISTAKES)
c1, c2, c3 = st.columns(3)
miss = c1.text_input(
    t.MISS_LABEL,
    value=t.MISS_NAME,
    max_chars=60,
    key="name_miss",
    help=t.MISS_HELP,
)
alarm = c2.text_input(
    t.ALARM_LABEL,
    value=t.ALARM_NAME,
    max_chars=60,
    key="name_alarm",
    help=t.ALARM_HELP,
)
first_price = next(iter(costs.values()))[0] or 1.0
money = c3.number_input(
    t.alarm_price_label(unit),
    min_value=0.0,
    max_value=settings.PRICE_MAX,
    value=float(first_price),
    step=0.5,
    format="%g",
    key="alarm_price",
    help=t.ALARM_PRICE_HELP,
)
names_now = answers.mistake_names(miss, alarm)

answer = answers.prices_answer(
    model_sweeps(ds),
    costs,
    st.session_state.get("_bracket") or elicit.Bracket(names=names_now),
    names=names_now,
    resamples=int(setting("resamples", settings.RESAMPLES.default)),
    money=money,
    unit=unit,
    volume=volume,
    sample=is_sample(ds.fingerprint),  # a built-in sample's models are not the reader's
)
bracket = st.session_state["_bracket"] = answer.bracket


def answered(n: float, choice: str) -> None:
    st.session_state["_bracket"] = elicit.answer(st.session_state["_bracket"], n, choice)


def go_back() -> None:
    st.session_state["_bracket"] = elicit.back(st.session_state["_bracket"])


def start_over() -> None:
    st.session_state["_bracket"] = elicit.Bracket(names=names_now)


if bracket.settled is None:
    st.subheader(t.WHICH_WORSE)
elif answer.said:  # settled before any answer: no heading over an empty list
    st.subheader(t.YOUR_ANSWERS)
    say("markdown", "\n\n".join(answer.said))
if answer.question is not None:
    n, sentence, worse_miss, worse_alarm = answer.question
    say("markdown", sentence, bold=True)
    b1, b2, b3 = st.columns(3)
    b1.button(label(worse_miss, 80), key="ans_miss", on_click=answered, args=(n, MISS), width="stretch")
    b2.button(t.ABOUT_SAME, key="ans_same", on_click=answered, args=(n, SAME), width="stretch")
    b3.button(label(worse_alarm, 80), key="ans_alarm", on_click=answered, args=(n, ALARM), width="stretch")
nav1, nav2, _ = st.columns([1, 1, 4])
nav1.button(t.GO_BACK, key="ans_back", on_click=go_back, disabled=not bracket.answers)
nav2.button(t.START_OVER, key="ans_restart", on_click=start_over, disabled=not bracket.answers)

show_verdict(answer.verdict, sample=fallback_title())
show_chart(answer.figure, key="ratio_chart")
with st.expander(t.CUTOFFS_IN_PLAY):
    show_table(answer.table, "cutoffs_by_ratio", key="pieces")

multipliers = {}
if len(names) > 1:
    with st.expander(t.GROUPS_DIFFER):
        st.caption(t.GROUPS_DIFFER_WHAT)
        shown = distinct_labels(names)  # two groups never read alike ("$x$" and "*x*"), as the price sliders
        for i, g in enumerate(names):
            multipliers[g] = st.select_slider(
                t.group_multiplier_label(names_now[0], shown[i]),
                options=list(t.MULTIPLIERS),
                value=1.0,
                key=f"mult_{i}",
                format_func=t.MULTIPLIERS.get,
            )


def use_prices() -> None:
    chosen = settings_from_answers(
        st.session_state["_bracket"], answer.sweep, money=money, unit=unit, names=names, multipliers=multipliers
    )
    adopt(chosen, ANSWERED_FIELDS)
    st.session_state["_go_costs"] = True


st.button(
    t.USE_PRICES,
    type="primary",
    key="use_prices",
    on_click=use_prices,
    disabled=not bracket.answers,
    help=t.USE_PRICES_HELP,
)
if st.session_state.pop("_go_costs", False):
    st.switch_page(COSTS_PAGE)
if setting("price_questions"):
    st.caption(t.PRICES_FROM_QUESTIONS)
