"""Review 71, item 9: Find my prices drew "flag everyone" as a line at the lowest score (0.2 on
COMPAS), which read as a real cutoff at 0.2. The line names itself on the chart, and the chart's
words say it is drawn at the lowest score, no model needed; the settled answer's colour and the
list of answers (`price_words`)."""

import numpy as np
import pandas as pd

from costlib.binary import elicit
from costlib.core import rules as R
from costlib.present import figures
from costlib.present.chart_text import chart_text
from costlib.present.price_words import answers_said, settled_kind


def _everyone_table():
    table = pd.DataFrame(
        {"ratio_low": [1e-3, 0.5, 4.0], "ratio_high": [0.5, 4.0, 1e3], "threshold": [np.inf, 0.6, 0.2]}
    )
    return table, 0.2  # from a ratio of 4 on, the best cutoff is the lowest score: flag everyone


def test_flag_everyone_is_named_on_its_line_not_read_as_a_cutoff():
    table, lowest = _everyone_table()
    fig = figures.ratio_pieces_figure(table, low=1.0, high=3.0, names=("a miss", "a false alarm"), lowest=lowest)
    (label,) = [a for a in fig.layout.annotations if "flag everyone" in (a.text or "")]
    assert label.text == "flag everyone (no model needed)"
    assert label.y == lowest and label.yanchor == "bottom"  # on the line, above it
    assert label.x == np.log10(1e3) and label.xanchor == "right"  # its right end, inside the plot (a log axis)
    (everyone,) = [t for t in fig.data if t.name == R.EVERYONE]
    assert list(everyone.y) == [lowest, lowest]  # still drawn at the height that flags everyone
    assert "no model needed" in everyone.hovertemplate
    said = chart_text(fig).table
    labels = said.loc[said["series"] == R.EVERYONE, "label"].tolist()
    assert labels and all(c == "lowest score: no model" for c in labels), labels


def test_without_flag_everyone_there_is_no_label():
    table = pd.DataFrame({"ratio_low": [1e-3, 1.0], "ratio_high": [1.0, 1e3], "threshold": [np.inf, 0.4]})
    fig = figures.ratio_pieces_figure(table, low=1.0, high=3.0, names=("a", "b"), lowest=0.1)
    assert not [a for a in fig.layout.annotations if "flag everyone" in (a.text or "")]


def test_a_settled_answer_is_never_shown_as_an_error():
    assert settled_kind(R.SHIP) == "success" and settled_kind(None) == "success"
    assert settled_kind(R.DO_NOT) == "info" and settled_kind(R.NOT_CLEARLY) == "info"


def test_the_answers_are_said_question_by_question():
    b = elicit.Bracket(names=("a miss", "a false alarm"))
    assert answers_said(b) == ()
    for n, choice in ((1.0, elicit.MISS), (32.0, elicit.ALARM), (0.2, elicit.SAME)):
        b = elicit.answer(b, n, choice)
    assert answers_said(b) == (
        "Question 1: Which is worse: 1 × a miss, or 1 × a false alarm? You said: 1 × a miss is worse.",
        "Question 2: Which is worse: 1 × a miss, or 32 × a false alarm? You said: 32 × a false alarm is worse.",
        "Question 3: Which is worse: 5 × a miss, or 1 × a false alarm? You said: about the same.",
    )
