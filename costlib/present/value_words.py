"""The Value page's words and numbers: the tiles under the answer (`value_metrics`), the labels of
a limit on the hand-overs (what the limit changes and costs is `value_limit_words`'), the captions
and the notes of the sections below it.
"""

from __future__ import annotations

import numpy as np

from costlib import value
from costlib.present import page_answers
from costlib.present.amounts import (
    cutoff_number,
    money,
    month_amount,
    percent,
)
from costlib.present.calibration_words import NO_SPLIT, NO_TEST_ROWS, ONLY_TEST_ROWS, same_rows_case
from costlib.present.labels import ALL_ROWS_FLATTER, whose_models
from costlib.present.value_limit_words import gain_month, shown_gain
from costlib.value.per_outcome import OUTCOME_NEGATIVE, OUTCOME_POSITIVE


def value_lag_sentence(drawn_k: float, drawn_worth: float, unit: str) -> str:
    """What the sections below Value's answer were drawn for, once a move has left them behind, in
    the page's words for k (`cancels_out`): "still for k = 3" was notation (review 74).

    >>> value_lag_sentence(3, 1, "$").split(": ")[1]
    'one wrong answer cancels out 3 right answers, with a right answer worth $1.00.'
    """
    chart = VALUE_K_TITLE.split(", for every")[0]
    return (
        f"The chart “{chart}” and the tables below are still drawn for the earlier price: {cancels_out(drawn_k)}, "
        f"with a right answer worth {money(drawn_worth, unit)}."
    )


def cancels_out(k: float) -> str:
    """k in the words the Value page says it in, for a first-time reader who does not know k.

    >>> cancels_out(2), cancels_out(1.0)
    ('one wrong answer cancels out 2 right answers', 'one wrong answer cancels out 1 right answer')
    """
    shown = f"{k:.3g}"
    return f"one wrong answer cancels out {shown} right {'answer' if shown == '1' else 'answers'}"


def k_subtitle(k: float) -> str:
    """The subtitle of the Value chart by confidence threshold: the k it is drawn at, in words. In
    its title, "(k = 2, test rows)" was notation to a first-time reader, and the words made the title
    run past the chart's edge at 1,400 px (review 73).

    >>> k_subtitle(2)
    'At this price, one wrong answer cancels out 2 right answers'
    """
    return f"At this price, {cancels_out(k)}"


def k_from_prices_sentence(
    *, c_fp: float, c_fn: float, derived: float, k: float, moved: bool, per_group: bool, worth: float, unit: str
) -> str:
    """Where the Value page's k comes from, in words: `derived` = k from the mean prices `c_fp`
    and `c_fn` (each averaged over the groups when `per_group`) and a right answer's `worth`;
    `k` the slider's when `moved`.

    >>> said = k_from_prices_sentence(c_fp=1, c_fn=3, derived=2, k=2, moved=False, per_group=False, worth=1, unit="$")
    >>> said.split(":")[0]
    'k = 2 follows from your prices, so one wrong answer cancels out 2 right answers'
    """
    mean_words = ", each averaged over the groups weighted by their judged cases" if per_group else ""
    return (  # k said in words where it is first read (review 72)
        f"k = {derived:.3g} follows from your prices, so {cancels_out(derived)}: a wrong answer costs on average "
        f"{money((c_fp + c_fn) / 2, unit)} (the mean of a false positive's {money(c_fp, unit)} and a false "
        f"negative's {money(c_fn, unit)}{mean_words}, set on Costs & groups) and a right answer earns "
        f"{money(worth, unit)}."
        + ("" if not moved else f" You moved the slider to k = {k:g}.")
        # lopsided prices: the answer's details say why Costs & groups can answer differently
        # (`value_verdict.lopsided_sentence`), not this caption too
        + " Unlike Costs & groups, a case here can be handed to a person, so the two pages can answer differently."
    )


#: after `k_from_prices_sentence` when the answer prices each mistake on its own (`answers.value.separate_prices`)
K_SEPARATE_NOTE = (  # it said "k sets the chart at one price and the sections further down" (review 72)
    " Your two prices differ, so the answer below prices each mistake on its own, and so does the chart under it. "
    "The chart at one price and the sections further down price every wrong answer at the average of the two; "
    "moving the slider, or limiting the hand-overs, makes the answer do so too."
)


