"""The watch report in words: one answer ("keep the cutoff" or "refit: since <month> ..."), the
same on the Watch page and the command line, and its table of periods."""

from __future__ import annotations

import pandas as pd

from costlib.binary.capacity import cap_limit
from costlib.core.escaping import shorten
from costlib.present.amounts import money, number, percent
from costlib.present.words import Verdict, cutoffs_text
from costlib.watch.periods import FREQS
from costlib.watch.report import ASSUMPTION

WATCH_WHAT = (
    "Is the cutoff you shipped still the right one? Each month (or week, or day) of newer cases is judged against "
    "its own best cutoff: measured where the outcomes are known, estimated from the scores where they are not yet. "
    "An alert means the period's own best beats the shipped cutoff beyond the noise."
)


def honest(word: str) -> str:
    """Why a period's own best cutoff is not taken at its word (`word`: month, week or day)."""
    return (
        f"A {word}'s own best cutoff is fitted on that {word}, so it always looks at least as good: what refitting "
        f"would save is cross-fitted (each case judged by a cutoff fitted on the {word}'s other cases), and its "
        "interval repeats that fit on resampled cases."
    )


def period_label(period: str) -> str:
    """A period as a person reads it: "2026-07", "2026-07-14", or "week of 2026-07-13" (a week's
    first day, not pandas' "2026-07-13/2026-07-19")."""
    return f"week of {period.split('/')[0]}" if "/" in period else period


def _span(periods: list[dict]) -> str:
    names = [period_label(p["period"]) for p in periods]
    return names[0] if len(names) == 1 else f"{names[0]} to {names[-1]}"


def _ships(policy: dict, shipped: dict) -> str:
    cap, per_month = policy.get("capacity"), policy.get("capacity_cases_per_month")
    limit = ""
    if per_month is not None:
        limit = f", within a review limit of {number(per_month, 0)} cases a month"
    elif cap is not None:
        limit = f", within a review limit of {percent(cap)} of the cases"
    if policy.get("random_share") is not None:
        return f"The policy flags a random {percent(policy['random_share'])} of the cases, without the model{limit}."
    return f"The policy ships: {cutoffs_text(shipped, grouped=len(shipped) > 1)}{limit}."


def watch_verdict(report: dict, *, unit: str = "") -> Verdict:
    """The one answer of a watch report (`costlib.watch.report.watch_report`), the same on the
    page and the command line. Amounts are what the file's own cases cost: per period (a month,
    week or day) the regret per case times the period's cases; "since" is where the latest
    unbroken run of alerting periods with outcomes starts."""
    periods = report["periods"]
    word = FREQS.get(report.get("freq", "M"), "period")
    cuts = report["policy"]["cutoffs"]
    shipped = {g: (float("inf") if t is None else float(t)) for g, t in cuts.items()}
    details = [_ships(report["policy"], shipped), honest(word)]
    partly = [p for p in periods if p["measured"] and p["labelled"] < p["n"]]
    if partly:
        names = ", ".join(f"{period_label(p['period'])} ({percent(p['labelled'] / p['n'], 0)})" for p in partly[-3:])
        details.append(
            f"Outcomes are in for part of the cases of {names}: measured on the cases whose outcome is known. If the "
            "outcomes of some kinds of case arrive later (a default takes months), those are not yet a fair sample."
        )
    estimated = [p for p in periods if not p["measured"]]
    if estimated:
        saves = [p for p in estimated if p["regret_per_case"] is not None]
        about = ""
        if saves:
            total = sum(p["regret_per_case"] * p["n"] for p in saves)
            per_case = total / sum(p["n"] for p in saves)
            about = (
                f" Refitting is estimated to save about {money(total / len(saves), unit)} a {word} there "
                f"({money(per_case, unit)} per case), until their outcomes say."
            )
        details.append(f"{_span(estimated)}: no outcomes yet, so not judged for an alert. {ASSUMPTION}{about}")
    measured = [p for p in periods if p["measured"]]
    if not measured:
        why = (
            "no outcome column is chosen" if not report.get("data", {}).get("label") else f"no {word} has outcomes yet"
        )
        return Verdict(
            "warning",
            f"Not judged yet: {why}, so no {word} can alert. Choose the outcome column if the file has one; until "
            "then the estimates below are all there is.",
            tuple(details),
        )
    run = []
    for p in measured:  # the latest unbroken run of alerts
        run = [*run, p] if p["alert"] else []
    alerts = [p for p in measured if p["alert"]]
    if not alerts:
        return Verdict(
            "success" if not estimated else "warning",
            f"Keep the cutoff{' for now' if estimated else ''}: no {word} with outcomes costs more than its own "
            "best cutoff beyond the noise.",
            tuple(details),
        )
    first = run[0] if run else alerts[-1]
    low, high = first["regret_interval"]
    n = first["n"]
    since = run or [first]
    average = sum(p["regret_per_case"] * p["n"] for p in since) / len(since)
    iv = f", 95% interval {money(low * n, unit)} to {money(high * n, unit)}" if low is not None else ""
    extra = money(first["regret_per_case"] * n, unit)
    head = f"{period_label(first['period'])}: {extra} more in its {number(n, 0)} cases{iv}"
    later = len(run) - 1
    more = f"; the {word} after it alerts too" if later == 1 else ""
    more = f"; the {later} {word}s after it alert too" if later > 1 else more
    if not run:  # alerts earlier, but the latest period with outcomes is within the noise again
        more = f"; the latest {word} with outcomes ({period_label(measured[-1]['period'])}) is within the noise again"
    return Verdict(
        "error",
        f"Refit: since {period_label(first['period'])} the shipped cutoff has cost about {money(average, unit)} a "
        f"{word} more than each {word}'s own best cutoff, beyond the noise ({head}){more}.",
        tuple(details),
    )


