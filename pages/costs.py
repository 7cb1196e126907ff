"""Costs & groups: what each cutoff rule costs per group, and whether to use the model."""

import numpy as np
import pandas as pd
import streamlit as st

import costlib
from costlib import words
from costlib.audit import FAIRNESS_CRITERIA
from costlib.costs import ALL_GROUPS
from costlib.errors import DataError
from costlib.report import audit_html, build_audit, load_policy, policy_json, sensitivity_sentence
from pages._common import (
    current_dataset,
    groups_of,
    memo,
    model_picker,
    page_header,
    rows,
    say,
    set_setting,
    show_table,
    split_note,
    unit_and_volume,
)

page_header(
    "Costs & groups",
    "Price a false positive and a false negative (per group if they differ) and compare the cutoff "
    "rules: threshold 0.5, Elkan's c_fp/(c_fp+c_fn), the cost-optimal cutoff fitted on train and "
    "judged on test, and flagging nobody.",
)
ds = current_dataset(needs="binary")
if ds is None:
    st.stop()
unit, volume = unit_and_volume("costs")
model = model_picker(ds)
groups = groups_of(ds)
names = [str(g) for g in pd.unique(groups)]
names.sort()

def restore_policy() -> None:
    """Put a downloaded policy's prices, unit, volume and rule back into the widgets."""
    upload = st.session_state.get("policy_upload")
    if upload is None:
        return
    try:
        policy = load_policy(upload.getvalue())
    except DataError as err:
        st.session_state["_policy_message"] = ("error", err.message)
        return
    prices = policy["prices"]
    names_now = sorted(str(g) for g in pd.unique(groups))
    missing = [g for g in names_now if g not in prices]
    if missing:
        st.session_state["_policy_message"] = (
            "error", f"The policy has no prices for group “{missing[0]}” of this data; nothing was changed.")
        return
    pairs = [prices[g] for g in names_now]
    first = pairs[0]
    st.session_state["c_fp"], st.session_state["c_fn"] = float(first[0]), float(first[1])
    st.session_state["per_group"] = any(p != first for p in pairs)
    for i, (c_fp_g, c_fn_g) in enumerate(pairs):
        st.session_state[f"c_fp_{i}"], st.session_state[f"c_fn_{i}"] = float(c_fp_g), float(c_fn_g)
    set_setting("unit", policy.get("unit") or "")
    if policy.get("volume"):
        set_setting("volume", int(policy["volume"]))
    st.session_state["policy_rule"] = policy["rule"]
    same = policy["data"].get("sha256") == ds.fingerprint
    st.session_state["_policy_message"] = (
        "success", f"Restored the prices and the rule “{policy['rule']}” from the policy."
        + ("" if same else " The policy was made on other data (its fingerprint differs), so the cutoffs shown "
           "are refitted on this data."))


def rule_has_cutoffs(audit, rule: str) -> bool:
    return all(np.isfinite(t) or t == np.inf for t in audit.cutoffs[rule].values())


st.subheader("Your prices")
say("caption", f"Prices are in {unit or 'your unit'} per case (set the unit in the sidebar).")
with st.popover("Restore a saved policy"):
    st.file_uploader("Policy file (JSON) downloaded from this page", type=["json"], key="policy_upload",
                     on_change=restore_policy)
if "_policy_message" in st.session_state:
    kind, message = st.session_state.pop("_policy_message")
    say(kind, message)
