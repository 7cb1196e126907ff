"""Train with costs: its data and training, kept per session (keyed by content, never by a file
name; only the shipped samples are shared between sessions) and the widgets that map an
uploaded table."""

from __future__ import annotations

import hashlib
import time
import warnings

import pandas as pd
import streamlit as st

from costlib import DegenerateWarning, loading
from costlib.answers.training import (
    PRECOMPUTED_DATA,
    default_features,
    finished_seeds,
    gather_seeds,
    guessed_source,
    price_guessed,
    training_plan,
)
from costlib.core.errors import DataError
from costlib.core.escaping import display_name, option_names
from costlib.loading.ledger import held_bytes
from costlib.loading.messages import WHAT_FEATURES
from costlib.present import labels as t
from costlib.present import training_words
from costlib.present.labels import MEASUREMENT, RATING, VOTES
from costlib.present.training_words import FEATURE_KINDS, SOURCES
from costlib.present.training_words import TRAIN_WORDS as WORDS
from costlib.training import data as training_data
from costlib.training.compare import METHODS, compare_training, cost_predictability
from costlib.training.data import answer_columns
from views._ui.display import say, show_error
from views._ui.loading import read_table_cached
from views._ui.memo import remember
from views._ui.refused import say_not_loaded
from views._ui.state import widget_key

N_JOBS = -1  # every core: the fits of one seed run side by side in worker processes


@st.cache_resource(show_spinner=WORDS["loading_sample"])
def built_in(choice: str) -> training_data.TrainingData:
    """Shipped or generated data (no user data here): one read-only copy for every session."""
    if choice == PRECOMPUTED_DATA:
        return training_data.tweets_sample()
    return training_data.synthetic_sample(predictable=choice == "predictable")


@st.cache_resource(show_spinner=False)
def precomputed() -> training_data.Precomputed | None:
    return training_data.tweets_precomputed()


FEATURES_KEPT = 2  # an upload's features per session (they can be large: text features of a big table)
SEEDS_KEPT = 200  # finished seeds per session, so that a cancelled run keeps them (50 seeds, a few settings)


def from_table_cached(df: pd.DataFrame, digest: str, name: str, choices: tuple) -> training_data.TrainingData:
    """The features of an uploaded table, kept in this session only (keyed by its content and
    the column choices): an upload's features never outlive its session nor reach another one."""
    with st.spinner(WORDS["building_features"]):
        return remember(
            ("train_features", digest, name, choices),
            lambda: training_data.from_table(df, name=name, fingerprint=digest, **dict(choices)),
            store="_train_features",
            size=FEATURES_KEPT,
            weigh=held_bytes,
            need=lambda: training_data.features_peak(df, dict(choices)),
            what=WHAT_FEATURES.format(name=loading.display_name(name)),
        )


def train_seed(X, delta, data_key: str, methods: tuple, seed: int, random_state: int):
    """One seed's comparison and cost-predictability R^2, kept in this session (a cancelled run
    keeps its finished seeds)."""

    def compute():
        results = compare_training(X, delta, methods=methods, seeds=[seed], random_state=random_state, n_jobs=N_JOBS)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateWarning)
            r2 = cost_predictability(X, delta, seeds=[seed], random_state=random_state, n_jobs=N_JOBS)
        return results, float(r2["r2"].iloc[0])

    key = ("train_seed", data_key, methods, seed, random_state)
    return remember(key, compute, store="_train_seeds", size=SEEDS_KEPT)


BOX = "_train_methods_box"  # the key of the ways-of-training box drawn last (`methods_box_key`)


def methods_box_key(names) -> str:
    """The key of the ways-of-training box whose options read `names`: the setting's own key while they are
    the plain names, else that key and a digest of the names (Streamlit keeps a box's choices by the names
    shown, so a box whose names change must be a new box, `views/train.py`)."""
    key = widget_key("train_methods")
    if list(names) == [training_words.method_short(m) for m in METHODS]:
        return key
    return f"{key}_{hashlib.sha256(chr(10).join(names).encode()).hexdigest()[:10]}"


# ---------------------------------------------------------------------------------------
# Data


TABLE = "_train_table"  # the uploaded table in use: (file name, content key, table, its columns' guess)
READY = "_train_ready"  # the last upload whose columns were taken: (file name, content key, table, choices)


