"""What a page draws on request: the words of each page's toggle for the sections a reader
reads second (`Details`; the toggle itself is one setting for every page, ``?details=true``).
A shared link opens to its answer fast, and the sections come when asked for."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Details:
    """toggle: the toggle's label; help: its tooltip; folded: the caption in their place while
    they are not drawn (what is there on request)."""

    toggle: str
    help: str
    folded: str


ON_REQUEST = "Drawn on request, so that the answer above opens fast. One setting for every page, kept in the link."

COSTS_DETAILS = Details(
    toggle="Show every rule, the groups and fairness, and how much the prices matter",
    help=ON_REQUEST + " The audit report has these sections whether or not they are shown here.",
    folded="Below, on request: every rule's cost with its interval, the groups' rates and the fairness-constrained "
    "cutoffs (with the policy file of each fairness rule), and how much the prices matter. The report above has "
    "all of them.",
)

VALUE_DETAILS = Details(
    toggle="Show which model is worth more at each k, prices per outcome and calibration",
    help=ON_REQUEST,
    folded="Below, on request: every model's worth at each k (where their ranking flips), separate prices for "
    "each kind of mistake with the two acceptance rules, the models at the cutoff 0.5, and the worth before "
    "and after calibration.",
)
MATRIX_DETAILS = Details(
    toggle="Show where the cases and the costs fall",
    help=ON_REQUEST,
    folded="Below, on request: heatmaps of the confusion matrix and of each cell's share of the cost, for each "
    "way of deciding.",
)
INSTANCE_DETAILS = Details(
    toggle="Show how costly a mistake is, case by case",
    help=ON_REQUEST,
    folded="Below, on request: how costly a mistake is, case by case, by group when there are groups.",
)
