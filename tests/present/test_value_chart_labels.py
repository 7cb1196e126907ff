"""The Value page's first chart keeps its words off its lines (first-time user review, item 3): at
$1 / $3 on the offensive sample the two fitted thresholds sit 0.07 apart at the top of the plot,
and "negative from 0.7441: $0.802", written under its star, sat on the dashed line of the choice
without the model and on both curves, and read as struck through; the dashed line's own words in
the plot ran into the curves too (and, on the chart at one price, into COMPAS's curve at k = 2).

Now each star's words sit above the plot, where no line runs, joined to the star by a dotted line,
in rows that cannot overlap, and the choice without the model is a dashed line named in the legend
(readable without colour: its dash, and the words). The text alternative reads them all."""

from __future__ import annotations

import numpy as np
import pytest

from costlib.present import figures
from costlib.present.chart_text import chart_text

LINES = [
    (
        "positive answers' threshold (negative at 0.7441)",
        np.array([0.5, 0.6, 0.68, 0.9, 1.0]),
        [0.78, 0.80, 0.80, 0.7, 0.1],
    ),
    (
        "negative answers' threshold (positive at 0.6768)",
        np.array([0.5, 0.6, 0.74, 0.9, 1.0]),
        [0.76, 0.79, 0.80, 0.79, 0.78],
    ),
]
LEVEL = "best without the model, letting the model answer every case: $0.746"


def _figure(marks):
    return figures.value_outcome_figure(
        LINES, marks, level=0.746, level_text=LEVEL, title="Worth per case", marks_name="thresholds fitted", unit="$"
    )


def _above_the_plot(notes) -> bool:
    return all((a.yref, a.y, a.yanchor) == ("paper", 1, "bottom") for a in notes)


def test_two_close_stars_get_a_row_each_above_the_plot_and_the_upper_ones_line_passes_beside_the_lower_words():
    marks = [("positive from 0.6768: $0.802", 0.6768, 0.802), ("negative from 0.7441: $0.802", 0.7441, 0.802)]
    fig = _figure(marks)
    notes = sorted(fig.layout.annotations, key=lambda a: a.yshift)
    assert [a.text for a in notes] == ["negative from 0.7441: $0.802", "positive from 0.6768: $0.802"]
    assert _above_the_plot(notes)  # no line of the plot can run through them
    lower, upper = notes
    assert upper.yshift - lower.yshift >= figures.STAR_ROW  # a row apart: they cannot overlap
    # both run right (the pair is left of the middle): the lower words start at their star, right of the
    # upper star, so the upper star's dotted line up to its words passes left of them
    assert lower.xanchor == upper.xanchor == "left" and upper.x < lower.x
    guides = {s.x0: s for s in fig.layout.shapes}
    assert set(guides) == {0.6768, 0.7441} and all(s.x0 == s.x1 and s.line.dash == "dot" for s in guides.values())
    assert guides[0.6768].y1 > guides[0.7441].y1 > 1  # each up past the plot's top, to its own row
    low, high = fig.layout.yaxis.range
    assert guides[0.7441].y0 == pytest.approx((0.802 - low) / (high - low))  # from the star itself
    assert fig.layout.margin.t >= 60 + 2 * figures.STAR_ROW  # room for both rows under the title


def test_far_apart_stars_share_a_row_each_running_toward_the_middle():
    marks = [("positive from 0.6032: $0.129", 0.52, 0.129), ("negative from 0.8006: $0.129", 0.98, 0.129)]
    notes = sorted(_figure(marks).layout.annotations, key=lambda a: a.x)
    assert _above_the_plot(notes) and {a.yshift for a in notes} == {notes[0].yshift}
    assert [a.xanchor for a in notes] == ["left", "right"]  # neither cut at the chart's edge, nor reaching the other


def test_the_choice_without_the_model_is_a_dashed_line_of_the_legend_and_the_text_alternative_reads_everything():
    marks = [("positive from 0.6768: $0.802", 0.6768, 0.802), ("negative from 0.7441: $0.802", 0.7441, 0.802)]
    fig = _figure(marks)
    (level,) = [t for t in fig.data if t.name == LEVEL]
    assert level.mode == "lines" and level.line.dash == "dash" and list(level.y) == [0.746, 0.746]
    assert list(level.x) == list(fig.layout.xaxis.range)  # across the whole plot
    assert all(a.text != LEVEL for a in fig.layout.annotations)
    said = chart_text(fig)
    assert LEVEL in said.sentence
    assert "positive from 0.6768: $0.802" in said.sentence and "negative from 0.7441: $0.802" in said.sentence
    assert LEVEL in set(said.table["series"])


def test_the_chart_at_one_price_names_its_hand_everything_over_line_in_the_legend():
    fig = figures.value_tau_figure(
        [np.inf, 0.9, 0.6, 0.52], [0.0, 0.08, 0.11, -0.03], tau_star=2 / 3, tau_opt=0.6, value_opt=0.11, unit="$"
    )
    (level,) = [t for t in fig.data if t.name == "hand everything over: $0.00"]
    assert level.line.dash == "dash"
    # the only words in the plot's frame: the threshold from prices alone, above it
    (note,) = fig.layout.annotations
    assert note.text == "threshold from prices alone: 0.6666" and (note.yref, note.y) == ("paper", 1)
    assert "hand everything over: $0.00" in chart_text(fig).sentence
