"""Instance costs: each case has its own price of being wrong; NEC weighs mistakes by it."""

import streamlit as st

from costlib import answers
from costlib.core import settings
from costlib.present import labels as t
from views._ui.details import details_setting
from views._ui.display import say, show_chart, show_live_table, show_verdict
from views._ui.memo import memo
from views._ui.page import live, setup
from views._ui.state import keep, mirror, remembered, set_setting, setting, setting_notes

ds, unit, volume = setup(t.PAGE_INSTANCE, t.INSTANCE_WHAT, needs="delta")
answer = memo("instance_answer", ds, (), lambda: answers.instance_answer(ds))
st.subheader(t.WHAT_TO_SHIP)
show_verdict(answer.verdict)
say("caption", answer.sentence)
c1, c2 = st.columns(2)
show_chart(answer.figure(), key="nec_curve", where=c1, words_where=st)
with c2:
    if details_setting(answers.INSTANCE_DETAILS):
        show_chart(answer.delta_figure(), key="delta_hist")


@live
def explore() -> None:
    """A cutoff to look at: reruns alone when its slider moves (the answer above does not move)."""
    st.subheader(t.EXPLORE_CUTOFF)
    low, high, start = answer.cutoff_range
    bound = settings.Bound(t.CUTOFF_NAME, low, high, start)  # this data's range: from the link through it, said
    if not low <= float(setting("cutoff", start)) <= high:  # the cutoff of other data
        set_setting("cutoff", start)
    cutoff_key = remembered("cutoff", start, bound=bound)
    setting_notes()
    threshold = st.slider(
        t.CUTOFF,
        min_value=low,
        max_value=high,
        step=0.0001,
        format="%.4f",
        key=cutoff_key,
        on_change=keep,
        args=("cutoff",),
        help=t.CUTOFF_HELP,
    )
    mirror("cutoff")
    fig, overall, by_group = answer.at_cutoff(threshold)
    show_chart(fig, key="nec_bar")
    show_live_table(overall, "nec", key="nec_table")
    if len(by_group):
        with st.expander(t.BY_GROUP):
            show_live_table(by_group, "nec_by_group", key="nec_group_table")


explore()
