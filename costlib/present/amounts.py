"""Amounts as people read them: numbers, money, shares, per case and per month, intervals and
price ratios ('1,234.50', '−$0.500', '$12.3 million', '82.9%', '95% interval $0.07 to $0.18').

The sentences, the tables and the charts format their amounts with these functions, so that
one amount reads the same wherever it appears.
"""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

CURRENCY_SYMBOLS = ("$", "€", "£", "¥", "₹", "CHF")


_SCALES = ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"))


def number(x: float, digits: int = 2) -> str:
    """A readable amount: '1,234.50', '12.3 million', '4.2 × 10^15', '−3.00' (never 300 digits).

    >>> number(1234.5), number(-3, 2), number(1.23e7), number(-4.2e15)
    ('1,234.50', '−3.00', '12.3 million', '−4.2 × 10^15')
    """
    a = abs(x)
    sign = "\u2212" if x < 0 and round(a, digits) > 0 else ""
    if a >= 1e15:
        mantissa, exponent = f"{a:.1e}".split("e")
        return f"{sign}{mantissa} × 10^{int(exponent)}"
    for size, name in _SCALES:
        if a >= size:
            return f"{sign}{a / size:,.3g} {name}"
    return f"{sign}{a:,.{digits}f}"


def money_digits(amount: float) -> int:
    """The decimals `money` shows `amount` with: two from 1 up, three below 1 (and at least two
    significant digits, at most six).

    >>> money_digits(1.6357), money_digits(0.5), money_digits(0.0019)
    (2, 3, 4)
    >>> money_digits(float("nan"))  # no amount (nothing could be fitted): shown "n/a", not a crash
    2
    """
    a = abs(amount)
    return 2 if a >= 1 or a == 0 or not math.isfinite(a) else min(6, max(3, 1 + math.ceil(-math.log10(a))))


def money(amount: float, unit: str = "", *, digits: int | None = None) -> str:
    """'$3.10', '3.10 minutes', '−$0.50', '$0.016', '$12.3 million' or '3.10' (no unit).

    Without `digits`: two decimals from 1 up, three below 1 (and at least two significant
    digits), so that amounts on one page subtract as they read ('$0.545 - $0.529 = $0.016')
    and a small saving never reads as '$0.00'.

    >>> money(-0.5, "$"), money(3.1, "minutes"), money(1.23e7, "€"), money(0.0159, "$")
    ('−$0.500', '3.10 minutes', '€12.3 million', '$0.016')
    >>> money(0.0, "€", digits=4), money(0.0123, "€", digits=4)  # nothing is "€0.00" at any decimals
    ('€0.00', '€0.0123')

    A negative amount takes the minus sign (U+2212), not a hyphen: it reads the same, and a
    spreadsheet does not take a cell that starts with it for a formula, so tables need no
    formula guard ("'-$0.50") on their money cells.
    """
    if amount is None or (isinstance(amount, float) and math.isnan(amount)):
        return "n/a"
    unit = (unit or "").strip()
    if digits is None:
        digits = money_digits(amount)
    if abs(amount) < 0.5 * 10**-digits:
        amount = 0.0  # no "-$0.00"
    if amount == 0:
        digits = min(digits, 2)  # nothing reads as "$0.00", however many decimals the amounts beside it need
    sign = "\u2212" if amount < 0 else ""
    body = number(abs(amount), digits)
    if not unit:
        return f"{sign}{body}"
    if unit in CURRENCY_SYMBOLS:
        return f"{sign}{unit}{body}"
    return f"{sign}{body} {unit}"


