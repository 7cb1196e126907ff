"""The README's command-line section lists every flag of every command, and no other."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from costlib.__main__ import build_parser

README = Path(__file__).resolve().parents[2] / "README.md"


def _commands() -> dict[str, argparse.ArgumentParser]:
    (sub,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def _blocks() -> dict[str, str]:
    """{command: its part of the README's "Command line" section (from "### `command`")}."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Command line\n", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^### `([a-z]+)`$", section, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_every_command_has_its_part():
    assert set(_blocks()) == set(_commands())


@pytest.mark.parametrize("command", sorted(_commands()))
def test_every_flag_is_in_the_readme(command):
    parser, block = _commands()[command], _blocks()[command]
    known = [s for a in parser._actions for s in a.option_strings] + [
        a.metavar or a.dest for a in parser._actions if not a.option_strings
    ]
    missing = [s for s in known if not re.search(r"`" + re.escape(s) + r"[` ]", block)]
    assert not missing, f"README's {command} part does not list {missing}"


@pytest.mark.parametrize("command", sorted(_commands()))
def test_the_readme_lists_no_flag_the_command_lacks(command):
    parser, block = _commands()[command], _blocks()[command]
    known = {s for a in parser._actions for s in a.option_strings}
    listed = set(re.findall(r"`(--?[a-z][a-z-]*)", block))
    assert listed <= known, f"README's {command} part lists {sorted(listed - known)}"
