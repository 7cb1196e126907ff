"""The watch report in words: one answer ("keep the cutoff" or "refit: since <month> ..."), the
same on the Watch page and the command line, and its table of periods."""

from __future__ import annotations

import math

import pandas as pd

from costlib.binary.capacity import cap_limit
from costlib.present.amounts import (
    beside_interval,
    interval,
    money,
    number,
    per_case_and_month,
    percent,
)
from costlib.present.watch_labels import (  # the what-to-ship sentences (`ship_words`), amounts a month
    FITS_HELP,
    MISCALIBRATED,
    NO_REFERENCE,
    NOT_CHOSEN_REFIT,
    NOT_CHOSEN_SHIFT,
    SHIP_NOTHING_WORDS,
    SHIP_REFIT_WORDS,
    SHIP_SHIFT_WORDS,
    month_at,
)
from costlib.present.watch_tables import how_measured, period_label
from costlib.present.words import Verdict, cutoffs_short, cutoffs_text
from costlib.watch.estimate import FAILS, HOLDS
from costlib.watch.periods import FREQS
from costlib.watch.reference import SHIFT_LEVEL
from costlib.watch.report import ASSUMPTION, MIN_PERIOD_CASES

WATCH_WHAT = (
    "Is the cutoff you shipped still the right one? Each month (or week, or day) of newer cases is judged against "
    "its own best cutoff: measured where the outcomes are known, estimated from the scores where they are not yet. "
    "An alert means a period's own best cutoff would have cost less than the shipped one by more than chance "
    "explains."
)


def honest(word: str) -> str:
    """Why a period's own best cutoff is not taken at its word (`word`: month, week or day)."""
    return (
        f"A {word}'s own best cutoff is picked with hindsight on that {word}'s cases, so on them it always looks at "
        f"least as good as the shipped one. What refitting would save is therefore judged on cases the cutoff was not "
        f"picked on (each case by a cutoff fitted on the {word}'s other cases): judged so, refitting can cost more "
        f"than it saves, and the table then says it would not have helped that {word}. The interval repeats that fit "
        f"on resampled cases."
    )


def _span(periods: list[dict]) -> str:
    names = [period_label(p["period"]) for p in periods]
    return names[0] if len(names) == 1 else f"{names[0]} to {names[-1]}"


def _ships(policy: dict, shipped: dict) -> str:
    cap, per_month = policy.get("capacity"), policy.get("capacity_cases_per_month")
    limit = ""
    if per_month is not None:
        limit = f", within a review limit of {number(per_month, 0)} cases a month"
    elif cap is not None:
        limit = f", within a review limit of {percent(cap)} of the cases"
    if policy.get("random_share") is not None:
        return f"The policy flags a random {percent(policy['random_share'])} of the cases, without the model{limit}."
    return f"The policy ships: {cutoffs_text(shipped, grouped=len(shipped) > 1)}{limit}."


