"""Calibration on COMPAS (a first-time reader's review at 1400 px): the control said "Score bands 10"
and the reliability chart drew 6 points, with nothing to say why. COMPAS's probabilities run from
about 0.19 to 0.83 in ten steps, so 4 of the 10 equal bands of [0, 1] hold no case, and a band with
no case has no point. The chart now says so under its title, in words its text alternative reads
too: "6 of the 10 score bands hold cases: ...".
"""

from __future__ import annotations

import numpy as np
import pytest

from costlib.present import calibration_figures
from costlib.present import calibration_words as cw
from tests.views.apptest_support import figure, open_app


def _points(chart, name: str) -> int:
    """The points a curve draws: on its line and, hollow, its bands too small to read."""
    small = cw.SMALL_BINS.format(name=name, least="")[: len(name) + 2]
    return sum(len(t.x) for t in chart.data if t.name == name or t.name.startswith(small))


def _notes(chart) -> list[str]:
    return [a.get("text", "") for a in chart.layout.get("annotations", [])]


@pytest.fixture(scope="module")
def page():
    return open_app("compas", "views/calibration.py")


def test_the_chart_says_how_many_of_the_score_bands_hold_cases_and_so_draw_a_point(page):
    assert page.slider(key="bins").value == 10
    chart = figure(page, 0)
    drawn = _points(chart, cw.AS_GIVEN.format(model="p_recid"))
    assert 0 < drawn < 10  # the review's case: 6 points for 10 bands
    said = calibration_figures.bands_drawn(drawn, drawn, 10)
    assert said.startswith(f"{drawn} of the 10 score bands hold cases")
    assert said in _notes(chart), _notes(chart)


def test_a_chart_whose_every_band_holds_cases_says_nothing_more():
    curves = [("m", np.array([0.25, 0.75]), np.array([0.3, 0.7]), np.array([40, 60]))]
    fig = calibration_figures.reliability_diagram(curves, least=10, title="t", bands=2)
    assert not fig.layout.annotations


def test_lines_that_draw_different_numbers_of_bands_say_the_range():
    curves = [
        ("a", np.array([0.25, 0.75]), np.array([0.3, 0.7]), np.array([40, 60])),
        ("b", np.array([0.25]), np.array([0.3]), np.array([40])),
    ]
    fig = calibration_figures.reliability_diagram(curves, least=10, title="t", fade_after_first=False, bands=4)
    assert [a.text for a in fig.layout.annotations] == [calibration_figures.bands_drawn(1, 2, 4)]
    assert calibration_figures.bands_drawn(1, 2, 4).startswith("1 to 2 of the 4 score bands hold cases")
