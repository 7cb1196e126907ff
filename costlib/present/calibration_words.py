"""The Calibration page's words: its labels, its answer, the worth before and after rescaling
(what each group's calibration says is `calibration_group_words`), in plain words first (a product manager reads the
answer, a fairness auditor the groups); each technical term (temperature scaling, T, ECE,
Brier, bins, judged rows) is named once, with a sentence that says what it is.

Pure: sentences from numbers. The page shows them through `views._ui.display` (escaped:
model and group names are user text).
"""

from __future__ import annotations

import math

from costlib.calibration import CANNOT_FIX, CLOSE, ECE_FLOOR, KEEP, NO_FIT, NOT_HELPING, RESCALE
from costlib.core import settings
from costlib.core.escaping import shorten
from costlib.present.amounts import (
    MAX_DECIMALS,
    cutoff_number,
    interval,
    money,
    money_digits,
    month_difference,
    number,
    per_case_and_month,
    shown_saving,
)
from costlib.present.labels import NO_SPLIT_TO_CALIBRATE
from costlib.present.words import BASELINE_WORDS, Verdict, verdict_head

CALIBRATION_WHAT = (
    "Are the model's probabilities what they say? Of the cases scored 0.7, about 70% should turn out positive. "
    "The confidence your prices ask for before the model answers assumes they do, and this page checks that "
    "confidence, not the threshold the Value page fits on data. If they are off, rescaling every score by one number "
    "fitted on other cases keeps their order, so the ranking and the accuracy stay, and makes that confidence right."
)
#: the folded box under the answer that names the technical terms (`calibration_verdict`'s asides)
TERMS_TITLE = "Technical terms: how the rescaling works and which rows it is checked on"
FITTED_WHERE = (
    "The rescaling is fitted, where the data allows, on other cases than those it is checked on: the validation "
    "cases, else the training ones."
)
BINS = "Score bands"
BINS_HELP = (
    "The bins of the reliability diagram: the probability scale cut into this many equal bands (scikit-learn's "
    "binning). Each point is one band's cases; more bands show more detail and fewer cases per point."
)

# the metrics, in plain words; the technical term once, in the help
TEMPERATURE = "Rescaling number"
TEMPERATURE_HELP = (
    "The temperature T of temperature scaling: each score's log-odds is divided by T, fitted on held-out cases. "
    "Above 1 softens overconfident scores, below 1 sharpens cautious ones; 1 changes nothing."
)
NO_TEMPERATURE = "none"
ERROR_BEFORE = "Calibration error, as given"
ERROR_AFTER = "Calibration error, rescaled"
ERROR_HELP = (
    "The expected calibration error (ECE): the average gap between the predicted probability and the share that "
    "turned out positive, band by band, weighted by each band's cases; 0 is perfectly calibrated."
)
SQUARED_BEFORE = "Average miss, as given"
SQUARED_AFTER = "Average miss, rescaled"
SQUARED_HELP = (
    "How far the probabilities miss the outcomes (1 or 0), squared and averaged: the Brier score. Lower is "
    "better, and it falls with both better ranking and better calibration."
)

# the reliability diagram
DIAGRAM_TITLE = "Reliability diagram, {model}: predicted against observed"
AS_GIVEN = "{model}, as given"
RESCALED = "{model}, rescaled (rescaling number {t:.2f})"
SMALL_BINS = "{name}: bands under {least} cases"
PERFECT = "perfectly calibrated"
X_TITLE = "mean predicted probability"
Y_TITLE = "observed share positive"
CASES = "{n} cases"
FEW_CASES = "{n}, too few to read"  # n: "1 case", "3 cases"
FEW_BINS_NOTE = (
    "Bands with fewer than {least} cases are drawn as hollow markers off the line ({which}): one case moves their "
    "share by {step} points or more, so a share of 0 or 1 there is not a verdict. Each point's case count is in "
    "its hover and in the chart's table."
)

