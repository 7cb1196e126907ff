"""Costs & groups: which cutoff to ship, and what it saves against the best choice without a model."""

import streamlit as st

from costlib import answers
from costlib.answers import audit
from costlib.binary import decision, elicit, sensitivity
from costlib.binary.fairness import FAIRNESS_CRITERIA, fairness_results
from costlib.core import settings
from costlib.present import figures, tables, words
from views._ui.data import PRICES_PAGE, group_names, model_sweeps
from views._ui.display import say, show_table, show_verdict
from views._ui.memo import memo
from views._ui.page import setup
from views._ui.policy import downloads, policy_uploader
from views._ui.prices import price_book, price_caption, stored_costs
from views._ui.state import keep, mirror, remembered, setting, setting_notes

ds, unit, volume = setup(
    "Costs & groups",
    "Set what a false positive and a false negative cost. The page answers which cutoff to ship and what it "
    "saves against the cheaper choice without a model (flag nobody, or flag everyone), live as you move the prices.",
    needs="binary",
)
names = group_names(ds)
models = model_sweeps(ds)  # sorted once per data set and model; every price move reads these

remembered("fair", len(names) > 1, parse=lambda v: v.lower() == "true")
remembered("fair_tol", settings.TOLERANCE.default, bound=settings.TOLERANCE)
remembered("resamples", settings.RESAMPLES.default, parse=int, valid=lambda v: v in settings.RESAMPLE_OPTIONS)
resamples = int(setting("resamples"))
setting_notes()  # the settings above, from a link


def recommendation(costs: dict) -> decision.Recommendation:
    key = tuple(sorted((str(g), p) for g, p in costs.items()))
    return memo("recommend", ds, (key, resamples), lambda: decision.recommend(models, costs, n_resamples=resamples))


@st.fragment
def live_answer() -> None:
    """Prices in, one answer out: this part reruns alone when a price moves."""
    record = setting("price_questions")
    if not record:
        st.page_link(PRICES_PAGE, label="Not sure about your prices? Answer a few questions", icon=":material/help:")
    costs = price_book(names, unit)
    if all(a + b == 0 for a, b in costs.values()):
        st.warning("Every price is 0: no decision costs anything, so there is nothing to choose.")
        return
    rec = recommendation(costs)
    st.subheader("What to ship")
    show_verdict(words.recommendation_verdict(rec, unit=unit, volume=volume))
    sentence = answers.price_questions_sentence(models, rec, record, costs)
    if sentence is not None:
        say("info", sentence)
    metrics = answers.costs_metrics(rec, unit=unit, volume=volume)
    for slot, metric in zip(st.columns(len(metrics)), metrics, strict=True):
        slot.metric(**metric)

    shown_model = rec.model
    if len(models) > 1:
        shown_model = st.columns([1, 2])[0].selectbox(
            "Curve of the model",
            list(models),
            index=list(models).index(rec.model),
            key="curve_model",
            help="The recommendation compares every model; pick whose cost curve to draw.",
        )
    shown = (
        rec
        if shown_model == rec.model
        else memo(
            "recommend_one",
            ds,
            (shown_model, rec.prices.key(), resamples),
            lambda: decision.recommend({shown_model: models[shown_model]}, costs, n_resamples=resamples),
        )
    )
    curves = decision.cost_curves(models[shown_model], rec.prices, max_points=figures.MAX_POINTS)
    st.plotly_chart(
        figures.cost_curve_figure(
            curves,
            figures.markers_frame(shown),
            unit=unit,
            title=f"Cost per case against the cutoff, {shown_model} (test rows)",
        ),
        key="cost_chart",
    )

    st.subheader("Report and policy")
    st.caption(answers.REPORT_AND_POLICY)
    downloads(
        models,
        costs,
        ds,
        unit=unit,
        volume=volume,
        resamples=resamples,
        criteria=tuple(setting("fair_criteria", tuple(FAIRNESS_CRITERIA))) if setting("fair") else (),
        tolerance=float(setting("fair_tol", settings.TOLERANCE.default)),
        questions=elicit.in_force(setting("price_questions"), costs),
    )

    drawn_for = st.session_state.get("_costs_drawn_for")
    if drawn_for is not None and drawn_for != rec.prices.key():
        c1, c2 = st.columns([3, 1], vertical_alignment="center")
        say(
            "info",
            "The rules table, the fairness and the sensitivity sections below are still for the previous prices.",
            where=c1,
        )
        if c2.button("Update them for these prices", key="refresh_below"):
            st.rerun(scope="app")


head, restore = st.columns([4, 1], vertical_alignment="bottom")
head.subheader("Your prices")
policy_uploader(restore, names, ds.fingerprint)

# A full run draws everything for the prices of this run; a price move reruns only the
# fragment, which then sees that the sections below were drawn for other prices.
costs = stored_costs(names)
st.session_state["_costs_drawn_for"] = decision.prices_for(next(iter(models.values())).groups, costs).key()
live_answer()

# ---------------------------------------------------------------------------------------
# Slower sections: drawn on a full run, for the prices of that run

