"""No table cell or header is clipped at 1400 px (issue 44, item 5).

Streamlit's grid sized a column from a sample of its rows and cut the rest ("one per grou" in
the fairness rules, "fewer than 20..." in the rates per group), and a table wider than the page
scrolled sideways. Every table now gives each column a width (`display.fitted_columns`); these
tests hold each width against a lower bound of the width its longest text needs, stated here
apart from the page's own estimate: 5 px a character (Source Sans at 14 px draws the tables'
cells at 5.4 to 7 px a character, measured in Chromium) plus the cell's 16 px of padding; and
the widths together against the room the page gives a table at 1400 px: 940 px, 906 inside an
expander (measured in Chromium, sidebar open).
"""

from __future__ import annotations

import json

import pytest
from apptest_support import open_app

MIN_PX_PER_CHAR = 5.0
PADDING_PX = 16
ROOM_PX, ROOM_IN_EXPANDER_PX = 940, 906
NAMED_WIDTHS = {"small": 75, "medium": 200, "large": 400}  # Streamlit's named column widths

PAGES = {
    "costs, a limit of 400 a month": ("views/costs.py", {"c_fp": 25, "c_fn": 60, "cap_on": "true", "cap": 400}),
    "costs, prices per group": ("views/costs.py", {"per_group": "true"}),
    # a group too small to read (the rates per group's note beside it) in a table inside an expander
    "costs at prices 1:10": ("views/costs.py", {"c_fp": 1, "c_fn": 10}),
    "prices": ("views/prices.py", {}),
    "value": ("views/value.py", {}),
    "value at separate prices": ("views/value.py", {"c_fp": 1, "c_fn": 10}),
    "cost matrix": ("views/matrix.py", {}),
    "instance costs": ("views/instance.py", {}),
    "calibration": ("views/calibration.py", {}),
    "watch, the built-in year": ("views/watch.py", {}),
}  # the Data page's own tables (views/data.py) are short and drawn whole by the grid's own sizing


def _cell(x) -> str:
    """A cell's text; a number as the grid shows it at most (six significant digits)."""
    if x is None or x != x:
        return ""
    return format(x, ",.6g") if isinstance(x, (int, float)) and not isinstance(x, bool) else str(x)


def _tables(at):
    """(table, inside an expander) for every read-only st.dataframe on the page (the Cost
    matrix's editor is sized by its own column config)."""
    inside = {id(d.proto) for e in at.expander for d in e.get("dataframe")}
    return [(d, id(d.proto) in inside) for d in at.dataframe if not d.proto.editing_mode]


@pytest.mark.parametrize("name", list(PAGES))
def test_every_column_is_wide_enough_for_its_longest_text_and_the_table_fits_the_page(name):
    page, params = PAGES[name]
    at = open_app("compas", page, details="true", **params)
    tables = _tables(at)
    assert tables or page in ("views/calibration.py", "views/instance.py"), f"{name}: no table"
    for table, in_expander in tables:
        config = json.loads(table.proto.columns or "{}")
        frame = table.value
        total = 0
        for column in frame.columns:
            given = config.get(str(column), {})
            width = NAMED_WIDTHS.get(given.get("width"), given.get("width"))
            assert isinstance(width, int), f"{name}: the column {column!r} has no width: {given}"
            header = given.get("label") or str(column)
            longest = max([header, *(_cell(x) for x in frame[column])], key=len)
            need = MIN_PX_PER_CHAR * len(longest) + PADDING_PX
            assert width >= need, f"{name}: {column!r} is {width} px, its text {longest!r} needs {need:.0f}"
            total += width
        room = ROOM_IN_EXPANDER_PX if in_expander else ROOM_PX
        assert total <= room, f"{name}: the columns of {list(frame.columns)} take {total} px of {room}"


def test_a_header_too_long_for_a_column_reads_whole_on_hover_not_clipped():
    """A chart's axis title as a column header (the Value chart's 'confidence threshold (answer when
    the model's confidence is at least this)') is wider than a column may be: it was cut mid-word at
    the column's edge. Its header is now the words before the parenthesis, and the whole title is the
    column's help."""
    import pandas as pd

    from views._ui.display import MAX_COLUMN_PX, fitted_columns, text_px

    long = "confidence threshold (answer when the model's confidence is at least this)"
    endless = "saving per case against flagging nobody, counted in a miss's price, and more words"
    config = fitted_columns(pd.DataFrame({long: [0.5], endless: [1.0], "series": ["a"]}))
    assert config[long]["label"] == "confidence threshold" and config[long]["help"] == long
    assert config[endless]["label"].endswith("…") and config[endless]["help"] == endless
    for column in (long, endless):
        assert text_px(config[column]["label"]) <= config[column]["width"] <= MAX_COLUMN_PX
    assert "help" not in config["series"] and "label" not in config["series"]


def test_two_long_headers_with_the_same_first_words_stay_apart():
    """Two headers cut to the words before their parenthesis would read the same: the second is cut
    with an ellipsis instead, and a help the caller gave keeps the whole header too."""
    import pandas as pd

    from views._ui.display import fitted_columns

    tail = "a long explanation that no column can hold at this width, and some more words"
    a, b = f"worth per case ({tail})", f"worth per case ({tail}, again)"
    config = fitted_columns(pd.DataFrame({a: [1.0], b: [2.0]}), {b: {"help": "the other one"}})
    assert config[a]["label"] == "worth per case" and config[b]["label"] != "worth per case"
    assert config[b]["label"].endswith("…") and config[b]["help"] == f"the other one ({b})"


def test_the_rates_per_group_with_a_small_group_fit_the_page():
    """The note beside a group too small to read ("fewer than 20 positives or negatives: a
    guess") widened the rates per group past the page, its note clipped at the right edge
    ("fewer than 20 p…"), on an upload without a split whose smallest group has 15 rows; the
    sample pages above show no small group, so the note's column was always empty there. The
    table is drawn outside an expander (`ROOM_PX`); COMPAS's group names, thousands of cases."""
    import pandas as pd

    from costlib.binary.fairness import GROUP_RATES
    from costlib.binary.folds import MIN_CLASS_ROWS
    from costlib.present.tables import group_rates_columns, group_rates_table
    from views._ui.display import fitted_columns

    def rates(x, lo, hi):
        return (
            {r: x for r in GROUP_RATES} | {f"{r} low": lo for r in GROUP_RATES} | {f"{r} high": hi for r in GROUP_RATES}
        )

    by_group = pd.DataFrame(
        [
            {"group": "African-American", "n": 3175, "positives": 1661, "negatives": 1514, "small": False}
            | rates(0.4567, 0.4321, 0.4812),
            {"group": "Caucasian", "n": 2103, "positives": 822, "negatives": 1281, "small": False}
            | rates(0.3456, 0.3210, 0.3701),
            {"group": "Native American", "n": 15, "positives": 4, "negatives": 11, "small": True}
            | rates(0.25, 0.0, 0.75),
        ]
    )
    gaps = pd.DataFrame([{"rate": r, "gap": 0.2111, "low": 0.1234, "high": 0.4567} for r in GROUP_RATES])
    shown = group_rates_table(by_group, gaps, MIN_CLASS_ROWS)
    assert shown["note"].iloc[2] and not shown["note"].iloc[0]  # the small group has its note
    config = fitted_columns(shown, group_rates_columns(MIN_CLASS_ROWS))
    widths = {c: config[c]["width"] for c in shown.columns}
    assert sum(widths.values()) <= ROOM_PX, widths
    assert str(MIN_CLASS_ROWS) in config["note"]["help"]  # how few, on hover