def per_outcome_prices_sentence(c_fp: float, c_fn: float, worth: float, unit: str) -> str:
    """What the per-outcome inputs count in: the mean prices `c_fp` and `c_fn` against a right
    answer's `worth` (the worth the prices are counted in, never 0).

    >>> per_outcome_prices_sentence(1, 3, 2, "$").split("; ")[1]
    'with a right answer worth $2.00, those are the costs below in right answers.'
    """
    return (  # it said "that is k_fp and k_fn below", the inputs' notation, to a product manager (review 71)
        "In units of a right negative answer (worth 1). From your prices: a false positive costs "
        f"{money(c_fp, unit)} and a false negative {money(c_fn, unit)}; with a right answer "
        f"worth {money(worth, unit)}, those are the costs below in right answers."
    )


#: what the formula threshold is, in the words the Value chart at k writes beside it ("threshold from
#: prices alone"): the chart at k names it so in its legend and caption
FORMULA_WORDS = "from prices alone"


def formula_words(reject_value: float = 0.0) -> str:
    """The formula threshold at one price k as the Value page writes it: in words (`FORMULA_WORDS`),
    whatever a case handed over is worth. It wrote k/(k+1), or (k + r)/(k + 1) with r that worth in
    right answers (`value.against_k.formula_threshold`), which a product manager read as notation
    (review 71); the formula itself stays in the code, the JSON and the command line.

    >>> formula_words(), formula_words(0.5)
    ('from prices alone', 'from prices alone')
    """
    return FORMULA_WORDS


def value_k_caption(worth: float, unit: str, fit_role: str | None = "train", reject_value: float = 0.0) -> str:
    """The caption of worth against k: each model's best threshold is fitted on the `fit_role` rows
    of a split ("train", or "validation" without train rows; `ValueSweeps.fit_role`), None: on the
    very rows drawn (no test rows, or no split); the formula threshold with a case handed over
    worth `reject_value` right answers (`formula_words`)."""
    fitted = f"fitted on the {fit_role} rows" if fit_role else "picked on the very rows drawn"
    return (
        f"Worth per case when a right answer earns {money(worth, unit)}. Solid: each model at its best "
        f"threshold ({fitted}); dotted: at the formula threshold {formula_words(reject_value)}, which "
        "trusts the probabilities; dashed: hand everything over. The black dotted line is your k."
    )


def counts_only_value_sentence(name: str) -> str:
    return (
        f"“{name}” holds counts, not rows: separate prices per outcome, the models side by side at the cutoff "
        "0.5 and calibration need each case's score and label, so they are not shown for it."
    )


# the first number when the model's threshold does not ship: the worth of what the verdict keeps
VALUE_VERDICT_MORE = "Why not the formula threshold?"  # the title of the verdict's details
# the worth chart's title says so when the answer prices each mistake on its own: the chart prices every wrong
# answer at their mean (k), and under an answer that ships it read as a contradiction (a product manager saw
# "worth $0.113 per case" above a curve below $0 everywhere)
VALUE_K_CHART_APART = "at one price for every wrong answer"
#: the rows of the Value page's first chart at separate prices without a split: the pair of thresholds drawn
#: is the one fitted on these very rows, so its worth there is above the answer's cross-fitted one
#: (`labels.ALL_ROWS_FLATTER`)
ALL_ROWS_FLATTER_THRESHOLDS = ALL_ROWS_FLATTER.replace("cutoff", "thresholds")
#: the answers of the Value page's first chart at separate prices (`value.per_outcome.outcome_curves`)
OUTCOME_ANSWERS = {OUTCOME_POSITIVE: "positive", OUTCOME_NEGATIVE: "negative"}


def outcome_chart_title(model: str, *, judged_on: str, cross_fitted: bool) -> str:
    """The title of the Value page's first chart when the answer prices each mistake on its own:
    the rows it is drawn on (the test rows, or all rows, which flatter the pair fitted on them
    where the answer's worth is cross-fitted), as `answers.value_sections.value_tau_title` says them.

    >>> outcome_chart_title("p_recid", judged_on="test", cross_fitted=False)
    'Worth per case by confidence threshold, each mistake at its own price, p_recid (test rows)'
    """
    rows = "test rows" if judged_on == "test" else (ALL_ROWS_FLATTER_THRESHOLDS if cross_fitted else "all rows")
    return f"Worth per case by confidence threshold, each mistake at its own price, {model} ({rows})"


