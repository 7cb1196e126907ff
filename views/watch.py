"""Watch: is the cutoff we shipped still the right one?"""

import hashlib
from dataclasses import replace

import streamlit as st

from costlib import answers, loading
from costlib.answers.costs import audit_maker
from costlib.answers.watch import WATCH_RESAMPLES, sample_files, sample_note
from costlib.answers.watch_inputs import cutoff_words, guess_notes, score_column_words, score_missing
from costlib.core.errors import DataError
from costlib.core.escaping import md_escape, option_names
from costlib.loading.ledger import LEDGER, held_bytes
from costlib.loading.messages import WHAT_READING
from costlib.present import labels as t
from costlib.present import watch_labels as w
from costlib.present.policy_restore import restore_refusal
from costlib.present.watch_periods import period_choice
from costlib.present.watch_words import WATCH_WHAT
from costlib.scale import bigdata, snapshot
from costlib.watch.periods import FREQS, period_counts
from views._ui.data import COSTS_PAGE, current_dataset, group_names, model_sweeps, replace_upload
from views._ui.display import page_header, say, show_chart, show_error, show_table, show_verdict
from views._ui.memo import SHARED, dataset_key, remember
from views._ui.memory import account
from views._ui.page import REFIT_SHIPPED, unit_and_volume
from views._ui.policy import session_limit, set_policy_prices
from views._ui.prices import stored_costs
from views._ui.state import current

page_header(t.PAGE_WATCH, WATCH_WHAT)
unit, volume = unit_and_volume()


def _content(upload) -> tuple[bytes, str]:
    data = upload.getvalue()
    return data, hashlib.sha256(data).hexdigest()  # remembered by content, never by file name


def _current_policy():
    """The policy Costs & groups recommends now, for the data in the sidebar (remembered by
    everything the audit reads: data, prices, review limit, volume, unit and the session's
    interval, fairness and price-question settings)."""
    ds = current_dataset(needs="binary")
    if ds is None:
        st.stop()
    costs = stored_costs(group_names(ds))
    cap, share, _ = session_limit(volume)
    models = model_sweeps(ds)
    chosen = current()
    build = audit_maker(models, costs, ds, chosen, cap=cap, unit=unit, volume=volume, criteria=())
    key = ("watch_current", dataset_key(ds), answers.prices_key(models, costs), share, cap, unit, volume)
    key += (chosen.resamples, chosen.tolerance, repr(chosen.price_questions), chosen.reference_group)
    return remember(key, lambda: answers.current_policy(build)), key


def _cases(where):
    """(table, name, key) of the newer cases: an upload, or a data-folder file's columns; None until given."""
    folder = bigdata.data_folder()
    files = bigdata.list_files(folder) if folder is not None else []
    kinds = [w.CASES_UPLOADED, w.CASES_FOLDER] if files else [w.CASES_UPLOADED]
    kind = where.radio(w.NEWER_CASES, kinds, horizontal=True, key="watch_from")
    if kind == w.CASES_UPLOADED:
        upload = where.file_uploader(w.CASES_LABEL, type=["csv", "parquet"], key="watch_cases")
        if upload is None:
            return None
        data, digest = _content(upload)
        name = loading.display_name(upload.name)
        limit = LEDGER.allowance(account(), ("_watch_cases", digest))
        try:
            table = remember(
                digest,
                lambda: answers.read_cases(data, upload.name, limit=limit),
                store="_watch_cases",
                size=CASES_KEPT,
                weigh=held_bytes,
                need=lambda: min(limit.peak, loading.read_peak(data)),
                what=WHAT_READING.format(name=name),
            )
        except DataError as err:  # refused: the last cases that read stay in use
            return _earlier_still_in_use(err, err.message, name, _good_cases())
        st.session_state[GOOD_CASES] = (name, digest)
        return table, name, digest
    picked = where.selectbox(t.FILE, files, key="watch_folder_file")
    path = bigdata.safe_path(folder, picked)
    names = bigdata.columns_of(path)
    chosen = where.multiselect(w.FOLDER_COLUMNS, names, key="watch_folder_cols", format_func=option_names(names))
    if not chosen:
        return None
    key = (snapshot.identity(path), tuple(chosen))  # the file's version, not its name and time: see snapshot
    return remember(("watch_folder", key), lambda: answers.folder_cases(path, chosen)), picked, key


