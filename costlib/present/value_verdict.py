"""The Value page's one answer in words (`value_verdict`), from a `value.ValueRecommendation`:
what to ship, what it is worth per case and a month, against which choice without a model, and,
under a limit on the hand-overs, when the limit is why no confidence threshold is used.

Plain words first: the headline says "answering only when confident" and "confidence
threshold", never "reject option" or τ; the formula threshold k/(k+1) is named in the details
("Why not the formula threshold?"). It never recommends something worth less than the choice
without a model it is judged against (`ValueRecommendation.kept`), and when every choice loses
money it says so. Which prices it used, when the page's own were left at their defaults
(`unset_prices_clause`), and why Costs & groups can answer differently when the prices of the two
mistakes are lopsided (`lopsided_sentence`), are said with it.
"""

from __future__ import annotations

import math

import numpy as np

from costlib.binary import honest as H
from costlib.binary.folds import SPLITS
from costlib.core.escaping import shorten
from costlib.present.amounts import (
    beside_interval,
    cutoff_number,
    interval,
    money,
    number,
    per_case_and_month,
    percent,
    ratio_text,
)
from costlib.present.labels import whose_models
from costlib.present.page_answers import VALUE_BASELINES, value_rows
from costlib.present.value_limit_words import (
    SAME_PRICING,
    answer_limit_cost,
    gain_clause,
    limit_month,
    said_digits,
    shown_gain,
)
from costlib.present.value_words import BASELINE_WORDS, cancels_out
from costlib.present.words import Verdict, fitted_rows, split_sentence, verdict_head

LOPSIDED = 2.0  # a price of one mistake at least this many times the other's: the two pages can answer differently
LOSS_TOLERANCE = 1e-12  # a worth per case below -this loses money


def as_bad(k: float) -> str:
    """k in words: 'a wrong answer is 2.75 times as bad as a right one is good'; at 1 (as shown),
    'as bad as' without '1 times'; at 0, 'a wrong answer costs nothing', not '0 times as bad'.

    >>> as_bad(2.75), as_bad(1.0)
    ('a wrong answer is 2.75 times as bad as a right one is good', 'a wrong answer is as bad as a right one is good')
    >>> as_bad(0.0)
    'a wrong answer costs nothing'
    """
    shown = f"{k:.3g}"
    if shown == "0":
        return "a wrong answer costs nothing"
    return f"a wrong answer is {'' if shown == '1' else shown + ' times '}as bad as a right one is good"


def kept_kind(rec, *, loses: bool = False) -> str:
    """The colour of a verdict that does not ship the model's threshold (`rules.DO_NOT`): "info"
    when what it keeps is the model answering every case and that does not lose money, else
    "error". "Do not let the model decide which cases to hand over" is then an answer to use the
    model on every case, the best choice at these prices, not an alarm: in red it read as one
    (k = 0, where a wrong answer costs nothing). Handing every case to a person, or at random,
    keeps the model out and stays red, as does a choice that loses money (`loses`, or a worth kept
    below 0: at separate prices no caller said it, and a losing "answer every case" read blue).

    >>> from types import SimpleNamespace as R
    >>> kept_kind(R(kept=("answer everything", 0.66))), kept_kind(R(kept=("answer everything", -0.1)))
    ('info', 'error')
    >>> kept_kind(R(kept=("hand everything over", 0.0))), kept_kind(R(kept=None))
    ('error', 'error')
    """
    from costlib.value.recommendation import ANSWER_ALL

    kept = rec.kept
    loses = loses or (kept is not None and kept[1] < -LOSS_TOLERANCE)
    return "info" if kept is not None and kept[0] == ANSWER_ALL and not loses else "error"


def unset_prices_clause(
    *, worth: float, reject_worth: float, worth_default: float, reject_default: float, unit: str
) -> str:
    """Which of the page's own prices the answer used without the person setting them (left at
    their defaults), as one plain sentence; '' when both were set.

    >>> said = unset_prices_clause(worth=1, reject_worth=0, worth_default=1, reject_default=0, unit="$")
    >>> said.startswith("This is with a right answer worth $1.00 and a case handed over worth $0.00, the defaults")
    True
    >>> unset_prices_clause(worth=2, reject_worth=0.5, worth_default=1, reject_default=0, unit="$")
    ''
    """
    unset = []
    if worth == worth_default:
        unset.append(f"a right answer worth {money(worth, unit)}")
    if reject_worth == reject_default:
        unset.append(f"a case handed over worth {money(reject_worth, unit)}")
    if not unset:
        return ""
    which = "the defaults, which you have not changed" if len(unset) > 1 else "the default, which you have not changed"
    return f"This is with {' and '.join(unset)}, {which}."


