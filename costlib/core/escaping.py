"""Every way user text is made safe to show: one function per place it is shown.

A user's column, group, model and file names and the unit reach many surfaces, and each
surface acts on different characters. Use the function of the surface the text goes to,
at the moment it goes there (a sentence is built from raw text and escaped once, whole):

- Markdown (``st.markdown``, ``st.caption``, a box's text): `md_escape`;
- a widget's label (rendered as Markdown and read aloud as the input's name): `label`;
- Plotly titles, legends, axis titles and hovers: `plain`;
- HTML (the audit report): `html_escape`;
- CSV: `neutralise` for one cell, `safe_cells` for a table on screen (Streamlit's toolbar
  "Download as CSV" exports the displayed cells verbatim; `cut_cells` counts the cells it
  shortens), `safe_csv` for a download;
- a widget's options that are user values (column names, label values, groups, models):
  `option_names`, its ``format_func``;
- a file's name inside a sentence: `display_name` (then the surface's own escape);
- one user value inside a sentence, kept whole in its own direction: `isolate`.

Every function above shows a bidirectional control as "?" (`shown_controls`) but closed
isolates, and isolates right-to-left text so it cannot reorder the app's text around it:
a value whole where the function knows it is one (`isolate`, `label`, `option_names`,
`markdown_cells`' cells), each right-to-left run of a sentence (`md_escape`, `plain`,
`html_escape`). Text without either is left as it was; CSV cells only get controls shown.

A user's value can be as long as the file allows (a 100 MB cell, a 30 MB column name), so
every surface above shows at most `MAX_CELL_CHARS` characters of one value; `shorten` is the
one cut, and "…" marks it. Downloads (`safe_csv`) keep every character but controls.

It lives in `costlib.core` because every layer draws user text (the loader's sentences, the
figures, the report, the pages); it imports nothing above `core`.
"""

from __future__ import annotations

import html as _html
import re
import unicodedata
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from costlib.core.validation import NUMBER_RE

# ---------------------------------------------------------------------------------------
# Long text: one cut for every surface

#: the most characters of one user value a page shows: a table's cell or column name, a widget's
#: option, a Plotly name. A sentence or an identifier fits; the browser never gets a 100 MB cell.
MAX_CELL_CHARS = 200


def shorten(text: object, limit: int = MAX_CELL_CHARS, *, keep_end: int = 0) -> str:
    """Text of at most `limit` characters: a longer one is cut, and "…" marks the cut.

    Every surface that bounds user text cuts it here: table cells and names (`safe_cells`),
    widget options (`option_names`) and labels (`label`), Plotly text (`plain`), file names
    (`display_name`) and the values the loader quotes in its sentences.

    Parameters
    ----------
    text : object
        Shown as ``str(text)``.
    limit : int, default MAX_CELL_CHARS
        The most characters returned, "…" included.
    keep_end : int, default 0
        How many of the last characters a cut keeps (a file's extension); 0 cuts the end off.

    Returns
    -------
    str
        ``str(text)`` itself when it has at most `limit` characters and no bidirectional
        control (shown as "?", `shown_controls`); a value `isolate`d stays so, its two
        invisible marks not counted in `limit`.

    Examples
    --------
    >>> shorten("abcdefgh", 5), shorten("abcdefgh", 5, keep_end=2), shorten("abc", 5)
    ('abcd…', 'ab…gh', 'abc')
    >>> shorten("a\u202eb")
    'a?b'
    """
    text = str(text)
    inner = _unwrapped(text)
    if inner is not None:
        return FSI + shorten(inner, limit, keep_end=keep_end) + PDI
    if len(text) > limit:
        keep_end = max(0, min(keep_end, limit - 1))
        text = text[: limit - keep_end - 1] + "…" + (text[-keep_end:] if keep_end else "")
    return shown_controls(text)


# ---------------------------------------------------------------------------------------
# Right-to-left text and bidirectional controls

