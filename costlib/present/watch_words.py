"""The watch report in words: one answer ("keep the cutoff" or "refit: since <month> ..."), the
same on the Watch page and the command line, and its table of periods."""

from __future__ import annotations

import pandas as pd

from costlib.present.amounts import money, number, percent
from costlib.present.words import Verdict, cutoffs_text
from costlib.watch.periods import FREQS
from costlib.watch.report import ASSUMPTION

WATCH_WHAT = (
    "Is the cutoff you shipped still the right one? Each month of newer cases is judged against its own best "
    "cutoff: measured where the outcomes are known, estimated from the scores where they are not yet. An alert "
    "means the month's own best beats the shipped cutoff beyond the noise."
)
HONEST = (
    "A month's own best cutoff is fitted on that month, so it always looks at least as good: what refitting would "
    "save is cross-fitted (each case judged by a cutoff fitted on the month's other cases), and its interval "
    "repeats that fit on resampled cases."
)


def _amount(per_case: float, n: float, volume: float | None, unit: str) -> str:
    if volume:
        return f"{money(per_case * volume, unit)} a month"
    return f"{money(per_case, unit)} per case ({money(per_case * n, unit)} over its {number(n, 0)} cases)"


def watch_verdict(report: dict, *, unit: str = "", volume: float | None = None) -> Verdict:
    """The one answer of a watch report (`costlib.watch.report.watch_report`). Amounts are a
    month (`volume` cases) for monthly periods, else per case; "since" is where the latest
    unbroken run of alerting periods with outcomes starts."""
    periods = report["periods"]
    word = FREQS.get(report.get("freq", "M"), "period")
    volume = volume if report.get("freq", "M") == "M" else None
    cuts = report["policy"]["cutoffs"]
    shipped = {g: (float("inf") if t is None else float(t)) for g, t in cuts.items()}
    details = [f"The policy ships: {cutoffs_text(shipped, grouped=len(shipped) > 1)}.", HONEST]
    estimated = [p for p in periods if not p["measured"]]
    if estimated:
        names = [p["period"] for p in estimated]
        span = names[0] if len(names) == 1 else f"{names[0]} to {names[-1]}"
        saves = [p["regret_per_case"] for p in estimated if p["regret_per_case"]]
        about = ""
        if saves:
            mean = _amount(sum(saves) / len(saves), estimated[-1]["n"], volume, unit)
            about = f" Refitting is estimated to save about {mean} there, until their outcomes say."
        details.append(f"{span}: no outcomes yet, so not judged for an alert. {ASSUMPTION}{about}")
    measured = [p for p in periods if p["measured"]]
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
    scale, per = (volume, " a month") if volume else (1.0, " per case")
    iv = f" (95% interval {money(low * scale, unit)} to {money(high * scale, unit)}{per})" if low is not None else ""
    later = len(run) - 1
    more = f"; the {later} {word}{'s' if later != 1 else ''} after it alert too" if later > 0 else ""
    if not run:  # alerts earlier, but the latest period with outcomes is within the noise again
        more = f"; the latest {word} with outcomes ({measured[-1]['period']}) is within the noise again"
    return Verdict(
        "error",
        f"Refit: since {first['period']} the shipped cutoff costs {_amount(first['regret_per_case'], n, volume, unit)} "
        f"more than the {word}'s best cutoff, beyond the noise{iv}{more}.",
        tuple(details),
    )


def watch_table(report: dict, unit: str = "") -> pd.DataFrame:
    """The periods as a person reads them: text cells, "–" where there is nothing to show."""
    rows = []
    for p in report["periods"]:
        low, high = p["regret_interval"]
        best = p["best_threshold"]
        cut = ", ".join(
            f"{g}: {'nobody' if t is None else f'≥ {t:.4g}'}"
            if len(best) > 1
            else ("nobody" if t is None else f"≥ {t:.4g}")
            for g, t in best.items()
        )
        rows.append(
            {
                "period": p["period"],
                "cases": number(p["n"], 0),
                "with outcomes": number(p["labelled"], 0),
                "cost per case": money(p["cost_per_case"], unit) if p["cost_per_case"] is not None else "–",
                "how": "measured" if p["measured"] else "estimated",
                "its own best cutoff": cut,
                "refitting would save per case": money(p["regret_per_case"], unit)
                if p["regret_per_case"] is not None
                else "–",
                "95% interval": f"{money(low, unit)} to {money(high, unit)}" if low is not None else "–",
                "base rate": percent(p["base_rate"]) if p["base_rate"] is not None else "–",
                "alert": "yes" if p["alert"] else "no",
            }
        )
    return pd.DataFrame(rows)
