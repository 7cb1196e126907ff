"""Costs & groups: which cutoff to ship, and what it saves against the best choice without a model."""

import contextlib

import streamlit as st

from costlib import answers
from costlib.binary import elicit
from costlib.core import settings
from costlib.core.escaping import option_names
from costlib.loading.samples import is_sample
from costlib.present import capacity_words, costs_labels
from costlib.present.costs_labels import COSTS_WORDS as WORDS
from costlib.present.labels import PAGE_COSTS as COSTS_TITLE
from views._ui.costs_sections import (
    fairness_section,
    reference_setting,
    resamples_setting,
    rules_section,
    sensitivity_section,
)
from views._ui.data import PRICES_PAGE, fallback_title, group_names, model_sweeps
from views._ui.details import details_on, details_setting
from views._ui.display import say, show_chart, show_metrics, show_verdict
from views._ui.limit import limit_inputs
from views._ui.memo import memo, memo_of
from views._ui.page import live, refit_handed, setup
from views._ui.policy import (
    LIVE_AUDIT,
    downloads,
    fair_policy_download,
    policy_uploader,
    session_audit,
    session_limit,
)
from views._ui.prices import price_book, stored_costs
from views._ui.state import mirror, remembered, setting, setting_notes

ds, unit, volume = setup(COSTS_TITLE, costs_labels.COSTS_PAGE_WHAT, needs="binary")
handed = refit_handed(ds)  # opened by Watch's refit on this data: its sentence on every run, its cutoff on the chart
if handed is not None:
    say("info", handed[1])
names = group_names(ds)
models = model_sweeps(ds)  # sorted once per data set and model; every price move reads these

remembered("fairness", len(names) > 1)
remembered("tolerance", settings.TOLERANCE.default)
mirror("fairness")  # in the link whether or not the fairness section is drawn: the report reads them
mirror("tolerance", float(setting("tolerance")))
remembered("resamples", settings.RESAMPLES.default)
resamples = int(setting("resamples"))
cap, share, covers_all = session_limit(volume)  # the review limit: cases a month, as a share (None: no limit)
reference = reference_setting(names)  # the disparities' reference group (None: the largest)
setting_notes()  # the settings above, from a link


def answer_at(costs: dict) -> answers.CostsAnswer:
    """The page's one answer at the price book `costs`, remembered by its settings."""
    return memo(
        "costs_answer",
        ds,
        (answers.prices_key(models, costs), resamples, share, unit, volume, reference),
        lambda: answers.costs_answer(
            models,
            costs,
            resamples=resamples,
            share=share,
            unit=unit,
            volume=volume,
            remember=memo_of(ds),
            group_parts=ds.group_parts,
            group_columns=ds.mapping.group_columns,
            reference=reference,
            sample=is_sample(ds.fingerprint),  # a built-in sample's models are not the reader's
        ),
    )


def audit_for(costs: dict):
    """The audit the downloads build at these prices (only when a button is pressed)."""
    return session_audit(models, costs, ds, unit=unit, volume=volume, cap=cap)