FSI, PDI = "\u2068", "\u2069"  # first strong isolate ... pop directional isolate
#: what changes the direction of the text around it: embeddings, overrides, isolates, marks
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_CONTROL_RE, _ISOLATE_RE = re.compile(f"[{''.join(sorted(BIDI_CONTROLS))}]"), re.compile(f"[{FSI}{PDI}]")
_RTL = frozenset(("R", "AL", "AN"))  # right-to-left letters, Arabic digits: all in _RTL_BLOCKS (tests)
_RTL_BLOCKS = re.compile("[\u0590-\u08ff\u200f\ufb1d-\ufdff\ufe70-\ufefe\U00010800-\U00010fff\U0001e800-\U0001efff]")
_RUN_ENDS = frozenset(("L", "EN", "B", "S"))  # a left-to-right letter, a digit 0-9, a line or a tab


def shown_controls(text: str) -> str:
    """`text` with every bidirectional control (`BIDI_CONTROLS`) shown as "?" but closed
    isolates (FSI ... PDI: they reorder nothing outside them, and are how text is isolated).

    >>> shown_controls("Team\u202eA"), shown_controls("a\u2068b\u2069 c\u2069")
    ('Team?A', 'a\u2068b\u2069 c?')
    """
    if not _CONTROL_RE.search(text):
        return text
    out, open_at = list(text), []
    for m in _CONTROL_RE.finditer(text):
        if m.group() == FSI:
            open_at.append(m.start())
        elif m.group() == PDI and open_at:
            open_at.pop()
        else:
            out[m.start()] = "?"
    for i in open_at:
        out[i] = "?"
    return "".join(out)


def _unwrapped(text: str) -> str | None:
    """The value inside an FSI ... PDI that wraps all of `text`; None when nothing does."""
    if text[:1] != FSI or text[-1:] != PDI:
        return None
    depth = 0
    for m in _ISOLATE_RE.finditer(text, 0, len(text) - 1):
        depth += 1 if m.group() == FSI else -1
        if depth == 0:
            return None
    return text[1:-1] if depth == 1 else None


def _isolated(text: str, *, whole: bool = False) -> str:
    """`text` (controls shown) with each run of right-to-left letters (and Arabic digits) outside
    its isolates in FSI ... PDI, from its first to its last such letter: a left-to-right letter,
    a digit 0-9, a line break, a tab or an isolate ends a run, so a sentence's own numbers stay
    outside even between two names. `whole`: all of `text` in one FSI ... PDI if it has a run."""
    if not _RTL_BLOCKS.search(text):
        return text
    runs, depth, start, last = [], 0, None, -1
    for i, ch in enumerate(text):
        kind = "" if ch in (FSI, PDI) else unicodedata.bidirectional(ch)
        if ch in (FSI, PDI) or depth or kind in _RUN_ENDS:
            if start is not None:
                runs.append((start, last))
                start = None
            depth = depth + 1 if ch == FSI else max(depth - 1, 0) if ch == PDI else depth
        elif kind in _RTL or (kind == "NSM" and start is not None and last == i - 1):
            start, last = (i if start is None else start), i
    runs += [] if start is None else [(start, last)]
    if whole or not runs:
        return FSI + text + PDI if runs else text
    out, at = [], 0
    for a, b in runs:
        out += [text[at:a], FSI, text[a : b + 1], PDI]
        at = b + 1
    return "".join([*out, text[at:]])


def isolate(text: object, limit: int = MAX_CELL_CHARS) -> str:
    """One user value for a sentence: `shorten`ed, and in FSI ... PDI (invisible) if it holds
    right-to-left letters, so it cannot reorder the sentence ("Team عربي ≥ 0.32" read "0.32 ≤").

    >>> isolate("Team A"), isolate("عربي 2") == "\u2068عربي 2\u2069"
    ('Team A', True)
    """
    return _isolated(shorten(text, limit), whole=True)


def _distinct(shown: list, original: Sequence, limit: int) -> list:
    """`shown` (the displayed forms of `original`) with the changed texts that would read the
    same as another one told apart by " (2)", " (3)", ...; unchanged values keep their form."""
    if len(set(shown)) == len(shown):
        return shown
    changed = [isinstance(o, str) and s != o for s, o in zip(shown, original, strict=True)]
    taken = {s for s, c in zip(shown, changed, strict=True) if not c}
    out = []
    for s, c in zip(shown, changed, strict=True):
        if c:
            n, text = 1, s
            while text in taken:
                n += 1
                tag = f" ({n})"
                text = (s if len(s) + len(tag) <= limit else shorten(s, limit - len(tag))) + tag
            taken.add(text)
            s = text
        out.append(s)
    return out