OVER_LIMIT = " (over the review limit)"


def how_measured(p: dict) -> str:
    """How a period's cost is known: "measured", "partly (63%)" (on its cases with outcomes) or "estimated"."""
    if not p["measured"]:
        return "estimated"
    if p["labelled"] < p["n"]:
        return f"partly ({percent(p['labelled'] / p['n'], 0)})"
    return "measured"


def _flagged(share, cap) -> str:
    if share is None:
        return "–"
    return percent(share) + (OVER_LIMIT if cap is not None and share > cap_limit(cap, 1.0) else "")


#: the table's short columns, drawn narrow so that all of them fit the page
NARROW = {c: {"width": "small"} for c in ("period", "cases", "flagged", "base rate", "alert")}
SAVES = "refitting would save per case (95% interval)"


def watch_table(report: dict, unit: str = "") -> pd.DataFrame:
    """The periods as a person reads them: text cells, "–" where there is nothing to show."""
    rows = []
    for p in report["periods"]:
        low, high = p["regret_interval"]
        best = p["best_threshold"]
        one = len(set(best.values())) <= 1  # one cutoff for everybody: said once
        cut = ", ".join(
            ("nobody" if t is None else f"≥ {t:.4g}")
            if one
            else f"{shorten(g)}: {'nobody' if t is None else f'≥ {t:.4g}'}"
            for g, t in (list(best.items())[:1] if one else best.items())
        )
        save = money(p["regret_per_case"], unit) if p["regret_per_case"] is not None else "–"
        if low is not None:
            save += f" ({money(low, unit)} to {money(high, unit)})"
        rows.append(
            {
                "period": period_label(p["period"]),
                "cases": number(p["n"], 0),
                "how": how_measured(p),
                "cost per case": money(p["cost_per_case"], unit) if p["cost_per_case"] is not None else "–",
                "flagged": _flagged(p.get("flagged_share"), p.get("capacity")),
                "its own best cutoff": cut or "–",
                SAVES: save,
                "base rate": percent(p["base_rate"]) if p["base_rate"] is not None else "–",
                "alert": "yes" if p["alert"] else "no" if p["measured"] else "–",
            }
        )
    return pd.DataFrame(rows)


GROUPS_WHAT = (
    "The shipped cutoffs group by group: how many of each group's cases were judged (those with outcomes, where "
    "there are any), what share of them was flagged and what the mistakes cost per case (measured or estimated, as "
    "in the table above)."
)


def watch_group_table(report: dict, unit: str = "") -> pd.DataFrame | None:
    """Per period and group: cases, share flagged and cost per case at the shipped cutoffs; None
    without groups."""
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
