"""What the Cost matrix page says beside its answer (`page_answers.matrix_verdict` says the answer
itself, `labels` the page's intro and widget labels): which rows it judges and which it picks the
choice without a model on, and the heatmaps' titles and caption."""

from __future__ import annotations

import math
from typing import NamedTuple

from costlib.present.amounts import a_month, money, shown_saving
from costlib.present.labels import NO_VOLUME_HELP

#: the heatmaps' titles, short enough for half the page at 1400 px ("Cases by true class and decision
#: (cheapest decision, or hand over)" was cut at its column's edge); the policy is each one's subtitle
CONFUSION_TITLE = "Cases by true class and decision"
COST_CELLS_TITLE = "Cost per case from each cell"

#: the policies table's columns beside its cost (`labels.COST_PER_CASE`, `labels.COST_A_MONTH`): the share
#: of the judged cases handed to a person, that share of the cases a month, the share right of those answered
HANDED_SHARE = "handed over"
HANDED_A_MONTH = "handed over a month"
ACCURACY = "accuracy of answers"


def matrix_rows_sentence(
    n_judged: int,
    n_rows: int,
    judged_on: str,
    fit_role: str | None,
    n_fit: int,
    *,
    one_class: str | None = None,
    handed_over: bool = False,
) -> str:
    """Which rows the page judges (`judged_on` "test": the test rows; else every row) and which
    it picks the one decision for everyone without a model on (`fit_role`: "validation", "train",
    or None for every row), as the other pages say their rows; and what the choice without a model
    is: the one class to decide for every case, or, when `handed_over`, handing every case over,
    which costs less on the judged rows than that class (`one_class`, its policy's name; the class
    is picked on the fitting rows, and set against handing over on the judged rows). Under an answer
    measured against handing every case over, "(the one class to decide for every case)" named a
    choice the answer was not measured against (first-time user review).

    >>> matrix_rows_sentence(1499, 3000, "test", "validation", 1501)[:70]
    'Judged on the 1,499 test rows of the 3,000: the choice without a model'
    >>> matrix_rows_sentence(500, 500, "all", None, 500)[:69]
    'This data has no test rows, so all its 500 rows are judged, and the c'
    >>> said = matrix_rows_sentence(
    ...     1499, 3000, "test", "validation", 1501, one_class="always decide a", handed_over=True
    ... )
    >>> print(said.rsplit(". ", 1)[0])  # doctest: +NORMALIZE_WHITESPACE
    Judged on the 1,499 test rows of the 3,000: the choice without a model is picked on the 1,501
    validation rows and on the test rows. It is handing every case over, which on the test rows costs
    less than the one class to decide for every case, “always decide a”, picked on the validation rows
    """
    where = "on them too" if fit_role is None else f"on the {n_fit:,} {fit_role} rows"
    if handed_over:  # the one class picked where it is, then set against handing over on the judged rows
        judged = "the test rows" if judged_on == "test" else "these rows"
        beaten = "the one class to decide for every case" + (f", “{one_class}”" if one_class else "")
        beaten += "" if fit_role is None else f", picked on the {fit_role} rows"
        also = "" if fit_role is None else f" and on {judged}"
        fitted = f"is picked {where}{also}. It is handing every case over, which on {judged} costs less than {beaten}"
    else:
        fitted = f"is picked {where} (the one class to decide for every case)"
    nothing_else = (
        "Nothing else is fitted: each case's decision follows from your prices and the model's probabilities."
    )
    if judged_on == "test":
        return f"Judged on the {n_judged:,} test rows of the {n_rows:,}: the choice without a model {fitted}. " + (
            nothing_else
        )
    return f"This data has no test rows, so all its {n_rows:,} rows are judged, and the choice without a model " + (
        f"{fitted}. {nothing_else}"
    )


def heatmap_caption(handed: int, price: float, unit: str) -> str:
    """The caption under the heatmaps: how a cell of the cost map is made, and the cases handed over."""
    return (
        "A cell of the cost map is its cases times its price, divided by all cases. Cases handed over "
        f"({handed:,}) are priced separately at {money(price, unit)} each and are not in the heatmaps: the cells "
        "and the hand-overs' share add up to the policy's cost per case."
    )


