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
    """The precision a month figure of `shown` per case (at `digits` decimals) times `volume` is
    rounded to, by the rule's words: the largest power of ten at or below 10^-digits x volume, but
    whole units from MONTH_WHOLE up and never finer than money's own decimals."""
    step = Decimal(1).scaleb(-digits) * volume
    exact = shown * volume
    finest = 0 if abs(exact) >= MONTH_WHOLE else -money_digits(float(exact))
    return Decimal(1).scaleb(max(step.adjusted(), finest))  # adjusted: the power of ten at or below


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
@example(x=0.677, below=0.2, above=0.1, volume=12_345)  # '$0.68': step $123.45, to the hundred: '$8,400'
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
    step = Decimal(1).scaleb(-digits) * volume
    whole = any(abs(Decimal(f"{end:.{digits}f}") * volume) >= MONTH_WHOLE for end in (low, high))
    for (sign, body), end in zip((ends.groups()[:2], ends.groups()[2:]), (low, high), strict=True):
        shown = Decimal(f"{end:.{digits}f}")
        month = read(sign, body)
        # within half a step (or a whole unit, from MONTH_WHOLE up) of the per-case end as shown, times the
        # volume, and no digit finer than the step
        near = max(step, Decimal(1) if whole else Decimal(0)) / 2 + Decimal("0.005")
        assert abs(month - shown * volume) <= near, (month, shown, volume)
        assert month % Decimal(1).scaleb(step.adjusted()) == 0 or step.adjusted() < 0, (month, step)


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