def outcome_line_name(answer: str, other_tau: float) -> str:
    """One line of that chart: `answer`'s threshold moves along the axis, the other answer's stays
    at `other_tau` (inf: never accepted). Short enough that the chart's table shows the axis's long
    title whole beside it.

    >>> outcome_line_name("positive", 0.800638)
    "positive answers' threshold (negative at 0.8006)"
    >>> outcome_line_name("negative", float("inf"))
    "negative answers' threshold (no positive answers)"
    """
    other = OUTCOME_ANSWERS[OUTCOME_NEGATIVE if answer == OUTCOME_POSITIVE else OUTCOME_POSITIVE]
    held = f"{other} at {cutoff_number(other_tau)}" if np.isfinite(other_tau) else f"no {other} answers"
    return f"{OUTCOME_ANSWERS[answer]} answers' threshold ({held})"


def outcome_mark_label(answer: str, tau: float, worth: float, unit: str, *, other_tau: float = 0.0) -> str:
    """The words beside a fitted threshold on that chart: the answer, its threshold (as the answer's
    words write it, `amounts.cutoff_number`) and the pair's worth; and that the other answer is
    never accepted where it is not (`other_tau` inf: no mark of its own can say so).

    >>> outcome_mark_label("positive", 0.603239, 0.129, "$")
    'positive from 0.6032: $0.129'
    >>> outcome_mark_label("positive", 0.603239, 0.113, "$", other_tau=float("inf"))
    'positive from 0.6032, negative never accepted: $0.113'
    """
    other = OUTCOME_ANSWERS[OUTCOME_NEGATIVE if answer == OUTCOME_POSITIVE else OUTCOME_POSITIVE]
    never = "" if np.isfinite(other_tau) else f", {other} never accepted"
    return f"{OUTCOME_ANSWERS[answer]} from {cutoff_number(tau)}{never}: {money(worth, unit)}"


def outcome_marks_name(fitted_on: str, *, recommended: bool) -> str:
    """The legend's name of the fitted thresholds (`fitted_on`: `page_answers.value_rows`' first phrase).

    >>> outcome_marks_name(" on the train rows", recommended=True)
    'thresholds fitted on the train rows (recommended)'
    """
    return f"thresholds fitted{fitted_on}" + (" (recommended)" if recommended else "")


def outcome_baseline_label(baseline: str, worth: float, unit: str) -> str:
    """The horizontal line of that chart: the best choice without the model's thresholds and its worth.
    Not "best without the model": that choice can be letting the model answer every case (review 72).

    >>> outcome_baseline_label("hand everything over", 0.0, "$")
    'best without confidence thresholds, handing every case to a person: $0.00'
    >>> outcome_baseline_label("answer everything", 0.311, "$")
    'best without confidence thresholds, letting the model answer every case: $0.311'
    """
    return f"best without confidence thresholds, {BASELINE_WORDS[baseline]}: {money(worth, unit)}"


def separate_prices_detail(*, c_fp: float, c_fn: float, unit: str) -> str:
    """The answer's detail at separate prices: each mistake priced on its own, as the chart under
    the answer draws it, while k and what it sets price every wrong answer at their mean.

    >>> separate_prices_detail(c_fp=1, c_fn=10, unit="$").split(";")[0]
    'Each mistake is priced on its own: a false positive at $1.00, a false negative at $10.00'
    """
    return (
        f"Each mistake is priced on its own: a false positive at {money(c_fp, unit)}, a false negative at "
        f"{money(c_fn, unit)}; each answer gets a confidence threshold of its own, fitted to these prices, as the "
        f"chart below draws. The chart at one price and the sections further down price every wrong answer alike, at "
        f"the average of the two, {money((c_fp + c_fn) / 2, unit)}."
    )


