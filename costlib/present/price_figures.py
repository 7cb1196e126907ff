"""The figures of how an answer moves with the prices: which option is cheapest at each pair of
prices (`sensitivity_figure`), net benefit at each cutoff, with the one the prices stand for
(`net_benefit_figure`) and the best cutoff for every price ratio (`ratio_pieces_figure`, Find my
prices). Each takes computed results and returns a Figure; none shows it. Plotly is imported
inside each builder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costlib.core import rules as R
from costlib.core.escaping import plain
from costlib.present.amounts import cutoff_number, ratio_text
from costlib.present.chart_text import TABLE_LABEL, TABLE_Y
from costlib.present.plotting import (
    EVERYONE_COLOR,
    NOBODY_COLOR,
    apply_layout,
    figure_without_template,
    palette_color,
    rule_line,
    rule_line_spec,
    series_line,
)

if TYPE_CHECKING:
    import plotly.graph_objects as go


NO_CUTOFF = "none: flags nobody"  # the table's cutoff cell of flagging nobody
# Find my prices: flagging everyone is drawn at the lowest score (the cutoff that flags every case), and
# a first-time reader took that line for a real cutoff at 0.2 (review 71, item 9). It says what it is on
# the line itself and in the words of the chart: a decision without a model, not a cutoff of it.
EVERYONE_LINE = "flag everyone (no model needed)"
# the label of its rows in the chart's words, beside the height it is drawn at (the cutoff column stays numbers)
EVERYONE_AT = "lowest score: no model"
# the two decisions without a model, told apart by their dash as well as their grey
NO_MODEL_LINES = {
    R.EVERYONE: {"color": EVERYONE_COLOR, "dash": "dot"},
    R.NOBODY: {"color": NOBODY_COLOR, "dash": "dash"},
}
# the net benefit chart's axes in plain words: net benefit is TP/n - FP/n * t/(1 - t), the share of cases
# rightly flagged less the share of false alarms weighed by the cutoff's odds (the report's caption says it;
# a title of the formula in words was jargon to a product manager). That is what flagging at t saves per
# case against flagging nobody, c_fn * TP - c_fp * FP over n, counted in a missed case's price, at the
# prices t stands for (c_fp / c_fn = t / (1 - t)); the axis says so (a reader found no unit on it)
#
# Each point of a line is read at the prices its cutoff stands for, so moving right makes a false alarm dearer
# and every line falls: a first-time reader took the fall for "the lowest cutoff is best" (review: a product
# manager at 1,400 px). The chart therefore says so: its subtitle, the prices under each cutoff on the x axis
# (`NET_BENEFIT_TICKS`), the line at the reader's own prices named as theirs, and what the answer ships marked
# (its cutoff, or the line of the no-model choice it keeps), in the words of the cost chart beside it.
# in plain words (a reader could not parse "under it: false alarm : miss" nor "counted in a miss's price");
# the words before the bracket head a column of the chart's table, the whole on hover
NET_BENEFIT_X = "cutoff (under each: false alarm price : miss price)"  # one line under a half-page chart
NET_BENEFIT_Y = "saving per case against flagging nobody (1 = the price of one missed case)"
#: under the title, in two lines (the chart is half the page wide at 1,400 px); the chart in words says it
NET_BENEFIT_HOW = (
    "Left to right a false alarm costs more, so every line falls: the highest",
    "point is not the best cutoff. Compare the lines at your prices.",
)
#: the cutoffs the x axis names with the prices each stands for (false alarm : missed case = t : 1 - t)
NET_BENEFIT_TICKS = (0.1, 0.25, 0.5, 0.75, 0.9)
#: the line at the reader's prices: the lines are read there (`R.ELKAN`'s cutoff, c_fp / (c_fp + c_fn))
#: in two lines when they are averaged (the second from the " ("): a long label stretched the axis
YOUR_PRICES_AT = "your prices{averaged} ({ratio}): {cutoff}"
YOUR_PRICES_AVERAGED = ", averaged"  # the groups have prices of their own: one pair, their average by cases
SHIPPED_AT = "recommended cutoff{of}: {cutoff}"
SHIPPED_BY_GROUP = "recommended cutoffs{of}, by group: {low} to {high}"  # in two lines, cut after ": "
SHIPPED_OF = " of {model}"  # with more than one model's line
SHIPPED_LINE = "{line} (no model, recommended)"  # the no-model choice the answer keeps, as the cost chart names it
# said where a line falls below the plot: flag everyone's net benefit falls without bound as the cutoff
# rises, so the plot's bottom is chosen from the other lines (`_net_benefit_range`) and a cut is said in words
BELOW_PLOT = "{line}: below the chart {where}"


def _categorical_scale(colors: Sequence[str]) -> list:
    k = len(colors)
    scale = []
    for i, col in enumerate(colors):
        scale += [[i / k, col], [(i + 1) / k, col]]
    return scale


#: the sensitivity map's options are told apart by a letter in each of their regions as well as by colour
OPTION_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
MAP_NAME = "cheapest option"  # the map's series, as the chart in words names it
YOUR_PRICES = "your prices"
# the mark of the prices when groups have prices of their own: the map has one pair, their average
AVERAGED_PRICES = "your prices (averaged)"
AVERAGED_PRICES_WORDS = "your prices averaged over the groups, weighted by their cases"


def sensitivity_figure(
    grid: pd.DataFrame,
    *,
    c_fp: float | None = None,
    c_fn: float | None = None,
    unit: str = "",
    title: str = "Which option is cheapest at each pair of prices",
    bracket: tuple[float, float] | None = None,
    blended: bool = False,
) -> go.Figure:
    """Categorical map of `binary.sensitivity.sensitivity_grid`'s ``best`` over (c_fp, c_fn), log axes with
    readable ticks, the current prices marked (and, with `bracket` = (low, high) ratios from
    Find my prices, the range of c_fn those answers allow at this c_fp). The two decisions
    without a model are grey. Each region of one option carries its option's letter once, at its
    middle (`OPTION_LETTERS`, named in the colour bar), so the map reads without colour: a letter
    in every cell repeated one letter over the whole map when one option wins everywhere.
    `blended`: the prices marked are the average of the groups' own prices, weighted by their
    cases (`answers.audit.mean_prices`), and the mark says so."""
    import plotly.graph_objects as go

    options = list(dict.fromkeys([*grid["option"], *grid["best"]]))  # every option a cell may name
    no_model = [o for o in (R.NOBODY, R.EVERYONE) if o in options]
    options = no_model + [o for o in options if o not in no_model]
    colors = [NOBODY_COLOR, EVERYONE_COLOR][: len(no_model)] + [
        palette_color(i) for i in range(len(options) - len(no_model))
    ]
    best = grid.drop_duplicates(["c_fp", "c_fn"])
    wide = best.pivot(index="c_fn", columns="c_fp", values="best")
    code = wide.apply(lambda col: col.map({o: i for i, o in enumerate(options)})).to_numpy(dtype=float)
    letters = {o: OPTION_LETTERS[i % len(OPTION_LETTERS)] for i, o in enumerate(options)}
    shown = [f"{letters[o]}: {plain(R.rule_words(o))}" for o in options]
    cells = wide.to_numpy()
    text = np.full(code.shape, "", dtype=object)
    for i, j in _region_middles(code):
        text[i, j] = letters[options[int(code[i, j])]]
    fig = figure_without_template(
        go.Heatmap(
            z=code,
            x=wide.columns.to_numpy(),
            y=wide.index.to_numpy(),
            name=MAP_NAME,
            text=text,  # each region's letter: no colour needed
            customdata=np.vectorize(lambda o: plain(R.rule_words(o)) if isinstance(o, str) else "", otypes=[object])(
                cells
            ),
            texttemplate="%{text}",
            textfont={"size": 13},  # its colour Plotly picks against each cell (white or dark grey)
            colorscale=_categorical_scale(colors),
            zmin=-0.5,
            zmax=len(options) - 0.5,
            colorbar={"title": "cheapest", "tickvals": list(range(len(options))), "ticktext": shown},
            hovertemplate="false positive %{x:.3g}<br>false negative %{y:.3g}<br>"
            "cheapest: %{customdata}<extra></extra>",
        )
    )
    if c_fp is not None and c_fn is not None and c_fp > 0 and c_fn > 0:
        mark = AVERAGED_PRICES if blended else YOUR_PRICES
        fig.add_trace(
            go.Scatter(
                x=[c_fp],
                y=[c_fn],
                mode="markers+text",
                name=mark,
                marker={"symbol": "x", "size": 14, "color": "black"},
                text=[mark],
                textposition="top right",
                textfont={"color": "#000"},
                meta={TABLE_LABEL: AVERAGED_PRICES_WORDS} if blended else None,
                hovertemplate=f"{AVERAGED_PRICES_WORDS if blended else YOUR_PRICES}<br>"
                "false positive %{x:.3g}<br>false negative %{y:.3g}<extra></extra>",
            )
        )
    if bracket is not None and c_fp:
        fig.add_trace(
            go.Scatter(
                x=[c_fp, c_fp],
                y=[c_fp * bracket[0], c_fp * bracket[1]],
                mode="lines+markers",
                name="your answers' range",
                line={"color": "black", "width": 3},
                marker={"symbol": "line-ew", "size": 14, "line": {"width": 2}},
                hovertemplate="from your answers<br>false negative %{y:.3g}<extra></extra>",
            )
        )
    ticks = _log_ticks(wide.columns.to_numpy(dtype=float))
    fig.update_xaxes(type="log", tickvals=ticks, ticktext=[_tick(t, unit) for t in ticks])
    fig.update_yaxes(type="log", tickvals=ticks, ticktext=[_tick(t, unit) for t in ticks])
    suffix = f" ({unit})" if unit else ""
    return apply_layout(fig, title, "price of a false positive" + suffix, "price of a false negative" + suffix)


def _region_middles(code: np.ndarray) -> list[tuple[int, int]]:
    """One cell (row, column) of each region of `code` (cells of one value touching by side or
    corner): the region's cell nearest its centre, so that a letter there names the region."""
    ny, nx = code.shape
    seen = np.zeros(code.shape, dtype=bool)
    out = []
    for i0 in range(ny):
        for j0 in range(nx):
            if seen[i0, j0] or not np.isfinite(code[i0, j0]):
                continue
            seen[i0, j0] = True
            region, todo = [], [(i0, j0)]
            while todo:
                i, j = todo.pop()
                region.append((i, j))
                for di in (-1, 0, 1):
                    for dj in (-1, 0, 1):
                        a, b = i + di, j + dj
                        if 0 <= a < ny and 0 <= b < nx and not seen[a, b] and code[a, b] == code[i0, j0]:
                            seen[a, b] = True
                            todo.append((a, b))
            cells = np.array(region, dtype=float)
            centre = cells.mean(axis=0)
            k = int(np.argmin(((cells - centre) ** 2).sum(axis=1)))
            out.append(region[k])
    return out


