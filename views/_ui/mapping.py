"""The Data page's column mapping: one widget per column role, seeded with the guess or with
what the user chose last for the same file (kept for the session, as the widgets' own values are
dropped once another page is shown), and what pressing “Use these columns” does."""

from __future__ import annotations

import dataclasses

import pandas as pd
import streamlit as st

from costlib import answers, loading
from costlib.answers.data import score_offers, unpriced_source
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.core.escaping import option_names
from costlib.present import labels as t
from views._ui.data import UPLOAD, data_in_use, replace_upload
from views._ui.display import say, show_error
from views._ui.loading import build_dataset_cached, kept_table
from views._ui.refused import say_not_loaded
from views._ui.state import setting

NONE = t.NO_COLUMN_CHOSEN
# the refusal the form shows under its button: (the sentence, whether it offered a fix to tick)
REFUSAL = "_refusal"


def choice(label: str, options: list[str], guess: str | None, key: str, where=st, **kw) -> str | None:
    opts = [NONE, *options]
    index = opts.index(guess) if guess in opts else 0
    value = where.selectbox(label, opts, index=index, key=key, format_func=option_names(opts), **kw)
    return None if value == NONE else value


def _numeric_pick(where, label: str, numeric: list[str], guess: str | None, key: str, wide: bool) -> str:
    """A numeric column for a role that must have one (no "(none)"), seeded with `guess`."""
    index = numeric.index(guess) if guess in numeric else 0
    return where.selectbox(
        label, numeric, index=index, key=key, format_func=option_names(numeric), accept_new_options=wide
    )


def mk(role: str) -> str:
    """The widget key of a mapping role for the current file."""
    return f"map_{role}_{st.session_state['_mapping_for'][:12]}"


