"""Every figure builder escapes user text: Plotly renders a subset of HTML (links, bold) in
legend names, ticks, hovers, titles and annotations, so no user string may reach it raw."""

from __future__ import annotations

import inspect
import json
import re

import numpy as np
import pandas as pd
import pytest

from costlib.binary import decision
from costlib.binary.capacity import price_of_capacity
from costlib.core import rules as R
from costlib.present import calibration_figures, cost_figures, figures, plotting, price_figures, watch_figures

HOSTILE = '<a href="https://example.org/x">Click to verify</a><b>bold</b>'
ALLOWED_TAGS = {"<br>", "<extra>", "</extra>"}  # the builders' own hover markup


def _strings(obj, path=""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _strings(v, f"{path}.{k}")
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            yield from _strings(v, f"{path}[{i}]")
    elif isinstance(obj, str):
        yield path, obj


def raw_tags(fig) -> list[tuple[str, str]]:
    """(where, text) of every string in the figure that holds a tag other than the builders' own."""
    found = []
    for where, text in _strings(json.loads(fig.to_json())):
        for tag in re.findall(r"<[^<>]*>", text):
            if tag not in ALLOWED_TAGS:
                found.append((where, text))
    return found


def _model():
    rng = np.random.default_rng(0)
    n = 300
    g = np.where(rng.random(n) < 0.5, HOSTILE, "plain")
    s = rng.random(n)
    y = (rng.random(n) < s).astype(int)
    return decision.sweep_model(y, s, g, name=HOSTILE)


def _builders():
    ms = _model()
    rec = decision.recommend(ms, (1, 2), n_resamples=50)
    capped = decision.recommend(ms, (1, 2), n_resamples=50, capacity=0.2)
    curves = decision.cost_curves(ms, rec.prices)
    grid = pd.DataFrame(
        {
            "c_fp": [1.0, 1.0, 2.0, 2.0],
            "c_fn": [1.0, 2.0, 1.0, 2.0],
            "option": HOSTILE,
            "cost_per_case": 0.1,
            "best": [HOSTILE, R.NOBODY, R.EVERYONE, HOSTILE],
        }
    )
    nb = pd.DataFrame({"threshold": [0.1, 0.2], "option": HOSTILE, "net_benefit": [0.1, 0.05]})
    k_frame = pd.DataFrame({"model": HOSTILE, "k": [0.0, 1.0], "value": [0.5, 0.2], "rule": "optimal"})
    flips = pd.DataFrame({"k": [0.5], "leader": [HOSTILE], "previous": ["plain"]})
    table = pd.DataFrame({"label": [HOSTILE], "error rate": [0.1], "NEC": [0.05]})
    lines = pd.DataFrame({"t": [0.1, 0.2], "y": [0.3, 0.2], "m": HOSTILE})
    return {
        "cost_curve_figure": lambda: figures.cost_curve_figure(
            curves, figures.markers_frame(rec), unit=HOSTILE, title=HOSTILE
        ),
        "cost_curve_figure, cases flagged a month, under a cap": lambda: figures.cost_curve_figure(
            curves,
            figures.markers_frame(capped, ms, rec),
            unit=HOSTILE,
            title=HOSTILE,
            per_month=10_000,
            cap=0.2,
        ),
        "cost_curve_figure, the shipped cutoffs by group": lambda: figures.cost_curve_figure(
            curves, figures.markers_frame(rec), unit=HOSTILE, title=HOSTILE, shipped={HOSTILE: 0.3, "plain": 0.6}
        ),
        "cost_curve_figure, cases flagged a month, the shipped cutoff": lambda: figures.cost_curve_figure(
            curves,
            figures.markers_frame(rec),
            unit=HOSTILE,
            title=HOSTILE,
            per_month=10_000,
            shipped={HOSTILE: 0.4, "plain": 0.4},
        ),  # fmt: skip
        "watch_figure": lambda: watch_figures.periods_figure(
            {
                "periods": [
                    {
                        "period": "2026-01",
                        "cost_per_case": 0.3,
                        "regret_per_case": 0.1,
                        "measured": True,
                        "alert": True,
                    },
                    {
                        "period": "2026-02",
                        "cost_per_case": 0.2,
                        "regret_per_case": None,
                        "measured": False,
                        "alert": False,
                    },
                ]
            },
            unit=HOSTILE,
        ),
        "capacity_figure": lambda: figures.capacity_figure(
            price_of_capacity(ms, rec.prices, 0.2), volume=10_000, unit=HOSTILE
        ),
        "value_tau_figure": lambda: figures.value_tau_figure(
            [np.inf, 0.9, 0.6],
            [0.0, 0.2, 0.1],
            tau_star=0.5,
            tau_opt=0.9,
            value_opt=0.2,
            label=HOSTILE,
            title=HOSTILE,
            unit=HOSTILE,
        ),
        "value_outcome_figure": lambda: figures.value_outcome_figure(
            [(HOSTILE, [np.inf, 0.9, 0.6], [0.0, 0.2, 0.1]), ("b", [0.95, 0.7], [0.1, 0.2])],
            [(HOSTILE, 0.9, 0.2), ("b", np.inf, 0.2)],
            level=0.0,
            level_text=HOSTILE,
            title=HOSTILE,
            marks_name=HOSTILE,
            unit=HOSTILE,
        ),
        "value_k_figure": lambda: figures.value_k_figure(
            k_frame, flips=flips, current_k=1.0, title=HOSTILE, unit=HOSTILE
        ),
        "heatmap_figure": lambda: figures.heatmap_figure(
            [[1, 2], [3, 4]], [HOSTILE, "b"], title=HOSTILE, colorbar=HOSTILE, row_title=HOSTILE, col_title=HOSTILE
        ),
        "delta_histogram": lambda: figures.delta_histogram([-1, 1, 2], groups=[HOSTILE, "b", "b"], title=HOSTILE),
        "nec_error_figure": lambda: figures.nec_error_figure(table, title=HOSTILE),
        "line_figure": lambda: figures.line_figure(
            lines,
            x="t",
            y="y",
            color="m",
            title=HOSTILE,
            x_title=HOSTILE,
            y_title=HOSTILE,
            baseline=0.2,
            baseline_label=HOSTILE,
        ),
        "reliability_diagram": lambda: calibration_figures.reliability_diagram(
            [(HOSTILE, np.array([0.2, 0.8]), np.array([0.3, 0.7]), np.array([5, 60]))], least=10, title=HOSTILE
        ),
        "sensitivity_figure": lambda: figures.sensitivity_figure(grid, c_fp=1.0, c_fn=2.0, unit=HOSTILE, title=HOSTILE),
        "net_benefit_figure": lambda: figures.net_benefit_figure(nb, price_threshold=0.3, title=HOSTILE),
        "rule_bars_figure": lambda: figures.rule_bars_figure(rec.results.by_group, unit=HOSTILE, title=HOSTILE),
        "ratio_pieces_figure": lambda: figures.ratio_pieces_figure(
            pd.DataFrame({"ratio_low": [0.1, 1.0], "ratio_high": [1.0, 10.0], "threshold": [np.inf, 0.4]}),
            low=0.5,
            high=2.0,
            names=(HOSTILE, HOSTILE),
            title=HOSTILE,
        ),
        "mark_x": lambda: figures.mark_x(
            figures.line_figure(lines, x="t", y="y", color="m", title="t", x_title="x", y_title="y"), 0.1, text=HOSTILE
        ),
    }


def test_every_figure_builder_is_covered():
    public = {
        name
        for name, fn in inspect.getmembers(figures, inspect.isfunction)
        if fn.__module__ in (figures.__name__, cost_figures.__name__, price_figures.__name__, plotting.__name__)
        and not name.startswith("_")
        and (name.endswith(("_figure", "_histogram")) or name == "mark_x")
    }
    assert public <= set(_builders()), sorted(public - set(_builders()))


@pytest.mark.parametrize("name", list(_builders()))
def test_no_user_text_reaches_plotly_as_markup(name):
    fig = _builders()[name]()
    assert not raw_tags(fig), raw_tags(fig)[:3]
    # and the text is still there, escaped, for a person to read
    assert "&lt;a href=" in fig.to_json() or "&lt;a href=" in json.dumps(json.loads(fig.to_json()))


@pytest.mark.parametrize("name", list(_builders()))
def test_every_figure_passes_plotlys_checks(name):
    """The charts a slider redraws are built without Plotly's checks (`plotting.figure_from_spec`):
    every builder's figure, rebuilt here with them on, must be accepted as it is and unchanged."""
    import plotly.graph_objects as go
    import plotly.io as pio

    fig = _builders()[name]()
    checked = go.Figure(fig.to_dict())  # raises on an unknown property or a bad value
    as_checked, as_built = (json.loads(pio.to_json(f, validate=False)) for f in (checked, fig))
    for spec in (as_checked, as_built):  # an empty template, filled in by the checks with Plotly's stub
        spec["layout"].pop("template", None)
    assert as_checked == as_built


def test_the_check_above_catches_a_bad_spec():
    import plotly.graph_objects as go

    fig = plotting.figure_from_spec([{"type": "scatter", "x": [1], "y": [1], "mode": "lines", "colour": "red"}], {})
    with pytest.raises(ValueError, match="colour"):
        go.Figure(fig.to_dict())


def test_every_rule_bar_is_told_apart_by_colour_or_hatching():
    from costlib.core import rules as R
    from costlib.present.figures import rule_bars_figure

    rules = [R.THRESHOLD_05, R.ELKAN, R.SINGLE, R.COST_OPTIMAL, R.NOBODY, R.EVERYONE]
    rules += [f"fair: {c}" for c in ("demographic parity", "equal opportunity", "equal false positive rate")]
    rules += ["fair: equal accuracy", "fair: equalized odds"]
    frame = pd.DataFrame(
        [{"rule": r, "group": g, "cost_per_case": 0.5, "low": 0.4, "high": 0.6} for r in rules for g in ("a", "b")]
    )
    fig = rule_bars_figure(frame, unit="$")
    looks = [(t.marker.color, t.marker.pattern.shape or "") for t in fig.data]
    assert len(looks) == len(rules) and len(set(looks)) == len(looks), looks


def test_the_ratio_chart_draws_flag_everyone_as_a_decision_of_its_own_as_the_answer_names_it():
    """Find my prices' words call the lowest score's cutoff "flag everyone (no model needed)":
    the chart draws it as its own dashed line, not as one more step of the best cutoff."""
    from costlib.binary import elicit

    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 300)
    score = np.clip(0.5 * y + rng.normal(0.25, 0.2, 300), 0.2, 0.9).round(2)  # many rows at the lowest score
    y[np.argmax(score)], score[np.argmax(score)] = 0, 0.95  # a false alarm on top: at tiny ratios flag nobody
    sweep = decision.sweep_model(y, score).fit_pooled
    table = elicit.pieces(sweep, *elicit.RANGE)
    lowest = sweep.lowest_score
    assert lowest == score.min() and (table["threshold"] == lowest).any() and np.isinf(table["threshold"]).any()
    fig = figures.ratio_pieces_figure(table, low=1.0, high=3.0, names=("a miss", "a false alarm"), lowest=lowest)
    by_name = {t.name: t for t in fig.data}
    assert set(by_name) == {"best cutoff", R.EVERYONE, R.NOBODY}
    best, everyone = by_name["best cutoff"], by_name[R.EVERYONE]
    assert lowest not in [v for v in best.y if v is not None]  # no step of the best cutoff flags everyone
    assert list(everyone.y) == [lowest, lowest] and best.x[-1] == everyone.x[0] == table["ratio_low"].iloc[-1]
    assert everyone.x[-1] == table["ratio_high"].iloc[-1]
    # the two decisions without a model read apart without colour (their dash), and the table in
    # words gives flagging nobody no cutoff (it is drawn above the cutoffs, at 1.02)
    nobody = by_name[R.NOBODY]
    assert everyone.line.dash != nobody.line.dash
    from costlib.present.chart_text import chart_text

    said = chart_text(fig).table
    cutoffs = said[said["series"] == R.NOBODY].iloc[:, 2].tolist()
    assert cutoffs and all(isinstance(c, str) and "nobody" in c for c in cutoffs), cutoffs
    assert not said.isna().any().any()  # the best cutoff's gap (where nobody is flagged) reads as a dash
    # without `lowest` the chart is as before: the best cutoff runs to the right end
    plain_fig = figures.ratio_pieces_figure(table, low=1.0, high=3.0, names=("a", "b"))
    assert {t.name for t in plain_fig.data} == {"best cutoff", R.NOBODY}


