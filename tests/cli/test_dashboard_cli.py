"""``python -m costlib dashboard``: the server starts with Streamlit's flags passed through, and
its help lists the command."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_dashboard_command_starts_the_server_with_streamlits_flags(tmp_path):
    port = _free_port()
    cmd = [sys.executable, "-m", "costlib", "dashboard", "--server.port", str(port), "--server.address", "127.0.0.1"]
    cmd += ["--server.headless", "true", "--browser.gatherUsageStats", "false"]
    with open(tmp_path / "log", "wb") as log:
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
        }  # the checkout (test_installed.py: the wheel)
        proc = subprocess.Popen(
            cmd, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env
        )
    try:
        deadline, answer = time.monotonic() + 90, ""
        while time.monotonic() < deadline and proc.poll() is None and answer != "ok":
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                    answer = r.read().decode()
            except OSError:
                time.sleep(0.5)
        assert answer == "ok", (tmp_path / "log").read_text()  # started from another folder, on the port given
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_help_lists_the_dashboard_command():
    r = subprocess.run([sys.executable, "-m", "costlib", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0 and "dashboard" in r.stdout
    r = subprocess.run(
        [sys.executable, "-m", "costlib", "dashboard", "--help"], cwd=ROOT, capture_output=True, text=True
    )
    assert r.returncode == 0 and "Streamlit's own flags pass through" in r.stdout


def test_the_shipped_settings_go_as_flags_unless_the_deployment_sets_them(tmp_path, monkeypatch):
    from costlib.cli.dashboard import APP, config_flags

    shipped = APP.parent / ".streamlit" / "config.toml"
    monkeypatch.chdir(tmp_path)  # started elsewhere: Streamlit would not read the shipped file
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("STREAMLIT_SERVER_MAX_UPLOAD_SIZE", raising=False)
    flags = config_flags(shipped, [])
    assert "--client.showErrorDetails=none" in flags and "--server.maxUploadSize=200" in flags
    assert "--theme.textColor=#111111" in flags  # the shipped theme, whole
    assert not [f for f in config_flags(shipped, ["--theme.base", "dark"]) if f.startswith("--theme.")]  # none of it
    monkeypatch.setenv("STREAMLIT_SERVER_MAX_UPLOAD_SIZE", "5")  # the deployer's own limit wins
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "config.toml").write_text('[theme]\nbase = "dark"\n')
    flags = config_flags(shipped, [])
    assert "--client.showErrorDetails=none" in flags
    assert not [f for f in flags if f.startswith(("--server.maxUploadSize", "--theme."))]  # no dark text on dark


def test_connections_to_streamlits_listening_socket_send_without_nagles_delay(monkeypatch):
    """Streamlit binds its listening socket with protocol 0, which asyncio's own TCP_NODELAY
    skips; after `send_without_delay` the connections it accepts there send small writes at once."""
    import asyncio
    import asyncio.base_events as base_events

    from streamlit.web.server.starlette import starlette_server

    from costlib.cli.dashboard import send_without_delay

    monkeypatch.setattr(base_events, "_set_nodelay", base_events._set_nodelay)  # restored after the test

    async def accepted_nodelay() -> int:
        listening = starlette_server._bind_socket("127.0.0.1", 0, 8)  # as `streamlit run` binds it
        seen: asyncio.Future = asyncio.get_running_loop().create_future()

        class Record(asyncio.Protocol):
            def connection_made(self, transport):
                sock = transport.get_extra_info("socket")
                seen.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

        server = await asyncio.get_running_loop().create_server(Record, sock=listening)
        async with server:
            _, writer = await asyncio.open_connection(*listening.getsockname()[:2])
            flag = await asyncio.wait_for(seen, 10)
            writer.close()
        return flag

    assert send_without_delay() is True
    assert send_without_delay() is True  # a second call keeps the one wrapper
    assert not getattr(base_events._set_nodelay.__wrapped__, "costlib", False)
    assert asyncio.run(accepted_nodelay()) != 0


def test_the_dashboard_command_serves_without_nagles_delay(monkeypatch):
    import asyncio.base_events as base_events

    from streamlit.web import cli as streamlit_cli

    from costlib.cli import dashboard

    monkeypatch.setattr(base_events, "_set_nodelay", base_events._set_nodelay)
    monkeypatch.setattr(streamlit_cli, "main", lambda: 0)
    monkeypatch.setattr(dashboard, "warm", lambda: None)
    monkeypatch.setattr(dashboard, "_WARMED", threading.Event())  # this process's own flag stays as it was
    monkeypatch.setattr(dashboard, "trim_forever", lambda: None)
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    assert dashboard.run([]) == 0
    assert getattr(base_events._set_nodelay, "costlib", False)


def test_the_dashboard_command_warms_before_the_server_listens(monkeypatch):
    """A first visitor's run must not import the pages' modules while a warm-up thread imports
    them too: CI saw Python break the resulting lock cycle by failing the page's import of
    ``views._ui`` (``_DeadlockError``). So the warm-up is done, in the calling thread, before
    Streamlit's server starts."""
    from streamlit.web import cli as streamlit_cli

    from costlib.cli import dashboard

    seen: list[tuple[str, str]] = []
    monkeypatch.setattr(dashboard, "warm", lambda: seen.append(("warm", threading.current_thread().name)))
    monkeypatch.setattr(dashboard, "_WARMED", threading.Event())
    monkeypatch.setattr(streamlit_cli, "main", lambda: seen.append(("serve", threading.current_thread().name)) or 0)
    monkeypatch.setattr(dashboard, "trim_forever", lambda: None)
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    assert dashboard.run([]) == 0
    here = threading.current_thread().name
    assert seen == [("warm", here), ("serve", here)]


