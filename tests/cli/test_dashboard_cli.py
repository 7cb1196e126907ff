"""``python -m costlib dashboard``: the server starts with Streamlit's flags passed through, and
its help lists the command."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
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
    monkeypatch.setattr(dashboard, "trim_forever", lambda: None)
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    assert dashboard.run([]) == 0
    assert getattr(base_events._set_nodelay, "costlib", False)


def test_the_dashboard_command_warms_before_the_server_listens(monkeypatch):
    """A first visitor's run must not import the pages' modules while a warm-up thread imports
    them too: CI saw Python break the resulting lock cycle by failing the page's import of
    ``views._ui`` (``_DeadlockError``). So the warm-up is done, in the calling thread, before
    Streamlit's server starts."""
    import threading

    from streamlit.web import cli as streamlit_cli

    from costlib.cli import dashboard

    seen: list[tuple[str, str]] = []
    monkeypatch.setattr(dashboard, "warm", lambda: seen.append(("warm", threading.current_thread().name)))
    monkeypatch.setattr(streamlit_cli, "main", lambda: seen.append(("serve", threading.current_thread().name)) or 0)
    monkeypatch.setattr(dashboard, "trim_forever", lambda: None)
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    assert dashboard.run([]) == 0
    here = threading.current_thread().name
    assert seen == [("warm", here), ("serve", here)]
