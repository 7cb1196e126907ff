"""A policy's decisions for new cases: `apply_policy`, the arithmetic the serving side runs
(`costlib.handoff.serving.policy_estimator` puts it inside a scikit-learn model).

A policy is what ``audit --policy`` or the Costs page writes (`costlib.present.policy`), read
back whole and checked (`load_policy`), or the short form ``{"rule": ..., "cutoffs": {group:
cutoff}}`` (``{"everyone": t}`` for one cutoff). A case is flagged when its score, read on the
policy's scale (`costlib.core.scales.on_scale`: log-odds through the sigmoid, as the loader
read them), is at least its group's cutoff; a cutoff of ``"inf"`` flags nobody in the group,
``"-inf"`` everyone (or null: nobody); a number that is not finite (JSON reads ``1e400`` as
infinity) is refused. A group the policy never saw gets the policy's ``pooled_cutoff``, the
cutoff of the groups it pooled (too small for a cutoff of their own); a policy without one
(before schema 6, or a short form without it) refuses such a group with a sentence.

Groups are matched as the loader reads a cell (`costlib.loading.cells.canon`, through
`costlib.present.policy.group_name`): 1, 1.0 and "1" are the group "1", True is "True", so the
same cases decide alike whatever the type of their group column. Cases without groups get one
cutoff only from a policy that says it is for everyone: its one group is "everyone" (data
without a group column), or it records a pooled cutoff that every group has.

Every policy given as a mapping is checked as a file is (`costlib.present.policy.load_policy`,
or the short form's own checks); only a `PolicyCutoffs` is taken as it is. What a loaded policy
decides (`PolicyCutoffs`, `loaded_cutoffs`, the one cutoff for cases without groups) is read in
`costlib.loading.policy_cutoffs`, below the hand-off and Watch, which both read it.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from collections.abc import Mapping

import numpy as np
import pandas as pd

from costlib.binary.model_sweeps import SINGLE_GROUP
from costlib.core.errors import DataError
from costlib.core.scales import SCALES, on_scale
from costlib.handoff.randomised import MSG_NEEDS_IDS, randomised_flags
from costlib.loading.messages import q
from costlib.loading.policy_cutoffs import (  # noqa: F401 (MSG_NEEDS_GROUPS, MSG_UNSEEN: re-exported, importable here as before)
    MSG_NEEDS_GROUPS,
    MSG_UNSEEN,
    PolicyCutoffs,
    loaded_cutoffs,
    pooled_of,
)
from costlib.present.policy_records import checked_randomised

MSG_NOT_A_POLICY = (
    "This is not a policy: give a policy file (its path or its parsed JSON, written by audit --policy or the Costs "
    'page) or {{"rule": ..., "cutoffs": {{group: cutoff}}}}; got {what}.'
)
MSG_RANDOM = (
    "The policy flags a random {share:.4g} of the cases without the model (its rule is {rule}): there is no cutoff "
    "to apply; draw that share at random."
)
MSG_SCALE = (
    'The policy\'s cutoffs are for probabilities from 0 to 1 (the column "{column}"), but scores[{index}] is '
    "{value:g}: these scores are on another scale. Give the scores the policy was chosen on, or a policy chosen "
    "on these."
)
MSG_NOT_FINITE = "Every score must be a finite number: scores[{index}] is {value}."
MSG_COLUMN = (
    "The policy was chosen on the score column {want}, not {got}: give that column (renamed if it is the same "
    "score), or a policy chosen on this one."
)
MSG_LENGTH = "There are {n_scores:,} scores but {n_groups:,} groups: give one group per case."
MSG_NOT_1D = (
    "The scores must be one number per case (a 1-D array), not an array of shape {shape}; from predict_proba, "
    "take the positive class's column."
)
MSG_GROUP_COLUMN = (
    "The policy's cutoffs are per group of the column {want}, not {got}: give that column, or a policy chosen by {got}."
)


def _cutoffs(pairs, where, *, read: bool = True) -> dict:
    """{group name: cutoff} from a policy's (group, cutoff) pairs, keyed by `group_name`; each
    group checked as a policy file's are (a name of at most `MAX_TEXT` characters, met once:
    never cut or merged into another) and each cutoff read by `read_number` (None: nobody),
    unless `read` is False (what `load_policy` returns: read already)."""
    from costlib.present.policy_fields import policy_group, read_number

    out: dict = {}
    seen: set = set()
    for i, (g, t) in enumerate(pairs):
        name = policy_group(g, seen, where(i))
        if read:
            t = math.inf if t is None else read_number(t, f"the cutoff of {q(name)}", allow_inf=True)
        out[name] = t
    return out


def _short_form(policy: Mapping) -> PolicyCutoffs:
    from costlib.present.policy_fields import MAX_RECORDS, read_number

    cutoffs = policy.get("cutoffs")
    if not isinstance(cutoffs, Mapping) or not cutoffs or len(cutoffs) > MAX_RECORDS:
        raise DataError(f'"cutoffs" must map from 1 to {MAX_RECORDS:,} groups to their cutoffs.')
    out = _cutoffs(cutoffs.items(), lambda i: f'"cutoffs" (its group {i + 1})')
    scale = policy.get("scale", "probability")
    if scale not in SCALES:
        raise DataError(f'"scale" must be one of {", ".join(SCALES)}: got {str(scale)[:40]!r}.')
    pooled = policy.get("pooled_cutoff")
    pooled = None if pooled is None else read_number(pooled, '"pooled_cutoff"', allow_inf=True)
    text = {k: _short_text(policy, k) for k in ("rule", "score", "group", "positive")}
    pooled = pooled_of(out, pooled)
    return PolicyCutoffs(
        text["rule"] or "",
        out,
        pooled,
        text["score"],
        scale,
        text["group"],
        text["positive"],
        randomised=checked_randomised(policy.get("randomised"), out),
    )


def _short_text(policy: Mapping, key: str):
    """The short form's `key` (the rule, the score or group column, the positive outcome): None,
    or a short text (a whole number too for the positive outcome), as a policy file's; DataError
    for anything else, naming the field."""
    from costlib.present.policy_fields import MAX_TEXT, writable_text

    x = policy.get(key)
    number = key == "positive" and isinstance(x, int) and not isinstance(x, bool)
    if x is None or number:
        return x
    if not isinstance(x, str) or len(x) > MAX_TEXT:
        raise DataError(f'"{key}" must be text of at most {MAX_TEXT} characters: got {q(x)}.')
    return writable_text(x, f'"{key}"')


def _is_short(policy: Mapping) -> bool:
    """Whether a mapping is the short form ``{"rule", "cutoffs"}`` rather than a policy file's."""
    return "cutoffs" in policy and "schema" not in policy and "thresholds" not in policy


