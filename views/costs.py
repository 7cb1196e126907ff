"""Costs & groups: which cutoff to ship, and what it saves against the best choice without a model."""

import numpy as np
import streamlit as st

from costlib.binary import decision, elicit
from costlib.binary.audit import FAIRNESS_CRITERIA
from costlib.core import rules as R
from costlib.core import settings
from costlib.core.errors import DataError
from costlib.present import figures, policy, report, words
from views._ui.data import PRICES_PAGE, group_names, model_sweeps
from views._ui.display import say, show_table, show_verdict
from views._ui.memo import memo
from views._ui.page import setup
from views._ui.prices import price_book, price_caption, stored_costs
from views._ui.state import keep, remembered, set_setting, setting, setting_notes

ds, unit, volume = setup(
    "Costs & groups",
    "Set what a false positive and a false negative cost. The page answers which cutoff to ship and what it "
    "saves against the cheaper choice without a model (flag nobody, or flag everyone), live as you move the prices.",
    needs="binary",
)
names = group_names(ds)
models = model_sweeps(ds)  # sorted once per data set and model; every price move reads these

RESAMPLE_OPTIONS = [200, 500, 1000, 2000, 5000]
remembered("fair", len(names) > 1, parse=lambda v: v.lower() == "true")
remembered("fair_tol", 0.05, bound=settings.TOLERANCE)
remembered("resamples", 1000, parse=int, valid=lambda v: v in RESAMPLE_OPTIONS)
resamples = int(setting("resamples"))
setting_notes()  # the settings above, from a link


def restore_policy() -> None:
    """Put a downloaded policy's prices, unit and volume back into the price book."""
    upload = st.session_state.get("policy_upload")
    if upload is None:
        return
    try:
        saved = policy.load_policy(upload.getvalue())
        plan = policy.prices_for(saved, names)
    except DataError as err:
        st.session_state["_policy_message"] = ("error", err.message)
        return
    for key, value in plan.items():
        set_setting(key, value)
    set_setting("unit", saved["unit"])
    # the questions behind the saved prices, if any (whether they still set the prices is
    # worked out wherever they are shown: elicit.in_force)
    questions = saved.get("price_questions")
    set_setting(
        "price_questions",
        {k: v for k, v in questions.items() if k not in ("in_force", "ratio_now")} if questions else None,
    )
    if saved.get("volume") is not None:
        set_setting("volume", int(saved["volume"]))
    same = saved["data"].get("sha256") == ds.fingerprint
    st.session_state["_policy_message"] = (
        "success",
        f"Restored the prices of the policy (rule “{R.rule_words(saved['rule'])}”)."
        + (
            ""
            if same
            else " The policy was made on other data (its fingerprint differs), so the cutoffs shown are "
            "refitted on this data."
        )
        + "".join(" " + n for n in saved["notes"]),
    )


def recommendation(costs: dict) -> decision.Recommendation:
    key = tuple(sorted((str(g), p) for g, p in costs.items()))
    return memo("recommend", ds, (key, resamples), lambda: decision.recommend(models, costs, n_resamples=resamples))


