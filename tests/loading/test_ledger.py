"""The server's memory ledger and the budgets it keeps: admissions never pass the budget, a
refusal changes nothing, reservations end with their block, and the upload budget covers the
work an upload leads to (the pages' sweeps, the training features), on every path."""

from __future__ import annotations

import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib import loading
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.loading import budget, ledger
from costlib.loading.frames import frame_bytes
from costlib.loading.ledger import MemoryLedger, held_bytes, return_memory
from costlib.training import data as training_data

steps = st.lists(
    st.tuples(
        st.sampled_from(["admit", "release", "close", "hold"]),
        st.sampled_from(["a", "b", "c"]),
        st.sampled_from(["table", "dataset", "features"]),
        st.integers(0, 150),
    ),
    max_size=60,
)


@given(steps)
@settings(max_examples=300, deadline=None)
def test_admissions_never_pass_the_budget_nor_a_share_and_a_refusal_changes_nothing(ops):
    ledger = MemoryLedger(budget=lambda: 200, share=lambda: 120)
    model: dict = {}  # the slow reference: {(account, key): bytes}
    closed: set = set()  # a closed account records nothing more
    for op, account, key, n in ops:
        if op == "admit":
            others = sum(v for k, v in model.items() if k != (account, key))
            mine = sum(v for k, v in model.items() if k[0] == account and k != (account, key))
            if others + n > 200 or mine + n > 120:
                before = dict(model)
                with pytest.raises(DataError) as err:
                    ledger.admit(account, key, n, what="Reading “t.csv”")
                assert err.value.message.startswith("Reading “t.csv” would need about")
                assert model == before
            else:
                ledger.admit(account, key, n, what="x")
                if account not in closed:
                    model[(account, key)] = n
        elif op == "hold":
            ledger.hold(account, key, n)
            if account not in closed:
                model[(account, key)] = n
        elif op == "release":
            ledger.release(account, key)
            model.pop((account, key), None)
        else:
            ledger.close(account)
            closed.add(account)
            model = {k: v for k, v in model.items() if k[0] != account}
        assert ledger.held() == sum(model.values())
        for who in "abc":
            assert ledger.held(who) == sum(v for k, v in model.items() if k[0] == who)
        assert sorted(ledger.accounts()) == sorted({k[0] for k in model})


def test_the_refusal_says_what_was_asked_what_is_free_and_what_this_session_holds():
    ledger = MemoryLedger(budget=lambda: 10_000_000, share=lambda: 10_000_000)
    ledger.admit("me", "old", 3_000_000, what="x")
    ledger.admit("other", "t", 6_000_000, what="x")
    with pytest.raises(DataError) as err:
        ledger.admit("me", "new", 2_000_000, what="Reading “b.csv”")
    text = err.value.message
    assert "2 MB" in text and "1 MB free" in text and "10 MB" in text and "this session holds 3 MB" in text
    assert "Nothing you had loaded is lost" in text


def test_a_session_past_its_share_is_refused_counting_what_leaves_its_store_as_free():
    ledger = MemoryLedger(budget=lambda: 10_000, share=lambda: 100)
    ledger.admit("me", ("_parsed", "old"), 60, what="x")
    with pytest.raises(DataError) as err:
        ledger.admit("me", ("_parsed", "new"), 50, what="Reading “new.csv”")
    assert "this session already holds 60 bytes of the 100 bytes one session may hold" in err.value.message
    assert "reload the page" in err.value.message and ledger.held("me") == 60
    ledger.admit("me", ("_parsed", "new"), 50, what="x", freeing=(("_parsed", "old"),))  # the old one leaves
    assert ledger.held("me") == 110  # until the store drops it
    ledger.release("me", ("_parsed", "old"))
    assert ledger.held("me") == 50


def test_a_computation_finishing_after_its_session_ended_does_not_reopen_the_account():
    ledger = MemoryLedger(budget=lambda: 1000, share=lambda: 1000)
    ledger.admit("gone", "table", 100, what="x")
    ledger.close("gone")  # the tab closed while the table was being prepared
    ledger.hold("gone", "table", 400)  # the preparation finishes and records what it made
    ledger.admit("gone", "more", 100, what="x")
    assert ledger.held() == 0 and ledger.accounts() == []


def test_a_value_replacing_its_key_counts_only_once():
    ledger = MemoryLedger(budget=lambda: 100)
    ledger.admit("a", "k", 80, what="x")
    ledger.admit("a", "k", 90, what="x")  # replaces the 80: fits
    assert ledger.held() == 90 and ledger.room("a", "k") == 100


