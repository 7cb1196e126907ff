"""The API reference builds from the docstrings with Sphinx's warnings as errors, and lists
every public name."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import costlib

ROOT = Path(__file__).resolve().parents[1]


def test_the_api_reference_builds_without_a_warning_and_names_every_public_name(tmp_path):
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "api_docs.py"), str(tmp_path / "api")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr  # -W: a docstring that does not render fails here
    page = (tmp_path / "api" / "index.html").read_text(encoding="utf-8")
    missing = [n for n in costlib.__all__ if f'id="costlib.{n}"' not in page]
    assert missing == []
