"""Cost matrix: price every (truth, decision) pair; the cheapest decision is often not the likeliest."""

import numpy as np
import pandas as pd
import streamlit as st

from costlib import figures, words
from costlib.multiclass import (
    confusion,
    constant_decision,
    decision_cost,
    expected_cost_matrix,
    min_cost_decisions,
)
from pages._common import current_dataset, memo, page_header, rows, say, show_table, unit_and_volume

page_header(
    "Cost matrix",
    "C[i, j] is the price of deciding j when the truth is i. The cheapest decision for a case is the "
    "one with the lowest expected price under the model's probabilities, which is often not the most "
    "probable class; with an abstain price the system answers only when an answer is cheaper.",
)
ds = current_dataset(needs="multiclass")
if ds is None:
    st.stop()
unit, volume = unit_and_volume("matrix")
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

use_abstain = st.toggle(
    "Allow abstaining (hand the case to a person)", value=True, key="abstain_on", bind="query-params"
)
h = st.number_input(
    "Price of abstaining",
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
argmax = memo("argmax", ds, (), lambda: np.argmax(p, axis=1))
cheapest = min_cost_decisions(p, c_mat)
policies = {"most probable class (argmax)": argmax, "cheapest decision": cheapest}
if use_abstain:
    policies["cheapest, or abstain"] = min_cost_decisions(p, c_mat, abstain_cost=h)
summary = []
for name, d in policies.items():
    answered = d >= 0
    summary.append(
        {
            "policy": name,
            "expected cost per case": decision_cost(y, d, c_mat, abstain_cost=h if use_abstain else None),
            "abstention rate": float(np.mean(~answered)),
            "accuracy of answers": float(np.mean(d[answered] == y[answered])) if answered.any() else np.nan,
            "differs from argmax": float(np.mean(d != argmax)),
        }
    )
summary = pd.DataFrame(summary)
# The no-model baselines: one decision for everyone (fitted on the fitting rows), or hand
# every case to a person at the abstain price.
fit = rows(ds, "calibrate")
fixed = constant_decision(ds.y_class[fit], c_mat)
baselines = {f"no model: always decide {names[fixed]}": decision_cost(y, np.full(len(y), fixed), c_mat)}
if use_abstain:
    baselines["no model: hand every case over"] = float(h)
for name, cost in baselines.items():
    summary.loc[len(summary)] = {"policy": name, "expected cost per case": cost,
                                 "abstention rate": 1.0 if "hand" in name else 0.0,
                                 "accuracy of answers": np.nan, "differs from argmax": np.nan}
models = summary[~summary["policy"].str.startswith("no model")]
best = models.loc[models["expected cost per case"].idxmin()]
base = summary.iloc[0]["expected cost per case"]
no_model = min(baselines, key=baselines.get)
if best["expected cost per case"] >= baselines[no_model] - 1e-12:
    say("error", f"At these prices the best policy with the model (“{best['policy']}”, "
                 f"{words.money(best['expected cost per case'], unit)} per case) is no cheaper than “{no_model}” "
                 f"({words.money(baselines[no_model], unit)} per case): the model should not decide these cases.")
else:
    saving = base - best["expected cost per case"]
    beyond = (f"; it saves {words.money(baselines[no_model] - best['expected cost per case'], unit)} per case "
              f"over the best choice without a model (“{no_model}”)")
    if saving > 1e-12:
        say("success", f"At these prices “{best['policy']}” costs {words.money(best['expected cost per case'], unit)} "
                       f"per case, {words.money(saving, unit)} less than answering the most probable class"
                       f"{words.per_month(saving, volume, unit)}{beyond}.")
    else:
        say("info", f"At these prices answering the most probable class is already the cheapest policy "
                    f"({words.money(base, unit)} per case){beyond}.")
show_table(
    summary,
    "policies",
    key="policies",
    column_config={
        "abstention rate": st.column_config.NumberColumn(format="percent"),
        "differs from argmax": st.column_config.NumberColumn(format="percent"),
        "accuracy of answers": st.column_config.NumberColumn(format="percent"),
    },
)

shown = st.radio("Heatmaps for", list(policies), horizontal=True, key="heat_policy")
conf = confusion(y, policies[shown], k)
n = len(y)
cols = st.columns(2)
cols[0].plotly_chart(
    figures.heatmap_figure(conf, names, title=f"Confusion ({words.plain(shown)})", colorbar="cases"),
    key="confusion_chart",
)
cols[1].plotly_chart(
    figures.heatmap_figure(
        conf * c_mat / max(n, 1), names, title="Cost contribution per case (N·C / n)", colorbar=unit or "cost"
    ),
    key="contribution_chart",
)
st.caption(
    f"Expected cost per case from this confusion matrix: "
    f"{expected_cost_matrix(conf, c_mat) if conf.sum() else float('nan'):.4f} over the answered cases; "
    f"{(policies[shown] < 0).sum():,} abstentions are priced separately at {h:g}."
)
