"""The Watch page does not judge again what it has judged: the built-in year's periods are judged
(and resampled) once for the whole server, a period switch back and forth judges each choice
once, and a move of the sidebar's cases a month does not judge the periods again. Counted
calls, never timed."""

from __future__ import annotations

import pytest

from costlib.answers import watch as answer_module
from costlib.watch import report as report_module
from tests.views.apptest_support import assert_no_exception, open_app, unescape
from views._ui.memo import SHARED


def _box(at) -> str:
    (box,) = [
        unescape(x.value)
        for x in (*at.success, *at.warning, *at.error)
        if x.value.startswith(("Keep", "Refit", "Check the model"))
    ]
    return box


@pytest.fixture
def counted(monkeypatch):
    """The periods judged (`watch_report`, by period) and the refits made (`refit_inputs`) from now on."""
    calls = {"report": [], "refit": []}
    report, refit = report_module.watch_report, answer_module.refit_inputs

    def judged(*args, **kwargs):
        calls["report"].append(kwargs["freq"])
        return report(*args, **kwargs)

    def refitted(*args, **kwargs):
        calls["refit"].append(kwargs["report"]["freq"])
        return refit(*args, **kwargs)

    monkeypatch.setattr(report_module, "watch_report", judged)
    monkeypatch.setattr(answer_module, "refit_inputs", refitted)
    assert not len(SHARED)  # a fresh server, nothing judged yet (tests/views/conftest.py empties it)
    return calls


def test_a_second_visitor_on_the_built_in_year_reads_the_first_ones_answer(counted):
    first = open_app("compas", "views/watch.py")
    assert counted["report"] == ["M"] and len(counted["refit"]) == 1
    second = open_app("compas", "views/watch.py")  # another session on the same server
    assert_no_exception(second)
    assert counted["report"] == ["M"] and len(counted["refit"]) == 1
    assert _box(second) == _box(first) and _box(first).startswith("Refit: since 2026-07")


def test_a_period_switch_judges_each_choice_once_and_a_move_of_the_cases_a_month_judges_no_period(counted):
    at = open_app("compas", "views/watch.py")
    months = _box(at)
    at.selectbox(key="watch_freq").set_value("W").run()
    assert_no_exception(at)
    weeks = _box(at)
    assert weeks.startswith("Refit: since week of")
    at.selectbox(key="watch_freq").set_value("M").run()
    assert _box(at) == months
    at.selectbox(key="watch_freq").set_value("W").run()
    assert _box(at) == weeks
    assert counted == {"report": ["M", "W"], "refit": ["M", "W"]}
    at.number_input(key="volume").set_value(2500).run()  # the sample's policy has its own cases a month
    assert_no_exception(at)
    moved = _box(at)  # the headline names the sidebar's cases a month (ea558e7): only its amount a month moves
    assert "a month at your 2,500 cases a month)" in moved and "10,000" not in moved, moved
    assert moved.split(" per case more")[0] == weeks.split(" per case more")[0]
    assert counted["report"] == ["M", "W"]
