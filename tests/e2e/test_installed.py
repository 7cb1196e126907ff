"""The README's start command on a fresh copy of the repository installs costlib as pip would
(not editable: the dashboard and the samples inside the package), and the installed ``costlib``
command works from another folder: ``costlib audit --json`` gives the record this checkout
gives, and ``costlib dashboard`` serves the Costs page with the shipped Streamlit settings."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from e2e_server import AppServer
from e2e_support import alert_texts, assert_no_error, goto

from costlib.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
COMPAS = ROOT / "costlib" / "samples" / "compas.csv"
LAUNCH = " && .venv/bin/costlib dashboard"

pytestmark = pytest.mark.xdist_group("installed")  # one install, on one worker


def _start_command() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("<!-- start-command -->\n```bash\n", 1)[1].split("\n```", 1)[0].strip()


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The ``bin`` folder of the venv the README's start command makes in a copy of the repository."""
    src = tmp_path_factory.mktemp("clone")
    files = (
        subprocess.run(
            ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    command = _start_command()
    assert command.endswith(LAUNCH), command
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    r = subprocess.run(
        ["bash", "-c", command[: -len(LAUNCH)] + " --no-compile -q"],
        cwd=src,
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return src / ".venv" / "bin"


def test_the_installed_command_audits_a_file_from_another_folder(installed, tmp_path, capsys):
    shutil.copy(COMPAS, tmp_path / "cases.csv")
    args = ["audit", "cases.csv", "--label", "two_year_recid", "--score", "p_recid", "--group", "race"]
    args += ["--split", "split", "--c-fp", "1", "--c-fn", "3", "--resamples", "50", "--json"]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    r = subprocess.run([str(installed / "costlib"), *args], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    where = subprocess.run(
        [str(installed / "python"), "-c", "import costlib, costlib.cli.dashboard as d; print(costlib.__file__, d.APP)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    ).stdout.split()
    assert "site-packages" in where[0] and where[1].endswith(os.path.join("site-packages", "costlib", "_app", "app.py"))
    old = os.getcwd()
    try:
        os.chdir(tmp_path)
        assert main(args) == 0  # this checkout, on the same file
    finally:
        os.chdir(old)
    mine = json.loads(capsys.readouterr().out)
    assert json.loads(r.stdout) == mine


def test_the_installed_dashboard_serves_the_costs_page_from_another_folder(installed, tmp_path, new_page):
    server = AppServer(tmp_path / "server.log", cwd=tmp_path, command=(str(installed / "costlib"), "dashboard")).start()
    try:
        page = new_page()
        try:
            goto(page, f"{server.url}/costs?data=compas", chart=True)
        except Exception as e:  # say what the server said, not only what the browser waited for
            raise AssertionError(f"the installed Costs page did not open. Server output:\n{server.log_tail()}") from e
        assert_no_error(page, "the installed Costs page")
        assert any(
            t.startswith(("Ship the model", "Not clearly better", "Do not let the model decide"))
            for t in alert_texts(page)
        )
        # the shipped .streamlit settings are in the wheel and become flags for a server started elsewhere
        code = (
            "from costlib.cli.dashboard import APP, config_flags; "
            "print(config_flags(APP.parent / '.streamlit' / 'config.toml', []))"
        )
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env = {k: v for k, v in env.items() if not k.startswith("STREAMLIT_")}
        python = str(installed / "python")
        flags = subprocess.run([python, "-c", code], cwd=tmp_path, capture_output=True, text=True, env=env)
        assert "--client.showErrorDetails=none" in flags.stdout and "--server.maxUploadSize=200" in flags.stdout, flags
        assert "Traceback" not in server.log_tail()
    finally:
        server.stop()