def test_the_value_chart_never_shows_a_negative_threshold_at_k_zero():
    fig = figures.value_tau_figure([np.inf, 0.9, 0.6], [0.0, 0.2, 0.1], tau_star=0.0, tau_opt=0.6, value_opt=0.1)
    low, high = fig.layout.xaxis.range
    assert low == 0.0 and 0.9 < high < 1.0  # the line at tau* = 0 on the axis's edge, no room left of it
    (label,) = [a for a in fig.layout.annotations if a.text.startswith("threshold from prices alone")]
    assert label.xanchor == "left"  # its words run right of the line, into the chart, not off its left edge
    fig = figures.value_tau_figure([np.inf, 0.9, 0.6], [0.0, 0.2, 0.1], tau_star=0.5, tau_opt=0.9, value_opt=0.2)
    low, high = fig.layout.xaxis.range
    assert 0.45 < low < 0.5 and 0.9 < high < 0.95  # the curve and tau* both inside, a little room on each side


def test_the_value_charts_threshold_is_recommended_only_when_the_verdict_ships_it():
    """Review 57: "τ* = k/(k+1) = 0.667" beside a star "(recommended)" at 0.677 under a verdict that
    did not ship it read as two thresholds and a typo; τ* is named in words."""
    args = ([np.inf, 0.9, 0.6], [0.0, 0.2, 0.1])
    names = {t.name for t in figures.value_tau_figure(*args, tau_star=2 / 3, tau_opt=0.6, value_opt=0.1).data}
    assert "threshold fitted on the train rows (recommended)" in names
    fig = figures.value_tau_figure(*args, tau_star=2 / 3, tau_opt=0.6, value_opt=0.1, shipped=False)
    assert "threshold fitted on the train rows" in {t.name for t in fig.data}
    assert not any("recommended" in (t.name or "") for t in fig.data)
    said = [a.text for a in fig.layout.annotations if "prices alone" in a.text]
    assert said == ["threshold from prices alone: 0.6666"]


