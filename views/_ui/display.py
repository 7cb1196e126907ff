"""How a page shows things: sentences (escaped), tables with a CSV download, charts with their
text alternative, verdicts, errors."""

from __future__ import annotations

import datetime as dt
import math

import pandas as pd
import streamlit as st

from costlib import loading
from costlib.core.errors import DataError
from costlib.core.escaping import markdown_cells, md_escape, shorten
from costlib.present import labels as t
from costlib.present.amounts import cutoff_number
from costlib.present.chart_text import CUTOFF_AXES, chart_text, words
from costlib.present.downloads import csv_table, dated_name
from costlib.present.words import on_sample

ROW_PX = 35  # the height of a table row (and of its header) in Streamlit's grid
# A table shows every row up to `TABLE_ROWS`, without a scroll box of its own: at 30, COMPAS's cost
# chart in words (four lines of ten cutoffs and their marks, 46 rows) hid its "group Other" rows
# below the box's edge (review 74). The pages' tables are either short (at most 46 rows on the
# built-in samples) or a chart's dense curves (122 to 300 rows, `chart_text.MAX_ROWS`): those
# scroll in a box of `SCROLL_ROWS`, about a screen, which the reader sees whole while scrolling in
# it. 100 rows are 3,538 px, whose grid canvas, at 2 device pixels a px and 940 px wide, stays
# under 16.7 million pixels (4096², the smallest canvas a browser draws, Safari's on iOS).
TABLE_ROWS = 100
SCROLL_ROWS = 30
# The width of each character of a grid cell, in px: Source Sans at 14 px as Chromium draws it
# (measureText), for printable ASCII in order from the space, and for the signs the tables use.
# The grid sizes a column from a sample of its rows and clips the rest ("one per grou"), so
# `fitted_columns` gives every column the width its longest text needs.
_ASCII_PX = (
    2.8, 4.05, 5.96, 6.96, 6.96, 11.54, 8.53, 3.49, 4.24, 4.24, 5.85, 6.96, 3.49, 4.35, 3.49, 4.9,
    6.96, 6.96, 6.96, 6.96, 6.96, 6.96, 6.96, 6.96, 6.96, 6.96, 3.49, 3.49, 6.96, 6.96, 6.96, 5.95,
    11.86, 7.52, 8.23, 7.63, 8.61, 7.38, 6.92, 8.64, 9.13, 3.68, 6.2, 8.11, 6.8, 10.18, 9.06, 9.3,
    7.92, 9.3, 7.97, 7.3, 7.5, 9.03, 7.34, 11, 7.18, 6.66, 7.34, 4.24, 4.9, 4.24, 6.96, 7,
    7.59, 7.06, 7.74, 6.12, 7.77, 6.94, 4.04, 7.06, 7.62, 3.44, 3.46, 6.93, 3.57, 11.61, 7.66, 7.59,
    7.77, 7.77, 4.86, 5.87, 4.48, 7.62, 6.54, 10.07, 6.24, 6.54, 5.95, 4.24, 3.37, 4.24, 6.96,
)  # fmt: skip
_CHAR_PX = {
    **{chr(32 + i): px for i, px in enumerate(_ASCII_PX)},
    "→": 8.67,
    "−": 6.96,
    "≥": 6.96,
    "·": 3.49,
    "…": 13.27,
    "τ": 6.16,
    "δ": 7.43,
    "×": 6.96,
    "–": 6.72,
    "“": 5.96,
    "”": 5.96,
    "’": 3.49,
}
_OTHER_PX, _WIDE_PX = 9.0, 14.0  # any other letter; a CJK one (from U+2E80) is square
CELL_PADDING_PX = 16  # 8 px each side
MAX_COLUMN_PX = 400  # a column of long text (a group name) stops here and clips, unless the table has room
# The width a table has at 1400 px, inside an expander (940 px on the page itself, measured in
# Chromium with the sidebar open): a column of long text widens past `MAX_COLUMN_PX` while the
# whole table still fits it (Watch's "each period's own best (judged on other cases; estimated:
# at its % positive)" was cut at "% positiv" in a table of 843 px).
ROOM_PX = 906
NAMED_PX = {"small": 75, "medium": 200, "large": 400}  # Streamlit's named column widths
CHART_TITLE_CHARS = 72  # of a chart's title in its expander's label: the label fits one line at 1400 px


