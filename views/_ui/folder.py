"""The Data page's files read where they lie: a file of the server's data folder through DuckDB
(no upload), and an aggregate file; both admitted on the memory ledger while they open."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from costlib import answers
from costlib.core.errors import DataError
from costlib.core.escaping import display_name, option_names
from costlib.present import labels as t
from costlib.scale import bigdata
from views._ui.data import open_counted, replace_upload
from views._ui.display import say, show_error
from views._ui.mapping import NONE


def use_opened(read: Callable, filename: str) -> bool:
    """Open `filename` with ``read(name)`` (`answers.opened_file`, admitted for its peak by
    `open_counted`) and make it this session's data, to be said once the page reruns; its
    sentence and False when it cannot be opened (nothing already loaded is lost)."""
    try:
        opened = answers.opened_file(read, filename, admit=lambda compute, name: open_counted(compute, name=name))
    except DataError as err:
        show_error(err)
        return False
    replace_upload(opened.dataset, opened=True)
    st.session_state["_loaded"] = opened.loaded
    return True


def data_folder() -> None:
    """The form that opens a file of the server's data folder (nothing when there is no folder)."""
    folder = bigdata.data_folder()
    if folder is not None:
        files = bigdata.list_files(folder)
        if files:
            with st.form("data_folder"):
                say("markdown", t.data_folder_sentence(len(files)))
                picked = st.selectbox(t.FILE, files, key="folder_file", format_func=display_name)
                try:
                    names = bigdata.columns_of(bigdata.safe_path(folder, picked))
                except DataError as err:
                    show_error(err)
                    names = []
                c1, c2, c3, c4 = st.columns(4)
                shown = option_names([NONE, *names])  # a column's name can be as long as a header
                label_col = c1.selectbox(t.FOLDER_LABEL, names, key="folder_label", format_func=shown)
                score_cols = c2.multiselect(t.FOLDER_SCORES, names, key="folder_scores", format_func=shown)
                group_col = c3.selectbox(t.GROUP_COLUMN, [NONE, *names], key="folder_group", format_func=shown)
                split_col = c4.selectbox(t.FOLDER_SPLIT, [NONE, *names], key="folder_split", format_func=shown)
                opened = st.form_submit_button(t.FOLDER_OPEN)
            if opened:
                try:
                    read = answers.folder_reader(
                        bigdata.safe_path(folder, picked),
                        label=label_col,
                        scores=score_cols,
                        group=None if group_col == NONE else group_col,
                        split=None if split_col == NONE else split_col,
                    )
                except DataError as err:
                    show_error(err)
                else:
                    if use_opened(read, picked):
                        st.rerun()
        else:
            st.caption(t.EMPTY_FOLDER)
