"""A chart for a reader who does not see it: one sentence that says what it shows, and the numbers
behind it as a table a screen reader reads cell by cell (issue 38).

`chart_text` reads any figure the app or the audit report draws (`present.figures` and
`present.cost_figures` build them): its title and axis titles, its traces (lines, markers, bars,
histograms, heatmaps) and the labels of its lines across the plot (a review limit, a formula
cutoff, the decisions without a model). Pure: no Streamlit; the page shows the result with
`views._ui.display.show_chart`, the report with `present.report`.

Text in a figure was made safe for Plotly (`core.escaping.plain`: HTML entities, ``<br>``); here
it is turned back into what the user typed, so the result holds raw user text: the surface that
shows it escapes it (`md_escape` for Markdown, `html_escape` for HTML; a table's cells are data,
never rendered).
"""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.core.thinning import thin_index
from costlib.present.amounts import CURRENCY_SYMBOLS, cutoff_number, money, plain_number

MAX_ROWS = 300  # rows of the table at most: a screen reader reads a table cell by cell
MIN_TRACE_ROWS = 20  # a long trace keeps at least this many rows however many traces share the table
MAX_NAMED = 6  # series named in the sentence; the rest are counted
MAX_MARKED = 8  # marks (labelled lines and points) said in the sentence; the table has them all
KEY_WORDS = ("recommended", "your ")  # a mark that holds one of these is said first: the chart's key point
#: a trace's ``meta`` key whose text stands for its y values in the table: a line drawn where
#: its value cannot be (flag nobody, whose cutoff is infinite, drawn above the plot's cutoffs)
TABLE_Y = "table_y"
#: a trace's ``meta`` key whose text stands for its points' labels in words: a mark whose drawn
#: label is short for the plot ("your prices (averaged)") and says more here
TABLE_LABEL = "table_label"
SERIES, LABEL = "series", "label"  # the table's first column, and its column of a point's own label
THINNED = "The table shows {shown:,} of the {total:,} points drawn: {how}."
THINNED_LINE = "of a long line, the first, last, lowest and highest point of each stretch of its x axis"
THINNED_MAP = "of the map, one row and one column in every {step}"
_TAG = re.compile(r"<[^<>]*>")
#: the axes whose values are cutoffs (an axis's title before its brackets, `_short`): a value on one
#: reads as the rules' words write a cutoff (`amounts.cutoff_number`: rounded down), '0.3229' in the
#: verdict and here alike, never '0.323' (review)
CUTOFF_AXES = ("cutoff", "confidence threshold")


@dataclass(frozen=True)
class ChartText:
    """A chart's text alternative.

    sentence  what the chart shows, in words: its title, axes, how many series and which, and
              what it marks (plain text with the user's own characters: escape it where shown)
    table     the numbers behind it, long format: ``series`` (not when every row is of one, which
              the sentence names), the x axis's title, the y axis's
              title (a heatmap: its colour bar's title) and, where points carry one, ``label``;
              one row per point (a histogram: per bin), at most about `MAX_ROWS`
    note      None, or the sentence that says the table was thinned (`THINNED`)
    """

    sentence: str
    table: pd.DataFrame
    note: str | None = None


KEY_HEAD = "Markers:"  # how a chart's key of marker shapes under its title begins (`cost_figures._key_rows`)


def words(text) -> str:
    """Text of a figure as a reader reads it: the builders' tags (``<br>``) as spaces, entities
    (`core.escaping.plain`'s) as their characters, runs of spaces as one.

    >>> words("group &lt;b&gt;x&lt;/b&gt;<br>cost")
    'group <b>x</b> cost'
    """
    if text is None:
        return ""
    return " ".join(html.unescape(_TAG.sub(" ", str(text))).split())