def option_names(options: Sequence[object], limit: int = MAX_CELL_CHARS) -> Callable[[object], str]:
    """The ``format_func`` of a widget whose options are user values (column names, label
    values, groups, models).

    Streamlit sends the browser each option as its ``format_func`` text and maps the text
    the browser sends back to the option, so each is `isolate`d and two that would then
    read the same are told apart (" (2)"): the widget still returns the whole value.

    Parameters
    ----------
    options : sequence
        The widget's options.
    limit : int, default MAX_CELL_CHARS
        The most characters shown of one option.

    Returns
    -------
    callable
        option -> its text; a value that is not among `options` (typed in) is `isolate`d.

    Examples
    --------
    >>> names = option_names(["a" * 300 + "x", "a" * 300 + "y", "b"], limit=8)
    >>> [names(o) for o in ["a" * 300 + "x", "a" * 300 + "y", "b"]]
    ['aaaaaaa…', 'aaa… (2)', 'b']
    """
    texts = [str(o) for o in options]
    lookup = dict(zip(texts, _distinct([isolate(t, limit) for t in texts], texts, limit), strict=True))

    def name(option: object) -> str:
        text = str(option)
        return lookup[text] if text in lookup else isolate(text, limit)

    return name


# ---------------------------------------------------------------------------------------
# Markdown and widget labels

_MD_SPECIAL = set("\\`*_{}[]()#+-.!|<>~$:=&")
_AUTOLINK = re.compile(r"(?i)(://|www\.|@)")
WORD_JOINER = "\u2060"  # invisible, and breaks what a Markdown renderer would auto-link


def md_escape(text: str) -> str:
    """Text shown literally by a Markdown renderer (Streamlit's included).

    Every Markdown, HTML, LaTeX ($...$), emoji-shortcode (:name:) and colour-directive
    character is backslash-escaped, so a user's column name, group, file name or unit is
    shown as typed and never renders as a link, an image, math or HTML. Text that a
    renderer would auto-link (``https://...``, ``www.``, ``name@host``) gets an invisible
    word joiner inside the pattern, so it reads the same and is not a link. Right-to-left
    runs are isolated, bidirectional controls shown as "?" (see the module's notes).

    >>> md_escape("a_b <b>")
    'a\\\\_b \\\\<b\\\\>'
    """
    text = _isolated(shown_controls(str(text)))
    text = _AUTOLINK.sub(lambda m: m.group(0)[0] + WORD_JOINER + m.group(0)[1:], text)
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in text)


_LABEL_ASCII_DROP = re.compile(r"[^\w\s\-',;/%?.]")  # ASCII that Markdown or HTML could act on


def _dropped(ch: str) -> bool:  # "·" in a label: `_LABEL_ASCII_DROP`, and invisible but isolates and the emoji joiner
    if ch < "\x80":
        return _LABEL_ASCII_DROP.match(ch) is not None
    return unicodedata.category(ch)[0] == "C" and ch not in (FSI, PDI, "\u200d")


def label(text: str, limit: int = 40) -> str:
    """User text inside a widget label: Streamlit renders labels as Markdown, and the label is
    also the input's accessible name, so backslash escapes would be read aloud. ASCII that
    Markdown or HTML could act on and invisible characters become "·" (other characters,
    such as "€" or "🍎", stay), auto-link patterns are broken by an invisible word joiner, and
    long names are cut with "…"; the value is `isolate`d. Several shown together: `distinct_labels`.

    >>> label("**bold** <a href=x>"), label("🍎 €")
    ('··bold·· ·a href·x·', '🍎 €')
    """
    text = "".join("·" if _dropped(ch) else ch for ch in isolate(text, limit))
    return re.sub(r"(?i)www\.", lambda m: m.group(0)[0] + WORD_JOINER + m.group(0)[1:], text)


