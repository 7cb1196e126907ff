"""Cost matrix: price every (truth, decision) pair; the cheapest decision is often not the likeliest."""

import pandas as pd
import streamlit as st

from costlib import answers
from costlib.core import link, settings
from costlib.core.escaping import option_names
from costlib.present import labels as t
from views._ui.data import fallback_title
from views._ui.details import details_setting
from views._ui.display import say, show_chart, show_metrics, show_table, show_verdict
from views._ui.memo import memo
from views._ui.page import setup
from views._ui.state import ensure_setting, keep, mirror, remembered, set_setting, setting, setting_notes

ds, unit, volume = setup(t.PAGE_MATRIX, t.MATRIX_WHAT, needs="multiclass")
names = list(ds.class_names)

# The editor's base table is fixed for the session (edits live in the editor's state); a shared
# link's matrix seeds it once, bounded like the editor's cells (out of bounds: the default, said).
start_key = ("matrix_start", ds.fingerprint, tuple(names))
if st.session_state.get("matrix_start_key") != start_key:
    st.session_state["matrix_start_key"] = start_key
    ensure_setting("matrix", None)
    linked, note = settings.check_matrix(setting("matrix"), len(names))
    if note:
        say("warning", link.note("matrix", note))
    st.session_state["matrix_start"] = answers.default_matrix(names) if linked is None else linked
    st.session_state["matrix_valid"] = st.session_state["matrix_start"]
    st.session_state.pop("cost_matrix", None)
start = st.session_state["matrix_start"]
st.subheader(t.MATRIX_PRICES)
say("caption", t.matrix_prices_caption(unit))
cell = st.column_config.NumberColumn(
    min_value=settings.PRICE.low, max_value=settings.PRICE.high, step=0.5, format="%.2f"
)
shown = option_names(names)  # a class is named by a column: as long as a header, and distinct once cut
edited = st.data_editor(
    pd.DataFrame(
        start,
        index=[t.TRUTH_ROW.format(name=shown(n)) for n in names],
        columns=[t.DECIDE_COLUMN.format(name=shown(n)) for n in names],
    ),
    key="cost_matrix",
    width="stretch",
    column_config={t.DECIDE_COLUMN.format(name=shown(n)): cell for n in names},
)
c_mat = edited.to_numpy(dtype=float)
bad = settings.matrix_bad_cell(c_mat)
if bad is None:
    st.session_state["matrix_valid"] = c_mat  # the last matrix whose every cell is a price
else:
    say(
        "error",
        t.MATRIX_CELLS_REFUSED.format(truth=names[bad[0]], decide=names[bad[1]], high=settings.PRICE.high),
    )
    c_mat = st.session_state["matrix_valid"]
set_setting("matrix", settings.matrix_link(c_mat))
mirror("matrix")

a1, a2 = st.columns([1, 1], vertical_alignment="bottom")
allowed_key = remembered("handover_allowed", True)
use_abstain = a1.toggle(t.HANDOVER_ALLOWED, key=allowed_key, on_change=keep, args=("handover_allowed",))
mirror("handover_allowed")
price_key = remembered("handover_price", 1.0)  # a link's value is bounded like the widget: a sentence, no box
h = a2.number_input(
    t.in_unit(t.HANDOVER_PRICE, unit),
    min_value=settings.PRICE.low,
    max_value=settings.PRICE.high,
    step=0.1,
    key=price_key,
    on_change=keep,
    args=("handover_price",),
    disabled=not use_abstain,
    help=t.HANDOVER_PRICE_HELP,
)
mirror("handover_price")
setting_notes()

abstain = h if use_abstain else None
answer = memo(
    "matrix_answer",
    ds,
    (c_mat.tobytes(), abstain, h, unit, volume),
    lambda: answers.matrix_answer(ds, c_mat, abstain, handover_price=h, unit=unit, volume=volume),
)
st.subheader(t.WHAT_TO_SHIP)
show_verdict(answer.verdict, sample=fallback_title())
show_metrics(answer.metrics)
show_table(answer.table, "policies", key="policies", export=answer.export)

if not details_setting(answers.MATRIX_DETAILS):
    st.stop()
shown = st.radio(
    t.HEATMAPS_FOR, answer.policies_with_model, horizontal=True, key="heat_policy", format_func=answer.policy_option
)
confusion_fig, cost_fig, caption = answer.heatmaps(shown)
cols = st.columns(2)
show_chart(confusion_fig, key="confusion_chart", where=cols[0], words_where=st)
show_chart(cost_fig, key="contribution_chart", where=cols[1], words_where=st)
st.caption(caption)
