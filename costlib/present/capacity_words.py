"""Capacity in words: what a team that can review only so many cases a month is told, the same
on the Costs page, in the report, the policy and the command line.

Every sentence takes the recommendation within the cap (`decision.recommend` with
``capacity``), the one without it, and `capacity.PriceOfCapacity`; amounts are in the user's
unit, per month when a volume is known (else per case, and the cap as a share).
"""

from __future__ import annotations

import math

from costlib.core import rules as R
from costlib.present.amounts import money, number, percent
from costlib.present.words import cutoffs_text

#: what the Costs page's capacity setting is called, and its help
CAP_TOGGLE = "Limit what your team can review"
CAP_LABEL = "Cases your team can review a month"
CAP_HELP = (
    "The most cases the people who act on a flag can take in a month. The answer is then the cheapest cutoff "
    "that flags no more than that, beside the best cutoff without a limit."
)
CAP_NEEDS_VOLUME = (
    "A limit in cases a month needs the number of cases a month (set it in the sidebar); the answer below has no limit."
)
X_AS_FLAGGED = "Read the x axis as cases flagged a month"
PRICE_TITLE = "The price of capacity"
PRICE_WHAT = (
    "The cheapest monthly cost reachable with each review capacity: one cutoff for everybody, on the rows the "
    "cutoffs are fitted on. Its slope is what one more reviewed case saves."
)


def cap_share(cap_cases: float | None, volume: float | None) -> float | None:
    """A cap in cases a month as a share of the cases (at most 1); None without a cap or a volume."""
    if cap_cases is None or not volume or volume <= 0:
        return None
    return min(1.0, float(cap_cases) / float(volume))


def cases(share: float, volume: float | None) -> str:
    """A share of the cases as the pages say it: '1,150 a month' with a volume, else '11.5% of cases'."""
    if volume:
        return f"{number(share * volume, 0)} a month"
    return f"{percent(share)} of cases"


def _cap_words(share: float, volume: float | None) -> str:
    return f"{number(share * volume, 0)} cases a month" if volume else f"{percent(share)} of the cases"


def _amount(per_case: float, volume: float | None, unit: str) -> str:
    return f"{money(per_case * volume, unit)} a month" if volume else f"{money(per_case, unit)} per case"


def flagged_share(rec, rule: str | None = None) -> float:
    """The share of the judged cases the recommendation's `rule` (default: its own) flags."""
    return float(rec.results.overall.loc[rule or rec.rule, "flagged_rate"])


def within_sentence(rec, unlimited, *, volume: float | None, unit: str = "") -> str:
    """The cap beside the unlimited optimum: "Your team can review 400 cases a month. Without a
    limit the best cutoff would flag 1,150 a month; within 400, flag a case when its score is
    at least 0.71 (about 396 a month), which costs $X a month more than without a limit."."""
    share = rec.capacity
    if share is None:
        return ""
    cap = _cap_words(share, volume)
    free = flagged_share(unlimited)
    free_how = cutoffs_text(unlimited.cutoffs, grouped=unlimited.grouped)
    if free <= share * (1 + 1e-12):
        return (
            f"Your team can review {cap}. The best cutoff without a limit ({free_how}) flags about "
            f"{cases(free, volume)}, within that, so the limit costs nothing."
        )
    how = cutoffs_text(rec.cutoffs, grouped=rec.grouped)
    extra = rec.cost - unlimited.cost
    out = (
        f"Your team can review {cap}. Without a limit the best cutoff ({free_how}) would flag about "
        f"{cases(free, volume)}; within the limit, {how} (about {cases(flagged_share(rec), volume)} on the "
        f"judged rows), which costs {_amount(extra, volume, unit)} more than without a limit."
    )
    if rec.rule == R.COST_OPTIMAL and rec.capacity_gap > 1e-12 * max(1.0, abs(rec.cost)):
        out += (
            f" The per-group cutoffs share the limit; the best possible split of it between the groups is at most "
            f"{_amount(rec.capacity_gap, volume, unit)} cheaper."
        )
    return out


def price_sentence(price, *, volume: float | None, unit: str = "", unlimited=None) -> str:
    """What more capacity is worth: "One more case a month saves about $2.10 a month; 100 more,
    about $150 a month; beyond 1,150 a month, more capacity saves nothing." (per case without a
    volume). `unlimited` (the recommendation without the cap) says how many the best cutoff
    without a limit flags, as the sentence beside it does."""
    if not math.isfinite(price.per_extra_case):
        return ""
    enough = flagged_share(unlimited) if unlimited is not None else price.enough
    if price.share >= price.enough * (1 - 1e-12):
        return (
            f"Your limit already covers what the best cutoff flags (about {cases(enough, volume)}): more capacity "
            "saves nothing at these prices."
        )
    one = money(price.per_extra_case, unit)
    if volume:
        hundred = price.saving_from(100 / volume) * volume
        return (
            f"One more case a month that your team reviews saves about {one} a month; 100 more, about "
            f"{money(hundred, unit)} a month; beyond about {cases(enough, volume)} (what the best cutoff without a "
            "limit flags), more capacity saves nothing."
        )
    beyond = cases(enough, volume)
    return f"Each extra case reviewed saves about {one}; beyond {beyond}, more capacity saves nothing."