c1, c2, c3 = st.columns([1, 1, 2])
st.session_state.setdefault("c_fp", 1.0)  # seeded here, not by value=, so a policy can set them
st.session_state.setdefault("c_fn", 3.0)
per_group_on = bool(st.session_state.get("per_group"))
c_fp = c1.number_input(
    "Cost of a false positive",
    disabled=per_group_on,
    min_value=0.0,
    step=0.5,
    key="c_fp",
    bind="query-params",
    help="What it costs to flag a case that turns out negative.",
)
c_fn = c2.number_input(
    "Cost of a false negative",
    disabled=per_group_on,
    min_value=0.0,
    step=0.5,
    key="c_fn",
    bind="query-params",
    help="What it costs to miss a case that turns out positive.",
)
st.session_state.setdefault("per_group", False)
per_group = c3.toggle("Different prices per group", key="per_group", bind="query-params", disabled=len(names) < 2)
costs = {g: (c_fp, c_fn) for g in names}
if per_group and len(names) >= 2:
    cols = st.columns(min(4, len(names)))
    for i, g in enumerate(names):
        with cols[i % len(cols)]:
            say("markdown", g if len(g) < 60 else f"{g[:57]}…", bold=True)
            st.session_state.setdefault(f"c_fp_{i}", c_fp)
            st.session_state.setdefault(f"c_fn_{i}", c_fn)
            gfp = st.number_input("false positive", min_value=0.0, step=0.5, key=f"c_fp_{i}", bind="query-params")
            gfn = st.number_input("false negative", min_value=0.0, step=0.5, key=f"c_fn_{i}", bind="query-params")
            costs[g] = (gfp, gfn)
if all(a + b == 0 for a, b in costs.values()):
    st.warning("Every price is 0: no decision costs anything, so there is nothing to optimise.")
    st.stop()
ratio = (
    ", ".join(f"{g}: Elkan threshold {costlib.elkan_threshold(*costs[g]):.3f}" for g in names[:6])
    if per_group
    else f"Elkan threshold c_fp/(c_fp+c_fn) = {costlib.elkan_threshold(c_fp, c_fn):.3f}"
)
say("caption", f"{ratio}. Formula thresholds assume calibrated probabilities; the cost-optimal cutoff does not.")

fit, judge = rows(ds, "fit"), rows(ds, "judge")
scores = ds.scores[model]
price_key = tuple(sorted(costs.items()))

with st.expander("Fairness constraints and intervals", expanded=True):
    f1, f2, f3 = st.columns([1, 1, 2])
    fair_on = f1.toggle("Fairness rules", value=len(names) > 1, key="fair", bind="query-params",
                        disabled=len(names) < 2)
    tol = f2.number_input("Tolerance (largest gap in the rate)", min_value=0.0, max_value=0.5, value=0.05,
                          step=0.01, key="fair_tol", bind="query-params")
    criteria = f3.multiselect("Criteria", list(FAIRNESS_CRITERIA), default=list(FAIRNESS_CRITERIA),
                              key="fair_criteria", bind="query-params",
                              format_func=lambda c: f"{c} (equal {FAIRNESS_CRITERIA[c]})")
    resamples = st.select_slider("Bootstrap resamples for the 95% intervals (test rows, resampled within each group)",
                                 options=[200, 500, 1000, 2000, 5000], value=1000, key="resamples",
                                 bind="query-params")
criteria = tuple(criteria) if fair_on and len(names) > 1 else ()
audit = memo("audit", ds, (model, price_key, criteria, tol, resamples, unit, volume), lambda: build_audit(
    ds.y[fit], scores[fit], groups[fit], ds.y[judge], scores[judge], groups[judge], costs=costs, unit=unit,
    volume=volume, fairness_tolerance=tol, criteria=criteria, n_resamples=resamples, model_name=model,
    data_name=ds.name, fingerprint=ds.fingerprint, n_rows=ds.n_rows))
table = audit.table

say("error" if audit.model_is_useless else "success", audit.verdict)
st.caption(split_note(ds))

totals = table[table["group"] == ALL_GROUPS].set_index("rule")
nobody = totals.loc["flag nobody", "cost_per_100"]
opt_row = totals.loc["cost-optimal"]
fitted_on = "train" if ds.has_role("train") else "same"
say("markdown", words.cutoffs_sentence("cost-optimal", audit.cutoffs["cost-optimal"], fitted_on=fitted_on),
    bold=True)
cheapest = totals.drop(index="flag nobody")["cost_per_100"].idxmin()
m = st.columns(4)
m[0].metric("Cost-optimal cost per 100 cases", words.money(opt_row["cost_per_100"], unit),
            delta=words.money(opt_row["cost_per_100"] - nobody, unit), delta_color="inverse",
            help="Judged on the test rows; the change is against flagging nobody.")