def _p(x) -> str:
    """A test's p-value as a chance in words: "9%", "0.9%" (cut, never rounded up to the 1% level), "below 0.1%"."""
    if x is None or x < 0.001 or x > 0.99:
        return "–" if x is None else "below 0.1%" if x < 0.001 else "over 99%"
    return percent(x, 0) if x >= 0.01 else percent(x // 0.001 * 0.001, 1)


def _ls(p: dict) -> dict:
    return p["readings"]["label_shift"]


def _cal(p: dict) -> dict:
    return p["readings"]["calibrated"]


def _cases_to_label(p: dict) -> str:
    """How many of a period's cases without an outcome, drawn at random, tell the readings apart."""
    m, left = p.get("outcomes_to_tell"), p["n"] - p["labelled"]
    if m is None:
        return ""
    if m > left:
        return f"even the outcomes of all {number(left, 0)} of its cases without one would not tell the two apart"
    return (
        f"the outcomes of {number(m, 0)} of its cases drawn at random tell the two apart (from the share of "
        "positives among them, right 95% of the time)"
    )


#: the three answers to "what to ship" (`costlib.answers.watch.ship_choice` decides which)
CHOICE_KEEP, CHOICE_REFIT, CHOICE_SHIFT = "keep", "refit", "shift"


def as_saving(amount, low=None, high=None) -> tuple[bool, float | None, float | None, float | None]:
    """``(saves, size, low, high)``: a saving (`amount`, 95% interval `low` to `high`) as the words
    say it: saved (the same numbers) from zero up; below, a cost `-amount` more, the interval's signs
    turned: "costs $0.0054 more", never "saves −$0.0054" (the periods' table, ``costlib watch``, the refit).

    >>> as_saving(0.0058, -0.045, 0.016), as_saving(-0.0054, -0.05, 0.0092)
    ((True, 0.0058, -0.045, 0.016), (False, 0.0054, -0.0092, 0.05))
    """
    if amount is None or amount >= 0:
        return True, amount, low, high
    return False, -amount, None if high is None else -high, None if low is None else -low


def saving_said(amount, low, high, unit: str = "", *, line: bool = False) -> str:
    """A period's saving (`as_saving`) in its direction with its interval, at one number of decimals as the
    interval's width warrants (`amounts.beside_interval`): in the periods' table (`SAVES`) "costs $0.005 more
    (−$0.009 to $0.050)" ("–" without one), with `line` as ``costlib watch`` says it "would save $0.104 ..."."""
    saves, size, low, high = as_saving(amount, low, high)
    if size is None:
        return "would save – per case" if line else "–"
    d = beside_interval(size, low, high)
    iv = "" if low is None else f"{money(low, unit, digits=d)} to {money(high, unit, digits=d)}"
    iv = interval(low, high, unit, digits=d) if line and iv else iv
    return SAVING_WORDS[line, saves].format(money(size, unit, digits=d)) + (f" ({iv})" if iv else "")


#: a period's saving said (`saving_said`), by (on the command line, saved rather than costing more)
SAVING_WORDS = {
    (False, True): "saves {}",
    (False, False): "costs {} more",
    (True, True): "would save {} per case",
    (True, False): "would cost {} more per case",
}


def _over_shipped(amount, low, high, unit: str, volume) -> tuple[str, str]:
    """``(words, iv)``: what the refit does against keeping the shipped cutoff, as its sentences say it (`as_saving`):
    "saves $0.085 per case ($127.22 a month) over", " (95% interval of the saving $0.061 to $0.106 per case)"."""
    saves, size, low, high = as_saving(amount, low, high)
    d = beside_interval(size, low, high)  # the amount and its interval at one number of decimals
    iv = interval(low, high, unit, of="the saving" if saves else "how much more", digits=d)
    what = per_case_and_month(size, volume, unit, digits=d, beside=(low, high))  # a month at those decimals
    return (f"saves {what} over" if saves else f"costs {what} more than"), (f" ({iv} per case)" if iv else "")


def _shift_parts(p: dict, unit: str, volume) -> dict:
    """What the sentences say of a period's cutoff moved to its estimated base rate."""
    ls, cal = _ls(p), _cal(p)
    tell = _cases_to_label(p)
    d = beside_interval(p["regret_per_case"], *p["regret_interval"])  # at the decimals of "iv" (`_over_shipped`)
    return {
        "rule": cutoffs_text(cut_values(p["best_threshold"]), grouped=True),
        "period": period_label(p["period"]),
        "rate": percent(ls["base_rate"]),
        "other": percent(cal["base_rate"]),
        "amount": per_case_and_month(p["regret_per_case"], volume, unit, digits=d, beside=p["regret_interval"]),
        "iv": _over_shipped(p["regret_per_case"], *p["regret_interval"], unit, volume)[1],
        "label": f" Label a sample of {period_label(p['period'])}: {tell}." if tell else "",
    }


def _refit_parts(refit, cutoffs: dict, unit: str, volume) -> dict:
    """What the sentences say of the refit (`costlib.answers.watch.Refit`) and its `cutoffs`."""
    j = refit.judged
    effect, iv = _over_shipped(j.regret, j.low, j.high, unit, volume)
    return {"rule": cutoffs_text(cutoffs, grouped=True), "n": number(len(refit.frame), 0), "span": refit.span,
            "effect": effect, "iv": iv}  # fmt: skip


def ship_words(choice, *, unit: str = "", volume: float | None = None, freq: str = "M") -> tuple[str, ...]:
    """What to ship, in words: the one cutoff `choice` recommends (`costlib.answers.watch.ShipChoice`)
    and what it saves over keeping the shipped cutoff, per case and a month (`volume` cases), then
    the other candidate, said as the alternative not chosen and why; () when the answer is to keep
    the cutoff and there is no refit to speak of. The refit's saving is named apart from the
    headline's amount (each period, `freq`, against its own best cutoff): one cutoff for all its
    periods saves another amount."""
    said = []
    if choice.kind == CHOICE_REFIT:
        parts = _refit_parts(choice.refit, choice.cutoffs, unit, volume)
        saving = refit_saving(choice.refit.judged, unit=unit, volume=volume)
        said.append(SHIP_REFIT_WORDS.format(saving=saving, word=FREQS.get(freq, "period"), **parts))
    elif choice.kind == CHOICE_SHIFT:
        said.append(SHIP_SHIFT_WORDS.format(**_shift_parts(choice.period, unit, volume)))
    elif choice.refit is not None and choice.alternative == CHOICE_REFIT:
        said.append(SHIP_NOTHING_WORDS.format(**_refit_parts(choice.refit, choice.alternative_cutoffs, unit, volume)))
    if choice.kind != CHOICE_KEEP and choice.alternative == CHOICE_SHIFT:
        said.append(NOT_CHOSEN_SHIFT.format(**_shift_parts(choice.period, unit, volume)))
    elif choice.kind != CHOICE_KEEP and choice.alternative == CHOICE_REFIT:
        said.append(NOT_CHOSEN_REFIT.format(**_refit_parts(choice.refit, choice.alternative_cutoffs, unit, volume)))
    return tuple(said)


def cut_values(cuts: dict) -> dict:
    """A report's cutoffs (JSON: None for nobody, "-inf" for everyone) as numbers."""
    return {g: (math.inf if t is None else -math.inf if t == "-inf" else float(t)) for g, t in cuts.items()}


def alert_since(periods: list[dict]) -> list[dict]:
    """The periods the answer's "since" covers, by one rule for months, weeks and days: from the
    first alert after the latest period that cost no more than its own best cutoff (a regret at or
    below zero, or none) to the latest alert. A period between alerts that costs more within the
    noise does not end the drift: a week has a quarter of a month's cases, so it alerts less often
    on the same drift, and "within the noise" is not "as good". [] without an alert.

    >>> p = lambda regret, alert=False: {"regret_per_case": regret, "alert": alert}
    >>> ps = [p(-0.01, True), p(0.0), p(0.05), p(0.09, True), p(0.04), p(0.08, True), p(0.1)]
    >>> [ps.index(x) for x in alert_since(ps)]
    [3, 4, 5]
    """
    alerts = [i for i, p in enumerate(periods) if p["alert"]]
    if not alerts:
        return []
    first = alerts[-1]
    for i in range(alerts[-1], -1, -1):
        regret = periods[i]["regret_per_case"]
        if regret is None or regret <= 0:
            break
        if periods[i]["alert"]:
            first = i
    return periods[first : alerts[-1] + 1]


def watch_verdict(report: dict, *, unit: str = "", choice=None, volume: float | None = None) -> Verdict:
    """The one answer of a watch report (`costlib.watch.report.watch_report`), the same on the
    page and the command line. Amounts are per case (the regret per case, over the periods' cases),
    with an amount a month as the paragraph below says; "since" is the first alert of the
    drift `alert_since` finds, by one rule for every period. The answer names what it rests on:
    the outcomes, or the estimate from the scores (and its check).

    `choice` is what to ship once the refit is weighed (`costlib.answers.watch.ShipChoice`), None
    before: periods that cost more than their own best cutoffs say "Refit", unless `choice` keeps
    the cutoff because the refit saves within the noise (then the answer says keep, and why).

    Amounts come per case first; an amount a month beside them names the volume it is at (`month_at`): the
    person's `volume` (the page's sidebar), else the policy's cases a month (the command line: the volume its
    what-to-ship line is at too), else the file's own cases a period; none at a volume of 0, as what to ship.

    The first of the details is always what the policy ships now: the page shows it beneath the
    headline, before what to ship instead."""
    word = FREQS.get(report.get("freq", "M"), "period")
    shipped = cut_values(report["policy"]["cutoffs"])
    whose = "your" if volume is not None else "the policy's"
    volume = volume if volume is not None else report["policy"].get("volume")
    details = [_ships(report["policy"], shipped), honest(word)]
    small = [p for p in report["periods"] if p.get("too_few")]
    periods = [p for p in report["periods"] if not p.get("too_few")]  # the periods judged
    few = ""
    if small:
        few = " " + _too_few_sentence(small)
        details.append(TOO_FEW_WHY.format(word=word, least=number(MIN_PERIOD_CASES, 0)))
        if not periods:
            return Verdict(
                "warning",
                NONE_JUDGED.format(word=word, least=number(MIN_PERIOD_CASES, 0)) + few,
                tuple(details),
            )
    against = [p for p in periods if p.get("no_model")]
    if against:
        details.append(_no_model_sentence(against))
    estimated = [p for p in periods if not p["measured"]]
    ref = report.get("reference")
    if estimated and ref is None:
        details.append(NO_REFERENCE)
    elif estimated and ref.get("calibrated") is False:
        details.append(
            MISCALIBRATED.format(
                rows=number(ref["rows"], 0),
                p=_p(ref["calibration_p_value"]),
                mean=percent(ref["mean_score"]),
                base=percent(ref["base_rate"]),
            )
        )
    partly = [p for p in estimated if p["labelled"]]
    if partly:
        names = ", ".join(f"{period_label(p['period'])} ({percent(p['labelled'] / p['n'], 0)})" for p in partly[-3:])
        details.append(
            f"Outcomes are in for part of the cases of {names}: those count with their outcomes, the rest is estimated "
            "from the scores. If the outcomes of some kinds of case arrive later (a default takes months), the ones in "
            "are not yet a fair sample."
        )
    since = alert_since(periods)
    if estimated:
        saves = [p for p in estimated if p["regret_per_case"] is not None]
        about = ""  # an alert's headline says one amount: no second (weeks read $0.082 there and $0.085 here)
        if saves and not since:
            total = sum(p["regret_per_case"] * p["n"] for p in saves)
            per_case = total / sum(p["n"] for p in saves)
            saves_or = "save" if total >= 0 else "cost"  # never "save about −$39.76"
            more_word = "" if total >= 0 else " more"
            about = (
                f" For {_span(saves)}, moving the cutoff to each {word}'s estimated share of positive cases is "
                f"estimated to {saves_or} about {money(abs(per_case), unit)} per case{more_word}"
                f"{month_at(abs(per_case), saves, word, unit, volume, whose=whose)}, if that share moved."
            )
        details.append(f"{_span(estimated)}: {EST_WORDS} {ASSUMPTION}{about}")
    alerts = [p for p in periods if p["alert"]]
    measured = [p for p in periods if p["measured"]]
    if not alerts:
        if not estimated:
            return Verdict(
                "warning" if small else "success",
                f"Keep the cutoff: no {word} with outcomes costs more than its own best cutoff by more than chance "
                f"explains.{few}",
                tuple(details),
            )
        rest = (
            f"no {word} with outcomes costs more than its own best cutoff by more than chance explains, and the "
            f"scores of the "
            f"{word}s still without all their outcomes do not show it costing more either"
            if measured
            else f"the scores of the {word}s without outcomes do not show it costing more than it should, by more "
            "than chance explains"
        )
        return Verdict("warning", f"Keep the cutoff for now: {rest}; their outcomes will tell.{few}", tuple(details))
    failing = [p for p in since if p["alert"] and p.get("assumption") == FAILS]
    if failing:
        worst = min(failing, key=lambda p: p["assumption_p_value"] if p["assumption_p_value"] is not None else 1)
        tell, pv = _cases_to_label(worst), worst["assumption_p_value"]
        return Verdict(
            "error",
            f"Check the model: the scores of {_span(failing)} moved in a way a change in the share of positive "
            f"cases does not explain (a misfit this large turns up by chance {_p(pv)} of the time), so no estimate of "
            f"what the cutoff "
            f"costs there can be trusted: either the cases changed or the model itself did. Label some of their "
            f"cases to see{': ' + tell if tell else ''}.{few}",
            tuple(details),
        )
    first = since[0]
    size = sum(p["regret_per_case"] * p["n"] for p in since) / sum(p["n"] for p in since)
    per_case, monthly = money(size, unit), month_at(size, since, word, unit, volume, whose=whose)
    low, high = first["regret_interval"]
    d = beside_interval(first["regret_per_case"], low, high)  # the amount and its interval at one number of decimals
    iv = f", 95% interval {money(low, unit, digits=d)} to {money(high, unit, digits=d)}" if low is not None else ""
    head = f"{period_label(first['period'])}: {money(first['regret_per_case'], unit, digits=d)} per case more{iv}"
    more = _after_first(since, periods, word)
    guessed, keep = [p for p in since if not p["measured"]], False  # keep: the refit weighed, within the noise
    if guessed and len(guessed) == len(since):
        now, then = percent(guessed[-1].get("base_rate")), percent(report["policy"].get("base_rate"))
        headline = (
            f"Refit if the share of positive cases moved: since {period_label(first['period'])} the scores say "
            f"about {now} of the cases are positive (the policy was fitted where {then} were), and then the shipped "
            f"cutoff costs about {per_case} per case more{monthly} than the cutoff moved to that share, by more "
            f"than chance explains ({head}){more}. No outcomes confirm it yet."
        )
    else:
        basis = ""
        if guessed:
            known = [p for p in since if p["measured"]]
            basis = (
                f"; measured on outcomes to {period_label(known[-1]['period'])}, estimated from the scores "
                f"from {period_label(guessed[0]['period'])} on (if only the share of positive cases moved)"
            )
        keep = choice is not None and choice.kind == CHOICE_KEEP and choice.alternative == CHOICE_REFIT
        lead = KEEP_LEAD if keep else "Refit"
        headline = (
            f"{lead}: since {period_label(first['period'])} the shipped cutoff has cost about {per_case} per case more"
            f"{monthly} than each {word}'s own best cutoff would have, by more than chance explains ({head}){more}"
            f"{basis}"
            f"{KEEP_WHY.format(word=word) if keep else ''}."
        )
    alone = [p for p in since if p.get("no_model")]
    headline += (" " + _no_model_sentence(alone) if alone else "") + few
    return Verdict("warning" if keep else "error", headline, tuple(details))


def _after_first(since: list[dict], periods: list[dict], word: str) -> str:
    """What the headline says of the periods after the first alert it names: whether they alert
    too (some may cost more within the noise: `alert_since`), and the latest period when it is
    within the noise again."""
    after = len(since) - 1
    alerting = sum(bool(p["alert"]) for p in since[1:])
    more = f"; the {word} after it alerts too" if after == alerting == 1 else ""
    more = f"; the {after} {word}s after it alert too" if after == alerting > 1 else more
    more = AFTER_SOME.format(k=alerting, n=after, word=word) if alerting < after else more
    latest = periods[-1]
    if latest is not since[-1]:  # alerts earlier, but the latest period is within the noise again
        known = " with outcomes" if latest["measured"] else ""
        more += f"; the latest {word}{known} ({period_label(latest['period'])}) is within the noise again"
    return more


AFTER_SOME = "; {k} of the {n} {word}s after it alert too, and the others cost more within the noise"
KEEP_LEAD = "Keep the cutoff until more outcomes are in"
KEEP_WHY = (
    "; but each {word}'s own best cutoff is picked with hindsight, and a cutoff refitted on the cases with outcomes "
    "does not yet save more than chance explains on cases it was not fitted on"
)


TOO_FEW = "too few cases to judge: {n}"
TOO_FEW_WHY = (
    "A {word} is judged on at least {least} cases (those with outcomes, where they are all in): with fewer, its own "
    "best cutoff and what refitting would save are noise, so nothing is said of it."
)
NONE_JUDGED = "Nothing to judge yet: no {word} has the {least} cases a judgement needs."
NO_MODEL = {
    0.0: "every outcome is negative",
    1.0: "every outcome is positive",
}
NO_MODEL_ELSE = "too few outcomes of one kind to refit on"
NO_MODEL_WORDS = (
    "{names}: {what}, so the shipped cutoff is judged against the best one can do there without the model, "
    "{choice}, with the same 95% interval."
)
#: the choices without the model (`costlib.core.rules`) as the sentences say them
NO_MODEL_ACTS = {
    "flag nobody": "flagging nobody",
    "flag everyone": "flagging everyone",
    "flag at random": "flagging at random up to the review limit",
}


def no_model_act(p: dict) -> str:
    """What a period judged without the model is judged against: "flagging nobody"."""
    return NO_MODEL_ACTS.get(p["no_model"], str(p["no_model"]))


def cases_judged(p: dict) -> int:
    """The cases a period's judgement rests on: those with outcomes when it is measured, else all."""
    return p["labelled"] if p["measured"] else p["n"]


def too_few_text(p: dict) -> str:
    """What a period too small to judge says: "too few cases to judge: 3"."""
    return TOO_FEW.format(n=number(cases_judged(p), 0))


def _too_few_sentence(small: list[dict]) -> str:
    """The periods too small to judge, named: "2026-03: too few cases to judge: 1." (at most three)."""
    named = "; ".join(f"{period_label(p['period'])}: {too_few_text(p)}" for p in small[-3:])
    more = f" (and {len(small) - 3} earlier)" if len(small) > 3 else ""
    return f"{named[:1].upper()}{named[1:]}{more}."


def _no_model_sentence(against: list[dict]) -> str:
    """The periods judged against the choice without the model, and why (at most three named)."""
    parts = []
    for p in against[-3:]:
        what = NO_MODEL.get(p.get("base_rate"), NO_MODEL_ELSE)
        parts.append(NO_MODEL_WORDS.format(names=period_label(p["period"]), what=what, choice=no_model_act(p)))
    return " ".join(parts)


EST_WORDS = (
    "not all outcomes are in, so each is estimated from its scores (and the outcomes it has), and alerts when the "
    "whole 95% interval of what the cutoff moved to its estimated share of positive cases would save is above zero, "
    "or when its scores fit no change in that share."
)


OVER_LIMIT = " (over the review limit)"


def scores_check(p: dict) -> str:
    """Whether an estimated period's scores fit a change in the share of positive cases, in words."""
    if p["measured"]:
        return "–"
    if p.get("assumption") == FAILS:
        return f"no (by chance: {_p(p['assumption_p_value'])}): check the model"
    if p.get("assumption") == HOLDS:
        return f"yes (by chance: {_p(p['assumption_p_value'])})"
    return "not tested"


def _flagged(share, cap) -> str:
    if share is None:
        return "–"
    return percent(share) + (OVER_LIMIT if cap is not None and share > cap_limit(cap, 1.0) else "")


#: a period's share of positive cases, as the periods' and the readings' tables head it
POSITIVE = "% positive"
#: the readings table's short columns, drawn narrow so that all of them fit the page (a period as wide
#: as a week's name, "week of 2026-12-28": months, weeks and days share the table)
READINGS_NARROW = {
    c: {"width": w}
    for c, w in {"period": 130, "if": 135, POSITIVE: 80, "cost per case": 165, "best cutoff then": 115}.items()
}
#: the periods' table's column of what each period's own best cutoff does against the shipped one: a
#: heading that names no direction, as each cell says its own ("saves", "costs more") with the interval
#: of that direction (`saving_said`); as short as the old heading, so the table still fits at 1400 px
SAVES = "refitting saves per case (95% interval)"
#: a period where its own best cutoff, judged on cases it was not fitted on, saves nothing: said in plain words
NO_HELP = "would not have helped"
NO_HELP_COSTS = NO_HELP + " ({} more)"


def period_saving(p: dict, unit: str = "") -> str:
    """A period's cell of `SAVES`: what refitting would save (`saving_said`), `NO_HELP` where it saves nothing
    or costs more ("would not have helped ($0.17 more)"), `too_few_text` for a period not judged."""
    if p.get("too_few"):
        return too_few_text(p)
    regret = p["regret_per_case"]
    if regret is not None and regret <= 0:
        return NO_HELP if regret == 0 else NO_HELP_COSTS.format(money(-regret, unit))
    return saving_said(regret, *p["regret_interval"], unit)


FITS = "scores fit a % positive change"  # a change in the share of positive cases alone
READINGS_COLUMNS = {**READINGS_NARROW, FITS: {"help": FITS_HELP.format(level=f"{SHIFT_LEVEL:.0%}")}}


def watch_table(report: dict, unit: str = "") -> pd.DataFrame:
    """The periods as a person reads them: text cells, "–" where there is nothing to show."""
    rows = []
    for p in report["periods"]:
        cut = cutoffs_short_text(p["best_threshold"])
        save, too_few = period_saving(p, unit), p.get("too_few")  # a period not judged: its cost left out too
        rows.append(
            {
                "period": period_label(p["period"]),
                "cases": number(p["n"], 0),
                "how": how_measured(p),
                "cost per case": "–" if too_few or p["cost_per_case"] is None else money(p["cost_per_case"], unit),
                "flagged": _flagged(p.get("flagged_share"), p.get("capacity")),
                "its own best cutoff": cut,
                SAVES: save,
                POSITIVE: percent(p["base_rate"]) if p["base_rate"] is not None else "–",
                "alert": "yes" if p["alert"] else "no",
            }
        )
    return pd.DataFrame(rows)


#: the two readings of an estimated period, as the readings table names them
READINGS = {"label_shift": "% positive moved", "calibrated": "the cases changed"}


def watch_readings_table(report: dict, unit: str = "") -> pd.DataFrame | None:
    """The periods without all their outcomes, one row per reading of their scores (the share of
    positive cases moved: the cutoff moved to it; the cases changed under a calibrated model: the cutoff stays);
    None without any such period."""

    def cost(r):
        low, high = r["cost_interval"]
        iv = f" ({money(low, unit)} to {money(high, unit)})" if low is not None else ""
        return money(r["cost_per_case"], unit) + iv

    rows = []
    for p in report["periods"]:
        if p["measured"]:
            continue
        m, left = p.get("outcomes_to_tell"), p["n"] - p["labelled"]
        for key, reading in READINGS.items():
            r = p["readings"][key]
            rows.append(
                {
                    "period": period_label(p["period"]),
                    "if": reading,
                    POSITIVE: percent(r["base_rate"]),
                    "cost per case": cost(r),
                    "best cutoff then": cutoffs_short_text(r["refit_cutoffs"]),
                    FITS: scores_check(p),
                    "outcomes to label": "–"
                    if m is None
                    else f"more than {number(left, 0)}"
                    if m > left
                    else number(m, 0),
                }
            )
    return pd.DataFrame(rows) if rows else None


def cutoffs_short_text(best: dict) -> str:
    """A period's cutoffs in a table cell, as every rule's (`words.cutoffs_short`): "≥ 0.25", "nobody",
    or per group "a: ≥ 0.25 · b: nobody" (a policy's None is nobody, its "-inf" everyone)."""
    cuts = {g: math.inf if t is None else -math.inf if t == "-inf" else float(t) for g, t in best.items()}
    return cutoffs_short(cuts, grouped=True) or "–"


REFIT_SAVES = (
    "Refitting on them {effect} keeping the shipped cutoff{iv}, each case judged by a cutoff fitted on the others."
)
REFIT_NO_MODEL = " (there the refit is the best one can do without the model: {act})"


def refit_saving(judged, *, unit: str = "", volume: float | None = None) -> str:
    """What refitting on the refit's rows saves over keeping the shipped cutoff, per case and a
    month (`volume` cases), with its 95% interval when there is one; `judged` is the shipped
    policy's `watch.alerts.PeriodJudgement` on those rows (its regret: shipped minus the
    cross-fitted refit). "" when there is no honest refit to compare.

    >>> from types import SimpleNamespace as J
    >>> said = refit_saving(J(regret=0.086, low=0.061, high=0.106, no_model=None), unit="$", volume=1500)
    >>> said.startswith("Refitting on them saves $0.086 per case ($129 a month) over keeping the shipped cutoff")
    True
    >>> said.split(" over keeping the shipped cutoff ")[1]
    '(95% interval of the saving $0.061 to $0.106 per case), each case judged by a cutoff fitted on the others.'
    """
    if judged.regret is None or math.isnan(judged.regret):
        return ""
    effect, iv = _over_shipped(judged.regret, judged.low, judged.high, unit, volume)
    said = REFIT_SAVES.format(effect=effect, iv=iv)
    if judged.no_model:
        said = said[:-1] + REFIT_NO_MODEL.format(act=NO_MODEL_ACTS.get(judged.no_model, str(judged.no_model))) + "."
    return said
