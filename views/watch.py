"""Watch: is the cutoff we shipped still the right one?"""

from dataclasses import replace

import streamlit as st

from costlib import answers
from costlib.answers.watch import WATCH_RESAMPLES
from costlib.answers.watch_inputs import cutoff_words, period_offer
from costlib.core.errors import DataError
from costlib.core.escaping import md_escape
from costlib.core.link import Settings
from costlib.present import labels as t
from costlib.present import watch_labels as w
from costlib.present.policy_restore import policy_settings, restored_fields
from costlib.present.watch_tables import watch_group_numbers
from costlib.present.watch_words import WATCH_WHAT
from costlib.watch.periods import FREQS
from views._ui.data import COSTS_PAGE, UPLOAD, choose_data, group_names, replace_upload
from views._ui.display import page_header, say, show_chart, show_error, show_table, show_verdict
from views._ui.page import REFIT_SHIPPED, read_shared, unit_and_volume
from views._ui.policy import set_policy_prices
from views._ui.prices import read_costs
from views._ui.state import adopt, current, ensure_setting, peek
from views._ui.watch_inputs import keep_last, memo_for, watch_inputs

#: the person's settings before the refit opened, kept to put back (`w.REFIT_UNDO`): (theirs, the policy's,
#: the fields the refit set, the data chosen); and the sentence said once they are back
REFIT_BEFORE, REFIT_UNDONE = "_watch_refit_before", "_watch_refit_undone"

page_header(t.PAGE_WATCH, WATCH_WHAT)
unit, volume = unit_and_volume()

c1, c2 = st.columns(2)
which = c1.radio(w.WATCH_WHICH, w.POLICY_SOURCES, horizontal=True, key="watch_which", help=w.POLICY_SOURCE_HELP)
policy_upload = None
if which == w.FROM_FILE:
    policy_upload = c1.file_uploader(w.POLICY_LABEL, type=["json"], key="watch_policy", help=w.POLICY_UPLOAD_HELP)

try:
    got = watch_inputs(which, policy_upload, c2, volume=volume, unit=unit)  # stops the page until both are given
    policy, df, name, columns, source = got.policy, got.df, got.name, got.columns, got.source
    say(*answers.sign_off_note(policy))  # said with the policy read, whatever the answer meets below
    for line in cutoff_words(policy):  # a cutoff that flags nobody or everyone: said, not refused
        say("warning", line)
    dates = columns["time"]
    keep = memo_for(source)
    # only the periods a watch can judge; the others named once
    offered, not_offered = keep(("watch_period_counts", source, name, dates), lambda: period_offer(df[dates]))
    if st.session_state.get("watch_freq") not in offered:
        st.session_state.pop("watch_freq", None)  # a period these cases cannot offer: back to months
    f1, f2 = st.columns([1, 3], vertical_alignment="bottom")
    freq = f1.selectbox(w.PERIODS, offered, format_func=lambda f: w.PERIOD_NAME.format(name=FREQS[f]), key="watch_freq")
    if not_offered:
        f2.caption(not_offered)
    read = ("watch_answer", source, name, tuple(sorted(columns.items())), freq)  # what the periods depend on
    key = (*read, unit)
    answer = keep(
        key,
        lambda: answers.watch_answer(
            policy, df, name=name, columns=columns, freq=freq, n_resamples=WATCH_RESAMPLES, unit=unit,
            remember=lambda what, args, compute, read=read, keep=keep: keep((what, read, *args), compute),
        ),
    )  # fmt: skip
    keep_last(got)  # the session's own inputs answered: kept for when the page is opened again
except DataError as err:
    show_error(err)
    st.stop()
except ValueError as err:  # a policy that does not fit the cases (a group without a cutoff): its sentence
    say("error", str(err))
    st.stop()

st.subheader(w.WHAT_TO_DO)
refit = refused = None
if answer.refit_offered:
    try:
        refit = answer.refit(volume)
    except (DataError, ValueError) as err:  # ValueError: a policy that does not fit these cases, as above
        refused = err
verdict = answer.verdict_for(refit, volume)  # amounts a month at the sidebar's cases a month, named
shipped, *details = verdict.details  # what the policy ships comes first (`watch_verdict`)
show_verdict(replace(verdict, details=(shipped,)))  # the headline and what is shipped now
if isinstance(refused, DataError):
    show_error(refused)
elif refused is not None:
    say("error", str(refused))
