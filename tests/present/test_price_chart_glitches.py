"""Glitches a first-time user and an auditor found on Costs & groups' price charts (COMPAS sample and
a weighted upload): the net benefit line ran off the plot unsaid under a jargon axis title, the
price map printed one letter in every cell and its words named the series "heatmap" and dropped the
unit, the marker key ran two entries together, and the mark of averaged per-group prices said
neither its unit nor that it was an average."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from costlib.core import rules as R
from costlib.present import cost_figures, price_figures
from costlib.present.chart_text import LABEL, SERIES, chart_text


def _net_benefit_curves(model: np.ndarray) -> pd.DataFrame:
    t = np.round(np.arange(0.01, 1.0, 0.01), 2)
    prevalence = 0.45
    everyone = prevalence - (1 - prevalence) * t / (1 - t)  # falls without bound as the cutoff rises
    parts = [("m", model), (R.EVERYONE, everyone), (R.NOBODY, np.zeros_like(t))]
    return pd.concat(
        [pd.DataFrame({"threshold": t, "option": o, "net_benefit": v}) for o, v in parts], ignore_index=True
    )


def test_the_net_benefit_chart_keeps_every_model_line_inside_and_says_what_it_cuts():
    t = np.round(np.arange(0.01, 1.0, 0.01), 2)
    model = 0.45 - 0.5 * t - 0.2 * ((t > 0.25) & (t < 0.5))  # dips below 0 between 0.25 and 0.5
    fig = price_figures.net_benefit_figure(_net_benefit_curves(model), price_threshold=0.25)
    low, high = fig.layout.yaxis.range
    assert low < model.min() and high > model.max()  # the model's line is inside the plot
    said = chart_text(fig).sentence
    everyone = _net_benefit_curves(model).query("option == @R.EVERYONE")
    first_cut = float(everyone.loc[everyone["net_benefit"] < low, "threshold"].iloc[0])
    assert f"{R.EVERYONE}: below the chart from cutoff {first_cut:.2f} on" in said, said
    notes = [a.text for a in fig.layout.annotations]
    assert any(n.startswith(R.EVERYONE) for n in notes), notes


def test_a_model_line_that_falls_far_below_is_cut_and_said_with_where_it_comes_back():
    """A weighted upload's model line fell as steeply as flag everyone's and came back near the end."""
    t = np.round(np.arange(0.01, 1.0, 0.01), 2)
    model = np.where(t < 0.93, 0.09 - 3 * t, 0.0)
    fig = price_figures.net_benefit_figure(_net_benefit_curves(model), price_threshold=0.25)
    low, _ = fig.layout.yaxis.range
    assert low >= -0.5  # the part where a model beats flagging nobody stays readable
    said = chart_text(fig).sentence
    assert re.search(r"m: below the chart between cutoffs 0\.\d\d and 0\.92", said), said


def test_the_net_benefit_axis_has_a_plain_title():
    fig = price_figures.net_benefit_figure(_net_benefit_curves(np.zeros(99)), price_threshold=0.3)
    title = chart_text(fig).table.columns[-1]  # the y title as read: its two drawn lines as one
    assert title == "saving per case against flagging nobody (1 = the price of one missed case)"
    for jargon in ("weighted", "true flags", "false alarms", "minus"):
        assert jargon not in title


def _grid(best) -> pd.DataFrame:
    prices = [0.1, 0.3, 1.0, 3.0, 10.0]
    rows = [(fp, fn, best(fp, fn)) for fp in prices for fn in prices]
    grid = pd.DataFrame(rows, columns=["c_fp", "c_fn", "best"])
    options = [R.NOBODY, R.EVERYONE, "m"]
    return pd.concat([grid.assign(option=o, cost_per_case=0.1) for o in options], ignore_index=True)


def test_the_price_map_names_each_region_once_not_every_cell():
    fig = price_figures.sensitivity_figure(_grid(lambda fp, fn: "m"), c_fp=1.0, c_fn=3.0, unit="$")
    heat = fig.data[0]
    letters = [t for t in np.asarray(heat.text, dtype=object).ravel() if t]
    assert letters == ["C"]  # one option wins everywhere: one letter, not 25
    split = _grid(lambda fp, fn: R.NOBODY if fp > fn else "m")
    fig = price_figures.sensitivity_figure(split, c_fp=1.0, c_fn=3.0, unit="$")
    letters = sorted(t for t in np.asarray(fig.data[0].text, dtype=object).ravel() if t)
    assert letters == ["A", "C"]  # each region once


def test_the_price_maps_words_name_the_series_and_give_the_unit():
    fig = price_figures.sensitivity_figure(_grid(lambda fp, fn: "m"), c_fp=1.0, c_fn=3.0, unit="$")
    alt = chart_text(fig)
    assert "heatmap" not in set(alt.table[SERIES])
    assert price_figures.MAP_NAME in set(alt.table[SERIES])
    # no dash in the map's cells, and no column of labels: the one mark's label is its series' name
    assert LABEL not in alt.table and "your prices" in set(alt.table[SERIES])
    cells = alt.table[alt.table[SERIES] == price_figures.MAP_NAME]
    assert "–" not in set(cells.astype(str).to_numpy().ravel())
    assert "your prices at price of a false positive $1.00, price of a false negative $3.00" in alt.sentence


def test_averaged_group_prices_are_marked_as_the_cases_weighted_average_with_the_unit():
    grid = _grid(lambda fp, fn: "m")
    plain_mark = chart_text(price_figures.sensitivity_figure(grid, c_fp=1.341, c_fn=3.0, unit="$")).sentence
    assert "averaged" not in plain_mark
    fig = price_figures.sensitivity_figure(grid, c_fp=1.341, c_fn=3.0, unit="$", blended=True)
    said = chart_text(fig).sentence
    assert "your prices averaged over the groups, weighted by their cases at price of a false positive $1.34" in said, (
        said
    )
    assert fig.data[-1].text == ("your prices (averaged)",)
    assert "weighted by their cases" in fig.data[-1].hovertemplate


def test_the_marker_key_keeps_a_gap_between_entries_where_it_wraps():
    key = [
        "○ cutoff 0.5",
        "◇ cutoff from prices alone",
        "☆ best single cutoff",
        "▲ best cutoff per group (recommended)",
        "□ best cutoff without a limit",
    ]
    rows = cost_figures._key_rows(key)
    assert len(rows) > 1  # it wraps
    read = "".join(rows)  # the rows' text one after the other, as a screen reader or a copy has it
    for entry in key:
        at = read.index(entry)
        assert read[at - 1].isspace(), read


def test_the_net_benefit_chart_says_its_fall_is_the_prices_moving_and_marks_what_ships():
    """Review: a first-time product manager at 1,400 px read the falling lines as "the lowest cutoff
    is best". Each point is read at the prices its cutoff stands for (a false alarm : a miss =
    t : 1 - t), so every line falls as a false alarm gets dearer: the chart says so in its subtitle,
    names those prices under the cutoffs, names the dotted line as the reader's prices and marks
    the cutoff the answer ships (solid: told apart by its dash, not only its label)."""
    curves = _net_benefit_curves(np.linspace(0.4, 0.0, 99))
    fig = price_figures.net_benefit_figure(curves, price_threshold=0.25, shipped=(0.3, 0.3), shipped_model="m")
    said = chart_text(fig).sentence
    assert "every line falls: the highest point is not the best cutoff. Compare the lines at your prices" in said
    assert ".;" not in said  # the note's own full stop is not read before the next mark
    ticks = dict(zip(fig.layout.xaxis.tickvals, fig.layout.xaxis.ticktext, strict=True))
    assert ticks[0.25] == "0.25<br>1 : 3" and ticks[0.5] == "0.5<br>1 : 1" and ticks[0.75] == "0.75<br>3 : 1"
    marks = {a.text: a for a in fig.layout.annotations}
    assert "your prices (1 : 3): 0.25" in marks and "recommended cutoff: 0.3" in marks  # one model: not named
    assert "marked: your prices (1 : 3): 0.25" in said and "recommended cutoff: 0.3" in said
    lines = {s.x0: s.line.dash for s in fig.layout.shapes if s.type == "line"}
    assert lines == {0.25: "dot", 0.3: None}  # the prices dotted, the shipped cutoff solid
    np.testing.assert_array_equal(fig.data[0].y, curves.query("option == 'm'")["net_benefit"])  # drawn as computed
    # per-group cutoffs: the span they cover; a no-model answer: its line named as the recommended choice
    fig = price_figures.net_benefit_figure(curves, price_threshold=0.25, shipped=(0.2, 0.35, 0.3))
    assert "recommended cutoffs, by group: 0.2 to 0.35" in chart_text(fig).sentence
    fig = price_figures.net_benefit_figure(curves, price_threshold=0.25, shipped=(0.3,), blended=True)
    assert "your prices, averaged (1 : 3): 0.25" in chart_text(fig).sentence  # one pair for all the groups
    fig = price_figures.net_benefit_figure(curves, price_threshold=0.25, shipped=R.EVERYONE)
    assert [t.name for t in fig.data] == ["m", f"{R.rule_words(R.EVERYONE)} (no model, recommended)", R.NOBODY]
    assert not any("recommended cutoff" in a.text for a in fig.layout.annotations)
