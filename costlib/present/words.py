"""Plain-words sentences for people who set prices, not statistics.

Every page states in one sentence what its numbers mean for the decision (a `Verdict`: the
answer, the sentences under it and the asides folded away); the sentences are built here from
computed numbers so that tests can check them and pages stay thin. The amounts inside them
are formatted by `costlib.present.amounts`; user text is escaped where a sentence is drawn
(`costlib.core.escaping`). `money`, `percent`, `ratio_text`, `md_escape` and `WORD_JOINER`
are re-exported here: the pages read them as ``words.money``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib.core.escaping import WORD_JOINER, md_escape, shorten  # noqa: F401 (re-exported: pages and tests read words.md_escape)
from costlib.present.amounts import (  # percent and ratio_text are also re-exported: pages read words.percent
    cheaper_by,
    interval,
    money,
    number,
    per_case_and_month,
    percent,  # noqa: F401
    ratio_text,
)

# ---------------------------------------------------------------------------------------
# The recommendation, in words


@dataclass(frozen=True)
class Verdict:
    """What a page says about the decision: ``kind`` is the box ("success", "warning",
    "error"), ``headline`` the one answer, ``details`` the sentences under it."""

    kind: str
    headline: str
    details: tuple[str, ...] = ()
    asides: tuple[str, ...] = ()  # "why not another rule?": shown folded, not beside the answer


_BASELINE_WORDS = {
    "flag nobody": "flagging nobody",
    "flag everyone": "flagging everyone",
    "flag at random": "flagging cases at random up to your review limit",
}


def _cut(t: float) -> str:
    return f"{t:.4g}"


def cutoffs_text(cutoffs: dict, *, grouped: bool, verb: bool = True) -> str:
    """The rule in words: 'flag a case when its score is at least 0.323', 'flag nobody',
    or per group 'flag A at 0.62 or more, nobody in B and C at 0.32 or more' (`verb`
    False leaves out the leading 'flag')."""
    flag = "flag " if verb else ""
    values = list(cutoffs.values())
    same = all(t == values[0] or (math.isnan(t) and math.isnan(values[0])) for t in values)
    if not grouped or same:
        t = values[0] if values else float("nan")
        if math.isnan(t):
            return "no cutoff could be fitted"
        if t == math.inf:
            return flag + "nobody"
        if t == -math.inf:
            return flag + "everyone"
        return f"{flag}a case when its score is at least {_cut(t)}"
    parts = []
    for group, t in cutoffs.items():
        if math.isnan(t):
            parts.append(f"no cutoff for {shorten(group)}")
        elif t == math.inf:
            parts.append(f"nobody in {shorten(group)}")
        elif t == -math.inf:
            parts.append(f"everyone in {shorten(group)}")
        else:
            parts.append(f"{shorten(group)} at {_cut(t)} or more")
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return flag + joined


def cutoffs_short(cutoffs: dict, *, grouped: bool, lowest: dict | None = None) -> str:
    """A rule's cutoffs for a table cell: '≥ 0.323', 'nobody', 'everyone', 'A: ≥ 0.62 · B: nobody'.

    `lowest` ({group: lowest score on the fitting rows}) names a cutoff at or below a group's
    lowest score for what it is: everyone in that group is flagged.
    """

    def one(g, t: float) -> str:
        if math.isnan(t):
            return "none"
        if t == math.inf:
            return "nobody"
        if t == -math.inf or (lowest is not None and g in lowest and t <= lowest[g]):
            return "everyone"
        return f"≥ {_cut(t)}"

    items = list(cutoffs.items())
    if not items:
        return ""
    shown = [one(g, t) for g, t in items]
    if not grouped or all(x == shown[0] for x in shown):
        return shown[0]
    return " · ".join(f"{shorten(g)}: {x}" for (g, _), x in zip(items, shown, strict=True))


def ratio_between(worse: str, than: str, low: float, high: float) -> str:
    """A range of the price ratio in words: 'a miss costs between 2 and 5 times a false alarm'.

    An open end is said as such, never as "0" or "any":

    >>> ratio_between("a miss", "a false alarm", 2, 5)
    'a miss costs between 2 and 5 times a false alarm'
    >>> ratio_between("a miss", "a false alarm", 2, float("inf"))
    'a miss costs at least 2 times a false alarm'
    >>> ratio_between("a miss", "a false alarm", 0, 5)
    'a miss costs at most 5 times a false alarm'
    >>> ratio_between("a miss", "a false alarm", 0, float("inf"))
    'a miss costs any multiple of a false alarm'
    """
    open_low, open_high = not low > 0, not math.isfinite(high)
    if open_low and open_high:
        return f"{worse} costs any multiple of {than}"
    if open_high:
        return f"{worse} costs at least {ratio_text(low)} times {than}"
    if open_low:
        return f"{worse} costs at most {ratio_text(high)} times {than}"
    return f"{worse} costs between {ratio_text(low)} and {ratio_text(high)} times {than}"


def verdict_head(verdict: str) -> str:
    """The first words of every answer: one of the three verdicts (`rules.VERDICTS`), the same
    on every page, in the report, the policy and the command line.

    >>> verdict_head("not clearly better")
    'Not clearly better'
    """
    return verdict[:1].upper() + verdict[1:]


def verdict_kind(verdict: str) -> str:
    """How a verdict is shown: success (ship), warning (not clearly better) or error (do not)."""
    from costlib.core import rules as R

    return {R.SHIP: "success", R.NOT_CLEARLY: "warning"}.get(verdict, "error")


def split_sentence(judged_on: str, n_fit: float, n_judged: float, estimate: str = "test") -> str:
    """How the fitted cutoffs were judged, in one sentence (`honest.Honest.estimate`)."""
    from costlib.binary import honest as H

    if judged_on == "test":
        return (
            f"Cutoffs are fitted on the {number(n_fit, 0)} train rows and judged on the {number(n_judged, 0)} "
            "test rows; the interval repeats the fit on resampled train rows."
        )
    if estimate == H.CROSS_FITTED:
        return (
            f"This data has no train/test split: the cutoff to ship is fitted on all {number(n_judged, 0)} rows, "
            f"and what it costs is cross-fitted (each row judged by a cutoff fitted on the other "
            f"{H.FOLDS - 1} of {H.FOLDS} parts of the rows), so picking it does not flatter it. The interval "
            "refits the cutoff on each resample and judges it on the rows the resample left out."
        )
    return (
        f"This data has no train/test split, so cutoffs are fitted and judged on the same {number(n_judged, 0)} "
        "rows, which flatters the model. Map a split column on the Data page to avoid that."
    )


def pooled_sentence(pooled, minimum: int) -> str:
    """Which groups get the cutoff for everyone because they are too small for their own."""
    names = ", ".join(f"“{shorten(g)}”" for g in pooled[:8]) + (
        f" and {len(pooled) - 8} more" if len(pooled) > 8 else ""
    )
    return (
        f"{names} {'has' if len(pooled) == 1 else 'have'} fewer than {minimum} positives or {minimum} negatives "
        f"among {'its' if len(pooled) == 1 else 'their'} fit rows, so per-group cutoffs give "
        f"{'it' if len(pooled) == 1 else 'them'} the cutoff for everyone: a cutoff of "
        f"{'its' if len(pooled) == 1 else 'their'} own would be a guess from a handful of cases."
    )


def recommendation_verdict(rec, *, unit: str = "", volume: float | None = None) -> Verdict:
    """The one answer of a `decision.Recommendation`, for a product manager.

    Starts with its verdict (`verdict_head`); names the rule and its cutoff(s), what it costs per
    case and per month, and what it saves against the cheaper decision without a model, with
    the 95% interval; or says plainly why the model should not decide at these prices.
    """
    from costlib.binary import decision as D
    from costlib.core import rules as R

    base = _BASELINE_WORDS.get(rec.baseline, rec.baseline)
    models = rec.models
    who = "the model"
    if len(models) > 1:
        who = (
            f"“{shorten(rec.model)}” (the cheaper of your {len(models)} models on the train rows)"
            if rec.judged_on == "test"
            else f"“{shorten(rec.model)}” (the cheapest of your {len(models)} models)"
        )
    how = cutoffs_text(rec.cutoffs, grouped=rec.grouped)
    one_or_many = ""
    if rec.grouped:
        one_or_many = " with per-group cutoffs" if rec.rule == R.COST_OPTIMAL else " with one cutoff for everyone"
    saving_iv = interval(rec.saving_low, rec.saving_high, unit)
    base_cost = per_case_and_month(rec.baseline_cost, volume, unit)
    head = verdict_head(rec.verdict)
    kind = verdict_kind(rec.verdict)
    details = recommendation_details(rec, unit, volume)
    asides = recommendation_asides(rec, unit)
    if rec.status == D.NO_ANSWER:
        return Verdict(
            kind,
            f"{head}: no cutoff can be fitted on these rows (each group needs both outcomes on the train rows). "
            f"Keep {base}: {base_cost}.",
            details,
        )
    if rec.status == D.ADDS_NOTHING:
        action = {"flag nobody": "flags nobody", "flag everyone": "flags everybody"}.get(
            rec.no_model_action, "flags either everybody or nobody in each group"
        )
        return Verdict(
            kind,
            f"{head}: its cheapest cutoff on the train rows {action}, which needs no model. Keep {base}: {base_cost}.",
            details,
            asides,
        )
    if rec.status == D.WORSE:
        return Verdict(
            kind,
            f"{head}: its best cutoff ({how}) costs {per_case_and_month(rec.cost, volume, unit)} on the "
            f"{_judged(rec)} rows, {money(-rec.saving, unit)} per case more than {base} "
            f"({money(rec.baseline_cost, unit)} per case), which needs no model.",
            details,
            asides,
        )
    saving = per_case_and_month(rec.saving, volume, unit)
    cost = per_case_and_month(rec.cost, volume, unit)
    if rec.status == D.UNCLEAR:
        why = (
            f"the {saving_iv} includes zero, so the saving could be chance"
            if saving_iv
            else "there is no interval to tell it from chance"
        )
        return Verdict(
            kind,
            f"{head}: keep {base}, at {base_cost}. The best cutoff of {who} ({how}) would save {saving}, but {why}.",
            details,
            asides,
        )
    named = f" {who}" if len(models) > 1 else ""
    return Verdict(
        kind,
        f"{head}{named}{one_or_many}: {how}. It costs {cost} and saves {saving} against {base}, the cheaper choice "
        "without a model" + (f" ({saving_iv})." if saving_iv else "."),
        details,
        asides,
    )


def rule_verdict_sentence(rec, rule: str, unit: str = "") -> str:
    """The verdict of shipping `rule` rather than the recommendation (a policy that records a
    fairness-constrained rule), in one sentence that starts with the verdict."""
    from costlib.binary.decision import rule_verdict
    from costlib.core import rules as R

    verdict, saving, low, high = rule_verdict(rec, rule)
    base = _BASELINE_WORDS.get(rec.baseline, rec.baseline)
    iv = interval(low, high, unit)
    tiny = abs(saving) <= 1e-9 * max(1.0, abs(rec.baseline_cost))
    what = (
        f"the rule “{R.rule_words(rule)}” costs the same as {base}, which needs no model"
        if tiny
        else f"the rule “{R.rule_words(rule)}” saves {money(saving, unit)} per case against {base}"
        if saving > 0
        else f"the rule “{R.rule_words(rule)}” costs {money(-saving, unit)} per case more than {base}"
    )
    iv = "" if tiny else iv
    return f"{verdict_head(verdict)}: {what} on the {_judged(rec)} rows" + (f" ({iv})." if iv else ".")


def _judged(rec) -> str:
    from costlib.binary import honest as H

    if rec.judged_on == "test":
        return "test"
    return "cross-fitted" if rec.estimate == H.CROSS_FITTED else "same"


def recommendation_details(rec, unit: str, volume: float | None) -> tuple[str, ...]:
    from costlib.binary import honest as H
    from costlib.core import rules as R

    out = []
    if rec.grouped and rec.group_gain is not None:
        est, lo, hi = rec.group_gain
        per_group = rec.results.cutoffs.get(R.COST_OPTIMAL, {})
        iv = interval(lo, hi, unit)
        iv = f" ({iv})" if iv else ""
        if rec.rule == R.COST_OPTIMAL:
            out.append(
                f"Per-group cutoffs save {money(est, unit)} per case over one cutoff for everyone{iv}. They "
                "treat groups differently by design: read the fairness section before shipping them."
            )
        elif per_group and all(t == rec.cutoffs.get(g) for g, t in per_group.items()):
            out.append(
                "Fitting each group on its own gives every group this same cutoff, so per-group cutoffs "
                "would change nothing."
            )
        else:
            if est > 0:
                gain, than = f"would save {money(est, unit)} per case{iv}", "not clearly cheaper than"
            else:  # the interval of how much more they cost: its signs agree with the words
                more = interval(-hi, -lo, unit, of="the extra cost")
                more = f" ({more})" if more else ""
                gain = f"would cost {money(-est, unit)} per case more{more}"
                than = "dearer than" if hi < 0 else "not clearly cheaper than"
            # what follows for the answer: not "one cutoff is recommended" when the verdict ships no model
            then = "so one cutoff for everyone is recommended" if rec.ship_model else "so they do not change the answer"
            shown = cutoffs_short(per_group, grouped=True, lowest=rec.lowest)
            out.append(
                f"Per-group cutoffs ({shown}) {gain}: {than} one cutoff for everyone, {then}. Per-group "
                "cutoffs would treat groups differently."
            )
    if rec.pooled:
        out.append(pooled_sentence(rec.pooled, H.MIN_CLASS_ROWS))
    if not rec.intervals:
        out.append(
            "No intervals: the rows carry weights, and resampling weighted rows is not supported yet, so the "
            "model is at best not clearly better."
            if rec.weighted
            else "No intervals were asked for (0 resamples), so the model is at best not clearly better."
        )
    out.append(split_sentence(rec.judged_on, rec.n_fit, rec.n_judged, rec.estimate))
    return tuple(out)


def recommendation_asides(rec, unit: str) -> tuple[str, ...]:
    """Rules that came out cheaper than the recommended one on the judged rows, and why the
    recommendation stays (shown folded under the answer, never beside it)."""
    from costlib.core import rules as R

    out = []
    for rule, est, lo, hi in rec.cheaper_by_chance[:3]:
        noise = lo is not None and hi is not None and lo <= 0 <= hi  # NaN bounds (no interval) compare False
        out.append(
            f"“{R.rule_words(rule)}” came out {cheaper_by(est, lo, hi, unit)} on the {_judged(rec)} rows"
            + ". Picking whichever rule looks cheapest on the rows it is judged on would flatter it; the "
            "recommendation is the cutoff fitted on the train rows"
            + (", and the difference is within the noise." if noise else ".")
        )
    return tuple(out)


# ---------------------------------------------------------------------------------------
# The other pages' answers: Value, Calibration, Cost matrix, Instance costs, Find my prices


# the Value page's choices without a model (`value.recommendation`'s baselines), as the answer says them
VALUE_BASELINES = {
    "hand everything over": "handing every case to a person",
    "answer everything": "letting the model answer every case",
    "hand over at random": "handing cases to a person at random, up to what people can take",
}


def value_recommendation_verdict(
    rec, *, k: float, worth: float = 1.0, unit: str = "", volume: float | None = None
) -> Verdict:
    """The Value page's one answer (a `value.ValueRecommendation`), in money when a right
    answer has a worth (`worth` in `unit`), per case and per month."""
    from costlib.binary import decision as D
    from costlib.core import rules as R

    def cash(x: float) -> str:
        return per_case_and_month(x * worth, volume, unit)

    base = VALUE_BASELINES[rec.baseline]
    many = len(rec.models) > 1
    who = f"{shorten(rec.model)} (the best of your {len(rec.models)} models on the train rows)" if many else "the model"
    iv = interval(rec.gain_low * worth, rec.gain_high * worth, unit)
    asides = []
    if np.isfinite(rec.formula_value) and rec.formula_value > rec.value + 1e-12:
        f_iv = interval(rec.formula_gain_low * worth, rec.formula_gain_high * worth, unit, of="the difference")
        asides.append(
            f"The formula threshold τ* = k/(k+1) = {k / (k + 1):.3f} came out "
            f"{money((rec.formula_value - rec.value) * worth, unit)} per case better on the test rows"
            + (f" ({f_iv})" if f_iv else "")
            + ". The recommendation is the threshold fitted on the train rows: picking whichever looks best on "
            "the rows it is judged on would flatter it."
        )
    details = [
        split_sentence(rec.judged_on, float("nan"), rec.n_judged)
        if rec.judged_on == "all"
        else f"The threshold is fitted on the train rows and judged on the {number(rec.n_judged, 0)} test rows."
    ]
    head = verdict_head(R.verdict_of(rec.status))
    if rec.status == D.NO_ANSWER:
        return Verdict("error", f"{head}: there is not enough data to value it.", tuple(details), tuple(asides))
    if rec.status == D.ADDS_NOTHING:
        if rec.tau == math.inf:
            head = (
                f"{head}: at k = {k:.3g} every answer loses on the train rows, so hand every case to a person "
                f"({cash(rec.kept[1])}). The model should not answer on its own at this price of a "
                "wrong answer."
            )
            return Verdict("error", head, tuple(details), tuple(asides))
        head = (
            f"{head} which cases to hand over: at k = {k:.3g} the reject option adds nothing (the best threshold on "
            f"the train rows accepts every answer), so let {who} answer every case ({cash(rec.kept[1])})."
        )
        return Verdict("error", head, tuple(details), tuple(asides))
    if rec.status == D.WORSE:
        head = (
            f"{head}: at k = {k:.3g} answering only when confident is worth no more than {base} "
            f"({cash(rec.baseline_value)}) on the test rows, so keep {base}."
        )
        return Verdict("error", head, tuple(details), tuple(asides))
    against = f"against {cash(rec.baseline_value)} for {base}"
    handed = f"{rec.reject_rate:.0%} of cases to a person"
    if rec.status == D.UNCLEAR:
        why = f"the {iv} of the gain includes zero" if iv else "there is no interval to tell the gain from chance"
        head = (
            f"{head}: keep {base}. Letting {who} answer when its confidence is at least {rec.tau:.3f} and "
            f"handing the other {handed} would be worth {cash(rec.value)}, {against}, but {why}."
        )
        return Verdict("warning", head, tuple(details), tuple(asides))
    head = (
        f"{head}: let {who} answer when its confidence is at least {rec.tau:.3f} and hand the other {handed}. "
        f"It is worth {cash(rec.value)}, {against}" + (f" ({iv} of the gain)." if iv else ".")
    )
    return Verdict("success", head, tuple(details), tuple(asides))


def calibration_verdict(
    model: str,
    temperature: float,
    fit_on: str,
    ece_before: float,
    ece_after: float,
    *,
    ece_chance: float = float("nan"),
) -> Verdict:
    """Whether to rescale a model's probabilities, in words (the Calibration page's answer),
    from the one test (`calibration.calibration_advice`: the error against what chance gives).

    `ece_chance` (`calibration.ece_by_chance`) is the ECE a calibrated model would show on
    these rows by chance: a model is called miscalibrated only above it (and above 0.05).
    """
    from costlib import calibration as C

    advice = C.calibration_advice(temperature, ece_before, ece_after, ece_chance)
    model = shorten(model)
    noise = "" if math.isnan(ece_chance) else f"; a calibrated model would show up to {ece_chance:.3f} by chance"
    if advice == C.NO_FIT:
        return Verdict(
            "warning",
            f"No temperature can be fitted for {model} on the {fit_on} rows: its scores carry "
            "no information a rescaling could sharpen or soften (all equal, one outcome only, or "
            "ranked backwards). Keep the probabilities as they are, and check the scores.",
        )
    if advice == C.CANNOT_FIX:
        return Verdict(
            "warning",
            f"{model} is not calibrated (expected calibration error {ece_before:.3f} on the judged rows{noise}), "
            "but one "
            f"temperature cannot fix it: the best fit on the {fit_on} rows is T = {temperature:.3f}, which changes "
            "almost nothing. Its probabilities are off in a way that rescaling does not correct (for example too "
            "high everywhere): do not trust the formula cutoffs for it; the cutoffs fitted on data do not need "
            "calibration.",
        )
    if abs(math.log(temperature)) < 0.05:
        direction = "close to calibrated already (T is within 5% of 1)"
    elif temperature > 1:
        direction = "overconfident: the fit softens its probabilities"
    else:
        direction = "underconfident: the fit sharpens its probabilities"
    head = (
        f"T = {temperature:.3f} (fitted on the {fit_on} rows): {model} is {direction}. The expected calibration "
        f"error on the judged rows goes from {ece_before:.3f} to {ece_after:.3f}{noise}."
    )
    return Verdict(
        "success" if advice == C.RESCALE else "info" if advice == C.KEEP else "warning",
        head + " " + calibration_advice_sentence(advice),
    )


def calibration_advice_sentence(advice: str) -> str:
    """The advice of `calibration.calibration_advice` in one sentence (the same on every page)."""
    from costlib import calibration as C

    return {
        C.RESCALE: "Use the rescaled probabilities wherever a formula threshold (c_fp/(c_fp+c_fn) or τ* = k/(k+1)) "
        "is applied.",
        C.KEEP: "Its calibration error is within what chance gives a calibrated model here: keep the original "
        "probabilities.",
        C.NOT_HELPING: "Temperature scaling does not help on these rows: keep the original probabilities.",
        C.CANNOT_FIX: "One temperature cannot fix its probabilities: do not trust the formula cutoffs for it; the "
        "cutoffs fitted on data do not need calibration.",
        C.NO_FIT: "No temperature can be fitted: keep the probabilities as they are, and check the scores.",
    }[advice]


def _handed_over(rec) -> str:
    """How many of the judged cases a policy with the hand-over option hands to a person, as a
    sentence ("" for a policy without it), in counts (a share rounded to 100% or 0% would say
    all or none where it is not): at a high price of handing over it hands none, and is then the
    cheapest decision under another name."""
    from costlib.multiclass import CHEAPEST_OR_ABSTAIN

    if rec.policy != CHEAPEST_OR_ABSTAIN:
        return ""
    chosen = rec.decisions[rec.policy]
    handed, n = int(np.count_nonzero(chosen < 0)), int(chosen.size)
    if handed == 0:
        return " At this price of handing over it hands no case to a person."
    return f" It hands {handed:,} of the {n:,} cases to a person."


def matrix_verdict(rec, *, unit: str = "", volume: float | None = None) -> Verdict:
    """The Cost matrix page's one answer (a `multiclass.MatrixRecommendation`)."""
    from costlib.core import rules as R

    iv = interval(rec.saving_low, rec.saving_high, unit)
    details = []
    for other, est, lo, hi in rec.cheaper_by_chance:
        details.append(
            f"On the test rows “{other}” came out {cheaper_by(est, lo, hi, unit)}"
            + ": the recommendation stays the decision the prices ask for under the model's "
            "probabilities, which does not depend on which rows it is judged on."
        )
    if rec.saving <= 1e-12 * max(1.0, abs(rec.baseline_cost)):
        head = (
            f"{verdict_head(R.DO_NOT)}: at these prices its best policy (“{rec.policy}”, {money(rec.cost, unit)} "
            f"per case) is no cheaper than “{rec.baseline}” ({per_case_and_month(rec.baseline_cost, volume, unit)}), "
            "which needs no model."
        )
        return Verdict("error", head, tuple(details))
    cost, saving = per_case_and_month(rec.cost, volume, unit), per_case_and_month(rec.saving, volume, unit)
    against = f"against “{rec.baseline}”, the cheapest choice without a model"
    if not iv or rec.saving_low <= 0:
        why = f"the {iv} includes zero" if iv else "there is no interval to tell it from chance"
        head = (
            f"{verdict_head(R.NOT_CLEARLY)}: keep “{rec.baseline}”. The policy “{rec.policy}” would cost {cost} "
            f"and save {saving} {against}, but {why}.{_handed_over(rec)}"
        )
        return Verdict("warning", head, tuple(details))
    head = f"{verdict_head(R.SHIP)}: ship “{rec.policy}”. It costs {cost} and saves {saving} {against} ({iv})."
    return Verdict("success", head + _handed_over(rec), tuple(details))


