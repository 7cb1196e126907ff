"""`costlib train`'s table printed each way's own interval of the change beside a verdict that reads
the interval held for the pick of the cheapest way (review 70: on the page the chart marked a way
"cheaper beyond the noise" under a headline that said "it could be chance"; the page now shows the
held interval everywhere, and so does the command's table)."""

from __future__ import annotations

import pandas as pd

from costlib.cli.train import format_table
from costlib.present.training_words import HELD_HIGH, HELD_LOW
from costlib.training.summary import held_for_pick


def _summary() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "method": ["standard", "weighted", "p_up"],
            "seeds": [10, 10, 10],
            "nec": [0.057, 0.052, 0.060],
            "nec_low": [0.05, 0.045, 0.052],
            "nec_high": [0.064, 0.059, 0.068],
            "error_rate": [0.08, 0.085, 0.09],
            "error_rate_low": [0.07, 0.075, 0.08],
            "error_rate_high": [0.09, 0.095, 0.1],
            "nec_change": [0.0, -0.083, 0.05],
            "nec_change_low": [0.0, -0.158, -0.02],
            "nec_change_high": [0.0, -0.009, 0.12],
            "delta_mae": [float("nan")] * 3,
        }
    )


def test_the_table_reads_the_verdicts_interval():
    s = _summary()
    held = held_for_pick(s)
    weighted = held.set_index("method").loc["weighted"]
    assert weighted["nec_change_high"] < 0 < weighted[HELD_HIGH]  # its own: cheaper; the verdict's: could be chance
    line = next(x for x in format_table(held).splitlines() if x.strip().startswith("weighted"))
    assert f"{weighted[HELD_LOW]:+.1%}" in line and f"{weighted[HELD_HIGH]:+.1%}" in line, line
    assert f"{weighted['nec_change_high']:+.1%}" not in line, line  # not its own -0.9%


def test_the_table_names_the_ways_as_the_page_does():
    """The table named the ways by their codes ("p_up", "tdown30") where the page's chips and charts name them
    in words (`training_page.method_short`: "upsampled", "top 30% + ties: 88% kept"); it now uses the page's
    names, left-aligned, and no code is left in it."""
    from costlib.present.training_page import method_short

    s = pd.concat([_summary(), _summary().iloc[[1]].assign(method="tdown30")], ignore_index=True)
    shares = {"tdown30": (0.3, 0.88)}
    header, *rows = format_table(held_for_pick(s), shares).splitlines()
    assert header.startswith("method ")
    names = [method_short(m, shares) for m in s["method"]]
    assert names[2:] == ["upsampled", "top 30% + ties: 88% kept"]
    assert [row[: len(name) + 1] for row, name in zip(rows, names, strict=True)] == [f"{n} " for n in names]
    assert not any(code in line for line in rows for code in ("p_up", "tdown")), rows


def test_a_summary_not_held_yet_is_held_before_its_verdict():
    """A last read: `answers.training_verdict_kind` of a summary not held read each way's own interval
    ("success": weighted −15.8% to −0.9%) where the page, holding the pick, says not clearly better."""
    from costlib.answers.training import training_verdict_kind
    from costlib.present.training_words import training_verdict_of

    s = _summary()
    assert training_verdict_kind(s) == training_verdict_of(held_for_pick(s)).kind == "warning"
