"""This session's part of the server's memory: on the ledger while it lives, gone when it ends.

Every large thing a session keeps (parsed tables, prepared datasets and the work they lead
to, training features) is admitted on `costlib.loading.ledger.LEDGER` before it is made and
recorded at its measured size once it is (`views._ui.memo.remember(weigh=...)`). When the
session disconnects, Streamlit releases its session-scoped resources: `_ended` then drops
the session's state (`SESSION_DATA` first, then the rest: a widget's callback and a
fragment's function hold their page's globals, so its data) and its uploaded files, closes
its account, and hands the freed memory back to the operating system. A person whose
connection drops and comes back has the settings their link holds and is asked for their
file again.
"""

from __future__ import annotations

import contextlib
import threading
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
    "_costs_audit",
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
TRIM_AFTER_S = 2.0


@dataclass(frozen=True)
class _Session:
    account: str
    state: object  # the session's SessionState (a mapping); held only while the session is connected
    fragments: object = None  # its fragment storage: a fragment's function holds its page's globals


def account() -> str:
    """This session's account on the ledger (its session id), watched so that it is closed
    when the session ends."""
    ctx = get_script_run_ctx()
    if ctx is None:
        return LOCAL
    return _watched(ctx.session_id).account


@st.cache_resource(scope="session", on_release=lambda s: _ended(s), show_spinner=False)
def _watched(session_id: str) -> _Session:
    # The session's own state, not the per-run wrapper in ctx.session_state (a SafeSessionState
    # made for each script run, gone once that run ends). Holding it here keeps it no longer than
    # the session does: Streamlit drops this resource when the session disconnects.
    LEDGER.reopen(session_id)  # watched again (a reconnect): counted again, closed again at its end
    ctx = get_script_run_ctx()
    if ctx is None:
        return _Session(session_id, None)
    return _Session(session_id, getattr(ctx.session_state, "_state", None), getattr(ctx, "fragment_storage", None))


def _ended(session: _Session) -> None:
    """The session disconnected: drop what it holds, close its account, and return the memory in
    the background. (Streamlit releases session resources when a session disconnects or shuts
    down, and on ``st.cache_resource.clear()``, which nothing here calls and the viewer toolbar
    does not offer.)"""
    state = session.state
    if state is not None:
        for key in SESSION_DATA:
            with contextlib.suppress(KeyError):
                del state[key]
        # the rest too: a widget's callback holds its page's globals (the page's `ds`), and the
        # widgets' metadata holds the callbacks; a person who comes back has the link's settings
        for holder in (state, session.fragments):
            clear = getattr(holder, "clear", None)
            if clear is not None:
                clear()
    if runtime.exists():  # what Streamlit's own shutdown of a session frees, which a disconnect does not
        rt = runtime.get_instance()
        rt.uploaded_file_mgr.remove_session_files(session.account)
        rt.media_file_mgr.clear_session_refs(session.account)
        rt.media_file_mgr.remove_orphaned_files()
        sources = getattr(rt, "dataframe_source_mgr", None)
        if sources is not None:
            sources.clear_all_for_session(session.account)
    LEDGER.close(session.account)
    trim = threading.Timer(TRIM_AFTER_S, return_memory)  # once the rest of the disconnect has let go too
    trim.daemon = True
    trim.start()