def show_table(
    df: pd.DataFrame,
    name: str,
    *,
    key: str,
    column_config: dict | None = None,
    export: pd.DataFrame | None = None,
    data: str | None = None,
) -> None:
    """A table with a CSV download: `export` (the same table as plain numbers) when given, so a
    spreadsheet gets numbers rather than "$1.00" text. User text is neutralised against formula
    injection in both exports: this button's (`safe_csv`) and the table toolbar's own
    "Download as CSV", which writes what the table displays (`safe_cells`). `data`: the name of the
    data the download is named for (`download_name`), where the page knows it itself."""
    _grid(df, column_config)
    _csv_download(df, name, key=key, export=export, data=data)


def _grid(df: pd.DataFrame, column_config: dict | None = None) -> None:
    """`df` in Streamlit's grid: user text neutralised for the toolbar's CSV (`safe_cells`), each
    column as wide as its text (`fitted_columns`), as tall as `table_height`."""
    height = table_height(len(df))
    shown = loading.safe_cells(without_empty_columns(df))
    st.dataframe(
        shown, hide_index=True, column_config=fitted_columns(shown, column_config), width="stretch", height=height
    )


def table_height(rows: int) -> int | str:
    """The height of a grid of `rows` rows: every row up to `TABLE_ROWS` (Streamlit's default shows
    about ten and scrolls; "auto" up to ten), else a box of `SCROLL_ROWS` rows that scrolls.

    >>> table_height(8), table_height(46) == ROW_PX * 47 + 3, table_height(300) == ROW_PX * (SCROLL_ROWS + 1) + 3
    ('auto', True, True)
    """
    if rows <= 10:
        return "auto"
    return ROW_PX * ((rows if rows <= TABLE_ROWS else SCROLL_ROWS) + 1) + 3


def show_chart(figure, *, key: str, where=None, words_where=None, **kwargs):
    """A chart (``where.plotly_chart(figure, key=key, **kwargs)``: the same arguments, so it
    replaces a page's call as it is) and under it, folded like a page's other second readings,
    its text alternative (`present.chart_text`): the sentence of what it shows and the numbers
    behind it as a table a screen reader reads cell by cell. Returns what ``plotly_chart``
    returns (the selection, with ``on_select``).

    `words_where` puts the text alternative elsewhere than the chart (a chart in a narrow column:
    its table under the columns, at the page's width, rather than cut in the column).

    The chart's accessible name (``alt``) is its title and where its text is: a name that held
    the numbers would change on every slider move. User text stays text: the sentence and the
    label are escaped Markdown, the table's cells are data (`_grid`).
    """
    where = where or st
    alt = chart_text(figure)
    title = words(figure.layout.title.text) if figure.layout.title.text else t.CHART_UNTITLED
    label = f"{t.CHART_TEXT}: {shorten(title, CHART_TITLE_CHARS)}"
    kwargs.setdefault("alt", t.CHART_ALT.format(title=shorten(title, CHART_TITLE_CHARS), label=label))
    shown = where.plotly_chart(figure, key=key, **kwargs)
    with (words_where or where).expander(md_escape(label)):
        say("markdown", alt.sentence)
        if alt.note:
            say("caption", alt.note)
        _grid(cutoffs_cut(alt.table))
    return shown


