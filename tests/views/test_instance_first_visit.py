"""The Instance costs page's first visit on a fresh server: the dashboard's warm-up has imported
what its first run needs (Streamlit's emoji table for the page icon, Plotly's JSON, the tables'
Arrow and CSV), and the built-in sample's answer is made once for the whole server, not once per
visitor. Counted, never timed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import costlib.answers
from tests.views.apptest_support import assert_no_exception, open_app
from views._ui.memo import SHARED

ROOT = Path(__file__).resolve().parents[2]

#: modules a first Instance run imported after the warm-up before they were warmed (the emoji
#: table's pattern alone took 0.03 to 0.07 s to compile)
FIRST_RUN_IMPORTS = (
    "streamlit.emojis",
    "narwhals._pandas_like.dataframe",
    "plotly.io._json",
    "pyarrow.pandas_compat",
    "pandas.io.formats.csvs",
)


def test_the_warm_up_imports_what_the_first_instance_run_would_import():
    code = (
        "import json, sys\n"
        "from costlib.cli.dashboard import warm\n"
        "warm()\n"
        "from streamlit.testing.v1 import AppTest\n"
        "before = set(sys.modules)\n"
        "at = AppTest.from_file('app.py', default_timeout=300)\n"
        "at.switch_page('views/instance.py').run()\n"
        "print(json.dumps({'exceptions': [e.message for e in at.exception],\n"
        "                  'imported': sorted(set(sys.modules) - before)}))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["exceptions"] == []
    assert [m for m in FIRST_RUN_IMPORTS if m in out["imported"]] == []


@pytest.fixture
def answered(monkeypatch):
    """The Instance costs answers made from now on (`answers.instance_answer`, by data set name)."""
    calls = []
    made = costlib.answers.instance_answer

    def counted(ds):
        calls.append(ds.name)
        return made(ds)

    monkeypatch.setattr(costlib.answers, "instance_answer", counted)
    assert not len(SHARED)  # a fresh server (tests/views/conftest.py empties it)
    return calls


def test_a_second_visitor_on_the_built_in_sample_reads_the_first_ones_answer(answered):
    first = open_app(None, "views/instance.py")  # the default data has no instance costs: the sample instead
    assert len(answered) == 1
    second = open_app("offensive", "views/instance.py")  # another session, the sample chosen
    second.number_input(key="mistake_price").set_value(2.5).run()  # a price move reads the same answer
    assert_no_exception(second)
    assert len(answered) == 1
    third = open_app(None, "views/instance.py")
    # the sample's answer, in a neutral box for visitors whose data it is not (`words.on_sample`)
    assert first.info and [x.value for x in first.info] == [x.value for x in third.info]
    assert len(answered) == 1
