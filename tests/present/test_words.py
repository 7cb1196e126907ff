"""Sentences whose numbers must agree with themselves: signs of intervals, noise in the calibration verdict."""

from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costlib
from costlib.binary import decision as D
from costlib.calibration import expected_calibration_error
from costlib.present import page_answers, words

MINUS = "\u2212"


def test_a_cheaper_rule_is_cheaper_by_a_positive_amount_with_a_positive_interval():
    rec = SimpleNamespace(cheaper_by_chance=[("best single cutoff", -0.086, -0.116, -0.054)], judged_on="test")
    aside, flatters = words.recommendation_asides(rec, "$")
    assert "$0.086 per case cheaper" in aside
    assert "how much cheaper $0.054 to $0.116" in aside  # not "-$0.116 to -$0.054" beside "$0.086 cheaper"
    assert MINUS not in aside and "-$" not in aside
    assert "not clearly above zero" not in aside  # the interval excludes zero


def test_an_interval_that_includes_zero_is_called_noise():
    rec = SimpleNamespace(cheaper_by_chance=[("best cutoff per group", -0.01, -0.03, 0.02)], judged_on="test")
    aside, flatters = words.recommendation_asides(rec, "$")
    assert f"{MINUS}$0.020 to $0.030" in aside and "not clearly above zero" in aside


def test_an_interval_that_touches_zero_is_not_called_within_the_noise():
    """Issue 44: "$0.00 to $2.23" beside "within the noise" reads as a contradiction; the words say
    what the numbers show: an interval not clearly above zero."""
    rec = SimpleNamespace(cheaper_by_chance=[("best single cutoff", -1.0, -2.23, 0.0)], judged_on="test")
    aside, flatters = words.recommendation_asides(rec, "$")
    assert "how much cheaper $0.00 to $2.23" in aside
    assert "within the noise" not in aside and "not clearly above zero: the difference could be chance" in aside


def test_why_the_recommendation_stays_is_said_once_after_the_rules_that_came_out_cheaper():
    """Review 72: on COMPAS at $1 and $3 two rules came out cheaper than flagging everyone, and "Picking
    whichever rule looks cheapest ... would flatter it; the recommendation is to keep flagging everyone ..."
    followed each of them word for word."""
    rec = SimpleNamespace(
        cheaper_by_chance=[("elkan", -0.016, -0.045, 0.012), ("best cutoff per group", -0.016, -0.042, 0.018)],
        judged_on="test",
    )
    said = words.recommendation_asides(rec, "$")
    assert len(said) == 3 and sum("would flatter the one chosen" in x for x in said) == 1
    assert said[-1].startswith("No rule above changes the verdict") and said[-1].endswith(".")
    for rule in said[:2]:
        assert rule.startswith("“") and rule.endswith("not clearly above zero: the difference could be chance.")
    assert words.recommendation_asides(SimpleNamespace(cheaper_by_chance=[], judged_on="test"), "$") == ()


def test_a_fairness_rule_is_not_an_aside_of_the_answer():
    """The report's audit judges the fairness rules beside the others, and its "Why not another
    rule?" listed "fair: equal false positive rate came out … cheaper", which the page, judging
    them in the fairness section only, did not: the asides leave them to that section."""
    rec = SimpleNamespace(
        cheaper_by_chance=[
            ("fair: equal false positive rate", -0.02, math.nan, math.nan),
            ("threshold 0.5", -0.01, -0.03, 0.01),
        ],
        judged_on="test",
    )
    aside, flatters = words.recommendation_asides(rec, "$")
    assert "0.5" in aside and "fair:" not in aside


def test_scores_exactly_on_bin_edges_fall_in_the_bin_below_as_in_scikit_learn():
    """One binning for the curve, the counts and the ECE, scikit-learn's: a score on an inner
    edge belongs to the bin below it."""
    from sklearn.calibration import calibration_curve

    from costlib.calibration import calibration_bins

    rng = np.random.default_rng(5)
    for n_bins in (2, 3, 5, 8, 10, 16, 24, 30):
        edges = np.linspace(0, 1, n_bins + 1)
        p = np.concatenate((edges, rng.choice(edges, 200), rng.random(100)))  # many scores exactly on edges
        y = (rng.random(p.size) < p).astype(int)
        mean_pred, observed, counts = calibration_bins(y, p, n_bins=n_bins)
        want_obs, want_pred = calibration_curve(y, p, n_bins=n_bins, strategy="uniform")
        np.testing.assert_allclose(mean_pred, want_pred, rtol=1e-12)
        np.testing.assert_allclose(observed, want_obs, rtol=1e-12)
        # brute force: bin i holds edges[i] < p <= edges[i + 1] (and p = 0 in the first)
        ids = np.array([max(0, int(np.searchsorted(edges, x, side="left")) - 1) for x in p])
        brute = np.bincount(ids, minlength=n_bins)
        np.testing.assert_array_equal(counts, brute[brute > 0])
        ece = (
            sum(
                abs(y[ids == b].mean() - p[ids == b].mean()) * np.sum(ids == b)
                for b in range(n_bins)
                if np.any(ids == b)
            )
            / p.size
        )
        assert expected_calibration_error(y, p, n_bins=n_bins) == pytest.approx(ece, abs=1e-12)


