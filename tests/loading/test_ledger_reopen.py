"""A closed account on the memory ledger records nothing more (a computation still finishing after
its session ended must not hold memory on the ledger for ever), until its session is watched
again: a browser that lost its connection comes back to the same session id, and what it loads
then must count against the server budget, or the server admits past it."""

from __future__ import annotations

import pytest

from costlib.core.errors import DataError
from costlib.loading.ledger import MemoryLedger


def test_a_reopened_account_counts_again_and_its_end_closes_it_again():
    ledger = MemoryLedger(budget=lambda: 100, share=lambda: 100)
    ledger.admit("s", "table", 60, what="Reading “t.csv”")
    ledger.close("s")  # the websocket closed: the session's data is dropped
    ledger.hold("s", "table", 60)  # a read that was still running finishes: not held for ever
    assert ledger.held() == 0
    ledger.reopen("s")  # the same session id comes back
    ledger.admit("s", "table", 60, what="Reading “t.csv”")
    assert ledger.held("s") == 60
    with pytest.raises(DataError):  # 60 + 50 > 100: the returning session's table is in the budget
        ledger.admit("other", "table", 50, what="Reading “u.csv”")
    ledger.close("s")  # its second end hands it back again
    ledger.admit("other", "table", 50, what="Reading “u.csv”")
    assert ledger.held() == 50


def test_reopening_an_open_or_unknown_account_changes_nothing():
    ledger = MemoryLedger(budget=lambda: 100, share=lambda: 100)
    ledger.admit("s", "table", 30, what="Reading “t.csv”")
    ledger.reopen("s")
    ledger.reopen("never seen")
    assert ledger.held("s") == 30 and ledger.accounts() == ["s"]