#: the model checked, and why it is the one checked first: the model Costs & groups judges cheapest at these
#: prices, and whether its verdict ships it (`picked_sentence`)
PICKED_FIRST = (
    "Checked: {model}, the model Costs & groups judges cheapest at your prices and ships, so the one whose "
    "probabilities a decision would rest on; pick another above to check it."
)
PICKED_NOT_SHIPPED = (  # the answer above says Costs & groups' verdict itself (`NOT_SHIPPED`): not said twice
    "Checked: {model}, the model Costs & groups judges cheapest at your prices; it does not ship it, so no "
    "decision rests on it yet; pick another above to check it."
)
PICKED_OTHER = (
    "Checked: {model}. At your prices Costs & groups judges {pick} cheapest and ships it: pick it above to check the "
    "model a decision would rest on."
)
PICKED_OTHER_NOT_SHIPPED = (
    "Checked: {model}. At your prices Costs & groups judges {pick} cheapest but does not ship it; pick it above to "
    "check that model."
)
#: which question the page's verdict answers, beside it (`question_sentence`): not Costs & groups' decision
QUESTION = (
    "This verdict answers another question than Costs & groups': whether the model is worth more answering the "
    "cases it is confident enough of and handing the rest to a person, a right answer counted as worth {worth} "
    "(a setting of the Value page, left at {default} unless you change it there); Costs & groups asks whether flagging "
    "cases by score costs less than doing without the model, at your prices of a false flag and a miss, so one can "
    "ship and the other not."
)


def question_sentence(worth: float, unit: str = "") -> str:
    """Which question the page's verdict answers, and how it differs from Costs & groups' (`QUESTION`)."""
    return QUESTION.format(worth=money(worth, unit), default=money(settings.GAIN.default, unit))


def picked_sentence(
    model: str, pick: str | None, *, ships: bool = True, verdict: str = "", keep: str = ""
) -> str | None:
    """Which model is checked and why it is the one checked first (`pick`: the model Costs & groups
    judges cheapest at these prices; None: no pick to say, one model only), and, where Costs & groups'
    verdict does not ship it (`ships` False), that verdict (`rules.VERDICTS`) and the no-model choice
    it keeps (`keep`, a `rules` name such as "flag nobody")."""
    if pick is None:
        return None
    said = {"verdict": verdict_head(verdict), "keep": BASELINE_WORDS.get(keep, keep)}
    if pick == model:
        return (PICKED_FIRST if ships else PICKED_NOT_SHIPPED).format(model=shorten(model), **said)
    return (PICKED_OTHER if ships else PICKED_OTHER_NOT_SHIPPED).format(
        model=shorten(model), pick=shorten(pick), **said
    )


def cases_word(on_test: bool) -> str:
    """What the judged rows are called: 'test cases' where they are the test rows, else 'cases' (no 'test' said)."""
    return "test cases" if on_test else "cases"


