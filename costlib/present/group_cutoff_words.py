"""Words on per-group cutoffs that the Costs & groups answer (`words.recommendation_verdict`) adds
beside them: what a group's cutoff does to that group when it flags none or all of its cases
(`cutoff_reach`), and what per-group cutoffs would have saved against the choice without a model
that the answer keeps (`per_group_against_baseline`)."""

from __future__ import annotations

import math

from costlib.core import rules as R
from costlib.present.amounts import beside_interval, interval, money


def cutoff_reach(rec, judged: str) -> dict:
    """{group: a clause} for each group whose cutoff (`rec.cutoffs`, the one the answer names) flags
    none or all of that group's cases on the judged rows (`judged`: 'all rows', 'the test rows'),
    read from the group's lowest and highest score there (`rec.judged_scores`): a cutoff above the
    highest flags none, at or below the lowest all; other groups are left out. A reader took "tiny at
    0.7204 or more" for a cutoff that works, where no case of that group scores that high (review
    C, item 3): `words.cutoffs_text` adds the clause after the cutoff. Not the rates per group
    (`rec.results.by_group`): without a split they judge each row by a cutoff fitted without it,
    which can flag some of a group that the named cutoff flags none of, or the other way round.

    >>> from types import SimpleNamespace as NS
    >>> rec = NS(cutoffs={"A": 0.5, "tiny": 0.72, "C": 0.1, "D": 0.3},
    ...          judged_scores={"A": (0.0, 1.0, 900.0), "tiny": (0.03, 0.618, 8.0), "C": (0.1, 0.9, 40.0)})
    >>> cutoff_reach(rec, "all rows")
    {'tiny': 'on all rows it flags none of its 8 cases', 'C': 'on all rows it flags all 40 of its cases'}
    """
    scores = getattr(rec, "judged_scores", None) or {}
    weighted = bool(getattr(rec, "weighted", False))
    out = {}
    for group, cut in (getattr(rec, "cutoffs", None) or {}).items():
        if group not in scores or not math.isfinite(cut):
            continue
        low, high, n = (float(x) for x in scores[group])
        if not n > 0 or low < cut <= high:  # it flags some of the group's cases, not all
            continue
        whole = not weighted and math.isfinite(n) and n == round(n)  # weighted rows: a sum of weights, not a count
        if cut > high:
            cases = "its one case" if whole and n == 1 else f"its {n:,.0f} cases" if whole else "its cases"
            out[group] = f"on {judged} it flags none of {cases}" if n != 1 else f"on {judged} it does not flag {cases}"
        else:
            cases = "its one case" if whole and n == 1 else f"all {n:,.0f} of its cases" if whole else "all its cases"
            out[group] = f"on {judged} it flags {cases}"
    return out


def per_group_against_baseline(rec, unit: str, base: str) -> str:
    """When per-group cutoffs would be cheaper than the no-model choice (the answer kept, the model
    not shipped; `base`: that choice in words), that saving as a clause, so that the answer does not
    seem to contradict the rules table (a verdict that the model costs more, beside per-group
    cutoffs of the same model that cost less than the answer): clearly cheaper, yet not recommended
    because not clearly cheaper than one cutoff for everyone; or cheaper on these rows but not
    clearly; else ''. (Moved from `words`.)"""

    o = rec.results.overall
    if R.COST_OPTIMAL not in o.index or "vs_high" not in o.columns:
        return ""
    saving, low = -float(o.loc[R.COST_OPTIMAL, "vs_baseline"]), -float(o.loc[R.COST_OPTIMAL, "vs_high"])
    if not saving > 0:
        return ""
    high = -float(o.loc[R.COST_OPTIMAL, "vs_low"])
    d = beside_interval(saving, low, high)
    iv = interval(low, high, unit, digits=d)
    against = f"against {base} they would save {money(saving, unit, digits=d)} per case{f' ({iv})' if iv else ''}"
    if not low > 0:
        return f"; {against}, not clearly either"
    return (
        f", though {against}: per-group cutoffs are recommended only when they are clearly cheaper than one cutoff "
        "for everyone"
    )
