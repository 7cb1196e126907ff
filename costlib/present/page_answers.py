"""The one answer of each page besides Costs & groups, in plain words: Value (the reject
option), Calibration, Cost matrix, Instance costs and Find my prices. Each takes a computed
recommendation and returns a `words.Verdict`; the sentence pieces they share (verdict heads,
cutoffs, amounts) are `costlib.present.words`'.
"""

from __future__ import annotations

import math

import numpy as np

from costlib.core.escaping import shorten
from costlib.loading.messages import q
from costlib.present.amounts import (
    a_month,
    cases_a_month,
    cheaper_by,
    cutoff_number,
    interval,
    money,
    per_case_and_month,
    percent,
    shown_saving,
)
from costlib.present.labels import PRICE_BESIDE_LABEL, PRICE_BESIDE_LABEL_DELTA, PRICE_BESIDE_LABEL_NEGATIVE
from costlib.present.matrix_words import matrix_saving
from costlib.present.words import (
    BASELINE_WORDS,
    Verdict,
    fitted_rows,
    verdict_head,
)

# the Value page's choices without a model (`value.recommendation`'s baselines), as the answer says them
VALUE_BASELINES = {
    "hand everything over": "handing every case to a person",
    "answer everything": "letting the model answer every case",
    "hand over at random": "handing cases to a person at random, up to what people can take",
}


def value_rows(rec) -> tuple[str, str]:
    """(where the Value page's threshold was fitted, where its worth was read), as phrases that
    follow a word: the train and test rows with a split; without one, all rows, the worth
    cross-fitted (`value.ValueRecommendation.estimate`) or read on the same rows.

    >>> from types import SimpleNamespace as R
    >>> value_rows(R(judged_on="test", estimate="test"))
    (' on the train rows', ' on the test rows')
    >>> value_rows(R(judged_on="all", estimate="cross-fitted"))
    (' on all rows', ' cross-fitted on all rows')
    """
    from costlib.binary import honest as H

    fit = f" on {fitted_rows(rec)}"
    if rec.judged_on == "test":
        return fit, " on the test rows"
    return fit, " cross-fitted on all rows" if rec.estimate == H.CROSS_FITTED else " on the same rows"


MATRIX_NONE_HANDED = " At this price of handing over, no case is worth handing to a person."


def _handed_over(rec, judged_on: str = "all", volume: float | None = None) -> str:
    """How many of the judged cases a policy with the hand-over option hands to a person, as a
    sentence, in counts (a share rounded to 100% or 0% would say all or none where it is not),
    and at `volume` cases a month about how many a month (`cases_a_month`); where handing over is
    allowed but hands no case over, the cheapest decision is recommended
    (`multiclass.recommend_matrix`), and the sentence says why; "" without the option."""
    from costlib.multiclass import CHEAPEST_OR_ABSTAIN

    if CHEAPEST_OR_ABSTAIN not in rec.decisions:
        return ""
    if rec.policy != CHEAPEST_OR_ABSTAIN:
        return MATRIX_NONE_HANDED
    chosen = rec.decisions[rec.policy]
    handed, n = int(np.count_nonzero(chosen < 0)), int(chosen.size)
    month = f", about {cases_a_month(handed / n * volume)}" if volume and volume > 0 and n else ""
    return f" It hands {handed:,} of the {n:,} {judged_noun(judged_on)} to a person{month}."


