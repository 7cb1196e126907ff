"""The Data page's column mapping: one widget per column role, seeded with the guess."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from costlib import answers, loading
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.core.escaping import option_names
from costlib.present import labels as t
from views._ui.display import say, show_error

NONE = t.NO_COLUMN_CHOSEN


def choice(label: str, options: list[str], guess: str | None, key: str, where=st, **kw) -> str | None:
    opts = [NONE, *options]
    index = opts.index(guess) if guess in opts else 0
    value = where.selectbox(label, opts, index=index, key=key, format_func=option_names(opts), **kw)
    return None if value == NONE else value


def mk(role: str) -> str:
    """The widget key of a mapping role for the current file."""
    return f"map_{role}_{st.session_state['_mapping_for'][:12]}"


def mapping_form(df: pd.DataFrame, guess: ColumnMapping) -> ColumnMapping:
    """Widgets for every column role, seeded with the guess.

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
        group = choice(t.MAP_GROUP, cols, guess.group, mk("group"), accept_new_options=wide)
        more_groups = st.multiselect(
            t.MORE_GROUPS,
            cols,
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
    d1, d2 = st.columns(2)
    if source == t.DELTA_COLUMN:
        extra["delta"] = choice(t.MAP_DELTA, numeric, guess.delta, mk("delta"), accept_new_options=wide)
    elif source == t.VOTES:
        extra["votes_yes"] = choice(t.MAP_VOTES_YES, numeric, guess.votes_yes, mk("yes"), accept_new_options=wide)
        extra["votes_no"] = choice(t.MAP_VOTES_NO, numeric, guess.votes_no, mk("no"), accept_new_options=wide)
    elif source == t.RATING:
        extra["rating"] = d1.selectbox(
            t.MAP_RATING, numeric, key=mk("rating"), format_func=option_names(numeric), accept_new_options=wide
        )
        extra["rating_midpoint"] = d2.number_input(t.MAP_MIDPOINT, value=3.0, key=mk("mid"))
    elif source == t.MEASUREMENT:
        extra["measurement"] = d1.selectbox(
            t.MAP_MEASUREMENT, numeric, key=mk("measure"), format_func=option_names(numeric), accept_new_options=wide
        )
        extra["measurement_threshold"] = d2.number_input(t.MAP_THRESHOLD, value=0.0, key=mk("tau"))
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
    return mapping
