"""A cutoff that flags nobody or everyone is said on every scale the report reads as probabilities.

Review: `answers.watch_inputs.cutoff_words` left two such cutoffs unsaid. A cutoff of exactly 0 on
probability scores flags everyone (a case is flagged when its score is at least the cutoff, and no
probability is below 0), but only a cutoff below 0 was said. And a policy whose scores are log-odds
was skipped altogether, although the report compares its cutoffs with the scores turned into
probabilities (`core.scales.on_scale`, the sigmoid): a cutoff of 1.5 there flags nobody, without a
word on the page or on the command line's standard error.
"""

from __future__ import annotations

import numpy as np
import pytest

from costlib.answers.watch import SAMPLE_COLUMNS, sample_inputs
from costlib.answers.watch_inputs import cutoff_words
from costlib.watch.report import watch_report


def _policy(cutoff: float, scale: str) -> dict:
    return {"thresholds": {"everyone": cutoff}, "data": {"scale": scale}}


@pytest.mark.parametrize(
    ("scale", "cutoff", "words"),
    [
        ("probability", 0.0, "flags everyone"),  # before: unsaid (0 <= t)
        ("probability", -0.0, "flags everyone"),
        ("probability", -5.0, "flags everyone"),
        ("probability", 1.0, None),  # a score of exactly 1 is flagged
        ("probability", 1.5, "flags nobody"),
        ("logit", 1.5, "flags nobody"),  # before: unsaid (a logit policy was skipped)
        ("logit", 0.0, "flags everyone"),
        ("logit", -2.0, "flags everyone"),
        ("logit", 0.7, None),
        ("logit", np.inf, None),  # said as such by the rule's own words
        ("raw", 1.5, None),  # raw scores are any number: no cutoff is beyond them
        ("raw", 0.0, None),
    ],
)
def test_a_cutoff_that_flags_nobody_or_everyone_is_said(scale, cutoff, words):
    said = cutoff_words(_policy(cutoff, scale))
    assert (said == ()) if words is None else (len(said) == 1 and words in said[0]), said


def test_the_sentence_of_a_logit_policy_says_its_scores_are_log_odds_read_as_probabilities():
    (said,) = cutoff_words(_policy(1.5, "logit"))
    assert "log-odds" in said and "probabilities, from 0 to 1" in said and "above 1" in said, said
    (said,) = cutoff_words(_policy(0.0, "probability"))
    assert said.endswith("its scores are probabilities, from 0 to 1, and the cutoff is 0."), said


@pytest.mark.parametrize("scale", ["probability", "logit"])
@pytest.mark.parametrize("cutoff", [-1.0, -0.0, 0.0, 1e-9, 0.5, 1.0, 1.5])
def test_what_is_said_is_what_the_report_flags(scale, cutoff):
    """The words agree with the report itself: "flags nobody" exactly where it flags no case,
    "flags everyone" exactly where it flags every case, on scores that reach both ends of what the
    scale can be read as (the built-in year's, with a score read as exactly 0 and one as exactly 1)."""
    policy, df = sample_inputs()
    policy = policy | {"thresholds": {"everyone": cutoff}, "data": policy["data"] | {"scale": scale}}
    cols = SAMPLE_COLUMNS
    scores = df[cols["score"]].clip(1e-6, 1 - 1e-6).to_numpy(copy=True)
    ends = [0.0, 1.0]
    if scale == "logit":  # the log-odds of the same cases; the sigmoid of -800 is 0.0 and of 50 is 1.0
        scores, ends = np.log(scores / (1 - scores)), [-800.0, 50.0]
    scores[:2] = ends
    df = df.assign(**{cols["score"]: scores})
    report = watch_report(policy, df, name="c.csv", time=cols["time"], score=cols["score"], n_resamples=0)
    flagged = sum(p["flagged_share"] * p["n"] for p in report["periods"]) / len(df)
    said = " ".join(cutoff_words(policy))
    assert ("flags nobody" in said) == (flagged == 0), (flagged, said)
    assert ("flags everyone" in said) == (flagged == 1), (flagged, said)
