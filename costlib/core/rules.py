"""The names of the decision rules, in one place.

A rule gives every group a cutoff (flag iff score >= cutoff). The identifiers on the left
are what code, tables, policy files and the contract (`costlib.compare_rules`) use; the
words on the right are what a person reads on a page or in a report.
"""

from __future__ import annotations

THRESHOLD_05 = "threshold 0.5"
ELKAN = "elkan"
COST_OPTIMAL = "cost-optimal"  # the contract's name for the best cutoff of each group
SINGLE = "best single cutoff"
NOBODY = "flag nobody"
EVERYONE = "flag everyone"
AT_RANDOM = "flag at random"  # under a capacity: as many cases as the team can take, picked without a model
FAIR_PREFIX = "fair: "

#: the rules of the contract's `compare_rules`, in its order
CONTRACT_RULES = (THRESHOLD_05, ELKAN, COST_OPTIMAL, NOBODY)
#: the no-model decisions; the cheapest one is the baseline every saving is measured against (flag at
#: random only under a capacity, where flagging everyone does not fit: a share up to the cap, picked at random)
BASELINES = (NOBODY, EVERYONE, AT_RANDOM)

_WORDS = {
    THRESHOLD_05: "cutoff 0.5",
    ELKAN: "cutoff from prices alone",  # the formula's cutoff: the exact formula is in its help
    COST_OPTIMAL: "best cutoff per group",
    SINGLE: "best single cutoff",
    NOBODY: "flag nobody",
    EVERYONE: "flag everyone",
    AT_RANDOM: "flag at random",
}

_HELP = {
    THRESHOLD_05: "Flag a case when its score is at least 0.5, whatever the prices.",
    # in words, not c_fp / (c_fp + c_fn): a product manager reads it (review 72); the report's technical note keeps it
    ELKAN: "A cutoff worked out from the prices alone, not fitted to the data: flag a case when its score is at "
    "least the price of a false positive divided by the sum of both prices (each group's own prices, when they "
    "differ): prices of 1 and 3 give 0.25. If the scores are calibrated probabilities, it is the cheapest "
    "cutoff (shown by Charles Elkan in 2001).",
    COST_OPTIMAL: "Each group gets the cutoff that is cheapest for that group on the fitting rows. Different "
    "cutoffs for different groups treat people differently by group.",
    SINGLE: "One cutoff for everybody: the one that is cheapest on the fitting rows.",
    NOBODY: "No model: nobody is flagged, every positive case is missed.",
    EVERYONE: "No model: everybody is flagged, every negative case is a false alarm.",
    AT_RANDOM: "No model: as many cases as your review limit allows, picked at random (what any model must beat "
    "when flagging everyone does not fit the limit).",
}


def rule_words(rule: str) -> str:
    """What a person reads for `rule` ("best cutoff per group", "fair: equal opportunity")."""
    return _WORDS.get(rule, rule)


def rule_help(rule: str) -> str:
    """One sentence on what `rule` does."""
    if rule.startswith(FAIR_PREFIX):
        return (
            "The cheapest per-group cutoffs that keep every group's "
            + rule[len(FAIR_PREFIX) :]
            + " within the tolerance of every other group's."
        )
    return _HELP.get(rule, "")


def is_fair(rule: str) -> bool:
    return rule.startswith(FAIR_PREFIX)


# ---------------------------------------------------------------------------------------
# The three verdicts: every answer is one of them, worded the same on every surface

SHIP = "ship the model"  # the honest 95% interval of its saving is above zero
NOT_CLEARLY = "not clearly better"  # cheaper on these rows, but the interval reaches zero: keep the no-model choice
DO_NOT = "do not let the model decide"  # it costs more than (or is) the no-model choice, or nothing could be fitted
VERDICTS = (SHIP, NOT_CLEARLY, DO_NOT)

# the status of a recommendation (every page's `status`) -> its verdict
_VERDICT_OF = {"saves": SHIP, "not distinguishable": NOT_CLEARLY}


def verdict_of(status: str) -> str:
    """The verdict of a recommendation's status (`binary.decision.SAVES` and the others).

    >>> verdict_of("saves"), verdict_of("worse")
    ('ship the model', 'do not let the model decide')
    """
    return _VERDICT_OF.get(status, DO_NOT)