def lopsided_sentence(*, c_fp: float, c_fn: float, k: float, moved: bool, unit: str) -> str | None:
    """Why Costs & groups can answer differently when one mistake's price is at least `LOPSIDED`
    times the other's (`c_fp`, `c_fn` the mean prices the page's k follows unless the slider
    `moved` it); None when they are not lopsided.

    >>> lopsided_sentence(c_fp=1, c_fn=3, k=2, moved=False, unit="$").split(":")[0]
    'Your prices are lopsided (a false negative costs 3 times a false positive)'
    >>> lopsided_sentence(c_fp=1, c_fn=1.5, k=1.25, moved=False, unit="$") is None
    True
    """
    if not (c_fp > 0 and c_fn > 0):
        return None
    ratio = c_fn / c_fp
    if LOPSIDED > ratio > 1 / LOPSIDED:
        return None
    dear, cheap = ("false negative", "false positive") if ratio >= 1 else ("false positive", "false negative")
    alike = (  # it said "at k = 2 times a right answer's worth", and a first-time reader does not know k
        f"so that {cancels_out(k)} (as you set the slider)"
        if moved
        else f"at their mean, {money((c_fp + c_fn) / 2, unit)}"
    )
    return (
        f"Your prices are lopsided (a {dear} costs {ratio_text(max(ratio, 1 / ratio))} times a {cheap}): this page "
        f"prices every wrong answer alike, {alike}, while Costs & groups prices each mistake on its own, so for the "
        "same data it can answer differently (“Separate prices per outcome” below prices them on their own here too)."
    )


def averaged_pricing(c_fp: float, c_fn: float, unit: str) -> str:
    """How the answer prices the two mistakes under a limit on the hand-overs when their prices
    differ: both at their average, said in the headline's sentence itself (a grey note was missed,
    and the worth read higher with the limit than without it at the other pricing).

    >>> averaged_pricing(1, 3, "$").split(" (")[0]
    'with both kinds of wrong answer priced at their average, $2.00'
    """
    return (
        f"with both kinds of wrong answer priced at their average, {money((c_fp + c_fn) / 2, unit)} (a limit on "
        f"hand-overs needs one price for both; without the limit, a false positive is priced at {money(c_fp, unit)} "
        f"and a false negative at {money(c_fn, unit)}, each on its own)"
    )


def without_limit_sentence(
    rec,
    *,
    worth: float,
    unit: str,
    volume: float,
    same_pricing: str = "",
) -> str:
    """What the limit costs what the page says to do (`value_limit_words.answer_limit_cost`: the choice the
    verdict keeps, or the threshold it ships), as one sentence of the headline: never a worth above
    the one it is compared with. With a split, the worth without the limit is said as the headline
    says its own (per case and a month, at its decimals: `value_limit_words.said_digits`), and the
    month less is the difference of the two months as shown (`value_limit_words.limit_month`, which
    the limit's box reads too): the headline's "$0.449 per case ($4,490 a month)" and "$0.457 per
    case ($4,570 a month)" beside it are $80 a month apart (review 73: "$75.00 a month
    less" had been read beside "$0.457" and "$0.449" alone, then beside a second, finer "$0.4494"
    for the headline's own worth).

    >>> from types import SimpleNamespace as R
    >>> rec = R(value=0.44903, estimate="test", kept=None, status="saves", judged_on="test",
    ...         baseline_value=0.415, gain_low=0.020, gain_high=0.049,
    ...         capacity=R(binding=True, unlimited=R(value=0.45653)))
    >>> said = without_limit_sentence(rec, worth=1.0, unit="$", volume=10_000)
    >>> said.split(" without the limit, ")[1]
    'worth $0.457 per case ($4,570 a month), on the test rows.'
    >>> said.split(" less ")[0]
    'That is $80 a month'
    """
    c = rec.capacity
    _, on_judged = value_rows(rec) if rec.judged_on == "test" else ("", "")
    on = f",{on_judged}" if on_judged else ""
    if not c.binding:
        return f"The limit does not bind: the answer is the same as without it{same_pricing}."
    cost = answer_limit_cost(rec)
    month = limit_month(rec, cost, worth=worth, volume=volume, unit=unit)  # the limit's box says the same
    if month is None:
        return f"The limit costs nothing here: the best answer without it{same_pricing} is worth no more{on}."
    # the two worths beside it when read on the same rows as the answer's (with a split; without one
    # the answer's is cross-fitted and the one without the limit is not, so only what it costs is said)
    than = f"the best answer without the limit{same_pricing}"
    if rec.estimate != H.CROSS_FITTED:  # beside the headline's worth (`cost.within`), as the headline says it
        at = {"digits": said_digits(rec, worth), "beside": (rec.gain_low * worth, rec.gain_high * worth)}
        without = per_case_and_month(cost.without * worth, volume, unit, **at)
        than = f"the best answer without the limit, worth {without}{same_pricing}"
    return f"That is {month} less than {than}{on}."


