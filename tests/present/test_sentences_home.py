"""Every text a person reads on the dashboard has one home: `costlib/present/`.

A page (``views/``) and ``app.py`` import named constants and functions from `costlib.present`
(`labels`, `words`, `watch_words`, ...) and hold no sentence, label or help text of their own;
`costlib/answers/` and `costlib/training/` compute and hand those words on, and define none.

What counts as a text a person reads, read from the source (`ast`):

- in views/ and app.py, a string literal (an f-string's literal parts too) with a space and at
  least `SENTENCE_CHARS` characters, docstrings and bare string statements (a constant's
  docstring) aside; and any string literal with a letter given as a widget's label (its first
  argument) or as its ``label=``, ``help=``, ``title=``, ``page_title=``, ``text=`` or
  ``show_spinner=``, however short ("Bins", "Data").
- in costlib/answers/ and costlib/training/, a module-level constant whose value holds such a
  sentence (a string, or a dict, list or tuple of them). A ``MSG_*`` constant is the message of
  a `DataError` and stays beside the check that raises it (as `costlib/loading/messages.py` does).

``KNOWN`` lists the files that still break the rule (another engineer is moving them); it may
only shrink, as `tests/test_one_name.py`'s ``KNOWN_LONG``: a file that breaks the rule and is not
listed fails, and so does a listed file that no longer breaks it (take it off the list).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SENTENCE_CHARS = 15

# Widget methods whose first argument (or label-like keyword) is shown to the reader.
WIDGETS = {
    "button", "checkbox", "caption", "data_editor", "download_button", "expander", "file_uploader",
    "form_submit_button", "header", "metric", "multiselect", "number_input", "page_link", "popover",
    "radio", "select_slider", "selectbox", "slider", "spinner", "subheader", "tabs", "text_area",
    "text_input", "title", "toggle", "Page", "set_page_config", "cache_resource", "cache_data",
    "markdown", "info", "warning", "error", "success", "progress",
}  # fmt: skip
SHOWN_KEYWORDS = {"label", "help", "title", "page_title", "text", "show_spinner", "placeholder"}

# What a page may still spell out: not words a person reads.
ALLOWED_PREFIXES = ("<style>",)  # the keyboard-focus CSS of views/_ui/display.py
PAGE_PATH = re.compile(r"views/[\w/]+\.py")  # st.Page("views/data.py"), st.page_link's page

# Files that still define their own texts (owned by another engineer while this rule lands).
KNOWN: set[str] = set()


def _sentence(text) -> bool:
    return isinstance(text, str) and " " in text and len(text) >= SENTENCE_CHARS


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings or bare string statements."""
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            out |= {
                id(stmt.value) for stmt in body if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            }
    return out


def _literal_texts(node) -> list[str]:
    """The literal text of a string or an f-string (its literal parts joined)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(p.value for p in node.values if isinstance(p, ast.Constant))]
    return []


def view_texts(source: str) -> list[tuple[int, str]]:
    """(line, text) of every text a person reads spelled out in a page's source.

    >>> view_texts('st.slider("Bins", key="bins_key_of_the_page")')
    [(1, 'Bins')]
    >>> view_texts('import x\\nx.say("caption", x.WHAT)\\nK = "a widget key"  # short, no label')
    []
    """
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and id(node) not in skip
            and _sentence(node.value)
            and not node.value.startswith(ALLOWED_PREFIXES)
        ):
            found[id(node)] = (node.lineno, node.value)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in WIDGETS:
            shown = node.args[:1] + [k.value for k in node.keywords if k.arg in SHOWN_KEYWORDS]
            for arg in shown:
                for text in _literal_texts(arg):
                    if any(ch.isalpha() for ch in text) and not PAGE_PATH.fullmatch(text):
                        found[id(arg)] = (arg.lineno, text)
    return sorted(found.values())


def module_sentences(source: str) -> list[tuple[int, str]]:
    """(line, name) of every module-level constant holding a sentence (``MSG_*`` aside).

    >>> module_sentences('A = "Choose at least one score column."\\nMSG_B = "Column x is missing."\\nC = "k_tp"')
    [(1, 'A')]
    """

    def texts(node) -> list:
        if isinstance(node, ast.Dict):
            return [t for v in node.values for t in texts(v)]
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            return [t for v in node.elts for t in texts(v)]
        return _literal_texts(node)

    found = []
    for stmt in ast.parse(source).body:
        if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            if any(not n.startswith("MSG_") for n in names) and any(_sentence(t) for t in texts(stmt.value)):
                found.append((stmt.lineno, ", ".join(names)))
    return found


def _offenders() -> dict[str, list]:
    out = {}
    for path in [ROOT / "app.py", *sorted((ROOT / "views").rglob("*.py"))]:
        hits = view_texts(path.read_text(encoding="utf-8"))
        if hits:
            out[path.relative_to(ROOT).as_posix()] = hits
    for folder in ("answers", "training"):
        for path in sorted((ROOT / "costlib" / folder).rglob("*.py")):
            hits = module_sentences(path.read_text(encoding="utf-8"))
            if hits:
                out[path.relative_to(ROOT).as_posix()] = hits
    return out


def test_no_page_and_no_answer_makes_a_text_of_its_own():
    offenders = _offenders()
    new = {path: hits for path, hits in offenders.items() if path not in KNOWN}
    assert new == {}, f"texts outside costlib/present/ (move them there): {new}"


def test_known_only_shrinks():
    clean = KNOWN - set(_offenders())
    assert clean == set(), f"no text of their own any more, take off KNOWN: {sorted(clean)}"


def test_the_rule_sees_a_label_a_sentence_and_a_constant():
    # the three shapes the rule exists for, each as a page or an answer would write it
    assert view_texts('st.button("Use these columns", key="use")') == [(1, "Use these columns")]
    assert view_texts('x = f"{n} rows are left out of the answer"') == [(1, " rows are left out of the answer")]
    assert view_texts('st.expander(f"Why {name}?")') == [(1, "Why ?")]
    assert module_sentences('WHAT = ("A page that says " "what it does.")') == [(1, "WHAT")]
    # and lets pass what is not read as words: a page's path, a DataError's message beside its check
    assert view_texts('st.Page("views/data.py", title=t.PAGE_DATA, url_path="home")') == []
    assert module_sentences('MSG_GONE = "The column {c} is not in the file."') == []
