"""Train with costs: its cached data and training (keyed by content, never by a file name) and
the widgets that map an uploaded table."""

from __future__ import annotations

import warnings

import pandas as pd
import streamlit as st

from costlib import DegenerateWarning, loading
from costlib.core.errors import DataError
from costlib.training import data as training_data
from costlib.training.compare import compare_training, cost_predictability
from views._ui.display import say, show_error
from views._ui.loading import read_table_cached

N_JOBS = -1  # every core: the fits of one seed run side by side in worker processes
SOURCES = ["annotator votes", "measurement and threshold", "rating", "delta column"]
FEATURE_KINDS = ["numeric columns", "one text column"]


@st.cache_resource(show_spinner="Loading the sample…")
def built_in(choice: str) -> training_data.TrainingData:
    """Shipped or generated data (no user data here): one read-only copy for every session."""
    if choice == "tweets":
        return training_data.tweets_sample()
    return training_data.synthetic_sample(predictable=choice == "predictable")


@st.cache_resource(show_spinner=False)
def precomputed() -> training_data.Precomputed | None:
    return training_data.tweets_precomputed()


@st.cache_data(max_entries=4, ttl=3600, show_spinner="Building the features…")
def from_table_cached(_df: pd.DataFrame, digest: str, name: str, choices: tuple) -> training_data.TrainingData:
    return training_data.from_table(_df, name=name, fingerprint=digest, **dict(choices))


@st.cache_data(max_entries=2000, ttl=24 * 3600, show_spinner=False)
def train_seed(_X, _delta, data_key: str, methods: tuple, seed: int, random_state: int):
    """One seed's comparison and cost-predictability R^2 (a cancelled run keeps finished seeds)."""
    results = compare_training(_X, _delta, methods=methods, seeds=[seed], random_state=random_state, n_jobs=N_JOBS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        r2 = cost_predictability(_X, _delta, seeds=[seed], random_state=random_state, n_jobs=N_JOBS)
    return results, float(r2["r2"].iloc[0])


# ---------------------------------------------------------------------------------------
# Data


def upload_choices() -> tuple[str, str, pd.DataFrame, tuple] | None:
    """The uploaded table and the column choices for it, or None (with a sentence) until complete."""
    st.caption(
        "A CSV or Parquet file with one row per case: numeric feature columns or one text column, and the "
        "source of each case's price δ. The file stays in your session."
    )
    up = st.file_uploader("CSV or Parquet table", type=["csv", "tsv", "txt", "parquet", "pq"], key="train_uploader")
    if up is not None:
        raw = up.getvalue()
        digest = loading.fingerprint(raw)
        try:
            df = read_table_cached(raw, digest, up.name)
        except DataError as err:
            show_error(err)
            return None
        st.session_state["_train_table"] = (up.name, digest, df, loading.guess_mapping(df))
    if "_train_table" not in st.session_state:
        st.info("Upload a table to train on it.")
        return None
    name, digest, df, guess = st.session_state["_train_table"]
    cols = [str(c) for c in df.columns]
    numeric = [c for c in cols if pd.api.types.is_numeric_dtype(df[c])]

    def pick(label: str, role: str, guessed: str | None, fallback: int = 0) -> str:
        index = cols.index(guessed) if guessed in cols else min(fallback, len(cols) - 1)
        return st.selectbox(label, cols, index=index, key=f"train_{role}_{tag}")

    tag = digest[:12]  # a new file gets new widgets, seeded from its own columns
    seeded = (
        "annotator votes"
        if guess.votes_yes and guess.votes_no
        else "rating"
        if guess.rating
        else "measurement and threshold"
        if guess.measurement
        else "delta column"
    )
    c1, c2 = st.columns(2)
    with c1:
        source = st.radio(
            "Each case's price δ comes from",
            SOURCES,
            index=SOURCES.index(seeded),
            key=f"train_src_{tag}",
            horizontal=True,
        )
        choices: dict = {}
        if source == "annotator votes":
            yes = pick("Votes for the positive class", "yes", guess.votes_yes)
            no = pick("Votes against", "no", guess.votes_no, fallback=1)
            choices["votes"], used = (yes, no), {yes, no}
        elif source == "measurement and threshold":
            col = pick("Measurement column", "z", guess.measurement)
            tau = st.number_input(
                "Threshold τ (positive above it)",
                value=float(guess.measurement_threshold or 0.0),
                key=f"train_tau_{tag}",
            )
            choices["threshold"], used = (col, float(tau)), {col}
        elif source == "rating":
            col = pick("Rating column", "rating", guess.rating)
            mid = st.number_input(
                "Neutral midpoint of the scale", value=float(guess.rating_midpoint or 3.0), key=f"train_mid_{tag}"
            )
            choices["rating"], used = (col, float(mid)), {col}
        else:
            col = pick("Delta column (sign = label, size = price)", "delta", guess.delta)
            choices["delta"], used = col, {col}
    with c2:
        texts = [c for c in cols if c not in used and c not in numeric]
        features = [c for c in numeric if c not in used]
        kind = st.radio(
            "The model learns from",
            FEATURE_KINDS,
            index=int(bool(texts) and not features),
            key=f"train_kind_{tag}",
            horizontal=True,
        )
        if kind == FEATURE_KINDS[0]:
            choices["features"] = tuple(
                st.multiselect(
                    "Feature columns",
                    [c for c in cols if c not in used],
                    default=features[: training_data.MAX_FEATURE_COLUMNS],
                    key=f"train_features_{tag}",
                )
            )
        else:
            choices["text"] = st.selectbox(
                "Text column", [*texts, *[c for c in cols if c not in texts]], key=f"train_text_{tag}"
            )
    say("caption", f"Your file: {name} ({len(df):,} rows).")
    return name, digest, df, tuple(sorted(choices.items()))
