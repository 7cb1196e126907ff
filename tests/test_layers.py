"""Every import points down the README's table of layers, and no modules import each other in a circle.

The README lists the folders from the bottom up; a module may import its own layer and the
layers below it, never one above. Every import counts, the ones inside functions too (they are
what hides an arrow up from a quick look). The package's own ``__init__.py`` (the lazy public
names) and ``__main__.py`` (the dispatch) stand above the table and are not checked.

``KNOWN_UP`` and ``KNOWN_CIRCLES`` are the arrows up and circles main still has (issue 40 cuts
them). They may only shrink: a new one fails, and so does one that is gone but still listed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

KNOWN_UP: set = set()
KNOWN_CIRCLES: set = set()


def layer_table(readme: str) -> list[list[str]]:
    """The README's layers, bottom first: each row's folders and modules as dotted prefixes."""
    lines = readme.splitlines()
    start = lines.index("| folder | its job |") + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        first = line.split("|")[1]
        names, parent = [], ""
        for path in re.findall(r"`([^`]+)`", first):
            if "/" in path:
                parent = path.rsplit("/", 2)[0] if path.endswith(".py") else path.rstrip("/").rsplit("/", 1)[0]
                path = path.removeprefix(parent + "/") if parent else path
            dotted = ".".join(p for p in (parent, path.removesuffix("/").removesuffix(".py")) if p)
            names.append(dotted.replace("/", "."))
        rows.append(names)
    return rows


def modules() -> dict[str, Path]:
    out = {}
    for path in [*ROOT.glob("costlib/**/*.py"), *ROOT.glob("views/**/*.py"), ROOT / "app.py"]:
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: dict) -> set[str]:
    """The project modules ``name`` imports anywhere in its text (functions included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                here = here[: len(here) - (node.level - 1)]
                base = ".".join([*here, *([node.module] if node.module else [])])
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name and not name.startswith(t + "."):
                found.add(t)
    return found


def level(module: str, table: list[list[str]]) -> int | None:
    """The row of the table a module belongs to (the longest prefix that names it)."""
    best, where = -1, None
    for i, row in enumerate(table):
        for prefix in row:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, where = len(prefix), i
    return where


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def arrows_up(g: dict, table: list[list[str]]) -> set[tuple[str, str]]:
    up = set()
    for a, targets in g.items():
        la = level(a, table)
        for b in targets:
            lb = level(b, table)
            if la is not None and lb is not None and lb > la:
                up.add((a, b))
    return up


def circles(g: dict) -> set[frozenset]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), set(), 0
    for root in g:
        if root in index:
            continue
        work = [(root, iter(sorted(g[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.add(w)
                    if w == v:
                        break
                if len(group) > 1:
                    out.add(frozenset(group))
    return out


def table() -> list[list[str]]:
    return layer_table((ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_table_names_every_folder_of_the_package():
    rows = table()
    assert rows[0] == ["costlib.core"] and rows[-1] == ["views"]
    top = {"costlib", "costlib.__main__", "app"}
    unplaced = sorted(m for m in modules() if m not in top and level(m, rows) is None)
    assert not unplaced, f"modules in no row of the README's layer table: {unplaced}"


def test_every_import_points_down_the_table():
    up = arrows_up(graph(), table())
    new = sorted(up - KNOWN_UP)
    assert not new, "imports that run up the README's table of layers: " + ", ".join(f"{a} -> {b}" for a, b in new)
    gone = sorted(KNOWN_UP - up)
    assert not gone, f"no longer imported, take them off KNOWN_UP: {gone}"


def test_no_modules_import_each_other_in_a_circle():
    found = circles(graph())
    new = [sorted(c) for c in found - KNOWN_CIRCLES]
    assert not new, f"modules that import each other in a circle: {new}"
    gone = [sorted(c) for c in KNOWN_CIRCLES - found]
    assert not gone, f"circles cut or changed, update KNOWN_CIRCLES: {gone}"


def test_the_checks_see_an_arrow_up_inside_a_function_and_a_circle(tmp_path):
    rows = [["costlib.core"], ["costlib.binary"]]
    low = tmp_path / "low.py"
    low.write_text("def f():\n    from costlib.binary import costs\n", encoding="utf-8")
    known = {"costlib.core.low": low, "costlib.binary.costs": low}
    g = {"costlib.core.low": imports("costlib.core.low", low, known)}
    assert arrows_up(g, rows) == {("costlib.core.low", "costlib.binary.costs")}
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {frozenset("abc")}
    assert level("costlib.multiclass", layer_table(_MULTI)) == 1


_MULTI = """| folder | its job |
|---|---|
| `costlib/core/` | x |
| `costlib/multiclass.py`, `instance.py` | y |
"""


def test_imports_are_found_relative_and_absolute(tmp_path):
    pkg = tmp_path / "p"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from . import a\n", encoding="utf-8")
    (pkg / "b.py").write_text("from .a import x\nimport costlib.core.sweep\n", encoding="utf-8")
    known = {"costlib.p": pkg / "__init__.py", "costlib.p.a": pkg / "a.py", "costlib.core.sweep": pkg / "b.py"}
    assert imports("costlib.p", pkg / "__init__.py", known) == {"costlib.p.a"}
    assert imports("costlib.p.b", pkg / "b.py", known) == {"costlib.p.a", "costlib.core.sweep"}
    assert all(not t.startswith("views") for a, ts in graph().items() if a.startswith("costlib") for t in ts)
