"""A group's cutoff that flags none (or all) of that group's cases says so where the answer names it.

Review C, item 3 (tiny2.csv): an 8-row group "tiny" is too small for a cutoff of its own and gets
the cutoff for everyone, 0.7204, above every score it has (its highest is 0.618). The headline read
"flag A at 0.4821 or more, B at 0.9402 or more, and tiny at 0.7204 or more": a product manager took
it for a cutoff that works, while it flags nobody in that group and misses all its positives. The
sentence that names the cutoffs (`words.cutoffs_text`, read by the page, the report and the command
line through `words.recommendation_verdict`) now adds what the rates per group show.
"""

from __future__ import annotations

import numpy as np
import pytest

from costlib.binary import decision as D
from costlib.core import rules as R
from costlib.present import words

# the reviewer's tiny group, as uploaded in tiny2.csv: 2 positives, 6 negatives, scores up to 0.618
TINY_SCORES = [0.61829, 0.49494, 0.0319, 0.03041, 0.16157, 0.30269, 0.12084, 0.15795]
TINY_LABELS = [1, 1, 0, 0, 0, 0, 0, 0]


def _rows(seed: int = 7):
    """Two large groups whose scores mean different things (per-group cutoffs clearly win) and the tiny one."""
    rng = np.random.default_rng(seed)
    n = 1000
    s_a, s_b = rng.random(n), rng.random(n)
    y_a = (rng.random(n) < s_a**2).astype(int)
    y_b = (rng.random(n) < s_b**8).astype(int)
    y = np.r_[y_a, y_b, TINY_LABELS]
    s = np.r_[s_a, s_b, TINY_SCORES]
    g = np.array(["A"] * n + ["B"] * n + ["tiny"] * len(TINY_SCORES))
    return y, s, g, rng


def _shipped_per_group(rec):
    if rec.rule != R.COST_OPTIMAL or "tiny" not in rec.pooled or rec.cutoffs["tiny"] <= max(TINY_SCORES):
        pytest.fail(f"the reviewer's case no longer holds: {rec.rule}, {rec.cutoffs}, pooled {rec.pooled}")


def test_the_headline_says_a_pooled_cutoff_above_a_groups_scores_flags_none_of_it():
    y, s, g, _ = _rows()
    rec = D.recommend({"m": D.sweep_model(y, s, g)}, (1, 3), n_resamples=50)
    _shipped_per_group(rec)
    said = words.recommendation_verdict(rec).headline
    tiny = f"tiny at {words.cutoff_number(rec.cutoffs['tiny'])} or more (on all rows it flags none of its 8 cases)"
    assert tiny in said, said
    assert f"A at {words.cutoff_number(rec.cutoffs['A'])} or more, " in said  # the groups it flags partly: no note


def test_with_a_split_the_note_counts_the_groups_test_rows():
    y, s, g, rng = _rows()
    fit = rng.random(len(y)) < 0.5
    fit[-len(TINY_SCORES) :] = [True, False] * (len(TINY_SCORES) // 2)
    rec = D.recommend({"m": D.sweep_model(y, s, g, fit=fit, judge=~fit)}, (1, 3), n_resamples=50)
    _shipped_per_group(rec)
    assert "(on the test rows it flags none of its 4 cases)" in words.recommendation_verdict(rec).headline


def _moved_tiny_case(by: float):
    """The reviewer's rows with tiny's highest case moved to `by` from the cutoff fitted before; the
    recommendation on them (its cutoff for tiny, the cutoff for everyone, does not move)."""
    y, s, g, _ = _rows()
    before = D.recommend({"m": D.sweep_model(y, s, g)}, (1, 3), n_resamples=50).cutoffs["tiny"]
    s[len(s) - len(TINY_SCORES) + int(np.argmax(TINY_SCORES))] = before + by
    rec = D.recommend({"m": D.sweep_model(y, s, g)}, (1, 3), n_resamples=50)
    if rec.rule != R.COST_OPTIMAL or "tiny" not in rec.pooled or rec.cutoffs["tiny"] != before:
        pytest.fail(f"the reviewer's case no longer holds: {rec.rule}, {rec.cutoffs}, pooled {rec.pooled}")
    return rec


def test_the_note_counts_the_named_cutoff_not_the_cross_fitted_ones():
    """Review of df908b0: with a tiny case 0.05 below the cutoff, the cutoff named (fitted on all
    rows) still flags none of the 8, while the cross-fitted rates per group (each row judged by a
    cutoff fitted without it) flag some of them; the note read those and was left out."""
    rec = _moved_tiny_case(-0.05)
    by = rec.results.by_group
    assert float(by.loc[(by["rule"] == rec.rule) & (by["group"] == "tiny"), "flagged_rate"].iloc[0]) > 0
    said = words.recommendation_verdict(rec).headline
    assert (
        f"tiny at {words.cutoff_number(rec.cutoffs['tiny'])} or more (on all rows it flags none of its 8 cases)" in said
    )


def test_a_cutoff_that_flags_one_case_of_the_group_gets_no_note():
    rec = _moved_tiny_case(0.001)
    said = words.recommendation_verdict(rec).headline
    assert f"tiny at {words.cutoff_number(rec.cutoffs['tiny'])} or more." in said, said


def test_cutoffs_text_puts_a_note_after_a_numeric_cutoff_only():
    cut = {"a": 0.4, "b": 0.9, "c": float("inf")}
    notes = {"b": "on all rows it flags none of its 8 cases", "c": "ignored: the words already say nobody"}
    assert words.cutoffs_text(cut, grouped=True, notes=notes) == (
        "flag a at 0.4 or more, b at 0.9 or more (on all rows it flags none of its 8 cases), and nobody in c"
    )
