"""Words on per-group cutoffs that the Costs & groups answer (`words.recommendation_verdict`) adds
beside them: what a group's cutoff does to that group when it flags none or all of its cases
(`cutoff_reach`), and what per-group cutoffs would have saved against the choice without a model
that the answer keeps (`per_group_against_baseline`)."""

from __future__ import annotations

import math

from costlib.core import rules as R
from costlib.present.amounts import beside_interval, interval, money


def cutoff_reach(rec, judged: str) -> dict:
    """{group: a clause} for each group whose cutoff under the recommended rule flags none or all of
    that group's cases on the judged rows (`judged`: 'all rows', 'the test rows'), as the rates per
    group read them (`rec.results.by_group`); other groups are left out. A reader took "tiny at
    0.7204 or more" for a cutoff that works, where no case of that group scores that high (review
    C, item 3): `words.cutoffs_text` adds the clause after the cutoff.

    >>> import pandas as pd
    >>> from types import SimpleNamespace as NS
    >>> by = pd.DataFrame({"rule": ["r", "r", "r"], "group": ["A", "tiny", "C"], "n": [900.0, 8.0, 40.0],
    ...                    "flagged_rate": [0.3, 0.0, 1.0]})
    >>> cutoff_reach(NS(rule="r", results=NS(by_group=by)), "all rows")
    {'tiny': 'on all rows it flags none of its 8 cases', 'C': 'on all rows it flags all 40 of its cases'}
    """
    by = getattr(getattr(rec, "results", None), "by_group", None)
    if by is None or not {"rule", "group", "n", "flagged_rate"} <= set(by.columns):
        return {}
    out = {}
    for group, n, share in by.loc[by["rule"] == rec.rule, ["group", "n", "flagged_rate"]].itertuples(index=False):
        n, share = float(n), float(share)
        if not (n > 0 and share in (0.0, 1.0)):
            continue
        whole = math.isfinite(n) and n == round(n)  # weighted rows: a sum of weights, not a count
        if share == 0.0:
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
