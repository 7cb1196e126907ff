"""What the Cost matrix page says beside its answer (`page_answers.matrix_verdict` says the answer
itself, `labels` the page's intro and widget labels): which rows it judges and which it picks the
choice without a model on, and the heatmaps' titles and caption."""

from __future__ import annotations

from costlib.present.amounts import money

#: the heatmaps' titles, short enough for half the page at 1400 px ("Cases by true class and decision
#: (cheapest decision, or hand over)" was cut at its column's edge); the policy is each one's subtitle
CONFUSION_TITLE = "Cases by true class and decision"
COST_CELLS_TITLE = "Cost per case from each cell"

#: the policies table's columns beside its cost (`labels.COST_PER_CASE`, `labels.COST_A_MONTH`): the share
#: of the judged cases handed to a person, that share of the cases a month, the share right of those answered
HANDED_SHARE = "handed over"
HANDED_A_MONTH = "handed over a month"
ACCURACY = "accuracy of answers"


def matrix_rows_sentence(n_judged: int, n_rows: int, judged_on: str, fit_role: str | None, n_fit: int) -> str:
    """Which rows the page judges (`judged_on` "test": the test rows; else every row) and which
    it picks the one decision for everyone without a model on (`fit_role`: "validation", "train",
    or None for every row), as the other pages say their rows.

    >>> matrix_rows_sentence(1499, 3000, "test", "validation", 1501)[:70]
    'Judged on the 1,499 test rows of the 3,000: the choice without a model'
    >>> matrix_rows_sentence(500, 500, "all", None, 500)[:69]
    'This data has no test rows, so all its 500 rows are judged, and the c'
    """
    fitted = (
        "is picked on them too" if fit_role is None else f"is picked on the {n_fit:,} {fit_role} rows"
    ) + " (the one class to decide for every case)"
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