def audit_maker(costs: dict):
    """A function that builds the full audit (fairness rules, maps, intervals) at these prices,
    for the downloads. Everything it needs is read now, in the script: Streamlit runs a
    download's callable outside the script, where the session's state cannot be read."""
    criteria = tuple(setting("fair_criteria", tuple(FAIRNESS_CRITERIA))) if setting("fair") else ()
    tolerance, questions = float(setting("fair_tol", 0.05)), elicit.in_force(setting("price_questions"), costs)
    frozen = dict(costs)

    def build() -> report.Audit:
        return report.build_audit(
            models,
            frozen,
            unit=unit,
            volume=volume,
            fairness_tolerance=tolerance,
            criteria=criteria,
            n_resamples=resamples,
            data_name=ds.name,
            fingerprint=ds.fingerprint,
            n_rows=ds.n_rows,
            data_notes=ds.notes,
            price_questions=questions,
        )

    return build, questions


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
    if record and elicit.in_force(record, costs)["in_force"]:
        fitted = models[rec.model].fit_pooled
        span = elicit.pieces(fitted, record["ratio_low"], record["ratio_high"])
        lowest = float(fitted.thresholds[-1]) if fitted.thresholds.size > 1 else None
        say("info", words.answers_sentence(record, span, lowest_score=lowest))
    base = R.rule_words(rec.baseline)
    flagged = rec.results.overall.loc[rec.rule, "flagged_rate"]
    m = st.columns(4)
    m[0].metric(
        "Cost per case", words.money(rec.cost, unit), help="On the judged (test) rows, with the recommended cutoff."
    )
    m[1].metric(
        "Best without the model",
        words.money(rec.baseline_cost, unit),
        help=f"Per case, {base}: the cheaper of flagging nobody and flagging everyone.",
    )
    m[2].metric(
        "Saving per case", words.money(rec.saving, unit), help=f"Against {base}, the cheaper choice without a model."
    )
    m[3].metric(
        "Saving a month",
        words.money(rec.saving * volume, unit) if volume else "set a volume",
        help=f"Saving per case times {volume:,.0f} cases a month (set in the sidebar). The recommended "
        f"cutoff flags {flagged:.1%} of cases.",
    )

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
    st.caption(
        "The report is one HTML file that opens offline: settings, data per group, the recommendation, every "
        "rule with intervals, fairness-constrained cutoffs, the sensitivity map and the limitations. The "
        "policy is a JSON file with the prices, what to ship (the recommended cutoffs, or the choice without a "
        "model when the answer says the model should not decide) and the data fingerprint, for the system that "
        "applies the decisions."
    )
    build, questions = audit_maker(costs)
    r1, r2 = st.columns(2)
    r1.download_button(
        "Download the audit report (HTML)",
        data=lambda: report.audit_html(build()).encode(),
        file_name="cost_audit.html",
        mime="text/html",
        key="dl_report",
        on_click="ignore",
    )
    r2.download_button(
        "Download the policy (JSON)",
        data=lambda: policy.policy_json(build(), price_questions=questions).encode(),
        file_name="cost_policy.json",
        mime="application/json",
        key="dl_policy",
        on_click="ignore",
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
with restore.popover("Restore a saved policy", width="stretch"):
    st.file_uploader(
        "Policy file (JSON) downloaded from this page", type=["json"], key="policy_upload", on_change=restore_policy
    )
if "_policy_message" in st.session_state:
    kind, message = st.session_state.pop("_policy_message")
    say(kind, message)

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
table = memo("rules_view", ds, (rec.prices.key(), resamples, unit), lambda: report.rules_overall_table(rec, unit))
show_table(table, "rules", key="rules", export=report.rules_numbers(rec.results))
with st.expander("By group: each rule's cutoff, flagged share and cost"):
    show_table(
        report.rules_by_group_table(rec.results, unit, lowest=rec.lowest),
        "rules_by_group",
        key="rules_by_group",
        export=report.rules_numbers(rec.results, by_group=True),
    )
with st.expander("What the rules and the intervals mean"):
    for rule in rec.results.overall.index:
        if not R.is_fair(rule):
            st.markdown(f"**{words.md_escape(R.rule_words(rule))}**: {words.md_escape(R.rule_help(rule))}")
    st.markdown(
        "**95% interval**: the range the cost (or saving) would fall in for 95 of 100 new samples like "
        "the test rows (bootstrap: the test rows resampled with replacement within each group). A saving "
        "whose interval includes zero could be chance."
    )


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
        min_value=0.0,
        max_value=0.5,
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
    for key in ("fair", "fair_tol"):
        st.query_params[key] = str(setting(key)).lower() if key == "fair" else f"{setting(key):g}"
    if fair_on and criteria:
        fair, fits = memo(
            "fair",
            ds,
            (rec.model, rec.prices.key(), tuple(criteria), tol),
            lambda: report.fairness_rules(ms, rec.prices, criteria=criteria, tolerance=tol),
        )
        cutoffs = decision.rule_cutoffs(ms, rec.prices)
        res = memo(
            "fair_results",
            ds,
            (rec.model, rec.prices.key(), tuple(criteria), tol, resamples),
            lambda: decision.evaluate_rules(
                ms,
                rec.prices,
                {
                    R.COST_OPTIMAL: cutoffs[R.COST_OPTIMAL],
                    R.NOBODY: cutoffs[R.NOBODY],
                    R.EVERYONE: cutoffs[R.EVERYONE],
                    **{r: np.array([c.get(g, np.nan) for g in ms.groups]) for r, c in fair.items()},
                },
                n_resamples=resamples,
            ),
        )
        long, summary = report.fairness_tables(ms, rec.prices, fits, res, tol)
        view = report.fairness_overview_table(summary, res, unit, tolerance=tol, lowest=rec.lowest)
        show_table(view, "fairness", key="fairness", export=summary)
        with st.expander("Each fairness rule's cutoff in each group"):
            show_table(
                report.fairness_cutoffs_table(summary, res, lowest=rec.lowest),
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
mp = report.mean_prices(ms, rec.prices)
maps = memo("maps", ds, (report.price_scale(*mp),), lambda: report.price_maps(models, scale=report.price_scale(*mp)))
leader = memo("ratio_range", ds, mp, lambda: report._audit.ratio_range(maps.train, maps.test, c_fp=mp[0], c_fn=mp[1]))
break_even = memo("break_even", ds, (rec.model,), lambda: elicit.break_even_range(ms.fit_pooled))
say(
    "markdown",
    report.sensitivity_sentence(
        leader, mp, unit, blended=not rec.prices.uniform, break_even=break_even, model=rec.model
    ),
)
c1, c2 = st.columns(2)
record = elicit.in_force(setting("price_questions"), costs)
c1.plotly_chart(
    figures.sensitivity_figure(
        maps.sensitivity,
        c_fp=mp[0],
        c_fn=mp[1],
        unit=unit,
        bracket=(record["ratio_low"], record["ratio_high"]) if record and record["in_force"] else None,
    ),
    key="sensitivity_chart",
)
if len(maps.net_benefit):
    c2.plotly_chart(
        figures.net_benefit_figure(maps.net_benefit, price_threshold=mp[0] / (mp[0] + mp[1]) if sum(mp) > 0 else None),
        key="net_benefit_chart",
    )
else:
    c2.caption("Net benefit reads a score as a probability; these scores are not probabilities.")

with st.expander("Interval settings"):
    st.select_slider(
        "Bootstrap resamples for the 95% intervals (test rows, resampled within each group)",
        options=RESAMPLE_OPTIONS,
        key="resamples",
        on_change=keep,
        args=("resamples",),
    )
    st.query_params["resamples"] = str(resamples)
