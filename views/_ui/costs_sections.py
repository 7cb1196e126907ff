"""The slower sections of Costs & groups, drawn on a full run for the prices of that run: every
rule's table, the fairness-constrained cutoffs, how much the prices matter, the interval setting."""

from __future__ import annotations

import streamlit as st

from costlib import answers
from costlib.answers import audit
from costlib.answers.costs import chosen_reference, disparities_view, fair_policies_offered, questions_bracket
from costlib.binary import elicit, sensitivity
from costlib.binary.fair_judged import holding_note
from costlib.binary.fair_search import FAIRNESS_CRITERIA
from costlib.binary.fairness import cross_fitted_drift, fairness_results
from costlib.binary.folds import MIN_CLASS_ROWS
from costlib.core import settings
from costlib.core.escaping import option_names
from costlib.present import capacity_words, costs_labels, tables
from costlib.present.costs_labels import COSTS_WORDS as WORDS
from costlib.present.costs_labels import DISPARITIES_TITLE, LARGEST_GROUP, REFERENCE_LABEL
from costlib.present.disparity_table import DISPARITY_COLUMNS
from views._ui.display import say, show_chart, show_table
from views._ui.memo import memo
from views._ui.state import ensure_setting, keep, mirror, remembered, seed, set_setting, setting, widget_key


def rules_section(ds, rec, *, unit: str, for_prices: str, resamples: int) -> None:
    """Every rule, all groups together and by group, and what the rules and intervals mean."""
    st.subheader(WORDS["every_rule"])
    say("caption", for_prices + costs_labels.rules_judged(rec))
    table = memo(
        "rules_view",
        ds,
        (rec.prices.key(), resamples, unit, rec.capacity),
        lambda: tables.rules_overall_table(rec, unit),
    )
    show_table(
        table,
        "rules",
        key="rules",
        column_config=tables.rules_overall_columns(rec.results),
        export=tables.rules_numbers(rec.results),
    )
    with st.expander(WORDS["rules_by_group"]):
        show_table(
            tables.rules_by_group_table(rec.results, unit, lowest=rec.lowest),
            "rules_by_group",
            key="rules_by_group",
            export=tables.rules_numbers(rec.results, by_group=True),
        )
    advice = memo("calibration_advice", ds, (rec.model,), lambda: answers.calibration_advice_line(ds, rec.model))
    if advice:
        say("caption", advice)
    with st.expander(WORDS["rules_meaning"]):
        for line in answers.rule_meanings(rec):
            st.markdown(line)
        st.markdown(costs_labels.INTERVAL_MEANING)


LARGEST = ""  # the picker's option for "the largest group" (no group is named "": a blank cell is "(missing)")


def _pick_reference() -> None:
    """The reference picker's on_change: its choice becomes the setting (None: the largest group)."""
    set_setting("reference_group", st.session_state["disparity_reference_pick"] or None)


def reference_setting(names: list):
    """The group every other is compared with in the disparities (None: the largest), remembered
    across pages and read from the link once (a name that is not a group of this data is refused
    with the page's sentence); read before the answer, which names a disparity against it."""
    ensure_setting("reference_group", None, valid=lambda v: v is None or v in names, default_words=LARGEST_GROUP)
    return chosen_reference(setting("reference_group"), names)


def reference_picker(names: list):
    """The picker of `reference_setting`, kept in the link."""
    chosen = reference_setting(names)
    seed("disparity_reference_pick", LARGEST if chosen is None else chosen)
    shown = option_names(names)
    st.selectbox(
        REFERENCE_LABEL,
        [LARGEST, *names],
        key="disparity_reference_pick",
        on_change=_pick_reference,
        format_func=lambda g: LARGEST_GROUP if g == LARGEST else shown(g),
        width=420,
    )
    mirror("reference_group")
    return reference_setting(names)


