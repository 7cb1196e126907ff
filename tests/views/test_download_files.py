"""What a table's CSV download and the audit's files hold and are named (a fairness reviewer who
files downloads): the table's words for headers and rules, whole counts as integers, no negative
zero, numbers a spreadsheet computes with; file names that say the table or file, the data and
the day, safe however the data is named."""

from __future__ import annotations

import datetime as dt
import io
import re

import numpy as np
import pandas as pd
import pytest
from apptest_support import USE_COLUMNS, assert_no_exception, downloads, keep_downloads, open_app

from costlib.present.downloads import FILE_PART_CHARS, dated_name, file_part

TODAY = dt.date.today().isoformat()


def test_the_rules_csv_reads_as_the_table_does_with_numbers_a_spreadsheet_computes_with(monkeypatch):
    kept = keep_downloads(monkeypatch)
    at = open_app("compas", "views/costs.py", details="true")
    files = downloads(at, kept)
    name, body = files["dl_rules"]
    assert name == f"rules_Recidivism_risk_COMPAS_{TODAY}.csv"
    text = body.decode()
    header = text.splitlines()[0]
    assert header == (
        "rule,cases,flagged,false positives,false negatives,cost per case,"
        "cost per case (95% interval low),cost per case (95% interval high),saving against flag everyone,"
        "saving (95% interval low),saving (95% interval high)"
    )
    cells = [cell for line in text.splitlines()[1:] for cell in line.split(",")]
    assert "_" not in header and "elkan" not in text and "3087.0" not in cells
    assert not [c for c in cells if re.fullmatch(r"-0(\.0*)?", c)]  # no negative zero
    table = pd.read_csv(io.StringIO(text))
    assert "cutoff from prices alone" in set(table["rule"])  # the rule as the page names it
    assert (table["cases"] == 3087).all() and table["false positives"].dtype == np.int64
    numbers = table.drop(columns="rule")
    assert all(pd.api.types.is_numeric_dtype(numbers[c]) for c in numbers)  # no "$0.53" text
    # the baseline's own saving is 0 (it was -0.0), and a saving is what the table shows
    flag_everyone = table[table["rule"] == "flag everyone"].iloc[0]
    assert flag_everyone["saving against flag everyone"] == 0

    name, body = files["dl_rules_by_group"]
    assert name == f"rules_by_group_Recidivism_risk_COMPAS_{TODAY}.csv"
    by_group = pd.read_csv(io.StringIO(body.decode()))
    assert list(by_group.columns[:4]) == ["rule", "group", "cases", "cutoff"]
    assert "elkan" not in body.decode() and "threshold 0.5" not in set(by_group["rule"])


@pytest.mark.parametrize(
    ("data", "part"),
    [
        ("../../etc/passwd <script>.csv", "etc_passwd_script"),
        ("..\\..\\Windows\\win.ini", "Windows_win"),
        ("Données été 2026 (v2).parquet", "Données_été_2026_v2"),
        ("报告\u202egnp.exe.csv", "报告_gnp.exe"),
        ("ｆｕｌｌ／ｗｉｄｔｈ", "full_width"),
        ("", "data"),
        ("   ", "data"),
        ('<>:"|?*', "data"),
        (None, "None"),
    ],
)
def test_a_hostile_data_name_makes_a_safe_dated_file_name(data, part):
    assert file_part(data) == part
    name = dated_name("cost_audit.html", data, dt.date(2026, 12, 7))
    assert name == f"cost_audit_{part}_2026-12-07.html"
    assert "/" not in name and "\\" not in name and ".." not in name
    assert re.fullmatch(r"[\w.-]+", name)  # letters and digits of any script, "_", "-", "."


def test_a_long_data_name_is_cut_and_a_file_without_extension_keeps_its_name():
    assert len(file_part("a" * 500 + ".csv")) == FILE_PART_CHARS
    assert file_part("x" * (FILE_PART_CHARS - 1) + " yyy") == "x" * (FILE_PART_CHARS - 1)  # no "_" at the cut
    assert dated_name("rules.csv", "compas.csv", dt.date(2026, 1, 2)) == "rules_compas_2026-01-02.csv"
    assert dated_name("notes", "d", dt.date(2026, 1, 2)) == "notes_d_2026-01-02"


def test_an_upload_with_a_hostile_name_names_the_costs_downloads_safely(monkeypatch):
    kept = keep_downloads(monkeypatch)
    rng = np.random.default_rng(3)
    n = 400
    p = rng.random(n).round(3)
    frame = pd.DataFrame({"label": (rng.random(n) < p).astype(int), "score": p, "grp": rng.choice(["a", "b"], n)})
    at = open_app("compas", "views/data.py")
    hostile = "../../etc/passwd <script>.csv"
    at.file_uploader(key="uploader").upload(hostile, frame.to_csv(index=False).encode(), "text/csv").run()
    [b for b in at.button if b.label == USE_COLUMNS][0].click().run()
    assert_no_exception(at)
    at.switch_page("views/costs.py").run()
    at.toggle(key="details").set_value(True).run()
    assert_no_exception(at)
    names = [name for name, _ in downloads(at, kept).values()]
    assert f"rules_etc_passwd_script_{TODAY}.csv" in names
    assert all(n.endswith(f"_etc_passwd_script_{TODAY}.csv") for n in names), names


def _table_with_a_name(data):
    """A page drawing one table with `show_table`, naming its download for `data` (None: the page's data)."""
    import pandas as pd

    from views._ui.display import show_table

    show_table(pd.DataFrame({"a": [1, 2]}), "periods", key="periods", data=data)


@pytest.mark.parametrize(("data", "part"), [("the cases of May.csv", "the_cases_of_May"), (None, "Another_page")])
def test_a_page_names_its_download_for_its_own_data_and_leaves_another_pages_name(monkeypatch, data, part):
    """Review of 140: Train with costs and Watch named their downloads by writing their data's name into
    `session_state` (`display.ANSWERED_FOR`), where the other pages' data name is kept: Train put the old one
    back without a try/finally, Watch never did. The name now reaches the download as an argument
    (`show_table(..., data=)`); without it a download is named for the page's data as before."""
    from streamlit.testing.v1 import AppTest

    from views._ui.display import ANSWERED_FOR

    kept = keep_downloads(monkeypatch)
    at = AppTest.from_function(_table_with_a_name, args=(data,))
    at.session_state[ANSWERED_FOR] = "Another page"
    at.run()
    assert_no_exception(at)
    assert downloads(at, kept)["dl_periods"][0] == f"periods_{part}_{TODAY}.csv"
    assert at.session_state[ANSWERED_FOR] == "Another page"


def test_the_watch_page_names_its_tables_for_the_newer_cases(monkeypatch):
    kept = keep_downloads(monkeypatch)
    at = open_app(None, "views/watch.py", timeout=180)
    name = downloads(at, kept)["dl_watch_periods"][0]
    assert name.startswith("watch_periods_") and name.endswith(f"_{TODAY}.csv") and name != f"watch_periods_{TODAY}.csv"