def _limit_words(rec, cap: float | None, volume: float | None) -> tuple[str, str]:
    """(the limit as words, 'within your limit of 200 hand-overs a month'; the share it lets people
    take as words, '200 cases (2%)'), or ('', '') without a limit."""
    c = rec.capacity
    if c is None:
        return "", ""
    if cap is not None:
        return (
            f"within your limit of {number(cap, 0)} hand-overs a month",
            f"{number(cap, 0)} cases a month ({percent(c.max_reject, 0)})",
        )
    return f"within your limit of {percent(c.max_reject, 0)} of the cases", percent(c.max_reject, 0)


def _limit_is_why(rec, volume: float | None, on_fit: str) -> str:
    """' The limit is why: without it, ...' when the limit binds and the answer without it uses a
    confidence threshold (not one that hands every case over or none); '' otherwise."""
    from costlib.core.ship import ADDS_NOTHING, NO_ANSWER

    c = rec.capacity
    if c is None or not c.binding or c.unlimited.status in (ADDS_NOTHING, NO_ANSWER):
        return ""
    many = f" ({c.unlimited_fit_reject_rate:.0%} of the cases)"
    if volume:
        many = f" {number(c.unlimited_fit_reject_rate * volume, 0)} cases a month"
    return f" The limit is why: without it, the best confidence threshold{on_fit} would hand over{many}."


def _loses(rec, worth: float) -> tuple[bool, bool]:
    """(every choice loses money on the judged rows, the recommended one loses least of them)."""
    best = rec.best_choice_value
    if not (worth > 0 and np.isfinite(best) and best < -LOSS_TOLERANCE):
        return False, False
    return True, bool(rec.kept_value >= best - LOSS_TOLERANCE * max(1.0, abs(best)))


def _formula_aside(rec, *, k: float, worth: float, unit: str, volume: float | None, cap: float | None) -> str | None:
    """Why not the threshold from prices alone (`rec.formula_tau`, (k + r)/(k + 1), as the chart at k
    marks it): with a split, how it came out on the test rows when better; under a limit it breaks,
    that it is not a choice there (no comparison)."""
    if rec.judged_on != "test" or not np.isfinite(rec.formula_value):
        return None
    tau_star = cutoff_number(rec.formula_tau)
    c = rec.capacity
    if c is not None and np.isfinite(c.formula_fit_reject_rate) and c.breaks(c.formula_fit_reject_rate):
        many = (
            f"{number(c.formula_fit_reject_rate * volume, 0)} cases a month"
            if volume
            else f"{c.formula_fit_reject_rate:.0%} of the cases"
        )
        people = f"the {number(cap, 0)} people can take" if cap is not None else "your limit"
        return (
            f"The threshold from prices alone, {tau_star}, is not a choice here: on {fitted_rows(rec)} it would "
            f"hand over {many}, more than {people}, so it is not compared."
        )
    # with a split only: without one the fitted threshold's worth is cross-fitted and τ*'s is read
    # on the same rows, so the two are not compared
    if rec.formula_value <= rec.value + 1e-12:
        return None
    better, f_low, f_high = (
        (x * worth) for x in (rec.formula_value - rec.value, rec.formula_gain_low, rec.formula_gain_high)
    )
    # the difference and its interval at one number of decimals, no more than the interval's width warrants
    d = beside_interval(better, f_low, f_high)
    f_iv = interval(f_low, f_high, unit, of="the difference", digits=d)
    shown = money(better, unit, digits=d)
    how = (  # a difference that reads as none at the interval's precision is not said as "$0.00 better"
        "about as good" if shown == money(0.0, unit) else f"{shown} per case better"
    )
    return (
        f"The threshold from prices alone, {tau_star}, came out {how} on the test rows"
        + (f" ({f_iv})" if f_iv else "")
        + f". The recommendation is the threshold fitted on {fitted_rows(rec)}: picking whichever looks best on "
        "the rows it is judged on would flatter it."
    )


