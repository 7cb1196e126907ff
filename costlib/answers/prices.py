"""The answer of the Find my prices page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from costlib.binary import elicit
from costlib.core import escaping, settings
from costlib.present import words

MISS_NAME, ALARM_NAME = "a missed case", "a false alarm"


def mistake_names(miss: str, alarm: str) -> tuple[str, str]:
    """The two mistakes in the user's words (the defaults when left empty)."""
    return miss.strip() or MISS_NAME, alarm.strip() or ALARM_NAME


def question_sentence(bracket, question: str) -> str:
    return f"Question {len(bracket.answers) + 1}: {question}"


def group_multiplier_label(miss: str, group) -> str:
    return f"{escaping.label(miss)} in {escaping.label(group)} is … as one elsewhere"


def bracket_table(table: pd.DataFrame, sweep, names: tuple[str, str]) -> pd.DataFrame:
    """The cutoffs in play (`robust.settle`'s table) as read: a ratio range and the cutoff."""
    lowest = None if sweep.lowest_score is None else {"": sweep.lowest_score}
    return table.assign(
        ratio=[
            f"{words.ratio_text(lo)} to {words.ratio_text(hi)}"
            for lo, hi in zip(table["ratio_low"], table["ratio_high"], strict=True)
        ],
        cutoff=[words.cutoffs_short({"": t}, grouped=False, lowest=lowest) for t in table["threshold"]],
    )[["ratio", "cutoff"]].rename(
        columns={"ratio": f"{names[0]} costs … times {names[1]}", "cutoff": "best cutoff (train rows)"}
    )


def prices_from_answers(bracket, sweep, *, money: float, unit: str, names: Sequence, multipliers: Mapping) -> dict:
    """The settings the answers set: a false alarm at `money` (1 when 0), a miss at the middle of
    the bracket, each group's miss times its multiplier, and the record of the questions."""
    c_fp = float(money) if money > 0 else 1.0
    c_fn = min(c_fp * bracket.middle, settings.PRICE_MAX)
    per_group = any(m != 1.0 for m in multipliers.values())
    out = {"c_fp": c_fp, "c_fn": c_fn, "per_group": per_group}
    for i, g in enumerate(names):
        out[f"c_fp_{i}"] = c_fp
        out[f"c_fn_{i}"] = min(c_fn * multipliers.get(g, 1.0), settings.PRICE_MAX)
    record = elicit.record(bracket, cutoffs=elicit.pieces(sweep, bracket.low, bracket.high), money=c_fp, unit=unit)
    if per_group:
        record["group_multipliers"] = {str(g): m for g, m in multipliers.items()}
    out["price_questions"] = record
    return out