def distinct_labels(names: Sequence[object], limit: int = 40) -> list[str]:
    """The `label`s of values shown together (one price slider per group): two that would read
    the same are told apart (" (2)", " (3)", ...), as `option_names` does for options.

    >>> distinct_labels(["$x$", "*x*", "y"])
    ['·x·', '·x· (2)', 'y']
    """
    texts = [str(n) for n in names]
    return _distinct([label(t, limit) for t in texts], texts, limit)


# ---------------------------------------------------------------------------------------
# Plotly and HTML


def plain(text: str, limit: int = MAX_CELL_CHARS) -> str:
    """User text for Plotly titles, legends and hovers (which read a few HTML tags), at most
    `limit` characters of it (`shorten`: a group's name can be repeated in every point's hover),
    right-to-left runs isolated as `md_escape` does.

    >>> plain("<b>A & B</b>")
    '&lt;b&gt;A &amp; B&lt;/b&gt;'
    """
    text = _isolated(shorten(text, limit))
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def html_escape(text) -> str:
    """Any value as text inside HTML, quotes included (an element's text or an attribute),
    its bidirectional controls shown as "?" and each run of right-to-left letters isolated as
    `md_escape` does. The isolates are characters (FSI ... PDI), not ``<bdi>``: the text can be
    a ``<title>`` or an attribute, where a tag would show as typed.

    >>> html_escape('<a href="x">')
    '&lt;a href=&quot;x&quot;&gt;'
    """
    return _html.escape(_isolated(shown_controls(str(text))), quote=True)


# ---------------------------------------------------------------------------------------
# CSV: spreadsheet formulas in user text are neutralised
#
# A cell a spreadsheet would run as a formula gets a leading apostrophe (`neutralise`). `safe_csv`
# is the app's own download; `safe_cells` makes what a table *displays* safe for Streamlit's
# built-in toolbar "Download as CSV", which exports the displayed cells verbatim.

_FORMULA_START = ("=", "+", "-", "@")
_CONTROL_START = ("\t", "\r", "\n")


def _formula_like(text: str) -> bool:
    if text.startswith(_CONTROL_START):
        return True
    folded = unicodedata.normalize("NFKC", text)  # "＝" -> "=", "﹢" -> "+", non-breaking space -> " "
    i = 0
    while i < len(folded) and (folded[i].isspace() or unicodedata.category(folded[i]) in ("Cc", "Cf")):
        i += 1
    if i > 0 and folded[i:].startswith(_CONTROL_START):
        return True
    return folded[i:].startswith(_FORMULA_START) and not NUMBER_RE.match(folded[i:])


def neutralise(value: object) -> object:
    """One cell, neutralised: text a spreadsheet would run as a formula gets a leading apostrophe.

    Parameters
    ----------
    value : object
        A cell; only text is ever changed.

    Returns
    -------
    object
        "'" + value for text starting (after spaces or invisible characters) with = + - @ or
        their full-width or small forms, or with a tab, CR or line feed, unless it is a plain
        number such as "-3.5"; otherwise `value` itself.

    Examples
    --------
    >>> neutralise("=HYPERLINK(\\"http://x\\")"), neutralise(" =1+1"), neutralise("＝1+1")
    ('\\'=HYPERLINK("http://x")', "' =1+1", "'＝1+1")
    >>> neutralise("-3.5"), neutralise(-3.5), neutralise("ok")
    ('-3.5', -3.5, 'ok')
    """
    if isinstance(value, str) and _formula_like(value):
        return "'" + value
    return value


