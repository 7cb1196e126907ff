"""Costs & groups: what each cutoff rule costs per group, and whether to use the model."""

import numpy as np
import pandas as pd
import streamlit as st

import costlib
from costlib import figures, words
from costlib.audit import FAIRNESS_CRITERIA, fair_thresholds, group_costs_with_intervals
from costlib.costs import ALL_GROUPS, group_cost_curves, price_of_fairness, rules_table
from pages._common import (
    current_dataset,
    groups_of,
    label,
    memo,
    model_picker,
    page_header,
    rows,
    say,
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

st.subheader("Your prices")
c1, c2, c3 = st.columns([1, 1, 2])
c_fp = c1.number_input(
    label(f"Cost of a false positive ({unit or 'units'})"),
    min_value=0.0,
    value=1.0,
    step=0.5,
    key="c_fp",
    bind="query-params",
    help="What it costs to flag a case that turns out negative.",
)
c_fn = c2.number_input(
    label(f"Cost of a false negative ({unit or 'units'})"),
    min_value=0.0,
    value=3.0,
    step=0.5,
    key="c_fn",
    bind="query-params",
    help="What it costs to miss a case that turns out positive.",
)
per_group = c3.toggle(
    "Different prices per group", value=False, key="per_group", bind="query-params", disabled=len(names) < 2
)
costs = {g: (c_fp, c_fn) for g in names}
if per_group and len(names) >= 2:
    cols = st.columns(min(4, len(names)))
    for i, g in enumerate(names):
        with cols[i % len(cols)]:
            say("markdown", g if len(g) < 60 else f"{g[:57]}…", bold=True)
            gfp = st.number_input(
                "false positive", min_value=0.0, value=c_fp, step=0.5, key=f"c_fp_{i}", bind="query-params"
            )
            gfn = st.number_input(
                "false negative", min_value=0.0, value=c_fn, step=0.5, key=f"c_fn_{i}", bind="query-params"
            )
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
train = (ds.y[fit], scores[fit], groups[fit])
test = (ds.y[judge], scores[judge], groups[judge])
price_key = tuple(sorted(costs.items()))

with st.expander("Fairness constraints and intervals", expanded=True):
    f1, f2, f3 = st.columns([1, 1, 2])
    fair_on = f1.toggle(
        "Add fairness-constrained cutoffs",
        value=len(names) > 1,
        key="fair",
        bind="query-params",
        disabled=len(names) < 2,
    )
    tol = f2.number_input(
        "Tolerance (largest gap in the rate)",
        min_value=0.0,
        max_value=0.5,
        value=0.05,
        step=0.01,
        key="fair_tol",
        bind="query-params",
    )
    criteria = f3.multiselect(
        "Criteria",
        list(FAIRNESS_CRITERIA),
        default=list(FAIRNESS_CRITERIA),
        key="fair_criteria",
        bind="query-params",
        format_func=lambda c: f"{c} (equal {FAIRNESS_CRITERIA[c]})",
    )
    i1, i2 = st.columns([1, 3])
    show_iv = i1.toggle(
        "95% intervals",
        value=True,
        key="intervals",
        bind="query-params",
        help="Bootstrap percentile intervals on the test rows, resampled within each group.",
    )
    resamples = i2.select_slider(
        "Bootstrap resamples", options=[200, 500, 1000, 2000, 5000], value=1000, key="resamples", bind="query-params"
    )
extra = {}
if fair_on and len(names) > 1:
    for crit in criteria:
        fc = memo(
            "fair",
            ds,
            (model, price_key, crit, tol),
            lambda crit=crit: fair_thresholds(*train, costs=costs, criterion=crit, tolerance=tol),
        )
        extra[f"fair: {crit}"] = fc.thresholds
table = memo(
    "rules_table",
    ds,
    (model, price_key, tuple(sorted(extra))),
    lambda: rules_table(train, test, costs=costs, extra_cutoffs=extra),
)
table["price_of_fairness_per_100"] = price_of_fairness(table)
test_sweep = memo("grouped_sweep_test", ds, (model,), lambda: costlib.grouped_sweep(*test))

verdict, useless = words.cost_verdict(table, unit=unit, volume=volume)
say("error" if useless else "success", verdict)
st.caption(split_note(ds))

best = table[(table["group"] == ALL_GROUPS) & (table["rule"] != "flag nobody")]
nobody = table[(table["group"] == ALL_GROUPS) & (table["rule"] == "flag nobody")]["cost_per_100"].iloc[0]
m = st.columns(4)
opt_row = best[best["rule"] == "cost-optimal"].iloc[0]
m[0].metric(
    "Cost-optimal cost per 100 cases",
    words.money(opt_row["cost_per_100"], unit),
    delta=words.money(opt_row["cost_per_100"] - nobody, unit),
    delta_color="inverse",
    help="Judged on the test rows; the change is against flagging nobody.",
)
m[1].metric("Flag nobody, per 100 cases", words.money(nobody, unit))
m[2].metric("Cost-optimal flagged share", f"{opt_row['flagged_rate']:.1%}")
m[3].metric("Per month, cost-optimal", words.money(opt_row["cost_per_100"] / 100 * volume, unit))

curves = group_cost_curves(test_sweep, {g: costs[g] for g in test_sweep.groups})
markers = table[(table["group"] != ALL_GROUPS) & (table["rule"] != "flag nobody")]
fig = figures.cost_by_group_figure(curves, markers[["group", "rule", "threshold", "cost_per_100"]], unit=unit)
st.plotly_chart(fig, key="cost_chart")

st.subheader("Cutoff rules by group")
shown = table.assign(threshold=table["threshold"].map(words.cutoff))
if show_iv:
    cutoffs = {
        rule: dict(zip(part["group"], part["threshold"], strict=True))
        for rule, part in table[table["group"] != ALL_GROUPS].groupby("rule", sort=False)
    }
    ivs = memo(
        "intervals",
        ds,
        (model, price_key, tuple(sorted(extra)), resamples),
        lambda: group_costs_with_intervals(*test, costs=costs, cutoffs=cutoffs, n_resamples=resamples),
    )
    shown = shown.merge(ivs[["rule", "group", "low", "high"]], on=["rule", "group"], how="left")
    shown["95% interval"] = [
        f"[{lo:.2f}, {hi:.2f}]" if np.isfinite(lo) else "" for lo, hi in zip(shown["low"], shown["high"], strict=True)
    ]
    summary = ivs[ivs["group"] == ALL_GROUPS].set_index("rule")
    if "cost-optimal" in summary.index:
        r = summary.loc["cost-optimal"]
        diff = (
            f"Against flagging nobody the cost-optimal rule changes the cost by {r['vs_nobody']:+.2f} per 100 "
            f"cases, 95% interval [{r['vs_nobody_low']:.2f}, {r['vs_nobody_high']:.2f}]"
        )
        if r["vs_nobody_low"] <= 0 <= r["vs_nobody_high"]:
            st.warning(diff + ": the interval includes zero, so the two rules are not distinguishable on this data.")
        else:
            st.caption(diff + ".")
    st.plotly_chart(figures.rule_bars_figure(ivs[ivs["group"] != ALL_GROUPS], unit=unit), key="rule_bars")
show_table(
    shown.drop(columns=["low", "high"], errors="ignore"),
    "rules_by_group",
    key="rules",
    column_config={
        "flagged_rate": st.column_config.NumberColumn("flagged share", format="percent"),
        "cost_per_100": st.column_config.NumberColumn(f"cost per 100 ({unit or 'units'})", format="%.2f"),
        "price_of_fairness_per_100": st.column_config.NumberColumn(
            "price of fairness per 100",
            format="%.2f",
            help="Extra cost per 100 cases (all groups) over the unconstrained cost-optimal rule.",
        ),
        "threshold": st.column_config.TextColumn("cutoff"),
    },
)
