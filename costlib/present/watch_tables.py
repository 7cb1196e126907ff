"""The Watch page's table of groups (`watch_group_table`) and the words its rows share with the
periods' table: a period's name (`period_label`) and how its cost is known (`how_measured`)."""

from __future__ import annotations

import math

import pandas as pd

from costlib.binary.folds import MIN_CLASS_ROWS
from costlib.core.escaping import shorten
from costlib.present.amounts import beside_interval, column_digits, money, number, percent
from costlib.present.disparity_table import rate_with_interval
from costlib.present.tables import small_group_note

PART_MEASURED = "{share} measured"  # the rest estimated, as the page's details say


def period_label(period: str) -> str:
    """A period as a person reads it: "2026-07", "2026-07-14", or "week of 2026-07-13" (a week's
    first day, not pandas' "2026-07-13/2026-07-19")."""
    return f"week of {period.split('/')[0]}" if "/" in period else period


def how_measured(p: dict) -> str:
    """How a period's cost is known: "measured" (every outcome in, or only the known ones when no
    estimate is possible: "measured on 63%"), "estimated", or "63% measured" (the rest estimated, as
    the page's details say; no brackets: the command line says it in brackets)."""
    if p["measured"]:
        return "measured" if p["labelled"] == p["n"] else f"measured on {percent(p['labelled'] / p['n'], 0)}"
    if p["labelled"]:
        return PART_MEASURED.format(share=percent(p["labelled"] / p["n"], 0))
    return "estimated"


GROUPS_WHAT = (
    "The shipped cutoffs group by group, in each period judged: the group's cases judged, the share of them flagged, "
    "the share of its negative cases flagged (false positive rate) and of its positive cases missed (false negative "
    "rate), and what the mistakes cost per case. In brackets, each number's 95% interval, from the same redraws of "
    "the period's cases as its alert, and each at least as wide as the group's own count of cases allows (so "
    "no mistake among a few cases still reads as a range); a number without brackets has none (none were drawn). "
    "An estimated period's rates and cost (the table above says which periods are) are estimated from the "
    "scores as its cost is there, and their intervals allow for the outcomes still to come. A period with only some "
    'outcomes in counts all its cases where the rest is estimated from the scores ("63% measured" above), and only '
    'those with outcomes where it is measured on them alone ("measured on 63%"). A group marked '
    f"“{small_group_note()}” has fewer than {MIN_CLASS_ROWS} positive or negative cases in that period "
    "(expected ones where outcomes are still to come): read its rates as a guess."
)
GROUPS_COLUMNS = {
    "note": {
        "help": f"Fewer than {MIN_CLASS_ROWS} positive or negative cases of the group in that period (expected ones "
        "where outcomes are still to come): its rates are a guess."
    }
}
"""The dashboard's headers of `watch_group_table`: the note's column says how few, by the rule Costs &
groups marks its rates per group by (`binary.folds.own_cutoff`)."""
#: the rates of `watch_group_table`, each beside its 95% interval: (column, the report's key)
GROUP_RATES = (
    ("flagged", "flagged_share"),
    ("false positive rate", "false_positive_rate"),
    ("false negative rate", "false_negative_rate"),
)


def _cost_cell(x: dict, unit: str, digits: int | None = None) -> str:
    """A group's cost per case and its 95% interval, at the decimals that read them apart
    (`amounts.beside_interval`): "$0.221 ($0.183 to $0.260)"; the cost alone without an interval,
    "–" without a cost."""
    cost = x.get("cost_per_case")
    if cost is None:
        return "–"
    low, high = (math.nan if e is None else e for e in x.get("cost_per_case_interval") or (None, None))
    if not (math.isfinite(low) and math.isfinite(high)):
        return money(cost, unit)
    d = beside_interval(cost, low, high) if digits is None else digits  # the column's (`amounts.column_digits`)
    return f"{money(cost, unit, digits=d)} ({money(low, unit, digits=d)} to {money(high, unit, digits=d)})"


def _rate_cell(x: dict, key: str) -> str:
    """A group's rate with its 95% interval as Costs & groups writes it (`tables` rates per group)."""
    low, high = x.get(f"{key}_interval") or (None, None)
    return rate_with_interval(x.get(key), low, high)


def watch_group_table(report: dict, unit: str = "") -> pd.DataFrame | None:
    """Per period judged and group (`GROUPS_WHAT`): the cases judged (all the period's where its
    cost is estimated, else those with outcomes), the share flagged, the false positive and false
    negative rates and the cost per case at the shipped cutoffs, each with its 95% interval, and the
    mark of a group too small to read (`tables.small_group_note`); None without groups. How each
    period is known is the periods' table's column (and the download's), not repeated on every row:
    the table fits the page at 1400 px. A missing number reads "–", never "None" or "nan"."""
    groups = [x for p in report["periods"] for x in p.get("groups", {}).values()]
    d = column_digits((x.get("cost_per_case"), *(x.get("cost_per_case_interval") or (None, None))) for x in groups)
    rows = [
        {
            "period": period_label(p["period"]),
            "group": shorten(str(g)),
            "cases": number(x["n"], 0),
            **{column: _rate_cell(x, key) for column, key in GROUP_RATES},
            "cost per case": _cost_cell(x, unit, d),  # one precision down the column
            "note": small_group_note() if x.get("small") else "",
        }
        for p in report["periods"]
        for g, x in p.get("groups", {}).items()
    ]
    return pd.DataFrame(rows) if rows else None


def watch_group_numbers(report: dict) -> pd.DataFrame | None:
    """`watch_group_table` as numbers, for a spreadsheet (its download): the period as the report
    names it, the group's full name, its cases, positives and negatives (expected where outcomes are
    to come), each rate as a fraction and the cost per case in the unit without its sign, each with
    its 95% bounds (empty without), how the period is known and ``small``; None without groups."""
    rows = []
    for p in report["periods"]:
        for g, x in p.get("groups", {}).items():
            row = {"period": p["period"], "group": str(g), "cases": x["n"]}
            row.update({k: x.get(k) for k in ("positives", "negatives")})
            for column, key in (*GROUP_RATES, ("cost per case", "cost_per_case")):
                low, high = x.get(f"{key}_interval") or (None, None)
                row.update({column: x.get(key), f"{column} low": low, f"{column} high": high})
            rows.append({**row, "how": how_measured(p), "small": bool(x.get("small"))})
    return pd.DataFrame(rows) if rows else None
