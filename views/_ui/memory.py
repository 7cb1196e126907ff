"""This session's part of the server's memory: on the ledger while it lives, gone when it ends.

Every large thing a session keeps (parsed tables, prepared datasets and the work they lead
to, training features) is admitted on `costlib.loading.ledger.LEDGER` before it is made and
recorded at its measured size once it is (`views._ui.memo.remember(weigh=...)`). When the
session disconnects, Streamlit releases its session-scoped resources: `_ended` then drops
the session's large state (`SESSION_DATA`) and its uploaded files, closes its account, and
hands the freed memory back to the operating system. A person whose connection drops and
comes back finds the samples as before and is asked for their file again.
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from dataclasses import dataclass

import streamlit as st
from streamlit import runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

from costlib.loading.ledger import LEDGER, return_memory

SESSION_DATA = (
    "upload_dataset",
    "_parsed",
    "_prepared",
    "_samples",
    "_memo",
    "_guess",
    "_train_table",
    "_train_features",
    "_train_seeds",
    "_train_done",
    "_watch_cases",
    "_watch_last",
)
"""The session-state keys that hold what a session's data led to; a test holds every key of a
session that used each page against this list."""

LOCAL = "local"  # the account of a script run without a session (bare mode)


@dataclass(frozen=True)
class _Session:
    account: str
    state: weakref.ReferenceType | None


def account() -> str:
    """This session's account on the ledger (its session id), watched so that it is closed
    when the session ends."""
    ctx = get_script_run_ctx()
    if ctx is None:
        return LOCAL
    return _watched(ctx.session_id).account


@st.cache_resource(scope="session", on_release=lambda s: _ended(s), show_spinner=False)
def _watched(session_id: str) -> _Session:
    ctx = get_script_run_ctx()
    state = weakref.ref(ctx.session_state) if ctx is not None else None
    return _Session(session_id, state)


def _ended(session: _Session) -> None:
    """The session disconnected: drop what it holds, close its account, and return the memory in
    the background. (Streamlit releases session resources when a session disconnects or shuts
    down, and on ``st.cache_resource.clear()``, which nothing here calls and the viewer toolbar
    does not offer.)"""
    state = session.state() if session.state is not None else None
    if state is not None:
        for key in SESSION_DATA:
            with contextlib.suppress(KeyError):
                del state[key]
    if runtime.exists():
        runtime.get_instance().uploaded_file_mgr.remove_session_files(session.account)
    LEDGER.close(session.account)
    threading.Thread(target=return_memory, name="costlib-return-memory", daemon=True).start()