rec = recommendation(costs)
ms = models[rec.model]
for_prices = price_caption(costs, unit)

st.subheader("Every rule, all groups together")
say("caption", for_prices + " Judged on the test rows; the same intervals as above.")
table = memo("rules_view", ds, (rec.prices.key(), resamples, unit), lambda: tables.rules_overall_table(rec, unit))
show_table(table, "rules", key="rules", export=tables.rules_numbers(rec.results))
with st.expander("By group: each rule's cutoff, flagged share and cost"):
    show_table(
        tables.rules_by_group_table(rec.results, unit, lowest=rec.lowest),
        "rules_by_group",
        key="rules_by_group",
        export=tables.rules_numbers(rec.results, by_group=True),
    )
with st.expander("What the rules and the intervals mean"):
    for line in answers.rule_meanings(rec):
        st.markdown(line)
    st.markdown(answers.INTERVAL_MEANING)


st.subheader("Fairness-constrained cutoffs")
say(
    "caption",
    for_prices + " Each constrained rule is the cheapest set of per-group cutoffs on the train rows that "
    "keeps every group's rate within the tolerance of every other group's; its price is what it costs beyond the "
    "best cutoff per group.",
)
if len(names) < 2:
    st.caption("This data has one group: there is nothing to equalise. Map a group column on the Data page.")
else:
    f1, f2, _ = st.columns([1, 1, 2])
    fair_on = f1.toggle("Fairness rules", key="fair", on_change=keep, args=("fair",))
    tol = f2.number_input(
        "Tolerance (largest gap in the rate)",
        min_value=settings.TOLERANCE.low,
        max_value=settings.TOLERANCE.high,
        step=0.01,
        key="fair_tol",
        on_change=keep,
        args=("fair_tol",),
    )
    remembered("fair_criteria", tuple(FAIRNESS_CRITERIA), valid=lambda v: set(v) <= set(FAIRNESS_CRITERIA))
    criteria = st.multiselect(  # a row of its own: five criteria fit side by side
        "Criteria",
        list(FAIRNESS_CRITERIA),
        key="fair_criteria",
        on_change=keep,
        args=("fair_criteria",),
        help="What each rule makes equal across groups: "
        + "; ".join(f"{c}: the {rate}" for c, rate in FAIRNESS_CRITERIA.items())
        + ".",
    )
    mirror("fair")
    mirror("fair_tol", float(setting("fair_tol")))
    if fair_on and criteria:
        fairness = memo(
            "fairness",
            ds,
            (rec.model, rec.prices.key(), tuple(criteria), tol, resamples),
            lambda: fairness_results(ms, rec.prices, criteria=criteria, tolerance=tol, n_resamples=resamples),
        )
        summary, res = fairness.summary, fairness.results
        view = tables.fairness_overview_table(summary, res, unit, tolerance=tol, lowest=rec.lowest)
        show_table(view, "fairness", key="fairness", export=summary)
        with st.expander("Each fairness rule's cutoff in each group"):
            show_table(
                tables.fairness_cutoffs_table(summary, res, lowest=rec.lowest),
                "fairness_cutoffs",
                key="fairness_cutoffs",
            )
        st.caption(
            "The price of fairness is the extra cost per case over the best cutoff per group. Per-group "
            "cutoffs treat groups differently by design; these rules choose the differences that equalise one "
            "rate. Both are chosen on the train rows and judged on the test rows, so a gap can reopen there, "
            "and a negative price means the constrained rule happened to cost less on these test rows (by "
            "chance: on the train rows it costs at least as much). “Trivially equal”: flagging everyone (or nobody) "
            "in every group makes the rates equal without using the model."
        )

st.subheader("How much do the prices matter?")
mp = audit.mean_prices(ms, rec.prices)
maps = memo("maps", ds, (sensitivity.price_scale(*mp),), lambda: answers.price_maps(models, rec))
break_even = memo("break_even", ds, (rec.model,), lambda: elicit.break_even_range(ms.fit_pooled))
sens = memo(
    "sensitivity",
    ds,
    (mp, rec.model, unit, rec.prices.uniform),
    lambda: answers.sensitivity(models, rec, maps, unit=unit, break_even=break_even),
)
say("markdown", sens.sentence)
c1, c2 = st.columns(2)
record = elicit.in_force(setting("price_questions"), costs)
bracket = (record["ratio_low"], record["ratio_high"]) if record and record["in_force"] else None
c1.plotly_chart(sens.sensitivity_figure(unit, bracket), key="sensitivity_chart")
net_benefit = sens.net_benefit_figure()
if net_benefit is not None:
    c2.plotly_chart(net_benefit, key="net_benefit_chart")
else:
    c2.caption(answers.NET_BENEFIT_NEEDS_PROBABILITIES)

with st.expander("Interval settings"):
    st.select_slider(
        "Bootstrap resamples for the 95% intervals (test rows, resampled within each group)",
        options=list(settings.RESAMPLE_OPTIONS),
        key="resamples",
        on_change=keep,
        args=("resamples",),
    )
    mirror("resamples", resamples)