def cutoffs_cut(table: pd.DataFrame) -> pd.DataFrame:
    """A chart's table with its cutoffs as the page's words write them (`amounts.cutoff_number`: cut,
    never rounded up): a column of numbers is shown by the grid rounded to four decimals, and Find my
    prices' table read "0.9949" under a sentence that said "scoring 0.9948 or more" of the same cutoff.
    A column is of cutoffs when its header's words before a bracket are a cutoff axis (`CUTOFF_AXES`).

    >>> cutoffs_cut(pd.DataFrame({"cutoff (flag when at least this)": [0.99485, 1.0], "y": [0.99485, 2.0]}))
      cutoff (flag when at least this)        y
    0                           0.9948  0.99485
    1                                1  2.00000
    """
    columns = [c for c in table.columns if str(c).split(" (", 1)[0].strip() in CUTOFF_AXES]
    if not columns:
        return table
    table = table.copy()
    for c in columns:
        table[c] = [cutoff_number(float(x)) if isinstance(x, (int, float)) else x for x in table[c]]
    return table


def without_empty_columns(df: pd.DataFrame) -> pd.DataFrame:
    """`df` without the columns in which every cell is empty (blank text, None or NaN): a column that
    says nothing in any row only takes room ("note" in the rates per group when no group is too small
    to read). Its header's help goes with it; the CSV download keeps every column.

    >>> list(without_empty_columns(pd.DataFrame({"a": [1, 2], "note": ["", None], "b": ["", "x"]})).columns)
    ['a', 'b']
    """
    empty = [c for c in df.columns if len(df) and all(_cell_text(x).strip() == "" for x in df[c])]
    return df.drop(columns=empty) if empty else df


def text_px(text: str) -> int:
    """The width in pixels a grid cell (or header) needs to show `text` whole: its characters'
    widths (`_CHAR_PX`), 2% more for rounding, and the cell's padding.

    >>> text_px("one per group")
    100
    """
    drawn = sum(_CHAR_PX.get(ch, _WIDE_PX if ord(ch) >= 0x2E80 else _OTHER_PX) for ch in text)
    return math.ceil(1.02 * drawn) + CELL_PADDING_PX


def fitted_columns(df: pd.DataFrame, column_config: dict | None = None) -> dict:
    """`column_config` with a width for every column of `df` that has none: the width its
    longest text (header, or the label the config gives it, and every cell as shown) needs, at
    most `MAX_COLUMN_PX`, or more where the table still fits `ROOM_PX` (`_widened`). A column
    given a width keeps it; a column configured as None stays hidden.

    Cells are read as the grid shows them: text as it is, a number with six significant digits
    (a column's own format shows fewer or as many).
    """
    config = dict(column_config or {})
    shown, sized = [], []
    for name in df.columns:
        if name in config and config[name] is None:
            continue
        shown.append(name)
        given = config.get(name)
        given = dict(given) if isinstance(given, dict) else ({"label": given} if isinstance(given, str) else {})
        if given.get("width") is not None:
            continue
        label = str(given.get("label") or name)
        header = text_px(label)
        if header > MAX_COLUMN_PX:  # a header that would clip: its words before " (", the whole on hover
            given["help"] = f"{given['help']} ({label})" if given.get("help") else label
            taken = {c.get("label") if isinstance(c, dict) else c for c in config.values()}  # others' headers
            given["label"] = _fitting_header(label, taken=taken)
            header = text_px(given["label"])
        # each distinct text measured once: a price move sizes every column of its charts' tables,
        # whose names and labels repeat on every row (no cache across runs: cells are people's data)
        texts = set(map(_cell_text, df[name]))
        given["width"] = max([header, *map(text_px, texts)])  # its whole text: `_widened` caps it
        config[name] = given
        sized.append(name)
    return _widened(config, shown, sized)


