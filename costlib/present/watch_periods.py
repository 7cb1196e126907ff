"""The Watch page's choice of periods: only the periods a watch can judge are offered, and the
ones left out are named once, with why (`period_choice`)."""

from __future__ import annotations

from costlib.present.amounts import number
from costlib.watch.periods import FREQS, MAX_PERIODS

NOT_OFFERED = (
    "Not offered for these cases: {names} (the dates span {counts} with cases, and Watch judges at most {limit} "
    "periods at once)."
)


def period_choice(counts: dict[str, int]) -> tuple[list[str], str]:
    """``(offered, why)``: the keys of `FREQS` whose periods (`counts`, `watch.periods.period_counts`)
    are within `MAX_PERIODS`, and the sentence naming the ones left out ("" when none is). Without
    counts (dates that cannot be read) or with none within the limit, every period is offered:
    the watch then says what is wrong.

    >>> offered, why = period_choice({"M": 12, "W": 53, "D": 336})
    >>> offered, why[:60]
    (['M', 'W'], 'Not offered for these cases: days (the dates span 336 days w')
    """
    offered = [f for f in FREQS if counts.get(f, 0) <= MAX_PERIODS]
    left = [f for f in FREQS if f not in offered]
    if not left or not offered:
        return list(FREQS), ""
    names = " and ".join(f"{FREQS[f]}s" for f in left)
    spans = " and ".join(f"{number(counts[f], 0)} {FREQS[f]}s" for f in left)
    return offered, NOT_OFFERED.format(names=names, counts=spans, limit=MAX_PERIODS)