# the answer
FIT_ON = {
    "validation": "fitted on the validation cases",
    "train": "fitted on the training cases",
    "same": "fitted on the same cases it is checked on",
}
NOISE = "a calibrated model would show up to {chance} on these cases by chance"
#: beyond chance but within `calibration.ECE_FLOOR`: the floor decides, and the sentence says so
CLOSE_SENTENCE = (
    "{model}'s probabilities are off by more than chance: calibration error {ece} is more than a calibrated model "
    "would show on these cases by chance (up to {chance}). That average is within the {floor} we treat as close "
    "enough"
)
CLOSE_NO_CHANCE = (
    "{model}'s probabilities are off: calibration error {ece}. That average is within the {floor} we treat as close "
    "enough"
)
#: the band of the diagram furthest off, where it is further off than the floor: the average hides it
WIDEST_BAND = ", but not every band is: where {model} says {said} on average, {seen} of the cases turn out positive."
#: which calibration the page's answer is about: the worth at your prices, said on Value and Costs
PAGE_ANSWER = "whether rescaling is worth more at your prices is the Calibration page's answer."
CHECKED_ON = "Checked on the test cases, kept apart from the cases the rescaling was fitted on."
JUDGED_ROWS = (  # what the judged rows are, in the terms box
    "The judged rows are the cases the page checks on: the test cases, kept apart to judge what was fitted (every "
    "row without a split)."
)
#: where a temperature fitted on the judged rows (`fit_on` "same") was checked: every row
CHECKED_ON_SAME = "Checked on every row, the very cases the rescaling was fitted on."
#: a split column without test rows: nothing held out to judge a temperature on, so it is fitted and
#: judged on every row, as without a split (`answers.calibration.calibration_rows`)
NO_TEST_ROWS_TO_CALIBRATE = (
    "There are no test rows, so the rescaling is fitted and judged on the same rows, every row, as without a "
    'split, which flatters it. Mark some rows "test" in the split column of your file and upload it again on the '
    "Data page to judge it on rows it was not fitted on."
)
ONLY_TEST_ROWS_TO_CALIBRATE = (
    "Every row is a test row, so the rescaling is fitted and judged on the same rows, which flatters it. "
    'Mark some rows "validation" or "train" in the split column of your file and upload it again on the Data page '
    "to fit it on rows it is not judged on."
)
TECHNICAL = (
    "Temperature scaling: T = {t:.3f}, {fit_on}. The rescaling divides each score's log-odds by T: above 1 it "
    "softens scores that are too confident, below 1 it sharpens cautious ones."
)
ADVICE = {
    # not an order: the Calibration page's answer weighs what rescaling is worth at the prices, and
    # "use the rescaled probabilities" on Value and Costs contradicted its "not clearly better"
    RESCALE: (
        "Rescaled probabilities are more honest (a lower calibration error, beyond chance); whether they are worth "
        "more at your prices is the Calibration page's answer."
    ),
    KEEP: "Its calibration error is within what chance gives a calibrated model; " + PAGE_ANSWER,
    CLOSE: (
        f"Its calibration error is beyond what chance gives a calibrated model, but within the {ECE_FLOOR:.2f} we "
        "treat as close enough; " + PAGE_ANSWER
    ),
    NOT_HELPING: "Rescaling does not lower the calibration error on these cases; " + PAGE_ANSWER,
    CANNOT_FIX: (
        "Rescaling by one number cannot fix them (they are off in another way, for example too high everywhere): "
        "do not trust the cutoffs computed from prices for this model; the cutoffs fitted on data do not need "
        "calibration."
    ),
    NO_FIT: "Keep the probabilities as they are, and check the scores.",
}
DIRECTION = {
    "close": "close to calibrated already",
    "over": "too confident (rescaling softens them)",
    "under": "too cautious (rescaling sharpens them)",
}


def error(x: float) -> str:
    """A calibration error as every sentence and metric of the page shows it: '0.0169'.

    >>> error(0.01694), error(float("nan"))
    ('0.0169', '–')
    """
    return "–" if not math.isfinite(x) else number(x, 4)


def error_change(before: float, after: float) -> str | None:
    """The change of the two errors as shown ('0.0169' to '0.0194' reads '+0.0025'), with the
    typographic minus '−' when it falls; None when the two read the same.

    >>> error_change(0.0194, 0.0169), error_change(0.0169, 0.0194), error_change(0.01, 0.01)
    ('−0.0025', '+0.0025', None)
    """
    change = round(after, 4) - round(before, 4)
    if abs(change) < 5e-5:
        return None
    return ("+" if change > 0 else "") + number(change, 4)


def error_metrics(t: float, before: float, after: float, brier: tuple[float, float]) -> tuple[dict, ...]:
    """The metrics of the page (the keyword arguments of each `st.metric`): the rescaling
    number, the error as given and rescaled (its change as the difference of the two shown,
    its arrow and colour set here: Streamlit reads a direction only from an ASCII '-'), and
    the squared error as given and rescaled."""
    change = error_change(before, after)
    falls = change is not None and change.startswith("\u2212")
    rescaled = {"label": ERROR_AFTER, "value": error(after), "help": ERROR_HELP, "delta": change}
    if change is not None:
        rescaled |= {"delta_color": "green" if falls else "red", "delta_arrow": "down" if falls else "up"}
    return (
        {"label": TEMPERATURE, "value": f"{t:.3f}" if math.isfinite(t) else NO_TEMPERATURE, "help": TEMPERATURE_HELP},
        {"label": ERROR_BEFORE, "value": error(before), "help": ERROR_HELP},
        rescaled,
        {"label": SQUARED_BEFORE, "value": error(brier[0]), "help": SQUARED_HELP},
        {"label": SQUARED_AFTER, "value": error(brier[1]), "help": SQUARED_HELP},
    )


