"""What the machine and the server's event loop were doing during a load test, second by second.

A load test's slow moves can be the server's own work queueing (its interpreter busy with other
sessions' moves) or the machine's (other processes, or the hypervisor taking the cores away:
"steal"). `MachineWatch` samples, every `period` seconds in a thread of the load test's process,
Linux's ``/proc/stat`` (the whole machine's busy, idle and stolen time), the server's CPU seconds
and ``/proc/pressure/cpu`` (time some runnable task waited for a core); `loop_lag_probe` runs in
the server and logs how late its event loop runs a callback scheduled every 10 ms (a loop held
up delays every session's messages). `during` reads both over a window: the phase, or the
seconds around its slowest moves.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

from processes import cpu_seconds

TICK = os.sysconf("SC_CLK_TCK")
LAG_EVERY_S = 0.01  # the loop probe's ping
LAG_LOGGED_S = 0.02  # a ping later than this is logged (wall time, seconds late)


def _proc_stat() -> tuple[float, float, float]:
    """(busy, idle, steal) seconds of all cores so far, from the first line of /proc/stat."""
    with open("/proc/stat") as fh:
        v = [int(x) for x in fh.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = v[:8]
    return (user + nice + system + irq + softirq) / TICK, (idle + iowait) / TICK, steal / TICK


def _pressure() -> float:
    """Seconds some runnable task waited for a core so far (PSI's 'some total'), or NaN."""
    with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/pressure/cpu") as fh:
        return int(fh.readline().split("total=")[1]) / 1e6
    return float("nan")


class MachineWatch:
    """Samples of (wall time, machine busy, idle, steal, server CPU, CPU pressure), cumulative."""

    def __init__(self, server_pid: int | tuple, period: float = 0.1):
        self.server_pid, self.period = server_pid, period
        self.samples: list[tuple[float, ...]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="machine-watch", daemon=True)

    def sample(self) -> None:
        """One sample now (besides the thread's): a window that ends now is then bracketed."""
        with contextlib.suppress(OSError):
            pids = self.server_pid if isinstance(self.server_pid, tuple) else (self.server_pid,)
            self.samples.append((time.time(), *_proc_stat(), sum(cpu_seconds(p) for p in pids), _pressure()))

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(self.period)

    def start(self) -> MachineWatch:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def during(self, start: float, end: float, lags: list[tuple[float, float]] | None = None) -> dict | None:
        """The machine between wall times `start` and `end` (the samples that bracket them): cores busy,
        the server's share, the others' (busy minus the server), stolen, waited-for; and the
        server loop's late pings (`lags`, from `read_lags`) in that window (None without a probe)."""
        samples = sorted(self.samples)  # two threads append: in time order
        before = [s for s in samples if s[0] <= start]  # the samples that bracket the window
        after = [s for s in samples if s[0] >= end]
        if not before or not after:
            return None
        (t0, b0, _, s0, c0, p0), (t1, b1, _, s1, c1, p1) = before[-1], after[0]
        wall = max(t1 - t0, 1e-9)
        late = None if lags is None else [lag for at, lag in lags if start <= at <= end]
        return {
            "seconds": round(wall, 2),
            "cores_busy": round((b1 - b0) / wall, 2),  # of os.cpu_count() cores
            "server_cores": round((c1 - c0) / wall, 2),
            "others_cores": round(max(b1 - b0 - (c1 - c0), 0.0) / wall, 2),
            "stolen_cores": round((s1 - s0) / wall, 3),
            "waited_for_a_core": round((p1 - p0) / wall, 2),  # PSI: share of time some task waited
            "loop_late_pings": None if late is None else len(late),
            "loop_lag_max_ms": None if late is None else round(1000 * max(late, default=0.0)),
        }


PROBING = "# probing"  # the probe's first line, once it has found the loop


def read_lags(path: Path) -> list[tuple[float, float]] | None:
    """The server loop's late pings (wall time, seconds late) that `loop_lag_probe` logged, or
    None when it never found the loop (no probe: not "no lag")."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return None
    if PROBING not in lines[:1]:
        return None
    out = []
    for line in lines[1:]:
        with contextlib.suppress(ValueError):
            at, lag = line.split()
            out.append((float(at), float(lag)))
    return out


def loop_lag_probe(path: str) -> None:
    """In the server: a thread that, once Streamlit's runtime has its event loop, schedules a
    callback on it every `LAG_EVERY_S` and logs to `path` each one run more than `LAG_LOGGED_S`
    late (the loop was busy or blocked: every session's messages waited as long)."""
    log = open(path, "a", buffering=1)  # noqa: SIM115 (open for the server's life)

    def ran(asked: float) -> None:
        late = time.perf_counter() - asked
        if late > LAG_LOGGED_S:
            log.write(f"{time.time() - late:.3f} {late:.4f}\n")

    def ping() -> None:
        from streamlit.runtime import Runtime

        loop = None
        while loop is None:
            time.sleep(0.2)
            with contextlib.suppress(Exception):
                loop = Runtime.instance()._get_async_objs().eventloop
        log.write(f"{PROBING}\n")
        while not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(ran, time.perf_counter())
            time.sleep(LAG_EVERY_S)

    threading.Thread(target=ping, name="loop-lag-probe", daemon=True).start()
