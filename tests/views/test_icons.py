"""Every icon the app draws is an emoji (dashboard.md): a `:material/…:` icon is a web font the
browser fetches, which fails offline. The error box carries its warning sign by default."""

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
MATERIAL = re.compile(r"""icon\s*=\s*["']:material/""")


def test_no_material_icons_in_the_app():
    files = [ROOT / "app.py", *sorted((ROOT / "views").rglob("*.py"))]
    lines = [(p, i, line) for p in files for i, line in enumerate(p.read_text().splitlines(), 1)]
    found = [f"{p.relative_to(ROOT)}:{i}" for p, i, line in lines if MATERIAL.search(line)]
    assert found == []


def test_an_error_said_carries_the_warning_emoji():
    def page():
        from views._ui.display import say

        say("error", "The file is bad.")

    at = AppTest.from_function(page).run()
    assert at.error[0].icon == "⚠️"
