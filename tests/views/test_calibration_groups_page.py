"""Headless AppTest of the Calibration page's section on each group: shown on data with groups
(COMPAS, audited by race), absent on data without, and remembered per bins (a move back to a
number of bins seen before does not bootstrap again)."""

from costlib.present import calibration_group_words as gw
from costlib.present import calibration_words as cw
from tests.views.apptest_support import assert_no_exception, chart_keys, metric, open_app, texts, unescape


def _headers(at) -> list[str]:
    return [h.value for h in at.subheader]


def test_compas_shows_each_groups_calibration_and_a_bins_move_keeps_it():
    at = open_app("compas", "views/calibration.py")
    assert gw.GROUPS_TITLE in _headers(at)
    assert "reliability_by_group" in chart_keys(at)
    said = texts(at)
    assert "The scores are least calibrated for " in said and "noise" in said
    tables = [t.value for t in at.table]
    by_group = [t for t in tables if gw.GROUP_TABLE["interval"] in t.columns]
    assert len(by_group) == 1
    assert {unescape(x) for x in by_group[0][gw.GROUP_TABLE["group"]]} == {"African-American", "Caucasian", "Other"}
    at.slider(key="bins").set_value(15).run()
    assert_no_exception(at)
    assert "in the same 15 score bands" in texts(at)


def test_data_without_groups_has_no_group_section():
    at = open_app("offensive", "views/calibration.py")
    assert metric(at, cw.ERROR_BEFORE)  # the page ran (its error in plain words), without the groups
    assert gw.GROUPS_TITLE not in _headers(at)
    assert "reliability_by_group" not in chart_keys(at)