ship = answer.ship_words(refit, volume)  # the one cutoff to ship, then the other candidate, not chosen
for i, line in enumerate(ship):
    say("markdown" if i == 0 else "caption", line)
if REFIT_UNDONE in st.session_state:
    say("success", st.session_state.pop(REFIT_UNDONE))
if REFIT_BEFORE in st.session_state:  # the refit changed the person's settings: said, and put back on request
    before, after, fields, data = st.session_state[REFIT_BEFORE]
    now = current()  # a setting the person moved since is theirs: neither said nor put back
    fields = tuple(f for f in fields if getattr(now, f) == getattr(after, f))
    if not w.refit_changes(before, after, fields):  # nothing of the refit's settings is left
        del st.session_state[REFIT_BEFORE]
if REFIT_BEFORE in st.session_state:
    u1, u2 = st.columns([3, 1], vertical_alignment="center")
    say("info", w.refit_changed(w.refit_changes(before, after, fields), upload_gone=data == UPLOAD), where=u1)
    if u2.button(w.REFIT_UNDO, key="watch_refit_undo", width="stretch"):
        adopt(before, fields)
        if data is not None and data != UPLOAD:  # a built-in sample; an upload the refit replaced is gone
            choose_data(data)
        del st.session_state[REFIT_BEFORE]
        st.session_state[REFIT_UNDONE] = w.refit_undone(w.refit_changes(after, before, fields))
        st.rerun()  # the sidebar, drawn above, shows the settings put back
if refit is not None:
    # The refit opens at the policy's settings (its review limit, amounts a month and policy file are
    # written for them: see `w.REFIT_CHANGES`); each shared setting it changes is listed where it is pressed.
    read_costs([])  # the person's prices, review limit and tolerance, from their link when no page read them yet
    read_shared()
    ensure_setting("tolerance", Settings.tolerance)
    mine = current()
    fields = restored_fields(refit.policy, mine)
    try:
        theirs = policy_settings(refit.policy, list(refit.policy["prices"]), mine)
    except DataError:  # said when pressed, by `set_policy_prices`
        theirs = mine
    changes = w.refit_changes(mine, theirs, fields)
    say("caption", w.refit_what(refit.policy, volume, listed=True, same=not changes))
    say("warning" if changes else "caption", w.refit_notice(changes))
    if st.button(w.REFIT_BUTTON, key="watch_refit", type="primary", help=w.refit_notice(changes)):
        try:
            ds_new = refit.dataset(repr(key).encode())
            set_policy_prices(refit.policy, group_names(ds_new))
        except DataError as err:
            show_error(err)
        else:
            kept = st.session_state.get(REFIT_BEFORE)
            if kept is not None:  # a second refit: the settings to put back are still those from before the first
                st.session_state[REFIT_BEFORE] = (kept[0], theirs, tuple(dict.fromkeys(kept[2] + fields)), kept[3])
            elif changes:
                st.session_state[REFIT_BEFORE] = (mine, theirs, fields, peek("data"))
            replace_upload(ds_new)
            if REFIT_BEFORE in st.session_state:
                changes = w.refit_changes(*st.session_state[REFIT_BEFORE][:3])
            handed = w.refit_handed(refit.sentence, changes)
            # Costs & groups says the sentence and marks the shipped cutoffs while it shows this data
            st.session_state[REFIT_SHIPPED] = (ds_new.fingerprint, dict(refit.shipped), handed)
            st.switch_page(COSTS_PAGE)
if details:
    st.caption("\n\n".join(md_escape(line) for line in details))
show_chart(answer.figure, key="watch_chart")
show_table(answer.table, "watch_periods", key="watch_periods", data=name)  # named for the newer cases
if refit is not None:
    st.subheader(w.REFIT_TITLE)
    st.caption(w.REFIT_CHART)
    show_chart(answer.refit_figure(refit), key="watch_refit_chart")
if answer.readings is not None:
    st.subheader(w.READINGS_HEADER)
    st.caption(answer.readings_what)
    show_table(
        answer.readings, "watch_readings", key="watch_readings", column_config=answer.readings_columns, data=name
    )
if answer.groups is not None:
    st.subheader(w.GROUPS_HEADER)
    st.caption(answer.groups_what)
    show_table(
        answer.groups, "watch_groups", key="watch_groups", column_config=answer.groups_columns,
        export=watch_group_numbers(answer.report), data=name,
    )  # fmt: skip
