"""Build the API reference from the docstrings: ``python scripts/api_docs.py [OUT]``.

Every public name of ``costlib`` (its ``__all__``, the one table of `costlib._EXPORTS`) gets
its entry, grouped by the module that holds it, written with Sphinx's autodoc and numpydoc (the
docstrings are numpydoc). Sphinx runs with warnings as errors (``-W``), so a docstring that does
not render fails the build (and CI). The HTML goes to ``docs/_build/api`` unless OUT is given.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CONF = """
project = "costlib"
extensions = ["sphinx.ext.autodoc", "numpydoc"]
numpydoc_show_class_members = False
numpydoc_validation_checks = set()
autodoc_typehints = "none"
autodoc_default_options = {"members": False}
html_theme = "alabaster"
html_static_path = []
"""


def index_rst() -> str:
    """The reference page: every public name under the module that holds it."""
    sys.path.insert(0, str(ROOT))
    import inspect

    import costlib

    by_module: dict[str, list[str]] = defaultdict(list)
    for name in costlib.__all__:
        by_module[costlib._EXPORTS[name]].append(name)
    lines = ["costlib API reference", "=" * 21, "", costlib.__doc__.split("\n\n")[0].strip(), ""]
    for module in sorted(by_module):
        lines += [module, "-" * len(module), ""]
        for name in sorted(by_module[module]):
            obj = getattr(costlib, name)
            kind = "autoclass" if inspect.isclass(obj) else "autofunction" if callable(obj) else "autodata"
            lines += [f".. {kind}:: costlib.{name}", ""]
    return "\n".join(lines) + "\n"


def build(out: Path) -> int:
    from sphinx.cmd.build import build_main

    with tempfile.TemporaryDirectory() as src:
        (Path(src) / "conf.py").write_text(CONF, encoding="utf-8")
        (Path(src) / "index.rst").write_text(index_rst(), encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        return build_main(["-W", "--keep-going", "-q", "-b", "html", src, str(out)])


if __name__ == "__main__":
    sys.exit(build(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "_build" / "api"))