def probabilities_sentence(
    model: str, advice: str, temperature: float, before: float, after: float, chance: float, widest=None
) -> str:
    """What the probabilities are, in one sentence from the one test's `advice`
    (`calibration.calibration_advice`), without what to do (`ADVICE`): the Calibration page's
    answer is about the worth (`rescale_verdict`), this is why. `widest`: (mean predicted,
    observed) of the diagram's band furthest off (of those with enough cases to read), said where
    the floor decided and that band is further off than it."""
    model = shorten(model)
    noise = "" if not math.isfinite(chance) else f" ({NOISE.format(chance=error(chance))})"
    if advice == CANNOT_FIX:
        return f"{model}'s probabilities are not calibrated: calibration error {error(before)}{noise}."
    if advice == KEEP:
        return f"{model}'s probabilities read as calibrated: calibration error {error(before)}{noise}."
    if advice == CLOSE:  # the floor decides, not chance: said, with both numbers
        said = (CLOSE_SENTENCE if math.isfinite(chance) else CLOSE_NO_CHANCE).format(
            model=model, ece=error(before), chance=error(chance), floor=f"{ECE_FLOOR:.2f}"
        )
        if widest is None or abs(widest[1] - widest[0]) <= ECE_FLOOR:
            return said + "."
        return said + WIDEST_BAND.format(model=model, said=f"{widest[0]:.2f}", seen=f"{widest[1]:.2f}")
    key = "close" if abs(math.log(temperature)) < 0.05 else "over" if temperature > 1 else "under"
    return (
        f"{model}'s probabilities are {DIRECTION[key]}: rescaling takes the calibration error from "
        f"{error(before)} to {error(after)}{noise}."
    )


def calibration_verdict(
    model: str, advice: str, temperature: float, fit_on: str, before: float, after: float, chance: float, widest=None
) -> Verdict:
    """The calibration in plain words from the one test's `advice`
    (`calibration.calibration_advice`): the headline says what the probabilities are and what to
    do about them, the details name temperature scaling and T once, and where the numbers were
    read. The page's one answer (`rescale_verdict`) puts the worth first and this under it.
    `widest`: the diagram's band furthest off (`probabilities_sentence`)."""
    where = FIT_ON.get(fit_on, FIT_ON["same"])
    checked = CHECKED_ON if fit_on in FIT_ON and fit_on != "same" else CHECKED_ON_SAME
    if advice == NO_FIT:
        head = (
            f"No rescaling can be fitted for {shorten(model)} on the {fit_on} cases: its scores carry nothing a "
            "rescaling could sharpen or soften (all equal, one outcome only, or ranked backwards). "
        )
        return Verdict("warning", head + ADVICE[advice], (checked,), (FITTED_WHERE, JUDGED_ROWS))
    head = probabilities_sentence(model, advice, temperature, before, after, chance, widest) + " "
    kind = "success" if advice == RESCALE else "info" if advice in (KEEP, CLOSE) else "warning"
    # the plain sentences under the answer; the technical names folded away (`TERMS_TITLE`)
    terms = (TECHNICAL.format(t=temperature, fit_on=where), FITTED_WHERE, JUDGED_ROWS)
    return Verdict(kind, head + ADVICE[advice], (checked,), terms)


NO_SPLIT, NO_TEST_ROWS, ONLY_TEST_ROWS = "no split", "no test rows", "only test rows"


def same_rows_case(*, split: bool, test_rows: bool) -> str:
    """Why no rows are held out to fit a temperature on, where none are: no split column (`split`
    False), a split without test rows, or a split of test rows only. The one decision both pages
    word (`same_rows_warning` here, `value_words.no_calibration_note` on the Value page).

    >>> same_rows_case(split=False, test_rows=True), same_rows_case(split=True, test_rows=True)
    ('no split', 'only test rows')
    """
    if not split:
        return NO_SPLIT
    return ONLY_TEST_ROWS if test_rows else NO_TEST_ROWS


