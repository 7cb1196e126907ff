"""Plain-words sentences for people who set prices, not statistics.

Every page states in one sentence what its numbers mean for the decision (a `Verdict`: the
answer, the sentences under it and the asides folded away); the sentences are built from
computed numbers so that tests can check them and pages stay thin. Here: the pieces every
answer shares (verdict heads, cutoffs, splits) and the Costs & groups answer; how much the
prices matter is in `costlib.present.price_words`, the other pages' answers in
`costlib.present.page_answers`. The amounts inside them are formatted by
`costlib.present.amounts`; user text is escaped where a sentence is drawn
(`costlib.core.escaping`). `money`, `percent`, `ratio_text`, `md_escape` and `WORD_JOINER`
are re-exported here: the pages read them as ``words.money``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from costlib.core import rules as R
from costlib.core.escaping import WORD_JOINER, md_escape, shorten  # noqa: F401 (re-exported: pages and tests read words.md_escape)
from costlib.present.amounts import (  # percent and ratio_text are also re-exported: pages read words.percent
    beside_interval,
    cheaper_by,
    cutoff_number,
    interval,
    money,
    number,
    per_case_and_month,
    percent,
    ratio_text,
    review_limit,
    shown_saving,
)
from costlib.present.disparity_words import DISPARITY_LEAD, DISPARITY_LEADS, disparity_sentence
from costlib.present.group_alone_words import groups_alone_detail, groups_alone_why, rule_alone_why
from costlib.present.group_cutoff_words import cutoff_reach, per_group_against_baseline
from costlib.present.kept_words import adds_nothing_why, cheaper_than_no_model
from costlib.present.labels import MODELS_PICKED, whose_models

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


BASELINE_WORDS = {
    "flag nobody": "flagging nobody",
    "flag everyone": "flagging everyone",
    "flag at random": "flagging cases at random up to your review limit",
}


def cutoffs_text(
    cutoffs: dict, *, grouped: bool, verb: bool = True, lowest: dict | None = None, notes: dict | None = None
) -> str:
    """The rule in words: 'flag a case when its score is at least 0.323', 'flag nobody',
    or per group 'flag A at 0.62 or more, nobody in B, and C at 0.32 or more' (`verb`
    False leaves out the leading 'flag'). `lowest` ({group: lowest score on the fitting rows},
    as `cutoffs_short` reads it) says a group's cutoff at or below its lowest score as what it
    is: 'everyone in C'; `notes` ({group: clause}, `group_cutoff_words.cutoff_reach`) follow a group's
    cutoff in brackets: 'tiny at 0.7204 or more (on all rows it flags none of its 8 cases)'."""
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
        return f"{flag}a case when its score is at least {cutoff_number(t)}"
    parts = []
    for group, t in cutoffs.items():
        if math.isnan(t):
            parts.append(f"no cutoff for {shorten(group)}")
        elif t == math.inf:
            parts.append(f"nobody in {shorten(group)}")
        elif t == -math.inf or (lowest is not None and group in lowest and t <= lowest[group]):
            parts.append(f"everyone in {shorten(group)}")
        else:
            note = (notes or {}).get(group)
            parts.append(f"{shorten(group)} at {cutoff_number(t)} or more" + (f" ({note})" if note else ""))
    # three or more: a comma before the last "and", so "everyone in B, and C at 0.32 or more" is not read
    # as everyone in B and C
    last = " and " if len(parts) == 2 else ", and "
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + last + parts[-1]
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
        return f"≥ {cutoff_number(t)}"

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

    return {R.SHIP: "success", R.NOT_CLEARLY: "warning"}.get(verdict, "error")


def split_sentence(
    judged_on: str,
    n_fit: float,
    n_judged: float,
    estimate: str = "test",
    thing: str = "cutoff",
    *,
    rule=None,
    weighted: bool = False,
    fit_role: str = "train",
) -> str:
    """How the fitted cutoffs (or the Value page's confidence threshold: `thing`) were judged, in
    one sentence (`honest.Honest.estimate`, `value.ValueRecommendation.estimate`); `rule`: the
    recommended rule, whose saving's interval without a split is the shrunk bootstrap
    (`honest.shrunk_intervals`) for per-group cutoffs, the fold-aware one, at least its moves
    (`refit_moves.single_cutoff_moves`), for one cutoff;
    `weighted`: rows that carry weights, judged row by row (`binary.weighted_rows`); `fit_role`:
    the rows fitted on with a split (`Recommendation.fit_role`: the validation rows without train rows)."""
    from costlib.binary import honest as H
    from costlib.binary.folds import SPLITS
    from costlib.binary.row_crossfit import DEALS

    per_group = rule == R.COST_OPTIMAL and not weighted
    moves = ", and at least how far the cutoff fitted on all rows would move with another draw of the rows"

    def rows(n: float, which: str = "") -> str:  # weighted rows count the cases they stand for
        named = f"{which} rows" if which else "rows"
        return f"{named} ({number(n, 0)} cases by their weights)" if weighted else f"{number(n, 0)} {named}"

    if judged_on == "test":
        how = (
            f"the interval is the test rows' own, holding the cutoffs fitted on the {fit_role} rows fixed (the test "
            "rows did not pick them)"
            if weighted
            else f"the interval repeats the fit on resampled {fit_role} rows"
        )
        return f"Cutoffs are fitted on the {rows(n_fit, fit_role)} and judged on the {rows(n_judged, 'test')}; {how}."
    if estimate == H.CROSS_FITTED:
        deals = f"{DEALS} ways" if weighted else f"up to {SPLITS} ways"
        return (
            f"No rows are set aside for testing: the {thing} to ship is fitted on all {rows(n_judged)}, "
            f"and {'what it costs' if thing == 'cutoff' else 'what it is worth'} is cross-fitted (each row judged by a "
            f"{thing} fitted on the other "
            f"parts of the rows, averaged over {deals} of dealing "
            "the rows into parts), so picking it does not flatter it. The interval is the estimate give or take "
            + (
                "its 95% margin of error, set between the one from the rows' noise alone and the one from a "
                "bootstrap that fits the cutoffs again on each resample (0.632 of the way)"
                if per_group
                else "its 95% margin of error, which counts both the rows' noise and how much one dealing of the "
                "parts moves it" + (moves if rule == R.SINGLE and not weighted else "")
                if thing == "cutoff"
                else "its 95% margin of error, which counts the rows' noise, how much one dealing of the parts "
                f"moves it and how far the {thing} fitted on all rows would move with another draw of the rows"
            )
            + (
                "."
                if thing == "cutoff"
                else ", and it is read against both ways of working without the model, keeping the smaller "
                "gain, because with few rows the better of the two can look like the worse."
            )
        )
    return (
        f"This data has no train/test split, so {thing}s are fitted and judged on the same {number(n_judged, 0)} "
        "rows, which flatters the model. Map a split column on the Data page to avoid that."
    )


def pooled_sentence(pooled, minimum: int, *, fairness: bool = False) -> str:
    """Which groups get the cutoff for everyone because they are too small for their own: under
    the best cutoff per group only. With `fairness` (above the fairness rules' table) it says
    too that every fairness rule still sets them a cutoff of their own, as the table shows: a
    rule that equalises a rate across groups has to move each group's cutoff, small ones too."""
    one = len(pooled) == 1
    names = ", ".join(f"“{shorten(g)}”" for g in pooled[:8]) + (
        f" and {len(pooled) - 8} more" if len(pooled) > 8 else ""
    )
    out = (
        f"{names} {'has' if one else 'have'} fewer than {minimum} positives or {minimum} negatives "
        f"among {'its' if one else 'their'} fit rows, so the best cutoff per group gives "
        f"{'it' if one else 'them'} the cutoff for everyone: a cutoff of "
        f"{'its' if one else 'their'} own would be a guess from a handful of cases."
    )
    if fairness:
        out += (
            f" The fairness rules below still set {'it' if one else 'them'} a cutoff of {'its' if one else 'their'} "
            f"own (to bring {'its' if one else 'their'} rate within the tolerance), so read "
            f"{'that cutoff' if one else 'those cutoffs'} as a guess."
        )
    return out


#: how the answer's first sentence names per-group cutoffs it ships, with or without a review limit:
#: that they treat groups differently is said where the answer is, not only under it
PER_GROUP_HEAD = " with per-group cutoffs, which treat groups differently"


def recommendation_verdict(
    rec, *, unit: str = "", volume: float | None = None, disparities=None, sample: bool = False
) -> Verdict:
    """The one answer of a `decision.Recommendation`, for a product manager.

    Starts with its verdict (`verdict_head`); names the rule and its cutoff(s), what it costs per
    case and per month, and what it saves against the cheaper decision without a model, with
    the 95% interval; or says plainly why the model should not decide at these prices. With
    `disparities` (`disparity.Disparities` of the recommended rule) that fail their threshold,
    unless the model is not to decide at all, the headline adds `disparity_sentence`, and a ship
    is shown in the warning box rather than the green one: the verdict is the same, but a shipped
    rule that fails a fairness rule of thumb is not all clear. `sample`: the
    data is a built-in sample, whose models are not the reader's ("the cheaper of the sample's 2
    models", not "of your 2 models"; `labels.whose_models`).
    """
    verdict = _recommendation_verdict(rec, unit=unit, volume=volume, sample=sample)
    extra = said_disparity(rec, disparities, unit)
    if extra:
        kind = "warning" if verdict.kind == "success" else verdict.kind
        verdict = Verdict(kind, f"{verdict.headline} {extra}", verdict.details, verdict.asides)
    return verdict


def said_disparity(rec, disparities, unit: str = "") -> str:
    """`disparity_sentence` of the model's rule, '' when the verdict is not to let the model decide
    at all (its rule is then not what anyone applies: its cheapest cutoff may even flag everybody,
    whose cross-fitted rates still differ a little) or there are no `disparities`. The one rule
    for the headline and the disparities table's warning."""

    if disparities is None or rec.verdict == R.DO_NOT or small_group_by_chance(disparities):
        return ""
    return disparity_sentence(disparities, unit, lead=DISPARITY_LEADS.get(rec.verdict, DISPARITY_LEAD))


def small_group_by_chance(disparities) -> bool:
    """Whether the failure the headline would name (`Disparities.largest`) is a small group's, given
    the cutoff for everyone for being small, that could be chance and rests on its handful of
    cases: a first-time user saw a 5-case group with no false positive among its 2 negatives
    raise a fairness warning over a ship. Such a row stays in the disparities table, marked
    "could be chance"; the headline does not raise it."""
    row = disparities.largest  # a quiet row only when every failure is one (`Disparities.largest`)
    return row is not None and disparities.quiet(row)


def _recommendation_verdict(rec, *, unit: str = "", volume: float | None = None, sample: bool = False) -> Verdict:
    """`recommendation_verdict` without the disparity sentence."""
    from costlib.core.ship import ADDS_NOTHING, NO_ANSWER, UNCLEAR, WORSE

    base = BASELINE_WORDS.get(rec.baseline, rec.baseline)
    models = rec.models
    who = "the model"
    if len(models) > 1:
        whose = whose_models(sample)
        who = (
            f"“{shorten(rec.model)}” (the cheaper of {whose} {len(models)} models on {fitted_rows(rec)})"
            if rec.judged_on == "test"
            else f"“{shorten(rec.model)}” (the cheapest of {whose} {len(models)} models)"
        )
    how = cutoffs_text(rec.cutoffs, grouped=rec.grouped, lowest=rec.lowest, notes=cutoff_reach(rec, judged_rows(rec)))
    one_or_many = ""
    if rec.grouped:
        one_or_many = PER_GROUP_HEAD if rec.rule == R.COST_OPTIMAL else " with one cutoff for everyone"
    limit = review_limit(getattr(rec, "capacity", None), volume)  # said where the answer is, not only below it
    within = f" within {limit}" if limit else ""
    base_cost = per_case_and_month(rec.baseline_cost, volume, unit)
    head = verdict_head(rec.verdict)
    kind = verdict_kind(rec.verdict)
    details = recommendation_details(rec, unit, volume, sample=sample)
    asides = recommendation_asides(rec, unit)
    if rec.status == NO_ANSWER:
        return Verdict(
            kind,
            f"{head}: no cutoff can be fitted on these rows (each group needs both outcomes on {fitted_rows(rec)}). "
            f"Keep {base}: {base_cost}.",
            details,
        )
    if rec.status == ADDS_NOTHING:
        action = {"flag nobody": "flags nobody", "flag everyone": "flags everybody"}.get(
            rec.no_model_action, "flags either everybody or nobody in each group"
        )
        return Verdict(
            kind,
            f"{head}: its cheapest cutoff{within} on {fitted_rows(rec)} {action}, which needs no model"
            f"{adds_nothing_why(rec, unit, base, judged_kind(rec))}. Keep {base}: {base_cost}.",
            details,
            asides,
        )
    # the two costs at the decimals their difference needs, the saving as their shown difference and its
    # interval at its decimals (the tiles')
    ends = (rec.saving_low, rec.saving_high)  # the interval the decimals are cut to: a month reads at them
    apart, shown = shown_saving(rec.baseline_cost, rec.cost, *ends)
    saving_iv = interval(*ends, unit, digits=apart)
    if rec.status == WORSE:
        return Verdict(
            kind,
            f"{head}: its best cutoff{within} ({how}) costs "
            f"{per_case_and_month(rec.cost, volume, unit, digits=apart, beside=ends)} on the "
            f"{judged_kind(rec)} rows, {money(-shown, unit, digits=apart)} per case more than {base} "
            f"({money(rec.baseline_cost, unit, digits=apart)} per case), which needs no model.",
            details,
            asides,
        )
    saving = per_case_and_month(shown, volume, unit, digits=apart, beside=ends, month_of=rec.saving)
    cost = per_case_and_month(rec.cost, volume, unit, digits=apart, beside=ends)
    base_cost = per_case_and_month(rec.baseline_cost, volume, unit, digits=apart, beside=ends)
    if rec.status == UNCLEAR:
        why = "there is no interval to tell it from chance"
        why = f"the {saving_iv} includes zero, so the saving could be chance" if saving_iv else why
        why = groups_alone_why(rec, unit) if getattr(rec, "held_by_groups", False) else why
        best, they = (
            ("best cutoffs", "they might")
            if rec.rule == R.COST_OPTIMAL and rec.grouped
            else ("best cutoff", "it might")
        )
        return Verdict(
            kind,
            f"{head}: keep {base}, at {base_cost}. The {best} of {who}{within} would {how}: {they} save {saving}, "
            f"but {why}.",
            details,
            asides,
        )
    named = f" {who}" if len(models) > 1 else ""
    return Verdict(
        kind,
        f"{head}{named}{within}{one_or_many}: {how}. It costs {cost} and "
        f"saves {saving} against {base}, the cheaper choice "
        "without a model" + (f" ({saving_iv})." if saving_iv else "."),
        details,
        asides,
    )


def rule_verdict_sentence(rec, rule: str, unit: str = "", *, judged: tuple | None = None) -> str:
    """The verdict of shipping `rule` rather than the recommendation (a policy that records a
    fairness-constrained rule), in one sentence that starts with the verdict; `judged` is its
    (verdict, saving, low, high) when the recommendation did not judge it (a randomised rule)."""
    from costlib.binary.decision import rule_verdict

    verdict, saving, low, high = judged or rule_verdict(rec, rule)
    base = BASELINE_WORDS.get(rec.baseline, rec.baseline)
    d = beside_interval(saving, low, high)
    iv = interval(low, high, unit, digits=d)
    tiny = abs(saving) <= 1e-9 * max(1.0, abs(rec.baseline_cost))
    what = (
        f"the rule “{R.rule_words(rule)}” costs the same as {base}, which needs no model"
        if tiny
        else f"the rule “{R.rule_words(rule)}” saves {money(saving, unit, digits=d)} per case against {base}"
        if saving > 0
        else f"the rule “{R.rule_words(rule)}” costs {money(-saving, unit, digits=d)} per case more than {base}"
    )
    iv = "" if tiny else iv
    end = f" ({iv})" if iv else ""
    alone = getattr(rec.results, "group_alone", None)
    if verdict == R.NOT_CLEARLY and low > 0 and alone is not None:  # held back: the groups' saving (`rule_verdict`)
        end += f", but {rule_alone_why(rec, unit)}"
    return f"{verdict_head(verdict)}: {what} on the {judged_kind(rec)} rows{end}."


def fitted_rows(rec) -> str:
    """The rows a recommendation's cutoffs were fitted on, as words: with a split its ``fit_role``
    rows (train, or validation without train rows; the Value page's: train), else all rows.

    >>> from types import SimpleNamespace as R
    >>> fitted_rows(R(judged_on="test", fit_role="validation")), fitted_rows(R(judged_on="all"))
    ('the validation rows', 'all rows')
    """
    return f"the {getattr(rec, 'fit_role', 'train')} rows" if rec.judged_on == "test" else "all rows"


def judged_rows(rec) -> str:
    """The rows a recommendation's fitted cutoffs are judged on, as words: the test rows with a
    split, else all rows (each judged by cutoffs fitted without it: `split_sentence` says how).

    >>> from types import SimpleNamespace as R
    >>> judged_rows(R(judged_on="test")), judged_rows(R(judged_on="all"))
    ('the test rows', 'all rows')
    """
    return "the test rows" if rec.judged_on == "test" else "all rows"


def judged_kind(rec) -> str:
    """How a recommendation's fitted rules are judged: "test", "cross-fitted" (no split) or "same"."""
    from costlib.binary import honest as H

    if rec.judged_on == "test":
        return "test"
    return "cross-fitted" if rec.estimate == H.CROSS_FITTED else "same"


def recommendation_details(rec, unit: str, volume: float | None, *, sample: bool = False) -> tuple[str, ...]:
    from costlib.binary.folds import MIN_CLASS_ROWS

    out = []
    if rec.grouped and rec.group_gain is not None:
        est, lo, hi = rec.group_gain
        per_group = rec.results.cutoffs.get(R.COST_OPTIMAL, {})
        d = beside_interval(est, lo, hi)  # the gain and its interval at one number of decimals
        iv = interval(lo, hi, unit, digits=d)
        iv = f" ({iv})" if iv else ""
        if rec.rule == R.COST_OPTIMAL:
            out.append(
                f"Per-group cutoffs save {money(est, unit, digits=d)} per case over one cutoff for everyone{iv}. They "
                "treat groups differently by design: read the fairness section before shipping them."
            )
        elif getattr(rec, "held_by_groups", False):  # the groups' own saving (`group_alone_words`)
            out.append(groups_alone_detail(rec, unit))
        elif per_group and all(t == rec.cutoffs.get(g) for g, t in per_group.items()):
            out.append(
                "Fitting each group on its own gives every group this same cutoff, so per-group cutoffs "
                "would change nothing."
            )
        elif rec.weighted and not math.isfinite(lo):  # weighted rows: that difference has no interval (`weighted_rows`)
            gain = (
                f"save {money(est, unit)} per case over" if est > 0 else f"cost {money(-est, unit)} per case more than"
            )
            then = "so one cutoff for everyone is recommended" if rec.ship_model else "so they do not change the answer"
            out.append(
                f"Per-group cutoffs ({cutoffs_short(per_group, grouped=True, lowest=rec.lowest)}) would {gain} one "
                f"cutoff for everyone on these rows, but on rows that carry weights that difference has no interval, "
                f"{then}. Per-group cutoffs would treat groups differently."
            )
        else:
            if est > 0:
                gain, than = f"would save {money(est, unit, digits=d)} per case{iv}", "not clearly cheaper than"
            else:  # the interval of how much more they cost: its signs agree with the words
                more = interval(-hi, -lo, unit, of="the extra cost", digits=d)
                more = f" ({more})" if more else ""
                gain = f"would cost {money(-est, unit, digits=d)} per case more{more}"
                than = "dearer than" if hi < 0 else "not clearly cheaper than"
            # what follows for the answer: not "one cutoff is recommended" when the verdict ships no model
            then = "so one cutoff for everyone is recommended" if rec.ship_model else "so they do not change the answer"
            if not rec.ship_model:
                then += per_group_against_baseline(rec, unit, BASELINE_WORDS.get(rec.baseline, rec.baseline))
            shown = cutoffs_short(per_group, grouped=True, lowest=rec.lowest)
            out.append(
                f"Per-group cutoffs ({shown}) {gain}: {than} one cutoff for everyone, {then}. Per-group "
                "cutoffs would treat groups differently."
            )
    if rec.pooled:
        out.append(pooled_sentence(rec.pooled, MIN_CLASS_ROWS))
    if not rec.intervals:
        out.append(
            "No intervals: the rows carry weights, and an interval for weighted rows needs the rows themselves, "
            "judged apart from the rows the cutoffs were fitted on; here they were counted where they are kept (a "
            "warehouse table or an aggregate file), or the judged rows include rows the cutoffs were fitted on (rows "
            "handed to the sweeps directly: no page judges so), so the model is at best not clearly better."
            if rec.weighted and rec.n_resamples
            else "No intervals were asked for (0 resamples), so the model is at best not clearly better."
        )
    judged, role = (rec.judged_on, rec.n_fit, rec.n_judged, rec.estimate), getattr(rec, "fit_role", "train")
    out.append(split_sentence(*judged, rule=rec.rule, weighted=rec.weighted, fit_role=role))
    if len(rec.models) > 1 and rec.intervals and rec.judged_on == "all":  # picked on the rows it is judged on
        m = len(rec.models)
        out.append(MODELS_PICKED.format(whose=whose_models(sample), m=m, level=percent(1 - 0.05 / m)))
    return tuple(out)


#: the end of an aside whose interval of how much cheaper reaches zero: its shown lower end may
#: read "$0.00" (an interval that touches zero), which "within the noise" would contradict
NOT_CLEARLY_CHEAPER = ", and that interval is not clearly above zero: the difference could be chance."
#: after the rules that came out cheaper, once: why none changes the verdict, even one whose interval is
#: wholly above zero (review 74). {picked}: ", “best single cutoff”" or ""; {kept}: what the verdict keeps
FLATTERS = (
    "No rule above changes the verdict: it judges one rule{picked}, which the recommendation picks by a rule set "
    "in advance, not by how the others did. Choosing afterwards whichever rule looks cheapest on the same rows would "
    "flatter the one chosen: among several tries, one can come out cheaper by luck, even with its whole interval "
    "above zero. So the recommendation is still {kept}."
)


def recommendation_asides(rec, unit: str) -> tuple[str, ...]:
    """Rules that came out cheaper than what the verdict says to do (`Recommendation.shipped_rule`)
    on the judged rows, but the fairness rules, and why the recommendation stays (shown folded
    under the answer, never beside it): the model's rule when it ships (`cheaper_by_chance`), else
    the choice without a model (`cheaper_than_no_model`), which is then named as such, not as a
    fitted cutoff."""

    ships = getattr(rec, "ship_model", True)
    rows = rec.cheaper_by_chance if ships else cheaper_than_no_model(rec)
    # the fairness rules' costs are the fairness section's to say: the report's audit judges them
    # beside the others, and listing them here made its asides differ from the page's
    rows = [row for row in rows if not R.is_fair(row[0])]
    if not getattr(rec, "grouped", True):  # one group: "best cutoff per group" is the single cutoff (review 74)
        rows = [row for row in rows if row[0] != R.COST_OPTIMAL]
    than = "" if ships else f" than {BASELINE_WORDS.get(rec.baseline, rec.baseline)}"
    kept = (
        f"the cutoff fitted on {fitted_rows(rec)}"
        if ships
        else f"to keep {BASELINE_WORDS.get(rec.baseline, rec.baseline)}, which needs no model"
    )
    out = []
    for rule, est, lo, hi in rows[:3]:
        noise = lo is not None and hi is not None and lo <= 0 <= hi  # NaN bounds (no interval) compare False
        out.append(
            f"“{R.rule_words(rule)}” came out {cheaper_by(est, lo, hi, unit)}{than} on the {judged_kind(rec)} rows"
            + (NOT_CLEARLY_CHEAPER if noise else ".")
        )
    # why the recommendation stays, said once after the rules (it was said after each, word for word: review 72)
    rule = getattr(rec, "rule", None)
    picked = f", “{R.rule_words(rule)}”" if rule else ""
    return (*out, FLATTERS.format(picked=picked, kept=kept)) if out else ()


def verdict_flips(span) -> str:
    """Where the verdict changes inside a range of ratios (`robust.VerdictSpan`), in words."""
    parts = [
        f"at a ratio of about {ratio_text(r)} it goes from “{below}” to “{above}”" for r, below, above in span.flips
    ]
    return "; ".join(parts)


class SampleInstead(str):
    """`on_sample`'s `sample` when the data chosen was itself a built-in sample: the title of the
    sample answered for, read as any title, whose answer does not say "not your data" (none of
    the reader's data is set aside: they picked another sample, which the sentence above names)."""

    __slots__ = ()


def on_sample(verdict: Verdict, sample: str | None) -> Verdict:
    """`verdict` answered for the built-in sample titled `sample` (None: for the data chosen, as
    it is): the sample is named in the answer's first sentence, right after the verdict's words
    every page shares, in a neutral box (a note above it let a reader credit the sample's saving
    to their own model: reviews 58, 60, 61). A headline without a verdict's words is left as is.
    Instead of a file of the reader's the answer says "not your data"; instead of another sample
    (`SampleInstead`) it does not.

    >>> ship = Verdict("success", "Ship the model: flag a case when s is at least 0.5.")
    >>> on_sample(ship, "Tweets").headline
    'Ship the model: on the built-in sample “Tweets”, not your data, flag a case when s is at least 0.5.'
    >>> on_sample(ship, SampleInstead("Tweets")).headline
    'Ship the model: on the built-in sample “Tweets”, flag a case when s is at least 0.5.'
    """
    if not sample or ": " not in verdict.headline:
        return verdict
    head, rest = verdict.headline.split(": ", 1)
    yours = "" if isinstance(sample, SampleInstead) else " not your data,"
    return replace(verdict, kind="info", headline=f"{head}: on the built-in sample “{sample}”,{yours} {rest}")
