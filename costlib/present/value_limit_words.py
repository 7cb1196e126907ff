"""A limit on the hand-overs on the Value page: what it costs (`LimitCost`: the threshold's,
`threshold_limit_cost`, and what the page says to do, `answer_limit_cost`), the month it costs in
the one place the headline and the limit's box read it (`limit_month`), what the box says
(`value_capacity_sentence`), and the decimals the headline says its worths at (`shown_gain`,
`said_digits`), which the tiles and that month are read at too. The month and the decimals were
each computed in two places, which could drift apart (review 74).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from costlib import value
from costlib.binary import honest as H
from costlib.loading.messages import plural
from costlib.present import page_answers
from costlib.present.amounts import cutoff_number, interval, money, month_difference, number, shown_saving, told_apart
from costlib.present.words import fitted_rows

SAME_PRICING = "at this same pricing"  # the answer without the limit, priced as the answer within it


def shown_gain(rec, worth: float) -> tuple[int, float]:
    """(decimals, gain per case in money): the decimals the Value page says the model's threshold's worth
    and the choice without it at, beside the gain's interval (the headline, its tiles, the limit's month:
    `limit_month`), and the gain as the two so shown subtract (`amounts.shown_saving`).

    >>> from types import SimpleNamespace as R
    >>> shown_gain(R(value=0.44903, baseline_value=0.415, gain_low=0.020, gain_high=0.049), 1.0)
    (3, 0.034)
    """
    ends = (rec.gain_low * worth, rec.gain_high * worth)
    return shown_saving(rec.value * worth, rec.baseline_value * worth, *ends)


def gain_month(rec, worth: float, volume: float | None, unit: str) -> str:
    """What the threshold gains a month ('$1,040 a month'; '' without a volume): the difference of the two
    worths' months as the headline shows them (`amounts.month_difference`), so that the headline's
    "a gain of ... $1,040 a month" and the "Gain a month" tile say one figure at any volume (the tile read
    the shown gain times the volume: $235 beside the headline's $234 at 12,345 cases)."""
    digits = shown_gain(rec, worth)[0]
    gain = (rec.gain_low * worth, rec.gain_high * worth)
    return month_difference(rec.baseline_value * worth, rec.value * worth, volume, unit, digits=digits, beside=gain)


def gain_clause(rec, worth: float, unit: str, volume: float | None) -> str:
    """What the Value headline says the threshold gains over the choice without it, after the two worths
    (': a gain of $0.104 per case (95% interval $0.072 to $0.137), $1,040 a month'): the worths as shown
    subtract to it, and its month is their months' difference (`gain_month`). The interval read "($0.311
    per case ... for letting the model answer every case (95% interval ... of the gain)", beside the worth
    without the threshold, of a gain no sentence named (review 74); it sits beside the per-case gain it is
    the interval of, not beside the month.

    >>> from types import SimpleNamespace as R
    >>> gain_clause(R(value=0.415, baseline_value=0.311, gain_low=0.072, gain_high=0.137), 1.0, "$", 12_345)
    ': a gain of $0.104 per case (95% interval $0.072 to $0.137), $1,284 a month'
    """
    digits, shown = shown_gain(rec, worth)
    iv = interval(rec.gain_low * worth, rec.gain_high * worth, unit, digits=digits)
    month = gain_month(rec, worth, volume, unit)
    return (
        f": a gain of {money(shown, unit, digits=digits)} per case"
        + (f" ({iv})" if iv else "")
        + (f", {month}" if month else "")
    )


def said_digits(rec, worth: float) -> int | None:
    """The decimals the Value headline says its worths at: the gain's (`shown_gain`) where it says the
    threshold's worth beside the choice without it (the threshold ships: the verdict keeps nothing
    else, `ValueRecommendation.kept`; or it might), else None (each amount at its own, `amounts.money`).
    The limit's month is read at them (`limit_month`)."""
    from costlib.core.ship import UNCLEAR

    shown = getattr(rec, "kept", None) is None or rec.status == UNCLEAR
    return shown_gain(rec, worth)[0] if shown else None


@dataclass(frozen=True)
class LimitCost:
    """What a limit on the hand-overs costs one choice within it, per case in right answers: the
    best answer without the limit (`without`, ``rec.capacity.unlimited.value``) against the choice's
    worth (`within`), both read on the same rows and at the same pricing."""

    without: float
    within: float

    def less(self, worth: float) -> tuple[int, float]:
        """(decimals, per case): the two worths in money (`worth` a right answer's) at the decimals that tell them
        apart (`amounts.told_apart`), their difference as so shown, never below 0: whether the limit costs anything."""
        without, within = self.without * worth, self.within * worth
        digits = told_apart(without - within, within)
        return digits, max(round(round(without, digits) - round(within, digits), digits), 0.0)


def threshold_limit_cost(rec) -> LimitCost:
    """What the limit costs the model's confidence threshold (the limit's box says it,
    `value_capacity_sentence`). Without a split `rec.value` is cross-fitted and the answer without
    the limit is not (its in-sample worth flatters it), so the threshold's in-sample worth is used."""
    within = rec.value
    if rec.estimate == H.CROSS_FITTED:
        within = float(rec.models.set_index("model").loc[rec.model, "value"])
    return LimitCost(float(rec.capacity.unlimited.value), float(within))


def answer_limit_cost(rec) -> LimitCost:
    """What the limit costs what the page says to do (the headline says it): the threshold's
    (`threshold_limit_cost`) when the verdict ships it, else the worth of the choice the verdict
    keeps (`ValueRecommendation.kept`), as the headline states it, whatever the reason it keeps it."""
    cost = threshold_limit_cost(rec)
    kept = getattr(rec, "kept", None)
    return cost if kept is None else LimitCost(cost.without, float(kept[1]))


def limit_month(rec, cost: LimitCost, *, worth: float, volume: float | None, unit: str) -> str | None:
    """What the limit costs a month ('$80 a month'; `cost` a `LimitCost`, the threshold's or
    the answer's, a right answer worth `worth`), in the one place the headline and the limit's box both
    read it, so that the two never differ: the difference of the two months as shown
    (`amounts.month_difference`), at the headline's decimals (`said_digits`) cut to the gain's
    interval; per case without a volume. None when the limit costs nothing (`LimitCost.less`).

    >>> from types import SimpleNamespace as R
    >>> rec = R(value=0.44903, baseline_value=0.415, gain_low=0.020, gain_high=0.049, status="saves")
    >>> cost = LimitCost(without=0.45653, within=0.44903)
    >>> limit_month(rec, cost, worth=1.0, volume=10_000, unit="$")
    '$80 a month'
    >>> limit_month(rec, cost, worth=1.0, volume=None, unit="$")
    '$0.0075 per case'
    """
    digits, less = cost.less(worth)
    if not less > 0:
        return None
    gain = (rec.gain_low * worth, rec.gain_high * worth)
    at = {"digits": said_digits(rec, worth), "beside": gain}
    month = month_difference(cost.within * worth, cost.without * worth, volume, unit, **at)
    if month and not any(c in "123456789" for c in month):  # the months as shown are the same: not "$0 a month"
        return None
    return month or f"{money(less, unit, digits=digits)} per case"


def _cases(x: float) -> str:
    return number(x, 0)


def value_capacity_sentence(
    rec, *, cap: float, volume: float, worth: float, unit: str, averaged: tuple[float, float] | None = None
) -> str:
    """What the limit of `cap` hand-overs a month changes (`rec.capacity`, from
    `value.recommend_value` with a cap), and what one more case a month people take is worth.
    `averaged`: the two prices (c_fp, c_fn) the answer within the limit prices at their average,
    said with the comparison ("than without the limit at this same pricing"), as the headline says it."""
    from costlib.core.ship import ADDS_NOTHING

    same = ""
    if averaged is not None:
        same = f" {SAME_PRICING} (both kinds of wrong answer at their average, {money(sum(averaged) / 2, unit)})"

    c = rec.capacity
    u = c.unlimited
    split = rec.judged_on == "test"
    on_fit, on_judged = page_answers.value_rows(rec) if split else ("", "")
    many = len(rec.models) > 1
    who_u = f"{u.model} " if many else ""
    who = rec.model if many else "the model"
    take = f"People can take {_cases(cap)} {plural(round(float(cap)), 'case', 'cases')} a month"
    if not c.binding:
        return (
            f"{take}, and the best threshold{on_fit} hands over {_cases(c.unlimited_fit_reject_rate * volume)} "
            f"a month ({who_u}at confidence {cutoff_number(u.tau)} or more): "
            f"the limit does not bind, so the answer is the same as without it{same}."
        )
    kept = getattr(rec, "kept", None)
    at_random = kept is not None and kept[0] == value.HAND_AT_RANDOM and rec.status == ADDS_NOTHING
    # what the sentence is about: handing cases over at random (the choice the verdict keeps), else the
    # confidence threshold within the limit, whatever the verdict says to do (the headline says that)
    # its month as the headline's, when the headline speaks of this threshold (`without_limit_sentence`)
    limit = answer_limit_cost(rec) if at_random else threshold_limit_cost(rec)
    month = limit_month(rec, limit, worth=worth, volume=volume, unit=unit)
    cost = f"worth {month or 'no'} less{'' if month else ' a month'} than without the limit{same}{on_judged}"
    if at_random:
        within = (
            f"no threshold that hands over so few does better than handing {_cases(cap)} cases to a person at "
            f"random: that is {cost}"
        )
    elif not c.fit_reject_rate > 0:
        within = f"the best is to let {who} answer every case (no threshold that hands over so few does better): {cost}"
    else:
        within = f"let {who} answer at confidence {cutoff_number(rec.tau)} or more: {cost}"
    lines = [
        f"{take}; the best threshold{on_fit} would hand over "
        f"{_cases(c.unlimited_fit_reject_rate * volume)} ({who_u}at confidence {cutoff_number(u.tau)} or more). Within "
        f"{_cases(cap)}, {within}."
    ]
    judged = rec.reject_rate * volume
    if split and judged > cap * (1 + 1e-9):
        lines.append(
            f"On the test rows that threshold hands over {_cases(judged)} a month, more than {_cases(cap)}: a "
            f"threshold chosen on {fitted_rows(rec)} keeps the limit there, and other rows come out a little above or "
            "below it."
        )
    if np.isfinite(c.price):
        lines.append(
            f"Each extra case a month that people can take would be worth about {money(c.price * worth, unit)} "
            f"a month{on_fit}; the returns shrink as the limit grows."
            if c.price > 0
            else f"One more case a month that people can take would be worth nothing more{on_fit}."
        )
    return " ".join(lines)