def _read_upload() -> None:
    """Read the file in the uploader into the table in use. A file that cannot be read is refused
    in a sentence, and the table read before stays in use, said under the refusal as the Data page
    says it (`refused.say_not_loaded`): a bad second upload never blanks a ready table."""
    up = st.file_uploader(WORDS["upload"], type=["csv", "tsv", "txt", "parquet", "pq"], key="train_uploader")
    if up is None:
        return
    raw = up.getvalue()
    digest = loading.fingerprint(raw)
    try:
        df = read_table_cached(raw, digest, up.name)
    except DataError as err:
        kept = st.session_state.get(TABLE)
        if kept is None:
            show_error(err)
            return
        say_not_loaded(err.message, up.name, previous=kept[0], stage="file")
        return
    if st.session_state.get(TABLE, (None, None))[1] != digest:  # a new file: its columns guessed once
        st.session_state[TABLE] = (up.name, digest, df, loading.guess_mapping(df, signed=True))


def upload_choices() -> tuple[str, str, pd.DataFrame, tuple] | None:
    """The uploaded table and the column choices for it, or None (with a sentence) until complete.
    A price column the names do not give is left for the person to choose (never the first column,
    `training_words.no_price_sentence`); the columns named as the outcome or a price are never features by
    default (`answers.training.default_features`), which a note says (`training_words.left_out_sentence`);
    chosen by hand, a price source or a column whose values copy the label is refused
    (`training.data.from_table`)."""
    st.caption(WORDS["upload_what"])
    _read_upload()
    if TABLE not in st.session_state:
        st.info(training_words.UPLOAD_TO_TRAIN)
        return None
    name, digest, df, guess = st.session_state[TABLE]
    cols = [str(c) for c in df.columns]
    numeric = {c for c in cols if pd.api.types.is_numeric_dtype(df[c])}
    answer = answer_columns(df, guess)  # the outcome and the price columns: the answer, never a feature
    shown = option_names(cols)  # a column's name can be as long as a header
    tag = digest[:12]  # a new file gets new widgets, seeded from its own columns
    if not price_guessed(guess):
        say("info", training_words.no_price_sentence(display_name(name)))

    def pick(label: str, role: str, guessed: str | None) -> str | None:
        """A price column: the guess, else none until the person chooses one."""
        return st.selectbox(
            label,
            cols,
            index=cols.index(guessed) if guessed in cols else None,
            key=f"train_{role}_{tag}",
            format_func=shown,
            placeholder=WORDS["pick_column"],
        )

    c1, c2 = st.columns(2)
    with c1:
        seeded = SOURCES.index(guessed_source(guess))
        source = st.radio(WORDS["source"], SOURCES, index=seeded, key=f"train_src_{tag}", horizontal=True)
        choices: dict = {}
        if source == VOTES:
            yes, no = pick(WORDS["votes_yes"], "yes", guess.votes_yes), pick(WORDS["votes_no"], "no", guess.votes_no)
            choices["votes"], used = (yes, no), {yes, no}
        elif source == MEASUREMENT:
            col = pick(WORDS["measurement"], "z", guess.measurement)
            tau = st.number_input(
                WORDS["threshold"], value=float(guess.measurement_threshold or 0.0), key=f"train_tau_{tag}"
            )  # fmt: skip
            choices["threshold"], used = (col, float(tau)), {col}
        elif source == RATING:
            col = pick(WORDS["rating"], "rating", guess.rating)
            mid = st.number_input(WORDS["midpoint"], value=float(guess.rating_midpoint or 3.0), key=f"train_mid_{tag}")
            choices["rating"], used = (col, float(mid)), {col}
        else:
            col = pick(WORDS["delta"], "delta", guess.delta)
            choices["delta"], used = col, {col}
    if None in used:  # the features wait for the price: their defaults leave its columns out
        say("caption", training_words.your_file_sentence(name, len(df)))
        return None
    with c2:
        texts = [c for c in cols if c not in used and c not in numeric and c not in answer]
        features = default_features(cols, numeric, used=used, answers=answer)
        kind = st.radio(
            WORDS["learns_from"],
            FEATURE_KINDS,
            index=int(bool(texts) and not features),
            key=f"train_kind_{tag}",
            horizontal=True,
        )
        if kind == FEATURE_KINDS[0]:
            choices["features"] = tuple(
                st.multiselect(
                    WORDS["features"],
                    [c for c in cols if c not in used],
                    default=features,
                    key=f"train_features_{tag}",
                    format_func=shown,
                )
            )
            # named like the answer: not a default, said; chosen by hand, refused only if its values copy the label
            kept_out = {shown(c): why for c, why in answer.items() if c in numeric and c not in used}
            if kept_out:
                say("caption", training_words.left_out_sentence(kept_out))
        else:
            options = [*texts, *[c for c in cols if c not in texts]]
            choices["text"] = st.selectbox(WORDS["text"], options, key=f"train_text_{tag}", format_func=shown)
    say("caption", training_words.your_file_sentence(name, len(df)))
    return name, digest, df, tuple(sorted(choices.items()))


