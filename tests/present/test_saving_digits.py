"""A saving and the 95% interval beside it read at one number of decimals (`amounts.beside_interval`,
`amounts.shown_saving`): "$0.11 per case (95% interval $0.08 to $0.15)", not "$0.11 per case (95%
interval $0.080 to $0.147)", which a reader took for two sources. Held on the sentences that say them:
the Cost matrix's answer, an aside's "cheaper by", the Watch line and the Calibration answer.

The one exception is `money`'s own: an amount of exactly 0 reads "$0.00" at any decimals.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from costlib.core.sweep import tie_tolerance
from costlib.present import calibration_words as cw
from costlib.present.amounts import MAX_DECIMALS, cheaper_by, interval, money, shown_saving
from costlib.present.page_answers import matrix_verdict
from costlib.present.watch_words import saving_said
from costlib.present.words import Verdict

MONEY = r"−?\$[\d,]+(?:\.\d+)?"
SAYS = re.compile(rf"(?:saves?|would save|would cost|worth|might save) ({MONEY})")
IV = re.compile(rf"95% interval[a-z ]*? ({MONEY}) to ({MONEY})")


def decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def same_decimals(*texts: str) -> None:
    shown = [t for t in texts if t.lstrip("−") != "$0.00"]  # 0 reads "$0.00" at any decimals (`money`)
    assert len({decimals(t) for t in shown}) <= 1, texts


def amount():
    """Amounts per case as pages show them: from 0 to thousands, none so small no decimal shows it."""
    return st.floats(-2000, 2000, allow_nan=False).filter(lambda x: x == 0 or abs(x) >= 10**-MAX_DECIMALS)


def interval_of(a: float, b: float) -> tuple[float, float]:
    return min(a, b), max(a, b)


@settings(max_examples=300, deadline=None)
@given(baseline=amount(), cost=amount(), a=amount(), b=amount())
@example(baseline=1.332, cost=1.222, a=0.0801, b=0.147)  # '$0.11 per case' beside '$0.080 to $0.147'
@example(baseline=1.3725, cost=1.2225, a=0.0043, b=0.1941)
def test_matrix_answer_saving_and_interval_same_decimals(baseline, cost, a, b):
    low, high = interval_of(a, b)
    saving = baseline - cost
    assume(saving > tie_tolerance(baseline))  # else no saving to state: the model costs as much or more
    rec = SimpleNamespace(
        saving=saving,
        saving_low=low,
        saving_high=high,
        baseline_cost=baseline,
        cost=cost,
        cheaper_by_chance=[],
        policy="cheapest decision",
        baseline="always decide security",
        decisions={},
    )
    head = matrix_verdict(rec, unit="$").headline
    saved, ends = SAYS.findall(head), IV.findall(head)
    assert saved and ends, head
    same_decimals(saved[-1], *ends[0])


@settings(max_examples=300, deadline=None)
@given(difference=amount(), a=amount(), b=amount())
@example(difference=-0.016, a=-0.039, b=0.018)
@example(difference=-0.00031, a=-0.063, b=0.028)
def test_cheaper_by_same_decimals(difference, a, b):
    low, high = interval_of(a, b)
    text = cheaper_by(difference, low, high, "$")
    said = re.match(rf"({MONEY}) per case cheaper", text).group(1)
    same_decimals(said, *IV.search(text).groups())


@settings(max_examples=300, deadline=None)
@given(saving=amount(), a=amount(), b=amount())
@example(saving=0.0058, a=-0.043, b=0.016)
def test_watch_line_same_decimals(saving, a, b):
    low, high = interval_of(a, b)
    text = saving_said(saving, low, high, "$", line=True)
    said = re.search(rf"would (?:save|cost) ({MONEY})", text).group(1)
    same_decimals(said, *IV.search(text).groups())


@settings(max_examples=300, deadline=None)
@given(before=amount(), after=amount(), a=amount(), b=amount())
@example(before=0.4512, after=0.4584, a=-0.0091, b=0.025)
def test_calibration_answer_gain_and_interval_same_decimals(before, after, a, b):
    low, high = interval_of(a, b)
    assume(after > before and high > 0)  # the answer states the gain (ship, not clearly better)
    v = cw.rescale_verdict(
        "m",
        Verdict("info", "x."),
        cw.RESCALE,
        before=before,
        after=after,
        low=low,
        high=high,
        fit_on="validation",
        unit="$",
    )
    gain = re.search(rf"({MONEY}) per case more", v.headline).group(1)
    same_decimals(gain, *IV.search(v.headline).groups())


@settings(max_examples=500, deadline=None)
@given(baseline=amount(), cost=amount(), a=amount(), b=amount())
def test_ends_read_apart_from_zero(baseline, cost, a, b):
    """The decimals shared never make an end that is not 0 read as 0 (a verdict turns on its side of
    0); without an interval's width to cut them (`by_width`), never fewer decimals than the saving
    needs on its own (`shown_saving`), and with it never more; cut, a saving shown as not 0 is never
    off by half of itself or more."""
    from costlib.present.amounts import beside_interval  # here: the sentences' tests above run on any version

    low, high = interval_of(a, b)
    d, shown = shown_saving(baseline, cost, low, high)
    uncut = shown_saving(baseline, cost, low, high, by_width=False)[0]
    assert uncut >= shown_saving(baseline, cost)[0]
    assert d <= uncut
    assert d == uncut or shown == 0 or abs(shown - (baseline - cost)) <= 0.5 * abs(baseline - cost), (d, shown)
    for end in (low, high):
        if end != 0:
            assert money(end, "$", digits=d).lstrip("−") != "$0.00", (end, d)
    ends = IV.search(interval(low, high, "$", digits=beside_interval(baseline - cost, low, high))).groups()
    for end, text in zip((low, high), ends, strict=True):
        assert end == 0 or text.lstrip("−") != "$0.00", (end, text)
