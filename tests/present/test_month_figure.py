"""A per-case amount and its month figure agree when read together (`amounts.month_figure`): a
per-case amount shown at the decimals its interval's width warrants reads with the month of the
amount as shown, at the precision those decimals carry at the volume. The Cost matrix page read
"costs $0.03 per case more, $270 a month more" ($0.027 x 10,000 cases): a reader multiplies $0.03
by 10,000, finds $300, and takes the two for a contradiction. It now reads "$300 a month more".
"""

from __future__ import annotations

import re
from decimal import Decimal
from types import SimpleNamespace

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from costlib.answers.matrix import matrix_metrics
from costlib.present import matrix_words
from costlib.present.amounts import (
    MAX_DECIMALS,
    MONTH_WHOLE,
    beside_interval,
    money_digits,
    month_interval,
    per_case_and_month,
)
from costlib.present.page_answers import matrix_verdict

MONEY = r"(−?)\$([\d,]+(?:\.\d+)?)"
SAID = re.compile(rf"^{MONEY} per case \({MONEY} a month\)$")
RANGE = re.compile(rf"^{MONEY} to {MONEY}$")


def read(sign: str, body: str) -> Decimal:
    return Decimal(body.replace(",", "")) * (-1 if sign else 1)


def precision(shown: Decimal, volume: int, digits: int) -> Decimal:
    """The precision a month figure of `shown` per case times `volume` is rounded to, by the rule's
    words: whole units from MONTH_WHOLE up, else money's own decimals but none the per-case digits
    do not carry; never coarser than whole units (months at the same decimals must subtract, a last
    read of this rule)."""
    exact = shown * volume
    finest = 0 if abs(exact) >= MONTH_WHOLE else -money_digits(float(exact))
    carried = min((Decimal(1).scaleb(-digits) * volume).adjusted(), 0)  # no cents the per-case digits lack
    return Decimal(1).scaleb(max(finest, carried))


def amount():
    return st.floats(-50, 50, allow_nan=False).filter(lambda x: x == 0 or abs(x) >= 10**-MAX_DECIMALS)


@settings(max_examples=400, deadline=None)
@given(
    x=amount(),
    below=st.floats(1e-5, 5),
    above=st.floats(1e-5, 5),
    volume=st.integers(1, 200_000),
)
@example(x=0.027, below=0.017, above=0.023, volume=10_000)  # '$0.03 per case ($270 a month)'
@example(x=0.677, below=0.2, above=0.1, volume=12_345)  # '$0.68': $8,394.60, in whole units: '$8,395'
@example(x=0.677, below=0.2, above=0.1, volume=10_000)  # '$0.68 per case ($6,770 a month)'
def test_the_month_figure_is_the_per_case_amount_as_shown_times_the_volume_at_its_own_precision(
    x, below, above, volume
):
    low, high = x - below, x + above
    assume(abs(x) * volume < 9 * 10**5)  # from a million up the month reads '$1.23 million', at 3 digits
    digits = beside_interval(x, low, high)  # the decimals every page shows an amount beside its interval at
    text = per_case_and_month(x, volume, "$", digits=digits, beside=(low, high))
    got = SAID.match(text)
    assert got, text
    shown, month = read(*got.groups()[:2]), read(*got.groups()[2:])
    unit = precision(shown, volume, digits)
    # never contradict at the digits shown: the month is the per-case amount as read, times the volume,
    # rounded to the month's own precision (not the amount before rounding: $0.027 x 10,000 read '$270')
    assert month == (shown * volume).quantize(unit), (text, unit)


@settings(max_examples=200, deadline=None)
@given(x=amount(), below=st.floats(1e-4, 5), above=st.floats(1e-4, 5), volume=st.integers(1, 200_000))
@example(x=0.027, below=0.047, above=0.053, volume=10_000)  # '−$0.02 to $0.08': '−$230 to $780' read
def test_a_range_a_month_claims_no_more_digits_than_the_range_per_case(x, below, above, volume):
    low, high = x - below, x + above
    assume(max(abs(low), abs(high)) * volume < 9 * 10**5)
    digits = beside_interval(x, low, high)
    ends = RANGE.match(month_interval(low, high, volume, "$", digits=digits))
    assert ends
    (lo, hi) = (read(*ends.groups()[:2]), read(*ends.groups()[2:]))
    shown = [Decimal(f"{end:.{digits}f}") * volume for end in (low, high)]
    unit = max(precision(Decimal(f"{end:.{digits}f}"), volume, digits) for end in (low, high))  # the coarser
    # each end is the per-case end as shown times the volume, rounded outwards at the coarser of the two
    assert lo <= shown[0] < lo + unit and hi - unit < shown[1] <= hi, (lo, hi, shown, unit)
    # and the amount a month of the per-case amount shown beside it lies inside it (a last read: "$73.80" over
    # "95% interval $74 to $155")
    said = SAID.match(per_case_and_month(x, volume, "$", digits=digits, beside=(low, high)))
    assert said and lo <= read(*said.groups()[2:]) <= hi


@settings(max_examples=300, deadline=None)
@given(cost=st.floats(0.01, 5), saving=st.floats(0.001, 2), volume=st.integers(100, 200_000), digits=st.integers(2, 4))
@example(cost=0.215, saving=0.083, volume=12_345, digits=3)  # $2,650 + $1,020 read against $3,680
def test_months_of_amounts_at_the_same_decimals_subtract(cost, saving, volume, digits):
    base = cost + saving
    assume(base * volume < 9 * 10**5)  # from a million up the month reads '$1.23 million', at 3 digits
    months = []
    for x in (cost, base, saving):
        said = SAID.match(per_case_and_month(x, volume, "$", digits=digits, beside=(x - 0.5, x + 0.5)))
        assert said
        months.append((Decimal(f"{x:.{digits}f}"), read(*said.groups()[2:])))
    (c, mc), (b, mb), (d, md) = months
    assume(b - c == d and min(mc, mb, md) >= MONTH_WHOLE)  # the saving as shown is the difference as shown
    assert abs((mb - mc) - md) <= 1, months


DEARER = SimpleNamespace(  # $0.677 a case against $0.650 without the model: $0.027 more, shown '$0.03'
    cost=0.677, baseline_cost=0.650, saving=-0.027, saving_low=-0.078, saving_high=0.023, cheaper_by_chance=[],
    policy="cheapest decision", baseline="always decide x", decisions={},
)  # fmt: skip


def test_the_matrix_answer_says_a_month_that_its_per_case_amount_times_the_cases_reads():
    headline = matrix_verdict(DEARER, unit="$", volume=10_000).headline
    # $0.03 x 10,000 = $300, the interval's ends likewise (−$0.02 x 10,000, $0.08 x 10,000)
    assert "The policy costs $0.03 per case more, $300 a month more (95% interval" in headline, headline
    assert "$270" not in headline, headline
    assert "costs $0.68 per case ($6,800 a month), no less than" in headline, headline
    assert "at $0.65 per case ($6,500 a month)" in headline, headline
    tiles = {m["label"]: m for m in matrix_metrics(DEARER, unit="$", volume=10_000)}
    tile = tiles[matrix_words.EXTRA_A_MONTH]
    assert (tile["value"], tile["delta"]) == ("$300", "95% interval −$200 to $800")
    assert tiles[matrix_words.COST_TILE]["value"] == "$0.68"
    assert tiles[matrix_words.COST_TILE]["help"].endswith("$6,800 a month at 10,000 cases.")
    assert tiles[matrix_words.BASELINE_TILE]["help"].endswith("$6,500 a month at 10,000 cases.")