def _log_ticks(values: np.ndarray) -> list[float]:
    """Powers of ten (and 2 and 5 times them when the span is short) inside the values' range."""
    lo, hi = float(np.min(values)), float(np.max(values))
    ticks = []
    for e in range(int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi))) + 1):
        for m in (1, 2, 5) if hi / lo <= 1e3 else (1,):
            t = m * 10.0**e
            if lo * (1 - 1e-9) <= t <= hi * (1 + 1e-9):
                ticks.append(t)
    return ticks


def _tick(t: float, unit: str) -> str:
    text = f"{t:,.0f}" if t >= 1 else f"{t:g}"
    return plain(f"{unit}{text}" if unit in ("$", "€", "£", "¥", "₹") else text)


def net_benefit_title(rows: str = "the test rows") -> str:
    """The net benefit chart's title, naming the `rows` its curves are read on (`words.judged_rows`):
    each cutoff is read at its own prices, not the reader's, and the title says so.

    >>> net_benefit_title("all rows")
    'Net benefit: each cutoff read at the prices it stands for (all rows)'
    """
    return f"Net benefit: each cutoff read at the prices it stands for ({rows.removeprefix('the ')})"


def prices_of_cutoff(t: float) -> str:
    """The prices a cutoff `t` stands for (the cheapest cutoff at them on calibrated scores), a
    false alarm to a missed case (t : 1 - t), with 1 on the cheaper side, as the net benefit
    chart's x axis says them.

    >>> [prices_of_cutoff(t) for t in (0.1, 0.25, 0.5, 0.75)]
    ['1 : 9', '1 : 3', '1 : 1', '3 : 1']
    """
    if t <= 0 or t >= 1:
        return "1 : any" if t <= 0 else "any : 1"
    return f"1 : {ratio_text((1 - t) / t)}" if t <= 0.5 else f"{ratio_text(t / (1 - t))} : 1"


