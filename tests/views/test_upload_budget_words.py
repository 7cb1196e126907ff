"""A file too big for a small server that holds nothing else (issue 45): the Data page says the
file alone needs more than one table may take on this server, not that the server is busy; a
busy server is named as busy only when other sessions' data is what is in the way."""

from __future__ import annotations

import pytest

from costlib.loading import budget
from costlib.loading.ledger import LEDGER
from tests.loading.test_loading_limits import bomb
from tests.views.apptest_support import load_file, open_app


@pytest.fixture(autouse=True)
def _small_idle_server(monkeypatch):
    monkeypatch.setenv(budget.SERVER_MEMORY_ENV, "400")  # less than the 4 GB upload budget
    monkeypatch.delenv(budget.UPLOAD_MEMORY_ENV, raising=False)
    LEDGER._held.clear()  # every AppTest session has the same id: start with an empty ledger
    LEDGER._closed.clear()
    yield
    LEDGER._held.clear()
    LEDGER._closed.clear()


def test_a_parquet_bomb_on_an_idle_400_mb_server_is_too_big_for_it_not_refused_as_busy():
    at = open_app("compas", "views/data.py")
    load_file(at, "bomb.parquet", bomb(100_000_000), "application/octet-stream")
    text = "\n".join(e.value.replace("\\", "") for e in at.error)
    assert '"bomb.parquet" holds 100,000,000 rows, about 1.6 GB once read into memory' in text, text
    assert "that one table may take on this server even when it holds nothing else" in text
    assert "big-data path" in text and "busy" not in text and "try again" not in text
    assert LEDGER.held() < 50 << 20  # nothing of the file was read