def matrix_verdict(rec, *, unit: str = "", volume: float | None = None, judged_on: str = "all") -> Verdict:
    """The Cost matrix page's one answer (a `multiclass.MatrixRecommendation`), judged on the test
    rows (`judged_on` "test") or on every row ("all")."""
    from costlib.core import rules as R
    from costlib.core.ship import ship_verdict
    from costlib.core.sweep import tie_tolerance

    verdict = ship_verdict(rec.saving, rec.saving_low, rec.saving_high, tolerance=tie_tolerance(rec.baseline_cost))
    details = []
    for other, est, lo, hi in rec.cheaper_by_chance:
        details.append(
            f"On {'the test' if judged_on == 'test' else 'these'} rows “{other}” came out "
            f"{cheaper_by(est, lo, hi, unit)}"
            + ": the recommendation stays the decision the prices ask for under the model's "
            "probabilities, which does not depend on which rows it is judged on."
        )
    # the two costs subtract as the saving reads, and its interval beside it reads at its decimals
    said = matrix_saving(rec)  # dearer or not as the Cost matrix tile says it
    digits, shown = shown_saving(rec.baseline_cost, rec.cost, rec.saving_low, rec.saving_high)
    ends = (rec.saving_low, rec.saving_high)  # the interval the decimals are cut to: a month reads at them
    if verdict == R.DO_NOT:
        cost, base = (
            per_case_and_month(x, volume, unit, digits=digits, beside=ends) for x in (rec.cost, rec.baseline_cost)
        )
        head = (
            f"{verdict_head(R.DO_NOT)}: at these prices its best policy, “{rec.policy}”, costs {cost}, no less than "
            f"“{rec.baseline}”, which needs no model, at {base}.{_extra_cost(said, unit, volume)}"
        )
        return Verdict("error", head, tuple(details))
    iv = interval(rec.saving_low, rec.saving_high, unit, digits=digits)
    cost = per_case_and_month(rec.cost, volume, unit, digits=digits, beside=ends)
    saving = per_case_and_month(shown, volume, unit, digits=digits, beside=ends, month_of=rec.saving)
    against = f"against “{rec.baseline}”, the cheapest choice without a model"
    if verdict == R.NOT_CLEARLY:
        why = f"the {iv} includes zero" if iv else "there is no interval to tell it from chance"
        head = (
            f"{verdict_head(R.NOT_CLEARLY)}: keep “{rec.baseline}”. The policy “{rec.policy}” would cost {cost}: "
            f"it might save {saving} {against}, but {why}.{_handed_over(rec, judged_on, volume)}"
        )
        return Verdict("warning", head, tuple(details))
    saved = interval(rec.saving_low, rec.saving_high, unit, of="the saving", digits=digits)
    head = (
        f"{verdict_head(R.SHIP)}: use the policy “{rec.policy}”. It costs {cost} and saves {saving} {against} "
        f"({saved})."
    )
    return Verdict("success", head + _handed_over(rec, judged_on, volume), tuple(details))


def _extra_cost(said, unit: str, volume: float | None) -> str:
    """What the model's best policy costs more than the choice without a model, per case and a
    month, with the 95% interval of that extra cost (`matrix_words.matrix_saving`, its figures
    turned round: its signs agree with the words, as the Costs page says a dearer choice), as a
    sentence; "" when the two cost the same as shown (a tie)."""
    if not said.dearer:
        return ""
    more = interval(said.low, said.high, unit, of="the extra cost", digits=said.digits)
    month = a_month(said.shown, volume, unit, digits=said.digits, beside=(said.low, said.high), month_of=said.exact)
    return (
        f" The policy costs {money(said.shown, unit, digits=said.digits)} per case more"
        + (f", {month} more" if month else "")
        + (f" ({more})." if more else ".")
    )


#: where each case's cost comes from, by the column mapped (`ColumnMapping`'s field): (in plain
#: words, as a formula of δ for the terms folded away)
DELTA_ORIGINS = {
    "votes_yes": (
        "the annotators' votes: the more of them agree, the costlier a mistake on the case",
        "δ = ln((yes + 1)/(no + 1)) of the votes",
    ),
    "rating": (
        "a rating: the farther from the middle of the scale, the costlier a mistake on the case",
        "δ = rating − midpoint",
    ),
    "measurement": (
        "a measurement: the farther from the threshold that makes a case positive, the costlier a mistake on it",
        "δ = measurement − threshold",
    ),
}
DELTA_COLUMN_SOURCE = (
    "your instance-cost column: its sign is the label and its size how costly a mistake on the case is",
    "δ is the column itself",
)


def delta_source(mapping, *, beside_label: bool = False) -> tuple[str, str]:
    """Where the cases' instance costs come from (a `ColumnMapping`): (plain words, the formula of δ).
    `beside_label`: a price column read beside a label column (`loading.roles.priced_by_label`): its
    size the price, the label column's say which cases are positive, not "its sign is the label".

    >>> from types import SimpleNamespace as M
    >>> delta_source(M(votes_yes="n_yes", rating=None, measurement=None))[1]
    'δ = ln((yes + 1)/(no + 1)) of the votes'
    >>> delta_source(M(delta="p", label="y", positive=None), beside_label=True)[1]
    'δ is the price column, below 0 on the cases whose label is the other value'
    """
    if beside_label:
        other, not_positive = PRICE_BESIDE_LABEL_NEGATIVE
        negative = other if mapping.positive is None else not_positive.format(positive=q(mapping.positive))
        return (
            PRICE_BESIDE_LABEL.format(price=q(mapping.delta), label=q(mapping.label)),
            PRICE_BESIDE_LABEL_DELTA.format(negative=negative),
        )
    for field, words in DELTA_ORIGINS.items():
        if getattr(mapping, field, None):
            return words
    return DELTA_COLUMN_SOURCE