def mapping_form(df: pd.DataFrame, guess: ColumnMapping) -> tuple[ColumnMapping, str]:
    """Widgets for every column role, seeded with `guess` (the first guess, or what the user
    chose last for this file: `chosen_mapping`); the mapping, and where each case's price is to
    come from (one of `labels.DELTA_SOURCES`).

    Their keys carry the file's fingerprint: a new file gets new widgets seeded with its own
    guess (deleting the old keys does not reset widgets the browser still shows). Column names
    and label values are offered through `option_names`: a name can be as long as a header.
    """
    # Every column is offered for every role: a text column mapped as scores gets a sentence
    # naming its bad rows, which helps more than a column that silently is not offered. A very
    # wide file offers the guessed columns and its first ones; any other can be typed in.
    offered = answers.mapping_choices(df, guess)
    cols, wide = offered.columns, offered.wide
    numeric = cols
    c1, c2 = st.columns(2)
    with c1:
        label = choice(t.MAP_LABEL, cols, guess.label, mk("label"), accept_new_options=wide)
        positive = None
        if label is not None:
            try:
                picker = answers.positive_choice(df, label, guess)
            except DataError as err:
                show_error(err)
                picker = None
            if picker is not None:
                values, first = picker
                positive = st.selectbox(
                    t.MAP_POSITIVE,
                    values,
                    key=mk("positive"),
                    format_func=option_names(values),
                    index=first,
                )
        scores = st.multiselect(
            t.MAP_SCORES,
            numeric,
            default=[s for s in guess.scores if s in numeric],
            key=mk("scores"),
            format_func=option_names(numeric),
            accept_new_options=wide,
        )
        if mk("scale") not in st.session_state:  # seeded here, not by index=, so a fix can set it
            st.session_state[mk("scale")] = guess.score_scale
        scale = st.radio(t.SCALE_LABEL, list(t.SCALES), format_func=t.SCALES.get, key=mk("scale"), horizontal=True)
    with c2:
        first_group = guess.group_columns[0] if guess.group_columns else None
        group = choice(t.MAP_GROUP, cols, first_group, mk("group"), accept_new_options=wide)
        more_groups = st.multiselect(
            t.MORE_GROUPS,
            cols,
            default=[c for c in guess.group_columns[1:] if c in cols],
            key=mk("more_groups"),
            format_func=option_names(cols),
            accept_new_options=wide,
            help=t.MORE_GROUPS_HELP,
        )
        split = choice(t.MAP_SPLIT, cols, guess.split, mk("split"), accept_new_options=wide)
        weight = choice(t.MAP_WEIGHT, numeric, guess.weight, mk("weight"), accept_new_options=wide)
    st.markdown(t.INSTANCE_HEADER)
    source = st.radio(
        t.DELTA_SOURCE_LABEL,
        t.DELTA_SOURCES,
        horizontal=True,
        key=mk("delta_src"),
        index=t.DELTA_SOURCES.index(offered.delta_source),
    )
    extra: dict = {}
    # always drawn: a form redraws nothing until its button, so a picker shown only once "price
    # column" is chosen appeared after the file had loaded without prices (review 140)
    price = choice(t.MAP_PRICE, numeric, guess.delta, mk("delta"), accept_new_options=wide)
    d1, d2 = st.columns(2)
    if source == t.DELTA_COLUMN:
        extra["delta"] = price
    elif source == t.VOTES:
        extra["votes_yes"] = choice(t.MAP_VOTES_YES, numeric, guess.votes_yes, mk("yes"), accept_new_options=wide)
        extra["votes_no"] = choice(t.MAP_VOTES_NO, numeric, guess.votes_no, mk("no"), accept_new_options=wide)
    elif source == t.RATING:
        extra["rating"] = _numeric_pick(d1, t.MAP_RATING, numeric, guess.rating, mk("rating"), wide)
        mid = guess.rating_midpoint if guess.rating_midpoint is not None else 3.0
        extra["rating_midpoint"] = d2.number_input(t.MAP_MIDPOINT, value=mid, key=mk("mid"))
    elif source == t.MEASUREMENT:
        extra["measurement"] = _numeric_pick(d1, t.MAP_MEASUREMENT, numeric, guess.measurement, mk("measure"), wide)
        tau = guess.measurement_threshold if guess.measurement_threshold is not None else 0.0
        extra["measurement_threshold"] = d2.number_input(t.MAP_THRESHOLD, value=tau, key=mk("tau"))
    st.markdown(t.MULTICLASS_HEADER)
    m1, m2 = st.columns(2)
    class_probs = m1.multiselect(
        t.MAP_CLASS_PROBS,
        numeric,
        default=[c for c in guess.class_probs if c in numeric],
        key=mk("probs"),
        format_func=option_names(numeric),
        accept_new_options=wide,
    )
    class_label = choice(
        t.MAP_CLASS_LABEL, cols, guess.class_label, mk("class_label"), where=m2, accept_new_options=wide
    )
    class_names = loading.class_names_for(class_probs)
    if class_names:
        say("caption", t.classes_sentence(class_names), where=m1)
    mapping = ColumnMapping(
        label=label,
        positive=positive,
        scores=tuple(scores),
        score_scale=scale,
        group=tuple(c for c in (group, *more_groups) if c is not None),  # one column, several, or none
        split=split,
        weight=weight,
        class_label=class_label,
        class_probs=tuple(class_probs),
        class_names=class_names,
        **extra,
    )
    return mapping, source


CHOSEN_KEEP = 4  # files whose last mapping a session keeps (a few small records)


def chosen_mapping(digest: str) -> ColumnMapping | None:
    """The mapping last loaded from the content `digest` in this session, else None."""
    return st.session_state.get("_chosen", {}).get(digest)


def _remember_chosen(digest: str, name: str, mapping: ColumnMapping) -> None:
    chosen = st.session_state.setdefault("_chosen", {})
    chosen.pop(digest, None)
    chosen[digest] = mapping
    for old in list(chosen)[: max(0, len(chosen) - CHOSEN_KEEP)]:
        del chosen[old]
    st.session_state["_upload_file"] = (digest, name)


def kept_upload() -> tuple[pd.DataFrame, str, str] | None:
    """(table, content digest, file name) of the upload in use when the uploader shows no file
    (another page was shown: Streamlit drops the uploader's file), so that its form stays; None
    when the upload is not in this session or its parsed table is no longer kept."""
    ds = st.session_state.get("upload_dataset")
    kept = st.session_state.get("_upload_file")
    if ds is None or kept is None or ds.fingerprint != kept[0]:
        return None
    df = kept_table(kept[0])
    return None if df is None else (df, kept[0], kept[1])


def say_kept(name: str) -> None:
    """Say that the form below is the kept upload `name`'s (in use, or kept while a sample is)."""
    words = t.KEPT_UPLOAD if setting("data") == UPLOAD else t.KEPT_UPLOAD_AWAY
    say("info", words.format(name=loading.display_name(name), button=t.USE_COLUMNS))


