"""How much the prices matter, in words: which option is the answer at the stated prices and over
which price ratios it stays the answer (`sensitivity_sentence`), where the model can pay at all
(`break_even_words`), and whether a decision holds over the range of prices a reviewer's answers
allow (`answers_sentence` on Costs & groups, `bracket_verdict` on Find my prices). The pieces every
answer shares (cutoffs, ratios, verdict heads) are in `costlib.present.words`."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from costlib.core.escaping import shorten
from costlib.loading.messages import plural
from costlib.present.amounts import beside_interval, interval, money, per_case_and_month, ratio_text
from costlib.present.words import (
    BASELINE_WORDS,
    Verdict,
    cutoffs_short,
    ratio_between,
    recommendation_verdict,
    verdict_flips,
    verdict_head,
    verdict_kind,
)

MIDDLE = "the middle of the range on a ratio scale"  # where "Use these prices" sets a miss (the geometric mean)
MODEL_LEADS = (
    "Whether it is clearly cheaper than the choice without a model is the verdict above, which also counts the "
    "luck of picking the cutoff."
)
NO_MODEL_LEADS = "That is a choice without a model: at these prices the model is not worth using on {judged}."
MODEL_NOT_CLEARLY = (  # a whole sentence (it began "But not clearly cheaper ...": review 72)
    "It is not clearly cheaper than the choice without a model, though, once the luck of picking the cutoff is "
    "counted, so the verdict above keeps “{kept}”."
)
#: what the map compares, said where it names the cheapest option: per-group cutoffs are not on it
#: (review C, item 4: "the cheapest option ... is ... its best single cutoff" beneath a verdict that
#: ships per-group cutoffs read as a second answer)
MAP_OPTIONS = "a model at one cutoff for everyone, flagging nobody and flagging everyone"
#: the tail when the verdict ships per-group cutoffs, which the map leaves out: {gain} is what they
#: save over one cutoff for everyone, or against the choice without a model when that leads the map
PER_GROUP_SHIPPED = "The verdict above ships per-group cutoffs, which the map leaves out: they save {gain}."


def sensitivity_sentence(
    ratio_range: tuple[str, float, float],
    mean: tuple[float, float],
    unit: str = "",
    *,
    blended: bool = False,
    break_even: tuple[float, float] | None = None,
    model: str = "the model",
    judged: str = "the test rows",
    kept: str | None = None,
    rec=None,
) -> str:
    """Which option is the answer at the mean prices (`binary.sensitivity.sensitivity_grid`'s choice: the
    model cheapest on train, or the cheaper decision without a model on test) and over which
    c_fn : c_fp ratios it stays the answer; with `break_even` (`elicit.break_even_range` of
    `model` on its fitting rows), the exact ratios at which the model can pay at all. `judged`:
    the rows the options are compared on (`judged_rows`). `kept`: the choice without a model the
    verdict keeps (a rule of `rules.BASELINES`), None when the model ships; a model cheapest on
    these rows under a verdict that keeps that choice is said as not clearly cheaper (a reader
    saw two answers: the model cheapest here, flagging everyone above). The map holds one cutoff for
    everyone and the choices without a model (`MAP_OPTIONS`), and the sentence says so; with `rec`
    (the page's `decision.Recommendation`) shipping per-group cutoffs, it says that these are what
    the verdict ships and what they save (`PER_GROUP_SHIPPED`), instead of calling the map's
    cheapest option the answer."""
    from costlib.binary.sensitivity import RATIO_LIMITS
    from costlib.core import rules as R

    leader, lo, hi = ratio_range
    c_fp, c_fn = mean
    ratio = c_fn / c_fp if c_fp > 0 else math.inf
    baseline_leads = leader in R.BASELINES
    leader = f"“{R.rule_words(leader)}”" if baseline_leads else f"the model “{leader}” at its best single cutoff"
    low_edge, high_edge = lo <= RATIO_LIMITS[0] * (1 + 1e-9), hi >= RATIO_LIMITS[1] * (1 - 1e-9)
    if low_edge and high_edge:
        span = f"at every ratio from 1:{RATIO_LIMITS[1]:,.0f} to {RATIO_LIMITS[1]:,.0f}:1"
    elif high_edge:
        span = f"while a false negative costs at least {ratio_text(lo)} times a false positive"
    elif low_edge:
        span = f"while a false negative costs at most {ratio_text(hi)} times a false positive"
    else:
        span = "while " + ratio_between("a false negative", "a false positive", lo, hi)
    shown = ratio_text(ratio) if math.isfinite(ratio) else "infinitely many"
    which = f"your prices, averaged over the groups by their cases in {judged}" if blended else "your prices"
    head = (
        f"At {which} (a false negative costs {shown} times a false positive: "
        f"{money(c_fn, unit)} against {money(c_fp, unit)}), of the options the map compares ({MAP_OPTIONS}), the "
        f"cheapest on {judged} is {leader}; it stays the cheapest {span}."
    )
    tail = NO_MODEL_LEADS.format(judged=judged) if baseline_leads else MODEL_LEADS
    if kept is not None and not baseline_leads:
        tail = MODEL_NOT_CLEARLY.format(kept=R.rule_words(kept))
    per_group = _per_group_gain(rec, unit, over_baseline=baseline_leads)
    if per_group:
        tail = PER_GROUP_SHIPPED.format(gain=per_group)
    paying = "" if break_even is None else break_even_words(break_even, model)
    if paying.endswith(f"{span}."):  # the model's range on the same rows: said once
        paying = ""
    return " ".join(x for x in (head, tail, paying) if x)


def _per_group_gain(rec, unit: str, *, over_baseline: bool) -> str:
    """What the per-group cutoffs that `rec` ships save, with its 95% interval: over one cutoff for
    everyone (`rec.group_gain`), or, `over_baseline` (a choice without a model leads the map), against
    that choice (the verdict's saving); '' when `rec` does not ship per-group cutoffs."""
    from costlib.core import rules as R

    if rec is None or not (rec.ship_model and rec.grouped and rec.rule == R.COST_OPTIMAL):
        return ""
    if over_baseline or rec.group_gain is None:
        est, lo, hi = rec.saving, rec.saving_low, rec.saving_high
        than = f"against {BASELINE_WORDS.get(rec.baseline, rec.baseline)}"
    else:
        (est, lo, hi), than = rec.group_gain, "more than one cutoff for everyone"
    d = beside_interval(est, lo, hi)
    iv = interval(lo, hi, unit, digits=d)
    return f"{money(est, unit, digits=d)} per case {than}" + (f" ({iv})" if iv else "")


def break_even_words(break_even: tuple[float, float], model: str = "the model") -> str:
    """'On the train rows, where its cutoffs are fitted, “m” can beat both choices without a
    model only while a false negative costs between 0.45 and 12 times a false positive.'
    (exact: `elicit.break_even_range`)."""
    lo, hi = break_even
    shown = f"“{shorten(model)}”"
    if math.isnan(lo):
        return f"On the rows its cutoffs are fitted on, {shown} never beats both choices without a model."
    if not lo > 0 and not math.isfinite(hi):
        return f"On the rows its cutoffs are fitted on, {shown} can beat both choices without a model at any prices."
    return (
        f"On the rows its cutoffs are fitted on, {shown} can beat both choices without a model only while "
        + ratio_between("a false negative", "a false positive", lo, hi)
        + "."
    )


def middle_words(low: float, high: float, middle: float) -> str:
    """The middle of a range of ratios that the prices are set to, said as what it is: the middle on
    a ratio scale (a reader takes the middle of 32 to 1,000 for 516, not 179).

    >>> middle_words(32, 1000, 178.885)
    'the middle on a ratio scale, 179 (about 5.6 times 32, as 1,000 is about 5.6 times 179)'
    """
    shown = ratio_text(middle)
    if not (low > 0 and math.isfinite(high)) or shown in (ratio_text(low), ratio_text(high)):
        return f"the middle on a ratio scale, {shown}"
    times = f"{middle / low:,.2g}" if middle / low < 100 else f"{middle / low:,.0f}"
    return (
        f"the middle on a ratio scale, {shown} (about {times} times {ratio_text(low)}, as {ratio_text(high)} is "
        f"about {times} times {shown})"
    )


def answers_sentence(record: dict, table: pd.DataFrame, *, lowest_score: float | None = None, span=None) -> str:
    """Where the prices came from (Find my prices) and whether the decision holds over the
    range the answers allow: `table` is `elicit.pieces` over that range, `span` the verdicts
    over it (`robust.VerdictSpan`); a cutoff at or below `lowest_score` (the lowest fitted
    score) reads "flagging everyone". The decision is called robust only when both hold."""
    miss, alarm = record["outcomes"]["miss"], record["outcomes"]["false_alarm"]
    lo, hi = record["ratio_low"], record["ratio_high"]
    n = len(record["answers"])
    head = (
        f"Your prices come from {n} {plural(n, 'answer', 'answers')}: {ratio_between(miss, alarm, lo, hi)}, "
        f"and the prices take {middle_words(lo, hi, record['ratio_chosen'])}."
    )

    def cut(i: int) -> str:
        return flagging(table["threshold"].iloc[i], lowest_score)

    if len(table) == 1 and span is not None and not span.holds:
        return head + (
            f" Over that whole range the best cutoff is the same, {cut(0)}, but the verdict is not: "
            f"{verdict_flips(span)}."
        )
    if len(table) == 1:
        verdict = f", and the verdict (“{span.pieces[0][2]}”) are" if span is not None else ", is"
        return (
            head + f" Over that whole range the best cutoff, {cut(0)}{verdict} the same: the decision is robust to it."
        )
    first, last = cut(0), cut(-1)
    return head + (
        f" Within that range the best decision moves from {first} to {last}: it depends on where "
        "in it the truth lies (Find my prices says what a wrong guess costs)."
    )


def flagging(threshold: float, lowest_score: float | None = None) -> str:
    """A cutoff as what is done: 'flagging cases scoring 0.6032 or more', 'flagging everyone (no model
    needed)' (a cutoff at or below `lowest_score`, the lowest fitted score, too), 'flagging nobody (no
    model needed)'. Reads after "from", "to", "keep" and in brackets ("flag at ≥ 0.6032" did not).

    >>> flagging(0.6032), flagging(float("inf"))
    ('flagging cases scoring 0.6032 or more', 'flagging nobody (no model needed)')
    >>> flagging(0.1, lowest_score=0.2)
    'flagging everyone (no model needed)'
    """
    short = cutoffs_short({"": threshold}, grouped=False, lowest=None if lowest_score is None else {"": lowest_score})
    if short in ("everyone", "nobody"):
        return f"flagging {short} (no model needed)"
    if short == "none":
        return "no cutoff (none could be fitted)"
    return f"flagging cases scoring {short.removeprefix('≥ ')} or more"


def settled_kind(verdict: str | None) -> str:
    """How Find my prices shows a settled answer: "success" when the verdict there ships the model
    (or there is none), else "info". Settling is the questions' good end, never an error: "Any ratio
    from 4.6 to 5.7 gives the same decision: “Do not let the model decide”" in the red of a failure
    read as if the questions had gone wrong (review 71, item 9). Costs & groups colours that verdict.

    >>> settled_kind("ship the model"), settled_kind(None), settled_kind("do not let the model decide")
    ('success', 'success', 'info')
    """
    return "success" if verdict is None or verdict_kind(verdict) == "success" else "info"


def answers_said(bracket) -> tuple[str, ...]:
    """Each question answered so far and the answer given, in the words the buttons said them:
    "Question 2: Which is worse: 1 × a missed case, or 32 × a false alarm? You said: 32 × a false
    alarm is worse." The list under "Your answers" (review 71, item 9: the heading listed none)."""
    from costlib.binary import elicit
    from costlib.present.labels import ABOUT_SAME  # the button's own words

    said = []
    for i, (n, choice) in enumerate(bracket.answers, start=1):
        question, worse_miss, worse_alarm = elicit.question(bracket, n)
        answer = {elicit.MISS: worse_miss, elicit.ALARM: worse_alarm}.get(choice, ABOUT_SAME.lower())
        said.append(f"Question {i}: {question} You said: {answer}.")
    return tuple(said)


def bracket_verdict(
    bracket,
    table: pd.DataFrame,
    *,
    sweep,
    price: float,
    unit: str = "",
    volume: float | None = None,
    span=None,
    at_middle=None,
    sample: bool = False,
) -> Verdict:
    """What the answers so far mean for the decision (Find my prices): the bracket, the
    cutoffs in play, whether the verdict holds across it (`span`, a `robust.VerdictSpan`), and
    what choosing wrong would cost at its ends (the value of the next question).

    `at_middle` is the recommendation at the prices "Use these prices" sets (a false alarm at
    `price`, a miss at the bracket's middle on a ratio scale times it, one price for everyone, as
    `span` reads them). Once the answers settle, the box says what Costs & groups will then answer,
    in its words (`recommendation_verdict`: judged on rows the cutoff was not fitted on, with the
    interval), is coloured by that verdict, and names what to ship: the cutoff when the verdict
    ships the model, else the cheaper choice without it (not a cutoff the verdict does not ship).
    `sample`: the data is a built-in sample, whose models that answer names as the sample's.
    (This was `page_answers.bracket_verdict`; its cutoffs read "flag at ≥ 0.6032".)"""
    from costlib.binary import elicit
    from costlib.core import rules as R

    miss, alarm = bracket.names
    lo, hi = bracket.low, bracket.high

    def cut(t: float) -> str:
        return flagging(t, sweep.lowest_score)

    between = ratio_between(miss, alarm, lo, hi)
    ratios = table["ratio_high"].to_numpy()
    mid = int(min(np.searchsorted(ratios, bracket.middle), len(table) - 1))
    t_mid = table["threshold"].iloc[mid]
    middle_said = ()  # Costs & groups' answer at the middle's prices, when `span` agrees
    read = None if span is None else next((v for a, b, v in span.pieces if a <= bracket.middle <= b), None)
    if at_middle is not None and bracket.answers and at_middle.verdict == (read or at_middle.verdict):
        said = recommendation_verdict(at_middle, unit=unit, volume=volume, sample=sample)
        middle_said = (
            f"At {MIDDLE} ({alarm} at {money(price, unit)}, {miss} at {money(price * bracket.middle, unit)}: "
            f"{ratio_text(bracket.middle)} times as much), Costs & groups answers: {said.headline}",
        )
    if len(table) == 1 and (span is None or span.holds):
        verdict = span.pieces[0][2] if span is not None else None
        action = cut(t_mid)
        if verdict is not None and verdict != R.SHIP and at_middle is not None:
            action = f"keep {BASELINE_WORDS.get(at_middle.baseline, at_middle.baseline)}"
        said = f"“{verdict_head(verdict)}”, {action}" if verdict is not None else action
        head = (
            f"Any ratio from {ratio_text(lo)} to {ratio_text(hi)} gives the same decision: {said}. More precision "
            "would not change what you ship." + (" Use these prices." if bracket.answers else "")
        )
        kind = settled_kind(verdict)
        if not bracket.answers:
            return Verdict(kind, head)
        return Verdict(kind, head, (f"So far: {between}.", *middle_said))
    if len(table) == 1:
        head = (
            f"Any ratio from {ratio_text(lo)} to {ratio_text(hi)} gives the same cutoff, {cut(t_mid)}, but not "
            f"the same verdict: {verdict_flips(span)}. "
            + ("The next question narrows it down." if bracket.settled is None else "Settle the price with care.")
        )
        return Verdict("warning", head, (f"So far: {between}.",) if bracket.answers else ())
    moves = (
        f"Within this range the best decision moves through {len(table)} cutoffs, from "
        f"{cut(table['threshold'].iloc[0])} to {cut(table['threshold'].iloc[-1])}."
    )
    if not bracket.answers:
        return Verdict(
            "info",
            f"Before any answer the ratio could be anything from {ratio_text(lo)} to "
            f"{ratio_text(hi)}. Answer the question above.",
            (moves,),
        )
    ends = [elicit.regret(sweep, t_mid, r) * price for r in (lo, hi)]
    regrets = (
        f"The decision for {MIDDLE} is {cut(t_mid)}: if the truth is at the low end, it costs "
        f"{per_case_and_month(ends[0], volume, unit)} more than the best decision there, and at the high end "
        f"{per_case_and_month(ends[1], volume, unit)}."
    )
    if bracket.settled is not None:
        if middle_said and at_middle.verdict != R.SHIP:  # the one answer first; the cutoffs are what the model would do
            anyway = (
                f"Were the model used anyway, its cheapest cutoff would move through {len(table)} cutoffs within this "
                f"range, from {cut(table['threshold'].iloc[0])} to {cut(table['threshold'].iloc[-1])}."
            )
            return Verdict(settled_kind(at_middle.verdict), f"Settled: {between}. {middle_said[0]}", (anyway,))
        return Verdict(
            settled_kind(at_middle.verdict if middle_said else None),
            f"Settled: {between}. {moves}",
            (*middle_said, regrets),
        )
    return Verdict(
        "info",
        f"So far: {between}. {moves}",
        (regrets, f"The next question is worth up to {money(max(ends), unit)} per case: it halves the range."),
    )
