"""Data: pick a built-in sample or upload predictions, map the columns, see what was loaded."""

import os

import numpy as np
import pandas as pd
import streamlit as st

from costlib import loading
from costlib.dataset import ColumnMapping
from costlib.errors import DataError
from costlib.samples_registry import SAMPLES
from pages._common import (
    build_dataset_cached,
    choose_data,
    current_dataset,
    page_header,
    read_table_cached,
    replace_upload,
    say,
    show_error,
)

NONE = "(none)"
SCALES = {
    "probability": "probabilities in [0, 1]",
    "logit": "logits (mapped by the sigmoid)",
    "raw": "raw scores (cost pages only)",
}
DELTA_SOURCES = ["none", "delta column", "annotator votes", "rating", "measurement and threshold"]

page_header(
    "Data",
    "Start with a built-in sample (one is already loaded) or upload your own predictions. Then open "
    "Costs & groups to find the cheapest threshold.",
)
st.page_link("pages/costs.py", label="Find the cost-optimal threshold for the loaded data →", icon="⚖️")


st.subheader("Built-in samples")
for key, sample in SAMPLES.items():
    c1, c2 = st.columns([4, 1])
    c1.markdown(f"**{sample.title}**  \n{sample.description}")
    c1.caption(sample.attribution)
    c2.button("Use this sample", key=f"use_{key}", on_click=choose_data, args=(key,))

st.subheader("Upload your predictions")
st.caption(
    "A CSV or Parquet file with one row per case: a label, one score column per model, and optionally a "
    "group, a train/validation/test split, weights, votes or multiclass probability columns. The file "
    "stays in your session and is never part of a shared link."
)
upload = st.file_uploader("CSV or Parquet file", type=["csv", "tsv", "txt", "parquet", "pq"], key="uploader")


def choice(label: str, options: list[str], guess: str | None, key: str, **kw) -> str | None:
    opts = [NONE, *options]
    value = st.selectbox(label, opts, index=opts.index(guess) if guess in opts else 0, key=key, **kw)
    return None if value == NONE else value


def mk(role: str) -> str:
    """The widget key of a mapping role for the current file."""
    return f"map_{role}_{st.session_state['_mapping_for'][:12]}"


def mapping_form(df: pd.DataFrame, guess: ColumnMapping) -> ColumnMapping:
    """Widgets for every column role, seeded with the guess.

    Their keys carry the file's fingerprint: a new file gets new widgets seeded with its own
    guess (deleting the old keys does not reset widgets the browser still shows).
    """
    cols = [str(c) for c in df.columns]
    # Every column is offered for every role: a text column mapped as scores gets a sentence
    # naming its bad rows, which helps more than a column that silently is not offered.
    numeric = cols
    c1, c2 = st.columns(2)
    with c1:
        label = choice("Label column (the true outcome)", cols, guess.label, mk("label"))
        positive = None
        if label is not None:
            try:
                values = loading.label_values(df, label)
            except DataError as err:
                show_error(err)
                values = []
            if values and set(values) - {"0", "1", "0.0", "1.0", "True", "False", "true", "false"}:
                positive = st.selectbox(
                    "Which label value is the positive class?",
                    values,
                    key=mk("positive"),
                    index=values.index(guess.positive) if guess.positive in values else 0,
                )
        scores = st.multiselect(
            "Score columns (one per model; higher = more likely positive)",
            numeric,
            default=[s for s in guess.scores if s in numeric],
            key=mk("scores"),
        )
        scale = st.radio(
            "The scores are",
            list(SCALES),
            format_func=SCALES.get,
            key=mk("scale"),
            index=list(SCALES).index(guess.score_scale),
            horizontal=True,
        )
    with c2:
        group = choice("Group column (optional, for per-group prices)", cols, guess.group, mk("group"))
        split = choice("Split column (optional: train / validation / test)", cols, guess.split, mk("split"))
        weight = choice("Weight column (optional)", numeric, guess.weight, mk("weight"))
    st.markdown("**Instance-level costs (optional)**")
    guessed_source = (
        "annotator votes"
        if guess.votes_yes
        else "delta column"
        if guess.delta
        else "rating"
        if guess.rating
        else "measurement and threshold"
        if guess.measurement
        else "none"
    )
    source = st.radio(
        "Each case's own price comes from",
        DELTA_SOURCES,
        horizontal=True,
        key=mk("delta_src"),
        index=DELTA_SOURCES.index(guessed_source),
    )
    extra: dict = {}
    d1, d2 = st.columns(2)
    if source == "delta column":
        extra["delta"] = choice("Delta column (sign = label, size = price)", numeric, guess.delta, mk("delta"))
    elif source == "annotator votes":
        extra["votes_yes"] = choice("Votes for the positive class", numeric, guess.votes_yes, mk("yes"))
        extra["votes_no"] = choice("Votes against", numeric, guess.votes_no, mk("no"))
    elif source == "rating":
        extra["rating"] = d1.selectbox("Rating column", numeric, key=mk("rating"))
        extra["rating_midpoint"] = d2.number_input("Neutral midpoint of the scale", value=3.0, key=mk("mid"))
    elif source == "measurement and threshold":
        extra["measurement"] = d1.selectbox("Measurement column", numeric, key=mk("measure"))
        extra["measurement_threshold"] = d2.number_input("Threshold (positive when above)", value=0.0, key=mk("tau"))
    st.markdown("**Multiclass (optional)**")
    m1, m2 = st.columns(2)
    class_probs = m1.multiselect(
        "Probability columns, one per class",
        numeric,
        default=[c for c in guess.class_probs if c in numeric],
        key=mk("probs"),
    )
    class_label = m2.selectbox(
        "Multiclass label column",
        [NONE, *cols],
        key=mk("class_label"),
        index=([NONE, *cols].index(guess.class_label) if guess.class_label in cols else 0),
    )
    class_names: tuple[str, ...] = ()
    if class_probs:
        prefix = os.path.commonprefix(class_probs) if len(class_probs) > 1 else ""
        class_names = tuple(c[len(prefix) :] or c for c in class_probs)
        if guess.class_probs == tuple(class_probs) and guess.class_names:
            class_names = guess.class_names
        say("caption", "Classes: " + ", ".join(class_names), where=m1)
    mapping = ColumnMapping(
        label=label,
        positive=positive,
        scores=tuple(scores),
        score_scale=scale,
        group=group,
        split=split,
        weight=weight,
        class_label=None if class_label == NONE else class_label,
        class_probs=tuple(class_probs),
        class_names=class_names,
        **extra,
    )
    return mapping


