"""The warning under the fairness table does not hold up a rule that flags everyone (or nobody)
in every group as one that keeps the tolerance: it says that such a rule does not use the model
(review 56, item 8: on COMPAS at $1/$3 the only rules fitted tighter that hold flag everyone)."""

from __future__ import annotations

import pandas as pd

from costlib.binary import fair_judged as FJ

EO, EFPR = "fair: equal opportunity", "fair: equal false positive rate"


def _summary(holding: dict) -> pd.DataFrame:
    """Two rules fitted at the stated 5% that miss it out of sample, and the rules fitted tighter
    in `holding` ({rule: what it flags in every group: "everyone", "nobody" or "" for a rule
    that uses the model}), which all hold."""
    rules = [EO, EFPR, *holding]
    tight = len(holding)
    return pd.DataFrame(
        {
            "rule": rules,
            "tolerance": [0.05] * len(rules),
            "feasible": [True] * len(rules),
            "within_tolerance_on_test": [False, False] + [True] * tight,
            "fit_tolerance": [0.05, 0.05] + [0.03] * tight,
            FJ.TRIVIALLY_EQUAL_COLUMN: ["", ""] + list(holding.values()),
        }
    )


def test_rules_that_hold_only_by_flagging_everyone_are_said_not_to_use_the_model():
    held = {f"{EO} (fitted within 3%)": "everyone", f"{EFPR} (fitted within 3%)": "everyone"}
    note = FJ.holding_note(_summary(held))
    assert note == (
        "Fitted at the stated tolerance, fair: equal opportunity and fair: equal false positive rate may miss it on "
        "new cases, and no tighter fit on the fitting rows that uses the model keeps it within the tolerance with 95% "
        "confidence: fair: equal opportunity (fitted within 3%) and fair: equal false positive rate (fitted within 3%) "
        "stay within it, but they flag everyone in every group, so they do not use the model."
    )


def test_a_rule_that_uses_the_model_is_named_first_and_one_that_flags_nobody_after_it():
    held = {f"{EO} (fitted within 1%)": "", f"{EFPR} (fitted within 0%)": "nobody"}
    note = FJ.holding_note(_summary(held))
    assert note.endswith(
        "fair: equal opportunity (fitted within 1%) stays within it with 95% confidence. It is also met by "
        "fair: equal false positive rate (fitted within 0%), which flags nobody in every group, so it does not use "
        "the model."
    ), note


def test_without_the_column_every_rule_that_holds_is_named_as_before():
    summary = _summary({f"{EO} (fitted within 3%)": "everyone"}).drop(columns=FJ.TRIVIALLY_EQUAL_COLUMN)
    assert FJ.holding_note(summary).endswith(
        "fair: equal opportunity (fitted within 3%) stays within it with 95% confidence."
    )