def shipped_marks(rec) -> dict:
    """What `net_benefit_figure` marks of an answer `rec` (a `binary.decision.Recommendation`; None:
    nothing): its cutoffs when the model ships, else the no-model rule it keeps, and its model.
    Costs & groups and the audit report mark the same."""
    if rec is None:
        return {}
    return {"shipped": tuple(rec.cutoffs.values()) if rec.ship_model else rec.baseline, "shipped_model": rec.model}


def net_benefit_figure(
    curves: pd.DataFrame,
    *,
    price_threshold: float | None = None,
    title: str = net_benefit_title(),
    shipped: Sequence[float] | str = (),
    shipped_model: str | None = None,
    blended: bool = False,
) -> go.Figure:
    """Decision curves: each model, "flag everyone" and "flag nobody" (0), with the threshold
    that the current prices stand for (c_fp / (c_fp + c_fn)) marked as the reader's prices, and
    what the answer ships: `shipped` is its cutoffs (probabilities) when the model ships, else the
    no-model rule it keeps (`R.EVERYONE` or `R.NOBODY`), whose line is named as recommended;
    `shipped_model` names the model whose cutoffs they are where several models are drawn;
    `blended`: the groups have prices of their own, and `price_threshold` is their average's.

    A point of a line at cutoff t is what flagging at t saves at the prices t stands for (a
    false alarm : a missed case = t : 1 - t), not at the reader's: the x axis names those prices
    under its cutoffs, and the subtitle says to compare the lines at the reader's prices."""
    import plotly.graph_objects as go

    fig = figure_without_template()
    models = [o for o in dict.fromkeys(curves["option"]) if o not in R.BASELINES]
    for i, m in enumerate(models):
        part = curves[curves["option"] == m]
        fig.add_trace(
            go.Scatter(
                x=part["threshold"],
                y=part["net_benefit"],
                mode="lines",
                name=plain(m),
                line=series_line(i),
            )
        )
    kept = shipped if isinstance(shipped, str) else None
    for option, line in NO_MODEL_LINES.items():
        part = curves[curves["option"] == option]
        name = R.rule_words(option)
        if len(part):
            fig.add_trace(
                go.Scatter(
                    x=part["threshold"], y=part["net_benefit"], mode="lines", line=line,
                    name=SHIPPED_LINE.format(line=name) if option == kept else name,
                )
            )  # fmt: skip
    cut = []  # the words on the lines the plot's range cuts, at its bottom
    if len(curves):
        low, high = _net_benefit_range(curves)
        fig.update_yaxes(range=[low, high])
        names = {o: plain(o) for o in models} | {o: R.rule_words(o) for o in NO_MODEL_LINES}
        cut = [text for o, name in names.items() if (text := _below_words(curves[curves["option"] == o], low, name))]
    if price_threshold is not None and np.isfinite(price_threshold):
        averaged = YOUR_PRICES_AVERAGED if blended else ""
        text = YOUR_PRICES_AT.format(
            averaged=averaged, ratio=prices_of_cutoff(price_threshold), cutoff=cutoff_number(price_threshold)
        )
        shape, note = rule_line_spec(
            x=price_threshold, line={"color": "#000", "dash": "dot", "width": 1}, text=text, position="top right"
        )
        if averaged:
            note["text"] = "<br>".join(plain(part) for part in _two_lines(text, " ("))
        fig.add_shape(shape)
        fig.add_annotation(note)
    cuts = [] if kept is not None else sorted({float(c) for c in shipped if np.isfinite(c) and 0 <= c <= 1})
    if cuts:  # drawn solid, told from the dotted line of the prices by its dash as well as its label
        one = len(cuts) == 1
        of = SHIPPED_OF.format(model=shipped_model) if shipped_model is not None and len(models) > 1 else ""
        text = (
            SHIPPED_AT.format(of=of, cutoff=cutoff_number(cuts[0]))
            if one
            else SHIPPED_BY_GROUP.format(of=of, low=cutoff_number(cuts[0]), high=cutoff_number(cuts[-1]))
        )
        # one cutoff per group: the two ends of the span they cover, the label at the end with more room
        # toward the middle of the axis (`labels_on_the_axis` runs it that way)
        at = max((cuts[0], cuts[-1]), key=lambda x: max(x, 1 - x))
        for x in {cuts[0], cuts[-1]}:
            shape, note = rule_line_spec(
                x=x, line={"color": "#000", "width": 1.5}, text=text if x == at else None, position="bottom right"
            )
            fig.add_shape(shape)
            if note:
                if not one:
                    note["text"] = "<br>".join(plain(part) for part in _two_lines(text, ": "))
                fig.add_annotation(note, yshift=2)
        if not one:
            fig.add_shape(
                type="rect", xref="x", yref="paper", x0=cuts[0], x1=cuts[-1], y0=0, y1=1, fillcolor="#000",
                opacity=0.08, line_width=0, layer="below",
            )  # fmt: skip
    fig.update_xaxes(
        range=[0, 1],  # a label cannot stretch it (a long one ran past the cutoffs' end and squeezed the lines)
        tickvals=list(NET_BENEFIT_TICKS),
        ticktext=[f"{cutoff_number(t)}<br>{prices_of_cutoff(t)}" for t in NET_BENEFIT_TICKS],
    )
    apply_layout(fig, title, NET_BENEFIT_X, NET_BENEFIT_Y)
    # the y title in two lines: in one it ran up into the subtitle (the chart is half the page wide)
    fig.update_yaxes(title_text="<br>".join(plain(part) for part in _two_lines(NET_BENEFIT_Y, " (")))
    # under the title, above the plot: a note, not the title, so the chart in words says it among the marks
    # and its table keeps the short title. The words on the lines the plot's range cuts go under it, in grey,
    # above the plot: at its bottom they ran into the recommended cutoff's label (review 72)
    fig.add_annotation(
        text="<br>".join(plain(line) for line in NET_BENEFIT_HOW), xref="paper", yref="paper", x=0, y=1,
        xanchor="left", yanchor="bottom", yshift=8 + 15 * len(cut), align="left", showarrow=False,
        font={"size": 12},
    )  # fmt: skip
    for k, text in enumerate(reversed(cut)):  # each line the range cuts says where, in words
        fig.add_annotation(
            x=0, y=1, xref="paper", yref="paper", xanchor="left", yanchor="bottom", yshift=4 + 15 * k,
            showarrow=False, text=text, font={"size": 11, "color": "#555"},
        )  # fmt: skip
    fig.update_layout(margin_t=100 + 15 * len(cut))
    return fig