def _widened(config: dict, shown: list, sized: list) -> dict:
    """`config` with the widths of the columns `sized` (of the `shown` ones) within `MAX_COLUMN_PX`,
    except that the columns of longer text share the room (`ROOM_PX`) the others leave, each up to
    its whole text. A width the caller gave counts as it is and is never changed.

    >>> cut = _widened({"a": {"width": 500}, "b": {"width": 300}}, ["a", "b"], ["a", "b"])
    >>> cut["a"]["width"], cut["b"]["width"]
    (500, 300)
    >>> cut = _widened({"a": {"width": 900}, "b": {"width": 300}, "c": {"width": 800}}, ["a", "b", "c"], ["a", "c"])
    >>> cut["a"]["width"], cut["c"]["width"]  # no room past the cap: both clip at it
    (400, 400)
    """
    widths = {n: config[n].get("width") if isinstance(config.get(n), dict) else None for n in shown}
    widths = {n: NAMED_PX.get(w, w) for n, w in widths.items()}
    long = sorted((n for n in sized if widths[n] > MAX_COLUMN_PX), key=widths.get)
    left = ROOM_PX - sum(w for n, w in widths.items() if n not in long and isinstance(w, (int, float)))
    for i, n in enumerate(long):  # narrowest first: each takes its whole text or its share of what is left
        config[n]["width"] = int(max(MAX_COLUMN_PX, min(widths[n], left // (len(long) - i))))
        left -= config[n]["width"]
    return config


def _fitting_header(label: str, taken=()) -> str:
    """A header within `MAX_COLUMN_PX`: its words before a parenthesis when they fit and are words
    no other column's header (`taken`) reads, else as many characters as fit with an ellipsis (the
    whole header is the column's hover help, and the chart's sentence above its table says it whole).

    >>> _fitting_header("confidence threshold (answer when the model's confidence is at least this)")
    'confidence threshold'
    >>> _fitting_header("(" + "x" * 100 + ")")[:3], _fitting_header("a (" + "x" * 100 + ")", taken={"a"})[:4]
    ('(xx', 'a (x')
    """
    head = label.split(" (", 1)[0].strip()
    if head and head not in taken and text_px(head) <= MAX_COLUMN_PX:
        return head
    head = label
    while len(head) > 1 and text_px(head + "…") > MAX_COLUMN_PX:
        head = head[:-1]
    return head.rstrip() + "…"


def _cell_text(x) -> str:
    """A cell's text as the grid shows it, for its width (`fitted_columns`)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return format(x, ",.6g")
    return str(x)


def show_live_table(df: pd.DataFrame, name: str, *, key: str, export: pd.DataFrame | None = None) -> None:
    """A small table in a part of a page that reruns with a slider, with its CSV download: a
    plain table (``st.table``, its cells `markdown_cells`: escaped text, formatted numbers)
    rather than the interactive grid of `show_table`, whose canvas and accessibility rows keep
    redrawing for about 100 ms after each move (the Instance page's cutoff moved in 1.61x the
    yardstick's time with the grid and 0.91x without it, benchmarks/README.md)."""
    st.table(markdown_cells(without_empty_columns(df)), hide_index=True)
    _csv_download(df, name, key=key, export=export)


def _csv_download(
    df: pd.DataFrame, name: str, *, key: str, export: pd.DataFrame | None, data: str | None = None
) -> None:
    """A table's CSV download: `export` when given, else the table, as `csv_table` writes it,
    neutralised (`safe_csv`), named for the table, the data (`data`, else `data_title`) and the day
    (`download_name`)."""
    st.download_button(
        t.DOWNLOAD_TABLE,
        data=loading.safe_csv(csv_table(df if export is None else export)),
        file_name=download_name(f"{name}.csv", data),
        mime="text/csv",
        key=f"dl_{key}",
        on_click="ignore",
    )


ANSWERED_FOR = "_answered_for"
"""Where `data.current_dataset` keeps the name of the data this run's page answers for: the
upload's file name, the sample's title, or the sample's it answers on instead of the data chosen."""


def data_title() -> str | None:
    """The name of the data this page answers for (`ANSWERED_FOR`), None before a page chose one."""
    return st.session_state.get(ANSWERED_FOR)


def download_name(file: str, data: str | None = None) -> str:
    """`dated_name` of `file` for `data` (the name of the data a page answers for, where the page passes it:
    Train with costs and Watch, whose data are their own), else this page's data (`data_title`), and today."""
    return dated_name(file, data_title() if data is None else data, dt.date.today())


def say(kind: str, text: str, *, bold: bool = False, where=None, **kwargs) -> None:
    """Show a sentence that may hold user text (names, units): escaped, never rendered.

    `kind` is the Streamlit call: "markdown", "caption", "success", "info", "warning", "error". An
    error carries the warning sign unless told otherwise: an emoji, as every icon here is (a
    `:material/…:` icon is a web font, which the spec keeps out).
    """
    body = md_escape(text)
    if kind == "error":
        kwargs.setdefault("icon", "⚠️")
    getattr(where or st, kind)(f"**{body}**" if bold else body, **kwargs)


def show_verdict(verdict, asides_title: str = t.ASIDES_TITLE, *, sample: str | None = None) -> None:
    """A page's one answer (`words.Verdict`): the headline in its colour, the details as one
    caption of paragraphs (a page redraws its answer on every slider move, and every element
    drawn costs the browser about as much as any other), and the other rules' story folded
    away under `asides_title`. `sample`: the title of the built-in sample answered for instead of
    the data chosen (`data.fallback_title`), named in the headline itself (`words.on_sample`)."""
    verdict = on_sample(verdict, sample)
    say(verdict.kind, verdict.headline)
    if verdict.details:
        st.caption("\n\n".join(md_escape(line) for line in verdict.details))
    if verdict.asides:
        with st.expander(asides_title):
            for line in verdict.asides:
                say("caption", line)


def show_metrics(metrics: list[dict]) -> None:
    """A row of `st.metric`s (each a dict of its arguments), side by side in one horizontal
    container: columns would add a block per metric to what every slider move redraws."""
    with st.container(horizontal=True, gap="medium"):
        for metric in metrics:
            st.metric(**metric)


def show_error(err: DataError) -> None:
    say("error", err.message)


# Where Streamlit 1.67 draws no focus indicator at all (WCAG 2.4.7 Focus Visible, checked on a
# keyboard-only journey by tests/e2e/test_journey_keyboard.py): the top navigation's links, a
# page link, a toggle or radio (its input is hidden and nothing else changes), a table's toolbar
# buttons (the toolbar stays transparent while one has focus: shown here) and its grid (whose
# canvas clips an outline and whose cells sit in a hidden table: drawn on the whole table), an
# expander's summary, a chart's toolbar and the main area (Tab reaches it to scroll). Elements
# Streamlit does ring (buttons, inputs; a slider's thumb, around its hidden range input, only
# by a pale halo, below 3:1 against the page) gain the same outline, so focus looks alike
# everywhere. Keyboard focus only (:focus-visible): a click draws no ring.
_FOCUS_CSS = """<style>
a:focus-visible, button:focus-visible, summary:focus-visible,
[data-testid="stSlider"] div:has(> div > input[type="range"]:focus-visible),
[data-testid="stCheckbox"] label:has(input:focus-visible),
[data-testid="stRadio"] label:has(input:focus-visible),
[data-testid="stDataFrame"]:has(canvas:focus, table :focus) {
  outline: 2px solid {color} !important;
  outline-offset: 2px !important;
}
[data-testid="stMain"]:focus-visible { outline: 2px solid {color} !important; outline-offset: -2px !important; }
[data-testid="stElementToolbar"]:focus-within { opacity: 1 !important; }
</style>"""


def focus_style() -> None:
    """A visible keyboard-focus outline, in the theme's primary colour, on every focusable
    element of the page (`_FOCUS_CSS`); a style-only ``st.html`` takes no space on the page."""
    color = st.get_option("theme.primaryColor") or "#1f5fa8"
    st.html(_FOCUS_CSS.replace("{color}", color))


def page_header(title: str, what: str) -> None:
    """A page's title and what it answers, with the page's keyboard-focus outline (`focus_style`)."""
    focus_style()
    st.title(title)
    st.caption(what)