def _per_group_rec(group_gain, *, ship_model):
    from costlib.core import rules as R

    return SimpleNamespace(
        grouped=True,
        group_gain=group_gain,  # the saving of per-group cutoffs over one cutoff: estimate, low, high
        results=SimpleNamespace(
            cutoffs={R.COST_OPTIMAL: {"a": 0.3, "b": 0.6}},
            # against the no-model choice: not clearly cheaper either (the interval reaches above 0)
            overall=pd.DataFrame(
                {"vs_baseline": [-0.01], "vs_low": [-0.03], "vs_high": [0.01]}, index=[R.COST_OPTIMAL]
            ),
        ),
        rule=R.SINGLE,
        baseline="flag everyone",
        ship_model=ship_model,
        cutoffs={"a": 0.4, "b": 0.4},
        lowest=None,
        intervals=True,
        judged_on="test",
        n_fit=100,
        n_judged=100,
        pooled=(),
        estimate="test",
        weighted=False,
        n_resamples=1000,
        models=["m"],
    )


def test_per_group_cutoffs_that_cost_more_have_a_positive_interval_of_the_extra_cost():
    rec = _per_group_rec((-0.041, -0.072, -0.0073), ship_model=True)  # clearly dearer
    text = " ".join(words.recommendation_details(rec, "$", None))
    assert (
        "would cost $0.041 per case more (95% interval of the extra cost $0.007 to $0.072): dearer than one cutoff "
        "for everyone, so one cutoff for everyone is recommended." in text
    )
    assert f"{MINUS}$" not in text


@pytest.mark.parametrize("gain", [(0.01, -0.02, 0.04), (-0.041, -0.072, -0.0073)])
def test_per_group_cutoffs_say_one_cutoff_is_recommended_only_when_the_model_ships(gain):
    """Under a verdict that ships no model, "one cutoff for everyone is recommended" would
    contradict the answer above it (keep flagging everyone, say)."""
    shipped = " ".join(words.recommendation_details(_per_group_rec(gain, ship_model=True), "$", None))
    kept = " ".join(words.recommendation_details(_per_group_rec(gain, ship_model=False), "$", None))
    assert "so one cutoff for everyone is recommended" in shipped and "do not change the answer" not in shipped
    assert "so they do not change the answer" in kept and "is recommended" not in kept


@settings(max_examples=120, deadline=None)
@given(
    rows=st.lists(st.tuples(st.integers(0, 40), st.booleans()), min_size=1, max_size=80),
    n_bins=st.integers(1, 30),
)
def test_one_sorted_binning_answers_every_bin_count_as_brute_force_does(rows, n_bins):
    """The Calibration page sorts once and reads any number of bins off the sorted scores
    (empty bins in between included); each bin holds edges[i] < p <= edges[i + 1]."""
    from costlib.calibration import BinnedScores

    p = np.array([r[0] / 40 for r in rows])
    y = np.array([r[1] for r in rows], dtype=int)
    binned = BinnedScores.of(y, p)
    edges = np.linspace(0, 1, n_bins + 1)
    ids = np.array([max(0, int(np.searchsorted(edges, x, side="left")) - 1) for x in p])
    want = [b for b in range(n_bins) if np.any(ids == b)]
    mean_pred, observed, counts = binned.bins(n_bins)
    np.testing.assert_array_equal(counts, [np.sum(ids == b) for b in want])
    np.testing.assert_allclose(mean_pred, [p[ids == b].mean() for b in want], rtol=1e-12)
    np.testing.assert_allclose(observed, [y[ids == b].mean() for b in want], rtol=1e-12)


