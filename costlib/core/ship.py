"""The ship rule, in one place: what a saving against the no-model choice and its interval mean.

Every page's answer (Costs & groups, Value, Cost matrix, Instance costs) and every policy measure
a saving per case against the cheaper decision without a model, with a 95% interval of it. The
model ships only when all of that interval is above zero; a saving that is not above the tie
tolerance is no saving; and a bound that is missing (NaN: no interval could be computed) never
ships anything.
"""

from __future__ import annotations

import math

from costlib.core.rules import verdict_of

# Outcomes of a recommendation (every page's `status`); `rules.verdict_of` words them as verdicts
SAVES = "saves"  # cheaper than the baseline, interval excludes zero
UNCLEAR = "not distinguishable"  # cheaper on these rows, interval includes zero (or there is none)
WORSE = "worse"  # no cheaper than the baseline on the judged rows
ADDS_NOTHING = "adds nothing"  # the best cutoffs flag everybody or nobody: no model needed
NO_ANSWER = "no answer"  # degenerate data: nothing could be fitted


def saving_status(saving: float, low: float, high: float, *, tolerance: float = 0.0) -> str:
    """The status of a saving per case against the no-model choice, from its 95% interval.

    Parameters
    ----------
    saving : float
        The no-model choice's cost minus the model's, per case (positive: the model saves).
    low, high : float
        The 95% interval of `saving`; NaN when there is none.
    tolerance : float
        A saving at most this large is a tie with the no-model choice (`core.sweep.tie_tolerance`).

    Returns
    -------
    str
        `NO_ANSWER` when `saving` is not a finite number, `WORSE` when it is at most `tolerance`,
        `SAVES` when `low` is finite and above zero and `high` is a number, else `UNCLEAR` (an
        interval that reaches zero, or a missing bound: never a reason to ship).

    Examples
    --------
    >>> saving_status(0.2, 0.05, 0.3), saving_status(0.2, -0.1, 0.3), saving_status(0.2, float("nan"), 0.3)
    ('saves', 'not distinguishable', 'not distinguishable')
    >>> saving_status(0.0, 0.1, 0.3), saving_status(float("nan"), 0.1, 0.3)
    ('worse', 'no answer')
    """
    saving, low, high = float(saving), float(low), float(high)
    if not math.isfinite(saving):
        return NO_ANSWER
    if saving <= tolerance:
        return WORSE
    if math.isfinite(low) and low > 0 and not math.isnan(high):
        return SAVES
    return UNCLEAR


def ship_verdict(saving: float, low: float, high: float, *, tolerance: float = 0.0) -> str:
    """The verdict (`rules.SHIP`, `rules.NOT_CLEARLY` or `rules.DO_NOT`) of `saving_status`.

    >>> ship_verdict(0.2, 0.05, 0.3), ship_verdict(0.2, float("nan"), float("nan")), ship_verdict(-0.1, 0.1, 0.2)
    ('ship the model', 'not clearly better', 'do not let the model decide')
    """
    return verdict_of(saving_status(saving, low, high, tolerance=tolerance))
