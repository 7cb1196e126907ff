"""How much the prices matter, in words: which option is the answer at the stated prices and over
which price ratios it stays the answer (`sensitivity_sentence`), where the model can pay at all
(`break_even_words`), and whether a decision holds over the range of prices a reviewer's answers
allow (`answers_sentence`, Find my prices). The pieces every answer shares (cutoffs, ratios, verdict
heads) are in `costlib.present.words`."""

from __future__ import annotations

import math

import pandas as pd

from costlib.core.escaping import shorten
from costlib.loading.messages import plural
from costlib.present.amounts import money, ratio_text
from costlib.present.words import cutoffs_short, ratio_between, verdict_flips

MODEL_LEADS = (
    "Whether it is clearly cheaper than the choice without a model is the verdict above, which also counts the "
    "luck of picking the cutoff."
)
NO_MODEL_LEADS = "That is a choice without a model: at these prices the model is not worth using on {judged}."
MODEL_NOT_CLEARLY = (
    "But not clearly cheaper than the choice without a model, once the luck of picking the cutoff is counted: so "
    "the verdict above keeps “{kept}”."
)


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
) -> str:
    """Which option is the answer at the mean prices (`binary.sensitivity.sensitivity_grid`'s choice: the
    model cheapest on train, or the cheaper decision without a model on test) and over which
    c_fn : c_fp ratios it stays the answer; with `break_even` (`elicit.break_even_range` of
    `model` on its fitting rows), the exact ratios at which the model can pay at all. `judged`:
    the rows the options are compared on (`judged_rows`). `kept`: the choice without a model the
    verdict keeps (a rule of `rules.BASELINES`), None when the model ships; a model cheapest on
    these rows under a verdict that keeps that choice is said as not clearly cheaper (a reader
    saw two answers: the model cheapest here, flagging everyone above)."""
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
        f"{money(c_fn, unit)} against {money(c_fp, unit)}), the cheapest option on {judged} is {leader}; it "
        f"stays the cheapest {span}."
    )
    tail = NO_MODEL_LEADS.format(judged=judged) if baseline_leads else MODEL_LEADS
    if kept is not None and not baseline_leads:
        tail = MODEL_NOT_CLEARLY.format(kept=R.rule_words(kept))
    paying = "" if break_even is None else break_even_words(break_even, model)
    if paying.endswith(f"{span}."):  # the model's range on the same rows: said once
        paying = ""
    return " ".join(x for x in (head, tail, paying) if x)


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


def answers_sentence(record: dict, table: pd.DataFrame, *, lowest_score: float | None = None, span=None) -> str:
    """Where the prices came from (Find my prices) and whether the decision holds over the
    range the answers allow: `table` is `elicit.pieces` over that range, `span` the verdicts
    over it (`robust.VerdictSpan`); a cutoff at or below `lowest_score` (the lowest fitted
    score) reads "everyone". The decision is called robust only when both hold."""
    miss, alarm = record["outcomes"]["miss"], record["outcomes"]["false_alarm"]
    lo, hi = record["ratio_low"], record["ratio_high"]
    n = len(record["answers"])
    head = (
        f"Your prices come from {n} {plural(n, 'answer', 'answers')}: {ratio_between(miss, alarm, lo, hi)} "
        f"(set to the middle, {ratio_text(record['ratio_chosen'])})."
    )
    lowest = None if lowest_score is None else {"": lowest_score}

    def cut(i: int) -> str:
        return cutoffs_short({"": table["threshold"].iloc[i]}, grouped=False, lowest=lowest)

    if len(table) == 1 and span is not None and not span.holds:
        return head + (
            f" Over that whole range the best cutoff is the same ({cut(0)}), but the verdict is not: "
            f"{verdict_flips(span)}."
        )
    if len(table) == 1:
        verdict = f" and the verdict (“{span.pieces[0][2]}”) are" if span is not None else " is"
        return (
            head + f" Over that whole range the best cutoff ({cut(0)}){verdict} the same: the decision is robust to it."
        )
    first, last = cut(0), cut(-1)
    return head + (
        f" Within that range the best cutoff moves from {first} to {last}: the decision depends on where "
        "in it the truth lies (Find my prices says what a wrong guess costs)."
    )