def same_rows_warning(*, split: bool, test_rows: bool) -> str:
    """Why a temperature is fitted on the rows it is judged on (`same_rows_case`), in the
    Calibration page's words (no split: `labels.NO_SPLIT_TO_CALIBRATE`).

    >>> same_rows_warning(split=True, test_rows=False) == NO_TEST_ROWS_TO_CALIBRATE
    True
    >>> same_rows_warning(split=True, test_rows=True) == ONLY_TEST_ROWS_TO_CALIBRATE
    True
    """
    return {
        NO_SPLIT: NO_SPLIT_TO_CALIBRATE,
        NO_TEST_ROWS: NO_TEST_ROWS_TO_CALIBRATE,
        ONLY_TEST_ROWS: ONLY_TEST_ROWS_TO_CALIBRATE,
    }[same_rows_case(split=split, test_rows=test_rows)]


#: the Calibration page's honest equivalent of "do not let the model decide" (`rules.DO_NOT`): the
#: model still decides, on its probabilities as given; it is the rescaling that is not to be done
DO_NOT_RESCALE = "Do not rescale"
#: the confidence the worths are read at (`value_cutoff`), and the price of a wrong answer there (`wrong_price`)
AT_CUTOFF = "at the confidence your prices ask for before the model answers{cutoff}"
AT_CUTOFF_FIRST = "At the confidence your prices ask for before the model answers{cutoff}"  # starting a sentence
BELOW_HANDING_OVER = (
    "Either way the model is worth less there than handing every case over, at {nothing}: the Value page says "
    "which cases to let it answer."
)
#: fitted on the rows it is checked on (`fit_on` "same"): no verdict, but one action and how to get a verdict
NO_VERDICT = (
    "No verdict on rescaling: it is fitted on the same cases it is checked on, which flatters it. Until it is "
    "checked on other cases, keep {name}'s probabilities as they are: {at_cutoff}, {name} is worth {was} as given and "
    "{now} rescaled, both read on the cases the rescaling was fitted on. {to_verdict}"
)
#: how to get a verdict, by the warning that says why there is none (`same_rows_warning`, the one place that
#: decides which holds): no split column, a split column without test rows, a split column of test rows only
TO_GET_VERDICT = {
    NO_SPLIT_TO_CALIBRATE: (
        "To get a verdict, map a split column on the Data page that keeps some cases apart to check on: the "
        "rescaling is then fitted on the others."
    ),
    NO_TEST_ROWS_TO_CALIBRATE: (
        'Your split column has no test rows to check the rescaling on: to get a verdict, mark some rows "test" in '
        "that column of your file and upload it again on the Data page; the rescaling is then checked on them and "
        "fitted on the others."
    ),
    ONLY_TEST_ROWS_TO_CALIBRATE: (
        "Every row of your split column is a test row, so none is left to fit the rescaling on: to get a verdict, "
        'mark some rows "validation" or "train" in that column of your file and upload it again on the Data '
        "page; the rescaling is then fitted on them and checked on the test rows."
    ),
}
#: shipped rescaled for the money while the calibration error shown does not fall: why, in the answer itself
SHIP_NOT_HONEST = (
    "The calibration error does not fall ({before} as given, {after} rescaled): the gain comes from which cases "
    "clear that cutoff, not from more honest probabilities."
)
OTHER_PRICES = (
    "Rescaling does make the probabilities more honest, but at these prices that is not worth a decision; at other "
    "prices the cutoff moves, so check again when they change."
)
#: Costs & groups' verdict on shipping the model checked, where it does not ship it (`costs_standing`): the
#: answer's first words, so that the page never reads as a second verdict on shipping (a product manager read a
#: green "Ship the model ... rescaled" beside "Costs & groups does not ship it" as two answers for one model); its
#: first ": " is where `words.on_sample` names a built-in sample answered for instead ("Costs & groups does not
#: ship p_recid: on the built-in sample “...”, not your data, at your prices it says ...")
NOT_SHIPPED = "Costs & groups does not ship {name}: at your prices it says “{verdict}” and keeps {keep}."
SHIPS_OTHER = "Costs & groups ships {pick}, not {name}: {pick} is the model it judges cheapest at your prices."
SHIPS_NONE = "Costs & groups ships no model, so not {name}: at your prices it says “{verdict}” and keeps {keep}."
#: the worth's answer where Costs & groups does not ship the model (`costs_standing`): for the model used all the
#: same, the question the page answers said, and its own words for the three verdicts (no second "ship the model")
IF_USED = (
    "If {name} is used all the same, to answer the cases it is confident enough of and hand the rest to a "
    "person, {what}: {body}"
)
RESCALE_IT = "rescale its probabilities"
KEEP_THEM = "keep its probabilities as they are"