def test_the_value_charts_k_alone_label_sits_above_the_plot_where_no_line_crosses_it():
    """Review 58, item 14: "from k alone, k/(k+1): 0.879" sat at the top of the plot, on the dashed
    "hand everything over" line that runs along the top when every threshold is worth less, and read
    as struck through. It sits above the plot area, beside the top of its own line, under the title."""
    fig = figures.value_tau_figure(
        [np.inf, 0.9, 0.6], [0.0, -0.2, -1.5], tau_star=0.879, tau_opt=0.9, value_opt=-0.2, unit="$"
    )
    (label,) = [a for a in fig.layout.annotations if a.text.startswith("threshold from prices alone")]
    assert (label.yref, label.y, label.yanchor) == ("paper", 1, "bottom")  # its bottom on the plot's top edge
    (line,) = [s for s in fig.layout.shapes if s.x0 == s.x1 == 0.879]
    assert line.y1 <= label.y  # its own line ends where the label starts: beside it, not through it
    assert fig.layout.margin.t >= 80  # room for it under the title


def test_the_capacity_charts_hover_gives_cases_a_month_whole():
    # a review capacity in cases a month is a count: never "466.8" (a share of the fitting rows times the volume)
    fig = _builders()["capacity_figure"]()
    assert all("capacity %{x:,.0f}" in t.hovertemplate for t in fig.data)


def test_the_ratio_axis_labels_whole_numbers_only():
    """A first-time user read "0.001 2 5 0.01 2 5 ... 10 2 5 100" under "The best cutoff for every
    price ratio": Plotly's own log ticks label 2 and 5 times each power of ten with the digit alone.
    Over the questions' whole range the axis now labels the powers of ten, each in full."""
    table = pd.DataFrame({"ratio_low": [1e-3, 1.0], "ratio_high": [1.0, 1e3], "threshold": [np.inf, 0.4]})
    axis = figures.ratio_pieces_figure(table, low=1e-3, high=1e3, names=("a", "b")).layout.xaxis
    assert axis.type == "log"
    assert list(axis.tickvals) == [1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1000.0]
    assert list(axis.ticktext) == ["0.001", "0.01", "0.1", "1", "10", "100", "1,000"]
