"""A cutoff as its rule's words show it (`amounts.cutoff_number`): read literally, "flag a case
when its score is at least X" must take every case the cutoff takes. Rounded to the nearest, the
COMPAS cutoff 0.322967 read "at least 0.323", and a reader who typed 0.323 flagged 55% of the cases
where the page said 78.6% (a first-time reader's review, 2026-12-06)."""

from __future__ import annotations

import math
import re

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from costlib.present.amounts import cutoff_number
from costlib.present.words import cutoffs_short, cutoffs_text


def _read(text: str) -> float:
    """The number a reader types from the words: separators dropped, the minus sign a minus."""
    return float(text.replace(",", "").replace("\u2212", "-"))


@given(st.floats(min_value=-1e9, max_value=1e9, allow_nan=False, allow_infinity=False))
def test_the_number_shown_is_never_above_the_cutoff_and_within_its_last_digit(t):
    shown = _read(cutoff_number(t))
    assert shown <= t * (1 + 1e-11) + 1e-300 if t > 0 else shown <= t * (1 - 1e-11)  # a float's error is not a digit
    if t != 0:
        last_digit = 10.0 ** max(math.floor(math.log10(abs(t))) - 3, -12) if abs(t) < 1e3 else 1.0
        assert t - shown <= last_digit * (1 + 1e-9)


@given(st.integers(-9999, 9999), st.integers(0, 6))
def test_a_cutoff_of_four_digits_or_fewer_reads_as_it_is(n, places):
    t = n / 10**places  # 0.25 reads '0.25', not '0.2499' (its float is a hair below or above 0.25)
    assert _read(cutoff_number(t)) == t


def test_a_float_a_hair_below_a_short_decimal_reads_as_that_decimal():
    """A negative answer's confidence is 1 - p: 1 - 0.07 is 0.9299999999999999, not 0.93."""
    assert cutoff_number(1 - 0.07) == "0.93" and cutoff_number(1 - 0.007) == "0.993"


def test_read_literally_the_rule_flags_the_cases_the_cutoff_flags():
    """Scores on a few levels, as COMPAS's decile probabilities: the rule in words, typed back,
    flags the same rows as the cutoff."""
    scores = np.repeat([0.190233, 0.251894, 0.322967, 0.401552, 0.83015], [500, 300, 1200, 900, 400])
    for t in np.unique(scores):
        said = re.search(r"at least (\S+)$", cutoffs_text({"all": float(t)}, grouped=False)).group(1)
        assert ((scores >= _read(said)) == (scores >= t)).all(), (t, said)
        assert _read(cutoffs_short({"all": float(t)}, grouped=False).removeprefix("≥ ")) <= t