c1, c2 = st.columns(2)
which = c1.radio(w.WATCH_WHICH, w.POLICY_SOURCES, horizontal=True, key="watch_which", help=w.POLICY_SOURCE_HELP)
policy_upload = None
if which == w.FROM_FILE:
    policy_upload = c1.file_uploader(w.POLICY_LABEL, type=["json"], key="watch_policy", help=w.POLICY_UPLOAD_HELP)
CASES_KEPT = 2  # uploaded files of newer cases a session keeps parsed (by content)
LAST = "_watch_last"  # the session's last own inputs: back on this page after the refit, they are still here
#: the last uploaded policy and cases that read, (name, content key) each: a refused upload, or the policy's
#: removed, leaves them in use (as the Data page keeps its data), said under the refusal. Their values stay
#: where they were read into (the memo and the cases' store, the session's data `memory.SESSION_DATA` drops)
GOOD_POLICY, GOOD_CASES = "_watch_good_policy", "_watch_good_cases"
SCORE_FOR = "_watch_score_for"  # the (policy, cases) the score column was picked for
SAMPLE = ("sample",)  # the source of the built-in year: the same inputs in every session


def _keep(source):
    """The memo for what is made from `source`: the built-in year's periods, answer and refit are
    made once for the whole server (`SHARED`, as the other built-in samples' results are), so a
    second visitor's first answer is not judged and resampled again; a session's own inputs stay
    in its own memo."""
    return SHARED.get if source == SAMPLE else remember


def _to_the_sample() -> None:
    """The built-in year under its own policy: the session's last inputs dropped, and the cutoff to
    watch is a policy file again (the sample's; under "what Costs & groups recommends now" the page
    would wait for cases instead)."""
    for kept in (LAST, GOOD_POLICY, GOOD_CASES):
        st.session_state.pop(kept, None)
    st.session_state["watch_which"] = w.FROM_FILE


def _still_kept(store: str, key):
    """The value the session's memo `store` still keeps under `key` (now its most recent), None once gone."""
    kept = st.session_state.get(store) or {}
    if key not in kept:
        return None
    kept.move_to_end(key)
    return kept[key]


def _good(which: str, store: str, key_of) -> tuple | None:
    """(value, name, content key) of the last upload that read, recorded under `which`, its value
    read back from the memo `store` (under ``key_of(content key)``); None without one."""
    good = st.session_state.get(which)
    value = None if good is None else _still_kept(store, key_of(good[1]))
    return None if value is None else (value, *good)


def _good_cases() -> tuple | None:
    return _good(GOOD_CASES, "_watch_cases", lambda digest: digest)


def _good_policy() -> tuple | None:
    return _good(GOOD_POLICY, "_memo", lambda key: ("watch_policy", key))


def _earlier_still_in_use(err: DataError, message: str, name: str, kept: tuple | None) -> tuple:
    """After the upload `name` was refused (`err`, said as `message`): the last file of its kind that
    read (`kept`, from `_good`) stays in use, said under the refusal in the Data page's words
    (`labels.not_loaded_sentence`); without one, the refusal alone."""
    if kept is None:
        if message == err.message:
            raise err
        raise DataError(message, column=err.column) from None
    said = t.not_loaded_sentence(name, previous=kept[1], stage="file")
    say("error", f"{message} {said}")
    return kept


def _policy(upload) -> tuple:
    """(policy, name, content key) of the uploaded policy file `upload`: read (by content), or, when
    it is refused or removed, the last one that read, still in use and said so."""
    if upload is None:
        kept = _good_policy()  # there is one: the page asks for a policy otherwise
        say("info", t.previous_upload_sentence(kept[1]))
        return kept
    data, key = _content(upload)
    name = loading.display_name(upload.name)
    try:
        policy = remember(("watch_policy", key), lambda: answers.read_watched_policy(data))
    except DataError as err:  # named as every refused upload is (`policy_restore.restore_refusal`)
        return _earlier_still_in_use(err, restore_refusal(err, upload.name), name, _good_policy())
    st.session_state[GOOD_POLICY] = (name, key)
    return policy, name, key