VALUE_BASELINE_TILE = {
    value.HAND_OVER: "Worth per case, all to a person",
    value.ANSWER_ALL: "Worth per case, model answers all",
    value.HAND_AT_RANDOM: "Worth per case, random hand-overs",
    value.ALL_POSITIVE: "Worth per case, every answer positive",
    value.ALL_NEGATIVE: "Worth per case, every answer negative",
}
#: each choice without the model's thresholds in words: `page_answers.VALUE_BASELINES`, and at separate
#: prices one answer for every case (`value.per_outcome`)
BASELINE_WORDS = {
    **page_answers.VALUE_BASELINES,
    value.ALL_POSITIVE: "answering “positive” for every case",
    value.ALL_NEGATIVE: "answering “negative” for every case",
}
VALUE_GAIN_TILE = "Gain per case"  # the first number when the threshold ships: what the verdict is about
#: what the gain is against, in the gain tile's label (`value_gain_tile`): the verdict's baseline
VALUE_GAIN_AGAINST = {
    value.HAND_OVER: "over handing all to a person",
    value.ANSWER_ALL: "over the model answering all",
    value.HAND_AT_RANDOM: "over random hand-overs",
    value.ALL_POSITIVE: "over answering all positive",
    value.ALL_NEGATIVE: "over answering all negative",
}


def value_gain_tile(baseline: str) -> str:
    """The gain tile's label, naming what the gain is against.

    >>> value_gain_tile("hand everything over")
    'Gain per case over handing all to a person'
    """
    return f"{VALUE_GAIN_TILE} {VALUE_GAIN_AGAINST[baseline]}"


VALUE_WORTH_TILE = "Worth per case"  # the threshold's worth when it ships, when it differs from its gain
VALUE_THRESHOLD_TILE = "Worth per case with the threshold"  # the model's confidence threshold, when it does not ship


def _kept_share(rec, choice: str) -> str:
    """The share of the cases the choice the verdict keeps hands to a person, as a percent."""
    if choice == value.HAND_AT_RANDOM:
        return percent(rec.capacity.max_reject, 0)
    return "100%" if choice == value.HAND_OVER else "0%"