def safe_cells(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of a table that is safe to display: text cells, column names and index labels
    `neutralise`d and `shorten`ed to at most MAX_CELL_CHARS characters (bidirectional controls
    shown as "?"; nothing is added around right-to-left text: a cell is alone in its box).

    Give this to ``st.dataframe`` for a table that holds user text: Streamlit's toolbar
    "Download as CSV" exports the displayed cells verbatim, which are then already safe, and
    the browser never gets more than MAX_CELL_CHARS characters of one cell. Text columns
    become plain strings: a categorical column would send the browser its whole dictionary
    (every category, however few rows are shown). Bytes are shown as UTF-8 text.

    Parameters
    ----------
    df : DataFrame
        The table to show; it is not changed.

    Returns
    -------
    DataFrame
        A copy; numeric, boolean and date columns are unchanged, so they still sort and
        format as numbers. Column names that would read the same once shortened or
        neutralised are told apart (" (2)"), as a table cannot show two columns of one name.

    Examples
    --------
    >>> safe_cells(pd.DataFrame({"=g": ["@x", "a"], "n": [-1, 2]})).to_dict("list")
    {"'=g": ["'@x", 'a'], 'n': [-1, 2]}
    >>> len(safe_cells(pd.DataFrame({"t": ["x" * 10**6]}))["t"][0])
    200
    """
    return _safe_table(df, MAX_CELL_CHARS)


def markdown_cells(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of a table as text for a renderer that reads every cell as Markdown (Streamlit's
    ``st.table``): `safe_cells`, then every text cell and column name `md_escape`d; whole
    numbers with thousands separators, other numbers to four decimals (four significant digits
    below 0.001, which four decimals would show as 0), a missing number "–".

    >>> markdown_cells(pd.DataFrame({"group": ["*a*", "b"], "n": [12391, 7], "NEC": [0.0536, None]})).to_dict("list")
    {'group': ['\\\\*a\\\\*', 'b'], 'n': ['12,391', '7'], 'NEC': ['0.0536', '–']}
    >>> markdown_cells(pd.DataFrame({"rate": [0.00012345, 0.0, 2.5]}))["rate"].tolist()
    ['0.0001234', '0.0000', '2.5000']
    """
    safe = safe_cells(df)
    out = pd.DataFrame(index=safe.index)
    for i, name in enumerate(safe.columns):
        out[md_escape(isolate(name))] = [_cell_text(x) for x in safe.iloc[:, i]]
    return out


def _cell_text(value: object) -> str:
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, int | np.integer):
        return f"{int(value):,}"
    if isinstance(value, float | np.floating):
        if not np.isfinite(value):
            return "–"
        return f"{float(value):.4g}" if 0 < abs(value) < 1e-3 else f"{float(value):,.4f}"
    return md_escape(isolate("" if value is None or value is pd.NA else value))


def cut_cells(df: pd.DataFrame, limit: int = MAX_CELL_CHARS) -> int:
    """How many text cells, column names and index labels of `df` `safe_cells` shortens.

    >>> cut_cells(pd.DataFrame({"t": ["x" * 300, "ok"], "n": [1, 2]}))
    1
    """
    n = sum(_longer(x, limit) for x in (*_labels(df.columns), *_labels(df.index)))
    for i in range(df.shape[1]):
        s = df.iloc[:, i]
        if not _holds_no_text(s.dtype):
            n += sum(_longer(x, limit) for x in s.astype(object))
    return n


def _safe_table(df: pd.DataFrame, limit: int | None) -> pd.DataFrame:
    """`safe_cells` with cells cut to `limit` characters (None: neutralised only, for a download)."""
    out = df.copy()
    for i in range(out.shape[1]):
        s = out.iloc[:, i]
        if _holds_no_text(s.dtype):
            continue
        out.isetitem(i, s.astype(object).map(_cell_maker(limit)))
    columns = _safe_index(out.columns, limit)
    if limit is not None and not isinstance(columns, pd.MultiIndex):
        columns = pd.Index(_distinct(list(columns), list(df.columns), limit), name=columns.name)
    out.columns = columns
    out.index = _safe_index(out.index, limit)
    return out


def _cell_maker(limit: int | None) -> Callable[[object], object]:
    """`_safe_cell` for the cells of one column, each distinct text made safe once: a table's
    text columns repeat their names (a chart's table names its line on every row), and a price
    move redraws the table."""
    done: dict[str, object] = {}

    def one(value: object) -> object:
        if type(value) is not str:
            return _safe_cell(value, limit)
        safe = done.get(value)
        if safe is None:
            safe = done[value] = _safe_cell(value, limit)
        return safe

    return one


def _text_of(value: object, limit: int) -> str | None:
    """A text cell's text (bytes: enough of them decoded to tell whether it exceeds `limit`
    characters), None for a value that is not text."""
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value[: 4 * (limit + 1)]).decode("utf-8", errors="replace")
    return None