def test_a_reservation_is_released_when_its_block_fails():
    ledger = MemoryLedger(budget=lambda: 100)
    with pytest.raises(RuntimeError), ledger.reserved("a", "read", 70, what="x"):
        assert ledger.held() == 70
        raise RuntimeError("the read failed")
    assert ledger.held() == 0
    with ledger.reserved("a", "read", 100, what="x"):
        pass
    assert ledger.held() == 0


def test_concurrent_admissions_from_many_threads_never_overbook():
    ledger = MemoryLedger(budget=lambda: 1000)
    admitted = []

    def worker(i):
        try:
            ledger.admit(f"s{i}", "t", 100, what="x")
            admitted.append(i)
        except DataError:
            pass

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(admitted) == 10 and ledger.held() == 1000


def test_the_allowance_is_the_upload_budget_unless_the_server_has_less_free(monkeypatch):
    monkeypatch.setenv(budget.UPLOAD_MEMORY_ENV, "64")
    ledger = MemoryLedger(budget=lambda: 100 << 20)
    assert ledger.allowance("a", "k") == budget.Allowance(64 << 20)
    ledger.hold("b", "t", 80 << 20)
    limit = ledger.allowance("a", "k")
    assert limit.server and limit.peak == 20 << 20


def test_a_read_on_a_busy_server_is_refused_in_the_busy_servers_words():
    csv = b"label,score\n" + b"1,0.123456789\n0,0.987654321\n" * 50_000
    busy = budget.Allowance(400_000, server=True, whole=4_000_000, others=3_600_000)
    with pytest.raises(DataError) as err:
        loading.read_table(csv, "big.csv", limit=busy)
    assert "other sessions hold 3.6 MB of this server's 4 MB" in err.value.message and "big.csv" in err.value.message
    assert "try again in a few minutes" in err.value.message
    with pytest.raises(DataError) as err:
        loading.read_table(csv, "big.csv", limit=budget.Allowance(400_000))
    assert "that one uploaded table may take here" in err.value.message
    assert len(loading.read_table(csv, "big.csv")) == 100_000


def test_a_parquet_bomb_on_a_small_idle_server_is_too_big_for_it_not_refused_as_busy(monkeypatch):
    # issue 45: a server of 400 MB that holds nothing: the file alone would need more than it has
    from tests.loading.test_loading_limits import bomb

    monkeypatch.delenv(budget.UPLOAD_MEMORY_ENV, raising=False)  # 4 GB: the server's 400 MB set the limit
    ledger = MemoryLedger(budget=lambda: 400 << 20)
    limit = ledger.allowance("me", "k")
    assert limit.server and limit.whole == 400 << 20 and limit.others == 0 and limit.mine == 0
    with pytest.raises(DataError) as err:
        loading.read_table(bomb(100_000_000), "bomb.parquet", limit=limit)
    msg = err.value.message
    assert "about 1.6 GB once read into memory, more than the 105 MB" in msg  # 400 MiB / 4 = 104.9 MB
    assert "one table may take on this server even when it holds nothing else" in msg
    assert "busy" not in msg and "try again" not in msg and "big-data path" in msg


def test_a_csv_over_a_small_idle_servers_memory_is_too_big_for_it_not_refused_as_busy(monkeypatch):
    monkeypatch.delenv(budget.UPLOAD_MEMORY_ENV, raising=False)
    csv = b"label,score\n" + b"1,0.123456789\n0,0.987654321\n" * 50_000  # 1.6 MB parsed
    ledger = MemoryLedger(budget=lambda: 400_000)  # a table may take 100 kB on this server
    with pytest.raises(DataError) as err:
        loading.read_table(csv, "big.csv", limit=ledger.allowance("me", "k"))
    msg = err.value.message
    assert "more than the 100 kB that one table may take on this server even when it holds nothing else" in msg
    assert "busy" not in msg and "try again" not in msg and "big-data path" in msg


def test_a_parquet_file_refused_for_other_sessions_data_says_how_much_they_hold(monkeypatch):
    from tests.loading.test_loading_limits import bomb

    monkeypatch.delenv(budget.UPLOAD_MEMORY_ENV, raising=False)
    ledger = MemoryLedger(budget=lambda: 400 << 20)
    ledger.hold("other", "t", 300 << 20)  # another session holds 300 MiB: 100 MiB free, 25 MiB a table
    data = bomb(2_000_000)  # 32 MB once read: fits an idle 400 MB server (100 MB a table), not this one
    with pytest.raises(DataError) as err:
        loading.read_table(data, "p.parquet", limit=ledger.allowance("me", "k"))
    msg = err.value.message
    assert "about 32 MB once read into memory, more than the 26.2 MB that a new table may take now" in msg
    assert "other sessions hold 315 MB of this server's 419 MB" in msg and "try again in a few minutes" in msg
    ledger.release("other", "t")
    assert len(loading.read_table(data, "p.parquet", limit=ledger.allowance("me", "k"))) == 2_000_000