def _file_form(policy: Mapping) -> str:
    """A policy mapping as the text of its file, for `load_policy` to check: what `load_policy`
    returns (``thresholds`` and ``prices`` as {group: ...}, infinite cutoffs restored) is put
    back in the file's records and ``"inf"`` texts; anything else is left as it is, for the
    reader to judge. DataError when it is not JSON (a NaN or infinite number, an object)."""
    from costlib.present.policy import json_cutoff

    def cutoff(t):
        return json_cutoff(t) if isinstance(t, float) and math.isinf(t) else t

    out = dict(policy)
    if isinstance(policy.get("thresholds"), Mapping):
        out["thresholds"] = [{"group": g, "threshold": cutoff(t)} for g, t in policy["thresholds"].items()]
    if isinstance(policy.get("prices"), Mapping):
        out["prices"] = [
            {"group": g, "c_fp": p[0], "c_fn": p[1]} if isinstance(p, (tuple, list)) and len(p) == 2 else {"group": g}
            for g, p in policy["prices"].items()
        ]
    if "pooled_cutoff" in out:
        out["pooled_cutoff"] = cutoff(out["pooled_cutoff"])
    try:
        return json.dumps(out, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise DataError(
            MSG_NOT_A_POLICY.format(what="a mapping that is not JSON (a NaN or infinite number, or an object)")
        ) from None


def read_policy(policy) -> PolicyCutoffs:
    """`policy` (a path, the parsed JSON of a policy file, what `load_policy` returns, or the
    short form, as a mapping or a file) as `PolicyCutoffs`, checked on one road: a file's text
    and every mapping through `load_policy` (the short form through its own checks, the same
    for a file and a mapping); a `PolicyCutoffs` is taken as it is. DataError with a sentence
    for anything else."""
    from costlib.present.policy import load_policy
    from costlib.present.policy_fields import MAX_BYTES, parse_text

    if isinstance(policy, PolicyCutoffs):
        return policy
    if isinstance(policy, (str, os.PathLike)):
        from costlib import loading

        text = loading.read_path(policy, max_bytes=MAX_BYTES, table=False)[0]
        parsed = parse_text(text)  # bounded: no NaN tokens, no number of a thousand digits
        if isinstance(parsed, dict) and _is_short(parsed):
            return _short_form(parsed)
    elif isinstance(policy, Mapping):
        if _is_short(policy):
            return _short_form(policy)
        text = _file_form(policy)
    else:
        raise DataError(MSG_NOT_A_POLICY.format(what=type(policy).__name__))
    return loaded_cutoffs(load_policy(text))


def signed_cutoffs(policy, *, allow_unsigned: bool = False) -> PolicyCutoffs:
    """`read_policy` of `policy` once its reviewer's sign-off is checked
    (`costlib.present.signing.check_sign_off`): what the serving side (`policy_estimator`,
    `PolicyClassifier`, ``costlib apply``) reads. A path is read once, its bytes checked and
    parsed; a mapping is checked as the parsed JSON of its file (what `load_policy` returns has
    no seal: it is unsigned); a `PolicyCutoffs` is taken as it is when a check accepted it
    (its ``sign_off``), else it is unsigned.

    Raises
    ------
    DataError
        The sign-off's sentence for a policy that is unsigned (or its seal cannot be checked:
        the key is unset), unless `allow_unsigned`; and, whatever `allow_unsigned`, for one
        rejected, altered after signing or sealed with another key; and `read_policy`'s.
    """

    from costlib.present import signing

    if isinstance(policy, PolicyCutoffs):
        s = policy.sign_off
        if s is None:
            s = signing.SignOff(signing.UNSIGNED, signing.MSG_UNSIGNED.format(what="This policy", allow=signing.ALLOW))
        if s.accepted or (allow_unsigned and s.state in signing.UNCHECKABLE):
            return dataclasses.replace(policy, sign_off=s if s.accepted else signing.allowed(s))
        raise DataError(s.sentence)
    if isinstance(policy, (str, os.PathLike)):
        from costlib import loading
        from costlib.present.policy_fields import MAX_BYTES, parse_text

        what = signing.policy_name(policy)
        policy = parse_text(loading.read_path(policy, max_bytes=MAX_BYTES, table=False)[0])
        if not isinstance(policy, Mapping):
            raise DataError(MSG_NOT_A_POLICY.format(what=f"JSON that is a {type(policy).__name__}"))
    elif isinstance(policy, Mapping):
        what = "This policy"
    else:
        raise DataError(MSG_NOT_A_POLICY.format(what=type(policy).__name__))
    p = read_policy(policy)  # what is wrong with the policy itself is said first
    return dataclasses.replace(p, sign_off=signing.check_sign_off(policy, allow_unsigned=allow_unsigned, what=what))


def check_column(p: PolicyCutoffs, role: str, column) -> None:
    """DataError when `column` (a score or group column's name; None: not named) is not the one
    the policy was chosen on (its data dictionary), so that decisions are never made on another
    column by mistake: the apply command, `apply_policy` (a named Series) and the wrapped model
    all check here."""
    want = p.score if role == "score" else p.group
    if column is not None and want and str(column) != str(want):
        message = MSG_COLUMN if role == "score" else MSG_GROUP_COLUMN
        raise DataError(message.format(want=q(want), got=q(column)), column=str(column))


def _scores(p: PolicyCutoffs, scores) -> np.ndarray:
    if isinstance(scores, pd.Series):
        check_column(p, "score", scores.name)
    try:
        s = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError("The scores must be numbers, one per case.") from None
    if s.ndim != 1:
        raise DataError(MSG_NOT_1D.format(shape=s.shape))
    bad = ~np.isfinite(s)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataError(MSG_NOT_FINITE.format(index=i, value=float(s[i])))
    if p.scale == "probability" and s.size and (s.min() < 0 or s.max() > 1):
        i = int(np.flatnonzero((s < 0) | (s > 1))[0])
        raise DataError(MSG_SCALE.format(column=p.score or "score", index=i, value=float(s[i])))
    return on_scale(s, p.scale)


def cutoffs_for(policy, groups, n: int) -> np.ndarray:
    """Each case's cutoff under `policy`: the one cutoff when `groups` is None (DataError when
    the policy has a cutoff per group), else its group's (`PolicyCutoffs.cutoff_of`)."""
    p = read_policy(policy)
    if groups is None:
        return np.full(n, p.cutoff_without_groups())
    if isinstance(groups, pd.Series):
        check_column(p, "group", groups.name)
    codes, names = case_groups(groups)
    if len(codes) != n:
        raise DataError(MSG_LENGTH.format(n_scores=n, n_groups=len(codes)))
    return np.array([p.cutoff_of(name) for name in names], dtype=np.float64)[codes]


def case_groups(groups) -> tuple[np.ndarray, list[str]]:
    """(codes, names) of each case's group, read by the one rule every path reads a group cell
    (`costlib.loading.cells.group_codes`: `canon` text, so 1, 1.0, "1" and a categorical 1 are
    the group "1"; blank cells, None and NaN are the group "(missing)", as the audit that wrote
    the policy read them). The one reading of groups that `cutoffs_for` and `unseen_groups` share."""
    from costlib.loading.cells import group_codes

    values = groups if isinstance(groups, pd.Series) else pd.Series(np.asarray(groups, dtype=object).ravel())
    codes, names, _ = group_codes(values)
    return codes, names


def unseen_groups(policy, groups) -> list[str]:
    """The groups of `groups` (read by `case_groups`) that the policy has no cutoff of its own
    for (they get its pooled cutoff), as text, in order of first appearance."""
    p = read_policy(policy)
    if groups is None or p.cutoffs.keys() == {SINGLE_GROUP}:
        return []
    return [g for g in case_groups(groups)[1] if g not in p.cutoffs]


def apply_policy(policy, scores, *, groups=None, case_ids=None) -> np.ndarray:
    """The policy's decision for each new case: True where it flags the case. The arithmetic
    only: it does not check the policy's sign-off, which the serving side does (`policy_estimator`,
    ``costlib apply``: `signed_cutoffs`).

    Parameters
    ----------
    policy : str, os.PathLike or mapping
        A policy file's path, its parsed JSON, what ``load_policy`` returns, or the short form
        ``{"rule": ..., "cutoffs": {group: cutoff}}`` (``{"everyone": t}`` for one cutoff).
    scores : array-like of shape (n,)
        Each case's score, as in the column the policy was chosen on (log-odds for a policy on
        the logit scale: they are read through the sigmoid, as the loader read them). A
        pandas Series with a name must be named as that column.
    groups : array-like of shape (n,), optional
        Each case's group, matched to the policy's groups as text; needed when the policy has
        a cutoff per group. A group the policy pooled or never saw gets its pooled cutoff.
    case_ids : array-like of shape (n,), optional
        Each case's id (one per case, none repeated); needed when the policy has randomised
        cutoffs: a case scored in a group's band ``[low, cutoff)`` is flagged with the band's
        probability, drawn from a hash of its id (`costlib.handoff.randomised.draws`), so the
        same id gets the same decision on any machine.

    Returns
    -------
    numpy.ndarray of bool, shape (n,)
        True where ``score >= the case's cutoff`` (or, with randomised cutoffs, in the band and drawn).

    Raises
    ------
    DataError
        With a sentence: the policy is not one; it flags at random (no cutoff); scores that are
        not finite, or outside [0, 1] for a policy on probabilities; a Series named for another
        column; no groups for per-group cutoffs, or a group the policy never
        saw and records no pooled cutoff for; randomised cutoffs without case ids (or ids
        missing, repeated or of another count).

    Examples
    --------
    >>> apply_policy({"rule": "cost-optimal", "cutoffs": {"a": 0.3, "b": 0.6}}, [0.5, 0.5], groups=["a", "b"])
    array([ True, False])
    """
    return decide(policy, scores, groups=groups, case_ids=case_ids)[0]


def decide(policy, scores, *, groups=None, case_ids=None) -> tuple[np.ndarray, np.ndarray]:
    """(flags, cutoffs): `apply_policy`'s decisions and each case's cutoff (on the policy's
    scale), from one pass, for a caller that shows both (the apply command)."""
    p = read_policy(policy)
    if p.random_share is not None:
        raise DataError(MSG_RANDOM.format(share=p.random_share, rule=q(p.rule)))
    if p.randomised and case_ids is None:
        g, (low, prob) = next(iter(p.randomised.items()))
        raise DataError(MSG_NEEDS_IDS.format(group=q(g), low=low, high=p.cutoffs[g], p=prob))
    s = _scores(p, scores)
    cut = cutoffs_for(p, groups, s.size)
    if not p.randomised:
        return s >= cut, cut
    low, prob = band_of(p, groups, s.size)
    return randomised_flags(s, cut, low, prob, case_ids), cut


def band_of(p: PolicyCutoffs, groups, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each case's randomised band under `p`: (low, probability), on the policy's scale; a case
    whose group has no band gets probability 0."""
    low, prob = np.full(n, np.inf), np.zeros(n)
    if not p.randomised:
        return low, prob
    if groups is None:
        ((low_1, p_1),) = p.randomised.values() if len(p.randomised) == 1 else ((np.inf, 0.0),)
        return np.full(n, low_1), np.full(n, p_1)
    codes, names = case_groups(groups)
    table = [p.randomised.get(name, (np.inf, 0.0)) for name in names]
    return np.array([t[0] for t in table])[codes], np.array([t[1] for t in table])[codes]


# ---------------------------------------------------------------------------------------
# Inside a scikit-learn model


def logit_cutoff(t: float) -> float:
    """The smallest log-odds x with ``on_scale(x, "logit") >= t`` (-inf when every x has it,
    +inf when none), so that ``x >= logit_cutoff(t)`` decides exactly as ``sigmoid(x) >= t``
    for every float x (the sigmoid is monotone in floating point).

    >>> from scipy.special import expit
    >>> x = logit_cutoff(0.7)
    >>> bool(expit(x) >= 0.7 > expit(np.nextafter(x, -np.inf)))
    True
    >>> logit_cutoff(0.0), logit_cutoff(1.5)
    (-inf, inf)
    """
    from scipy.special import expit, logit

    if expit(-math.inf) >= t:
        return -math.inf
    if not expit(math.inf) >= t:
        return math.inf
    lo, hi = -800.0, 800.0  # expit(-800) == 0 and expit(800) == 1: f(lo) false, f(hi) true
    guess = float(logit(t)) if 0 < t < 1 else hi
    if math.isfinite(guess):  # narrow the bracket around the closed form first
        for step in (1e-12, 1e-9, 1e-6, 1e-3):
            a, b = guess - step * max(1.0, abs(guess)), guess + step * max(1.0, abs(guess))
            if lo < a and not expit(a) >= t and b < hi and expit(b) >= t:
                lo, hi = a, b
                break
    while True:  # the predicate is false at lo and true at hi; stop when they are neighbours
        mid = lo + (hi - lo) / 2
        if mid in (lo, hi):
            return hi
        lo, hi = (lo, mid) if expit(mid) >= t else (mid, hi)


def positive_label(classes, positive):
    """The class of `classes` that the policy's positive outcome names (matched as the loader
    matches a value: exactly, or as text, `group_name`; True also as "1", False as "0", the
    loader's reading of true/false labels); the second class when the policy names none."""
    from costlib.present.policy_fields import group_name

    classes = list(classes)
    if len(classes) != 2:
        raise DataError(f"The model has {len(classes)} classes; a policy decides between two.")
    if positive is None:
        return classes[1]
    want = group_name(positive)
    for c in classes:
        if c == positive or group_name(c) == want:  # as the loader reads a cell: 1.0 is "1"
            return c
    for c in classes:  # a true/false label's positive written as the loader's default, 1 (or "1")
        if isinstance(c, (bool, np.bool_)) and group_name(int(c)) == want:
            return c
    raise DataError(
        f"The policy's positive outcome is {q(positive)}, which is not a class of the model "
        f"({', '.join(q(c) for c in classes)})."
    )


#: the score a policy's cutoffs are on, by its scale: a probability policy reads predict_proba,
#: log-odds read decision_function; raw scores may be either (the caller says which)
def is_fitted(estimator) -> bool:
    """Whether scikit-learn holds `estimator` fitted (``check_is_fitted``)."""
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    try:
        check_is_fitted(estimator)
    except NotFittedError:
        return False
    return True


def check_fitted(estimator) -> None:
    if not is_fitted(estimator):
        raise DataError(
            f"The model {type(estimator).__name__} is not fitted: fit it first; the policy decides on its scores."
        )
