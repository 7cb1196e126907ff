"""Data: pick a built-in sample or upload predictions, map the columns, see what was loaded."""

import streamlit as st

from costlib import answers, loading
from costlib.answers.roles import loaded_sentence, refused_sentence
from costlib.core.errors import DataError
from costlib.loading.samples import SAMPLES
from costlib.scale import bigdata
from views._ui.data import choose_data, current_dataset, open_counted, replace_upload
from views._ui.display import page_header, say, show_error
from views._ui.folder import data_folder
from views._ui.loading import build_dataset_cached, read_table_cached
from views._ui.mapping import mapping_form, mk

page_header(
    "Data",
    "Start with a built-in sample (one is already loaded) or upload your own predictions. Then open "
    "Costs & groups to find the cheapest threshold.",
)
st.page_link("views/costs.py", label="Find the cost-optimal threshold for the loaded data →", icon=":material/balance:")


ds = current_dataset()  # draws the sidebar's data choice; its key "data" holds the choice
in_use = st.session_state.get("data") if ds is not None else None

st.subheader("Built-in samples")
for key, sample in SAMPLES.items():
    c1, c2 = st.columns([4, 1])
    c1.markdown(f"**{sample.title}**  \n{sample.description}")
    c1.caption(sample.attribution)
    used = key == in_use
    c2.button(
        "In use" if used else "Use this sample",
        key=f"use_{key}",
        on_click=choose_data,
        args=(key,),
        disabled=used,
        help="The other pages use this sample now." if used else None,
    )

st.subheader("Upload your predictions")
st.caption(
    "A CSV or Parquet file with one row per case: a label, one score column per model, and optionally a "
    "group, a train/validation/test split, weights, votes or multiclass probability columns. The file "
    "stays in your session and is never part of a shared link."
)
upload = st.file_uploader("CSV or Parquet file", type=["csv", "tsv", "txt", "parquet", "pq"], key="uploader")


loaded_slot = None
if upload is not None:
    shown_name = loading.display_name(upload.name)
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
            say("caption", answers.previous_upload_sentence(st.session_state["upload_dataset"].name, "file"))
        df = None
    if df is not None:
        if st.session_state.get("_mapping_for") != digest:
            for key in [k for k in st.session_state if str(k).startswith("map_") or str(k).startswith("fix_")]:
                del st.session_state[key]
            st.session_state["_mapping_for"] = digest
            st.session_state["_guess"] = loading.guess_mapping(df)
            for key in ("_fixes", "_load_error", "_widget_updates"):
                st.session_state.pop(key, None)
        st.session_state.update(st.session_state.pop("_widget_updates", None) or {})  # set by a fix that was used
        head, caption = loading.preview(df, upload.name)
        say("caption", caption)
        st.dataframe(head, hide_index=True)
        for note in df.attrs.get("notes", []):
            say("info", note)
        if df.shape[1] > loading.MAX_COLUMNS_OFFERED:
            say("info", loading.NOTE_WIDE.format(name=shown_name, count=df.shape[1], shown=loading.MAX_COLUMNS_OFFERED))
        if st.session_state.get("_load_error"):
            say("error", st.session_state["_load_error"], icon=":material/warning:")
            if st.session_state.get("upload_dataset") is not None:
                say("caption", answers.previous_upload_sentence(st.session_state["upload_dataset"].name, "data"))
        with st.form("mapping"):
            mapping = mapping_form(df, st.session_state["_guess"])
            # offered fixes, by their fixed word (DataError.fix_action), never by their words
            fixes = st.session_state.get("_fixes", {})
            ticked = [action for action, words in fixes.items() if st.checkbox(words, key=f"fix_{action}")]
            submitted = st.form_submit_button("Use these columns", type="primary")
        if submitted:
            use, options = loading.apply_fixes(mapping, ticked)
            # why the guess left out a label, a score or a group the columns used lack (read only then)
            lacking = not (use.label and use.scores and use.group)
            refused = loading.refusals(df, st.session_state["_guess"], name=upload.name) if lacking else {}
            try:
                ds_new = build_dataset_cached(df, digest, upload.name, use, tuple(sorted(options.items())))
            except DataError as err:
                st.session_state["_load_error"] = " ".join(filter(None, (err.message, refused_sentence(use, refused))))
                if err.fix_action:
                    st.session_state.setdefault("_fixes", {})[err.fix_action] = answers.fix_offer(err.fix)
                st.rerun()
            else:
                replace_upload(ds_new)
                for key in ("_fixes", "_load_error"):
                    st.session_state.pop(key, None)
                if use.score_scale != mapping.score_scale:  # the form shows what was used
                    st.session_state["_widget_updates"] = {mk("scale"): use.score_scale}
                st.session_state["_loaded"] = loaded_sentence(ds_new, shown_name, refused)
                st.rerun()
        loaded_slot = st.empty()  # filled at the end, once the summary below shows the new data


st.subheader("Big data: counts instead of rows")
st.caption(
    "For files too big to upload (the upload limit is 200 MB, and a 10-million-row CSV is near it; Parquet is "
    "five times smaller and reads faster): compute the counts where the data lives with "
    "`python -m costlib aggregate SOURCE --label … --score … --out counts.parquet` (DuckDB or Spark), then load "
    "that file here. Costs & groups, Find my prices and Value work on counts, exactly; pages that need each case say "
    "so."
)
agg_file = st.file_uploader(
    "Aggregate file (.parquet, from python -m costlib aggregate)", type=["parquet"], key="aggregate_upload"
)
if agg_file is not None and st.session_state.get("_aggregate_id") != agg_file.file_id:
    try:
        shown = loading.display_name(agg_file.name)
        ds_agg = open_counted(lambda: bigdata.dataset_from_aggregate(agg_file.getvalue(), name=shown), name=shown)
    except DataError as err:
        show_error(err)
    else:
        st.session_state["_aggregate_id"] = agg_file.file_id
        replace_upload(ds_agg, opened=True)
        st.session_state["_loaded"] = loaded_sentence(ds_agg, loading.display_name(agg_file.name))
        st.rerun()
data_folder()

st.subheader("What is loaded")
if ds is not None:
    for slot, metric in zip(st.columns(4), loading.summary_metrics(ds), strict=True):
        if metric is not None:
            slot.metric(*metric)
    if loading.rows_per_split_sentence(ds):
        st.caption(loading.rows_per_split_sentence(ds))
    for table in loading.summary_tables(ds):
        st.dataframe(table, hide_index=True)
    if ds.class_names:
        say("caption", answers.classes_sentence(ds.class_names))
    for note in ds.notes:
        say("info", note)
if st.session_state.get("_loaded"):
    loaded = st.session_state.pop("_loaded")
    kind, text = loaded if isinstance(loaded, tuple) else ("success", loaded)
    say(kind, text, where=loaded_slot if loaded_slot is not None else st)