def judged_noun(judged_on: str) -> str:
    """The cases an Instance costs answer is judged on, as a noun: "test cases" with a split."""
    return "test cases" if judged_on == "test" else "cases"


def instance_caption(
    mapping, positives: int, n: int, judged_on: str, zero: int = 0, *, beside_label: bool = False
) -> str:
    """The sentence under the Instance costs page's answer: where each case's cost comes from,
    how many of the cases the answer is judged on are positive, and how many have δ = 0 (tied
    votes, a rating at its midpoint: no cost to get wrong, so out of the weighted error; the error
    rate counts them as negatives, as δ > 0 defines the label). `beside_label`: as `delta_source`'s.

    >>> from types import SimpleNamespace as M
    >>> instance_caption(M(votes_yes=None, rating="r", measurement=None), 3, 10, "test")[-36:]
    '3 of the 10 test cases are positive.'
    >>> instance_caption(M(votes_yes=None, rating="r", measurement=None), 3, 10, "test", 2)[-60:]
    ' margin either way) and count as negative in the error rate.'
    """
    tied = (  # in plain words: this sentence is read first (no δ)
        f"; {zero:,} {'costs' if zero == 1 else 'cost'} nothing to get wrong (tied votes, or no margin either way) "
        f"and {'counts' if zero == 1 else 'count'} as negative in the error rate"
        if zero
        else ""
    )
    return (
        f"How costly a mistake on each case is comes from {delta_source(mapping, beside_label=beside_label)[0]}. "
        f"{positives:,} of the {n:,} {judged_noun(judged_on)} are positive{tied}."
    )


def instance_terms(
    mapping, typical: float, *, price: float = 1.0, unit: str = "", beside_label: bool = False
) -> tuple[str, ...]:
    """The Instance costs page's technical terms, one sentence each (folded away under the answer):
    δ, NEC, how the money follows from them (`instance.nec_money`), the ratio of the error rate
    to NEC and the interval. `typical` is the mean |δ| of the judged cases; `beside_label` as
    `delta_source`'s."""
    formula = delta_source(mapping, beside_label=beside_label)[1]
    return (
        "Instance cost δ: each case's signed margin; its sign is the label (positive when δ > 0) "
        f"and its size |δ| how costly a mistake on the case is. Here {formula}.",
        "Weighted error (NEC, normalized excess cost): the sum of |δ| over the mistakes divided by the sum of "
        "|δ| over every case, so the share of the mistake cost: 0 is perfect, 0.5 a coin flip, 1 always wrong; "
        "it equals the error rate when every case costs the same.",
        f"Cost per case: the weighted error times the price of a mistake on a typical case ({money(price, unit)}), "
        f"a case of average |δ| ({typical:.3g} here): a mistake on a case costs that price times its |δ| over "
        f"{typical:.3g}.",
        f"Where the mistakes fall (error rate / NEC): above {APART:g}, on ambiguous cases, cheaper than a typical "
        f"one; below {1 / APART:.2f}, on clear-cut, costlier ones; in between, on cases about as costly as a typical "
        "one.",
        "95% interval of the saving: a range built so that, in 95 of 100 samples of cases like these, it holds the "
        "true saving per case. With a train/test split the judged cases are resampled with the cutoff held; without "
        "one it is cross-fitted, each case judged by a cutoff picked without it.",
    )


#: how far from 1 the error rate over NEC must be to say where the mistakes fall: within a tenth
#: the two shares tell nothing apart (0.989 read "mostly on clear-cut cases": review 60)
APART = 1.1


def _where_mistakes_fall(rec) -> str:
    """How often the model is wrong and on which cases, in plain words (error rate against NEC)."""
    ratio = rec.error_rate / rec.nec if rec.nec > 0 else float("nan")
    if not math.isfinite(ratio) or rec.error_rate <= 0:
        return ""
    where = (
        "mostly on ambiguous cases, where a mistake costs less than on a typical case"
        if ratio > APART
        else "mostly on clear-cut cases, where a mistake costs more than on a typical case"
        if ratio < 1 / APART
        else "on cases about as costly as a typical one"
    )
    return (
        f"It is wrong on {percent(rec.error_rate)} of the {judged_noun(rec.judged_on)}, {where}: its mistakes "
        f"add up to {percent(rec.nec)} of what getting every case wrong would cost (its weighted error)."
    )


