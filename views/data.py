"""Data: pick a built-in sample or upload predictions, map the columns, see what was loaded."""

import streamlit as st

from costlib import answers
from costlib.core.errors import DataError
from costlib.loading.samples import SAMPLES
from costlib.present import labels as t
from views._ui.data import choose_data, current_dataset, replace_upload
from views._ui.display import page_header, say, show_error
from views._ui.folder import data_folder, use_opened
from views._ui.loading import build_dataset_cached, read_table_cached, upload_content
from views._ui.mapping import mapping_form, mk
from views._ui.memo import memo

page_header(t.PAGE_DATA, t.DATA_WHAT)
st.page_link("views/costs.py", label=t.DATA_TO_COSTS, icon=":material/balance:")


ds = current_dataset()  # draws the sidebar's data choice; its key "data" holds the choice
in_use = st.session_state.get("data") if ds is not None else None


def say_previous(what: str) -> None:
    """Say that the upload in use before this one failed is still loaded (if there is one)."""
    if st.session_state.get("upload_dataset") is not None:
        say("caption", t.previous_upload_sentence(st.session_state["upload_dataset"].name, what))


st.subheader(t.SAMPLES_HEADER)
for key, sample in SAMPLES.items():
    c1, c2 = st.columns([4, 1])
    c1.markdown(f"**{sample.title}**  \n{sample.description}")
    c1.caption(sample.attribution)
    used = key == in_use
    c2.button(
        t.SAMPLE_USED if used else t.USE_SAMPLE,
        key=f"use_{key}",
        on_click=choose_data,
        args=(key,),
        disabled=used,
        help=t.SAMPLE_IN_USE if used else None,
    )

st.subheader(t.UPLOAD_HEADER)
st.caption(t.UPLOAD_WHAT)
upload = st.file_uploader(t.UPLOAD_LABEL, type=["csv", "tsv", "txt", "parquet", "pq"], key="uploader")


loaded_slot = None
if upload is not None:
    data, digest = upload_content(upload)
    try:
        df = read_table_cached(data, digest, upload.name)
    except DataError as err:
        show_error(err)
        say_previous("file")
        df = None
    if df is not None:
        new_file = st.session_state.get("_mapping_for") != digest
        if new_file:
            for key in [k for k in st.session_state if str(k).startswith("map_") or str(k).startswith("fix_")]:
                del st.session_state[key]
            st.session_state["_mapping_for"] = digest
            for key in ("_fixes", "_load_error", "_widget_updates"):
                st.session_state.pop(key, None)
        shown = answers.upload_answer(df, upload.name, guess=None if new_file else st.session_state.get("_guess"))
        st.session_state["_guess"] = shown.guess
        st.session_state.update(st.session_state.pop("_widget_updates", None) or {})  # set by a fix that was used
        say("caption", shown.caption)
        st.dataframe(shown.head, hide_index=True)
        for note in shown.notes:
            say("info", note)
        if st.session_state.get("_load_error"):
            say("error", st.session_state["_load_error"], icon=":material/warning:")
            say_previous("data")
        with st.form("mapping"):
            mapping = mapping_form(df, shown.guess)
            # offered fixes, by their fixed word (DataError.fix_action), never by their words
            fixes = st.session_state.get("_fixes", {})
            ticked = [action for action, words in fixes.items() if st.checkbox(words, key=f"fix_{action}")]
            submitted = st.form_submit_button(t.USE_COLUMNS, type="primary")
        if submitted:
            result = answers.mapped_upload(
                df,
                upload.name,
                mapping,
                ticked,
                shown.guess,
                prepare=lambda use, options: build_dataset_cached(df, digest, upload.name, use, options),
            )
            if result.dataset is None:
                st.session_state["_load_error"] = result.error
                if result.fix is not None:
                    st.session_state.setdefault("_fixes", {})[result.fix[0]] = result.fix[1]
                st.rerun()
            replace_upload(result.dataset)
            for key in ("_fixes", "_load_error"):
                st.session_state.pop(key, None)
            if result.scale is not None:  # the form shows what was used
                st.session_state["_widget_updates"] = {mk("scale"): result.scale}
            st.session_state["_loaded"] = result.loaded
            st.rerun()
        loaded_slot = st.empty()  # filled at the end, once the summary below shows the new data


st.subheader(t.BIG_DATA_HEADER)
st.caption(t.BIG_DATA_WHAT)
agg_file = st.file_uploader(t.AGGREGATE_LABEL, type=["parquet"], key="aggregate_upload")
new_aggregate = agg_file is not None and st.session_state.get("_aggregate_id") != agg_file.file_id
if new_aggregate and use_opened(answers.aggregate_reader(agg_file.getvalue()), agg_file.name):
    st.session_state["_aggregate_id"] = agg_file.file_id
    st.rerun()
data_folder()

say("subheader", t.LOADED_HEADER if ds is None else t.LOADED_NAMED.format(name=ds.name))
if ds is not None:
    summary = memo("data_loaded", ds, (), lambda: answers.loaded_answer(ds))
    for slot, metric in zip(st.columns(4), summary.metrics, strict=True):
        if metric is not None:
            slot.metric(*metric)
    if summary.split_sentence:
        st.caption(summary.split_sentence)
    if summary.weights_sentence:
        say("caption", summary.weights_sentence)
    for table in summary.tables:
        st.dataframe(table, hide_index=True, column_config=summary.table_columns)
    if summary.classes is not None:
        say("caption", summary.classes)
    for note in summary.notes:
        say("info", note)
if st.session_state.get("_loaded"):
    kind, text = st.session_state.pop("_loaded")  # (kind, sentence): `answers.roles.loaded_sentence`
    say(kind, text, where=loaded_slot if loaded_slot is not None else st)
