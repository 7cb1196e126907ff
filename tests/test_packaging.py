"""The package as pip installs it: its dependency ranges hold the versions requirements.txt
pins (the ones every test runs on), it lists every folder of the package and the dashboard,
and the console command is ``costlib``."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _pins(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            name, version = line.split("==")
            out[name.strip().lower()] = version.strip()
    return out


def test_every_dependency_is_pinned_and_its_pin_is_in_range():
    pins = _pins(ROOT / "requirements.txt")
    ranges = [Requirement(r) for r in PROJECT["project"]["dependencies"]]
    assert {r.name.lower() for r in ranges} == set(pins)  # nothing pinned that pip would not install, and back
    outside = [
        f"{r.name}=={pins[r.name.lower()]} not in {r.specifier}"
        for r in ranges
        if pins[r.name.lower()] not in r.specifier
    ]
    assert outside == []
    spark = Requirement(PROJECT["project"]["optional-dependencies"]["spark"][0])
    assert _pins(ROOT / "requirements-dev.txt")["pyspark"] in spark.specifier


def test_the_wheel_lists_every_folder_of_the_package_and_the_dashboard():
    listed = set(PROJECT["tool"]["setuptools"]["packages"])
    on_disk = {".".join(p.relative_to(ROOT).parts[:-1]) for p in (ROOT / "costlib").rglob("__init__.py")} | {
        "costlib._app." + ".".join(p.relative_to(ROOT).parts[:-1]) for p in (ROOT / "views").rglob("*.py")
    }
    assert on_disk | {"costlib._app"} == listed
    assert PROJECT["tool"]["setuptools"]["package-dir"] == {"costlib._app": "."}
    assert sorted(p.name for p in ROOT.glob("*.py")) == ["app.py"]  # the root's modules become costlib._app
    assert PROJECT["project"]["scripts"] == {"costlib": "costlib.__main__:main"}
