"""Capacity in words: what a team that can review only so many cases a month is told, the same
on the Costs page, in the report, the policy and the command line.

Every sentence takes the recommendation within the cap (`decision.recommend` with
``capacity``), the one without it, and `capacity.PriceOfCapacity`; amounts are in the user's
unit, per month when a volume is known (else per case, and the cap as a share).
"""

from __future__ import annotations

import math

from costlib.core import rules as R
from costlib.core.escaping import shorten
from costlib.loading.messages import plural
from costlib.present.amounts import cap_words, cases_a_month, money, month_money, number, percent
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


def covers_all(cap_cases: float, volume: float) -> str:
    """What a limit of at least the whole volume means."""
    return (
        f"Your team can review {cases_a_month(cap_cases)}, at least the {cases_a_month(volume)} there "
        f"{plural(round(float(volume)), 'is', 'are')}: no limit applies."
    )


WITHOUT_LIMIT_NOTE = (
    "This section is about the answer without your review limit: which choice is cheapest at each pair of "
    "prices when any number of cases can be flagged."
)
ANSWERS_WITHOUT_LIMIT = "(What your answers say is about the cutoff without your review limit.)"
FAIR_WITHOUT_LIMIT = (
    " These cutoffs are fitted without your review limit: a rule whose price reads “over the limit” flags more "
    "cases than your team can review, so it has no price of fairness and no policy to download."
)
"""The fairness section's caption under a review limit; the marker is `tables.OVER_THE_LIMIT`, the
price cell of such a rule."""
X_AS_FLAGGED = "Read the x axis as cases flagged a month"
PRICE_TITLE = "The price of capacity"
PRICE_WHAT = (
    "The cheapest monthly cost reachable with each review capacity: one cutoff for everybody, on the rows the "
    "cutoffs are fitted on. Its slope is what one more reviewed case saves."
)


def cap_share(cap_cases: float | None, volume: float | None) -> float | None:
    """A cap in cases a month as a share of the cases (at most 1); None without a cap or a volume
    (Costs: cases reviewed; Value: cases handed over).

    >>> cap_share(400, 10_000), cap_share(20_000, 10_000), cap_share(400, 0)
    (0.04, 1.0, None)
    """
    if cap_cases is None or not volume or volume <= 0:
        return None
    return min(1.0, float(cap_cases) / float(volume))


def limit_in_force(cap_cases: float | None, volume: float | None) -> tuple[float | None, bool]:
    """(the review limit `cap_cases` as the share of the cases the answer reads, whether it
    covers every case). A limit of every case a month or more is no limit: its share is None,
    as it is without a limit or without a volume (`cap_share`).

    >>> limit_in_force(400, 10_000), limit_in_force(10_000, 10_000), limit_in_force(None, 10_000)
    ((0.04, False), (None, True), (None, False))
    >>> limit_in_force(400, 0)
    (None, False)
    """
    share = cap_share(cap_cases, volume)
    covers_all = share is not None and share >= 1
    return (None if covers_all else share), covers_all


def within_limit(overall, rule: str, capacity: float | None) -> bool:
    """Whether `rule` is judged (a row of `overall`, a `decision.RuleResults.overall`) and
    flags no more of the judged rows than the review limit `capacity` (a share, None: no limit)
    allows (`decision.over_capacity`): the choices without a model the cost chart draws, and the
    fairness rules whose policy Costs & groups offers."""
    from costlib.binary.decision import over_capacity

    return rule in overall.index and not over_capacity(overall, rule, capacity)


def cases(share: float, volume: float | None) -> str:
    """A share of the cases as the pages say it: '1,150 a month' with a volume, else '11.5% of cases'."""
    if volume:
        return f"{number(share * volume, 0)} a month"
    return f"{percent(share)} of cases"


def _amount(per_case: float, volume: float | None, unit: str) -> str:
    return f"{month_money(per_case * volume, unit)} a month" if volume else f"{money(per_case, unit)} per case"


ON_FITTED = " on the rows it is fitted on"
FITTED_ROWS = ON_FITTED + " (the rules table reads the judged rows)"
"""After the count the best cutoff without a limit flags (`capacity.Limit.unlimited_flagged`, a share of
the fitting rows): which rows it is read on, since the rules table's flagged share is the judged rows'
(review 71, item 6: "flags about 269 a month" beside the table's 2.0% of 10,000)."""


