"""The headline's disparity sentence: the largest failing disparity of the model's rule
(`binary.disparity.Disparities.largest`) in words a product manager reads, beside the verdict
(`words.recommendation_verdict`) and above the disparities table (`words.said_disparity` says when). The table
and its caption are `costlib.present.disparity_table`'s; `words` re-exports these names.
"""

from __future__ import annotations

import math

from costlib.core import rules as R
from costlib.core.escaping import shorten
from costlib.present.amounts import ratio_text

#: how a failing disparity of each metric reads: {g} the group, {ref} the reference group, {r} the ratio
DISPARITY_WORDS = {
    "flagged rate": "group {g} is flagged at {r} times the rate of group {ref}",
    "false positive rate": "in group {g}, cases that turn out negative are wrongly flagged at {r} times the rate "
    "they are in group {ref}",
    "false negative rate": "in group {g}, cases that turn out positive are missed at {r} times the rate they are "
    "in group {ref}",
    "cost per case": "mistakes in group {g} cost {r} times as much per case as in group {ref}",
}
#: the same where one of the two rates is 0, so no "0.00 times" or "infinitely many times": {zero} the group at 0,
#: {other} the other group
DISPARITY_NONE_WORDS = {
    "flagged rate": "group {zero} is never flagged, while group {other} is",
    "false positive rate": "in group {zero}, no case that turns out negative is wrongly flagged, while in group "
    "{other} some are",
    "false negative rate": "in group {zero}, no case that turns out positive is missed, while in group {other} "
    "some are",
    "cost per case": "mistakes in group {zero} cost nothing, while in group {other} they do",
}

DISPARITY_LEAD = "But under the model's rule,"  # beside a verdict that ships it
#: beside a verdict that keeps the choice without the model: its rule is not what is recommended
DISPARITY_LEADS = {R.NOT_CLEARLY: "Under the model's rule, which is not what is recommended here,"}

#: the pass range in plain words, said before its name ("the four-fifths rule"), so that a reader who
#: does not know the rule reads what it asks: {rule} is `RULE_OF_THUMB` at 0.8, else `THRESHOLD_SET`
BELOW_WORDS = "below the {least} that {rule} asks for"
ABOVE_WORDS = "more than {rule} allows, which asks the lower to be at least {least} the higher"
NONE_WORDS = "which {rule} does not allow"
RULE_OF_THUMB = "a common fairness rule of thumb"
THRESHOLD_SET = "the fairness threshold set here"


def plain_threshold(ratio: float, threshold: float) -> str:
    """What a failing `ratio` does against the pass range [threshold, 1 / threshold], in words
    that need no name for the rule: said before the headline's "(…; the four-fifths rule fails)".

    >>> plain_threshold(0.73, 0.8)
    'below the four-fifths (80%) that a common fairness rule of thumb asks for'
    >>> plain_threshold(2.1, 0.8).endswith("which asks the lower to be at least four-fifths (80%) of the higher")
    True
    >>> plain_threshold(0.0, 0.9)
    'which the fairness threshold set here does not allow'
    """
    four_fifths = abs(threshold - 0.8) < 1e-12
    rule = RULE_OF_THUMB if four_fifths else THRESHOLD_SET
    if ratio == 0 or not math.isfinite(ratio):
        return NONE_WORDS.format(rule=rule)
    if ratio < threshold:
        return BELOW_WORDS.format(least="four-fifths (80%)" if four_fifths else f"{threshold:.3g} times", rule=rule)
    return ABOVE_WORDS.format(least="four-fifths (80%) of" if four_fifths else f"{threshold:.3g} times", rule=rule)


def disparity_sentence(d, unit: str = "", *, lead: str = DISPARITY_LEAD) -> str:
    """The largest failing disparity of a `disparity.Disparities`, in one sentence; '' when none fails.

    'But under the model's rule, group “Black” is flagged at 2.10 times the rate of group “White”,
    more than a common fairness rule of thumb allows, which asks the lower to be at least four-fifths
    (80%) of the higher (45.0% against 21.4%; the four-fifths rule fails).' The two values are
    shown with the decimals that tell them apart (`disparity_table.apart`). Adds
    `FAILS_BY_CHANCE` when that one could be chance (`Disparities.could_be_chance`: its interval
    reaches into the pass range, or it rests on a handful of cases).
    """
    from costlib.present.disparity_table import FAILS_BY_CHANCE, apart, ratio_shown, threshold_words, value_shown

    row = d.largest
    if row is None:
        return ""
    g, ref = f"“{shorten(row['group'])}”", f"“{shorten(d.reference)}”"
    r = row["ratio"]
    if r == 0 or not math.isfinite(r):  # one of the two is 0: said as what happens, not as a ratio
        zero, other = (g, ref) if r == 0 else (ref, g)
        what = DISPARITY_NONE_WORDS[row["metric"]].format(zero=zero, other=other)
    else:
        shown = ratio_shown(r, d.threshold, f"{r:.2f}" if r < 10 else ratio_text(r))
        what = DISPARITY_WORDS[row["metric"]].format(g=g, ref=ref, r=shown)
    first, second = row["value"], row["reference_value"]
    if not math.isfinite(r):  # the reference is the group at 0, named first: its value first
        first, second = second, first
    values = " against ".join(apart(float(first), float(second), value_shown(row["metric"], unit)))
    pooled = ", a small group given the cutoff for everyone" if row["pooled"] else ""
    chance = FAILS_BY_CHANCE if d.could_be_chance(row) else ""
    plain = plain_threshold(r, d.threshold)
    return f"{lead} {what}, {plain} ({values}{pooled}; {threshold_words(d.threshold)} fails{chance})."
