"""Find my prices: a few "which is worse?" questions that bracket the cost ratio, stopping as
soon as more precision would not change the cutoff to ship."""

import streamlit as st

from costlib import answers
from costlib.answers.prices import ANSWERED_FIELDS, settings_from_answers
from costlib.binary import elicit
from costlib.binary.elicit import ALARM, MISS, SAME
from costlib.core import settings
from costlib.core.escaping import label
from views._ui.data import COSTS_PAGE, group_names, model_sweeps
from views._ui.display import say, show_chart, show_table, show_verdict
from views._ui.page import setup
from views._ui.prices import stored_costs
from views._ui.state import adopt, setting

MULTIPLIERS = {0.25: "a quarter as bad", 0.5: "half as bad", 1.0: "as bad", 2.0: "twice as bad", 4.0: "4 times as bad"}

ds, unit, volume = setup(
    "Find my prices",
    "You may not know what a false alarm or a missed case costs, but you can say which of two outcomes is worse. "
    "A few such answers bracket the ratio between the two prices; the questions stop as soon as more precision "
    "would change neither the cutoff to ship nor the verdict (ship the model or not), or once the bracket is "
    "narrower than a factor of "
    f"{elicit.PRECISION:g} (then the answer says what a wrong guess inside it would cost).",
    needs="binary",
)
names = group_names(ds)
costs = stored_costs(names)

st.subheader("Name the two mistakes")
c1, c2, c3 = st.columns(3)
miss = c1.text_input(
    "A missed case is",
    value="a missed case",
    max_chars=60,
    key="name_miss",
    help="In your own words, for example “a missed fraud”.",
)
alarm = c2.text_input(
    "A false alarm is",
    value="a false alarm",
    max_chars=60,
    key="name_alarm",
    help="In your own words, for example “a blocked honest customer”.",
)
first_price = next(iter(costs.values()))[0] or 1.0
money = c3.number_input(
    f"One false alarm costs you ({unit or 'your unit'}), if you know",
    min_value=0.0,
    max_value=settings.PRICE_MAX,
    value=float(first_price),
    step=0.5,
    format="%g",
    key="alarm_price",
    help="Optional: sets the scale. Only the ratio moves the cutoff.",
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
)
bracket = st.session_state["_bracket"] = answer.bracket


def answered(n: float, choice: str) -> None:
    st.session_state["_bracket"] = elicit.answer(st.session_state["_bracket"], n, choice)


def go_back() -> None:
    st.session_state["_bracket"] = elicit.back(st.session_state["_bracket"])


def start_over() -> None:
    st.session_state["_bracket"] = elicit.Bracket(names=names_now)


st.subheader("Which is worse?" if bracket.settled is None else "Your answers")
if answer.question is not None:
    n, sentence, worse_miss, worse_alarm = answer.question
    say("markdown", sentence, bold=True)
    b1, b2, b3 = st.columns(3)
    b1.button(label(worse_miss, 80), key="ans_miss", on_click=answered, args=(n, MISS), width="stretch")
    b2.button("About the same", key="ans_same", on_click=answered, args=(n, SAME), width="stretch")
    b3.button(label(worse_alarm, 80), key="ans_alarm", on_click=answered, args=(n, ALARM), width="stretch")
nav1, nav2, _ = st.columns([1, 1, 4])
nav1.button("Go back", key="ans_back", on_click=go_back, disabled=not bracket.answers)
nav2.button("Start over", key="ans_restart", on_click=start_over, disabled=not bracket.answers)

show_verdict(answer.verdict)
show_chart(answer.figure, key="ratio_chart")
with st.expander("The cutoffs in play, by ratio"):
    show_table(answer.table, "cutoffs_by_ratio", key="pieces")

multipliers = {}
if len(names) > 1:
    with st.expander("Do misses cost differently in different groups?"):
        st.caption("One question per group; the false alarm keeps its price everywhere.")
        for i, g in enumerate(names):
            multipliers[g] = st.select_slider(
                answers.group_multiplier_label(names_now[0], g),
                options=list(MULTIPLIERS),
                value=1.0,
                key=f"mult_{i}",
                format_func=MULTIPLIERS.get,
            )


def use_prices() -> None:
    chosen = settings_from_answers(
        st.session_state["_bracket"], answer.sweep, money=money, unit=unit, names=names, multipliers=multipliers
    )
    adopt(chosen, ANSWERED_FIELDS)
    st.session_state["_go_costs"] = True


st.button(
    "Use these prices",
    type="primary",
    key="use_prices",
    on_click=use_prices,
    disabled=not bracket.answers,
    help="Sets a false alarm to the price above and a miss to the middle of the bracket, on every page.",
)
if st.session_state.pop("_go_costs", False):
    st.switch_page(COSTS_PAGE)
if setting("price_questions"):
    st.caption("Your current prices came from these questions; answering again replaces them.")
