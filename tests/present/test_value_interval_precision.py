"""An amount beside its 95% interval reads at the precision the interval's width warrants, the same
for the amount and its ends (first-time user review of the Value page, item 2): "$0.000031 per
case better (95% interval of the difference −$0.013378 to $0.012062)" claimed six decimals of a
difference that chance moves by a cent and a half. `amounts.width_digits` is the rule, opt-in
(`by_width`) for the Value page; the other pages read as before."""

from __future__ import annotations

import math

import pytest

from costlib.present.amounts import beside_interval, interval, money, shown_saving, width_digits


@pytest.mark.parametrize(
    ("low", "high", "digits"),
    [
        (-0.015404, 0.015604, 3),  # width 0.031: 0.031 is two significant digits at 3 decimals
        (-0.013378, 0.012062, 3),  # width 0.025
        (0.0099, 0.0194, 4),  # width 0.0095: 0.0095 at 4
        (0.00002, 0.00085, 5),  # width 0.00083 (a large data set): 0.00083 at 5
        (1.08, 1.24, 2),  # width 0.16: never fewer than cents
        (100.0, 350.0, 2),
        (0.0, 1e-9, 6),  # at most six decimals, as everywhere
    ],
)
def test_the_decimals_show_two_significant_digits_of_the_width(low, high, digits):
    assert width_digits(low, high) == digits


@pytest.mark.parametrize(("low", "high"), [(math.nan, 0.1), (0.1, math.inf), (0.2, 0.2), (0.3, 0.1), (None, 0.1)])
def test_no_interval_no_rule(low, high):
    assert width_digits(low, high) is None


def test_the_amount_and_its_ends_read_at_the_intervals_decimals():
    d = beside_interval(0.0001, -0.015404, 0.015604, by_width=True)
    assert d == 3
    assert interval(-0.015404, 0.015604, "$", digits=d) == "95% interval −$0.015 to $0.016"
    assert money(0.0001, "$", digits=d) == "$0.00"  # within the interval's precision it is none: said so
    # without the rule (every page had it until 4052449): six decimals of noise
    assert beside_interval(0.000031, -0.013378, 0.012062, by_width=False) == 6


def test_an_end_that_is_not_zero_never_reads_as_zero():
    """The verdicts turn on an end's side of 0: a gain whose interval is above 0 never reads '$0.00 to'."""
    d = beside_interval(0.008, 0.0003, 0.0153, by_width=True)
    assert d == 4 and interval(0.0003, 0.0153, "$", digits=d) == "95% interval $0.0003 to $0.0153"


def test_never_more_decimals_than_without_the_rule():
    """A cap, not a floor: '$0.11 ($0.08 to $0.15)' stays at the amount's own two decimals."""
    assert beside_interval(0.11, 0.0801, 0.147, digits=2, by_width=True) == 2
    assert shown_saving(1.332, 1.222, 0.080, 0.147, by_width=True) == shown_saving(1.332, 1.222, 0.080, 0.147)


def test_two_worths_a_hair_apart_read_alike_and_still_subtract():
    """'$0.61031 against $0.61000 (95% interval −$0.00781 to $0.00843)' becomes '$0.610 against $0.610
    (−$0.008 to $0.008)': the shown gain is the difference of the shown worths, 0."""
    d, gain = shown_saving(0.61031, 0.61000, -0.00781, 0.00843, by_width=True)
    assert d == 3 and gain == 0.0
    assert money(0.61031, "$", digits=d) == money(0.61000, "$", digits=d) == "$0.610"
    assert shown_saving(0.61031, 0.61000, -0.00781, 0.00843, by_width=False) == (5, 0.00031)  # without the rule


def test_cut_by_the_width_an_amount_still_reads_inside_and_apart_from_its_interval():
    """A last read: by the width, a gain of $0.0008 between $0.0006 and $0.0206 read "$0.000" beside "$0.001
    to $0.021", and an amount of $0.0008 read as its low end $0.001 ($0.0006)."""
    from costlib.present.amounts import beside_interval, shown_saving

    d, saving = shown_saving(0.6104, 0.6096, 0.0006, 0.0206, by_width=True)
    assert round(0.0006, d) <= saving <= round(0.0206, d) and saving > 0, (d, saving)
    d = beside_interval(0.0008, 0.0006, 0.0206, by_width=True)
    assert round(0.0008, d) != round(0.0006, d), d
    assert shown_saving(0.61031, 0.61000, -0.00781, 0.00843, by_width=True) == (3, 0.0)  # the cut still cuts