def percent(x, digits: int = 1) -> str:
    """'82.9%', or '–' when there is no share to show (never 'None' or 'nan')."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{100 * float(x):.{digits}f}%"


def percent_between(x, digits: int = 1) -> str:
    """A share as `percent` writes it, with more decimals (at most `MAX_PERCENT_DECIMALS`) where
    fewer would read as none or all when it is neither: '99.96%', not '100.0%' beside "nearly
    everyone" (review); 0 and 1 themselves read '0.0%' and '100.0%'.

    >>> percent_between(0.9996), percent_between(0.00004), percent_between(1.0), percent_between(0.356)
    ('99.96%', '0.004%', '100.0%', '35.6%')
    """
    text = percent(x, digits)
    if text == "–" or not 0 < float(x) < 1:
        return text
    while digits < MAX_PERCENT_DECIMALS and text in (percent(0.0, digits), percent(1.0, digits)):
        digits += 1
        text = percent(x, digits)
    return text


MAX_PERCENT_DECIMALS = 6  # past a millionth of a point, a share that reads as all is all a reader can tell


MONTH_WHOLE = 100  # from this much a month up, an amount a month is shown in whole units


def month_money(amount: float, unit: str = "", *, places: int | None = None) -> str:
    """An amount a month: in whole units from `MONTH_WHOLE` up ('$2,703', not '$2,703.32': a
    month's figure is a per-case estimate times a volume, and its cents claim a precision no
    interval supports), else as `money` shows it. `places` (`month_figure`'s): the decimals the
    amount is already rounded at, below 0 to tens, hundreds...: then in whole units at 0 or below,
    else as `money` shows it ('$50.50', rounded to the tenth: money reads in cents).

    >>> month_money(2703.32, "$"), month_money(-158.73, "$"), month_money(42.5, "$"), month_money(1.23e7, "€")
    ('$2,703', '−$159', '$42.50', '€12.3 million')
    >>> month_money(8400.0, "$", places=-2), month_money(50.5, "$", places=1), month_money(0.0, "$", places=-2)
    ('$8,400', '$50.50', '$0')
    """
    if amount is None or (isinstance(amount, float) and math.isnan(amount)):
        return money(amount, unit)
    if places is not None:
        return money(amount, unit, digits=0 if places <= 0 else None)
    return money(amount, unit, digits=0 if round(abs(amount), 2) >= MONTH_WHOLE else None)


def month_figure(
    per_case: float,
    volume: float,
    *,
    digits: int | None = None,
    beside: tuple[float, float] | None = None,
    month_of: float | None = None,
) -> tuple[float, int | None]:
    """(amount a month, the decimals it is rounded at, below 0 to tens, hundreds...): the one rule
    by which an amount a month follows from the per-case amount it is shown beside (`month_money`
    shows it, `month_amount`, `a_month`, `per_case_and_month` and `month_interval` say it).

    With `digits`, the decimals the per-case amount is shown at, cut to the width of the 95%
    interval `beside` it (`beside_interval`, `shown_saving`), the month is the per-case amount *as
    shown* times the volume, as `month_money` rounds an amount a month (whole units from
    `MONTH_WHOLE` up), not the amount before rounding, so that the two never contradict at the
    digits shown: '$0.03 per case ($300 a month)', not '$0.03 per case ($270 a month)' for $0.027
    at 10,000 cases, which a reader multiplies and finds wrong; '$0.68 per case' reads with
    '$6,800 a month' (not '$6,770'). It is not rounded further (to the step 10^-digits x volume
    carries: a last read found a cost, its baseline and its saving a month that no longer
    subtracted at 12,345 cases, $3,680 - $2,650 against $1,020): months of amounts shown at the
    same decimals subtract as their amounts per case do, within a unit. Below `MONTH_WHOLE` it
    shows no cents the per-case digits do not carry ('€0.02 per case' at 2,500 cases: '€50').

    Without an interval beside it (`beside` None, or an end not a number), the per-case amount is
    shown at its full precision and the month is the amount times the volume, as `month_money`
    rounds it (places None); `month_of`, there, the per-case amount the month is of, when the one
    shown is rounded for a reason of its own, as `shown_saving`'s difference is.

    >>> month_figure(0.027, 10_000, digits=2, beside=(0.01, 0.05))  # $0.03 per case
    (300.0, 0)
    >>> month_figure(0.677, 12_345, digits=2, beside=(0.5, 0.8))  # $0.68 per case: $8,394.60, in whole units
    (8395.0, 0)
    >>> month_figure(0.0123, 100, digits=4, beside=(0.01, 0.013)), month_figure(0.027, 10_000, digits=2)
    ((1.23, 2), (270.0, None))
    """
    ends = beside or (math.nan, math.nan)
    if digits is None or width_digits(*ends) is None or not math.isfinite(per_case) or abs(per_case * volume) >= 1e15:
        return (per_case if month_of is None else month_of) * volume, None
    exact, places = _shown_month(per_case, volume, digits)
    return float(exact.quantize(Decimal(1).scaleb(-places))), places


def _shown_month(per_case: float, volume: float, digits: int) -> tuple[Decimal, int]:
    """`month_figure`'s amount a month before its rounding (the per-case amount as shown at
    `digits` decimals, times `volume`, exactly) and the places it is rounded at."""
    exact = Decimal(f"{per_case:.{digits}f}") * Decimal(repr(float(volume)))
    today = 0 if round(abs(float(exact)), 2) >= MONTH_WHOLE else money_digits(float(exact))
    # no cents the per-case digits do not carry ('€0.02' at 2,500 cases: '€50', not '€50.00'), never
    # coarser than whole units (months at the same decimals subtract)
    return exact, min(today, max(0, digits - Decimal(repr(float(volume))).adjusted()))


def month_range(low: float, high: float, unit: str = "", *, places: int | None = None) -> str:
    """'$50 to $200': an interval of amounts a month (or a period), both ends in whole units when
    either is `MONTH_WHOLE` or more, so that one range never reads '$50.00 to $200'; with
    `places` (`month_interval`'s), both ends rounded at those.

    >>> month_range(50, 200, "$"), month_range(12.5, 40.25, "$"), month_range(-120, 2940, "$", places=-2)
    ('$50 to $200', '$12.50 to $40.25', '−$100 to $2,900')
    """
    if places is not None:
        low, high = (month_money(round(x, places), unit, places=places) for x in (low, high))
        return f"{low} to {high}"
    whole = max(abs(low), abs(high)) >= MONTH_WHOLE
    return f"{money(low, unit, digits=0 if whole else None)} to {money(high, unit, digits=0 if whole else None)}"


def month_interval(low: float, high: float, volume: float, unit: str = "", *, digits: int | None = None) -> str:
    """The 95% interval of a per-case amount, from `low` to `high` per case, a month at `volume`
    cases (`month_range`): with `digits`, the decimals the per-case ends are shown at beside it,
    each end is `month_figure`'s and both are rounded at the coarser of their two places, so that a
    range a month never claims more digits than the range per case ('$0.01 to $0.05 per case':
    '$100 to $500 a month' at 10,000 cases, not '$117 to $483').

    >>> month_interval(0.0117, 0.0483, 10_000, "$", digits=2), month_interval(0.0117, 0.0483, 10_000, "$")
    ('$100 to $500', '$117 to $483')
    """
    if digits is None or width_digits(low, high) is None or abs(max(abs(low), abs(high)) * volume) >= 1e15:
        return month_range(low * volume, high * volume, unit)
    ends = [_shown_month(x, volume, digits) for x in (low, high)]
    places = min(p for _, p in ends)  # both ends rounded once, at the coarser of the two, outwards:
    step = Decimal(1).scaleb(-places)  # an amount inside the range per case stays inside it a month
    low, high = (
        float(x.quantize(step, rounding=r)) for (x, _), r in zip(ends, (ROUND_FLOOR, ROUND_CEILING), strict=True)
    )
    return month_range(low, high, unit, places=places)


def month_amount(
    per_case: float,
    volume: float | None,
    unit: str = "",
    *,
    digits: int | None = None,
    beside: tuple[float, float] | None = None,
    month_of: float | None = None,
) -> str:
    """'$3,100': `month_figure`'s amount a month as `month_money` shows it (a tile's figure), '' without a volume.

    >>> month_amount(0.027, 10_000, "$", digits=2, beside=(0.01, 0.05)), month_amount(0.027, None, "$")
    ('$300', '')
    """
    if not volume or volume <= 0:
        return ""
    amount, places = month_figure(per_case, volume, digits=digits, beside=beside, month_of=month_of)
    return month_money(amount, unit, places=places)


def a_month(per_case: float, volume: float | None, unit: str = "", **shown) -> str:
    """'$3,100 a month' (per case times the monthly volume, `month_money`), or '' without a volume.
    With `digits` and the interval `beside` the per-case amount they were cut to (`shown`, as
    `month_amount` takes them), the month of the amount as shown, at the precision those digits
    carry (`month_figure`, as `month_of`)."""
    if not volume or volume <= 0 or per_case is None or math.isnan(per_case):
        return ""
    return f"{month_amount(per_case, volume, unit, **shown)} a month"


def per_case_and_month(
    per_case: float,
    volume: float | None,
    unit: str = "",
    *,
    digits: int | None = None,
    beside: tuple[float, float] | None = None,
    month_of: float | None = None,
) -> str:
    """'$0.53 per case ($5,290 a month)' or '$0.53 per case' (`digits`: the per-case amount's
    decimals, as `money`'s). `beside`: the 95% interval `digits` were cut to (`beside_interval`,
    `shown_saving`): the month is then the amount's as shown, at the precision of those digits
    ('$0.68 per case ($6,800 a month)', `month_figure`, as `month_of`).

    >>> per_case_and_month(0.677, 10_000, "$", digits=2, beside=(0.5, 0.8)), per_case_and_month(0.677, 10_000, "$")
    ('$0.68 per case ($6,800 a month)', '$0.677 per case ($6,770 a month)')
    """
    month = a_month(per_case, volume, unit, digits=digits, beside=beside, month_of=month_of)
    return f"{money(per_case, unit, digits=digits)} per case" + (f" ({month})" if month else "")


def month_difference(
    before: float,
    after: float,
    volume: float | None,
    unit: str = "",
    *,
    digits: int | None = None,
    beside: tuple[float, float] | None = None,
) -> str:
    """What `after` per case comes to a month more than `before` ('$72 a month'), as the two amounts a month
    it is the difference of read beside it (a gain, `calibration_words.rescale_verdict`): in whole units when
    they are (`month_money`, from `MONTH_WHOLE` up), their shown difference ('$4,584 a month' against '$4,512
    a month': '$72 a month' more, not '$71.88'); where their `digits` are cut to the interval `beside` them, each
    as `month_figure` reads it and their difference at the coarser of their two precisions ('$4,600' against
    '$4,500': '$100 a month'; at a volume that is a power of ten, the difference per case as shown times the
    volume, exactly; at another, within one step of its rounding of it). '' without a volume.

    >>> month_difference(0.4512, 0.45839, 10_000, "$"), month_difference(0.01, 0.0172, 1000, "$")
    ('$72 a month', '$7.20 a month')
    >>> month_difference(0.4512, 0.45839, 10_000, "$", digits=2, beside=(0.001, 0.013))
    '$100 a month'
    """
    if not a_month(after - before, volume, unit):
        return ""
    (was, p), (now, q) = (month_figure(x, volume, digits=digits, beside=beside) for x in (before, after))
    if p is not None:  # each month as shown, their difference at the coarser of the two
        return f"{month_money(round(now - was, min(p, q)), unit, places=min(p, q))} a month"
    if max(abs(round(was, 2)), abs(round(now, 2))) < MONTH_WHOLE:
        return a_month(after - before, volume, unit)
    return f"{money(round(now) - round(was), unit, digits=0)} a month"


MAX_DECIMALS = 6  # the most decimals an amount is shown at to tell it apart (`told_apart`, `shown_saving`)


def told_apart(difference: float, *amounts: float) -> int:
    """The decimals that show `amounts` so that they differ as `difference` (between them) reads:
    '$1.6357 ... $0.0019 more than ... ($1.6338)', not '$1.64 ... $0.0019 more than ... ($1.63)'.

    >>> told_apart(0.0019, 1.6357, 1.6338), told_apart(0.2, 1.5, 1.3)
    (4, 2)
    """
    d = abs(difference)
    needed = 0 if not d > 0 else min(MAX_DECIMALS, 1 + math.ceil(-math.log10(d)))  # two significant digits of it
    return max(needed, *(money_digits(a) for a in amounts))


def width_digits(low: float, high: float) -> int | None:
    """The decimals at which an interval from `low` to `high` shows two significant digits of
    its width, at least 2 and at most `MAX_DECIMALS`: the most an amount and its interval are shown
    at where the interval says how precise they are (`beside_interval`'s and `shown_saving`'s
    `by_width`). None without an interval (an end not a number, or no width).

    >>> width_digits(-0.015404, 0.015604), width_digits(0.0099, 0.0194), width_digits(1.08, 1.24)
    (3, 4, 2)
    >>> width_digits(float("nan"), 0.1), width_digits(0.2, 0.2)
    (None, None)
    """
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)) or not high > low:
        return None
    return min(MAX_DECIMALS, max(2, 1 + math.ceil(-math.log10(high - low))))


def _by_width(digits: int, low: float, high: float) -> int:
    """`digits`, cut to the decimals the interval's width warrants (`width_digits`), but never so
    few that an end which is not 0 reads as 0 (the verdicts turn on an end's side of 0)."""
    most = width_digits(low, high)
    if most is None or digits <= most:
        return digits
    unseen = 0.5 * 10**-MAX_DECIMALS
    while most < digits and any(abs(e) >= unseen and round(e, most) == 0 for e in (low, high)):
        most += 1
    return most


def shown_saving(
    baseline: float, cost: float, low: float = math.nan, high: float = math.nan, *, by_width: bool = True
) -> tuple[int, float]:
    """(decimals, saving): the decimals `baseline` and `cost` are shown at (`told_apart`) and the
    saving as the difference of the two shown amounts, so that a page's figures subtract as they
    read ('$0.249 - $0.131 = $0.118', not a saving of $0.119 rounded on its own). With the
    saving's 95% interval (`low`, `high`), the decimals it is shown at beside the saving too
    (`beside_interval`): more only where an end would read as the saving or as 0.

    >>> shown_saving(0.2493, 0.1308)
    (3, 0.118)
    >>> shown_saving(2.1316, 2.1234)[0], money(shown_saving(2.1316, 2.1234)[1], "$", digits=4)
    (4, '$0.0082')
    >>> shown_saving(1.11530, 0.85277)  # $1.115 - $0.853 would read $0.262, the saving is $0.263
    (4, 0.2625)
    >>> shown_saving(4551.3444, 3424.0364)  # cents, not '$4,551.344 - $3,424.036 = $1,127.308'
    (2, 1127.3)
    >>> shown_saving(1.332, 1.222, 0.080, 0.147)  # '$0.11 per case (95% interval $0.08 to $0.15)'
    (2, 0.11)
    >>> shown_saving(1.332, 1.222, 0.0043, 0.147)  # the low end would read $0.00: '$0.110 ... $0.004 to $0.147'
    (3, 0.11)

    `by_width` (every page's rule; False only to see the rule without it): never more decimals
    than the interval's width warrants (`width_digits`), so that two worths a hair apart read
    '$0.610 against $0.610 (95% interval −$0.008 to $0.008 of the gain)', not '$0.61031 against
    $0.61000 (... −$0.00781 to $0.00843 ...)': their difference is far inside the interval, and
    its digits are noise. The amounts still subtract as they read.

    >>> ends = (-0.00781, 0.00843)
    >>> shown_saving(0.61031, 0.61000, *ends, by_width=False), shown_saving(0.61031, 0.61000, *ends)
    ((5, 0.00031), (3, 0.0))
    """
    d = told_apart(baseline - cost, baseline, cost)
    # one more decimal when the shown difference is not the saving rounded on its own, so that it
    # also reads as the saving a month divided by the cases ('$1.115 - $0.853' said $0.262 beside
    # a table's $0.263 and $2,625.32 a month at 10,000 cases: now $1.1153 - $0.8528 = $0.2625);
    # one only: where that one still differs, it differs in a place no table shows. Not past cents
    # (amounts from 1 up, `money_digits`): "$3,424.036 per case" read as a typo to a reader, and a
    # cent of a dollar or more is within every interval the page states
    if 2 < d < MAX_DECIMALS and round(round(baseline, d) - round(cost, d), d) != round(baseline - cost, d):
        d += 1
    shown = lambda x: round(round(baseline, x) - round(cost, x), x)  # noqa: E731
    d = _beside(d, baseline - cost, shown, low, high)
    if by_width:  # cut, then `_beside` again: an end still never reads as the saving or as 0
        most = d
        d = _kept_inside(_beside(_by_width(d, low, high), baseline - cost, shown, low, high), d, shown, low, high)
        # and the cut never makes the two amounts read apart by half as much again as they are (or
        # more): COMPAS at $3 / $10 read '$1.64 ... $0.01 per case more than flagging everyone
        # ($1.63)' for $0.0019; amounts that read alike (a tie) stay alike
        while d < most and shown(d) != 0 and abs(shown(d) - (baseline - cost)) > 0.5 * abs(baseline - cost):
            d += 1
    return d, round(round(baseline, d) - round(cost, d), d)


def _kept_inside(d: int, most: int, shown, low: float, high: float) -> int:
    """`d`, or more decimals up to `most`, until the amount as shown (`shown(d)`) lies within its
    interval's ends as shown: cut by the width, a gain of $0.0008 between $0.0006 and $0.0206 read
    "$0.000" beside "$0.001 to $0.021" (a last read)."""
    while d < most and not round(low, d) <= shown(d) <= round(high, d):
        d += 1
    return d


def beside_interval(amount: float, low: float, high: float, *, digits: int | None = None, by_width: bool = True) -> int:
    """The decimals an amount and its 95% interval beside it are both shown at (`money`'s and
    `interval`'s `digits`), so that they read alike: the amount's own (`digits`, else
    `money_digits`), and more only where an end would read as the amount or, unless it is 0, as 0
    (the verdicts turn on an end's side of 0), at most `MAX_DECIMALS`:
    '$0.11 per case (95% interval $0.08 to $0.15)', not '$0.11 ... $0.080 to $0.147'.

    The ends take the amount's decimals rather than the amount the ends': the amount's decimals are
    those the sentence's other amounts subtract at (`shown_saving`), and cutting them would break
    that; decimals past the amount's tell an interval's ends no further apart than it is wide.
    (Nothing is shown as '$0.00' at more decimals than two: `money`.)

    >>> beside_interval(0.11, 0.0801, 0.147, digits=2), beside_interval(0.0058, -0.043, 0.016, by_width=False)
    (2, 4)
    >>> beside_interval(0.15, 0.0043, 0.29, digits=2), beside_interval(0.15, 0.1502, 0.29, digits=2)
    (3, 4)
    >>> beside_interval(0.15, float("nan"), float("nan"), digits=2)  # no interval: the amount's own
    2

    `by_width` (every page's rule; False where the amount keeps digits of its own, as a disparity
    ratio's three): never more decimals than the interval's width warrants (`width_digits`), the
    same rule for the amount and its ends: '$0.00 (−$0.013 to $0.012)', not '$0.000031 (−$0.013378
    to $0.012062)', whose last digits no interval that wide can tell; an end that is not 0 still
    never reads as 0.

    >>> beside_interval(0.000031, -0.013378, 0.012062, by_width=False), beside_interval(0.000031, -0.013378, 0.012062)
    (6, 3)
    >>> beside_interval(0.008, 0.0003, 0.0153, by_width=True)  # 3 would read the low end as $0.000
    4
    """
    d = _beside(money_digits(amount) if digits is None else digits, amount, lambda x: round(amount, x), low, high)
    if not by_width:
        return d
    shown = lambda x: round(amount, x)  # noqa: E731
    # cut by the width, then `_beside` again: an end still never reads as the amount or as 0
    return _kept_inside(_beside(_by_width(d, low, high), amount, shown, low, high), d, shown, low, high)


def column_digits(rows, *, digits=None) -> int | None:
    """The decimals every row of one table column of amounts beside their 95% intervals is shown at:
    the finest any row needs (`beside_interval` of each (amount, low, high) of `rows`, or each row's own
    decimals `digits` where the caller chose them), so that the column reads evenly: Watch's groups
    read "$0.221 ($0.183 to $0.267)" above "$0.26 ($0.20 to $0.32)". None without an amount.

    >>> column_digits([(0.221, 0.183, 0.267), (0.26, 0.2, 0.32), (None, None, None)])
    3
    >>> column_digits([], digits=[2, None, 4]), column_digits([])
    (4, None)
    """

    def end(e) -> float:
        return math.nan if e is None else float(e)

    ds = [beside_interval(a, end(lo), end(hi)) for a, lo, hi in rows if a is not None and math.isfinite(a)]
    ds += [d for d in digits or () if d is not None]
    return max(ds, default=None)


def _beside(digits: int, amount: float, shown, low: float, high: float) -> int:
    """`beside_interval`'s rule, from `digits` up, with `shown(d)` the amount as shown at `d`
    decimals (`shown_saving`'s is the difference of two shown costs, not the saving rounded)."""
    unseen = 0.5 * 10**-MAX_DECIMALS  # a difference no decimals shown can tell: not chased

    def reads_apart(d: int) -> bool:
        return all(
            e is None
            or not math.isfinite(e)
            or (
                (abs(e) < unseen or round(e, d) != 0)
                and (abs(e - amount) < unseen or round(e, d) != round(shown(d), d))
            )
            for e in (low, high)
        )

    d = digits
    while d < MAX_DECIMALS and not reads_apart(d):
        d += 1
    return d


def interval(low: float, high: float, unit: str = "", *, of: str = "", digits: int | None = None) -> str:
    """'95% interval $0.07 to $0.18', or with `of` saying what it is the interval of, '95%
    interval of the difference $0.07 to $0.18' (or '' when not computed). Beside an amount it is
    the interval of, at that amount's decimals (`digits`: `beside_interval`, `shown_saving`).

    >>> interval(0.07, 0.18, "$"), interval(-1, 2, of="the difference")
    ('95% interval $0.070 to $0.180', '95% interval of the difference −1.00 to 2.00')
    >>> interval(0.0801, 0.147, "$", digits=2)
    '95% interval $0.08 to $0.15'
    """
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return ""
    what = f"95% interval of {of}" if of else "95% interval"
    return f"{what} {money(low, unit, digits=digits)} to {money(high, unit, digits=digits)}"


def cheaper_by(difference: float, low: float, high: float, unit: str = "") -> str:
    """'$0.09 per case cheaper (95% interval of how much cheaper $0.05 to $0.12)' from a cost
    difference (other minus recommended, negative when the other is cheaper) and its interval,
    at one number of decimals (`beside_interval`)."""
    d = beside_interval(-difference, -high, -low)
    iv = interval(-high, -low, unit, of="how much cheaper", digits=d)
    return f"{money(-difference, unit, digits=d)} per case cheaper" + (f" ({iv})" if iv else "")


def ratio_text(x: float) -> str:
    """A price ratio as people read it: '0.001', '4.6', '105', '1,000' (never '1e+03')."""
    if not math.isfinite(x):
        return "any"
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}" if x >= 0.01 else f"{x:.2g}"


def plain_number(x, digits: int = 4) -> str:
    """A number as a reader reads it, never in a program's notation ('1e+04', 'nan', 'inf'):
    `digits` significant digits, from 1,000 up whole and with thousands separators
    (`amounts.number`), below 0.0001 with six decimals, '–' where there is none.

    >>> plain_number(0.14285), plain_number(9708.2), plain_number(12345.6), plain_number(-2e-5)
    ('0.1429', '9,708', '12,346', '−0.000020')
    >>> plain_number(float("nan")), plain_number(None), plain_number(float("inf"))
    ('–', '–', '–')
    """
    if x is None or not math.isfinite(x):
        return "–"
    x = float(x) + 0.0  # -0.0 reads 0, not '−0'
    a = abs(x)
    if a >= 1e3:
        return number(float(x), 0)
    if 0 < a < 1e-4:
        return number(float(x), 6)
    return f"{float(x):.{digits}g}".replace("-", "\u2212")


def cutoff_number(t: float, digits: int = 4) -> str:
    """A cutoff or confidence threshold as a rule's words show it ('flag a case when its score is
    at least 0.3229'): `digits` significant digits (every digit before the point kept), rounded
    down, never up, so that the rule read literally takes every case the cutoff takes. Rounded to
    the nearest, a cutoff of 0.322967 read 'at least 0.323' and, where many cases score exactly
    0.322967, a reader who typed 0.323 flagged none of them. A cutoff with few digits reads as it
    is ('0.25', not '0.2499'), as does one a hair below it by a float's error (1 - 0.07); thousands
    separators and a minus sign as every amount.

    >>> cutoff_number(0.322967), cutoff_number(0.25), cutoff_number(0.800638, 3), cutoff_number(-1.23456)
    ('0.3229', '0.25', '0.8', '−1.235')
    >>> cutoff_number(32346.7), cutoff_number(2e-5), cutoff_number(7.0), cutoff_number(float("inf"))
    ('32,346', '0.00002', '7', '–')
    """
    if t is None or not math.isfinite(t) or abs(t) >= 1e15:  # past 1e15 a digit more or less reads as none
        return plain_number(t)
    # the float at 12 significant digits: 0.3 stays 0.3, and 1 - 0.07 (0.9299999999999999) reads 0.93, not 0.9299
    exact = Decimal(f"{float(t):.12g}" if abs(t) < 1e11 else repr(float(t)))  # whole digits are never noise
    if exact == 0:
        return "0"
    places = max(0, digits - 1 - exact.adjusted())
    shown = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_FLOOR)
    text = f"{abs(shown):,f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return ("\u2212" if shown < 0 else "") + text


def cases_a_month(n: float) -> str:
    """'1 case a month', '400 cases a month': the noun agrees with the number shown."""
    from costlib.loading.messages import plural

    return f"{number(n, 0)} {plural(round(float(n)), 'case', 'cases')} a month"


def cap_words(share: float, volume: float | None) -> str:
    """A review limit of a `share` of the cases, in cases a month when the `volume` is known."""
    return cases_a_month(share * volume) if volume else f"{percent(share)} of the cases"


def review_limit(share: float | None, volume: float | None) -> str:
    """The review limit as the answer's first sentence names it ('your review limit of 400 cases
    a month', 'of 20.0% of the cases'); '' without a limit that binds (`Recommendation.capacity`).

    >>> review_limit(0.04, 10_000), review_limit(0.2, None), review_limit(None, 10_000)
    ('your review limit of 400 cases a month', 'your review limit of 20.0% of the cases', '')
    """
    return "" if share is None else f"your review limit of {cap_words(share, volume)}"