m[1].metric("Flag nobody, per 100 cases", words.money(nobody, unit))
m[2].metric("Cheapest rule on the test rows", str(cheapest),
            help="The cost-optimal rule is fitted on the train rows; on the test rows another rule can come out "
                 "a little cheaper by chance. The intervals in the table show whether the difference is real.")
m[3].metric("Per month, cost-optimal", words.money(opt_row["cost_per_100"] / 100 * volume, unit),
            help=f"Cost-optimal cost per case times {volume:,.0f} cases a month; it flags "
                 f"{opt_row['flagged_rate']:.1%} of cases.")
st.plotly_chart(audit.figures["cost_by_group"], key="cost_chart")

st.subheader("Cutoff rules by group")
diff = (f"Against flagging nobody the cost-optimal rule changes the cost by {opt_row['vs_nobody']:+.2f} per 100 "
        f"cases, 95% interval [{opt_row['vs_nobody_low']:.2f}, {opt_row['vs_nobody_high']:.2f}]")
if opt_row["vs_nobody_low"] <= 0 <= opt_row["vs_nobody_high"]:
    say("warning", diff + ": the interval includes zero, so the two rules are not distinguishable on this data.")
else:
    say("caption", diff + ".")
shown = table.assign(threshold=table["threshold"].map(words.cutoff))
# the price of fairness is a fairness rule's extra cost; other rules leave the column empty
shown.loc[~shown["rule"].str.startswith("fair"), "price_of_fairness_per_100"] = np.nan
shown["95% interval"] = [f"[{lo:.2f}, {hi:.2f}]" if np.isfinite(lo) else ""
                         for lo, hi in zip(shown["low"], shown["high"], strict=True)]
show_table(
    shown[["rule", "group", "n", "threshold", "flagged_rate", "fp", "fn", "cost_per_100", "95% interval",
           "price_of_fairness_per_100", "vs_nobody_note"]],
    "rules_by_group", key="rules",
    column_config={
        "flagged_rate": st.column_config.NumberColumn("flagged share", format="percent"),
        "cost_per_100": st.column_config.NumberColumn(f"cost per 100 ({unit or 'units'})", format="%.2f"),
        "price_of_fairness_per_100": st.column_config.NumberColumn(
            "price of fairness per 100", format="%.2f",
            help="Extra cost per 100 cases over the unconstrained cost-optimal rule, in the same group."),
        "threshold": st.column_config.TextColumn("cutoff"),
        "vs_nobody_note": st.column_config.TextColumn("against flagging nobody"),
    })
st.plotly_chart(audit.figures["rule_bars"], key="rule_bars")

st.subheader("How much do the prices matter?")
say("markdown", sensitivity_sentence(audit))
c1, c2 = st.columns(2)
c1.plotly_chart(audit.figures["sensitivity"], key="sensitivity_chart")
c2.plotly_chart(audit.figures["net_benefit"], key="net_benefit_chart")
for note in audit.notes:
    say("info", note)

st.subheader("Report and policy")
st.caption("The report is one HTML file that opens offline (plotly.js is embedded): settings, data summary per "
           "group, every chart above, the rules table with intervals, the sensitivity map, the verdict and the "
           "limitations. The policy is a JSON file with the prices, the chosen rule's cutoffs and the data "
           "fingerprint, for the system that applies the decisions.")
r1, r2, r3 = st.columns([1, 1, 1])
r1.download_button("Download the audit report (HTML)", data=lambda: audit_html(audit).encode("utf-8"),
                   file_name="cost_audit.html", mime="text/html", key="dl_report", on_click="ignore")
usable = [rule for rule in dict.fromkeys(table["rule"]) if rule_has_cutoffs(audit, rule)]
if st.session_state.get("policy_rule") not in usable:
    st.session_state.pop("policy_rule", None)
chosen = r2.selectbox("Rule for the policy", usable, index=usable.index("cost-optimal"), key="policy_rule",
                      bind="query-params")
r3.download_button("Download the policy (JSON)", data=policy_json(audit, chosen).encode("utf-8"),
                   file_name="cost_policy.json", mime="application/json", key="dl_policy", on_click="ignore")
