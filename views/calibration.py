"""Calibration: are the probabilities what they say, for everyone and within each group? The
cutoffs computed from prices assume they are."""

import streamlit as st

from costlib import answers
from costlib.core import settings
from costlib.present import calibration_words as cw
from costlib.present import labels as t
from views._ui.data import fallback_title, group_names, model_picker
from views._ui.display import say, show_chart, show_live_table, show_metrics, show_verdict
from views._ui.memo import memo, memo_of
from views._ui.page import live, setup
from views._ui.prices import stored_costs
from views._ui.state import keep, mirror, remembered, setting, setting_notes

ds, unit, volume = setup(t.PAGE_CALIBRATION, cw.CALIBRATION_WHAT, needs="probabilities")
model = model_picker(ds)
names = group_names(ds)
worth = float(setting("worth", 1.0)) or 1.0
costs = stored_costs(names)
moved_k = setting("k")
answer = memo(
    "calibration_answer",
    ds,
    (model, tuple(names), tuple(costs.items()), worth, moved_k, unit, volume),
    lambda: answers.calibration_answer(
        ds,
        model,
        names=names,
        costs=costs,
        worth=worth,
        moved_k=moved_k,
        unit=unit,
        volume=volume,
        remember=memo_of(ds),
    ),
)
if answer.warning is not None:
    st.warning(answer.warning)


@live
def live_calibration() -> None:
    """The bins in; the reliability, its verdict and each group's calibration out: reruns alone
    when the bins move (each group's bootstrap is remembered per model and bins)."""
    bins_key = remembered("bins", int(settings.BINS.default))  # from the link through its bound, said when out
    setting_notes()
    bins = st.columns([1, 1])[0].slider(
        cw.BINS,
        min_value=int(settings.BINS.low),
        max_value=int(settings.BINS.high),
        key=bins_key,
        on_change=keep,
        args=("bins",),
        help=cw.BINS_HELP,
    )
    mirror("bins")
    shown = answer.at(bins)
    show_verdict(shown.verdict, sample=fallback_title())
    show_metrics(shown.metrics)
    show_chart(shown.figure, key="reliability")
    if shown.note:
        say("caption", shown.note)
    show_live_table(shown.table, "value_before_after", key="cal_value")
    say("caption", shown.caption)
    groups = shown.groups
    if groups is not None:
        st.subheader(cw.GROUPS_TITLE)
        say("caption", cw.GROUPS_WHAT)
        say("markdown", groups.sentence)
        show_live_table(groups.table, "calibration_by_group", key="cal_groups")
        show_chart(groups.figure, key="reliability_by_group")
        if groups.note:
            say("caption", groups.note)
        say("caption", groups.method)


live_calibration()