def _say_watched(policy) -> None:
    """Which cutoff "What Costs & groups recommends now" watches: its data, model and cutoff."""
    say("markdown", w.current_watched(policy, t.DATA_WORDS["data"]))


def _pick(where, label: str, options: list, guess, key: str, optional: bool = False):
    """The column chosen for a role: the guess first; a role that must have a column and has no
    guess waits for the person's pick (None until then), never the first column."""
    choices = [w.NO_COLUMN, *options] if optional else options
    index = choices.index(guess) if guess in choices else 0 if optional else None
    chosen = where.selectbox(
        label, choices, index=index, key=key, format_func=option_names(choices), placeholder=w.PICK_COLUMN
    )
    return None if chosen == w.NO_COLUMN else chosen


try:
    cases = _cases(c2)
    given_policy = which == w.FROM_COSTS or policy_upload is not None
    if cases is None and given_policy and which == w.FROM_FILE:
        say("info", w.NEEDS_CASES)
        st.stop()
    last = st.session_state.get(LAST)
    if last is not None and which == w.FROM_COSTS and last[-1] != which:
        last = None  # inputs watched under a policy file: not what Costs & groups recommends now
    if cases is None and which == w.FROM_COSTS and last is None:
        _say_watched(_current_policy()[0])
        say("info", w.NEEDS_CASES_NOW)  # not the built-in year's own policy, as if the choice did nothing
        n1, n2 = st.columns([3, 1], vertical_alignment="center")
        say("caption", w.SAMPLE_HIDDEN, where=n1)  # where the built-in year went, and the way back
        n2.button(w.SAMPLE_BUTTON, key="watch_sample_now", on_click=_to_the_sample)
        st.stop()
    if cases is not None and not given_policy and _good_policy() is None:
        say("info", w.NEEDS_POLICY)
        st.stop()
    if cases is None:
        if last is not None:
            policy, df, name, columns, source, _ = last
            if which == w.FROM_COSTS:
                _say_watched(policy)
            n1, n2 = st.columns([3, 1], vertical_alignment="center")
            say("info", w.LAST_NOTE.format(name=name), where=n1)
            n2.button(w.SAMPLE_BUTTON, key="watch_sample_again", on_click=_to_the_sample)
        else:
            policy, df = SHARED.get(("watch_sample",), answers.sample_inputs)
            name, columns, source = w.SAMPLE_YEAR, dict(answers.SAMPLE_COLUMNS), SAMPLE
            say("info", sample_note())
            files = SHARED.get(("watch_sample_files",), sample_files)
            with st.expander(w.SAMPLE_CLI_TITLE):  # the command line is a detail, not the page's first words
                st.caption(files.what)
                # cut only between arguments, never inside a flag; plain text: the shell colours fail WCAG's contrast
                st.code(files.shell, language=None)
            with st.container(horizontal=True):  # each button as wide as its words: none cut
                st.download_button(
                    w.DOWNLOAD_SAMPLE_CASES, data=files.cases, file_name=files.cases_name, mime="text/csv",
                    key="dl_watch_cases", on_click="ignore",
                )  # fmt: skip
                st.download_button(
                    w.DOWNLOAD_SAMPLE_POLICY, data=files.policy, file_name=files.policy_name,
                    mime="application/json", key="dl_watch_policy", on_click="ignore",
                )  # fmt: skip
    else:
        df, name, c_key = cases
        if which == w.FROM_FILE:
            policy, _, p_key = _policy(policy_upload)
        else:
            policy, p_key = _current_policy()
            _say_watched(policy)
        source = (p_key, c_key)
        options = list(df.columns)
        guess = remember(("watch_guess", c_key, p_key), lambda: answers.guess_columns(df, policy))
        if st.session_state.get(SCORE_FOR) != (p_key, c_key):  # other inputs: a score picked for others is not kept
            st.session_state[SCORE_FOR] = (p_key, c_key)
            if score_missing(policy, options):
                st.session_state.pop("watch_score", None)
        s1, s2, s3, s4 = st.columns(4)
        columns = {
            "time": _pick(s1, w.DATE_COLUMN, options, guess["time"], "watch_time"),
            "score": _pick(s2, w.SCORE_COLUMN, options, guess["score"], "watch_score"),
            "label": _pick(s3, w.OUTCOME_COLUMN, options, guess["label"], "watch_label", optional=True),
            "group": _pick(s4, t.GROUP_COLUMN, options, guess["group"], "watch_group", optional=True),
        }
        notes = remember(("watch_notes", c_key, p_key), lambda: guess_notes(df, guess, name=name, policy=policy))
        for role, note in notes.items():  # why a role the guess left empty has no column
            if columns[role] is None:
                say("info", note)
        score_words = score_column_words(policy, options, columns["score"], name=name)
        if score_words:  # the policy's score column is not the one watched: never silently
            say("warning", score_words)
        if columns["time"] is None or columns["score"] is None:
            st.stop()
        if columns["time"] == columns["score"]:
            raise DataError(answers.MSG_SAME_COLUMN.format(column=columns["time"]), column=columns["time"])
    say(*answers.sign_off_note(policy))  # said with the policy read, whatever the answer meets below
    for line in cutoff_words(policy):  # a cutoff probabilities never reach (or always pass): said, not refused
        say("warning", line)
    dates = columns["time"]
    keep = _keep(source)
    counts = keep(("watch_period_counts", source, name, dates), lambda: period_counts(df[dates]))
    offered, not_offered = period_choice(counts)  # only the periods a watch can judge; the others named once
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
    if cases is not None:  # the session's own inputs answered: kept for when the page is opened again
        st.session_state[LAST] = (policy, df, name, columns, source, which)
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
shipped, *details = answer.verdict.details  # what the policy ships comes first (`watch_verdict`)
show_verdict(replace(answer.verdict_for(refit), details=(shipped,)))  # the headline and what is shipped now
if isinstance(refused, DataError):
    show_error(refused)