def value_metrics(rec, *, worth: float, unit: str, volume: float) -> tuple[dict, ...]:
    """The Value page's numbers (keyword arguments of each metric), in the user's unit: what the
    verdict says to do first (`ValueRecommendation.kept` when the threshold does not ship), so that
    a verdict that does not ship it never shows its worth as the worth per case (as `costs_metrics`
    does on Costs & groups). When it ships: its gain per case and a month first (what the verdict
    is about, as Costs & groups shows the saving), then its worth unless that is the same number
    (the choice without it worth nothing). No numbers when nothing could be valued."""
    from costlib.core.ship import ADDS_NOTHING, NO_ANSWER, UNCLEAR

    if rec.status == NO_ANSWER:
        return ()
    on_fit, on_judged = page_answers.value_rows(rec)
    lead = on_judged.strip()[:1].upper() + on_judged.strip()[1:]  # "On the test rows", "Cross-fitted on all rows"
    kept = rec.kept
    ends = (rec.gain_low * worth, rec.gain_high * worth)  # the gain's interval: how precise the worths are
    month = {  # the worth a month of what the verdict says to do
        "label": "Worth a month",
        "value": month_amount(rec.kept_value * worth, volume, unit) or "set a volume",
        "help": f"Worth per case times {volume:,.0f} cases a month.",
    }
    if kept is not None:
        choice, kept_worth = kept
        first = {
            "label": VALUE_BASELINE_TILE[choice],
            "value": money(kept_worth * worth, unit),
            "help": f"What the verdict says to do: {BASELINE_WORDS[choice]},{on_judged}.",
        }
        if rec.status == ADDS_NOTHING:  # the fitted threshold is itself that choice: nothing to compare
            return (
                first,
                month,
                {
                    "label": "Handed to a person",
                    "value": _kept_share(rec, choice),
                    "help": "What the verdict says to do hands every case to a person, or none."
                    if choice != value.HAND_AT_RANDOM
                    else "What the verdict says to do hands as many cases to a person as they can take, picked at "
                    "random.",
                },
            )
        more = ("might gain" if rec.status == UNCLEAR else "would gain") if rec.gain >= 0 else "would lose"
        # the tiles subtract as they read, at the verdict's decimals: what it keeps here is the baseline
        digits, shown = shown_gain(rec, worth)
        first = {**first, "value": money(kept_worth * worth, unit, digits=digits)}
        # each month as its tile's per-case amount reads, at the precision those decimals carry
        lost = month_amount(abs(shown), volume, unit, digits=digits, beside=ends, month_of=abs(rec.gain) * worth)
        return (
            first,
            {
                "label": VALUE_THRESHOLD_TILE,
                "value": money(rec.value * worth, unit, digits=digits),
                "help": f"{lead}, answering when the confidence is at least the threshold fitted{on_fit}; the "
                "verdict does not ship it.",
            },
            {
                "label": f"It {more} per case",
                "value": money(abs(shown), unit, digits=digits),
                "help": "Not a gain you can count on: its 95% interval reaches zero or below (see the verdict)."
                if rec.status == UNCLEAR
                else "The threshold is worth no more than the choice the verdict keeps.",
            },
            {
                "label": f"It {more} a month",
                "value": lost or "set a volume",
                "help": "The same a month, at your cases a month: nothing changes unless the threshold ships, and "
                "the verdict does not ship it.",
            },
        )
    # gain = the shown worths' difference, at the verdict's decimals (no more than its interval warrants)
    digits, shown = shown_gain(rec, worth)
    gain = money(shown, unit, digits=digits)
    model_worth = money(rec.value * worth, unit, digits=digits)
    return (
        {
            "label": value_gain_tile(rec.baseline),
            "value": gain,
            "help": f"{lead}, against {BASELINE_WORDS[rec.baseline]}: the best of the choices without a "
            "confidence threshold (handing every case to a person, letting the model answer every case"
            + (", answering the same for every case" if isinstance(rec, value.OutcomeRecommendation) else "")
            + ") on these rows.",
        },
        {
            "label": "Gain a month",
            "value": gain_month(rec, worth, volume, unit).removesuffix(" a month") or "set a volume",
            "help": f"The gain per case times {volume:,.0f} cases a month.",
        },
        *(
            ()
            if model_worth == gain  # the choice without the model is worth nothing: the same number twice
            else (
                {
                    "label": VALUE_WORTH_TILE,
                    "value": model_worth,
                    "help": f"{lead}, answering from the recommended confidence threshold: what the model is worth, "
                    "before taking away what the choice without it is worth.",
                },
            )
        ),
        {
            "label": "Handed to a person",
            "value": f"{rec.reject_rate:.0%}",
            "help": "Share of cases whose confidence is below the recommended threshold for the model's answer.",
        },
    )


VALUE_CAP_LABEL = "Limit hand-overs"
VALUE_CAP_NUMBER = "Hand-overs people can take a month"
VALUE_CAP_HELP = (
    "The people who take the handed-over cases are a queue with a size. With a limit, the answer is the best "
    "threshold that hands over at most this many of the cases a month (set under Cases per month)."
)
VALUE_CAP_NO_VOLUME = (
    "Set the cases per month (in the sidebar) to use the limit: it is a share of them. Until then the answer "
    "ignores it."
)


#: beside the Value page's answer when its model is the best of several on the rows it is judged on
#: (`value.ValueRecommendation.picked_among`), as `labels.MODELS_PICKED` is beside Costs & groups'
VALUE_MODELS_PICKED = (  # {whose}: `labels.whose_models`
    "The best of {whose} {m} models is picked on these same rows, so its gain's interval is wider than that "
    "model's own (a {level} interval): the luck of that pick is inside it too."
)


def value_picked_sentence(rec, *, sample: bool = False) -> str | None:
    """Why the gain's interval of a model picked as the best of several on the rows it is judged on
    (no split) is wider than that model's own (`value.recommend_value` widens it: `honest.picked_z`),
    when the answer shows that interval; None otherwise (one model, a split, no interval).
    `sample`: the data is a built-in sample, whose models are not the reader's."""
    from costlib.core.ship import SAVES, UNCLEAR

    m = rec.picked_among
    shown = rec.status in (SAVES, UNCLEAR) and np.isfinite(rec.gain_low) and np.isfinite(rec.gain_high)
    if m <= 1 or not shown:
        return None
    return VALUE_MODELS_PICKED.format(whose=whose_models(sample), m=m, level=percent(1 - 0.05 / m))