def value_verdict(
    rec,
    *,
    k: float,
    worth: float = 1.0,
    unit: str = "",
    volume: float | None = None,
    cap: float | None = None,
    priced: str = "",
    notes: tuple[str, ...] = (),
    sample: bool = False,
    averaged: tuple[float, float] | None = None,
) -> Verdict:
    """The Value page's one answer (a `value.ValueRecommendation`), in money when a right answer
    has a worth (`worth` in `unit`), per case and per month (`volume` cases a month). `cap` is the
    limit on the hand-overs in cases a month, for its words (the share is ``rec.capacity``'s);
    `priced` (`unset_prices_clause`) ends the headline; `notes` (`lopsided_sentence`) follow the
    details; `sample`: the data is a built-in sample, whose models are not the reader's ("the best
    of the sample's 2 models", not "of your 2 models"). `averaged`: under a limit, the two differing
    prices (c_fp, c_fn) the answer prices at their average; the worth's sentence says so itself
    (`averaged_pricing`) and the headline ends comparing it with the best answer without
    the limit at that same pricing (`without_limit_sentence`), so a limit never reads as
    making the model worth more than without it."""
    from costlib.core import rules as R
    from costlib.core.ship import ADDS_NOTHING, NO_ANSWER, UNCLEAR, WORSE
    from costlib.value.recommendation import HAND_AT_RANDOM

    def cash(x: float, digits: int | None = None) -> str:  # with digits, cut to the gain's interval: a month at them
        return per_case_and_month(x * worth, volume, unit, digits=digits, beside=gain)

    gain = (rec.gain_low * worth, rec.gain_high * worth)

    limited = averaged is not None and rec.capacity is not None and rec.status != NO_ANSWER
    at_avg = f" {averaged_pricing(*averaged, unit)}" if limited else ""  # after the worth it prices

    def done(kind: str, head: str) -> Verdict:
        if limited:
            head += " " + without_limit_sentence(
                rec, worth=worth, unit=unit, volume=volume, same_pricing=f" {SAME_PRICING}"
            )
        return Verdict(kind, f"{defined(head)} {priced}".strip(), (*details, *notes), tuple(asides))

    base = VALUE_BASELINES[rec.baseline]
    many = len(rec.models) > 1
    on = f" on {fitted_rows(rec)}" if rec.judged_on == "test" else ""  # without a split every row picks it
    whose = whose_models(sample)
    who = f"{shorten(rec.model)} (the best of {whose} {len(rec.models)} models{on})" if many else "the model"
    aside = _formula_aside(rec, k=k, worth=worth, unit=unit, volume=volume, cap=cap)
    asides = [aside] if aside else []
    details = [
        split_sentence(rec.judged_on, float("nan"), rec.n_judged, rec.estimate, thing="threshold")
        if rec.judged_on == "all"
        else f"The threshold is fitted on {fitted_rows(rec)} and judged on the {number(rec.n_judged, 0)} test rows."
    ]
    head = verdict_head(R.verdict_of(rec.status))
    on_fit, on_judged = value_rows(rec)
    within, taken = _limit_words(rec, cap, volume)
    why = _limit_is_why(rec, volume, on_fit)
    every, least = _loses(rec, worth)
    when = within or f"when {as_bad(k)}"
    loss = ""  # after the worth of what the verdict keeps, or (": ...") after "Ship the model"
    if every:
        loss = f"; every choice{' within the limit' if within else ''} loses money" + (
            ", and this one loses least" if least else ""
        )
    if rec.status == NO_ANSWER:
        return done("error", f"{head}: there is not enough data to value it.")
    if rec.status == ADDS_NOTHING:
        choice, kept = rec.kept
        if rec.tau == math.inf:
            return done(
                "error",
                f"{head}: when {as_bad(k)}, every answer loses{on_fit}, so hand every case to a person, worth "
                f"{cash(kept)}{at_avg}. The model should not answer on its own at this price of a wrong answer.",
            )
        if choice == HAND_AT_RANDOM:
            return done(
                "error",
                f"{head} which cases to hand over: {within}, no confidence threshold{on_fit} does better than "
                f"handing {taken} to a person at random, so do that, worth {cash(kept)}{at_avg}{loss}.{why}",
            )
        if within and why:
            return done(
                kept_kind(rec, loses=every),
                f"{head} which cases to hand over: {within}, no confidence threshold{on_fit} does better than "
                f"letting {who} answer every case, so do that, worth {cash(kept)}{at_avg}{loss}.{why}",
            )
        # the action first: the model answering every case is the best choice, not a warning (`kept_kind`)
        return done(
            kept_kind(rec, loses=every),
            f"{head} which cases to hand over: let {who} answer every case, the best choice at these prices, worth "
            f"{cash(kept)}{at_avg}{loss}. Answering only when confident adds nothing {when}: the best confidence "
            f"threshold{on_fit} accepts every answer.",
        )
    if rec.status == WORSE:
        return done(
            kept_kind(rec, loses=every),
            # about which cases to hand over, as with a threshold that adds nothing: "Do not let the model
            # decide: ... so keep letting the model answer every case" read as both use it and do not
            f"{head} which cases to hand over: {when}, answering only when confident is worth no more than {base}, "
            f"{cash(rec.baseline_value)}{on_judged}{at_avg}, so keep {base}{loss}.{why}",
        )
    # the two worths subtract as read, and the gain's interval beside them reads at their decimals (no more
    # than its width warrants), their months at the precision those carry (`amounts.month_figure`)
    digits = said_digits(rec, worth)  # the gain's: the threshold ships, or might
    iv = interval(*gain, unit, digits=digits)
    against = f"against {cash(rec.baseline_value, digits)} for {base}"
    handed = f"{rec.reject_rate:.0%} of cases to a person"
    worth_text = cash(rec.value, digits) + at_avg
    if rec.status == UNCLEAR:
        because = f"the {iv} of the gain includes zero" if iv else "there is no interval to tell the gain from chance"
        return done(
            "warning",
            f"{head}: keep {base}{loss}. Letting {who} answer when its confidence is at least "
            f"{cutoff_number(rec.tau)} and handing the other {handed} would be worth {worth_text}, {against}, but "
            f"{because}.{why}",
        )
    lead = f"{head}: let"
    if every:
        lead = f"{head}: {loss[2:]}" + ("" if least else f", and this one loses less than {base}") + ". Let"
    return done(
        "success",
        f"{lead} {who} answer when its confidence is at least {cutoff_number(rec.tau)} and hand the other {handed}. "
        f"It is worth {worth_text}, {against}{gain_clause(rec, worth, unit, volume)}.",
    )