def costs_standing(model: str, costs) -> str | None:
    """Costs & groups' verdict on shipping `model` where it does not ship it, in one sentence (`NOT_SHIPPED`,
    `SHIPS_OTHER`, `SHIPS_NONE`); None where it ships it or `costs` is None (not known). `costs`: its
    recommendation at the prices (`answers.calibration.CostsPick`: the model, whether it ships it, its
    verdict, `rules.VERDICTS`, and the no-model choice it keeps, a `rules` name such as "flag nobody").

    >>> costs_standing("m", ("m", False, "not clearly better", "flag nobody"))
    'Costs & groups does not ship m: at your prices it says “Not clearly better” and keeps flagging nobody.'
    >>> costs_standing("m", ("m", True, "ship the model", "flag nobody")) is None
    True
    """
    if costs is None:
        return None
    pick, ships, verdict, keep = costs
    if ships and pick == model:
        return None
    said = {"name": shorten(model), "verdict": verdict_head(verdict), "keep": BASELINE_WORDS.get(keep, keep)}
    if ships:
        return SHIPS_OTHER.format(pick=shorten(pick), **said)
    return (NOT_SHIPPED if pick == model else SHIPS_NONE).format(**said)


def apart(after: float, before: float) -> tuple[int, float]:
    """(decimals, gain): the fewest decimals at which the two worths read apart and their difference
    shows its first digit (at least `money`'s, at most `amounts.MAX_DECIMALS`), and the gain as the
    difference of the two shown, so that they subtract as read. Where they read alike at every
    decimal the page shows, `shown_saving`'s ("$0.811234 ... less than $0.811557" read as $0.8112, $0.8116).

    >>> apart(0.811234, 0.811557)
    (4, -0.0004)
    >>> apart(0.4583, 0.4512)
    (3, 0.007)
    >>> apart(0.1, 0.1)
    (3, 0.0)
    """
    gap = abs(after - before)
    first = math.ceil(-math.log10(gap)) if 0 < gap < 1 else 0  # the decimal of the difference's first digit
    d = min(MAX_DECIMALS, max(money_digits(after), money_digits(before), first))
    while d < MAX_DECIMALS and round(after, d) == round(before, d):
        d += 1
    if round(after, d) == round(before, d):
        return shown_saving(after, before)
    return d, round(round(after, d) - round(before, d), d)


def worth_digits(after: float, before: float, *, low: float, high: float, fit_on: str) -> tuple[int, float, tuple]:
    """(decimals, gain, beside) of the two worths `rescale_verdict` says (and its table): where it states the gain
    (ship, not clearly better), its two significant digits and its interval's (`shown_saving`), `beside` that
    interval, so that a month reads at those decimals (`amounts.month_figure`); else `apart`'s, beside None."""
    from costlib.core import rules as R
    from costlib.core.ship import ship_verdict

    if fit_on != "same" and ship_verdict(after - before, low, high) in (R.SHIP, R.NOT_CLEARLY):
        return (*shown_saving(after, before, low, high), (low, high))  # the gain's interval beside it at its decimals
    return (*apart(after, before), None)


def worth_said(x: float, volume, unit: str = "", *, digits: int, beside) -> str:
    """A worth per case and a month as the answer and its table say it (`worth_digits`' `digits` and `beside`): the
    month of the worth as shown, times the cases (`amounts.month_figure`), also where the gain has no interval to
    cut the decimals to: COMPAS read "$0.112 per case ($1,124 a month)" (review 74).

    >>> worth_said(0.11238, 10_000, "$", digits=3, beside=None)
    '$0.112 per case ($1,120 a month)'
    """
    return per_case_and_month(round(x, digits), volume, unit, digits=digits, beside=beside)


