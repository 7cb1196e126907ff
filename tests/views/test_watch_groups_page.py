"""The Watch page's table of groups, headless: a fairness reviewer reads each group's rates and
cost per case with their 95% intervals, the note column says what "a guess" means, and the
download holds the numbers. The table had the share flagged and the cost alone."""

from __future__ import annotations

import io
import json

import pandas as pd

from costlib.present.tables import small_group_note
from costlib.present.watch_tables import GROUPS_WHAT
from tests.views.apptest_support import downloads, keep_downloads, open_app, texts


def test_the_groups_table_shows_rates_with_intervals_and_says_what_a_guess_is(monkeypatch):
    kept = keep_downloads(monkeypatch)
    at = open_app("compas", "views/watch.py")
    tables = [d for d in at.dataframe if "false positive rate" in d.value.columns]
    assert len(tables) == 1
    table = tables[0]
    shown = table.value
    assert len(shown) == 24 and shown["period"].iloc[0] == "2026-01"
    assert shown["false negative rate"].str.contains(r"\(\S+ to \S+\)").all()
    assert "None" not in shown.to_csv() and "nan" not in shown.to_csv().lower()
    config = json.loads(table.proto.columns)
    assert small_group_note() in GROUPS_WHAT and "a guess" in config["note"]["help"]
    assert GROUPS_WHAT in texts(at)
    _, data = downloads(at, kept)["dl_watch_groups"]  # the table's numbers, for a spreadsheet
    numbers = pd.read_csv(io.BytesIO(data))
    assert len(numbers) == 24 and numbers["false positive rate (95% interval low)"].between(0, 1).all()