elif refused is not None:
    say("error", str(refused))
ship = answer.ship_words(refit, volume)  # the one cutoff to ship, then the other candidate, not chosen
for i, line in enumerate(ship):
    say("markdown" if i == 0 else "caption", line)
if refit is not None:
    say("caption", answer.refit_what(refit, volume))  # the settings it puts in place of yours, before the click
    if st.button(w.REFIT_BUTTON, key="watch_refit", type="primary"):
        try:
            ds_new = refit.dataset(repr(key).encode())
            set_policy_prices(refit.policy, group_names(ds_new))
        except DataError as err:
            show_error(err)
        else:
            replace_upload(ds_new)
            # Costs & groups says the sentence and marks the shipped cutoffs while it shows this data
            st.session_state[REFIT_SHIPPED] = (ds_new.fingerprint, dict(refit.shipped), refit.sentence)
            st.switch_page(COSTS_PAGE)
if details:
    st.caption("\n\n".join(md_escape(line) for line in details))
show_chart(answer.figure, key="watch_chart")
show_table(answer.table, "watch_periods", key="watch_periods")
if refit is not None:
    st.subheader(w.REFIT_TITLE)
    st.caption(w.REFIT_CHART)
    show_chart(answer.refit_figure(refit), key="watch_refit_chart")
if answer.readings is not None:
    st.subheader(w.READINGS_HEADER)
    st.caption(answer.readings_what)
    show_table(answer.readings, "watch_readings", key="watch_readings", column_config=answer.readings_columns)
if answer.groups is not None:
    st.subheader(w.GROUPS_HEADER)
    st.caption(answer.groups_what)
    show_table(answer.groups, "watch_groups", key="watch_groups")