def chart_text(figure) -> ChartText:
    """The sentence and the table of `figure` (`ChartText`): a Figure, or its spec as a dict
    (``fig.to_dict()``, or the JSON Streamlit sends, arrays as Plotly's typed arrays).

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> fig = go.Figure(go.Scatter(x=[0.1, 0.5], y=[2.0, 1.0], mode="lines", name="model &amp; co"))
    >>> _ = fig.update_layout(title="Cost", xaxis_title="cutoff", yaxis_title="cost per case")
    >>> alt = chart_text(fig)
    >>> alt.sentence  # the names quoted: a name may hold a comma
    'Cost: 1 line (“model & co”) of cost per case against cutoff.'
    >>> alt.table.columns.tolist(), len(alt.table)  # one series: its name is in the sentence
    (['cutoff', 'cost per case'], 2)
    """
    spec = _arrays(figure if isinstance(figure, dict) else _spec(figure))
    layout = spec.get("layout", {})
    x_title, y_title = _axis_title(layout, "xaxis", "x"), _axis_title(layout, "yaxis", "y")
    traces = [t for t in spec.get("data", []) if t.get("visible", True) is not False]
    heat = [t for t in traces if t.get("type") == "heatmap"]
    z_title = words(_dig(heat[0], "colorbar", "title", "text") or _dig(heat[0], "colorbar", "title")) if heat else ""
    columns = _columns(x_title, y_title, z_title or "value", text_axes=_text_axes(traces))
    lengths = [_length(t) for t in traces]
    long = sum(n > MIN_TRACE_ROWS for n in lengths)
    budget = max(MIN_TRACE_ROWS, MAX_ROWS // max(1, long)) if sum(lengths) > MAX_ROWS else max(lengths, default=0)
    parts, total, how = [], 0, {}
    for trace in traces:
        rows, drawn = _rows(trace, columns, budget)
        parts.append(rows)
        total += drawn
        if _size(rows) < drawn:
            how.setdefault(THINNED_MAP.format(step=rows.attrs["step"]) if "step" in rows.attrs else THINNED_LINE)
    # the points a chart marks with words of their own first: a grid shows its first rows, and the
    # marks below a line's hundred points read as an empty column (review: the Costs page's "label")
    nonempty = sorted((p for p in parts if _size(p)), key=lambda p: not _labelled(p))
    table = _joined(nonempty) if nonempty else pd.DataFrame(columns=[SERIES, *columns[:2]])
    table = table[list(dict.fromkeys(c for p in parts if _size(p) for c in p))]  # the columns in the traces' order
    if LABEL in table and (table[LABEL].fillna("") == "").all():
        table = table.drop(columns=LABEL)
    if SERIES in table and table[SERIES].nunique(dropna=False) == 1:  # one series: the sentence names it
        table = table.drop(columns=SERIES)
    if LABEL in table:  # a point without a label of its own (a map's cell beside a marked point) is blank
        table[LABEL] = table[LABEL].fillna("")
    for column in table.columns:  # a gap in a line (NaN) reads as a dash: a grid would show "None"
        values = table[column]
        if values.dtype.kind in "fO" and values.isna().any():
            table[column] = [
                NO_INTERVAL
                if pd.isna(x)
                else (cutoff_number(x) if _cutoff_axis(str(column)) else _number(x))
                if isinstance(x, float)
                else str(x)
                for x in values
            ]
    note = THINNED.format(shown=len(table), total=total, how="; ".join(how)) if how else None
    return ChartText(_sentence(layout, traces, x_title, y_title), table, note)


# ---------------------------------------------------------------------------------------
# The table


def _spec(figure) -> dict:
    """A Figure's spec as ``to_dict`` gives it, without its copy and its arrays written as
    base64 text (`_arrays` reads them back): a slider move reads the cost chart's every line,
    and the copy and the round trip were a third of this module's time. Read-only: `_arrays`
    builds new dicts and lists, and nothing here writes to an array."""
    return {"data": list(figure._data), "layout": figure._layout}


def _arrays(obj):
    """`obj` with every typed array (``{"dtype", "bdata", "shape"}``, as Plotly writes a numpy
    array in a spec) read back as a numpy array."""
    if isinstance(obj, dict):
        if "bdata" in obj and "dtype" in obj:
            values = np.frombuffer(base64.b64decode(obj["bdata"]), dtype=np.dtype(obj["dtype"]))
            shape = obj.get("shape")
            return values.reshape([int(n) for n in str(shape).split(",")]) if shape else values
        return {key: _arrays(value) for key, value in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_arrays(value) for value in obj]
    return obj


INTERVAL_FROM, INTERVAL_TO = "interval from", "interval to"  # a bar's interval, beside its value
NO_INTERVAL = "–"  # a point drawn without an interval, or a gap in a line (a grid would show "None")


AXIS_WORDS = {"x": "horizontal axis", "y": "vertical axis"}  # a header for an axis without a title
CATEGORY = "category"  # ... whose values are names (a bar per model): what they are, not where they are drawn


def _text_axes(traces: list[dict]) -> set[str]:
    """The axes ("x", "y") along which some trace (not a map) is drawn at names rather than numbers."""
    return {
        axis
        for trace in traces
        if trace.get("type") != "heatmap"
        for axis in ("x", "y")
        if trace.get(axis) is not None and np.asarray(trace[axis]).dtype.kind in "OUS"
    }


def _columns(x_title: str, y_title: str, z_title: str, text_axes: set[str] = frozenset()) -> tuple[str, str, str]:
    """The table's x, y and value headers: the axes' titles (an axis without one is named in words:
    `CATEGORY` along names, else `AXIS_WORDS`, never "x"), made distinct from each other and from
    the table's own columns (a user's unit can make two titles alike)."""
    out: list[str] = []
    fallbacks = {axis: CATEGORY if axis in text_axes else AXIS_WORDS[axis] for axis in AXIS_WORDS}
    for name, fallback in ((x_title, fallbacks["x"]), (y_title, fallbacks["y"]), (z_title, "value")):
        name = name or fallback
        while name in out or name in (SERIES, LABEL, INTERVAL_FROM, INTERVAL_TO):
            name = f"{name} ({fallback})"
        out.append(name)
    return out[0], out[1], out[2]


def _length(trace: dict) -> int:
    for key in ("x", "y", "z"):
        if trace.get(key) is not None:
            return int(np.size(trace[key]))
    return 0


class _Rows(dict):
    """A line's rows as columns ({header: a scalar, a list or an array}) and how many there
    are (`size`), not yet a frame: the lines of a chart are made one frame at once (`_joined`)."""

    def __init__(self, columns: dict, size: int):
        super().__init__(columns)
        self.size = size
        self.attrs: dict = {}  # as a frame's: a line is thinned by stretches, never by a step


def _size(rows) -> int:
    """How many rows `rows` (a frame, or a line's `_Rows`) holds."""
    return rows.size if isinstance(rows, _Rows) else len(rows)


def _joined(parts: list) -> pd.DataFrame:
    """The parts of the table (frames, and lines' `_Rows`) as one frame, as ``pd.concat`` of
    their frames would make it. Lines of numbers with the same columns (a cost chart's every
    trace) are joined column by column into one frame, which is what a slider move redraws:
    a frame per line, then their concatenation, took most of this module's time."""
    lines = [p for p in parts if isinstance(p, _Rows)]
    if len(lines) == len(parts) and len({tuple(p) for p in parts}) == 1 and all(_numbers(p) for p in parts):
        sizes = [_size(p) for p in parts]
        return pd.DataFrame({column: _stacked([p[column] for p in parts], sizes) for column in parts[0]})
    frames = [pd.DataFrame(p) if isinstance(p, _Rows) else p for p in parts]
    return pd.concat(frames, ignore_index=True)


def _numbers(rows: _Rows) -> bool:
    """Whether a line's columns are its name, numbers and text: x and y are float arrays, the
    rest text (one for every row, or a list)."""
    return all(
        isinstance(v, np.ndarray) and v.dtype == float
        if i in (1, 2)
        else isinstance(v, str) or (isinstance(v, list) and all(isinstance(t, str) for t in v))
        for i, v in enumerate(rows.values())
    )


def _stacked(values: list, sizes: list[int]) -> np.ndarray | list:
    """One column of `_joined`: float arrays joined, text as one list."""
    if all(isinstance(v, np.ndarray) for v in values):
        return np.concatenate(values)
    out: list = []
    for v, n in zip(values, sizes, strict=True):
        out += [v] * n if isinstance(v, str) else v
    return out


def _rows(trace: dict, columns: tuple[str, str, str], budget: int) -> tuple[pd.DataFrame | _Rows, int]:
    """(rows of the table, points drawn) of one trace: at most about `budget` rows of a line."""
    kind = trace.get("type") or "scatter"
    name = words(trace.get("name")) or kind
    x_col, y_col, z_col = columns
    if kind == "heatmap":
        return _heatmap_rows(trace, columns, name)
    if kind == "histogram":
        values = np.asarray(trace.get("x", []), dtype=float)
        values = values[np.isfinite(values)]
        if not values.size:
            return pd.DataFrame(), 0
        counts, edges = _histogram(values, trace)
        frame = pd.DataFrame(
            {SERIES: name, f"{x_col} from": edges[:-1], f"{x_col} to": edges[1:], f"{y_col} (count)": counts}
        )
        return frame, len(frame)
    x, y = trace.get("x"), trace.get("y")
    if y is None:
        return pd.DataFrame(), 0
    y = _column(y)
    x = _column(x) if x is not None else np.arange(len(y), dtype=float)
    meta = trace.get("meta")
    if isinstance(meta, dict) and isinstance(meta.get(TABLE_Y), str):  # a line drawn at a height that is no value
        y = [meta[TABLE_Y]] * len(y)
    text = _labels(trace)
    if "lines" in (trace.get("mode") or "lines"):
        x, y, text = _without_corners(x, y, text)
    drawn = len(y)
    keep = slice(None)
    if drawn > budget:  # thinned before anything is built from it: a slider redraws the page's charts
        values = y if isinstance(y, np.ndarray) else np.full(drawn, np.nan)
        position = x if isinstance(x, np.ndarray) and np.isfinite(x).all() else None
        keep = thin_index(values, budget, x=position)
    columns = {SERIES: name, x_col: _take(x, keep), y_col: _take(y, keep)}  # one frame built once
    # a label that only repeats the line's name says nothing the series column does not: blank
    if isinstance(text, (list, tuple, np.ndarray)) and len(text) == drawn:
        columns[LABEL] = [_own(words(t), name) for t in _take(text, keep)]
    elif isinstance(text, str) and text:
        columns[LABEL] = _own(words(text), name)
    else:
        columns[LABEL] = ""  # blank where a point has no label of its own
    # the interval of the value: on y (bars), or on x where the value is the x axis (the change chart's points)
    for axis, value_col in (("error_y", y_col), ("error_x", x_col)):
        error = trace.get(axis) or {}
        if error.get("array") is None or len(error["array"]) != drawn:
            continue
        up = _take(pd.to_numeric(pd.Series(error["array"]), errors="coerce").to_numpy(float), keep)
        down = error.get("arrayminus")
        down = up if down is None else _take(pd.to_numeric(pd.Series(down), errors="coerce").to_numpy(float), keep)
        mid = pd.to_numeric(pd.Series(columns[value_col]), errors="coerce").to_numpy(float)
        for column, ends in ((INTERVAL_FROM, mid - down), (INTERVAL_TO, mid + up)):  # read after the value
            columns[column] = [_number(x) if np.isfinite(x) else NO_INTERVAL for x in ends]  # as the values read
        break
    return _Rows(columns, len(columns[y_col])), drawn


def _histogram(values: np.ndarray, trace: dict) -> tuple[np.ndarray, np.ndarray]:
    """(counts, edges) of a histogram trace's bins as drawn: its `xbins` where it sets them (each bin
    holds its left edge, not its right one, as plotly draws it), else `nbinsx` bins over its values."""
    bins = trace.get("xbins") or {}
    start, end, size = (bins.get(k) for k in ("start", "end", "size"))
    if not all(isinstance(v, (int, float)) for v in (start, end, size)) or size <= 0 or end <= start:
        return np.histogram(values, bins=int(trace.get("nbinsx") or 30))
    edges = start + size * np.arange(int(np.ceil((end - start) / size - 1e-9)) + 1)
    drawn = values[(values >= start) & (values < end)]
    counts = np.bincount(np.minimum(((drawn - start) // size).astype(int), len(edges) - 2), minlength=len(edges) - 1)
    return counts, edges


def _own(label: str, series: str) -> str:
    """A point's label as the table writes it: '' where it is its series' name."""
    return "" if label == series else label


def _labelled(rows) -> bool:
    """Whether a part of the table (a line's `_Rows`, or a frame) has a point with a label of its own."""
    labels = rows.get(LABEL)  # a frame's column, or a line's
    if labels is None:
        return False
    if isinstance(labels, str):
        return bool(labels)
    return any(isinstance(t, str) and t for t in labels)


def _without_corners(x, y, text):
    """A line's points without the corners of its steps: a point at the next point's x and the
    previous point's y is where a step drawn with straight lines turns (`plotting.step_points`
    adds it), not a value of the curve; a reader would read each cutoff twice, once with the
    cost before it. The first and last points always stay."""
    if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray)) or len(y) < 3:
        return x, y, text
    corner = np.zeros(len(y), dtype=bool)
    corner[1:-1] = (x[1:-1] == x[2:]) & (y[1:-1] == y[:-2])
    if not corner.any():
        return x, y, text
    keep = ~corner
    if isinstance(text, (list, tuple, np.ndarray)) and len(text) == len(y):
        text = [t for t, k in zip(text, keep, strict=True) if k]
    return x[keep], y[keep], text


def _heatmap_rows(trace: dict, columns: tuple[str, str, str], name: str) -> tuple[pd.DataFrame, int]:
    """One row per cell of a heatmap: its x, its y, and its value, or its text where that is a
    category's name (the sensitivity map's colours are codes of its options); every k-th row
    and column when that is more than `MAX_ROWS`."""
    z = np.asarray(trace.get("z", []), dtype=float)
    if z.ndim != 2 or not z.size:
        return pd.DataFrame(), 0
    ny, nx = z.shape
    x = list(trace.get("x") if trace.get("x") is not None else range(nx))
    y = list(trace.get("y") if trace.get("y") is not None else range(ny))
    text = trace.get("customdata")  # the cells' names where the text drawn is a short code
    if text is None or np.shape(text) != z.shape:
        text = trace.get("text")
    text = np.asarray(text, dtype=object) if text is not None and np.shape(text) == z.shape else None
    step = max(1, int(np.ceil(np.sqrt(ny * nx / MAX_ROWS))))
    rows = []
    for i in range(0, ny, step):
        for j in range(0, nx, step):
            value = _cell(z[i, j])
            if text is not None and not _is_number(text[i, j]):  # a category's name (the codes mean nothing)
                value = words(text[i, j])
            rows.append({columns[0]: _cell(x[j]), columns[1]: _cell(y[i]), columns[2]: value})
    frame = pd.DataFrame(rows)
    frame.insert(0, SERIES, name)
    if step > 1:
        frame.attrs["step"] = step
    return frame, ny * nx


def _is_number(text) -> bool:
    try:
        float(str(text).replace(",", ""))
    except ValueError:
        return False
    return True


def _column(values) -> np.ndarray | list:
    """A trace's x or y as cells: numbers as a float array (a gap, or an infinite value, as NaN),
    anything else (dates, categories) as a list of `_cell`."""
    array = np.asarray(values)
    if array.dtype.kind in "biuf":
        array = array.astype(float)
        return np.where(np.isfinite(array), array, np.nan)
    return [_cell(v) for v in array.tolist()]


def _take(values, keep) -> np.ndarray | list:
    """`values` at the positions `keep` (a slice or an index array)."""
    if isinstance(keep, slice):
        return values[keep]
    return values[keep] if isinstance(values, np.ndarray) else [values[i] for i in keep]


def _cell(value):
    """A value as a cell: a number as a float (None for a gap), text as its words."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value) if np.isfinite(value) else None
    return words(value)


# ---------------------------------------------------------------------------------------
# The sentence


def _dig(obj, *keys):
    for key in keys:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def _axis_title(layout: dict, axis: str, fallback: str) -> str:
    title = _dig(layout, axis, "title")
    return words(title.get("text") if isinstance(title, dict) else title)


def _kind(trace: dict) -> str:
    kind = trace.get("type") or "scatter"
    if kind in ("bar", "histogram", "heatmap"):
        return {"bar": "series of bars", "histogram": "histogram", "heatmap": "map"}[kind]
    return "line" if "lines" in (trace.get("mode") or "lines") else "set of marked points"


def _count(n: int, what: str) -> str:
    plural = {"series of bars": "series of bars", "set of marked points": "sets of marked points"}
    return f"{n} {what}" if n == 1 else f"{n} {plural.get(what, what + 's')}"


def _sentence(layout: dict, traces: list[dict], x_title: str, y_title: str) -> str:
    """What the chart shows, in one sentence (`chart_text`)."""
    title = words(_dig(layout, "title", "text") if isinstance(layout.get("title"), dict) else layout.get("title"))
    subtitle = words(_dig(layout, "title", "subtitle", "text"))  # what the chart writes under its title
    series: dict[str, list[str]] = {}
    marks: list[str] = []
    for trace in traces:
        kind, name = _kind(trace), words(trace.get("name"))
        if kind == "set of marked points":
            marks += _point_marks(trace, x_title, y_title)
            continue
        series.setdefault(kind, []).append(name)
    what = []
    for kind, names in series.items():
        named = [quoted(n) for n in names if n]  # quoted: a name may hold a comma ("everyone, one cutoff")
        shown = ", ".join(named[:MAX_NAMED]) + (f" and {len(named) - MAX_NAMED} more" if len(named) > MAX_NAMED else "")
        what.append(_count(len(names), kind) + (f" ({shown})" if shown else ""))
    axes = (
        f" of {y_title} against {x_title}"
        if x_title and y_title
        else f" by {x_title}"
        if x_title
        else f" of {y_title}"
        if y_title
        else ""
    )
    body = (
        " and ".join(what)
        if what
        else f"{len(marks)} marked point{'' if len(marks) == 1 else 's'}"
        if marks
        else "no data"
    )
    # a note's own full stop would read "... at your prices.; flag everyone" once the marks are joined
    notes = [words(n.get("text")).rstrip(".") for n in layout.get("annotations", []) or [] if words(n.get("text"))]
    marks = sorted(notes + marks, key=lambda m: not any(k in m for k in KEY_WORDS))  # stable: key points first
    said = "; ".join(marks[:MAX_MARKED]) + (f"; and {len(marks) - MAX_MARKED} more" if len(marks) > MAX_MARKED else "")
    rest = f"{body}{axes}" + (f"; marked: {said}" if said else "")
    # said once: a map's policy under its title is its series' name too, and a marker key's shapes name the
    # marks the sentence reads one by one
    if subtitle and subtitle not in rest and not subtitle.startswith(KEY_HEAD):
        title = f"{title or 'A chart'} ({subtitle})"
    return f"{title or 'A chart'}: {rest}."


#: the quotes a series' name is read between, the first pair whose marks the name does not hold:
#: a name (a user's group) may hold a comma, or quotes, and still reads as one name
QUOTES = (("“", "”"), ("‘", "’"), ("«", "»"), ("‹", "›"), ("「", "」"))


def quoted(name: str) -> str:
    """`name` between quotes the list of a chart's series is read by: “everyone, one cutoff” is one
    line, not two; a name that holds those quotes itself is put between another pair.

    >>> quoted("everyone, one cutoff"), quoted('group x”, “y')
    ('“everyone, one cutoff”', '‘group x”, “y’')
    """
    for left, right in QUOTES:
        if left not in name and right not in name:
            return f"{left}{name}{right}"
    return f"{QUOTES[0][0]}{name}{QUOTES[0][1]}"  # every pair in the name: the count before the list still holds


def _point_marks(trace: dict, x_title: str, y_title: str) -> list[str]:
    """The marked points of a markers-only trace in words: each point's own label (else the
    trace's name) at its x and y."""
    x, y = trace.get("x"), trace.get("y")
    if x is None or y is None:
        return []
    text = _labels(trace)
    name = words(trace.get("name"))
    out = []
    for i, (px, py) in enumerate(zip(x, y, strict=False)):
        label = words(text[i]) if isinstance(text, (list, tuple, np.ndarray)) and i < len(text) else name
        out.append(
            f"{label} at {_short(x_title) or 'x'} {_on(px, x_title)}, {_short(y_title) or 'y'} {_on(py, y_title)}"
        )
    return out


def _labels(trace: dict):
    """A trace's points' labels: its text, or the words its ``meta`` gives for them (`TABLE_LABEL`)."""
    meta = trace.get("meta")
    if isinstance(meta, dict) and isinstance(meta.get(TABLE_LABEL), str):
        return [meta[TABLE_LABEL]] * _length(trace)
    return trace.get("text")


def _on(value, title: str) -> str:
    """A point's value on the axis of `title`, in the axis's unit where it names one ("$1.34")."""
    if _cutoff_axis(title) and _finite_number(value):
        return cutoff_number(float(value))
    unit = _unit(title)
    return money(float(value), unit) if unit and _finite_number(value) else _number(value)


def _cutoff_axis(title: str) -> bool:
    """Whether the axis of `title` holds cutoffs (`CUTOFF_AXES`): "cutoff (flag a case when ...)".

    >>> _cutoff_axis("cutoff (under it: false alarm : miss)"), _cutoff_axis("cost per case ($)")
    (True, False)
    """
    return _short(words(title)) in CUTOFF_AXES


def _unit(title: str) -> str:
    """The unit an axis's title ends with in brackets ("cost per case ($)": "$"; "time (minutes)":
    "minutes"), so that a point on it reads "$0.391", as the page's amounts do; '' for brackets
    that explain rather than name a unit ("cutoff (flag a case when ...)")."""
    found = re.search(r"\(([^()\s,]{1,12})\)$", title or "")
    if not found:
        return ""
    unit = found.group(1)
    return unit if unit in CURRENCY_SYMBOLS or unit.isalpha() else ""


def _finite_number(value) -> bool:
    return (
        isinstance(value, (int, float, np.integer, np.floating))
        and not isinstance(value, bool)
        and bool(np.isfinite(value))
    )


def _short(title: str) -> str:
    """An axis's title without what it explains in brackets or after a comma: "cutoff (flag a
    case when...)" is "cutoff" where a point is placed on it."""
    return re.split(r" \(|, ", title, maxsplit=1)[0]


def _number(value) -> str:
    """A value as `amounts.plain_number` writes it: four significant digits, from 1,000 up whole
    with thousands separators, below 0.0001 with six decimals, a minus sign (U+2212) and never a
    program's notation ('10,000', not '1e+04'; '−0.0198', not '-0.0198', which a screen reader
    may read as a dash).

    >>> _number(0.12345), _number(1e4), _number(2e-5), _number(float("nan")), _number(-0.0198)
    ('0.1235', '10,000', '0.000020', '–', '−0.0198')
    """
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        return plain_number(float(value))
    return words(value)