def test_a_parquet_file_refused_for_this_sessions_own_data_does_not_blame_others(monkeypatch):
    from tests.loading.test_loading_limits import bomb

    monkeypatch.delenv(budget.UPLOAD_MEMORY_ENV, raising=False)
    ledger = MemoryLedger(budget=lambda: 400 << 20, share=lambda: 4 << 30)
    ledger.hold("me", "old", 300 << 20)
    with pytest.raises(DataError) as err:
        loading.read_table(bomb(2_000_000), "p.parquet", limit=ledger.allowance("me", "k"))
    msg = err.value.message
    assert "this session already holds 315 MB of this server's 419 MB" in msg and "fresh session" in msg
    assert "other sessions" not in msg and "try again" not in msg


def test_the_ledgers_refusal_names_what_makes_the_difference():
    ledger = MemoryLedger(budget=lambda: 10_000_000, share=lambda: 100_000_000)
    with pytest.raises(DataError) as err:  # idle server, too big for it
        ledger.admit("me", "t", 20_000_000, what="Reading “b.csv”")
    assert "more than the 10 MB this whole server may hold even when it holds nothing else" in err.value.message
    assert "try again" not in err.value.message
    ledger.admit("me", "old", 8_000_000, what="x")
    with pytest.raises(DataError) as err:  # only this session's data is in the way
        ledger.admit("me", "new", 5_000_000, what="Reading “b.csv”")
    assert "this session holds 8 MB of its 10 MB" in err.value.message and "fresh session" in err.value.message
    ledger.release("me", "old")
    ledger.admit("other", "t", 8_000_000, what="x")
    with pytest.raises(DataError) as err:  # another session's data is in the way
        ledger.admit("me", "new", 5_000_000, what="Reading “b.csv”")
    assert "other sessions 8 MB" in err.value.message and "try again in a few minutes" in err.value.message


def test_held_bytes_counts_each_buffer_once_and_follows_datasets():
    a = np.zeros(100_000)
    assert held_bytes({"a": a, "view": a[10:], "again": [a]}) < a.nbytes + 2_000
    df = pd.DataFrame({"label": np.arange(1000) % 2, "score": np.zeros(1000)})
    ds = loading.prepare(df, ColumnMapping(label="label", scores=("score",)), name="t", fingerprint="")
    assert 9_000 <= held_bytes(ds) <= 30_000


def test_the_server_budget_is_half_the_machine_unless_set(monkeypatch):
    monkeypatch.delenv(budget.SERVER_MEMORY_ENV, raising=False)
    assert budget.server_memory_budget() == budget.machine_memory() // 2
    monkeypatch.setenv(budget.SERVER_MEMORY_ENV, "512")
    assert budget.server_memory_budget() == 512 << 20
    monkeypatch.setenv(budget.SERVER_MEMORY_ENV, "lots")
    with pytest.warns(UserWarning, match="not a number"):
        assert budget.server_memory_budget() == budget.machine_memory() // 2


