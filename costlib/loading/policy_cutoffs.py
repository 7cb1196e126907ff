"""What a loaded policy decides, read from the checked file: a cutoff per group, the cutoff for
groups it pooled or never saw, the columns and scale they are for (`PolicyCutoffs`,
`loaded_cutoffs`), and the one cutoff cases without groups get, or the sentence asking for their
group column (`PolicyCutoffs.cutoff_without_groups`).

A policy file is input like an upload: `costlib.present.policy.load_policy` checks its text, and
this module reads the checked result, with the loader's rule for a group cell
(`costlib.loading.cells.canon`: 1, 1.0 and "1" are the group "1"), so that every reader of a
policy meets cases by one rule: the hand-off (`costlib.handoff.policy`, which applies it) and
Watch (`costlib.watch.report`, which watches it) alike. It sits below both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from costlib.binary.model_sweeps import SINGLE_GROUP
from costlib.core.errors import DataError
from costlib.loading.cells import canon
from costlib.loading.messages import available, q

MSG_NEEDS_GROUPS = (
    "The policy has a cutoff per group of {column} ({groups}): give each case's group (groups=... in Python, "
    "--group COL on the command line)."
)
MSG_UNSEEN = (
    "The group {group} is not in the policy, and the policy records no cutoff for groups it has not seen "
    "(pooled_cutoff, written from schema 6 on): write the policy again with this costlib, or leave these cases out."
)


@dataclass(frozen=True)
class PolicyCutoffs:
    """What a policy decides, in the form `costlib.handoff.policy.apply_policy` applies: a cutoff
    per group (by the group's name as text), the cutoff for groups it pooled or never saw (None:
    refused), and the columns and scale the cutoffs are for (its data dictionary)."""

    rule: str
    cutoffs: dict
    pooled: float | None = None
    score: str | None = None
    scale: str = "probability"
    group: str | None = None
    positive: object = None
    group_columns: tuple = ()  # several group columns: the policy's groups are their intersections (`group` names it)
    random_share: float | None = None
    sign_off: object = None  # `costlib.present.signing.SignOff` once `signed_cutoffs` checked it; None: not checked
    randomised: dict | None = None  # {group name: (low, p)}: scores in [low, cutoff) flagged with probability p

    @property
    def one_cutoff(self) -> float | None:
        """The cutoff for cases without groups, when the policy says it is for everyone: its only
        group is `SINGLE_GROUP` (data without a group column), or it records a pooled cutoff (for
        groups it never saw) that every group has too. Else None: the cases need their groups
        (equal cutoffs without a pooled one say nothing of a group the policy never saw)."""
        if self.cutoffs.keys() == {SINGLE_GROUP}:
            return self.cutoffs[SINGLE_GROUP]
        if self.pooled is not None and all(t == self.pooled for t in self.cutoffs.values()):
            return self.pooled
        return None

    def cutoff_without_groups(self) -> float:
        """`one_cutoff`, or DataError (`MSG_NEEDS_GROUPS`, naming the group column and at most
        five of the policy's groups) when the cases need their groups.

        >>> PolicyCutoffs("single", {"everyone": 0.4}).cutoff_without_groups()
        0.4
        """
        one = self.one_cutoff
        if one is None:
            raise DataError(
                MSG_NEEDS_GROUPS.format(column=q(self.group or "group"), groups=available(list(self.cutoffs), 5))
            )
        return one

    def cutoff_of(self, group) -> float:
        """The cutoff of `group` (matched as the loader reads a cell, `canon`): its own, else the
        pooled cutoff; DataError when the policy has neither."""
        name = canon(group)
        if name in self.cutoffs:
            return self.cutoffs[name]
        if self.pooled is None:
            raise DataError(MSG_UNSEEN.format(group=q(name)))
        return self.pooled


def pooled_of(cutoffs: dict, pooled: float | None) -> float | None:
    """The cutoff for groups a policy pooled or never saw: its recorded one, else, for a policy
    of data without groups (one cutoff, for "everyone"), that cutoff.

    >>> pooled_of({"everyone": 0.3}, None), pooled_of({"a": 0.3, "b": 0.5}, None)
    (0.3, None)
    """
    if pooled is None and set(cutoffs) == {SINGLE_GROUP}:
        return cutoffs[SINGLE_GROUP]
    return None if pooled is None else float(pooled)


def loaded_cutoffs(loaded: Mapping) -> PolicyCutoffs:
    """A policy `load_policy` returned (checked already: its groups met once, each a name of at
    most `MAX_TEXT` characters; not checked again) as `PolicyCutoffs`, each group keyed by the
    loader's rule for a cell (`canon`), so that every reader of a loaded policy (the hand-off's
    `read_policy`, Watch) meets cases by the one rule."""
    data = loaded.get("data") or {}
    cutoffs = {canon(g): t for g, t in loaded["thresholds"].items()}
    return PolicyCutoffs(
        rule=loaded.get("rule") or "",
        cutoffs=cutoffs,
        pooled=pooled_of(cutoffs, loaded.get("pooled_cutoff")),
        score=data.get("score"),
        scale=data.get("scale") or "probability",
        group=data.get("group"),
        group_columns=tuple(data.get("group_columns") or ()),
        positive=data.get("positive"),
        random_share=loaded.get("random_share"),
        randomised=loaded.get("randomised"),  # `load_policy` checked the bands against these cutoffs
    )