def _two_lines(text: str, at: str) -> tuple[str, str]:
    """`text` cut in two at the first `at`, kept with the line it starts (" (") or ends (": ")."""
    i = text.index(at)
    cut = i + (len(at) - 1 if at.endswith(" ") else 0)
    return text[:cut].rstrip(), text[cut:].lstrip()


def _net_benefit_range(curves: pd.DataFrame) -> tuple[float, float]:
    """The net benefit chart's y range, chosen from the lines: from a little below the lowest model
    line (and 0, flag nobody's) to a little above the highest line, but never further below 0 than
    the best line is above it, so that where a model beats flagging nobody stays readable. Flag
    everyone's line falls without bound as the cutoff rises and does not set the range; what the
    range cuts is said in words (`BELOW_PLOT`)."""
    values = curves["net_benefit"].to_numpy(float)
    top = max(float(np.nanmax(values)) if np.isfinite(values).any() else 0.0, 0.01)
    kept = curves.loc[curves["option"] != R.EVERYONE, "net_benefit"].to_numpy(float)
    lowest = min(0.0, float(np.nanmin(kept)) if np.isfinite(kept).any() else 0.0)
    bottom = max(min(-0.05 - 0.1 * top, lowest - 0.05 * (top - lowest)), -max(top, 0.05))
    return bottom, top + 0.15 * (top - bottom)


