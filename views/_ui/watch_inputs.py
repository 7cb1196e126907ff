"""Watch's inputs and what the session keeps of them: the newer cases (an upload or a data-folder
file's columns), the policy (a file, or what Costs & groups recommends now), the columns of each
role, and the last ones that read, kept so that a refused upload (or a removed policy) leaves them
in use, as the Data page keeps its data, and so that the page opened again answers them again.

`watch_inputs` draws the widgets the step needs and returns the inputs to answer (`WatchInputs`),
or stops the page with what it waits for; where the page is comes from
`costlib.answers.watch_inputs.watch_step`, which needs no Streamlit. The built-in year's results
are kept once for the whole server (`memo_for`)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from costlib import answers, loading
from costlib.answers import watch_inputs as steps
from costlib.answers.costs import audit_maker
from costlib.answers.watch import sample_files, sample_note
from costlib.answers.watch_inputs import column_choices, content_key, guess_notes, score_column_words, score_missing
from costlib.core.errors import DataError
from costlib.core.escaping import option_names
from costlib.loading.ledger import LEDGER, held_bytes
from costlib.loading.messages import WHAT_READING
from costlib.present import labels as t
from costlib.present import watch_labels as w
from costlib.present.policy_restore import restore_refusal
from costlib.scale import bigdata, snapshot
from views._ui.data import current_dataset, data_in_use, fallback_title, group_names, model_sweeps
from views._ui.display import say
from views._ui.memo import SHARED, dataset_key, recall, remember
from views._ui.memory import account
from views._ui.policy import session_limit
from views._ui.prices import stored_costs
from views._ui.refused import say_not_loaded
from views._ui.state import current

CASES_KEPT = 2  # uploaded files of newer cases a session keeps parsed (by content)
CASES_STORE = "_watch_cases"  # the memo store of the parsed uploads of newer cases
LAST = "_watch_last"  # the session's last own inputs: back on this page after the refit, they are still here
#: the last uploaded policy and cases that read, (name, content key) each: a refused upload, or the policy's
#: removed, leaves them in use (as the Data page keeps its data), said under the refusal. Their values stay
#: where they were read into (the memo and the cases' store, the session's data `memory.SESSION_DATA` drops)
GOOD_POLICY, GOOD_CASES = "_watch_good_policy", "_watch_good_cases"
SCORE_FOR = "_watch_score_for"  # the (policy, cases) the score column was picked for
SAMPLE = ("sample",)  # the source of the built-in year: the same inputs in every session


@dataclass(frozen=True)
class WatchInputs:
    """What the page answers: the policy, the cases `df` (named `name`) and their `columns` by role,
    `source` (what they are remembered by: `SAMPLE`, or the policy's and the cases' keys), and
    `which` policy source the person chose; `own`: the cases were given in this run."""

    policy: dict
    df: pd.DataFrame
    name: str
    columns: dict
    source: tuple
    which: str
    own: bool


def memo_for(source):
    """The memo for what is made from `source`: the built-in year's periods, answer and refit are
    made once for the whole server (`SHARED`, as the other built-in samples' results are), so a
    second visitor's first answer is not judged and resampled again; a session's own inputs stay
    in its own memo."""
    return SHARED.get if source == SAMPLE else remember


def keep_last(inputs: WatchInputs) -> None:
    """The session's own inputs, answered: kept for when the page is opened again."""
    if inputs.own:
        st.session_state[LAST] = (
            inputs.policy, inputs.df, inputs.name, inputs.columns, inputs.source, inputs.which,
        )  # fmt: skip


def _current_policy(volume, unit):
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
        data = upload.getvalue()
        digest = content_key(data)
        name = loading.display_name(upload.name)
        limit = LEDGER.allowance(account(), (CASES_STORE, digest))
        try:
            table = remember(
                digest,
                lambda: answers.read_cases(data, upload.name, limit=limit),
                store=CASES_STORE,
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


def _to_the_sample() -> None:
    """The built-in year under its own policy: the session's last inputs dropped, and the cutoff to
    watch is a policy file again (the sample's; under "what Costs & groups recommends now" the page
    would wait for cases instead)."""
    for kept in (LAST, GOOD_POLICY, GOOD_CASES):
        st.session_state.pop(kept, None)
    st.session_state["watch_which"] = w.FROM_FILE


def _good(which: str, store: str, key_of) -> tuple | None:
    """(value, name, content key) of the last upload that read, recorded under `which`, its value
    read back from the memo `store` (under ``key_of(content key)``, `memo.recall`); None without one,
    or once the store no longer keeps it."""
    good = st.session_state.get(which)
    value = None if good is None else recall(key_of(good[1]), store)
    return None if value is None else (value, *good)


def _good_cases() -> tuple | None:
    return _good(GOOD_CASES, CASES_STORE, lambda digest: digest)


def _good_policy() -> tuple | None:
    return _good(GOOD_POLICY, "_memo", lambda key: ("watch_policy", key))


def _earlier_still_in_use(err: DataError, message: str, name: str, kept: tuple | None) -> tuple:
    """After the upload `name` was refused (`err`, said as `message`): the last file of its kind that
    read (`kept`, from `_good`) stays in use, said under the refusal as the Data page says it
    (`refused.say_not_loaded`); without one, the refusal alone."""
    if kept is None:
        if message == err.message:
            raise err
        raise DataError(message, column=err.column) from None
    say_not_loaded(message, name, previous=kept[1], stage="file")
    return kept


def _policy(upload) -> tuple:
    """(policy, name, content key) of the uploaded policy file `upload`: read (by content), or, when
    it is refused or removed, the last one that read, still in use and said so."""
    if upload is None:
        kept = _good_policy()  # there is one: the page asks for a policy otherwise
        say("info", t.previous_upload_sentence(kept[1]))
        return kept
    data = upload.getvalue()
    key = content_key(data)
    name = loading.display_name(upload.name)
    try:
        policy = remember(("watch_policy", key), lambda: answers.read_watched_policy(data))
    except DataError as err:  # named as every refused upload is (`policy_restore.restore_refusal`)
        return _earlier_still_in_use(err, restore_refusal(err, upload.name), name, _good_policy())
    st.session_state[GOOD_POLICY] = (name, key)
    return policy, name, key


def _say_watched(policy, *, now: bool = True) -> None:
    """Which cutoff "What Costs & groups recommends now" watches: its data, model and cutoff, and
    the data chosen in the sidebar when the policy is fitted on other data: the built-in sample
    `current_dataset` fell back on this run (`now`), or the data of the last inputs."""
    upload, sample = data_in_use()
    chosen = upload or sample
    said = w.current_watched(policy, t.DATA_WORDS["data"], chosen=chosen, answerable=not now or not fallback_title())
    say("markdown", said)


def _pick(where, label: str, options: list, guess, key: str, optional: bool = False):
    """The column chosen for a role (`column_choices`): None for no column, or until the person picks one."""
    choices, index = column_choices(options, guess, optional=optional)
    chosen = where.selectbox(
        label, choices, index=index, key=key, format_func=option_names(choices), placeholder=w.PICK_COLUMN
    )
    return None if chosen == w.NO_COLUMN else chosen


def _back_to_the_sample(say_first, key: str) -> None:
    """`say_first(where)` beside the button back to the built-in year (keyed `key`)."""
    n1, n2 = st.columns([3, 1], vertical_alignment="center")
    say_first(n1)
    n2.button(w.SAMPLE_BUTTON, key=key, on_click=_to_the_sample)


def _the_sample() -> tuple:
    """The built-in year under its policy, with its files and the command line that watches them."""
    policy, df = SHARED.get(("watch_sample",), answers.sample_inputs)
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
    return policy, df, w.SAMPLE_YEAR, dict(answers.SAMPLE_COLUMNS), SAMPLE


def _columns(df: pd.DataFrame, name: str, policy: dict, p_key, c_key) -> dict:
    """The column of each role in the cases `df` (guessed first, then as picked), with why a role the
    guess left empty has none and which score column is watched; stops the page until the date and
    the score have one."""
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
    return columns


def watch_inputs(which: str, policy_upload, where, *, volume, unit) -> WatchInputs:
    """The inputs to answer: the cases (their widgets drawn in `where`) and the policy, a file
    (`policy_upload`) or what Costs & groups recommends now (`which`); the session's last inputs
    or the built-in year without cases. Stops the page, saying what it waits for, until there are
    both; raises `DataError` for inputs that cannot be watched."""
    cases = _cases(where)
    last = st.session_state.get(LAST)
    step = steps.watch_step(
        from_costs=which == w.FROM_COSTS,
        policy_given=policy_upload is not None,
        cases_given=cases is not None,
        last_from_costs=None if last is None else last[-1] == w.FROM_COSTS,
        earlier_policy=lambda: _good_policy() is not None,
    )
    if step == steps.WAIT_CASES:
        say("info", w.NEEDS_CASES)
        st.stop()
    if step == steps.WAIT_CASES_NOW:
        _say_watched(_current_policy(volume, unit)[0])
        say("info", w.NEEDS_CASES_NOW)  # not the built-in year's own policy, as if the choice did nothing
        # where the built-in year went, and the way back
        _back_to_the_sample(lambda n1: say("caption", w.SAMPLE_HIDDEN, where=n1), "watch_sample_now")
        st.stop()
    if step == steps.WAIT_POLICY:
        say("info", w.NEEDS_POLICY)
        st.stop()
    if step == steps.LAST_INPUTS:
        policy, df, name, columns, source, _ = last
        if which == w.FROM_COSTS:
            _say_watched(policy, now=False)
        _back_to_the_sample(lambda n1: say("info", w.LAST_NOTE.format(name=name), where=n1), "watch_sample_again")
        return WatchInputs(policy, df, name, columns, source, which, own=False)
    if step == steps.SAMPLE_YEAR:
        policy, df, name, columns, source = _the_sample()
        return WatchInputs(policy, df, name, columns, source, which, own=False)
    df, name, c_key = cases
    if which == w.FROM_FILE:
        policy, _, p_key = _policy(policy_upload)
    else:
        policy, p_key = _current_policy(volume, unit)
        _say_watched(policy)
    columns = _columns(df, name, policy, p_key, c_key)
    return WatchInputs(policy, df, name, columns, (p_key, c_key), which, own=True)
