"""Instance costs: each case has its own price of being wrong; NEC weighs mistakes by it."""

import numpy as np
import pandas as pd
import streamlit as st

from costlib import figures
from costlib.instance import nec_sweep, nec_table
from pages._common import current_dataset, memo, page_header, rows, say, show_table

page_header(
    "Instance costs",
    "Each case carries a signed margin δ: its sign is the label and its size the price of getting it "
    "wrong (from annotator votes, a measurement against a threshold, or a rating). Normalized excess "
    "cost (NEC) weighs every mistake by |δ|: 0 is perfect, 0.5 a coin flip, 1 always wrong.",
)
ds = current_dataset(needs="delta")
if ds is None:
    st.stop()
judge = rows(ds, "judge")
delta = ds.delta[judge]
groups = None if ds.groups is None else ds.groups[judge]
lo = min(float(s[judge].min()) for s in ds.scores.values())
hi = max(float(s[judge].max()) for s in ds.scores.values())
default = 0.5 if ds.probabilities else float(np.median(next(iter(ds.scores.values()))[judge]))
threshold = st.slider(
    "Flag a case when its score is at least",
    min_value=min(lo, 0.0) if ds.probabilities else lo,
    max_value=max(hi, 1.0) if ds.probabilities else hi,
    value=default,
    step=0.01,
    key="threshold",
    bind="query-params",
)
src = ds.mapping
source = (
    "annotator votes: δ = ln((yes + 1)/(no + 1))"
    if src.votes_yes
    else "a rating: δ = rating − midpoint"
    if src.rating
    else "a measurement: δ = z − threshold"
    if src.measurement
    else "the delta column"
)
st.caption(f"δ comes from {source}. Label = 1 for {int((delta > 0).sum()):,} of {len(delta):,} cases.")

table = nec_table({m: s[judge] for m, s in ds.scores.items()}, delta, threshold=threshold, groups=groups)
overall = table[(table["group"] == "all")].set_index("model")
model_rows = overall.drop(index="flag nobody")
best = model_rows["NEC"].idxmin()
r = model_rows.loc[best]
nobody = overall.loc["flag nobody", "NEC"]
ratio = r["error rate / NEC"]
where = (
    "its mistakes sit on ambiguous, cheap cases"
    if ratio > 1
    else "its mistakes sit on clear-cut, expensive cases"
    if ratio < 1
    else "its mistakes are of average price"
)
verdict = (
    f"At threshold {threshold:.2f}, {best} has NEC {r['NEC']:.3f} against an error rate of "
    f"{r['error rate']:.3f} (ratio {ratio:.2f}): {where}. Flagging nobody has NEC {nobody:.3f}."
)
say(
    "success" if r["NEC"] < nobody else "error",
    verdict if r["NEC"] < nobody else verdict + " The model does no better than flagging nobody.",
)
cols = st.columns(2)
cols[0].plotly_chart(
    figures.nec_error_figure(table[table["group"] == "all"].assign(label=lambda t: t["model"])), key="nec_bar"
)
cols[1].plotly_chart(figures.delta_histogram(delta, groups=groups), key="delta_hist")

curves = []
for m, s in ds.scores.items():
    sw = memo("nec_sweep", ds, (m,), lambda s=s: nec_sweep(s[judge], delta))
    curves.append(pd.DataFrame({"threshold": sw.thresholds, "NEC": (sw.fp + sw.fn) / sw.total, "model": m}))
curves = pd.concat(curves, ignore_index=True)
fig = figures.line_figure(
    curves,
    x="threshold",
    y="NEC",
    color="model",
    title="NEC against the threshold",
    x_title="threshold (flag if score ≥ threshold)",
    y_title="NEC",
    baseline=nobody,
    baseline_label=f"flag nobody: {nobody:.3f}",
)
figures.mark_x(fig, threshold)
st.plotly_chart(fig, key="nec_curve")

st.subheader("By model and group")
show_table(table, "nec_by_group", key="nec_table")