class SavingSaid(NamedTuple):
    """The Cost matrix answer's saving as its headline and its tile say it (`matrix_saving`): as
    what the model costs more when `dearer`, every figure then turned round, so that its signs
    agree with the words (as the Costs page says a dearer choice)."""

    dearer: bool  # the model's best policy costs more than the choice without a model, as shown
    digits: int | None  # the decimals both costs and the saving are shown at (`shown_saving`)
    shown: float  # per case, the difference of the two shown costs
    exact: float  # per case, unrounded: what a month is of
    low: float  # the 95% interval per case, its ends in order
    high: float


def matrix_saving(rec) -> SavingSaid:
    """The one reading of whether the model's best policy is dearer than the choice without a model
    (a `multiclass.MatrixRecommendation`): from the saving as shown, the difference of the two shown
    costs (`shown_saving`), so that a saving below zero that reads as $0 (a tie) is said as a tie everywhere.

    >>> from types import SimpleNamespace as R
    >>> matrix_saving(R(baseline_cost=1.0, cost=1.2, saving=-0.2, saving_low=-0.3, saving_high=-0.1))[:3]
    (True, 2, 0.2)
    >>> matrix_saving(R(baseline_cost=1.0, cost=1.0000001, saving=-1e-7, saving_low=-0.01, saving_high=0.01)).dearer
    False
    """
    if not math.isfinite(rec.saving):
        return SavingSaid(False, None, rec.saving, rec.saving, rec.saving_low, rec.saving_high)
    digits, shown = shown_saving(rec.baseline_cost, rec.cost, rec.saving_low, rec.saving_high)
    if -shown > 0:
        return SavingSaid(True, digits, -shown, -rec.saving, -rec.saving_high, -rec.saving_low)
    return SavingSaid(False, digits, shown, rec.saving, rec.saving_low, rec.saving_high)


#: the Cost matrix page's tiles (`answers.matrix.matrix_metrics`): the saving a month, or what the model
#: costs more a month (without a volume, `labels.NO_VOLUME`), the policy's cost and the choice without it
SAVING_A_MONTH = "Saving a month"
EXTRA_A_MONTH = "Extra cost a month"
COST_TILE = "Cost per case"
BASELINE_TILE = "Best without the model"


def saving_tile_help(dearer: bool, volume: float) -> str:
    """The help of the saving tile: how its month follows from the per-case amount, or where the volume is set."""
    if not volume:
        return NO_VOLUME_HELP
    return f"{'What the model costs more' if dearer else 'Saving'} per case times {volume:,.0f} cases a month."


def at_volume(cost: float, volume: float, unit: str, *, shown_at: dict | None = None) -> str:
    """' $5,290 a month at 10,000 cases.' after a tile's help, '' without a volume; `shown_at`: the
    tile's `digits` and the interval they are cut to (`beside`), for the month to read as the tile
    does (`amounts.a_month`)."""
    said = a_month(cost, volume, unit, **(shown_at or {}))
    return f" {said[:1].upper()}{said[1:]} at {volume:,.0f} cases." if said else ""


def cost_tile_help(
    policy: str, judged_on: str, cost: float, volume: float, unit: str, *, shown_at: dict | None = None
) -> str:
    """The help of the policy's cost tile: the policy, the rows it is judged on, a month (`at_volume`)."""
    rows = "the test" if judged_on == "test" else "all the"
    return f"“{policy}” on {rows} rows.{at_volume(cost, volume, unit, shown_at=shown_at)}"


def baseline_tile_help(baseline: str, cost: float, volume: float, unit: str, *, shown_at: dict | None = None) -> str:
    """The help of the tile of the choice without the model: which one, a month (`at_volume`)."""
    return f"“{baseline}”.{at_volume(cost, volume, unit, shown_at=shown_at)}"
