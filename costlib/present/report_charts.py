"""The report's charts in words and numbers as a reader reads them (`report_chart_text`): the text
alternative of `present.chart_text`, with its numbers written as the report's tables write them
(`report_html.HtmlFigures(text=report_chart_text)` draws them).

`chart_text` writes a point's value at four significant digits (never an exponent: its `_number`)
and its table keeps the values drawn, so a count of cases a month reads "466.8" (a share of the
fitting rows times the cases a month). Here a count of cases (an axis whose title names cases) is a
whole number, an amount a month is `amounts.month_money`'s, a cutoff (an axis titled "cutoff ...")
`amounts.cutoff_number`'s as every rule's words write it, and every other number in the table is
`amounts.plain_number`'s.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pandas as pd

from costlib.present.amounts import cutoff_number, month_money, number, plain_number
from costlib.present.chart_text import LABEL, SERIES, ChartText, _unit, chart_text, words

__all__ = ["report_chart_text"]

_CASES = re.compile(r"\bcases\b")  # an axis of counts of cases: "review capacity (cases a month)"
_MONTH = re.compile(r"\ba month\b")
_CUTOFF = re.compile(r"^cutoff\b")  # an axis of cutoffs: "cutoff (flag a case when its score is at least this)"


def _counts(title: str) -> bool:
    """Whether an axis titled `title` counts cases (a share of them does not)."""
    return bool(_CASES.search(title or "")) and "share" not in (title or "")


def _said(value: float, title: str) -> str | None:
    """A marked point's value on the axis `title` as the report says it where `chart_text` says it
    otherwise (a count of cases with decimals, an amount a month in cents); None where `chart_text`
    says it well (an amount per case in the axis's unit, any other number)."""
    if not isinstance(value, (int, float, np.integer, np.floating)) or not np.isfinite(value):
        return None
    if _counts(title):
        return number(round(float(value)), 0)
    if _unit(title) and _MONTH.search(title):  # an amount a month: whole units from 100 up, as the answer's
        return month_money(float(value), _unit(title))
    return None


def _axis_title(spec: dict, axis: str) -> str:
    title = (spec.get("layout") or {}).get(axis, {}).get("title")
    return words(title.get("text") if isinstance(title, dict) else title)


def report_chart_text(fig) -> ChartText:
    """`chart_text` of `fig` with its numbers as the report writes them: a marked point's value
    said as `_said` says it (its sentence), and the table's cells as text, counts of cases whole
    (`_counts`) and every other number by `plain_number`."""
    spec = fig.to_dict()  # its arrays as Plotly's typed arrays: the values are read from the traces
    titles = {"x": _axis_title(spec, "xaxis"), "y": _axis_title(spec, "yaxis")}
    changed = False
    for trace, written in zip(fig.data, spec.get("data", []), strict=True):
        if trace.type != "scatter" or "lines" in (trace.mode or "lines"):
            continue  # only a set of marked points is said value by value
        for axis, title in titles.items():
            values = [] if trace[axis] is None else np.asarray(trace[axis]).tolist()
            said = [_said(v, title) for v in values]
            if any(x is not None for x in said):
                written[axis] = [v if x is None else x for v, x in zip(values, said, strict=True)]
                changed = True
    sentence = chart_text(spec).sentence if changed else None
    alt = chart_text(fig)
    return replace(alt, sentence=sentence or alt.sentence, table=_cells(alt.table))


def _cells(table: pd.DataFrame) -> pd.DataFrame:
    """The table's numbers as text: a count of cases whole, a cutoff `cutoff_number`'s (rounded down,
    as the rules' words and the tables write it: 0.3229, where the nearest reads 0.323), any other
    number `plain_number`'s."""
    out = table.copy()
    for column in out.columns:
        if column in (SERIES, LABEL):
            continue
        whole = _counts(str(column))
        say = cutoff_number if _CUTOFF.match(str(column)) else plain_number
        out[column] = [
            (number(round(float(x)), 0) if whole else say(float(x)))
            if isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) and np.isfinite(x)
            else x
            for x in out[column]
        ]
    return out