@pytest.mark.parametrize("abstain", [0.05, 0.3, 50.0])
def test_the_matrix_answer_says_how_many_cases_its_policy_hands_over(abstain):
    """'cheapest decision, or hand over' at a price of handing over too high to use is the cheapest
    decision under another name: the cheapest decision is recommended and the answer says no case
    is worth handing over; else how many it hands, counted (a share rounded to 100% or 0% would
    say all or none where it is not)."""
    from costlib.multiclass import CHEAPEST, CHEAPEST_OR_ABSTAIN, recommend_matrix

    rng = np.random.default_rng(3)
    p = rng.dirichlet([1.0, 1.0, 1.0], size=400)
    y = np.array([rng.choice(3, p=row) for row in p])
    c = np.ones((3, 3)) - np.eye(3)
    rec = recommend_matrix(y, p, c, class_names=["a", "b", "c"], abstain_cost=abstain, n_resamples=50)
    text = page_answers.matrix_verdict(rec, unit="$").headline
    handed = int((rec.decisions[CHEAPEST_OR_ABSTAIN] < 0).sum())
    expected = {50.0: 0, 0.3: None, 0.05: None}[abstain]  # at 50 a hand-over never pays; below 1/3 it can
    if expected == 0:
        assert handed == 0 and text.endswith(page_answers.MATRIX_NONE_HANDED)
        assert rec.policy == CHEAPEST and f"“{CHEAPEST_OR_ABSTAIN}”" not in text
        return
    assert 0 < handed < 400 and text.endswith(f"It hands {handed:,} of the 400 cases to a person.")
    shipped = f"use the policy “{CHEAPEST_OR_ABSTAIN}”. It costs"
    assert shipped in text or f"The policy “{CHEAPEST_OR_ABSTAIN}” would cost" in text


def test_value_without_a_split_says_its_interval_keeps_the_smaller_gain():
    """Value's cross-fitted gain is read against both ways of working without the model and keeps
    the smaller (`value.recommendation`, issue 43); the binary saving's sentence does not say so."""
    from costlib.binary import honest as H
    from costlib.present.words import split_sentence

    value = split_sentence("all", float("nan"), 300, H.CROSS_FITTED, thing="threshold")
    binary = split_sentence("all", 300, 300, H.CROSS_FITTED)
    assert "both ways of working without the model, keeping the smaller gain" in value
    assert "smaller gain" not in binary and binary.endswith("moves it.")


@pytest.mark.parametrize("costs", [(3.0, 10.0), (2.0, 7.0), (1.0, 3.4)])
def test_two_costs_in_one_sentence_differ_as_their_difference_reads(costs):
    """At $3/$10 on COMPAS the model costs $0.0019 a case more than flagging everyone: the
    sentence said "$1.64 ... $0.0019 per case more than flagging everyone ($1.63 per case)"."""
    import re

    from costlib.binary.decision import recommend, sweep_model

    df = pd.read_csv(Path(costlib.__file__).parent / "samples" / "compas.csv")
    split = df["split"].to_numpy()
    ms = sweep_model(df["two_year_recid"], df["p_recid"], fit=split == "train", judge=split == "test", name="p")
    rec = recommend({"p": ms}, costs, n_resamples=20)
    assert rec.status == D.WORSE
    cost, more, base = (
        float(x) for x in re.findall(r"\$([0-9.]+) per case", words.recommendation_verdict(rec, unit="$").headline)
    )
    assert more == pytest.approx(-rec.saving, rel=0.05)
    assert cost - base == pytest.approx(more, rel=0.1)


def test_a_saving_that_could_be_chance_is_one_sentence_without_stacked_brackets():
    """Review 58: 'The best cutoff of “score_overconfident” (the cheaper of your 2 models on the
    train rows) (flag a case when …) would save …' under 'Not clearly better'. The cutoff is said
    as what the rule would do, and the saving as one the model might make."""
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 600)
    models = {
        name: D.sweep_model(y, np.clip(0.03 * y + rng.random(600), 0, 1), name=name) for name in ("first", "second")
    }
    rec = D.recommend(models, (1.0, 1.0), n_resamples=300)
    assert rec.verdict == costlib.core.rules.NOT_CLEARLY, rec.verdict
    head = words.recommendation_verdict(rec, unit="$", volume=1000).headline
    assert ") (" not in head
    assert (
        f"(the cheapest of your 2 models) would {words.cutoffs_text(rec.cutoffs, grouped=False)}: it might save "
        in head
    )


def test_a_cutoff_is_never_written_with_an_exponent():
    # scores in the tens of thousands (amounts, not probabilities) read '3.235e+04' in the answer
    from costlib.present.words import cutoffs_text

    # rounded down, never up (`amounts.cutoff_number`): read literally, the rule takes every case the cutoff takes
    assert cutoffs_text({"a": 32345.6}, grouped=False).endswith("at least 32,345")
    assert cutoffs_text({"a": 1e-5}, grouped=False).endswith("at least 0.00001")
    assert cutoffs_text({"a": 0.32345}, grouped=False).endswith("at least 0.3234")
