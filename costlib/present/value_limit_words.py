"""What a limit on the hand-overs costs on the Value page, in the one place its headline and the
limit's box read it (`limit_month`), and the decimals the headline says its worths at
(`shown_gain`, `said_digits`), which the tiles and that month are read at too: each was computed in
two places, which could drift apart (review 74).
"""

from __future__ import annotations

from costlib.present.amounts import money, month_difference, shown_saving

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


def said_digits(rec, worth: float) -> int | None:
    """The decimals the Value headline says its worths at: the gain's (`shown_gain`) where it says the
    threshold's worth beside the choice without it (the threshold ships: the verdict keeps nothing
    else, `ValueRecommendation.kept`; or it might), else None (each amount at its own, `amounts.money`).
    The limit's month is read at them (`limit_month`)."""
    from costlib.core.ship import UNCLEAR

    shown = getattr(rec, "kept", None) is None or rec.status == UNCLEAR
    return shown_gain(rec, worth)[0] if shown else None


def limit_month(rec, cost, *, worth: float, volume: float | None, unit: str) -> str | None:
    """What the limit costs a month ('$80 a month'; `cost` a `value_words.LimitCost`, the threshold's or
    the answer's, a right answer worth `worth`), in the one place the headline and the limit's box both
    read it, so that the two never differ: the difference of the two months as shown
    (`amounts.month_difference`), at the headline's decimals (`said_digits`) cut to the gain's
    interval; per case without a volume. None when the limit costs nothing (`value_words.LimitCost.less`).

    >>> from types import SimpleNamespace as R
    >>> from costlib.present.value_words import LimitCost
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
    return month or f"{money(less, unit, digits=digits)} per case"
