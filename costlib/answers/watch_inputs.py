"""What the Watch page says about its inputs before it answers: the score column the policy was
fitted on and the one watched (`score_column_words`), the roles its guess left empty and why the
columns nearest to them were not taken (`guess_notes`), and a cutoff that flags nobody or everyone
on scores read as probabilities (`cutoff_words`). The words are `costlib.present.watch_labels`'.

And what the page decides from the inputs it has, without Streamlit (`views/_ui/watch_inputs.py`
keeps them in the session): which step it is at (`watch_step`: waiting for a file, the session's
last inputs again, the built-in year, or the person's own), an upload's content key
(`content_key`), a role's column choices (`column_choices`) and the periods the cases can be
watched by (`period_offer`)."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence

import pandas as pd

from costlib.core.errors import DataError
from costlib.loading.messages import available, q
from costlib.present.watch_labels import (
    CUTOFF_ABOVE,
    CUTOFF_BELOW,
    CUTOFF_LOW,
    CUTOFF_SCORES,
    CUTOFF_WHERE,
    DATE_COLUMN,
    NO_COLUMN,
    NO_OUTCOME_TAKEN,
    NOT_GUESSED,
    SCORE_ASK,
    SCORE_CHOSEN,
    SCORE_COLUMN,
    SCORE_NOT_IN_CASES,
    SCORE_OTHER_CHOSEN,
)

#: where the Watch page is with the inputs it has (`watch_step`)
WAIT_CASES = "wait_cases"  # a policy file is given, no cases yet
WAIT_CASES_NOW = "wait_cases_now"  # what Costs & groups recommends now: no cases, none kept
WAIT_POLICY = "wait_policy"  # cases are given, no policy file, and none read before
LAST_INPUTS = "last_inputs"  # no cases given: the session's last own inputs, answered again
SAMPLE_YEAR = "sample_year"  # no cases given and none kept: the built-in year under its policy
OWN_INPUTS = "own_inputs"  # cases and a policy: the person's own, answered


def watch_step(
    *,
    from_costs: bool,
    policy_given: bool,
    cases_given: bool,
    last_from_costs: bool | None,
    earlier_policy: Callable[[], bool],
) -> str:
    """Where the Watch page is: one of the constants above.

    `from_costs`: the cutoff watched is what Costs & groups recommends now (else a policy file);
    `policy_given`: a policy file is uploaded; `cases_given`: newer cases are; `last_from_costs`:
    whether the session's last own inputs were watched under what Costs & groups recommends now
    (None without any: only those are watched again under that choice, never a policy file's);
    `earlier_policy()`: whether a policy file that read earlier is still kept (asked only when
    the cases came without a policy file: reading it marks it as used).

    >>> watch_step(from_costs=False, policy_given=False, cases_given=False, last_from_costs=None,
    ...            earlier_policy=lambda: False)
    'sample_year'
    >>> watch_step(from_costs=True, policy_given=False, cases_given=False, last_from_costs=False,
    ...            earlier_policy=lambda: False)
    'wait_cases_now'
    """
    if not cases_given:
        if policy_given and not from_costs:
            return WAIT_CASES
        last = last_from_costs is not None and (last_from_costs or not from_costs)
        if from_costs and not last:
            return WAIT_CASES_NOW
        return LAST_INPUTS if last else SAMPLE_YEAR
    if not (from_costs or policy_given) and not earlier_policy():
        return WAIT_POLICY
    return OWN_INPUTS


def content_key(data: bytes) -> str:
    """The key an uploaded file is remembered by: its content's sha256, never its name."""
    return hashlib.sha256(data).hexdigest()


def column_choices(options: Sequence, guess, *, optional: bool = False) -> tuple[list, int | None]:
    """(choices, index) of a role's column select: the guess first; an optional role starts at
    `NO_COLUMN` without a guess, a role that must have a column waits for the person's pick (index
    None), never the first column.

    >>> column_choices(["when", "score"], None)
    (['when', 'score'], None)
    >>> column_choices(["when", "y"], "y", optional=True)
    (['(none)', 'when', 'y'], 2)
    """
    choices = [NO_COLUMN, *options] if optional else list(options)
    index = choices.index(guess) if guess in choices else 0 if optional else None
    return choices, index


def period_offer(dates: pd.Series) -> tuple[list, str]:
    """(offered, not offered) periods for the cases' `dates`: only the periods a watch can judge,
    the others named once in a sentence ("" when every period is offered)."""
    from costlib.present.watch_periods import period_choice
    from costlib.watch.periods import period_counts

    return period_choice(period_counts(dates))


def policy_score(policy: dict | None) -> str | None:
    """The score column `policy` was fitted on (its ``data.score``), None when it names none."""
    score = ((policy or {}).get("data") or {}).get("score")
    return str(score) if score not in (None, "") else None


def score_missing(policy: dict | None, columns: Sequence) -> bool:
    """Whether `policy` names a score column that the cases' `columns` do not have: then the page
    asks for the score column instead of guessing one (`answers.watch.guess_columns` leaves it empty)."""
    score = policy_score(policy)
    return score is not None and score not in list(columns)


def score_column_words(
    policy: dict | None, columns: Sequence, chosen: str | None, *, name: str, label: str = SCORE_COLUMN
) -> str | None:
    """What the page says of the score column watched against the one `policy` was fitted on: the
    policy's column missing from the cases `name` (their `columns`), asked for while `chosen` is
    None (`SCORE_ASK`) and said beside the column chosen (`SCORE_CHOSEN`); the policy's column
    present but another chosen (`SCORE_OTHER_CHOSEN`); None when the policy's own column is watched
    or the policy names none. `label` names where the column is chosen (the page's select; the
    command line's ``--score``).

    >>> policy = {"data": {"score": "zzz_score"}}
    >>> score_column_words(policy, ["when", "score"], None, name="c.csv")  # doctest: +ELLIPSIS
    'The policy was fitted on the score column "zzz_score", and "c.csv" has no such column (its columns: "when", ...'
    """
    score = policy_score(policy)
    if score is None or score == chosen:
        return None
    if score in list(columns):
        return SCORE_OTHER_CHOSEN.format(policy_column=q(score, 80), chosen=q(chosen, 80), label=label)
    said = SCORE_NOT_IN_CASES.format(policy_column=q(score, 80), name=q(name, 80), columns=available(list(columns)))
    if chosen is None:
        return said + SCORE_ASK.format(label=label)
    return said + SCORE_CHOSEN.format(chosen=q(chosen, 80), label=label)


def guess_notes(df: pd.DataFrame, guess: dict, *, name: str, policy: dict | None = None) -> dict[str, str]:
    """Why the guess (`answers.watch.guess_columns`) left a role empty, in the loader's words, by
    role (``"time"``, ``"score"``, ``"label"``; a role guessed has none): no date column
    (`NOT_GUESSED`); no score column, with why the columns nearest to one were not taken
    (`loading.preparing.refusals`: 'column "score" has 1 value that is not a number: row 2 (...)');
    no outcome, with why a column that looks like one was not (`watch.report.labels_of`: the rows
    holding values other than the two outcomes). A score the policy names and the cases lack is
    `score_column_words`' to say, not this."""
    from costlib.loading.guessing import guess_mapping, near_misses
    from costlib.loading.preparing import refusals
    from costlib.watch.report import labels_of

    said = {}
    if guess.get("time") is None:
        said["time"] = NOT_GUESSED.format(name=q(name, 80), role="date", label=DATE_COLUMN)
    rest = df.drop(columns=[guess["time"]]) if guess.get("time") is not None else df
    mapping = None
    if guess.get("score") is None and not score_missing(policy, df.columns):
        mapping = guess_mapping(rest)
        why = refusals(rest, mapping, name=name).get("scores", ())
        said["score"] = " ".join((NOT_GUESSED.format(name=q(name, 80), role="score", label=SCORE_COLUMN), *why))
    if guess.get("label") is None:
        mapping = mapping or guess_mapping(rest)
        positive = ((policy or {}).get("data") or {}).get("positive")
        for column in near_misses(rest, mapping).get("label", ()):
            try:
                labels_of(rest[column], name, column, positive=positive)
            except DataError as err:
                said["label"] = NO_OUTCOME_TAKEN.format(why=err.message)
                break
    return said


def cutoff_words(policy: dict) -> tuple[str, ...]:
    """A sentence for each cutoff of `policy` that flags nobody or everyone whatever its scores, on
    the scales the report compares cutoffs with probabilities on (`watch.report.watch_report`, through
    `core.scales.on_scale`): probabilities as they are, and log-odds turned into probabilities. A case
    is flagged when its score is at least the cutoff, so a cutoff above 1 flags nobody
    (`CUTOFF_ABOVE`) and one of 0 or below flags everyone (`CUTOFF_BELOW`). None on raw scores (any
    number), for a cutoff above 0 up to 1, or for an infinite one (flag nobody or everyone, said as
    such by the rule's own words). The policy is watched all the same: it is valid, only useless.

    >>> cutoff_words({"thresholds": {"everyone": -5.0}, "data": {"scale": "probability"}})  # doctest: +ELLIPSIS
    ("The policy's cutoff (flag a case when its score is at least −5) flags everyone: ...",)
    >>> cutoff_words({"thresholds": {"everyone": 1.5}, "data": {"scale": "logit"}})  # doctest: +ELLIPSIS
    ("The policy's cutoff (flag a case when its score is at least 1.5) flags nobody: its scores are log-odds, ...",)
    """
    from costlib.present.words import cutoffs_text

    scores = CUTOFF_SCORES.get((policy.get("data") or {}).get("scale") or "probability")
    if scores is None or policy.get("random_share"):
        return ()
    cuts = {g: float(t) + 0.0 for g, t in (policy.get("thresholds") or {}).items() if t is not None}  # -0 is 0
    grouped = len(set(cuts.values())) > 1
    said = []
    for group, t in cuts.items():
        if not math.isfinite(t) or 0 < t <= 1:
            continue
        where = CUTOFF_WHERE.format(group=q(group, 60)) if grouped else ""
        rule = cutoffs_text({group: t}, grouped=False)
        if t > 1:
            said.append(CUTOFF_ABOVE.format(where=where, rule=rule, scores=scores))
        else:
            low = CUTOFF_LOW["below" if t < 0 else "zero"]
            said.append(CUTOFF_BELOW.format(where=where, rule=rule, scores=scores, cutoff_is=low))
        if not grouped:
            break
    return tuple(said)
