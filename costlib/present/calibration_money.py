"""The Calibration page's money: the confidence its worths are read at (the one a calibrated model's
probabilities ask for at your prices, `value_cutoff`), the one price it gives every wrong answer (`wrong_price`:
the average of the two prices, where the Value page prices each mistake at its own, `own_prices`), said near the
top (`money_note`), in the worth table's headings (`worth_table`) and under it (`worth_caption`). The answer
itself is `calibration_words.rescale_verdict`.

Pure: sentences from numbers. `choice` is the k in use, an `answers.value_k.KChoice` (read by its attributes).
"""

from __future__ import annotations

import math

from costlib.present.amounts import cutoff_number, money, per_case_and_month
from costlib.present.calibration_words import cases_word

# the worth before and after
WORTH_TABLE = {  # `worth_table` fills in the price of a wrong answer
    "probabilities": "probabilities",
    "at_cutoff": "worth at your prices' confidence, each wrong answer at {price}",
    "handed": "handed over there",
    "at_best": "worth at the best cutoff (same cases and prices)",
}
AS_GIVEN_ROW, RESCALED_ROW = "as given", "rescaled"
WORTH_CAPTION = (
    "Every worth here counts a right answer at {worth} and each wrong answer at {price} (set on Costs & groups "
    "and Value{per_group}). The confidence from which the model answers, said at the top, is right "
    "only for calibrated probabilities: that is where rescaling can change the worth. The worth at the best cutoff "
    "hardly moves, because rescaling keeps the order of the scores. Handing every case over is worth {nothing}."
)
PER_GROUP_K = "; with prices per group, their mean weighted by each group's {cases}"

#: which cutoff and money the page reads, said near the top: the formula's, not Value's fitted threshold or Costs'
MONEY_NOTE = (
    "At your prices the model answers the cases it is at least {cutoff} confident of and hands the rest to a person: "
    "from that confidence up, its chance of being right times what a right answer is worth ({worth}) outweighs its "
    "chance of being wrong times what a wrong one costs. This page prices every wrong answer at {price}, {why}.{own} "
    "The confidence from which the model answers {costs_cutoff}, and the threshold the Value page recommends is "
    "fitted on data instead, so it can differ."
)
#: how this page prices a wrong answer (`wrong_price`): one price for every mistake, k right answers' worth
PRICED = {
    "average": "the average of your two prices",
    "slider": "from the k set on the Value page",
    "capped": "the most this page counts",
}
#: where the two prices differ and k follows them: the Value page's answer prices each mistake on its own
#: (`answers.value.separate_prices`), so its worth is not this page's
OWN_PRICES = (
    " The Value page prices each mistake at its own price instead ({c_fp} a false positive, {c_fn} a false "
    "negative{per_group}), so the worths it shows differ from this page's."
)
COSTS_CUTOFF = "is {same} the cutoff from which Costs & groups flags a case ({cutoff} from your prices alone)"
COSTS_CUTOFFS = "is not the cutoffs from which Costs & groups flags cases"


def value_cutoff(k: float) -> float:
    """The Value page's cutoff from prices, τ* = k/(k+1): the confidence from which a case is
    worth answering rather than handing over.

    >>> value_cutoff(2.0)
    0.6666666666666666
    """
    return k / (k + 1)


def wrong_price(choice, worth: float, unit: str = "") -> str:
    """The one price this page gives every wrong answer, k right answers' worth, and where it comes from: the
    average of the two prices (`choice`, an `answers.value_k.KChoice`), the Value page's k, or k's cap.

    >>> from types import SimpleNamespace as K
    >>> wrong_price(K(k=2.0, derived=2.0, moved=False), 1.0, "$")
    '$2.00, the average of your two prices'
    """
    why = "slider" if choice.moved else "capped" if choice.k < choice.derived * (1 - 1e-9) else "average"
    return f"{money(choice.k * worth, unit)}, {PRICED[why]}"


def own_prices(choice, unit: str = "") -> str:
    """That the Value page prices each mistake at its own price (`OWN_PRICES`), where the two differ and k follows
    them (`answers.value.separate_prices`); '' where Value prices every wrong answer alike too."""
    if choice.moved or math.isclose(choice.c_fp, choice.c_fn, rel_tol=1e-9):
        return ""
    per_group = ", each averaged over the groups" if choice.per_group else ""
    return OWN_PRICES.format(c_fp=money(choice.c_fp, unit), c_fn=money(choice.c_fn, unit), per_group=per_group)


def money_note(choice, *, worth: float, unit: str = "", costs_cutoff: float | None) -> str:
    """Which confidence and money the page reads (`choice`: the k in use, an `answers.value_k.KChoice`; a right
    answer worth `worth`), how it prices a wrong answer and why the Value page's worth differs, and whether Costs &
    groups' cutoff from prices alone (`costs_cutoff`, c_fp/(c_fp+c_fn); None with prices per group or a k moved on
    Value: not one number this page knows) reads the same; every cutoff as the app shows thresholds
    (`amounts.cutoff_number`).

    >>> from types import SimpleNamespace as K
    >>> one = K(c_fp=1.0, c_fn=1.0, k=1.0, derived=1.0, moved=False, per_group=False)
    >>> "is the same here as the cutoff from which" in money_note(one, worth=1.0, costs_cutoff=0.5)
    True
    """
    cutoff, flags = cutoff_number(value_cutoff(choice.k)), costs_cutoff is not None and cutoff_number(costs_cutoff)
    same = "the same here as" if flags == cutoff else "not"  # the same number at equal prices ($1 and $1)
    costs = COSTS_CUTOFF.format(same=same, cutoff=flags) if flags else COSTS_CUTOFFS
    price, why = wrong_price(choice, worth, unit).split(", ", 1)
    return MONEY_NOTE.format(
        cutoff=cutoff, worth=money(worth, unit), price=price, why=why, own=own_prices(choice, unit), costs_cutoff=costs
    )


def worth_table(choice, worth: float, unit: str = "") -> dict:
    """The worth table's headings (`WORTH_TABLE`), the price of a wrong answer in the one they are read at."""
    price, why = wrong_price(choice, worth, unit).split(", ", 1)
    return WORTH_TABLE | {"at_cutoff": WORTH_TABLE["at_cutoff"].format(price=f"{price} ({why})")}


def worth_caption(choice, *, worth: float, unit: str, volume, on_test: bool = True) -> str:
    """Where the worths before and after rescaling are read (the gain is the page's answer, `rescale_verdict`): the
    price of a wrong answer (`wrong_price`, `choice` the k in use) and of a right one, and what handing every case
    over is worth, per case and a month."""
    per_group = PER_GROUP_K.format(cases=cases_word(on_test)) if choice.per_group else ""
    nothing = per_case_and_month(0.0, volume, unit)
    price = wrong_price(choice, worth, unit)
    return WORTH_CAPTION.format(price=price, worth=money(worth, unit), per_group=per_group, nothing=nothing)