def _fix_option(fix: str) -> str:
    text = fix.lower()
    if "drop" in text:
        return "drop_missing_labels"
    if "group" in text:
        return "top_groups"
    return "renormalise"


if upload is not None:
    digests = st.session_state.setdefault("_digests", {})
    data = upload.getvalue()
    if upload.file_id not in digests:
        digests.clear()
        digests[upload.file_id] = loading.fingerprint(data)
    digest = digests[upload.file_id]
    try:
        df = read_table_cached(data, digest, upload.name)
    except DataError as err:
        show_error(err)
        if st.session_state.get("upload_dataset") is not None:
            say("caption", f"Your previous file, “{st.session_state['upload_dataset'].name}”, is still loaded.")
        df = None
    if df is not None:
        if st.session_state.get("_mapping_for") != digest:
            for key in [k for k in st.session_state if str(k).startswith("map_") or str(k).startswith("fix_")]:
                del st.session_state[key]
            st.session_state["_mapping_for"] = digest
            st.session_state["_guess"] = loading.guess_mapping(df)
            st.session_state.pop("_fixes", None)
            st.session_state.pop("_load_error", None)
        say("caption", f"“{upload.name}”: {len(df):,} rows, {df.shape[1]} columns. First rows:")
        st.dataframe(df.head(5), hide_index=True)
        for note in df.attrs.get("notes", []):
            say("info", note)
        if st.session_state.get("_load_error"):
            say("error", st.session_state["_load_error"], icon="⚠️")
            if st.session_state.get("upload_dataset") is not None:
                say("caption", f"Your previous data, “{st.session_state['upload_dataset'].name}”, is still loaded.")
        with st.form("mapping"):
            mapping = mapping_form(df, st.session_state["_guess"])
            fixes = st.session_state.get("_fixes", {})
            options = {}
            if "drop_missing_labels" in fixes:
                options["drop_missing_labels"] = st.checkbox(fixes["drop_missing_labels"], key="fix_drop")
            if "top_groups" in fixes:
                options["top_groups"] = 10 if st.checkbox(fixes["top_groups"], key="fix_top") else None
            if "renormalise" in fixes:
                options["renormalise"] = st.checkbox(fixes["renormalise"], key="fix_renorm")
            submitted = st.form_submit_button("Use these columns", type="primary")
        if submitted:
            try:
                ds = build_dataset_cached(
                    df, digest, upload.name, mapping, tuple(sorted((k, v) for k, v in options.items() if v))
                )
            except DataError as err:
                st.session_state["_load_error"] = err.message
                if err.fix:
                    st.session_state.setdefault("_fixes", {})[_fix_option(err.fix)] = (
                        f"Fix it: {err.fix} (tick, then press “Use these columns” again)"
                    )
                st.rerun()
            else:
                replace_upload(ds)
                st.session_state.pop("_fixes", None)
                st.session_state.pop("_load_error", None)
                say("success", f"Loaded “{upload.name}”. The other pages now use it.")


st.subheader("What is loaded")
ds = current_dataset()
if ds is not None:
    m = st.columns(4)
    m[0].metric("Rows", f"{ds.n_rows:,}")
    if ds.y is not None:
        m[1].metric("Positives", f"{int(ds.y.sum()):,} ({ds.y.mean():.1%})")
    if ds.groups is not None:
        m[2].metric("Groups", f"{len(pd.unique(ds.groups))}")
    if ds.split is not None:
        m[3].metric("Splits", f"{len(pd.unique(ds.split))}")
        st.caption("Rows per split: " + ", ".join(
            f"{r} {int((ds.split == r).sum()):,}" for r in ("train", "validation", "test") if (ds.split == r).any()))
    summary = []
    for name, s in ds.scores.items():
        summary.append(
            {
                "model (score column)": name,
                "min": float(np.min(s)),
                "max": float(np.max(s)),
                "distinct values": int(len(np.unique(s))),
            }
        )
    if summary:
        st.dataframe(pd.DataFrame(summary), hide_index=True)
    if ds.groups is not None:
        g = pd.Series(ds.groups).value_counts().rename_axis("group").reset_index(name="rows")
        if ds.y is not None:
            g["positive share"] = [float(ds.y[ds.groups == x].mean()) for x in g["group"]]
        st.dataframe(g, hide_index=True)
    if ds.class_names:
        say("caption", "Classes: " + ", ".join(ds.class_names))
    for note in ds.notes:
        say("info", note)