def nec_verdict(rec) -> Verdict:
    """The Instance costs page's one answer (an `instance.NecRecommendation`)."""
    from costlib.binary import decision as D
    from costlib.core import rules as R

    base = _BASELINE_WORDS.get(rec.baseline, rec.baseline)
    iv = interval(rec.saving_low, rec.saving_high, of="the difference")
    ratio = rec.error_rate / rec.nec if rec.nec > 0 else float("nan")
    where = (
        "its mistakes sit on ambiguous, cheap cases"
        if ratio > 1
        else "its mistakes sit on clear-cut, expensive cases"
        if ratio < 1
        else "its mistakes are of average price"
    )
    fitted = "fitted on the train rows" if rec.judged_on == "test" else "fitted and judged on the same rows"
    if rec.status in (D.ADDS_NOTHING, D.WORSE, D.NO_ANSWER):
        return Verdict(
            "error",
            f"{verdict_head(R.DO_NOT)}: no cutoff of {shorten(rec.model)} beats {base} in NEC "
            f"({rec.baseline_nec:.3f}), weighted by each case's own price.",
        )
    unclear = rec.status == D.UNCLEAR or not iv or rec.saving_low <= 0
    how = (
        f"flag a case when {shorten(rec.model)}'s score is at least {rec.threshold:.4g} ({fitted}): NEC {rec.nec:.3f} "
        f"against {rec.baseline_nec:.3f} for {base}, the cheaper choice without a model"
        + (f" ({iv})" if iv else "")
        + f". Its error rate is {rec.error_rate:.3f} (ratio {ratio:.2f}): {where}."
    )
    if unclear:
        return Verdict("warning", f"{verdict_head(R.NOT_CLEARLY)}: keep {base}. The best cutoff would {how}")
    return Verdict("success", f"{verdict_head(R.SHIP)}: {how}")