#: what the model's confidence is, said where it is first used (`value.predictions`: the
#: probability the model gives its own answer, max(p, 1 - p))
CONFIDENCE_SENTENCE = (
    "The model's confidence is the chance it gives its own answer: the larger of its chance that the case is "
    "positive and its chance that it is negative."
)


def defined(head: str) -> str:
    """`head`, followed by what confidence is (`CONFIDENCE_SENTENCE`) when it speaks of it."""
    return f"{head} {CONFIDENCE_SENTENCE}" if "confiden" in head else head


def _accepts(rec) -> str:
    """'answer positive when its confidence is at least 0.603 and negative when it is at least
    0.801': the two thresholds of a per-outcome recommendation, an answer never accepted said so."""
    said = []
    for answer, tau in (("positive", rec.tau_pos), ("negative", rec.tau_neg)):
        if np.isfinite(tau):
            said.append(f"“{answer}” when its confidence is at least {cutoff_number(tau)}")
    never = [a for a, t in (("positive", rec.tau_pos), ("negative", rec.tau_neg)) if not np.isfinite(t)]
    text = "answer " + " and ".join(said)
    if never:
        text += f" (never “{never[0]}”: at your prices it is not worth the risk)"
    return text


#: how the per-outcome answer is judged without a split (`value.per_outcome`: cross-fitted)
OUTCOME_CROSS_FITTED = (
    "No rows are set aside for testing: the two thresholds to ship are fitted on all {n} rows, and what they are "
    "worth is cross-fitted (each row judged by thresholds fitted on the other parts of the rows, averaged over "
    "up to {deals} ways of dealing the rows into parts), so picking them does not flatter them. The interval is the "
    "estimate give or take its 95% margin of error, which counts the rows' noise, how much one dealing of the parts "
    "moves it and how far the two thresholds fitted on all rows would move with another draw of the rows, read against "
    "every way of working without the thresholds, keeping the smallest gain."
)