def test_the_upload_budget_covers_the_pages_work_not_only_the_read(monkeypatch):
    monkeypatch.setenv(budget.UPLOAD_MEMORY_ENV, "64")
    rows = (64 << 20) // budget.WORK_PER_ROW  # the work of this many rows with one score fills the budget
    over = pd.DataFrame({"label": np.arange(rows + 1) % 2, "score": np.zeros(rows + 1)})
    with pytest.raises(DataError) as err:
        loading.prepare(over, ColumnMapping(label="label", scores=("score",)), name="big.csv", fingerprint="")
    assert "big.csv" in err.value.message and f"{rows + 1:,} rows" in err.value.message
    assert "1 score column" in err.value.message
    fits = over.iloc[: rows // 2]
    loading.prepare(fits, ColumnMapping(label="label", scores=("score",)), name="ok.csv", fingerprint="")
    two = over.assign(other=over["score"])  # two score columns: twice the work
    with pytest.raises(DataError, match="2 score columns"):
        loading.prepare(
            two.iloc[: rows // 2 + 1000],
            ColumnMapping(label="label", scores=("score", "other")),
            name="t",
            fingerprint="",
        )


def test_training_text_too_long_for_the_budget_is_refused_before_its_features_are_built(monkeypatch):
    monkeypatch.setenv(budget.UPLOAD_MEMORY_ENV, "16")
    chars = (16 << 20) // training_data.TEXT_PEAK_PER_BYTE
    words = "alpha beta gamma delta " * 20
    n = chars // len(words) + 2
    df = pd.DataFrame({"text": [words] * n, "delta": np.linspace(-1, 1, n)})
    with pytest.raises(DataError) as err:
        training_data.from_table(df, name="notes.csv", fingerprint="x", text="text", delta="delta")
    assert "notes.csv" in err.value.message and '"text"' in err.value.message and err.value.column == "text"
    assert training_data.features_peak(df, {"text": "text"}) > 16 << 20
    categorical = df.assign(text=df["text"].astype("category"))
    assert training_data.text_chars(categorical["text"]) == training_data.text_chars(df["text"])


def test_return_memory_trims_with_glibc():
    assert return_memory() is True


def test_a_cycle_frozen_with_the_imports_is_freed_when_memory_is_returned():
    """A session open when new modules were frozen has its data frozen too: a cycle in it (a
    page's functions and its globals) is garbage once the session ends, and `return_memory`,
    which runs then, frees it; the collector alone never would."""
    import gc
    import weakref

    class Data:  # stands for a session's data set
        pass

    data = Data()
    page_globals = {"ds": data}
    page_globals["self"] = page_globals  # a page's functions hold their globals, which hold them
    gone = weakref.ref(data)
    ledger._FROZEN_AT[0] = -1  # as if a page had just imported another module
    try:
        assert ledger.freeze_long_lived()
        del data, page_globals  # the session ends
        gc.collect()
        assert gone() is not None  # frozen: the collections after every run skip it
        return_memory()
        assert gone() is None
        assert gc.get_freeze_count() > 0  # what is still alive stays out of the walks
    finally:
        gc.unfreeze()


def test_the_reads_reservation_comes_from_the_parquet_footer_or_the_csv_size():
    import io

    frame = pd.DataFrame({"label": np.arange(100_000) % 2, "score": np.linspace(0, 1, 100_000)})
    buf = io.BytesIO()
    frame.to_parquet(buf, compression="zstd")
    parquet = buf.getvalue()
    # the footer says what the table takes (16 bytes a row here), whatever the compression did
    assert 100_000 * 16 * budget.PEAK_PER_TABLE_BYTE <= loading.read_peak(parquet) < 100_000 * 20 * 4
    assert len(parquet) * budget.PEAK_PER_TABLE_BYTE < loading.read_peak(parquet)
    csv = frame.to_csv(index=False).encode()
    assert loading.read_peak(csv) == budget.PEAK_PER_TABLE_BYTE * 4 * len(csv)
    parsed = loading.read_table(csv, "t.csv")
    assert budget.PEAK_PER_TABLE_BYTE * frame_bytes(parsed) < loading.read_peak(csv)


def test_settle_freezes_what_survived_the_last_runs_and_frees_frozen_cycles_at_a_reset():
    """Streamlit's collection after every run walks what is not frozen: every SETTLE_EVERY runs
    what is alive leaves that walk (twenty sessions' data sets made every walk 14 ms), and a
    cycle frozen alive that dies later (a replaced page's globals) is freed at the next reset."""
    import gc
    import weakref

    class Data:  # stands for what a session keeps (its data set, its folds, its answers)
        pass

    ledger._FROZEN_AT[0] = len(sys.modules)  # no new modules: only the runs' cadence freezes
    kept = Data()
    page_globals = {"ds": Data()}
    page_globals["self"] = page_globals  # a page's functions hold their globals, which hold them
    gone = weakref.ref(page_globals["ds"])
    saved = list(ledger._SETTLED)
    try:
        ledger._SETTLED[:] = [ledger.SETTLE_EVERY - 2, time.monotonic()]  # two runs before a freeze, a reset just made
        assert ledger.settle() is None  # not yet
        assert ledger.settle() == "freeze"
        walked = {id(o) for o in gc.get_objects()}
        assert id(kept) not in walked and id(page_globals) not in walked  # out of the walk after each run
        del page_globals  # the page runs again: its old globals are garbage, in a cycle
        gc.collect()
        assert gone() is not None  # frozen: the collection after each run skips it
        ledger._SETTLED[0] += ledger.SETTLE_EVERY - 1
        assert ledger.settle() == "freeze"  # the last reset was less than RESET_AFTER_S ago
        assert gone() is not None
        ledger._SETTLED[0] += ledger.SETTLE_EVERY - 1
        ledger._SETTLED[1] -= ledger.RESET_AFTER_S
        assert ledger.settle() == "reset"
        assert gone() is None  # the reset walked everything once and freed it
        assert id(kept) not in {id(o) for o in gc.get_objects()}  # what lives is frozen again
    finally:
        ledger._SETTLED[:] = saved
        gc.unfreeze()
