"""Start and stop `streamlit run app.py` for the browser journeys and the latency benchmark.

The server listens on a free loopback port, is polled on /_stcore/health until it answers
"ok", and cannot outlive the Python process that started it: it is terminated (then killed)
by `stop()`, by an atexit hook, and, on Linux, by the kernel when its parent dies.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("COSTLIB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
SERVER_START_TIMEOUT = 60.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


try:  # Linux: ask the kernel to SIGTERM the server when the process that started it dies
    _PRCTL = ctypes.CDLL("libc.so.6", use_errno=True).prctl if sys.platform.startswith("linux") else None
except OSError:
    _PRCTL = None


def _die_with_parent() -> None:  # runs in the child between fork and exec: no imports here
    if _PRCTL is not None:
        _PRCTL(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


class AppServer:
    """`streamlit run app.py` on a free loopback port; `url` is its root, `log` its output."""

    def __init__(
        self,
        log_path: Path,
        *,
        cwd: Path = REPO,
        extra_args: tuple[str, ...] = (),
        script: str = "app.py",
        warm: bool = False,
        command: tuple[str, ...] = (),
    ):
        self.log_path = log_path
        self.cwd = cwd
        self.extra_args = list(extra_args)
        self.script = script
        self.warm = warm  # start it as `python -m costlib dashboard` (imports warmed) instead of `streamlit run`
        self.command = list(command)  # or this command (an installed `costlib dashboard`), then the flags below
        self.proc: subprocess.Popen | None = None
        self.url = ""

    def start(self, attempts: int = 3) -> AppServer:
        last = ""
        for _ in range(attempts):
            port = _free_port()
            launch = ["-m", "costlib", "dashboard"] if self.warm else ["-m", "streamlit", "run", self.script]
            if self.warm and "--processes" not in self.extra_args:  # one server, whose pid's memory is read
                launch += ["--processes", "1"]  # (`peak_rss_mb`); the default's balancer: test_installed.py
            cmd = [
                *(self.command or [sys.executable, *launch]),
                "--server.headless",
                "true",
                "--server.fileWatcherType",
                "none",
                "--browser.gatherUsageStats",
                "false",
                "--server.address",
                "127.0.0.1",
                "--server.port",
                str(port),
                *self.extra_args,
            ]
            env = {**os.environ, "PYTHONUNBUFFERED": "1"}
            with open(self.log_path, "ab") as log:
                self.proc = subprocess.Popen(
                    cmd,
                    cwd=self.cwd,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    env=env,
                    start_new_session=False,
                    preexec_fn=_die_with_parent if _PRCTL is not None else None,
                )
            atexit.register(_stop, self.proc)
            self.url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + SERVER_START_TIMEOUT
            while time.monotonic() < deadline and self.proc.poll() is None:
                try:
                    with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as r:
                        if r.read().strip() == b"ok":
                            return self
                except OSError:
                    pass
                time.sleep(0.2)
            last = self.log_tail()
            _stop(self.proc)  # exited (port taken?) or too slow: try another port
        raise RuntimeError(
            f"streamlit did not answer ok on /_stcore/health within {SERVER_START_TIMEOUT:.0f}s. Server output:\n{last}"
        )

    def peak_rss_mb(self) -> float:
        """The server process's peak resident memory so far (VmHWM), in MB (Linux)."""
        try:
            with open(f"/proc/{self.proc.pid}/status") as fh:
                for line in fh:
                    if line.startswith("VmHWM:"):
                        return round(int(line.split()[1]) / 1024, 1)
        except OSError:
            pass
        return float("nan")

    def stop(self) -> None:
        if self.proc is not None:
            _stop(self.proc)

    def log_size(self) -> int:
        return self.log_path.stat().st_size if self.log_path.exists() else 0

    def log_since(self, offset: int) -> str:
        with open(self.log_path, "rb") as f:
            f.seek(offset)
            return f.read().decode("utf-8", "replace")

    def log_tail(self, n: int = 4000) -> str:
        if not self.log_path.exists():
            return ""
        return self.log_path.read_text("utf-8", "replace")[-n:]
