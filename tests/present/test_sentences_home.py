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

In costlib/answers/ also (review of the Cost matrix and Instance costs answers):

- a sentence spelled out inside a function (a string, or an f-string's literal parts, as above),
  a table's column read by name (``table["accuracy of answers"]``) and an exception's message aside;
- a sentence from its home cut or patched: ``.replace``, ``.split``, ``.partition``, ... called on,
  or with, a name imported from `costlib.present` or `costlib.loading.messages` (a patch of a
  sentence silently does nothing once its wording changes: pass the present function a flag).

``KNOWN_IN_BODIES`` and ``KNOWN_CUTS`` list the files that still do, and may only shrink too.

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


# Answers that still spell out sentences inside their functions, or cut a sentence from its home
# (owned by other engineers: each may only shrink)
KNOWN_IN_BODIES: set[str] = {
    "costlib/answers/calibration.py",
    "costlib/answers/costs.py",
    "costlib/answers/prices.py",
    "costlib/answers/roles.py",
    "costlib/answers/value.py",
    "costlib/answers/value_sections.py",
    "costlib/answers/watch.py",
}
KNOWN_CUTS: set[str] = {"costlib/answers/prices.py"}  # words.fitted_rows(rec).removeprefix("the ")
CUTS = {"replace", "split", "rsplit", "partition", "rpartition", "removeprefix", "removesuffix", "strip"}


def body_sentences(source: str) -> list[tuple[int, str]]:
    """(line, text) of every sentence spelled out in a module's code, docstrings, a table's column
    read by name and an exception's message aside.

    >>> body_sentences('def f(d):\\n    return {"label": "Extra cost a month", "v": d["accuracy of answers"]}')
    [(2, 'Extra cost a month')]
    >>> body_sentences('def f(x):\\n    raise ValueError(f"x must be a number: got {x}")')
    []
    """
    tree = ast.parse(source)
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            skip |= {id(x) for x in ast.walk(node.slice)}
        if isinstance(node, ast.Raise) and node.exc is not None:
            skip |= {id(x) for x in ast.walk(node.exc)}
        if isinstance(node, ast.JoinedStr):  # read once, as the f-string's literal parts joined
            skip |= {id(v) for v in node.values}
    found = [(n.lineno, text) for n in ast.walk(tree) if id(n) not in skip for text in _literal_texts(n)]
    return sorted(x for x in found if _sentence(x[1]))


def sentence_cuts(source: str) -> list[tuple[int, str]]:
    """(line, call) of every cut or patch of a sentence from its home: a `CUTS` method called on, or
    with, a name imported from `costlib.present` or `costlib.loading.messages`.

    >>> sentence_cuts('from costlib.present.labels import MAP_PRICE\\nw = MAP_PRICE.split(",")[0]')
    [(2, "MAP_PRICE.split(',')")]
    >>> sentence_cuts('from costlib.present import labels as t\\ns = x.replace(a, t.BESIDE.format(p=1))')
    [(2, 'x.replace(a, t.BESIDE.format(p=1))')]
    >>> sentence_cuts('import os\\nname = os.path.basename(p).split(".")[0]')
    []
    """
    tree = ast.parse(source)
    homes = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("costlib.present") or node.module == "costlib.loading.messages":
                homes |= {a.asname or a.name for a in node.names}
            elif node.module == "costlib" and any(a.name == "present" for a in node.names):
                homes |= {a.asname or a.name for a in node.names if a.name == "present"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CUTS:
            parts = [node.func.value, *node.args]
            if any(isinstance(x, ast.Name) and x.id in homes for part in parts for x in ast.walk(part)):
                found.append((node.lineno, ast.unparse(node)))
    return found


def _answer_offenders(rule) -> dict[str, list]:
    out = {}
    for path in sorted((ROOT / "costlib" / "answers").rglob("*.py")):
        hits = rule(path.read_text(encoding="utf-8"))
        if hits:
            out[path.relative_to(ROOT).as_posix()] = hits
    return out


def test_no_answer_spells_out_a_sentence_in_its_code_or_cuts_one_from_its_home():
    bodies = {p: h for p, h in _answer_offenders(body_sentences).items() if p not in KNOWN_IN_BODIES}
    assert bodies == {}, f"sentences spelled out in costlib/answers/ (move them to costlib/present/): {bodies}"
    cuts = {p: h for p, h in _answer_offenders(sentence_cuts).items() if p not in KNOWN_CUTS}
    assert cuts == {}, f"sentences cut or patched in costlib/answers/ (have present build them): {cuts}"


def test_known_in_answers_only_shrinks():
    clean = (KNOWN_IN_BODIES - set(_answer_offenders(body_sentences))) | (
        KNOWN_CUTS - set(_answer_offenders(sentence_cuts))
    )
    assert clean == set(), f"no sentence of their own any more, take off KNOWN_IN_BODIES/KNOWN_CUTS: {sorted(clean)}"


def test_the_answer_rules_see_the_reviews_cases():
    # the three the Cost matrix and Instance costs review found, as they were written
    assert body_sentences('def f(dearer):\n    return "Extra cost a month" if dearer else "Saving a month"') == [
        (2, "Extra cost a month")
    ]
    patch = "from costlib.present import page_answers\ndef f(text):\n    return text.replace(page_answers.SOURCE, x)"
    assert sentence_cuts(patch) == [(3, "text.replace(page_answers.SOURCE, x)")]
    assert sentence_cuts("from costlib.present.labels import MAP_PRICE\np = MAP_PRICE.split(',')[0]") == [
        (2, "MAP_PRICE.split(',')")
    ]


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