def fairness_section(ds, ms, rec, names: list, *, unit: str, for_prices: str, resamples: int, fair_policy) -> None:
    """Per-group rates of what is recommended, then the fairness-constrained cutoffs
    (`fairness_results`, the set the report reads too); `fair_policy(rule)` offers the policy
    file of one fairness rule."""
    if len(names) >= 2:
        st.subheader(WORDS["group_rates"])
        say("caption", for_prices + " " + costs_labels.GROUP_RATES_WHAT)
        shown, numbers = memo(
            "group_rates",
            ds,
            (rec.model, rec.prices.key(), resamples, rec.capacity),
            lambda: answers.group_rates_view(ms, rec),
        )
        columns = tables.group_rates_columns(MIN_CLASS_ROWS)
        show_table(shown, "group_rates", key="group_rates", column_config=columns, export=numbers)
        st.subheader(DISPARITIES_TITLE)
        reference = reference_picker(names)
        view = memo(
            "disparities",
            ds,
            (rec.model, rec.prices.key(), resamples, rec.capacity, unit, reference),
            lambda: disparities_view(
                ms,
                rec,
                unit=unit,
                reference=reference,
                group_parts=ds.group_parts,
                group_columns=ds.mapping.group_columns,
            ),
        )
        say("caption", for_prices + " " + view.caption)
        show_table(view.table, "disparities", key="disparities", column_config=DISPARITY_COLUMNS, export=view.numbers)
        if view.sentence:
            say("warning", view.sentence)
        for i, (caption, table, numbers) in enumerate(view.by_column):
            say("caption", caption)
            show_table(
                table, "disparities", key=f"disparities_column_{i}", column_config=DISPARITY_COLUMNS, export=numbers
            )
    st.subheader(WORDS["fair_cutoffs"])
    limit_note = capacity_words.FAIR_WITHOUT_LIMIT if rec.capacity is not None else ""
    say("caption", for_prices + costs_labels.FAIRNESS_WHAT + answers.pooled_note(rec) + limit_note)
    if len(names) < 2:
        st.caption(costs_labels.FAIRNESS_ONE_GROUP)
        return
    f1, f2, _ = st.columns([1, 1, 2])
    fair_on = f1.toggle(WORDS["fairness_toggle"], key=widget_key("fairness"), on_change=keep, args=("fairness",))
    tol = f2.number_input(
        WORDS["tolerance"],
        min_value=settings.TOLERANCE.low,
        max_value=settings.TOLERANCE.high,
        step=0.01,
        key=widget_key("tolerance"),
        on_change=keep,
        args=("tolerance",),
    )
    criteria_key = remembered("criteria", tuple(FAIRNESS_CRITERIA), valid=lambda v: set(v) <= set(FAIRNESS_CRITERIA))
    criteria = st.multiselect(  # a row of its own: five criteria fit side by side
        WORDS["criteria"],
        list(FAIRNESS_CRITERIA),
        key=criteria_key,
        on_change=keep,
        args=("criteria",),
        help=answers.criteria_help(FAIRNESS_CRITERIA),
    )
    if not (fair_on and criteria):
        return
    fairness = memo(
        "fairness",
        ds,
        (rec.model, rec.prices.key(), tuple(criteria), tol, resamples, rec.capacity),
        lambda: fairness_results(
            ms, rec.prices, criteria=criteria, tolerance=tol, n_resamples=resamples, capacity=rec.capacity
        ),
    )
    summary, res = fairness.summary, fairness.results
    view = tables.fairness_overview_table(summary, res, unit, tolerance=tol, lowest=rec.lowest, capacity=rec.capacity)
    show_table(view, "fairness", key="fairness", column_config=tables.fairness_overview_columns(tol), export=summary)
    for note in tables.fair_cross_fitted_notes(*cross_fitted_drift(ms, fairness.judged)):  # as the report's Notes
        say("caption", note)
    with st.expander(WORDS["fair_by_group"]):
        show_table(
            tables.fairness_cutoffs_table(summary, res, lowest=rec.lowest), "fairness_cutoffs", key="fairness_cutoffs"
        )
    holding = holding_note(summary)
    if holding:
        say("warning", holding)
    st.caption(costs_labels.FAIRNESS_PRICE)
    feasible = fair_policies_offered(summary, res, rec.capacity)
    if feasible:
        fair_policy(feasible)


def sensitivity_section(ds, models, ms, rec, costs: dict, *, unit: str) -> None:
    """How much the prices matter: the sentence, the sensitivity map and net benefit."""
    st.subheader(WORDS["prices_matter"])
    if rec.capacity is not None:
        st.caption(capacity_words.WITHOUT_LIMIT_NOTE)
    mp = audit.mean_prices(ms, rec.prices)
    maps = memo("maps", ds, (sensitivity.price_scale(*mp),), lambda: answers.price_maps(models, rec))
    break_even = memo("break_even", ds, (rec.model,), lambda: elicit.break_even_range(ms.fit_pooled))
    sens = memo(
        "sensitivity",
        ds,
        answers.sensitivity_key(models, rec, unit=unit),
        lambda: answers.sensitivity(models, rec, maps, unit=unit, break_even=break_even),
    )
    say("markdown", sens.sentence)
    c1, c2 = st.columns(2)
    bracket = questions_bracket(setting("price_questions"), costs)
    show_chart(sens.sensitivity_figure(unit, bracket), key="sensitivity_chart", where=c1, words_where=st)
    net_benefit = sens.net_benefit_figure(rec)  # the shipped cutoffs marked: this run's, not the memo's
    if net_benefit is not None:
        show_chart(net_benefit, key="net_benefit_chart", where=c2, words_where=st)
    else:
        c2.caption(costs_labels.NET_BENEFIT_NEEDS_PROBABILITIES)


def resamples_setting(resamples: int) -> None:
    """The bootstrap's resample count, folded away."""
    with st.expander(WORDS["interval_settings"]):
        st.select_slider(
            WORDS["resamples"],
            options=list(settings.RESAMPLE_OPTIONS),
            key=widget_key("resamples"),
            on_change=keep,
            args=("resamples",),
        )
        mirror("resamples", resamples)
