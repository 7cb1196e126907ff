"""The failure the headline names (`Disparities.largest`): a clear failure (its ratio's whole 95%
interval outside the pass range) before one that could be chance, however far from 1 that one is;
only when every failure could be chance, the farthest of those, and the sentence then says so.
One rule for the page, the report, the command line and the JSON record (fairness review: on
COMPAS by race and sex the headline named 'Other × Female' at 3.72, interval 0.854 to 8.05,
"the four-fifths rule fails", where the table said "fails (could be chance)")."""

from __future__ import annotations

import math

import pandas as pd

from costlib.binary.disparity import COLUMNS, Disparities
from costlib.present import words
from costlib.present.disparity_table import FAILS_BY_CHANCE, disparity_table


def _row(metric, group, ratio, low, high, *, passes=None, value=0.2, ref=0.06):
    return {
        "metric": metric,
        "group": group,
        "value": value,
        "reference_value": ref,
        "ratio": ratio,
        "ratio_low": low,
        "ratio_high": high,
        "difference": value - ref,
        "difference_low": math.nan,
        "difference_high": math.nan,
        "passes": (0.8 <= ratio <= 1.25) if passes is None else passes,
        "pooled": False,
        "is_reference": False,
        "undefined": "",
    }


def _gaps(*rows) -> Disparities:
    ref = _row("false negative rate", "ref", 1.0, math.nan, math.nan, passes=True, value=0.06)
    table = pd.DataFrame([{**ref, "is_reference": True}, *rows], columns=COLUMNS)
    table["passes"] = table["passes"].astype(object)
    return Disparities("best single cutoff", "ref", "largest", 0.8, table)


# the COMPAS case: 3.72 (0.854 to 8.05) could be chance; 3.70 (2.23 to 5.99) and 0.586 (0.514 to 0.661) are clear
CHANCE = _row("false negative rate", "Other × Female", 3.72, 0.854, 8.05, value=0.222)
CLEAR = _row("false negative rate", "Caucasian × Female", 3.70, 2.23, 5.99, value=0.221)
CLEAR_LOW = _row("false positive rate", "Other × Male", 0.586, 0.514, 0.661, value=0.492, ref=0.839)


def test_a_clear_failure_is_named_before_a_farther_one_that_could_be_chance():
    d = _gaps(CHANCE, CLEAR_LOW, CLEAR)
    assert not d.could_be_chance(d.largest) and d.could_be_chance(CHANCE)
    assert d.largest["group"] == "Caucasian × Female"  # |log 3.70| > |log 0.586|; 3.72 could be chance
    s = words.disparity_sentence(d)
    assert "“Caucasian × Female”" in s and "3.70 times" in s and s.endswith("the four-fifths rule fails).")
    assert "could be chance" not in s
    block = d.record("best single cutoff")["largest_failing"]
    assert block == {
        "metric": "false_negative_rate",
        "group": "Caucasian × Female",
        "ratio": 3.7,
        "could_be_chance": False,
        "raised": True,
    }


def test_when_every_failure_could_be_chance_the_farthest_is_named_and_the_sentence_says_so():
    near = _row("cost per case", "Other × Male", 1.31, 1.06, 1.57)  # reaches back below 1.25: could be chance
    d = _gaps(near, CHANCE)
    assert d.largest["group"] == "Other × Female"
    s = words.disparity_sentence(d)
    assert s.endswith(f"(22.2% against 6.0%; the four-fifths rule fails{FAILS_BY_CHANCE}).")
    assert s.endswith("the four-fifths rule fails, but that could be chance).")
    assert d.record("r")["largest_failing"]["could_be_chance"] is True
    # the table says the same of that row
    table = disparity_table(d).set_index(["metric", "group"])
    assert table.loc[("false negative rate", "Other × Female"), "result"] == "fails (could be chance)"


def test_without_intervals_the_farthest_failure_is_named_as_before():
    unknown = [_row("flagged rate", g, r, math.nan, math.nan) for g, r in (("a", 0.7), ("b", 2.0), ("c", 1.3))]
    d = _gaps(*unknown)
    assert d.largest["group"] == "b" and "could be chance" not in words.disparity_sentence(d)
    infinite = _row("flagged rate", "z", math.inf, math.nan, math.nan, passes=False, ref=0.0)
    assert _gaps(CHANCE, infinite, CLEAR).largest["group"] == "z"  # the reference at 0: no interval to doubt
    assert _gaps().largest is None and _gaps().record("r")["largest_failing"] is None


def test_the_rule_is_read_at_the_stated_threshold():
    row = _row("flagged rate", "a", 1.15, 1.12, 1.2, passes=False)  # fails [0.9, 1.11], wholly above it
    d = _gaps(row, {**_row("flagged rate", "b", 1.5, 1.0, 2.0), "passes": False})
    d = Disparities(d.rule, d.reference, d.chosen, 0.9, d.table)
    assert d.largest["group"] == "a" and not d.could_be_chance(d.largest)