def within_sentence(rec, unlimited, limit, *, volume: float | None, unit: str = "") -> str:
    """The cap beside the unlimited optimum (`capacity.Limit`, decided on the fitting rows):
    "Your team can review 400 cases a month. Without a limit the best cutoff would flag about
    1,150 a month; within the limit, flag a case when its score is at least 0.71 (about 396 a
    month), which costs $X a month more than without a limit."."""
    if rec.capacity is None:
        return ""
    cap = cap_words(limit.share, volume)
    free_how = cutoffs_text(unlimited.cutoffs, grouped=unlimited.grouped, lowest=unlimited.lowest)
    free = cases(limit.unlimited_flagged, volume)
    if not limit.binding:
        out = (
            f"Your team can review {cap}. The best cutoff without a limit ({free_how}) flags about {free}"
            f"{FITTED_ROWS}, within that, so the limit costs the model nothing."
        )
    else:
        how = cutoffs_text(rec.cutoffs, grouped=rec.grouped, lowest=rec.lowest)
        extra = _amount(rec.cost - unlimited.cost, volume, unit)
        within = (
            "the model's best is to flag nobody (its highest scores come in blocks bigger than the limit, or "
            f"flagging them does not pay), which costs {extra} more than without a limit"
            if limit.within_flagged <= 0
            else f"{how} (about {cases(limit.within_flagged, volume)} on the rows it is fitted on, "
            f"{cases(limit.within_judged, volume)} on the judged rows: new cases will vary a little), which costs "
            f"{extra} more than without a limit"
        )
        out = (
            f"Your team can review {cap}. Without a limit the best cutoff ({free_how}) would flag about {free}"
            f"{FITTED_ROWS}; "
            f"within the limit, {within}."
        )
    if rec.rule == R.COST_OPTIMAL and rec.grouped:
        out += unflagged_words(limit, volume)
        if rec.capacity_gap > 1e-12 * max(1.0, abs(rec.cost)):
            out += (
                f" The best possible split of the limit between the groups is at most "
                f"{_amount(rec.capacity_gap, volume, unit)} cheaper on the fitting rows."
            )
    if rec.baseline == R.AT_RANDOM and unlimited.baseline == R.EVERYONE:
        out += (
            " Without a model you could not flag everyone within the limit, so the model is measured against "
            "flagging cases at random up to it."
        )
    return out


def _named(groups) -> str:
    """Group names as the sentences quote them: “A”, “B” (each shortened)."""
    return ", ".join(f"“{shorten(g)}”" for g in groups)


def unflagged_words(limit, volume: float | None) -> str:
    """How per-group cutoffs within a limit spend it and, for each group they flag nobody in, the
    reason the data gives (`capacity.unflagged`, on the fitting rows): a group left unflagged by a
    limit is a fairness fact, so it is never said that a flag saves more elsewhere when the cause is
    its tied scores (its top block alone bigger than the limit, or than what the other groups' flags
    leave of it) or that no cutoff for it pays within the limit.

    >>> from types import SimpleNamespace as N
    >>> unflagged_words(N(share=0.03, unflagged=(("A", "block", 113.0, 8.5, 3085.0),)), 10_000)[:78]
    ' Per-group cutoffs cannot flag anyone in “A” within this limit, whatever its p'
    """
    elsewhere = [u[0] for u in limit.unflagged if u[1] == "elsewhere"]
    out = ""
    if elsewhere or not limit.unflagged:
        out += " Per-group cutoffs spend the limit where a flag saves the most"
        out += (
            f", so {_named(elsewhere)} {'gets' if len(elsewhere) == 1 else 'get'} no flags at all."
            if elsewhere
            else "."
        )
    for g, why, block, room, total in limit.unflagged:
        top = (
            f"its highest score is shared by {number(block, 0)} of all {number(total, 0)} cases the cutoffs are "
            f"fitted on (about {cases(block / total, volume)})"
        )
        if why == "block":
            out += (
                f" Per-group cutoffs cannot flag anyone in {_named([g])} within this limit, whatever its prices: "
                f"{top}, more than the whole limit of {cap_words(limit.share, volume)}, and cases with the same "
                "score are flagged together or not at all."
            )
        elif why == "no_pay":
            out += f" {_named([g])} gets no flags at all: within the limit, no cutoff for it saves money at its prices."
        elif why == "left":
            rest = (
                "the other groups' flags take the whole limit"
                if room <= 1e-9 * total
                else f"what pays in it needs more than the {cases(room / total, volume)} the other groups' flags "
                "leave of the limit"
            )
            tie = f"; {top}, and cases with the same score are flagged together or not at all" if block > room else ""
            out += (
                f" {_named([g])} gets no flags at all, though a flag there would save more per case than in the other "
                f"groups: {rest}{tie}."
            )
    return out


