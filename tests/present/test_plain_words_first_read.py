"""Review (a first-time product manager, who is not a statistician): the pages and the report
said "1.96 standard errors" for the interval without a split (the verdict's details on Costs &
groups and Value, the report's Limitations), named the Value slider "(k)", a bare symbol, and
offered a "delta column" (and a "Price column (delta)") as a source of each case's price. Now
"its 95% margin of error", "How many right answers does one wrong answer cancel out?" (k named
once, in its help, for the sentences that read "k = 2") and "price column"."""

from __future__ import annotations

import pytest

from costlib.binary import honest as H
from costlib.core import rules as R
from costlib.present import labels, report, training_words, value_verdict
from costlib.present.words import split_sentence

#: what a first-time reader should not meet in these words
FIRST_READ_JARGON = ("1.96", "standard error", "(k)", "delta column", "(delta)")


def _intervals_said() -> list[str]:
    """Every sentence that says how an interval without a split is made: the verdicts' details
    for a cutoff and a threshold, one cutoff and per-group cutoffs, and the report's Limitations."""
    said = [
        split_sentence("all", 1000, 1000, H.CROSS_FITTED, thing, rule=rule)
        for thing in ("cutoff", "threshold")
        for rule in (R.SINGLE, R.COST_OPTIMAL)
    ]
    return said + [*report.INTERVALS_LIMITATION.values(), value_verdict.OUTCOME_CROSS_FITTED]


def _inputs_said() -> list[str]:
    """The Value slider's label and button, and the sources of each case's price on Data and Train."""
    said = [labels.K_LABEL, labels.K_RESET, labels.MAP_DELTA, labels.DELTA_SOURCE_LABEL]
    return said + [*labels.DELTA_SOURCES, *training_words.SOURCES]


@pytest.mark.parametrize("said", [_intervals_said, _inputs_said], ids=["intervals", "inputs"])
def test_what_a_first_time_reader_reads_is_in_plain_words(said):
    found = [(term, x) for x in said() for term in FIRST_READ_JARGON if term in x]
    assert not found, found


def test_the_interval_without_a_split_is_its_margin_of_error_and_k_is_named_in_the_help():
    cross_fitted = [x for x in _intervals_said() if "cross-fitted" in x]
    assert cross_fitted and all("95% margin of error" in x for x in cross_fitted), cross_fitted
    assert labels.K_HELP.startswith("Called k on this page") and labels.DELTA_COLUMN == "price column"
