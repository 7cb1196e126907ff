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
