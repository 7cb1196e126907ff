"""Costs & groups: what each cutoff rule costs per group, and whether to use the model."""

import pandas as pd
import streamlit as st

import costlib
from costlib import figures, words
from costlib.costs import ALL_GROUPS, group_cost_curves, rules_table
from pages._common import (
    current_dataset,
    groups_of,
    memo,
    model_picker,
    page_header,
    rows,
    show_table,
    split_note,
    unit_and_volume,
)

page_header("Costs & groups",
            "Price a false positive and a false negative (per group if they differ) and compare the cutoff "
            "rules: threshold 0.5, Elkan's c_fp/(c_fp+c_fn), the cost-optimal cutoff fitted on train and "
            "judged on test, and flagging nobody.")
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
c_fp = c1.number_input(f"Cost of a false positive ({unit or 'units'})", min_value=0.0, value=1.0, step=0.5,
                       key="c_fp", bind="query-params",
                       help="What it costs to flag a case that turns out negative.")
c_fn = c2.number_input(f"Cost of a false negative ({unit or 'units'})", min_value=0.0, value=3.0, step=0.5,
                       key="c_fn", bind="query-params",
                       help="What it costs to miss a case that turns out positive.")
per_group = c3.toggle("Different prices per group", value=False, key="per_group", bind="query-params",
                      disabled=len(names) < 2)
costs = {g: (c_fp, c_fn) for g in names}
if per_group and len(names) >= 2:
    cols = st.columns(min(4, len(names)))
    for i, g in enumerate(names):
        with cols[i % len(cols)]:
            st.markdown(f"**{g}**" if len(g) < 60 else f"**{g[:57]}…**", help=None)
            gfp = st.number_input("false positive", min_value=0.0, value=c_fp, step=0.5, key=f"c_fp_{i}",
                                  bind="query-params")
            gfn = st.number_input("false negative", min_value=0.0, value=c_fn, step=0.5, key=f"c_fn_{i}",
                                  bind="query-params")
            costs[g] = (gfp, gfn)
if all(a + b == 0 for a, b in costs.values()):
    st.warning("Every price is 0: no decision costs anything, so there is nothing to optimise.")
    st.stop()
ratio = ", ".join(
    f"{g}: Elkan threshold {costlib.elkan_threshold(*costs[g]):.3f}" for g in names[:6]
) if per_group else f"Elkan threshold c_fp/(c_fp+c_fn) = {costlib.elkan_threshold(c_fp, c_fn):.3f}"
st.caption(f"{ratio}. Formula thresholds assume calibrated probabilities; the cost-optimal cutoff does not.")

fit, judge = rows(ds, "fit"), rows(ds, "judge")
scores = ds.scores[model]
train = (ds.y[fit], scores[fit], groups[fit])
test = (ds.y[judge], scores[judge], groups[judge])
price_key = tuple(sorted(costs.items()))
table = memo("rules_table", ds, (model, price_key), lambda: rules_table(train, test, costs=costs))
test_sweep = memo("grouped_sweep_test", ds, (model,), lambda: costlib.grouped_sweep(*test))

verdict, useless = words.cost_verdict(table, unit=unit, volume=volume)
(st.error if useless else st.success)(verdict)
st.caption(split_note(ds))

best = table[(table["group"] == ALL_GROUPS) & (table["rule"] != "flag nobody")]
nobody = table[(table["group"] == ALL_GROUPS) & (table["rule"] == "flag nobody")]["cost_per_100"].iloc[0]
m = st.columns(4)
opt_row = best[best["rule"] == "cost-optimal"].iloc[0]
m[0].metric("Cost-optimal cost per 100 cases", words.money(opt_row["cost_per_100"], unit),
            delta=words.money(opt_row["cost_per_100"] - nobody, unit), delta_color="inverse",
            help="Judged on the test rows; the change is against flagging nobody.")
m[1].metric("Flag nobody, per 100 cases", words.money(nobody, unit))
m[2].metric("Cost-optimal flagged share", f"{opt_row['flagged_rate']:.1%}")
m[3].metric("Per month, cost-optimal", words.money(opt_row["cost_per_100"] / 100 * volume, unit))

curves = group_cost_curves(test_sweep, {g: costs[g] for g in test_sweep.groups})
markers = table[(table["group"] != ALL_GROUPS) & (table["rule"] != "flag nobody")]
fig = figures.cost_by_group_figure(curves, markers[["group", "rule", "threshold", "cost_per_100"]], unit=unit)
st.plotly_chart(fig, key="cost_chart")

st.subheader("Cutoff rules by group")
shown = table.assign(threshold=table["threshold"].map(words.cutoff))
show_table(shown, "rules_by_group", key="rules",
           column_config={"flagged_rate": st.column_config.NumberColumn("flagged share", format="percent"),
                          "cost_per_100": st.column_config.NumberColumn(f"cost per 100 ({unit})", format="%.2f"),
                          "threshold": st.column_config.TextColumn("cutoff")})
