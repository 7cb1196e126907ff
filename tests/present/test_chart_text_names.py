"""A chart's sentence lists its lines so that their count and their names agree (review 74, item 1):
COMPAS's cost chart read "4 lines (everyone, one cutoff, group African-American, group Caucasian,
group Other)", five items for four lines, because the first line's name holds a comma. Each name is
read between quotes (`chart_text.quoted`); a name that holds those quotes itself (a user's group
name is hostile text) is read between another pair, so no comma or quote inside a name reads as
the end of one."""

from __future__ import annotations

import re

import plotly.graph_objects as go
import pytest

from costlib.core.escaping import plain
from costlib.present.chart_text import QUOTES, chart_text, quoted


def _figure(names):
    """A chart of a line per name, each made safe for Plotly as the builders make it (`plain`)."""
    fig = go.Figure([go.Scatter(x=[0.1, 0.5], y=[1.0, 2.0], mode="lines", name=plain(n)) for n in names])
    return fig.update_layout(title="Cost", xaxis_title="cutoff", yaxis_title="cost per case ($)")


def _listed(sentence: str) -> str:
    return re.match(r"Cost: \d+ lines? \((.*)\) of cost per case", sentence).group(1)


def test_compas_lines_read_as_four_names_not_five():
    names = ["everyone, one cutoff", "group African-American", "group Caucasian", "group Other"]
    sentence = chart_text(_figure(names)).sentence
    assert sentence.startswith(
        "Cost: 4 lines (“everyone, one cutoff”, “group African-American”, “group Caucasian”, “group Other”)"
    )


HOSTILE_NAMES = [
    "group a, b",
    "group x”, “y",
    "group ‘q’ “r”",
    "group " + "".join(a + b for a, b in QUOTES),  # every pair: the first, as any name
    "group <b>bold</b>; and more",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_name_with_commas_or_quotes_reads_as_one_name(name):
    wrapped = quoted(name)
    left, right = wrapped[0], wrapped[-1]
    assert wrapped[1:-1] == name  # the name as typed
    if not all(a in name or b in name for a, b in QUOTES):
        assert left not in name and right not in name  # its own quotes never occur inside it
    listed = _listed(chart_text(_figure(["everyone, one cutoff", name])).sentence)
    assert listed == f"“everyone, one cutoff”, {wrapped}"


def test_one_line_is_quoted_too():
    assert chart_text(_figure(["p_recid"])).sentence.startswith("Cost: 1 line (“p_recid”)")
