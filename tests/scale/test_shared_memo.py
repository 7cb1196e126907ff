"""Many people at once: results on a built-in sample are computed once for the whole server.

`benchmarks/load_test.py` measures twenty sessions moving prices together; what these tests
hold is what made that cheaper: a sample's answers are shared by every session (computed by
the first one that asks, the others waiting for it), while an upload's stay in its session.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pandas as pd
import pytest

from costlib.binary import decision
from tests.views.apptest_support import load_file, open_app
from views._ui import memo as memo_module
from views._ui.memo import SHARED, SharedMemo


def test_concurrent_askers_compute_a_key_once_and_share_the_value():
    shared = SharedMemo(4)
    calls, got = [], []

    def compute():
        calls.append(1)
        time.sleep(0.2)  # long enough that every thread asks while the first computes
        return object()

    threads = [threading.Thread(target=lambda: got.append(shared.get("k", compute))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert len(calls) == 1
    assert len(got) == 8 and all(v is got[0] for v in got)


def test_a_failed_computation_is_met_by_every_asker_and_not_kept():
    shared = SharedMemo(4)
    started = threading.Event()
    errors = []

    def failing():
        started.set()
        time.sleep(0.1)
        raise ValueError("bad")

    def ask():
        try:
            shared.get("k", failing)
        except ValueError as exc:
            errors.append(exc)

    first = threading.Thread(target=ask)
    first.start()
    started.wait(5)
    second = threading.Thread(target=ask)  # waits for the first, then computes and fails itself
    second.start()
    first.join(10)
    second.join(10)
    assert len(errors) == 2
    assert len(shared) == 0
    assert shared.get("k", lambda: 7) == 7  # nothing was kept: the next ask computes


def test_the_least_recently_used_result_leaves_first():
    shared = SharedMemo(2)
    shared.get("a", lambda: 1)
    shared.get("b", lambda: 2)
    shared.get("a", lambda: -1)  # a is used again: b is now the oldest
    shared.get("c", lambda: 3)
    assert shared.get("a", lambda: -1) == 1
    assert shared.get("b", lambda: 20) == 20  # b had left and is computed again


@pytest.fixture
def counted_recommend(monkeypatch):
    calls = []
    real = decision.recommend

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(decision, "recommend", counting)
    return calls


def test_a_second_session_on_a_sample_reads_the_first_sessions_answer(counted_recommend):
    open_app("compas", "views/costs.py", c_fp=1, c_fn=3.5)
    first = len(counted_recommend)
    open_app("compas", "views/costs.py", c_fp=1, c_fn=3.5)
    assert len(counted_recommend) == first  # the same sample and prices: nothing computed again
    assert any(key[0] == "recommend" for key in SHARED._values)


def test_an_uploads_answers_stay_in_its_session(counted_recommend):
    rng = np.random.default_rng(3)
    p = rng.random(400).round(4)
    frame = pd.DataFrame({"label": (rng.random(400) < p).astype(int), "score": p})
    at = open_app(None)
    load_file(at, "mine.csv", frame.to_csv(index=False).encode())
    at.switch_page("views/costs.py").run()
    fingerprint = at.session_state["upload_dataset"].fingerprint
    assert counted_recommend  # computed in the session
    assert not any(key[1][0] == fingerprint for key in SHARED._values)
    assert any(key[1][0] == fingerprint for key in at.session_state["_memo"])
    assert memo_module.dataset_key(at.session_state["upload_dataset"]) not in memo_module._SHARED_DATA