def say_refused(message: str, name: str, *, stage: str = "columns", fix: bool = False) -> None:
    """The one refusal of an upload, whatever refused it: the loader's `message` (file, column,
    rows), then that `name` was not loaded, the data still in use and what to do
    (`refused.say_not_loaded`; `stage` "file": it could not be read, "columns": the columns
    chosen were refused, `fix`: a fix is offered to tick)."""
    previous, sample = data_in_use()
    say_not_loaded(message, name, previous=previous, sample=sample, stage=stage, fix=fix)


def upload_form(df: pd.DataFrame, digest: str, name: str):
    """The preview of the table `df` (the content `digest` of the file `name`), its mapping form
    seeded with the user's last choices for this content (else the guess), and what pressing
    “Use these columns” does; the slot where the loaded sentence goes (filled by the page)."""
    new_file = st.session_state.get("_mapping_for") != digest
    if new_file:
        for key in [k for k in st.session_state if str(k).startswith("map_") or str(k).startswith("fix_")]:
            del st.session_state[key]
        st.session_state["_mapping_for"] = digest
        for key in ("_fixes", REFUSAL, "_widget_updates"):
            st.session_state.pop(key, None)
    in_use = st.session_state.get("upload_dataset") if setting("data") == UPLOAD else None
    below = in_use.notes if in_use is not None and in_use.fingerprint == digest else ()  # "What is loaded" says them
    shown = answers.upload_answer(
        df, name, guess=None if new_file else st.session_state.get("_guess"), shown_below=below
    )
    st.session_state["_guess"] = shown.guess
    st.session_state.update(st.session_state.pop("_widget_updates", None) or {})  # set by a fix that was used
    say("caption", shown.caption)
    st.dataframe(shown.head, hide_index=True, placeholder=t.MISSING_CELL)
    for note in shown.notes:
        say("info", note)
    seed = chosen_mapping(digest) or shown.guess
    with st.form("mapping"):
        mapping, source = mapping_form(df, seed)
        # offered fixes, by their fixed word (DataError.fix_action), never by their words: a reading
        # offered before any refusal (scores that look like percentages), then the refusal's fix
        kept = st.session_state.get("_offers")  # read once per file and score columns, not on every rerun
        if kept is None or kept[0] != (digest, seed.scores):
            kept = st.session_state["_offers"] = ((digest, seed.scores), score_offers(df, name, seed.scores))
        offers = kept[1]
        for offer in offers:
            say("info", offer.sentence)
        fixes = {**{o.action: o.tick for o in offers}, **st.session_state.get("_fixes", {})}
        ticked = [action for action, words in fixes.items() if st.checkbox(words, key=f"fix_{action}")]
        submitted = st.form_submit_button(t.USE_COLUMNS, type="primary")
    if st.session_state.get(REFUSAL) and not submitted:  # under the button that was pressed
        refused, offered_fix = st.session_state[REFUSAL]
        say_refused(refused, name, fix=offered_fix)
    unpriced = unpriced_source(name, source, mapping) if submitted else None
    if unpriced:  # refused like any other: the data in use stays
        st.session_state[REFUSAL] = (unpriced, False)
        st.rerun()
    if submitted:
        result = answers.mapped_upload(
            df,
            name,
            mapping,
            ticked,
            shown.guess,
            # with no label column, a price column with no price below 0 is refused, not read as all positive
            prepare=lambda use, options: loading.refuse_unsigned_price(
                build_dataset_cached(df, digest, name, use, options)
            ),
        )
        if result.dataset is None:
            st.session_state[REFUSAL] = (result.error, result.fix is not None)
            if result.fix is not None:
                st.session_state.setdefault("_fixes", {})[result.fix[0]] = result.fix[1]
            st.rerun()
        replace_upload(result.dataset)
        for key in ("_fixes", REFUSAL):
            st.session_state.pop(key, None)
        if result.scale is not None:  # the form shows what was used
            st.session_state["_widget_updates"] = {mk("scale"): result.scale}
            mapping = dataclasses.replace(mapping, score_scale=result.scale)
        _remember_chosen(digest, name, mapping)
        st.session_state["_loaded"] = result.loaded
        st.rerun()
    return st.empty()  # filled at the end, once the summary below shows the new data