def rescale_verdict(
    model: str,
    probabilities: Verdict,
    advice: str,
    *,
    before: float,
    after: float,
    low: float,
    high: float,
    fit_on: str,
    unit: str = "",
    volume: float | None = None,
    cutoff: float | None = None,
    errors: tuple[float, float] | None = None,
    same_rows: str | None = None,
    priced: str | None = None,
    costs=None,
) -> Verdict:
    """The Calibration page's one answer: is the model worth more with its probabilities
    rescaled than as given (the best one can do without the change), at the cutoff the prices
    set, per case and a month (`volume` cases)? `before` and `after` are the worth per case in
    `unit`, `low` and `high` the 95% interval of the gain (after - before, the judged cases
    resampled, the rescaling held), and the verdict the shared ship rule's on them
    (`core.ship.ship_verdict`): ship, not clearly better, or `DO_NOT_RESCALE`. A rescaling fitted
    on the cases it is judged on (`fit_on` "same") flatters itself: no verdict, the two worths
    said plainly. `probabilities` is `calibration_verdict`: why, under the answer. `cutoff`: the
    cutoff the worths are read at (`value_cutoff`), named in the answer. `errors`: the calibration
    error as given and rescaled on the same cases (the page's metrics); where rescaling ships for
    the money but the error shown does not fall (`error_change`), the answer says the gain is the
    money's, not more honest probabilities (`SHIP_NOT_HONEST`), so it never reads against the metric.
    `priced`: the price of every wrong answer the worths are read at (`wrong_price`), said beside `cutoff`.
    `same_rows`: with `fit_on` "same", why (`same_rows_warning`'s sentence, required there: no advice
    is guessed), so that the answer names the way to a verdict that reason calls for (`TO_GET_VERDICT`).
    `costs`: Costs & groups' recommendation at the prices (`answers.calibration.CostsPick`; None: not known).
    Where it does not ship `model` (`costs_standing`), its verdict comes first and the worth's answer after it,
    never a green "ship": the worth's answer is for the model used all the same (`IF_USED`: "rescale its
    probabilities" or "keep its probabilities as they are", no second "ship the model" or "not clearly better"), and
    good news is drawn neutral (info), so the page agrees with Costs & groups on shipping.

    Keeping the probabilities as they are is not an alarm: it is drawn as good news (success)
    where they read as calibrated, neutral (info) where rescaling does not pay, and as a warning
    only where no rescaling can fix them.

    >>> v = rescale_verdict("m", Verdict("info", "calibrated."), KEEP, before=0.1, after=0.1, low=0.0,
    ...                     high=0.0, fit_on="validation", unit="$", volume=100)
    >>> v.kind, v.headline  # doctest: +NORMALIZE_WHITESPACE
    ('success', "Do not rescale: keep m's probabilities as they are. At the confidence your prices ask for before
     the model answers, rescaling leaves the worth where it is, $0.100 per case ($10.00 a month).")
    """
    from costlib.core import rules as R
    from costlib.core.ship import ship_verdict

    if advice == NO_FIT:
        return probabilities
    name = shorten(model)
    # the gain as the difference of the two worths shown, at the decimals `worth_digits` shows them
    digits, shown, ends = worth_digits(after, before, low=low, high=high, fit_on=fit_on)
    was, now = (worth_said(x, volume, unit, digits=digits, beside=ends) for x in (before, after))
    month = month_difference(before, after, volume, unit, digits=digits, beside=ends)
    gain = f"{money(shown, unit, digits=digits)} per case" + (f" ({month})" if month else "")
    said = [x for x in (cutoff is not None and cutoff_number(cutoff), priced and f"each wrong answer at {priced}") if x]
    at_cutoff = {"cutoff": f" ({'; '.join(said)})" if said else ""}
    why = probabilities.headline.removesuffix(" " + ADVICE[advice])  # what the probabilities are, not what to do
    verdict = ship_verdict(after - before, low, high)
    why += (" " + ADVICE[CANNOT_FIX]) if advice == CANNOT_FIX else ""
    # on the rows it was fitted on there is no verdict to weigh the gain against (said in the answer)
    why += (" " + OTHER_PRICES) if advice == RESCALE and verdict != R.SHIP and fit_on != "same" else ""
    details, terms = (why, *probabilities.details), probabilities.asides
    if before < 0 and after < 0:  # the model loses at this cutoff either way: said first, not left to a caption
        details = (BELOW_HANDING_OVER.format(nothing=per_case_and_month(0.0, volume, unit)), *details)
    standing = costs_standing(model, costs)  # Costs & groups' verdict where it does not ship the model: said first
    if fit_on == "same":
        head = NO_VERDICT.format(
            name=name, at_cutoff=AT_CUTOFF.format(**at_cutoff), was=was, now=now, to_verdict=TO_GET_VERDICT[same_rows]
        )
        return _agreeing("info", head, standing, details, terms)
    iv = interval(low, high, unit, of="the gain", digits=digits if verdict in (R.SHIP, R.NOT_CLEARLY) else None)
    where = AT_CUTOFF.format(**at_cutoff)
    if verdict == R.SHIP:
        honest = errors is None or (error_change(*errors) or "").startswith("\u2212")  # the error shown falls
        money_only = "" if honest else ", for the money"
        body = f"{where}, {name} is worth {now} rescaled against {was} as given, {gain} more ({iv})."
        if not honest:
            body += " " + SHIP_NOT_HONEST.format(before=error(errors[0]), after=error(errors[1]))
        head = f"{verdict_head(R.SHIP)} with its probabilities rescaled{money_only}: {body}"
        used = IF_USED.format(name=name, what=RESCALE_IT + money_only, body=body)
        return _agreeing("success", used if standing else head, standing, details, terms)
    if verdict == R.NOT_CLEARLY:
        chance = f"the {iv} includes zero" if iv else "there is no interval to tell it from chance"
        rescaled = f"{gain} more, but {chance}, so it could be chance."
        head = (
            f"{verdict_head(R.NOT_CLEARLY)}: keep {name}'s probabilities as they are, worth {was} {where}. "
            f"Rescaled they would be worth {now}, {rescaled}"
        )
        body = f"rescaling is not clearly better. {AT_CUTOFF_FIRST.format(**at_cutoff)}, {name} is worth {was} as given"
        used = IF_USED.format(name=name, what=KEEP_THEM, body=f"{body} and {now} rescaled, {rescaled}")
        return _agreeing("warning", used if standing else head, standing, details, terms)
    if shown == 0:
        said = f"rescaling leaves the worth where it is, {was}"
    else:
        said = f"it would be worth {now} rescaled, less than {was} as given" + (f" ({iv})" if iv else "")
    head = f"{DO_NOT_RESCALE}: keep {name}'s probabilities as they are. {AT_CUTOFF_FIRST.format(**at_cutoff)}, {said}."
    used = IF_USED.format(name=name, what=KEEP_THEM, body=f"{where}, {said}.")
    kind = "warning" if advice == CANNOT_FIX else "success" if advice in (KEEP, CLOSE) else "info"
    return _agreeing(kind, used if standing else head, standing, details, terms)


def _agreeing(kind: str, head: str, standing: str | None, details: tuple, terms: tuple) -> Verdict:
    """The answer as `rescale_verdict` words it, after Costs & groups' verdict where that does not ship the
    model (`costs_standing`), and then never green: green is "ship" on Costs & groups."""
    if standing is None:
        return Verdict(kind, head, details, terms)
    return Verdict("info" if kind == "success" else kind, f"{standing} {head}", details, terms)


def small_bins_note(counts_by_curve: dict, least: int) -> str | None:
    """The sentence that says which bands of the diagram are too small to read, or None.

    >>> small_bins_note({"m, as given": [3, 50]}, 10)[:50]
    'Bands with fewer than 10 cases are drawn as hollow'
    """
    small = {name: sum(int(c) < least for c in counts) for name, counts in counts_by_curve.items()}
    which = "; ".join(f"{shorten(name)}: {n} of {len(counts_by_curve[name])}" for name, n in small.items() if n)
    if not which:
        return None
    return FEW_BINS_NOTE.format(least=least, which=which, step=math.floor(100 / least))