@live
def live_answer() -> None:
    """Prices in, one answer out: this part reruns alone when a price moves (what does not move
    with the prices is drawn around it: every element drawn here is redrawn on every move).

    The recommendation is made before the price inputs are drawn (the calls below take it from
    the memo): the browser then gets this part's elements at once when the server is done,
    instead of redrawing the inputs while the server computes, two jobs contending for a small
    machine's cores (at a million rows, 1.84x -> 1.67x the yardstick in one A/B run)."""
    held = stored_costs(names)  # what the inputs drawn next hold
    with contextlib.suppress(Exception):  # a failure is met again below, with the prices on screen
        if not answers.every_price_zero(held):
            answer_at(held)
    costs = price_book(names, unit)
    priced = not answers.every_price_zero(costs)
    if not st.session_state.get("_costs_full_run") and priced != bool(live_audit):
        # into or out of "every price is 0" on a price move: the report and policy buttons
        # below appear or go, which only a full run draws
        live_audit.clear()
        st.rerun(scope="app")
    if not priced:
        live_audit.clear()
        st.warning(costs_labels.ALL_PRICES_ZERO)
        return
    answer = answer_at(costs)
    rec = answer.rec
    live_audit.update(
        build=audit_for(costs), questions=elicit.in_force(setting("price_questions"), costs)
    )  # what the downloads below build when pressed: these prices, whichever run drew the buttons
    st.subheader(WORDS["what_to_ship"])
    show_verdict(answer.verdict, sample=fallback_title())
    sentence = answer.questions_sentence(record, costs)
    if sentence is not None:
        say("info", sentence)
    show_metrics(answer.metrics)
    if answer.capacity is not None:
        say("info", answer.capacity.sentence)

    shown_model = rec.model
    if len(models) > 1:
        # The chart draws the recommended model, and a model picked by hand while that model stays
        # recommended. A keyed selectbox keeps its state over its `index`: a price move that changed
        # the recommendation left the old model's curve under the new headline (review 74), so the
        # state is set to the recommendation whenever the one it last followed is not this one.
        follows = (ds.fingerprint, rec.model)
        if st.session_state.get("_curve_model_follows") != follows or st.session_state.get("curve_model") not in models:
            st.session_state["curve_model"] = rec.model
            st.session_state["_curve_model_follows"] = follows
        shown_model = st.selectbox(  # a fixed width, not a column: one element fewer on every move
            WORDS["curve_model"],
            list(models),
            key="curve_model",
            width=420,
            format_func=option_names(list(models)),
            help=WORDS["curve_model_help"],
        )
    by_flagged = st.toggle(capacity_words.X_AS_FLAGGED, key="cost_x_flagged", disabled=not volume)
    show_chart(
        answer.cost_chart(shown_model, by_flagged=bool(by_flagged), shipped=handed[0] if handed is not None else None),
        key="cost_chart",
    )
    if answer.capacity is not None:
        st.subheader(capacity_words.PRICE_TITLE)
        st.caption(capacity_words.PRICE_WHAT)
        show_chart(answer.capacity.figure, key="capacity_chart")
        say("markdown", answer.capacity.price_sentence)

    drawn_for = st.session_state.get("_costs_drawn_for")
    if drawn_for is not None and drawn_for != rec.prices.key():
        c1, c2 = st.columns([3, 1], vertical_alignment="center")
        say("info", costs_labels.SECTIONS_FOR_OLD_PRICES, where=c1)
        if c2.button(WORDS["update_below"], key="refresh_below"):
            st.rerun(scope="app")


head, restore = st.columns([4, 1], vertical_alignment="bottom")
head.subheader(WORDS["your_prices"])
policy_uploader(restore, names, ds.fingerprint)
limit_on, limit_at, _ = st.columns([1.3, 1.2, 1.5], vertical_alignment="bottom")
limit_inputs(
    limit_on,
    limit_at,
    name="review_limit",
    toggle=capacity_words.CAP_TOGGLE,
    number=capacity_words.CAP_LABEL,
    help=capacity_words.CAP_HELP,
)
if covers_all:
    say("info", capacity_words.covers_all(cap, volume))
elif cap is not None and share is None:
    say("info", capacity_words.CAP_NEEDS_VOLUME)

# A full run draws everything for the prices of this run; a price move reruns only the
# fragment, which then sees that the sections below were drawn for other prices.
costs = stored_costs(names)
if details_on():  # the sections below are drawn for this run's prices: a price move says when they are not
    st.session_state["_costs_drawn_for"] = answers.prices_key(models, costs)
else:
    st.session_state.pop("_costs_drawn_for", None)
record = setting("price_questions")
if not record:
    st.page_link(PRICES_PAGE, label=WORDS["ask_prices"], icon="❓")
live_audit = st.session_state.setdefault(LIVE_AUDIT, {})
st.session_state["_costs_full_run"] = True  # a price move reruns only live_answer, with this False
live_answer()
st.session_state["_costs_full_run"] = False
if live_audit:  # not when every price is zero (there is no answer to report)
    st.subheader(WORDS["report_and_policy"])
    st.caption(costs_labels.REPORT_AND_POLICY)
    downloads(live_audit)


# ---------------------------------------------------------------------------------------
# Slower sections: drawn on a full run, for the prices of that run

rec = answer_at(costs).rec
ms = models[rec.model]
for_prices = answers.price_caption(costs, unit)

if details_setting(answers.COSTS_DETAILS):
    rules_section(ds, rec, unit=unit, for_prices=for_prices, resamples=resamples)
    questions = elicit.in_force(setting("price_questions"), costs)
    fair_build = audit_for(costs)  # drawn while the fairness rules are on: their criteria
    fairness_section(
        ds,
        ms,
        rec,
        names,
        unit=unit,
        for_prices=for_prices,
        resamples=resamples,
        fair_policy=lambda rules: fair_policy_download(fair_build, rules, questions),
    )
    sensitivity_section(ds, models, ms, rec, costs, unit=unit)
resamples_setting(resamples)
