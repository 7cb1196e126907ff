"""Data: pick a built-in sample or upload predictions, map the columns, see what was loaded."""

import streamlit as st

from costlib import answers
from costlib.core.errors import DataError
from costlib.loading.samples import SAMPLES
from costlib.present import labels as t
from views._ui.data import UPLOAD, choose_data, current_dataset, note_refused, upload_gone
from views._ui.display import page_header, say
from views._ui.folder import data_folder, use_opened
from views._ui.loading import read_table_cached, upload_content
from views._ui.mapping import REFUSAL, kept_upload, say_kept, say_refused, upload_form
from views._ui.memo import memo
from views._ui.page import carry_link
from views._ui.state import setting

gone = upload_gone()  # ?data=upload in a session without the file (a reload): said here, once
page_header(t.PAGE_DATA, t.DATA_WHAT_UPLOAD if setting("data") == UPLOAD else t.DATA_WHAT)
if gone:
    say("warning", t.UPLOAD_GONE)
else:
    st.page_link("views/costs.py", label=t.DATA_TO_COSTS, icon="⚖️")


ds = current_dataset(data_page=True)  # draws the sidebar's data choice; its key "data" holds the choice
in_use = st.session_state.get("data") if ds is not None else None
carry_link()  # a link's prices, unit and volume hold on the pages this one leads to, and stay in its address


st.subheader(t.SAMPLES_HEADER)
for key, sample in SAMPLES.items():  # the button under its sample: named by it, its name is too long for a column
    st.markdown(f"**{sample.title}**  \n{sample.description}")
    st.caption(sample.attribution)
    used = key == in_use
    st.button(
        t.SAMPLE_USED if used else t.USE_SAMPLE.format(title=sample.title),
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
        say_refused(err.message, upload.name, stage="file")
        note_refused(upload.name)  # the other pages say so while a sample is in use
    else:
        loaded_slot = upload_form(df, digest, upload.name)
        if st.session_state.get(REFUSAL):
            note_refused(upload.name)
elif (kept := kept_upload()) is not None:  # another page was shown: the uploader lost the file, not its form
    df, digest, name = kept
    say_kept(name)
    loaded_slot = upload_form(df, digest, name)


st.subheader(t.BIG_DATA_HEADER)
st.caption(t.BIG_DATA_WHAT)
agg_file = st.file_uploader(t.AGGREGATE_LABEL, type=["parquet"], key="aggregate_upload")
new_aggregate = agg_file is not None and st.session_state.get("_aggregate_id") != agg_file.file_id
if new_aggregate and use_opened(answers.aggregate_reader(agg_file.getvalue()), agg_file.name):
    st.session_state["_aggregate_id"] = agg_file.file_id
    st.rerun()
data_folder()

say("subheader", t.LOADED_HEADER if ds is None else t.LOADED_NAMED.format(name=ds.name))
if ds is None:
    st.caption(t.NOTHING_LOADED)
else:
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
    for note in summary.warnings:
        say("warning", note)
    for note in summary.notes:
        say("info", note)
if st.session_state.get("_loaded"):
    kind, text = st.session_state.pop("_loaded")  # (kind, sentence): `answers.roles.loaded_sentence`
    say(kind, text, where=loaded_slot if loaded_slot is not None else st)
