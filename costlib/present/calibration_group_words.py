"""The Calibration page's words on each group: whether each group's probabilities are as honest
as everyone's, for a fairness auditor (the table, the sentence naming the least calibrated group
and whether its gap is beyond the noise, and how the intervals were made).

Pure: sentences from numbers, in the page's four decimals (`calibration_words.error`).
"""

from __future__ import annotations

from costlib.core.escaping import shorten
from costlib.present.calibration_words import cases_word, error

GROUPS_TITLE = "Calibration within each group"
GROUPS_WHAT = (
    "Is each group's probability as honest as everyone's? A score of 0.7 should mean about 70% in every group; "
    "where it does not, the same cutoff treats the groups differently."
)
GROUP_TABLE = {
    "group": "group",
    "cases": "test cases",
    "error": "calibration error",
    "interval": "95% interval",
    "chance": "by chance up to",
    "rescaled": "after rescaling",
}
TOO_FEW = "too few cases"
GROUP_DIAGRAM_TITLE = "Reliability diagram by group, {model} as given"
GROUP_METHOD = (
    "Each group's calibration error is read on its own {cases}, in the same {bins} score bands as above. Its 95% "
    "interval comes from the bootstrap: the group's cases resampled with replacement {resamples:,} times (seeded, so "
    "the numbers repeat). A sample's error reads high, since its noise adds to the true gaps, and a resample's reads "
    "higher again by about as much, so the resampled errors are moved down by twice that excess; the interval starts "
    "at 0 when the error is within what chance gives a calibrated model on that many cases. A group needs at least "
    "{least} positive and {least} negative {cases} to be read."
)
NO_GROUP_READ = (
    "No group has enough {cases} to read its calibration (at least {least} positives and {least} negatives each)."
)
ONE_GROUP_READ = (
    "Only {group} has enough {cases} to read: calibration error {ece} ({iv}); {noise}. The other groups have too few."
)
ONE_BEYOND = "beyond what chance gives a calibrated model on that many cases"
ONE_WITHIN = "within what chance gives a calibrated model on that many cases"
LEAST = "The scores are least calibrated for {group}: calibration error {ece} ({iv}), against {best_ece} for {best}; "
BEYOND = (
    "that gap of {gap} is beyond the noise ({group}'s error is above what chance gives a calibrated model on its {n} "
    "cases, up to {chance}, and the {gap_iv} lies above 0)."
)
WITHIN_OWN = (
    "that gap of {gap} is within the noise ({group}'s error is within what chance gives a calibrated model on its "
    "{n} cases, up to {chance})."
)
WITHIN_GAP = "that gap of {gap} is within the noise (the {gap_iv} includes 0)."
TOO_FEW_NAMED = "Too few {cases} to read: {names} (fewer than {least} positives or negatives); no error is claimed."


IV = "95% interval {low} to {high}"
IV_OF = "95% interval of {of} {low} to {high}"


def _iv(low: float, high: float, of: str = "") -> str:
    """'95% interval 0.0100 to 0.0400' in the page's four decimals (`error`).

    >>> _iv(-0.01, 0.04, of="the gap")
    '95% interval of the gap −0.0100 to 0.0400'
    """
    return (IV_OF if of else IV).format(of=of, low=error(low), high=error(high))


def group_sentence(gc, least: int, *, on_test: bool = True) -> str:
    """One sentence (two at most) naming the least calibrated group and whether its gap to the
    best calibrated one is beyond the noise (`calibration.GroupCalibration`), and the groups
    too small to read; `on_test`: whether the judged rows are test rows (`cases_word`)."""
    cases = cases_word(on_test)
    few = [shorten(g.group) for g in gc.by_group if g.too_few]
    tail = (" " + TOO_FEW_NAMED.format(names=", ".join(few), least=least, cases=cases)) if few else ""
    w, b = gc.worst, gc.best
    if w is None:
        return NO_GROUP_READ.format(least=least, cases=cases)
    if b is None:
        noise = ONE_BEYOND if w.beyond_noise else ONE_WITHIN
        return ONE_GROUP_READ.format(
            group=shorten(w.group), ece=error(w.ece), iv=_iv(w.low, w.high), noise=noise, cases=cases
        )
    head = LEAST.format(
        group=shorten(w.group), ece=error(w.ece), iv=_iv(w.low, w.high), best_ece=error(b.ece), best=shorten(b.group)
    )
    gap_iv = _iv(gc.gap_low, gc.gap_high, of="the gap")
    if gc.gap_beyond_noise:
        said = BEYOND.format(
            gap=error(gc.gap), group=shorten(w.group), n=f"{w.cases:,}", chance=error(w.chance), gap_iv=gap_iv
        )
    elif not w.beyond_noise:
        said = WITHIN_OWN.format(gap=error(gc.gap), group=shorten(w.group), n=f"{w.cases:,}", chance=error(w.chance))
    else:
        said = WITHIN_GAP.format(gap=error(gc.gap), gap_iv=gap_iv)
    return head + said + tail


def group_rows(gc, rescaled: dict, *, on_test: bool = True) -> list[dict]:
    """The rows of the groups' table: a group too small reads `TOO_FEW` instead of a number;
    `rescaled` is {group: its error after rescaling}; the cases' column is named as the judged
    rows are (`cases_word`: 'test cases' only where they are test rows)."""
    rows = []
    c = GROUP_TABLE | {"cases": cases_word(on_test)}
    for g in gc.by_group:
        if g.too_few:
            rows.append({c["group"]: g.group, c["cases"]: f"{g.cases:,}", c["error"]: TOO_FEW, c["interval"]: "–",
                         c["chance"]: "–", c["rescaled"]: "–"})  # fmt: skip
            continue
        rows.append(
            {
                c["group"]: g.group,
                c["cases"]: f"{g.cases:,}",
                c["error"]: error(g.ece),
                c["interval"]: f"{error(g.low)} to {error(g.high)}",
                c["chance"]: error(g.chance),
                c["rescaled"]: error(rescaled.get(g.group, float("nan"))),
            }
        )
    return rows