def test_the_pages_modules_are_warmed_once_while_other_runs_wait(monkeypatch):
    """`warm_once` runs the warm-up once however many runs start together; every caller returns
    only after it is done (so no run imports the pages' modules beside it)."""
    from costlib.cli import dashboard

    calls: list[float] = []
    finished: list[float] = []

    def slow_warm():
        calls.append(time.monotonic())
        time.sleep(0.3)
        finished.append(time.monotonic())

    monkeypatch.setattr(dashboard, "warm", slow_warm)
    monkeypatch.setattr(dashboard, "_WARMED", threading.Event())
    returned: list[float] = []
    runs = [
        threading.Thread(target=lambda: (dashboard.warm_once(), returned.append(time.monotonic()))) for _ in range(4)
    ]
    for r in runs:
        r.start()
    for r in runs:
        r.join(10)
    assert len(calls) == 1 and len(returned) == 4
    assert min(returned) >= finished[0]
    dashboard.warm_once()
    assert len(calls) == 1


def test_every_run_of_the_app_warms_the_pages_modules_first(monkeypatch):
    """``app.py`` calls `warm_once` before it navigates to a page (a server started as
    ``streamlit run app.py`` has no warm-up of its own)."""
    from streamlit.testing.v1 import AppTest

    from costlib.cli import dashboard

    order: list[str] = []
    monkeypatch.setattr(dashboard, "warm_once", lambda: order.append("warm"))
    import streamlit as st

    real = st.navigation
    monkeypatch.setattr(st, "navigation", lambda *a, **k: order.append("navigate") or real(*a, **k))
    AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    assert order[:2] == ["warm", "navigate"]


def test_the_served_dashboard_watches_no_files(tmp_path, monkeypatch):
    """Streamlit's file watcher registered watches for every new session (about 0.3 s before its
    first message and 0.3 s after its run, measured on Instance costs): the shipped settings turn
    it off, for a server started in this folder and, as flags, for one started elsewhere."""
    import tomllib

    from costlib.cli.dashboard import APP, config_flags

    config = APP.parent / ".streamlit" / "config.toml"
    assert tomllib.loads(config.read_text(encoding="utf-8"))["server"]["fileWatcherType"] == "none"
    monkeypatch.chdir(tmp_path)  # a server started in another folder gets the setting as a flag
    assert "--server.fileWatcherType=none" in config_flags(config, [])
