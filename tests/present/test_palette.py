"""Charts without colour: the palette stays apart for readers who do not see red from green (or
blue from yellow), and every chart with several lines tells its neighbours apart by dash, marker
or fill pattern as well as by colour (issue 38, item 3).

The colour-vision simulation is Machado, Oliveira and Fernandes (2009), "A physiologically-based
model for simulation of color vision deficiency", IEEE TVCG 15(6), at severity 1.0 (the full
dichromacy: protanopia, deuteranopia, tritanopia), applied to linear RGB as the paper prescribes;
colour differences are CIEDE2000 (Sharma, Wu and Dalal 2005) in CIELAB under D65.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pandas as pd
import pytest

from costlib.binary import decision as D
from costlib.present import calibration_figures, cost_figures, figures, plotting
from costlib.present.watch_figures import refit_figure
from costlib.training import figures as training_figures
from costlib.watch.alerts import judge_period
from tests.present.test_figures import _builders

# Machado et al. 2009, Table 1 (severity 1.0), rows give linear (R, G, B) out
SIMULATIONS = {
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    ),
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
    ),
    "tritanopia": np.array(
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
    ),
}
# Neighbouring colours must differ by at least this many CIEDE2000 units as a dichromat sees them.
# One unit is about the just-noticeable difference of two large patches side by side; lines one or
# two pixels wide need several times more to be told apart at a glance (Szafir 2018, "Modeling
# color difference for visualization design", IEEE TVCG 24(1): the difference needed grows as the
# mark gets thinner), and a reader matches a line to its legend entry from a distance. 15 units is
# the margin asked: the palette measures at least 18 (protanopia, vermillion beside bluish green),
# while the palette before issue 38 measured 4.2 (deuteranopia, its red beside its green).
MIN_NEIGHBOUR_DE00 = 15.0
# WCAG 2.2 success criterion 1.4.11 (non-text contrast): a graphical object needed to read a chart
# has at least a 3:1 contrast ratio with what is next to it (the white page).
MIN_CONTRAST_WITH_WHITE = 3.0


def linear_rgb(color: str) -> np.ndarray:
    """A ``#rrggbb`` colour in linear RGB (the sRGB transfer function undone), each in [0, 1]."""
    c = np.array([int(color[k : k + 2], 16) for k in (1, 3, 5)]) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def lab(rgb: np.ndarray) -> np.ndarray:
    """Linear RGB (clipped to the gamut, as a screen shows it) in CIELAB, white point D65."""
    to_xyz = np.array(
        [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
    )
    t = to_xyz @ np.clip(rgb, 0.0, 1.0) / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def ciede2000(lab1, lab2) -> float:
    """The CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1), as in Sharma et al.
    2005, equations 1 to 23."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    d_big_h = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * np.cos(np.radians(h_mean - 30))
        + 0.24 * np.cos(np.radians(2 * h_mean))
        + 0.32 * np.cos(np.radians(3 * h_mean + 6))
        - 0.20 * np.cos(np.radians(4 * h_mean - 63))
    )
    d_theta = 30 * np.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * np.sqrt(cp_mean**7 / (cp_mean**7 + 25.0**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * cp_mean, 1 + 0.015 * cp_mean * t
    r_t = -np.sin(np.radians(2 * d_theta)) * r_c
    return float(np.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (d_big_h / s_h) ** 2 + r_t * (dc / s_c) * (d_big_h / s_h)))


def seen_apart(color1: str, color2: str, simulation: str | None = None) -> float:
    """ΔE00 of two colours as a reader with `simulation`'s vision sees them (None: full colour)."""
    m = np.eye(3) if simulation is None else SIMULATIONS[simulation]
    return ciede2000(lab(m @ linear_rgb(color1)), lab(m @ linear_rgb(color2)))


def contrast_with_white(color: str) -> float:
    """WCAG 2.2's contrast ratio of `color` with white: (1 + 0.05) / (its relative luminance + 0.05)."""
    return 1.05 / (float(linear_rgb(color) @ [0.2126, 0.7152, 0.0722]) + 0.05)


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [  # Sharma, Wu and Dalal 2005, Table 1: pairs 1, 7, 17 and 25
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_ciede2000_gives_the_published_test_values(first, second, expected):
    assert ciede2000(first, second) == pytest.approx(expected, abs=1e-4)


def test_the_simulations_confuse_what_they_should_and_keep_white_white():
    # a red and a green far apart in full colour are one colour to a deuteranope, and much nearer
    # to a protanope (the palette before issue 38 had them side by side)
    assert seen_apart("#d1495b", "#2e933c") > 60
    assert seen_apart("#d1495b", "#2e933c", "deuteranopia") < 5
    assert seen_apart("#d1495b", "#2e933c", "protanopia") < 25
    # a blue and a green (matplotlib's first two) much nearer to a tritanope, and not to a deuteranope
    assert seen_apart("#1f77b4", "#2ca02c") > 50 and seen_apart("#1f77b4", "#2ca02c", "deuteranopia") > 50
    assert seen_apart("#1f77b4", "#2ca02c", "tritanopia") < 15
    for name, m in SIMULATIONS.items():
        assert m @ np.ones(3) == pytest.approx(np.ones(3), abs=1e-3), name  # white stays white


@pytest.mark.parametrize("simulation", sorted(SIMULATIONS))
def test_neighbouring_colours_stay_apart_without_full_colour_vision(simulation):
    """The i-th and the (i+1)-th colour (the next one around: `palette_color` cycles) stay
    `MIN_NEIGHBOUR_DE00` apart for a dichromat."""
    palette = plotting.PALETTE
    distances = {
        (palette[i], palette[(i + 1) % len(palette)]): seen_apart(
            palette[i], palette[(i + 1) % len(palette)], simulation
        )
        for i in range(len(palette))
    }
    close = {pair: round(d, 1) for pair, d in distances.items() if d < MIN_NEIGHBOUR_DE00}
    assert not close, f"{simulation}: neighbours closer than {MIN_NEIGHBOUR_DE00} ΔE00: {close}"


def test_every_colour_stands_out_from_the_white_page():
    colors = [*plotting.PALETTE, plotting.NOBODY_COLOR, plotting.EVERYONE_COLOR, plotting.GUIDE_COLOR]
    colors.append(plotting.ALERT_COLOR)
    low = {c: round(contrast_with_white(c), 2) for c in colors if contrast_with_white(c) < MIN_CONTRAST_WITH_WHITE}
    assert not low, f"under {MIN_CONTRAST_WITH_WHITE}:1 against white: {low}"


def test_every_series_style_is_its_own_for_a_whole_cycle():
    n = len(plotting.PALETTE)
    looks = [(plotting.palette_color(i), plotting.series_dash(i)) for i in range(n * len(plotting.SERIES_DASHES))]
    assert len(set(looks)) == len(looks)  # no two of the first 40 lines look the same
    assert set(plotting.SERIES_DASHES).isdisjoint({"dash", "dot"})  # left to the lines across the plot
    assert set(plotting.SERIES_SYMBOLS).isdisjoint(cost_figures.RULE_SYMBOLS.values())


# ---------------------------------------------------------------------------------------
# Every chart with several lines: neighbours differ by more than colour

GROUPS = ("north", "south", "east", "west")


def _rows(n=1200, seed=0):
    rng = np.random.default_rng(seed)
    g = np.asarray(GROUPS, dtype=object)[rng.integers(0, len(GROUPS), n)]
    y = (rng.random(n) < 0.35).astype(int)
    s = 1 / (1 + np.exp(-rng.normal(np.where(y == 1, 1.0, -1.0), 1.0)))
    return y, s, g


@functools.cache
def _several() -> dict:
    """{name: figure} of every chart a page draws with several models, groups or rules."""
    y, s, g = _rows()
    ms = D.sweep_model(y, s, g, name="m")
    costs = dict.fromkeys(GROUPS, (1.0, 3.0))
    rec = D.recommend(ms, costs, n_resamples=20)
    curves = D.cost_curves(ms, rec.prices)
    models = ("a", "b", "c")
    thresholds = np.linspace(0.05, 0.95, 30)
    nb = pd.DataFrame(
        {
            "threshold": np.tile(thresholds, len(models) + 2),
            "option": np.repeat([*models, "flag everyone", "flag nobody"], len(thresholds)),
            "net_benefit": np.linspace(0.3, 0.0, 30 * (len(models) + 2)),
        }
    )
    ks = np.linspace(0, 3, 20)
    k_frame = pd.concat(
        [
            pd.DataFrame({"model": m, "k": ks, "value": 1 - ks / (4 + i), "rule": rule})
            for i, m in enumerate(models)
            for rule in ("optimal", "tau*")
        ]
    )
    lines = pd.DataFrame({"t": np.tile(thresholds, 3), "y": np.linspace(0.5, 0.1, 90), "m": np.repeat(models, 30)})
    cutoffs = {"north": 0.3, "south": 0.5, "east": 0.4, "west": 0.6}
    judged = judge_period(y, s, g, costs=costs, cutoffs=cutoffs, n_resamples=0)
    reliability = [(m, np.linspace(0.1, 0.9, 5), np.linspace(0.15, 0.85, 5), np.arange(1, 6)) for m in models]
    return {
        "cost curve by group": figures.cost_curve_figure(curves, figures.markers_frame(rec)),
        "net benefit of three models": figures.net_benefit_figure(nb),
        "worth against k of three models": figures.value_k_figure(k_frame),
        "NEC of three models": figures.line_figure(
            lines, x="t", y="y", color="m", title="t", x_title="x", y_title="y", baseline=0.2
        ),
        "reliability of three models": calibration_figures.reliability_diagram(reliability, least=1, title="r"),
        "delta by group": figures.delta_histogram(np.linspace(-1, 1, len(g)), groups=g),
        "rules by group": figures.rule_bars_figure(rec.results.by_group),
        "NEC beside the error rate": figures.nec_error_figure(
            pd.DataFrame({"label": list(models), "error rate": [0.1, 0.2, 0.3], "NEC": [0.05, 0.1, 0.2]})
        ),
        "Watch's refit by group": refit_figure(curves, cutoffs, judged),
        "Watch's periods": _builders()["watch_figure"](),
        "training: NEC beside the error rate": training_figures.training_figure(_training_summary()),
        "training: change against standard": training_figures.change_figure(_training_summary()),
    }


def _training_summary() -> pd.DataFrame:
    """A summary as `training_summary` returns it: one method lower, one higher, one not told apart."""
    change, low, high = [0.0, -0.2, 0.15, 0.01], [np.nan, -0.3, 0.05, -0.1], [np.nan, -0.1, 0.25, 0.12]
    out = pd.DataFrame({"method": ["standard", "a", "b", "c"], "seeds": 5, "nec_change": change})
    out["nec_change_low"], out["nec_change_high"] = low, high
    for col in ("nec", "error_rate"):
        out[col], out[f"{col}_low"], out[f"{col}_high"] = 0.2, 0.15, 0.25
    return out


def look(trace) -> tuple:
    """What tells a trace apart without colour: its dash and marker shape, or its bars' pattern."""
    if trace.type in ("bar", "histogram"):
        pattern = trace.marker.pattern
        return ("pattern", pattern.shape or "", pattern.fillmode or "replace", pattern.size or 8)
    mode = trace.mode or "lines"
    dash = (trace.line.dash or "solid") if "lines" in mode else None
    symbol = trace.marker.symbol if "markers" in mode else None
    return (dash, tuple(symbol) if isinstance(symbol, (list, tuple)) else symbol)


SEVERAL = (
    "cost curve by group",
    "net benefit of three models",
    "worth against k of three models",
    "NEC of three models",
    "reliability of three models",
    "delta by group",
    "rules by group",
    "NEC beside the error rate",
    "Watch's refit by group",
    "Watch's periods",
    "training: NEC beside the error rate",
    "training: change against standard",
)


def test_every_chart_with_several_lines_is_checked():
    assert set(_several()) == set(SEVERAL)


@pytest.mark.parametrize("name", SEVERAL)
def test_neighbouring_lines_differ_by_dash_marker_or_pattern_not_only_colour(name):
    fig = _several()[name]
    traces = [t for t in fig.data if t.type in ("scatter", "scattergl", "bar", "histogram")]
    assert len(traces) >= 2, name  # several lines to tell apart
    same = [(a.name, b.name, look(a)) for a, b in itertools.pairwise(traces) if look(a) == look(b) and a.type == b.type]
    assert not same, f"{name}: neighbours that differ only by colour: {same}"


def test_every_rule_in_the_reports_bars_has_its_own_look_without_colour():
    """The report's bars of cost per group and rule draw up to 17 rules (6 without fairness, 5 fair
    ones, each again fitted within a tolerance, flagging at random under a limit): 8 fill patterns
    left pairs of them ("cutoff 0.5" and "fair: equal false positive rate") told apart by colour only."""
    rules = ["cutoff 0.5", "elkan", "best single cutoff", "cost-optimal", "flag nobody", "flag everyone"]
    rules += [f"fair: rule {i}" for i in range(5)] + [f"fair: rule {i} (fitted within 1%)" for i in range(5)]
    rules += ["flag at random"]
    frame = pd.DataFrame(
        [
            {"rule": r, "group": g, "cost_per_case": 1.0 + i, "low": 0.5, "high": 2.0 + i}
            for i, r in enumerate(rules)
            for g in GROUPS
        ]
    )
    for n in (12, len(rules)):
        traces = cost_figures.rule_bars_figure(frame[frame["rule"].isin(rules[:n])]).data
        looks = [look(t) for t in traces]
        assert len(traces) == n and len(set(looks)) == n, looks
    # a whole cycle of bar looks is its own, and a plain bar is drawn one way only
    cycle = [plotting.series_bar_pattern(i) for i in range(22)]
    assert len({(p["shape"], p.get("fillmode", "replace"), p.get("size", 8)) for p in cycle}) == len(cycle)
    assert [p for p in cycle if not p["shape"]] == [{"shape": ""}]
    assert plotting.series_bar_pattern(22) == plotting.series_bar_pattern(0)


def test_the_sensitivity_map_names_each_cells_option_without_colour():
    heat = _builders()["sensitivity_figure"]().data[0]
    cells = [
        (t, name)
        for row_t, row_n in zip(heat.text, heat.customdata, strict=True)
        for t, name in zip(row_t, row_n, strict=True)
    ]
    lettered = [(t, name) for t, name in cells if t]  # each region's letter once, at its middle
    assert heat.texttemplate == "%{text}" and lettered and all(len(t) == 1 for t, _ in lettered)
    assert all(f"{t}: {name}" in heat.colorbar.ticktext for t, name in lettered)  # the letter the colour bar names
    assert {name for _, name in lettered} == {name for _, name in cells}  # every option on the map is named
