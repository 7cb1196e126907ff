"""`benchmarks/machine_watch.py`: what the load test says the machine and the server's event loop
were doing (its figures decide whether a slow move was the server's work or the machine's)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def mw():
    sys.path.insert(0, str(BENCH))
    try:
        import machine_watch

        yield machine_watch
    finally:
        sys.path.remove(str(BENCH))


def test_during_reads_the_samples_around_the_window(mw):
    w = mw.MachineWatch(server_pid=1, period=0.5)
    # (wall, busy, idle, steal, server cpu, pressure), cumulative seconds
    w.samples = [(100.0, 0.0, 0.0, 0.0, 0.0, 0.0), (101.0, 1.5, 0.5, 0.1, 1.0, 0.4), (102.0, 3.5, 0.5, 0.3, 1.5, 1.4)]
    got = w.during(100.2, 101.9, lags=[(100.5, 0.03), (101.5, 0.25), (103.0, 0.9)])
    assert got["seconds"] == 2.0
    assert got["cores_busy"] == 1.75 and got["server_cores"] == 0.75 and got["others_cores"] == 1.0
    assert got["stolen_cores"] == 0.15 and got["waited_for_a_core"] == 0.7
    assert got["loop_late_pings"] == 2 and got["loop_lag_max_ms"] == 250  # the ping at 103 is outside
    assert w.during(100.2, 100.3)["seconds"] == 1.0  # bracketed by the samples at 100 and 101
    assert w.during(99.0, 101.0) is None and w.during(101.5, 103.0) is None  # a window the samples do not bracket
    assert w.during(100.2, 101.9)["loop_late_pings"] is None  # no probe is not "no lag"


def test_read_lags_tells_no_probe_from_no_lag(mw, tmp_path):
    log = tmp_path / "runs.log.lag"
    assert mw.read_lags(log) is None
    log.write_text("1.0 0.5\n")
    assert mw.read_lags(log) is None  # never found the loop
    log.write_text(f"{mw.PROBING}\n")
    assert mw.read_lags(log) == []
    log.write_text(f"{mw.PROBING}\n12.5 0.031\nbroken\n13.0 0.2\n")
    assert mw.read_lags(log) == [(12.5, 0.031), (13.0, 0.2)]


def test_a_watch_samples_this_machine(mw):
    import os
    import time

    w = mw.MachineWatch(os.getpid(), period=0.05).start()
    w.sample()  # a sample of our own on each side of the work: the thread may not get the
    start = w.samples[-1][0]  # interpreter's lock while this loop holds it (a busy CI machine)
    end = time.process_time() + 0.3
    while time.process_time() < end:  # 0.3 s of this process's CPU, however long that takes
        sum(range(1000))
    w.sample()
    w.stop()
    got = w.during(start, max(s[0] for s in w.samples))
    assert got["seconds"] > 0 and got["server_cores"] * got["seconds"] >= 0.2
    assert got["cores_busy"] >= got["server_cores"] - 0.2
