"""Why per-group cutoffs that save money are not a reason to ship the model: deciding by group
alone, with no model, saves as much (`decision.Recommendation.held_by_groups`,
`judged_rules.group_alone`).

On scores without signal, per-group cutoffs find what the groups alone tell (flag everyone in a
group whose cases are mostly positive, nobody in another) and save money against one choice for
everyone; the scores add nothing. The verdict is then "not clearly better", and this says why.
"""

from __future__ import annotations

from costlib.core.escaping import md_escape, shorten
from costlib.present.amounts import beside_interval, interval, money, percent


def _share(share: float) -> str:
    """'nobody in', 'everyone in' or '35% of', of a group's share flagged at random."""
    return "nobody in" if share <= 0 else "everyone in" if share >= 1 else f"{percent(share)} at random of"


def by_group_alone(actions: dict) -> str:
    """'nobody in “A” and everyone in “B”' from each group's share flagged at random (a comma before
    the last 'and' from three groups on).

    >>> by_group_alone({"A": 0.0, "B": 1.0}), by_group_alone({"A": 0.0, "B": 0.5, "C": 1.0})
    ('nobody in “A” and everyone in “B”', 'nobody in “A”, 50.0% at random of “B”, and everyone in “C”')
    """
    parts = [f"{_share(a)} “{md_escape(shorten(str(g)))}”" for g, a in actions.items()]
    if len(parts) < 3:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + ", and " + parts[-1]


def groups_alone_why(rec, unit: str = "") -> str:
    """The reason an UNCLEAR verdict gives when the per-group cutoffs' saving is the groups' own:
    what deciding by group alone costs, and what the scores add to it, with its interval."""
    alone = rec.results.group_alone
    d = beside_interval(alone.saving, alone.low, alone.high)
    iv = interval(alone.low, alone.high, unit, of="what the scores add", digits=d)
    iv = f" ({iv})" if iv else ""
    adds = (
        f"what the scores add on top of that, {money(alone.saving, unit, digits=d)} per case{iv}, could be chance"
        if alone.saving > 0
        else f"the scores add nothing on top of that{iv}"
    )
    return (
        f"deciding by group alone, with no model ({by_group_alone(alone.actions)}), costs "
        f"{money(alone.cost, unit)} per case: the saving comes from treating the groups differently, and {adds}"
    )


def groups_alone_detail(rec, unit: str = "") -> str:
    """The detail under a verdict whose per-group cutoffs were held back (`held_by_groups`): what they
    would save over one cutoff for everyone, why that is not the model's saving, and that treating
    the groups differently is left to the person (deciding by group alone can be cheaper than the
    one cutoff that ships, and the answer must not look as if it missed that)."""
    est, lo, hi = rec.group_gain
    d = beside_interval(est, lo, hi)
    iv = interval(lo, hi, unit, digits=d)
    iv = f" ({iv})" if iv else ""
    then = (
        "So the model ships with one cutoff for everyone"
        if rec.ship_model
        else "So per-group cutoffs do not make the model worth shipping"
    )
    return (
        f"Per-group cutoffs would save {money(est, unit, digits=d)} per case more than one cutoff for "
        f"everyone{iv}, but "
        f"{groups_alone_why(rec, unit)}. {then}; treating the groups differently, with or without the model, is "
        "a fairness decision this answer leaves to you."
    )


def rule_alone_why(rec, unit: str = "") -> str:
    """Why a rule whose cutoffs differ by group (a fairness-constrained one a policy records) is not
    shipped though its saving's interval clears zero (`decision.rule_verdict`): deciding by group
    alone, with no model, saves about as much."""
    alone = rec.results.group_alone
    return (
        f"deciding by group alone, with no model ({by_group_alone(alone.actions)}), costs {money(alone.cost, unit)} "
        "per case: the saving may come from treating the groups differently, not from the scores"
    )
