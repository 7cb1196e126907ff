"""Issue 40: "shims give names second paths". Product code imports a name from the module that
defines it, never through another module that only imports it (a package's ``__init__`` is the
one exception: it is an index). A name read through a second path hides where it lives and ties
the reader to the middle module.

``KNOWN_SECOND_PATHS`` lists the imports main still makes through a second path; it may only
shrink: a new one fails, and so does one that is gone but still listed.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KNOWN_SECOND_PATHS: set[tuple[str, str, str]] = set()


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every product module (costlib/, views/) by dotted name; a package by its own name."""
    out = {}
    for path in [*(root / "costlib").rglob("*.py"), *(root / "views").rglob("*.py")]:
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def defined(path: Path) -> set[str]:
    """The names a module defines at its top level: functions, classes and assigned names."""
    out = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                out.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return out


def second_paths(known: dict[str, Path]) -> set[tuple[str, str, str]]:
    """(importer, module, name) of each ``from module import name`` (inside functions too) where
    `module` is a product module, not a package, that neither defines `name` nor has it as a
    submodule."""
    found, names = set(), {}
    for importer, path in known.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or node.level or node.module not in known:
                continue
            source = known[node.module]
            if source.name == "__init__.py":
                continue
            here = names.setdefault(node.module, defined(source))
            for alias in node.names:
                if alias.name != "*" and alias.name not in here and f"{node.module}.{alias.name}" not in known:
                    found.add((importer, node.module, alias.name))
    return found


def attribute_paths(known: dict[str, Path]) -> set[tuple[str, str, str]]:
    """(importer, module, name) of each ``alias.name`` read through a product module imported as
    ``alias`` (``from costlib.binary import decision as D``; ``import costlib.x as x``), not a
    package, that neither defines `name` nor has it as a submodule: the same second path read as
    an attribute."""
    found, names = set(), {}
    for importer, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Import):
                aliases.update({a.asname: a.name for a in node.names if a.asname})
        aliases = {a: m for a, m in aliases.items() if m in known and known[m].name != "__init__.py"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
                module = aliases[node.value.id]
                here = names.setdefault(module, defined(known[module]))
                if node.attr not in here and f"{module}.{node.attr}" not in known:
                    found.add((importer, module, node.attr))
    return found


def test_product_code_imports_each_name_from_its_home():
    known = modules()
    found = second_paths(known) | attribute_paths(known)
    new = sorted(found - KNOWN_SECOND_PATHS)
    assert not new, "imported through a module that does not define them: " + ", ".join(
        f"{i}: from {m} import {n}" for i, m, n in new
    )
    gone = sorted(KNOWN_SECOND_PATHS - found)
    assert not gone, f"imported from their home now, take them off KNOWN_SECOND_PATHS: {gone}"


def test_the_check_sees_a_second_path_inside_a_function(tmp_path):
    for name, text in {
        "costlib/core/home.py": "VALUE = 1\n",
        "costlib/core/middle.py": "from costlib.core.home import VALUE\n",
        "costlib/core/reader.py": (
            "def f():\n    from costlib.core.middle import VALUE\n    from costlib.core.home import VALUE\n"
        ),
        "costlib/core/__init__.py": "from costlib.core.home import VALUE\n",
        "views/page.py": "from costlib.core import VALUE\n",
        "views/other.py": "from costlib.core import middle as M\nfrom costlib.core import home\nM.VALUE, home.VALUE\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    known = modules(tmp_path)
    assert second_paths(known) == {("costlib.core.reader", "costlib.core.middle", "VALUE")}
    assert attribute_paths(known) == {("views.other", "costlib.core.middle", "VALUE")}
