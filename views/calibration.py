"""Calibration: are the probabilities what they say, for everyone and within each group? The
cutoffs computed from prices assume they are. The model checked first is the one Costs & groups
judges cheapest at these prices, whether or not its verdict ships it (the page says which)."""

import streamlit as st

from costlib import answers
from costlib.answers.calibration import costs_pick
from costlib.core import settings
from costlib.core.escaping import option_names
from costlib.present import calibration_group_words as gw
from costlib.present import calibration_words as cw
from costlib.present import labels as t
from views._ui.data import fallback_title, group_names, model_picker, model_sweeps
from views._ui.display import say, show_chart, show_live_table, show_metrics, show_verdict
from views._ui.memo import memo, memo_of
from views._ui.page import live, setup
from views._ui.policy import session_limit
from views._ui.prices import stored_costs
from views._ui.state import ensure_setting, keep, mirror, remembered, set_setting, setting, setting_notes

ds, unit, volume = setup(t.PAGE_CALIBRATION, cw.CALIBRATION_WHAT, needs="probabilities")
names = group_names(ds)
worth = float(setting("worth", 1.0)) or 1.0
costs = stored_costs(names)
moved_k = setting("k")


#: the model the picker was last put on for Costs & groups' pick (not one the visitor chose)
FOLLOWED = "_calibration_followed_pick"


def first_model():
    """Costs & groups' recommendation at these prices and review limit (`costs_pick`: the model it
    judges cheapest and whether it ships it, with one model too: the answer agrees with its verdict on
    shipping), remembered as that page remembers it."""
    models = model_sweeps(ds)
    ensure_setting("resamples", settings.RESAMPLES.default)  # Costs & groups' setting, from the link
    resamples = int(setting("resamples"))
    share = session_limit(volume)[1]
    return memo(
        "costs_pick_verdict",  # a `CostsPick` (it was the model's name alone)
        ds,
        (answers.prices_key(models, costs), resamples, share),
        lambda: costs_pick(models, costs, resamples=resamples, share=share, remember=memo_of(ds)),
    )


def open_on(pick: str) -> None:
    """Put the model picker on Costs & groups' pick: on the first visit (unless a link names another
    model of this data), when the model kept is not this data's, and when the prices move the pick
    while the picker still shows the pick it was put on; a model the visitor chose stays."""
    shown = option_names(list(ds.scores))
    ours = set(ds.scores) | {shown(m) for m in ds.scores}
    first = setting("model") is None
    ensure_setting("model", pick, valid=lambda v: v in ours)
    kept = setting("model")
    if kept not in ours or (first and kept == pick) or st.session_state.get(FOLLOWED) == kept:
        set_setting("model", pick)
        st.session_state[FOLLOWED] = pick


pick = first_model()
if pick is not None and len(ds.scores) > 1:  # one model: no picker to put on it
    open_on(pick.model)
model = model_picker(ds)
answer = memo(
    "calibration_answer",
    ds,
    (model, tuple(names), tuple(costs.items()), worth, moved_k, unit, volume, pick),
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
        pick=pick,
    ),
)
if answer.picked:
    say("caption", answer.picked)
say("caption", answer.money)
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
    show_verdict(shown.verdict, cw.TERMS_TITLE, sample=fallback_title())  # the technical names folded
    show_metrics(shown.metrics)
    show_chart(shown.figure, key="reliability")
    if shown.note:
        say("caption", shown.note)
    show_live_table(shown.table, "value_before_after", key="cal_value")
    say("caption", shown.caption)
    groups = shown.groups
    if groups is not None:
        st.subheader(gw.GROUPS_TITLE)
        say("caption", gw.GROUPS_WHAT)
        say("markdown", groups.sentence)
        show_live_table(groups.table, "calibration_by_group", key="cal_groups")
        show_chart(groups.figure, key="reliability_by_group")
        if groups.note:
            say("caption", groups.note)
        say("caption", groups.method)


live_calibration()
