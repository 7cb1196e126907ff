"""A session that loses its connection and comes back to the same session id is counted on the
server's memory ledger again: Streamlit releases the session's resources on the disconnect
(`views._ui.memory._ended` closes its account), and what the session loads after it returns must
count against the server budget, or the server admits past it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from streamlit.runtime import caching

from costlib.loading import budget
from costlib.loading.ledger import LEDGER
from tests.views.apptest_support import load_file, open_app


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


def test_a_session_that_comes_back_after_a_disconnect_is_counted_again():
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
