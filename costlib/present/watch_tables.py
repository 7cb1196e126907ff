"""The Watch page's table of groups (`watch_group_table`) and the words its rows share with the
periods' table: a period's name (`period_label`) and how its cost is known (`how_measured`)."""

from __future__ import annotations

import pandas as pd

from costlib.present.amounts import money, number, percent

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
    "The shipped cutoffs group by group: how many of each group's cases were judged, what share of them was flagged "
    "and what the mistakes cost per case (measured or estimated, as in the table above). A period with only some "
    'outcomes in counts all its cases where the rest is estimated from the scores ("63% measured"), and only those '
    'with outcomes where it is measured on them alone ("measured on 63%").'
)


def watch_group_table(report: dict, unit: str = "") -> pd.DataFrame | None:
    """Per period and group: the cases judged (`GROUPS_WHAT`: all the period's where its cost is
    estimated, else those with outcomes), share flagged and cost per case at the shipped cutoffs;
    None without groups."""
    rows = [
        {
            "period": period_label(p["period"]),
            "group": g,
            "cases judged": number(x["n"], 0),
            "flagged": percent(x["flagged_share"]) if x["flagged_share"] is not None else "–",
            "cost per case": money(x["cost_per_case"], unit) if x["cost_per_case"] is not None else "–",
            "how": how_measured(p),
        }
        for p in report["periods"]
        for g, x in p.get("groups", {}).items()
    ]
    return pd.DataFrame(rows) if rows else None
