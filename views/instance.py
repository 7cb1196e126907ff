"""Instance costs: each case has its own price of being wrong; the answer prices the mistakes
by it, in the user's money (a mistake on a typical case costs what the page's price says)."""

import streamlit as st

from costlib import answers
from costlib.answers.instance import mistakes_free
from costlib.core import settings
from costlib.present import labels as t
from views._ui.data import fallback_title
from views._ui.details import details_setting
from views._ui.display import say, show_chart, show_live_table, show_verdict
from views._ui.memo import memo
from views._ui.page import live, setup
from views._ui.state import amount_input, keep, mirror, remembered, set_setting, setting, setting_notes

ds, unit, volume = setup(t.PAGE_INSTANCE, t.INSTANCE_WHAT, needs="delta")
answer = memo("instance_answer", ds, (), lambda: answers.instance_answer(ds))
price_at, _ = st.columns([1, 2])
# in the link, as every price is
price = amount_input(
    price_at, "mistake_price", settings.MISTAKE_PRICE, t.in_unit(t.TYPICAL_MISTAKE, unit), t.TYPICAL_MISTAKE_HELP
)
st.subheader(t.WHAT_TO_SHIP)
show_verdict(answer.verdict(price, unit, volume), sample=fallback_title())  # a sample instead: named
if mistakes_free(
    price
):  # every mistake free: the verdict said there is nothing to choose (as Costs does at prices all 0)
    st.stop()
say("caption", answer.sentence)
with st.expander(t.INSTANCE_TERMS):
    for term in answer.terms(price, unit):
        say("markdown", term)
c1, c2 = st.columns(2)
# each chart's words and table under the two columns, at the page's width: a table in a half column
# scrolled sideways, its headers cut ("cost of a mista…")
below = st.container()
show_chart(answer.figure(price, unit), key="nec_curve", where=c1, words_where=below)
with c2:
    if details_setting(answers.INSTANCE_DETAILS):
        show_chart(answer.delta_figure(price, unit), key="delta_hist", words_where=below)


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
        step=answer.cutoff_step,  # a key press moves it visibly (0.001 on probabilities)
        format=answer.cutoff_format,
        key=cutoff_key,
        on_change=keep,
        args=("cutoff",),
        help=t.CUTOFF_HELP,
    )
    mirror("cutoff")
    shown = answer.at_cutoff(threshold, price=price, unit=unit, volume=volume)
    show_chart(shown.figure, key="nec_bar")
    show_live_table(shown.overall, "nec", key="nec_table", export=shown.overall_csv)
    if len(shown.by_group):
        with st.expander(t.BY_GROUP):
            show_live_table(shown.by_group, "nec_by_group", key="nec_group_table", export=shown.by_group_csv)


explore()