def limit_sentences(rec, unlimited, limit, price, *, volume: float | None, unit: str = "") -> tuple[str, str]:
    """(`within_sentence`, `price_sentence`): what the page, the report and the command line say
    of a review limit."""
    return (
        within_sentence(rec, unlimited, limit, volume=volume, unit=unit),
        price_sentence(price, limit, volume=volume, unit=unit),
    )


#: what the figures of more capacity are the change of
AGAIN = "the model's best within the limit, as stated above, made again at that limit and judged the same way"


#: what a refit at a larger limit that comes out dearer on the judged rows is (`price_sentence`)
NO_CHEAPER = "comes out dearer on the judged rows, which is the luck of choosing cutoffs again, not a price of capacity"


def _more_words(saved: float, unit: str, per: str, *, many: bool = False) -> str:
    """What a step of more capacity does to the answer (`saved`, the change of its cost made again
    there, `capacity.Limit.more_saves` with ``change=True``): "saves about $X{per}", "leaves the
    answer as it is" (no change worth a cent) or "shows no measurable saving" (the answer made again
    comes out dearer on the rows it is judged on: that is the luck of choosing cutoffs, never a cost
    of capacity); the verbs agree with a plural subject when `many`."""
    s = "" if many else "s"
    if not math.isfinite(saved):
        return "cannot be told"
    if abs(saved) < 0.005:
        return f"leave{s} the model's answer as it is"
    if saved > 0:
        return f"save{s} about {money(saved, unit)}{per}"
    return f"show{s} no measurable saving"


def price_sentence(price, limit, *, volume: float | None, unit: str = "") -> str:
    """What more capacity is worth: "One more case a month that your team reviews leaves the
    model's answer as it is; 100 more save about $21,763 a month; beyond 7,974 a month, more
    capacity saves nothing." Each figure is the change of the model's answer within the limit
    (`capacity.Limit.more_saves`: the answer made again at that limit, judged as it is), so ties
    in blocks are included: a block of tied scores is flagged whole or not at all. An answer made
    again that comes out dearer on the judged rows shows no measurable saving (`NO_CHEAPER`), never
    a cost of capacity. Without a volume, per case for one more percent of the cases. Where
    capacity stops paying is read off the capacity curve of the fitting rows
    (`capacity.PriceOfCapacity`)."""
    enough = cases(price.enough, volume)
    if not limit.binding or price.share >= price.enough * (1 - 1e-12):
        return (
            f"Your limit already covers what the best cutoff flags (about {enough}{ON_FITTED}): more capacity saves "
            "nothing."
        )
    beyond = f"beyond about {enough} (where one cutoff for everybody stops saving), more capacity saves nothing."
    scale, steps = (volume, (1 / volume, 100 / volume)) if volume else (1.0, (0.01,))
    saved = [limit.more_saves(step, change=True) * scale for step in steps]
    again = f"({AGAIN}{', ' + NO_CHEAPER if any(x <= -0.005 for x in saved) else ''})"
    if volume:
        one = _more_words(saved[0], unit, " a month")
        hundred = _more_words(saved[1], unit, " a month", many=True)
        return f"One more case a month that your team reviews {one}; 100 more {hundred} {again}; {beyond}"
    return f"Reviewing one more percent of the cases {_more_words(saved[0], unit, ' per case')} {again}; {beyond}"
