"""Tables drawn whole, not cut inside their own scroll boxes (review 74, item 2).

a. Costs & groups on COMPAS: the cost chart's table in words (four lines of ten cutoffs and their
   marks, 46 rows) was drawn 30 rows tall, its "group Other" rows hidden below the box's edge.
b. Watch on the built-in year: the chart's series "each period's own best (judged on other cases;
   estimated: at its % positive)" was cut at "% positiv" in a column held to 400 px, though the
   table had room for it whole.

Heights are read from the calls to ``st.dataframe`` (AppTest keeps no element's height); a row of
Streamlit's grid, and its header, is 35 px. Widths are held against the house's measure of the
text in Chromium (`display.text_px`) and the room a table has inside an expander at 1400 px.
"""

from __future__ import annotations

import json

import pytest
import streamlit

from tests.views.apptest_support import open_app, unescape
from views._ui.display import text_px

ROW_PX = 35
ROOM_IN_EXPANDER_PX = 906


@pytest.fixture
def heights(monkeypatch):
    """{number of rows: [heights]} of every grid the page draws."""
    drawn: dict[int, list] = {}
    dataframe = streamlit.dataframe

    def recorded(data=None, *args, **kwargs):
        drawn.setdefault(len(data), []).append(kwargs.get("height"))
        return dataframe(data, *args, **kwargs)

    monkeypatch.setattr(streamlit, "dataframe", recorded)
    return drawn


def test_the_compas_cost_chart_in_words_shows_every_row(heights):
    at = open_app("compas", "views/costs.py")
    title = "Cost per case against the cutoff, p_recid (test rows)"
    [table] = [d for e in at.expander if title in unescape(e.label) for d in e.get("dataframe")]
    frame = table.value
    assert (frame["series"] == "group Other").any()
    rows = len(frame)
    assert rows > 30, rows  # longer than the box it was cut to
    assert heights[rows], heights
    for height in heights[rows]:
        assert isinstance(height, int) and height >= ROW_PX * (rows + 1), (rows, height)


def test_the_watch_series_are_read_whole_in_the_chart_in_words():
    at = open_app(None, "views/watch.py")
    tables = [d for e in at.expander for d in e.get("dataframe") if "series" in d.value.columns]
    assert tables
    for table in tables:
        config = json.loads(table.proto.columns or "{}")
        longest = max(map(str, table.value["series"]), key=text_px)
        width = config["series"]["width"]
        assert width >= text_px(longest), (longest, width, text_px(longest))
        total = sum(config[str(c)]["width"] for c in table.value.columns)
        assert total <= ROOM_IN_EXPANDER_PX, (total, config)
    assert any("each period's own best" in str(s) for t in tables for s in t.value["series"])
