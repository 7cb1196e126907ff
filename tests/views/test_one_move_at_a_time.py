"""Price moves of every session answer one at a time (`views._ui.page.one_move_at_a_time`): moves
that share the interpreter all finish late (issue 39's load test); a page's whole run never waits,
and no move waits longer than the bound behind one that happens to be long."""

from __future__ import annotations

import threading

from views._ui import page


def test_moves_take_their_turn():
    inside, most, lock = [0], [0], threading.Lock()
    taken = []
    start = threading.Barrier(4)

    def move():
        start.wait()
        with page.one_move_at_a_time(True, wait_s=30) as mine:
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            threading.Event().wait(0.02)
            with lock:
                inside[0] -= 1
        taken.append(mine)

    threads = [threading.Thread(target=move) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert most[0] == 1 and taken == [True] * 4


def test_a_page_run_never_waits_and_a_move_waits_only_so_long():
    with page.one_move_at_a_time(True) as held:  # a move answering now
        assert held
        with page.one_move_at_a_time(False) as page_run:  # a page's whole run: straight in
            assert page_run is False
        got = []
        other = threading.Thread(target=lambda: got.append(page.one_move_at_a_time(True, wait_s=0.05).__enter__()))
        other.start()
        other.join(timeout=10)
        assert got == [False]  # it gave up waiting and ran beside the long one, while that still held


def test_a_move_stopped_midway_lets_the_next_one_in():
    try:
        with page.one_move_at_a_time(True):
            raise RuntimeError("a newer move stopped this run")  # Streamlit stops a run by raising
    except RuntimeError:
        pass
    with page.one_move_at_a_time(True, wait_s=0.01) as taken:
        assert taken


def test_a_move_is_a_fragments_rerun_alone(monkeypatch):
    """Streamlit sets `fragment_ids_this_run` only for a fragment's rerun alone (None on a page's run,
    which draws its fragments inline and must not wait)."""
    from types import SimpleNamespace

    for ids, alone in ((["f1"], True), ([], False), (None, False)):
        monkeypatch.setattr(page, "get_script_run_ctx", lambda ids=ids: SimpleNamespace(fragment_ids_this_run=ids))
        assert page._alone() is alone
    monkeypatch.setattr(page, "get_script_run_ctx", lambda: None)
    assert page._alone() is False  # outside a script run
