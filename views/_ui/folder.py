"""The Data page's server folder: a file read where it lies through DuckDB (no upload)."""

from __future__ import annotations

import streamlit as st

from costlib import answers
from costlib.answers.roles import loaded_sentence
from costlib.core.errors import DataError
from costlib.core.escaping import display_name, option_names
from costlib.scale import bigdata
from views._ui.data import open_counted, replace_upload
from views._ui.display import say, show_error
from views._ui.mapping import NONE


def data_folder() -> None:
    """The form that opens a file of the server's data folder (nothing when there is no folder)."""
    folder = bigdata.data_folder()
    if folder is not None:
        files = bigdata.list_files(folder)
        if files:
            with st.form("data_folder"):
                say("markdown", answers.data_folder_sentence(len(files)))
                picked = st.selectbox("File", files, key="folder_file", format_func=display_name)
                try:
                    names = bigdata.columns_of(bigdata.safe_path(folder, picked))
                except DataError as err:
                    show_error(err)
                    names = []
                c1, c2, c3, c4 = st.columns(4)
                shown = option_names([NONE, *names])  # a column's name can be as long as a header
                label_col = c1.selectbox("Label column (0/1)", names, key="folder_label", format_func=shown)
                score_cols = c2.multiselect("Score columns", names, key="folder_scores", format_func=shown)
                group_col = c3.selectbox("Group column", [NONE, *names], key="folder_group", format_func=shown)
                split_col = c4.selectbox("Split column", [NONE, *names], key="folder_split", format_func=shown)
                opened = st.form_submit_button("Open with DuckDB")
            if opened:
                try:
                    if not score_cols:
                        raise DataError("Choose at least one score column.")
                    ds_big = open_counted(
                        lambda: bigdata.dataset_from_file(
                            bigdata.safe_path(folder, picked),
                            label=label_col,
                            scores=list(score_cols),
                            group=None if group_col == NONE else group_col,
                            split=None if split_col == NONE else split_col,
                        ),
                        name=display_name(picked),
                    )
                except DataError as err:
                    show_error(err)
                else:
                    replace_upload(ds_big, opened=True)
                    st.session_state["_loaded"] = loaded_sentence(ds_big, display_name(picked))
                    st.rerun()
        else:
            st.caption("The server's data folder has no Parquet or CSV files.")