def _longer(value: object, limit: int) -> bool:
    text = _text_of(value, limit)
    return text is not None and len(text) > limit


def _safe_cell(value: object, limit: int | None) -> object:
    """One displayed cell: cut first (a formula is recognised by its start), then neutralised;
    bidirectional controls shown as "?" either way (`shown_controls`)."""
    if limit is None:
        return neutralise(shown_controls(value) if isinstance(value, str) else value)
    text = _text_of(value, limit)
    return value if text is None else shorten(neutralise(shorten(text, limit)), limit)


def _labels(index: pd.Index) -> list:
    if isinstance(index, pd.MultiIndex):
        return [*index.names, *(x for t in index for x in t)]
    if isinstance(index, pd.RangeIndex) or _holds_no_text(index.dtype):
        return [index.name]
    return [index.name, *index]


def _holds_no_text(dtype) -> bool:
    """True for columns that cannot hold text: numbers, booleans, dates."""
    if isinstance(dtype, pd.CategoricalDtype):
        return False
    return pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype) or dtype.kind in "mM"


def _safe_index(index: pd.Index, limit: int | None) -> pd.Index:
    def cell(x: object) -> object:
        return _safe_cell(x, limit)

    if isinstance(index, pd.MultiIndex):
        return pd.MultiIndex.from_tuples(
            [tuple(cell(x) for x in t) for t in index], names=[cell(n) for n in index.names]
        )
    if isinstance(index, pd.RangeIndex) or _holds_no_text(index.dtype):
        return index.rename(cell(index.name))
    return pd.Index([cell(x) for x in index], name=cell(index.name))


def safe_csv(df: pd.DataFrame) -> bytes:
    """UTF-8 CSV bytes for a download, with spreadsheet formulas neutralised.

    Parameters
    ----------
    df : DataFrame
        The table; a non-default index is written as ordinary columns.

    Returns
    -------
    bytes
        CSV whose text cells and column names went through `neutralise`, every character
        kept but bidirectional controls (shown as "?", `shown_controls`); numeric columns are
        written unchanged (a negative number stays a number).

    Examples
    --------
    >>> safe_csv(pd.DataFrame({"name": ["=1+1", "ok"], "x": [-1.5, 2.0]})).decode()
    "name,x\\n'=1+1,-1.5\\nok,2.0\\n"
    """
    out = df if isinstance(df.index, pd.RangeIndex) else df.reset_index()
    out = _safe_table(out, None)  # every character but controls: a download is the table itself
    out.columns = [neutralise(str(c)) for c in out.columns]
    return out.to_csv(index=False, lineterminator="\n").encode("utf-8")


# ---------------------------------------------------------------------------------------
# File names in sentences

MAX_NAME_CHARS = 120  # a file name longer than this is shortened in the middle


def display_name(filename: object, limit: int = MAX_NAME_CHARS) -> str:
    """A file name made safe to show in a sentence; every sentence of the loader uses it.

    Parameters
    ----------
    filename : object
        The name as the browser or the command line gave it.
    limit : int, default MAX_NAME_CHARS
        The longest name shown.

    Returns
    -------
    str
        The name with control characters, line breaks, right-to-left overrides and other
        invisible format characters each shown as "?" (so "report\\u202etxt.exe" cannot
        display as "reportexe.txt"), runs of spaces as one, and a name longer than `limit`
        shortened in the middle, keeping its end (the extension). Markdown and HTML
        escaping are left to the place that draws the sentence.

    Examples
    --------
    >>> display_name("scores\\u202ev.csv")
    'scores?v.csv'
    >>> len(display_name("a" * 5000 + ".csv"))
    120
    """
    text = "".join("?" if _hidden(ch) else ch for ch in str(filename))
    text = " ".join(text.split()) or "?"
    return shorten(text, limit, keep_end=min(24, limit // 3))


def _hidden(ch: str) -> bool:
    if ch in BIDI_CONTROLS:
        return True
    cat = unicodedata.category(ch)
    return cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") and ch not in " \t"