def uploaded_data() -> training_data.TrainingData:
    """The training data of "Your own table"; stops the page while there is none. A table whose
    columns are refused (or whose price column is not chosen yet) never blanks the earlier upload
    whose columns were taken: the refusal names the file and why, says the earlier one is still
    loaded, and the page goes on with it and its choices, as after a file that cannot be read
    (`_read_upload`). A refused choice of the file in use itself stops the page at the refusal."""
    picked = upload_choices()
    ready = st.session_state.get(READY)
    table = st.session_state.get(TABLE)
    if ready is None or table is None or table[1] == ready[1]:  # nothing else to keep in use
        ready = None
    if picked is not None:
        name, digest, df, choices = picked
        try:
            data = from_table_cached(df, digest, name, choices)
        except DataError as err:
            if ready is None:
                show_error(err)
                st.stop()
            say_not_loaded(err.message, name, previous=ready[0], stage="file")
        else:
            st.session_state[READY] = picked
            return data
    elif ready is None:
        st.stop()
    else:  # its price column is still to be chosen
        say("info", t.previous_upload_sentence(display_name(ready[0]), "file"))
    name, digest, df, choices = ready
    try:
        return from_table_cached(df, digest, name, choices)
    except DataError as err:  # made again (it left the store) and refused by the memory ledger
        show_error(err)
        st.stop()


def stop(key: tuple) -> None:
    """The Stop button's on_click: the run `key` is no longer requested, and was stopped."""
    st.session_state["_train_requested"].discard(key)
    st.session_state["_train_stopped"] = key


def training_results(data, choice: str, methods: tuple, seeds: int, *, submitted: bool, random_state: int):
    """(results, cost-predictability R^2 per seed) of the seeds trained so far in this session (or
    the precomputed ones), training what is missing when asked; stops the page while nothing is
    trained. Finished seeds are kept per data, methods and random state: a stopped run resumes."""
    run_key = (data.key, methods, seeds, random_state)
    requested: set = st.session_state.setdefault("_train_requested", set())
    if submitted:
        requested.add(run_key)

    # Finished seeds of this session, per data, methods and random state: a stopped run resumes.
    store: dict = st.session_state.setdefault("_train_done", {})
    done: dict = store.setdefault((data.key, methods, random_state), {})
    plan = training_plan(
        choice,
        methods,
        seeds,
        random_state,
        done=done,
        requested=run_key in requested,
        stopped=st.session_state.get("_train_stopped") == run_key,
        load_precomputed=precomputed,
    )
    if plan.precomputed is not None:
        pre = plan.precomputed
        say("info", training_words.precomputed_sentence(pre.settings))
        return pre.results, pre.predictability["r2"]
    if plan.train:
        st.session_state.pop("_train_stopped", None)
        stop_slot, bar_slot = st.empty(), st.empty()
        stop_slot.button(
            WORDS["stop"],
            key="train_stop",
            on_click=stop,
            args=(run_key,),
            help=WORDS["stop_help"],
        )
        start = time.perf_counter()
        for s in plan.todo:
            finished = len(finished_seeds(done, seeds))
            bar_slot.progress(finished / seeds, text=training_words.progress_sentence(finished, seeds))
            done[s] = train_seed(data.X, data.delta, data.key, methods, s, random_state)
        bar_slot.empty()
        stop_slot.empty()
        say("caption", training_words.timing_sentence(len(plan.todo), seeds, time.perf_counter() - start))
    have = finished_seeds(done, seeds)
    if not have:
        if st.session_state.get("_train_stopped") == run_key:
            say("warning", training_words.stopped_sentence(0, seeds))
        else:
            st.info(training_words.PRESS_TRAIN)
        st.stop()
    if len(have) < seeds:
        say("warning", training_words.stopped_sentence(len(have), seeds))
    return gather_seeds(done, have)