#: the Value page's chart of worth against k, in words: its axis read "k: how much worse a wrong answer is than
#: a right one is good" (review 72)
VALUE_K_AXIS = "how many right answers one wrong answer cancels out (k)"
VALUE_K_TITLE = "Worth per case by how many right answers one wrong answer cancels out, for every model"
F1_HEADER = "F1 score (a balance of missed and false positives)"  # the side-by-side table's "F1"
FITTED_RULE = "thresholds fitted to these prices"  # the acceptance table's rule of the page's answer
ACCEPTANCE_RULES_NOTE = (  # it wrote "p ≥ (k_fp + r)/(k_tp + k_fp)", notation to a product manager (review 71)
    "“Thresholds fitted to these prices” is the rule of the answer above when your two prices differ: each "
    "answer's confidence threshold is the one worth most on the fitting rows (cross-fitted without a split). "
    "“By class thresholds” answers “positive” when the model's confidence in it reaches the threshold from "
    "prices alone for a positive answer (the confidence at which answering is expected to be worth as much as "
    "handing the case over), and “negative” likewise with a false negative's price; “by expected value” takes, "
    "case by case, the answer expected to be worth more when its expected worth beats what a case handed over "
    "is worth, and hands the case over otherwise. All three count a case handed over at that worth. The last "
    "two differ only on cases where the likelier answer (a confidence of 0.5 or more) is not the one expected "
    "to be worth more, as when a right positive is worth more than a right negative."
)
CLASSIFICATION_NOTE = (
    "Accuracy, the F1 score (a balance of missed and false positives) and the price of the errors per case use "
    "the cutoff 0.5 and let the model answer every case "
    "(none is handed over), so they can rank models differently from worth."
)
CALIBRATION_VALUE_NOTE = (
    "Worth per case at the formula threshold. Rescaling each model's scores by one number fitted on held-out "
    "rows keeps its ranking but makes its probabilities honest, which the formula threshold assumes."
)
#: the Value page's calibration table's two worths, at the formula threshold (`CALIBRATION_VALUE_NOTE` says
#: so): they read "worth at τ* before" and "after" (review 71)
WORTH_BEFORE_RESCALING = "worth before rescaling"
WORTH_AFTER_RESCALING = "worth after rescaling"
NO_VALIDATION_NOTE = (
    "This data has no split, so no rows are held out from the judged rows to calibrate on. Map a split column "
    "(validation or train rows) on the Data page to see value before and after rescaling."
)
#: a split column without test rows: every row is judged (`Dataset.purpose_rows`), so none is held out to
#: judge a temperature on (`answers.calibration.calibration_rows`; the Calibration page's
#: `calibration_words.NO_TEST_ROWS_TO_CALIBRATE`)
NO_TEST_ROWS_NOTE = (
    "There are no test rows, so every row is judged and none is held out to fit the rescaling on: fitted and "
    'judged on the same rows, it would flatter itself. Mark some rows "test" in the split column of your file and '
    "upload it again on the Data page to see value before and after rescaling."
)
#: a split column of test rows only: nothing besides the judged rows to calibrate on
ONLY_TEST_ROWS_NOTE = (
    "There are only test rows, so no rows are held out from the judged rows to calibrate on. Mark some rows "
    '"validation" or "train" in the split column of your file and upload it again on the Data page to see value '
    "before and after rescaling."
)


def no_calibration_note(*, split: bool, test_rows: bool) -> str:
    """Why the Value page shows no value before and after temperature scaling
    (`answers.calibration.calibration_rows` is None), in its words: no split column (`split`
    False), a split without test rows, or a split of test rows only (`calibration_words.same_rows_case`).

    >>> no_calibration_note(split=True, test_rows=False) == NO_TEST_ROWS_NOTE
    True
    """
    return {
        NO_SPLIT: NO_VALIDATION_NOTE,
        NO_TEST_ROWS: NO_TEST_ROWS_NOTE,
        ONLY_TEST_ROWS: ONLY_TEST_ROWS_NOTE,
    }[same_rows_case(split=split, test_rows=test_rows)]