def outcome_verdict(
    rec, *, worth: float = 1.0, unit: str = "", volume: float | None = None, priced: str = "", sample: bool = False
) -> Verdict:
    """The Value page's one answer at separate prices of the two mistakes (a
    `value.per_outcome.OutcomeRecommendation`), in the words of `value_verdict`: ship, not
    clearly better or do not, its worth per case and a month and its share handed over, all
    from the rule that prices each mistake on its own."""
    from costlib.core import rules as R
    from costlib.core.ship import ADDS_NOTHING, NO_ANSWER, UNCLEAR, WORSE

    def cash(x: float, digits: int | None = None) -> str:  # with digits, cut to the gain's interval: a month at them
        return per_case_and_month(x * worth, volume, unit, digits=digits, beside=gain)

    gain = (rec.gain_low * worth, rec.gain_high * worth)

    def done(kind: str, head_text: str) -> Verdict:
        return Verdict(kind, f"{defined(head_text)} {priced}".strip(), tuple(details))

    base = BASELINE_WORDS[rec.baseline]
    many = len(rec.models) > 1
    on = f" on {fitted_rows(rec)}" if rec.judged_on == "test" else ""
    who = (
        f"{shorten(rec.model)} (the best of {whose_models(sample)} {len(rec.models)} models{on})"
        if many
        else "the model"
    )
    details = [
        OUTCOME_CROSS_FITTED.format(n=number(rec.n_judged, 0), deals=SPLITS)
        if rec.judged_on == "all"
        else f"The thresholds are fitted on {fitted_rows(rec)} and judged on the {number(rec.n_judged, 0)} test rows."
    ]
    head = verdict_head(R.verdict_of(rec.status))
    on_fit, on_judged = value_rows(rec)
    if rec.status == NO_ANSWER:
        return done("error", f"{head}: there is not enough data to value it.")
    if rec.status == ADDS_NOTHING:
        choice, kept = rec.kept
        if rec.tau == math.inf:
            return done(
                "error",
                f"{head}: at your prices no answer of the model is worth its risk{on_fit}, so hand every case to a "
                f"person, worth {cash(kept)}.",
            )
        return done(
            kept_kind(rec),
            f"{head} which cases to hand over: let {who} answer every case, the best choice at your prices, worth "
            f"{cash(kept)}. Answering only when confident adds nothing: the best thresholds{on_fit} accept every "
            "answer.",
        )
    if rec.status == WORSE:
        return done(
            kept_kind(rec),
            f"{head} which cases to hand over: at your prices, answering only when confident is worth no more than "
            f"{base}, {cash(rec.baseline_value)}{on_judged}, so keep {base}.",
        )
    # the two worths subtract as read, and the gain's interval beside them reads at their decimals (no more
    # than its width warrants), their months at the precision those carry (`amounts.month_figure`)
    digits = shown_gain(rec, worth)[0]
    iv = interval(*gain, unit, digits=digits)
    against = f"against {cash(rec.baseline_value, digits)} for {base}"
    handed = f"{rec.reject_rate:.0%} of cases to a person"
    if rec.status == UNCLEAR:
        because = f"the {iv} of the gain includes zero" if iv else "there is no interval to tell the gain from chance"
        return done(
            "warning",
            f"{head}: keep {base}. Letting {who} {_accepts(rec)} and handing the other {handed} would be worth "
            f"{cash(rec.value, digits)}, {against}, but {because}.",
        )
    return done(
        "success",
        f"{head}: let {who} {_accepts(rec)}, and hand the other {handed}. It is worth {cash(rec.value, digits)}, "
        f"{against}{gain_clause(rec, worth, unit, volume)}.",
    )
