"""Cost matrix: price every (truth, decision) pair; the cheapest decision is often not the likeliest."""

import numpy as np
import pandas as pd
import streamlit as st

from costlib.multiclass import confusion, recommend_matrix
from costlib.present import figures, words
from views._ui.data import rows
from views._ui.display import say, show_table, show_verdict
from views._ui.memo import memo
from views._ui.page import setup

ds, unit, volume = setup(
    "Cost matrix",
    "C[i, j] is the price of deciding j when the truth is i. The cheapest decision for a case is the one with the "
    "lowest expected price under the model's probabilities, which is often not the most probable class; with a "
    "price for handing a case to a person, the system answers only when an answer is cheaper.",
    needs="multiclass",
)
names = list(ds.class_names)
k = len(names)


def default_matrix() -> np.ndarray:
    c = np.ones((k, k)) - np.eye(k)
    if "security" in names:  # the sample's story: a missed security ticket is expensive
        c[names.index("security"), :] = 10.0
        c[names.index("security"), names.index("security")] = 0.0
    return c


def parse_matrix(text: str | None) -> np.ndarray | None:
    """A matrix from the URL form "0,1,1;1,0,1;10,10,0" (None when absent or malformed)."""
    if not text:
        return None
    try:
        m = np.array([[float(x) for x in r.split(",")] for r in text.split(";")])
    except ValueError:
        return None
    if m.shape != (k, k) or not np.isfinite(m).all() or (m < 0).any():
        return None
    return m


# The editor's base table is fixed for the session (edits live in the editor's state); a shared
# link's ?C=... seeds it once.
start_key = ("matrix_start", ds.fingerprint, tuple(names))
if st.session_state.get("matrix_start_key") != start_key:
    st.session_state["matrix_start_key"] = start_key
    st.session_state["matrix_start"] = parse_matrix(st.query_params.get("C"))
    if st.session_state["matrix_start"] is None:
        st.session_state["matrix_start"] = default_matrix()
    st.session_state.pop("cost_matrix", None)
start = st.session_state["matrix_start"]
st.subheader("Prices")
say(
    "caption",
    f"Rows: the true class. Columns: the decision. Prices in {unit or 'your unit'}; the diagonal is "
    "usually 0. Edit a cell to reprice.",
)
edited = st.data_editor(
    pd.DataFrame(start, index=[f"truth: {n}" for n in names], columns=[f"decide {n}" for n in names]),
    key="cost_matrix",
    width="stretch",
    column_config={f"decide {n}": st.column_config.NumberColumn(min_value=0.0, step=0.5, format="%.2f") for n in names},
)
c_mat = edited.to_numpy(dtype=float)
if not np.isfinite(c_mat).all() or (c_mat < 0).any():
    st.error(
        "Every price must be a number of 0 or more; empty or negative cells are not allowed. "
        "The last valid matrix is used until this is fixed."
    )
    c_mat = start
st.query_params["C"] = ";".join(",".join(f"{x:g}" for x in r) for r in c_mat)

a1, a2 = st.columns([1, 1], vertical_alignment="bottom")
use_abstain = a1.toggle("Allow handing a case to a person", value=True, key="abstain_on", bind="query-params")
h = a2.number_input(
    f"Price of handing a case over ({unit or 'your unit'})",
    min_value=0.0,
    value=1.0,
    step=0.1,
    key="abstain",
    bind="query-params",
    disabled=not use_abstain,
    help="Answer only when the cheapest answer's expected price is strictly below this.",
)

judge = rows(ds, "judge")
y = ds.y_class[judge]
p = ds.class_probs[judge]
fit = rows(ds, "calibrate")
rec = memo(
    "matrix_rec",
    ds,
    (c_mat.tobytes(), h if use_abstain else None),
    lambda: recommend_matrix(
        y, p, c_mat, class_names=names, abstain_cost=h if use_abstain else None, y_fit=ds.y_class[fit]
    ),
)
st.subheader("What to ship")
verdict = words.matrix_verdict(rec, unit=unit, volume=volume)
show_verdict(verdict)
m = st.columns(3)
m[0].metric("Cost per case", words.money(rec.cost, unit), help=f"“{rec.policy}” on the test rows.")
m[1].metric("Best without the model", words.money(rec.baseline_cost, unit), help=f"“{rec.baseline}”.")
m[2].metric(
    "Saving a month",
    words.money(rec.saving * volume, unit) if volume else "set a volume",
    help=f"Saving per case times {volume:,.0f} cases a month.",
)
show_table(
    rec.table.assign(
        **{
            "cost per case": rec.table["cost per case"].map(lambda x: words.money(x, unit)),
            "handed over": rec.table["handed over"].map(words.percent),
            "accuracy of answers": rec.table["accuracy of answers"].map(words.percent),
            "uses the model": rec.table["uses the model"].map({True: "yes", False: "no"}),
        }
    ),
    "policies",
    key="policies",
)

shown = st.radio(
    "Heatmaps for",
    [x for x in rec.decisions if rec.table.set_index("policy").loc[x, "uses the model"]],
    horizontal=True,
    key="heat_policy",
)
conf = confusion(y, rec.decisions[shown], k)
n = len(y)
cols = st.columns(2)
cols[0].plotly_chart(
    figures.heatmap_figure(conf, names, title=f"Confusion ({shown})", colorbar="cases"), key="confusion_chart"
)
cols[1].plotly_chart(
    figures.heatmap_figure(
        conf * c_mat / max(n, 1), names, title="Cost contribution per case (N·C / n)", colorbar=unit or "cost"
    ),
    key="contribution_chart",
)
st.caption(
    f"Cases handed over ({(rec.decisions[shown] < 0).sum():,}) are priced separately at "
    f"{words.money(h, unit)} each and are not in the heatmaps."
)
