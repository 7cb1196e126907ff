"""Review 72 on the pages at 1,400 px: a chart's table under the columns rather than in a half
column, no table column empty in every row, and Find my prices' chart naming its model, its
table's cutoffs read as its sentence reads them (cut, not rounded)."""

from __future__ import annotations

import json

from apptest_support import open_app, texts


def _in(block, kind: str) -> list:
    """Every element of `kind` under `block`, however deep (expanders inside columns)."""
    found = []
    for child in getattr(block, "children", {}).values():
        if getattr(child, "type", None) == kind:
            found.append(child)
        found += _in(child, kind)
    return found


def test_no_chart_table_sits_in_a_half_column_on_instance_costs():
    """'How costly a mistake is, case by case' showed only "series" and "…from" in its half
    column, its header cut and the count hidden unless scrolled sideways: its words and table are
    now under the two columns, at the page's width."""
    at = open_app("compas", "views/instance.py", details="true")
    assert len(at.get("plotly_chart")) >= 2  # the histogram is drawn
    for column in at.columns:
        assert not _in(column, "dataframe"), "a table in a half column"
    labels = [e.label for e in at.expander]
    assert any("How costly a mistake is" in label for label in labels)


def test_no_table_shows_a_column_empty_in_every_row():
    """'note' in the rates per group and Watch's groups was empty in every row seen: the column is
    left out when every cell is empty (`display.without_empty_columns`)."""
    for page in ("views/costs.py", "views/watch.py"):
        at = open_app("compas", page, details="true")
        for table in at.dataframe:
            frame = table.value
            for column in frame.columns:
                cells = ["" if x is None or x != x else str(x).strip() for x in frame[column]]
                assert any(cells) or not len(frame), f"{page}: {column!r} is empty in every row"


def test_find_my_prices_chart_names_its_model_and_cuts_its_cutoffs_as_the_sentence_does():
    at = open_app("screening", "views/prices.py")
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    title = spec["layout"]["title"]["text"]
    assert "score_overconfident" in title or "score_calibrated" in title, title
    said = texts(at)
    table = next(t.value for t in at.dataframe if any(str(c).startswith("cutoff") for c in t.value.columns))
    column = next(c for c in table.columns if str(c).startswith("cutoff"))
    first = str(table[column].iloc[0])
    assert f"scoring {first} or more" in said, (first, said[:400])