def _below_words(part: pd.DataFrame, low: float, name: str) -> str | None:
    """Where the line `part` (one option's rows of the net benefit curves) is below `low`, in words
    (`BELOW_PLOT`), or None when it is not."""
    below = part["net_benefit"].to_numpy(float) < low
    if not below.any():
        return None
    at = part["threshold"].to_numpy(float)
    first, last = np.flatnonzero(below)[[0, -1]]
    if last == len(below) - 1:
        return BELOW_PLOT.format(line=name, where=f"from cutoff {at[first]:.2f} on")
    gaps = "" if below[first : last + 1].all() else ", in places"
    return BELOW_PLOT.format(line=name, where=f"between cutoffs {at[first]:.2f} and {at[last]:.2f}{gaps}")


def ratio_pieces_figure(
    table: pd.DataFrame,
    *,
    low: float,
    high: float,
    names: tuple[str, str],
    title: str | None = None,
    lowest: float | None = None,
    rows: str = "train rows",
    model: str | None = None,
) -> go.Figure:
    """The cost-optimal cutoff against the ratio c_fn / c_fp (log axis), exact pieces drawn
    as steps, with the bracket of the answers so far shaded. `table`: `elicit.pieces`.

    The decisions without a model are dashed lines of their own, named as the answer names them:
    flag nobody (an infinite cutoff) above the plot's cutoffs and, with `lowest` (the lowest
    score, whose cutoff flags everyone), flag everyone at that height, named on the line itself and
    in the chart's words as the lowest score (`EVERYONE_LINE`, `EVERYONE_AT`). The title says on which
    `rows` the cutoffs were fitted ("train rows", or "all rows" without a split), and with `model` which
    model's cutoffs they are (data of two models: the chart did not say which it drew)."""
    import plotly.graph_objects as go

    fig = figure_without_template()
    left = max(float(table["ratio_low"].iloc[0]), 1e-9)
    xs = [max(x, left) for x in table["ratio_low"]] + [float(table["ratio_high"].iloc[-1])]
    ts = table["threshold"].to_numpy(dtype=float)
    everyone = np.flatnonzero(ts == lowest) if lowest is not None else np.array([], dtype=int)
    end = int(everyone[0]) if everyone.size else len(ts)  # the best cutoffs flag everyone from this piece on
    ys = [t if np.isfinite(t) else None for t in ts[:end]]
    if any(y is not None for y in ys):  # not a legend entry for a line that draws nothing
        ys.append(ys[-1])  # the last piece drawn to its right end
        fig.add_trace(
            go.Scatter(
                x=xs[: end + 1],
                y=ys,
                mode="lines",
                line={"color": palette_color(0), "width": 3, "shape": "hv"},
                connectgaps=False,
                name="best cutoff",
                hovertemplate="ratio %{x:.3g}<br>cutoff %{y:.4g}<extra></extra>",
            )
        )
    if everyone.size:
        fig.add_trace(
            go.Scatter(
                x=[xs[end], xs[-1]],
                y=[lowest, lowest],
                mode="lines",
                line={**NO_MODEL_LINES[R.EVERYONE], "width": 2},
                meta={TABLE_LABEL: EVERYONE_AT},
                name=R.EVERYONE,
                hovertemplate=f"ratio %{{x:.3g}}: {EVERYONE_LINE}<extra></extra>",
            )
        )
        fig.add_annotation(  # its name on the line, at its right end: no reading it as a cutoff at that height
            x=np.log10(xs[-1]),  # a log axis places annotations by the power of ten
            y=lowest,
            xanchor="right",
            yanchor="bottom",
            showarrow=False,
            text=EVERYONE_LINE,
            font={"size": 12, "color": EVERYONE_COLOR},
            bgcolor="rgba(255,255,255,0.8)",
        )
    for row in table[~np.isfinite(table["threshold"])].itertuples():
        fig.add_trace(
            go.Scatter(
                x=[max(row.ratio_low, left), row.ratio_high],
                y=[1.02, 1.02],
                mode="lines",
                line=NO_MODEL_LINES[R.NOBODY],
                meta={TABLE_Y: NO_CUTOFF},  # drawn above the cutoffs: its cutoff is infinite, not 1.02
                name=R.NOBODY,
                hovertemplate=f"ratio %{{x:.3g}}: {R.NOBODY}<extra></extra>",
            )
        )
    right = float(table["ratio_high"].iloc[-1])
    fig.update_xaxes(range=[np.log10(left), np.log10(right)])
    if low > left or high < right:  # a range the answers narrowed: before any, every ratio is in it
        _shade_range(fig, low, high)
    ticks = _log_ticks(np.array([left, right]))  # whole labels: Plotly's own put "2" and "5" between 0.001 and 0.01
    fig.update_xaxes(type="log", tickvals=ticks, ticktext=[_tick(t, "") for t in ticks])
    return apply_layout(
        fig,
        title if title is not None else ratio_pieces_title(rows, model),
        f"how many times worse {names[0]} is than {names[1]}",
        "cutoff (flag a case when its score is at least this)",
    )


def _shade_range(fig, low: float, high: float) -> None:
    """The range of ratios the answers so far allow, shaded, with a line at its middle (on the
    log axis) that says it: 'your range: 32 to 1,000'."""
    from costlib.binary.elicit import Bracket

    fig.add_shape(
        type="rect",
        xref="x",
        yref="paper",
        x0=low,
        x1=high,
        y0=0,
        y1=1,
        fillcolor=palette_color(2),
        opacity=0.15,
        line={"width": 0},
        layer="below",
    )
    rule_line(
        fig,
        x=float(Bracket(low, high).middle),  # where "Use these prices" sets the price
        line={"color": palette_color(2), "dash": "dot", "width": 1},
        text=f"your range: {ratio_text(low)} to {ratio_text(high)}",
        position="top right",
    )


def ratio_pieces_title(rows: str = "train rows", model: str | None = None) -> str:
    """`ratio_pieces_figure`'s title: the rows its cutoffs are fitted on and, with `model`, whose cutoffs
    they are, named as the cost chart names its model.

    >>> ratio_pieces_title("train rows", "score_lr")
    'The best cutoff for every price ratio, score_lr (train rows)'
    """
    return f"The best cutoff for every price ratio{'' if model is None else f', {model}'} ({rows})"