def verdict_flips(span) -> str:
    """Where the verdict changes inside a range of ratios (`robust.VerdictSpan`), in words."""
    parts = [
        f"at a ratio of about {ratio_text(r)} it goes from “{below}” to “{above}”" for r, below, above in span.flips
    ]
    return "; ".join(parts)


def bracket_verdict(
    bracket,
    table: pd.DataFrame,
    *,
    sweep,
    price: float,
    unit: str = "",
    volume: float | None = None,
    span=None,
) -> Verdict:
    """What the answers so far mean for the decision (Find my prices): the bracket, the
    cutoffs in play, whether the verdict holds across it (`span`, a `robust.VerdictSpan`), and
    what choosing wrong would cost at its ends (the value of the next question)."""
    from costlib.binary import elicit

    miss, alarm = bracket.names
    lo, hi = bracket.low, bracket.high
    lowest = None if sweep.lowest_score is None else {"": sweep.lowest_score}

    def cut(t: float) -> str:
        text = cutoffs_short({"": t}, grouped=False, lowest=lowest)
        return {"everyone": "flag everyone (no model needed)", "nobody": "flag nobody (no model needed)"}.get(
            text, f"flag at {text}"
        )

    between = ratio_between(miss, alarm, lo, hi)
    ratios = table["ratio_high"].to_numpy()
    mid = int(min(np.searchsorted(ratios, bracket.middle), len(table) - 1))
    t_mid = table["threshold"].iloc[mid]
    if len(table) == 1 and (span is None or span.holds):
        verdict = f" and the verdict “{span.pieces[0][2]}”" if span is not None else ""
        head = (
            f"Any ratio from {ratio_text(lo)} to {ratio_text(hi)} gives the same decision, {cut(t_mid)}{verdict}: "
            "more precision would not change what you ship." + (" Use these prices." if bracket.answers else "")
        )
        return Verdict("success", head, (f"So far: {between}.",) if bracket.answers else ())
    if len(table) == 1:
        head = (
            f"Any ratio from {ratio_text(lo)} to {ratio_text(hi)} gives the same cutoff, {cut(t_mid)}, but not the "
            f"same verdict: {verdict_flips(span)}. "
            + ("The next question narrows it down." if bracket.settled is None else "Settle the price with care.")
        )
        return Verdict("warning", head, (f"So far: {between}.",) if bracket.answers else ())
    moves = (
        f"Within this range the best decision moves from {cut(table['threshold'].iloc[0])} to "
        f"{cut(table['threshold'].iloc[-1])} ({len(table)} cutoffs)."
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
        f"Shipping the decision for the middle of the range ({cut(t_mid)}) costs, if the truth is at the low "
        f"end, {per_case_and_month(ends[0], volume, unit)} more than the best decision there, and at the high "
        f"end {per_case_and_month(ends[1], volume, unit)}."
    )
    if bracket.settled is not None:
        return Verdict("success", f"Settled: {between}. {moves}", (regrets,))
    return Verdict(
        "info",
        f"So far: {between}. {moves}",
        (regrets, f"The next question is worth up to {money(max(ends), unit)} per case: it halves the range."),
    )


