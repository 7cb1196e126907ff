"""Instance costs: each case has its own price of being wrong; NEC weighs mistakes by it."""

import math

import numpy as np
import pandas as pd
import streamlit as st

from costlib.instance import NecSweeps, delta_source_words, nec_sweep, recommend_nec
from costlib.present import figures, words
from views._ui.data import rows
from views._ui.display import say, show_table, show_verdict
from views._ui.memo import memo
from views._ui.page import setup

ds, unit, volume = setup(
    "Instance costs",
    "Each case carries a signed margin δ: its sign is the label and its size the price of getting it wrong (from "
    "annotator votes, a measurement against a threshold, or a rating). Normalized excess cost (NEC) weighs every "
    "mistake by |δ|: 0 is perfect, 0.5 a coin flip, 1 always wrong.",
    needs="delta",
)
fit, judge = rows(ds, "fit"), rows(ds, "judge")
delta = ds.delta[judge]
groups = None if ds.groups is None else ds.groups[judge]
rec = memo("nec_rec", ds, (), lambda: recommend_nec(ds.scores, ds.delta, fit=fit, judge=judge))
st.subheader("What to ship")
verdict = words.nec_verdict(rec)
show_verdict(verdict)
say(
    "caption",
    f"δ comes from {delta_source_words(ds.mapping)}. Positive (δ > 0) for "
    f"{int((delta > 0).sum()):,} of {len(delta):,} judged cases.",
)

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
    title="NEC against the cutoff (test rows)",
    x_title="cutoff (flag a case when its score is at least this)",
    y_title="NEC",
    baseline=rec.baseline_nec,
    baseline_label=f"{rec.baseline} (no model): {rec.baseline_nec:.3f}",
)
figures.mark_x(fig, rec.threshold, text=f"recommended: {rec.threshold:.3g}")
c1, c2 = st.columns(2)
c1.plotly_chart(fig, key="nec_curve")
c2.plotly_chart(figures.delta_histogram(delta, groups=groups), key="delta_hist")


@st.fragment
def explore() -> None:
    """A cutoff to look at: reruns alone when its slider moves (the answer above does not move)."""
    st.subheader("Explore another cutoff")
    judged = memo("judged_scores", ds, (), lambda: {m: s[judge] for m, s in ds.scores.items()})
    necs = memo("nec_sweeps", ds, (), lambda: NecSweeps.of(judged, delta, groups=groups))  # a move reads these
    lo = min(float(s.min()) for s in judged.values())
    hi = max(float(s.max()) for s in judged.values())
    start = float(np.clip(rec.threshold, lo, hi)) if np.isfinite(rec.threshold) else (lo + hi) / 2
    low_end = min(lo, 0.0) if ds.probabilities else lo
    threshold = st.slider(
        "Cutoff",
        min_value=low_end,
        max_value=max(hi, 1.0) if ds.probabilities else hi,
        # starts at the recommended cutoff, rounded down to the slider's step so that every case the
        # answer above flags (score >= cutoff) is flagged here too and the table matches it
        value=max(math.floor(start * 1e4) / 1e4, low_end),
        step=0.0001,
        format="%.4f",
        key="threshold",
        bind="query-params",
        help="NEC and the error rate of every model at this cutoff, by group; the answer above "
        "does not change with it.",
    )
    overall, by_group = necs.table(threshold)
    st.plotly_chart(
        figures.nec_error_figure(
            overall.assign(label=overall["option"]), title=f"NEC beside the error rate at the cutoff {threshold:.2f}"
        ),
        key="nec_bar",
    )
    show_table(overall, "nec", key="nec_table")
    if len(by_group):
        with st.expander("By group"):
            show_table(by_group, "nec_by_group", key="nec_group_table")


explore()
