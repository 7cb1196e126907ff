"""The server's memory budget, seen from a session: a busy server refuses a new upload with a
sentence and keeps what the session had; everything large a session keeps is on the ledger and
in `memory.SESSION_DATA`, which its end drops."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from costlib.loading import budget
from costlib.loading.ledger import LEDGER, held_bytes
from tests.views.apptest_support import load_file, open_app
from views._ui import memory

OTHERS = "another session"


@pytest.fixture(autouse=True)
def _clean_ledger(monkeypatch):
    monkeypatch.setenv(budget.SERVER_MEMORY_ENV, "256")
    LEDGER._held.clear()  # every AppTest session has the same id: start each test with an empty ledger
    LEDGER._closed.clear()
    yield
    LEDGER._held.clear()
    LEDGER._closed.clear()


def predictions(n: int, seed: int) -> bytes:
    rng = np.random.default_rng(seed)
    p = rng.random(n).round(4)
    return pd.DataFrame({"label": (rng.random(n) < p).astype(int), "score": p}).to_csv(index=False).encode()


def errors(at: AppTest) -> str:
    return "\n".join(e.value.replace("\\", "") for e in at.error)


def test_a_busy_server_refuses_a_new_upload_with_a_sentence_and_keeps_what_was_loaded():
    at = open_app("compas", "views/data.py")
    load_file(at, "first.csv", predictions(20_000, 1))
    first = at.session_state["upload_dataset"]
    assert first.n_rows == 20_000
    mine = LEDGER.held()
    assert mine >= budget.work_bytes(20_000, 1)  # the dataset is held with the work it leads to
    LEDGER.hold(OTHERS, "their tables", LEDGER.budget() - mine - 1_000_000)  # the others fill the server
    load_file(at, "second.csv", predictions(50_000, 2))
    text = errors(at)
    # refused by the reader (its table allowance is what is free) or by the ledger (the work)
    assert "second.csv" in text and "this server" in text and "try again in a few minutes" in text, text
    assert "Nothing you had loaded is lost" in text and "big-data path" not in text
    assert at.session_state["upload_dataset"] is first  # nothing already loaded is lost
    assert LEDGER.held(OTHERS) == LEDGER.budget() - mine - 1_000_000  # and nothing of the others is touched
    LEDGER.close(OTHERS)  # the other sessions end
    load_file(at, "second.csv", predictions(50_000, 2))
    assert at.session_state["upload_dataset"].n_rows == 50_000
    assert LEDGER.held() <= LEDGER.budget()


def test_the_held_bytes_follow_the_store_and_leave_with_an_eviction():
    at = open_app("compas", "views/data.py")
    for seed in range(4):  # more uploads than a session keeps parsed (two)
        load_file(at, f"f{seed}.csv", predictions(5_000, seed))
    [account] = LEDGER.accounts()
    stores = {key[0] for key in LEDGER._held[account]}
    assert stores <= {"_parsed", "_prepared"}
    parsed = [key for key in LEDGER._held[account] if key[0] == "_parsed"]
    assert len(parsed) == len(at.session_state["_parsed"]) == 2


def test_everything_large_a_session_keeps_is_in_session_data():
    at = open_app("compas", "views/data.py")
    load_file(at, "mine.csv", predictions(30_000, 3))
    at.switch_page("views/costs.py").run()
    assert not at.exception
    at.switch_page("views/watch.py").run()
    cases = pd.DataFrame({"when": "2026-01-15", "p": np.linspace(0, 1, 20_000), "y": np.arange(20_000) % 2})
    at.file_uploader(key="watch_cases").upload("c.csv", cases.to_csv(index=False).encode(), "text/csv").run()
    assert not at.exception
    state = at.session_state._state.filtered_state
    big = {key for key, value in state.items() if held_bytes(value) > 100_000}
    assert {"upload_dataset", "_watch_cases"} <= big, big
    assert big <= set(memory.SESSION_DATA), big - set(memory.SESSION_DATA)


def test_the_end_of_a_session_drops_its_data_and_closes_its_account():
    class Fragments:  # a fragment's function holds its page's globals, hence the page's data
        def __init__(self):
            self.held = {"live_answer": np.zeros(10)}

        def clear(self):
            self.held.clear()

    state = {key: np.zeros(10) for key in memory.SESSION_DATA} | {"unit": "minutes"}
    fragments = Fragments()
    LEDGER.hold("ended", ("_parsed", "d"), 1_000)
    memory._ended(memory._Session("ended", state, fragments))
    assert state == {} and fragments.held == {}  # nothing of the session remains; the link has its settings
    assert "ended" not in LEDGER.accounts()


def test_a_full_server_still_opens_its_samples():
    LEDGER.hold(OTHERS, "everything", LEDGER.budget())
    at = open_app("screening", "views/costs.py")
    assert not at.error, [e.value for e in at.error]
    assert at.session_state["_samples"]["screening"].n_rows > 1000


def test_a_session_that_comes_back_after_a_disconnect_is_counted_again():
    """A session that loses its connection and comes back to the same session id is counted
    again: Streamlit releases the session's resources on the disconnect (`memory._ended` closes
    its account), and what it loads after it returns must count against the server budget, or
    the server admits past it."""
    from streamlit.runtime import caching

    at = open_app("compas", "views/data.py")
    load_file(at, "first.csv", predictions(20_000, 1))
    [session] = LEDGER.accounts()
    caching.clear_session_resource_cache(session)  # what Streamlit does when the websocket closes
    assert LEDGER.held(session) == 0  # the disconnect handed its memory back
    # the browser reconnects to the same session id (every AppTest has the same one): a fresh
    # client, since the old one's widgets read the state the disconnect cleared
    at = open_app("compas", "views/data.py")
    load_file(at, "again.csv", predictions(20_000, 2))
    assert at.session_state["upload_dataset"].n_rows == 20_000
    # the returning session's upload is on the ledger with the work it leads to (12 + 6.4 MB)
    assert LEDGER.held(session) >= budget.work_bytes(20_000, 1)