# ---------------------------------------------------------------------------------------
# How much the prices matter


def sensitivity_sentence(
    ratio_range: tuple[str, float, float],
    mean: tuple[float, float],
    unit: str = "",
    *,
    blended: bool = False,
    break_even: tuple[float, float] | None = None,
    model: str = "the model",
) -> str:
    """Which option is the answer at the mean prices (`binary.sensitivity.sensitivity_grid`'s choice: the
    model cheapest on train, or the cheaper decision without a model on test) and over which
    c_fn : c_fp ratios it stays the answer; with `break_even` (`elicit.break_even_range` of
    `model` on its fitting rows), the exact ratios at which the model can pay at all."""
    from costlib.binary.sensitivity import RATIO_LIMITS
    from costlib.core import rules as R

    leader, lo, hi = ratio_range
    c_fp, c_fn = mean
    ratio = c_fn / c_fp if c_fp > 0 else math.inf
    leader = f"“{R.rule_words(leader)}”" if leader in R.BASELINES else f"the model “{leader}” at its best single cutoff"
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
    which = "your prices, averaged over the groups by their test rows" if blended else "your prices"
    return (
        f"At {which} (a false negative costs {shown} times a false positive: "
        f"{money(c_fn, unit)} against {money(c_fp, unit)}), the cheapest option on the test rows is {leader}; it "
        f"stays the cheapest {span}. Whether it is clearly cheaper than the choice without a model is the verdict "
        "above, which also counts the luck of picking the cutoff."
    ) + ("" if break_even is None else " " + break_even_words(break_even, model))


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
    head = (
        f"Your prices come from {len(record['answers'])} answers: {ratio_between(miss, alarm, lo, hi)} "
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