def nec_shown(rec, price: float = 1.0) -> tuple[int, float, tuple[float, float]]:
    """(decimals, saving, beside) of the Instance costs answer (an `instance.NecRecommendation`, a mistake on a
    typical case at `price`): the decimals its two costs are shown at (`amounts.shown_saving`, cut to the saving's
    95% interval `beside`), the saving as their shown difference. The answer (`nec_verdict`) and the table below it
    (`answers.instance.instance_cutoff`) read every cost per case and a month at them, so that the table reads the
    answer's figures: a first read found "$0.036 per case ($360 a month)" above a row "$0.036 | $364"."""
    from costlib.instance import nec_money

    ends = (float(nec_money(rec.saving_low, price)), float(nec_money(rec.saving_high, price)))
    digits, shown = shown_saving(float(nec_money(rec.baseline_nec, price)), float(nec_money(rec.nec, price)), *ends)
    return digits, shown, ends


def nec_verdict(rec, *, price: float = 1.0, unit: str = "", volume: float | None = None) -> Verdict:
    """The Instance costs page's one answer (an `instance.NecRecommendation`: its status is the
    ship rule's, `core.ship.saving_status`, on its own interval), in money: `price` (in `unit`)
    is what a mistake on a typical case costs, and the cost per case follows from NEC
    (`instance.nec_money`), per case and a month at `volume` cases a month."""
    from costlib.core import rules as R
    from costlib.instance import nec_money

    def cash(x: float) -> float:
        return float(nec_money(x, price))

    # the two costs at the decimals their difference needs, the saving as their shown difference (`nec_shown`)
    digits, shown, ends = nec_shown(rec, price)

    def per_case(x: float) -> str:  # a month as the amount reads at those decimals (`amounts.month_figure`)
        return per_case_and_month(cash(x), volume, unit, digits=digits, beside=ends)

    base = BASELINE_WORDS.get(rec.baseline, rec.baseline)
    details = tuple(
        x
        for x in (
            _where_mistakes_fall(rec),
            f"A mistake on a typical case is priced at {money(price, unit)} (the price above), one on any other "
            "case in proportion to how costly the case is: the cost per case is the model's share of the mistake cost "
            "(its weighted error) times that price.",
        )
        if x
    )
    model = shorten(rec.model)
    fitted = (
        "fitted on the train rows"
        if rec.judged_on == "test"
        else "fitted on all rows; its cost is cross-fitted, each row judged by a cutoff fitted without it"
        if rec.estimate == "cross-fitted"
        else "fitted and judged on the same rows"
    )
    verdict = R.verdict_of(rec.status)
    without = f"{base}, the cheaper choice without a model"
    if verdict == R.DO_NOT:
        return Verdict(
            "error",
            f"{verdict_head(R.DO_NOT)}: no cutoff of the score of “{model}” costs less than {without}, at "
            f"{per_case(rec.baseline_nec)}, once each mistake is priced by how costly its case is. Keep {base}.",
            details[-1:],  # how the money follows; where a model not shipped errs is beside the point
        )
    how = f"flag a case when the score of “{model}” is at least {cutoff_number(rec.threshold)} ({fitted})"
    iv = interval(*ends, unit, of="the saving", digits=digits)
    cost, base_cost = (per_case(x) for x in (rec.nec, rec.baseline_nec))
    month = a_month(shown, volume, unit, digits=digits, beside=ends, month_of=cash(rec.saving))
    saves = f"{money(shown, unit, digits=digits)} per case" + (f", {month}" if month else "")
    if verdict == R.NOT_CLEARLY:
        why = f"the {iv} includes zero, so it could be chance" if iv else "there is no interval to tell it from chance"
        return Verdict(
            "warning",
            f"{verdict_head(R.NOT_CLEARLY)}: keep {base}, at {base_cost}. The best cutoff would "
            f"{how}, at {cost}: it might save {saves}, but {why}.",
            details,
        )
    return Verdict(
        "success",
        f"{verdict_head(R.SHIP)}: {how}. It costs {cost} against {base_cost} for "
        f"{without}: it saves {saves}" + (f" ({iv})." if iv else "."),
        details,
    )
