"""Warning before the outcomes arrive: the label-free estimate (`costlib.watch.estimate`) on
simulated months whose truth is known (`costlib.watch.streams`), and its parts against brute
force.

The simulations are seeded and sized for CI (`benchmarks/watch.py` runs them larger):

- stationary months (the base rate has not moved) alert in at most 1 of 20, over 40 streams,
  each with its own policy fitted on its own reference cases;
- after a base-rate shift from 0.20 to 0.45 every month alerts, without a single outcome;
- under a covariate shift that keeps the model calibrated, the bracket of the two readings holds
  what the month's outcomes show in at least 95% of months;
- a model that lost signal fails the label-shift test in most months;
- the interval of the estimated regret covers the true regret in about 95% of months.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.watch import streams
from costlib.watch.estimate import (
    FAILS,
    HOLDS,
    UNTESTED,
    moved_cutoff,
    outcomes_to_tell,
    prior_fixed_points,
    reference_prior,
)
from costlib.watch.shift import estimate_prior, move_to_prior

RESAMPLES = 200


def _estimate(policy, y_or_none, s, *, resamples=RESAMPLES, seed=0, **kw):
    return streams.estimate_month(policy, s, y_or_none, n_resamples=resamples, seed=seed, **kw)


# ---------------------------------------------------------------------------------------
# The parts, against brute force


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(0.0, 1.0), min_size=1, max_size=30),
    st.floats(0.05, 0.95),
    st.lists(st.integers(0, 4), min_size=30, max_size=30),
)
def test_the_em_of_many_resamples_is_each_resamples_em(p, train_prior, counts):
    """Weights of a resample are rows repeated: each row's base rate is `estimate_prior` of its rows."""
    p = np.asarray(p)
    w = np.asarray(counts[: p.size], dtype=float)
    rows = np.stack([w, np.ones(p.size), w[::-1]])
    got = prior_fixed_points(p, rows, np.full(3, train_prior))
    for i, row in enumerate(rows):
        if row.sum() == 0:
            continue
        want = estimate_prior(np.repeat(p, row.astype(int)), train_prior=train_prior)
        assert got[i] == pytest.approx(want, abs=1e-9)


def test_the_fixed_point_is_the_papers_em():
    rng = np.random.default_rng(1)
    for prior in (0.05, 0.2, 0.45):
        _, s = streams.label_shift(rng, 2000, prior)
        em, _ = streams.paper_em(s, 0.2)
        assert estimate_prior(s, train_prior=0.2) == pytest.approx(em, abs=1e-9)


def test_a_moved_cutoff_flags_the_cases_whose_moved_probability_reaches_the_shipped_one():
    rng = np.random.default_rng(2)
    s = rng.random(5000)
    for q in (0.05, 0.3, 0.6):
        t = moved_cutoff(0.25, math.log(0.2 / 0.8) - math.log(q / (1 - q)))
        moved = move_to_prior(s, q, 0.2)
        assert np.array_equal(s >= t, moved >= 0.25 - 1e-12) or np.sum((s >= t) != (moved >= 0.25)) <= 1
    assert moved_cutoff(math.inf, 3.0) == math.inf and moved_cutoff(-math.inf, 3.0) == -math.inf
    assert moved_cutoff(0.0, -2.0) == 0.0 and moved_cutoff(0.5, 0.0) == 0.5


def test_cases_like_the_reference_read_as_no_shift_and_cost_nothing_to_refit():
    """The reference's own scores: the EM at the reference's mean score is that mean, the cutoff
    does not move and the regret is zero exactly."""
    from costlib.core.sweep import threshold_sweep
    from costlib.watch.reference import reference_record

    y, s = streams.label_shift(np.random.default_rng(3), 4000, 0.2)
    s = np.round(s, 2)  # fewer distinct scores than buckets: the reference holds every one
    policy = {
        "thresholds": {"everyone": 0.27},
        "prices": {"everyone": (1.0, 3.0)},
        "reference": reference_record(threshold_sweep(y, s)),
    }
    prior, _ = reference_prior(policy)
    assert estimate_prior(s, train_prior=prior) == pytest.approx(prior, abs=1e-12)
    e = _estimate(policy, None, s, resamples=0)
    assert e.label_shift.regret == pytest.approx(0.0, abs=1e-12)
    assert e.label_shift.refit["everyone"] == pytest.approx(policy["thresholds"]["everyone"], abs=1e-9)


def test_the_shipped_cost_is_each_cases_expected_cost_and_the_known_outcomes_count_as_they_are():
    rng = np.random.default_rng(4)
    policy = streams.shipped(rng)
    y, s = streams.label_shift(rng, 800, 0.4)
    known = np.arange(s.size) % 4 == 0
    labels = np.where(known, y, np.nan)
    e = _estimate(policy, labels, s, resamples=0)
    prior, _ = reference_prior(policy)
    q = estimate_prior(np.where(known, y, s), train_prior=prior)
    moved = move_to_prior(s, q, prior)
    t = policy["thresholds"]["everyone"]
    cost = np.where(known, np.where(s >= t, 1 - y, 3 * y), np.where(s >= t, 1 - moved, 3 * moved))
    assert e.label_shift.cost == pytest.approx(cost.mean(), abs=1e-12)
    cal = np.where(known, np.where(s >= t, 1 - y, 3 * y), np.where(s >= t, 1 - s, 3 * s))
    assert e.calibrated.cost == pytest.approx(cal.mean(), abs=1e-12) and e.calibrated.regret == 0
    assert e.calibrated.base_rate == pytest.approx(np.where(known, y, s).mean(), abs=1e-12)


def test_under_a_review_limit_the_refit_flags_at_most_it_and_a_random_share_is_kept_or_dropped():
    rng = np.random.default_rng(5)
    policy = streams.shipped(rng)
    _, s = streams.label_shift(rng, 1500, 0.45)  # more positives: the moved cutoff flags more
    free = _estimate(policy, None, s, resamples=0)
    capped = _estimate(policy, None, s, resamples=0, capacity=0.2)
    assert np.mean(s >= free.label_shift.refit["everyone"]) > 0.2
    assert np.mean(s >= capped.label_shift.refit["everyone"]) <= 0.2 + 1e-12
    assert capped.label_shift.regret <= free.label_shift.regret + 1e-12
    rand = {**policy, "thresholds": {"everyone": math.inf}}
    _, low = streams.label_shift(rng, 1500, 0.02)  # hardly a positive: flagging at random costs more than nobody
    e = _estimate(rand, None, low, resamples=0, random_share=0.2)
    assert e.label_shift.refit_share == 0.0 and e.label_shift.regret > 0 and e.flagged == 0.2


def test_a_month_of_many_distinct_scores_is_resampled_in_buckets_that_keep_the_shipped_cutoff_exact():
    from costlib.watch.estimate import compress, make_cells

    rng = np.random.default_rng(9)
    s = rng.random(30_000)
    y = np.where(rng.random(s.size) < 0.3, (rng.random(s.size) < s).astype(float), np.nan)
    codes = (rng.random(s.size) < 0.4).astype(int)
    cells = make_cells(s, codes, y)
    small = compress(cells, np.array([0.25, 0.6]), limit=100)
    for g in (0, 1):
        for k in (0, 1, 2):
            a, b = (cells.group == g) & (cells.kind == k), (small.group == g) & (small.kind == k)
            assert b.sum() <= 102 and cells.count[a].sum() == small.count[b].sum()
            assert np.sum(cells.count[a] * cells.score[a]) == pytest.approx(np.sum(small.count[b] * small.score[b]))
            for t in (0.25, 0.6):  # every bucket lies on one side of each shipped cutoff
                assert small.count[b & (small.score >= t)].sum() == cells.count[a & (cells.score >= t)].sum()


def test_the_reference_holds_each_class_exactly_at_its_bucket_ends_and_round_trips_through_a_policy():
    from costlib.answers.audit import build_audit
    from costlib.binary import decision as D
    from costlib.present.policy import load_policy, policy_json

    rng = np.random.default_rng(6)
    y, s = streams.label_shift(rng, 20_000, 0.2)
    s = s + rng.random(s.size) * 1e-5  # about 20,000 distinct scores: buckets
    audit = build_audit(D.sweep_model(y, s), (1, 3), n_resamples=0)
    ref = audit.reference
    assert len(ref["scores"]) <= 500 and ref["rows"] == 20_000 and sum(ref["positives"]) == y.sum()
    ends = np.asarray(ref["scores"])
    assert np.array_equal(np.cumsum(ref["positives"]), [np.sum((s <= e) & (y == 1)) for e in ends])
    assert ref["mean_score"] == pytest.approx(s.mean(), abs=1e-12)
    back = load_policy(policy_json(audit))["reference"]
    assert back["scores"] == ref["scores"] and back["negatives"] == ref["negatives"]


@pytest.mark.parametrize(
    "change, words",
    [
        ({"rows": -1}, '"reference.rows"'),
        ({"scores": "x"}, '"reference.scores" must be a list'),
        ({"scores": [0.5, 0.2]}, "in increasing order"),
        ({"positives": [1.5, 2]}, "whole positives and negatives"),
        ({"negatives": [0, 0]}, "whole positives and negatives"),
        ({"mean_score": 2}, '"mean_score" strictly between 0 and 1'),
        ({"calibration": None}, '"reference.calibration" must be a record'),
        ({"scores": [0.1] * 600, "positives": [1] * 600, "negatives": [1] * 600}, "a list of 2 to 500"),
    ],
)
def test_a_hostile_reference_gets_a_sentence(change, words):
    from costlib import DataError
    from costlib.answers.audit import build_audit
    from costlib.binary import decision as D
    from costlib.present.policy import load_policy, policy_dict

    y, s = streams.label_shift(np.random.default_rng(7), 300, 0.3)
    policy = policy_dict(build_audit(D.sweep_model(y, s), (1, 3), n_resamples=0))
    ref = policy["reference"]
    policy["reference"] = {
        **ref,
        "scores": [0.2, 0.6],
        "positives": [10, 20],
        "negatives": [ref["rows"] - 40, 10],
        **change,
    }
    with pytest.raises(DataError, match=words.replace("(", r"\(")):
        load_policy(json.dumps(policy))


def test_outcomes_to_tell_tell_the_two_readings_apart_95_times_in_100():
    rng = np.random.default_rng(8)
    for q1, q2 in ((0.45, 0.32), (0.09, 0.18), (0.2, 0.23)):
        m = outcomes_to_tell(q1, q2)
        mid = (q1 + q2) / 2
        for truth, other in ((q1, q2), (q2, q1)):
            share = rng.binomial(m, truth, size=4000) / m
            right = np.mean((share > mid) == (truth > other))
            assert right >= 0.93, (q1, q2, m, right)
    assert outcomes_to_tell(0.3, 0.3) is None


# ---------------------------------------------------------------------------------------
# Simulated streams with a known truth


@pytest.mark.parametrize("rule", ["cost-optimal", "formula"])
def test_stationary_streams_alert_in_at_most_one_month_in_twenty(rule):
    """40 streams, each a policy fitted on its own 4,000 reference cases (its cost-optimal cutoff,
    or the formula's 0.25, the best there is when the scores are calibrated: any move of the base
    rate makes moving it a saving), 6 unlabelled months of 1,500 cases at the reference's base rate."""
    months = alerts = 0
    for stream in range(40):
        rng = np.random.default_rng([stream, 11])
        policy = streams.shipped(rng)
        if rule == "formula":
            policy["thresholds"] = {"everyone": 0.25}
        for m in range(6):
            _, s = streams.label_shift(rng, 1500, streams.TRAIN_PRIOR)
            e = _estimate(policy, None, s, seed=m)
            months += 1
            alerts += e.alert
    assert months == 240 and alerts <= months / 20, alerts


def test_a_base_rate_shift_alerts_in_every_month_without_a_single_outcome():
    holds = 0
    for stream in range(10):
        rng = np.random.default_rng([stream, 12])
        policy = streams.shipped(rng)
        for m in range(6):
            _, s = streams.label_shift(rng, 1500, 0.45)
            e = _estimate(policy, None, s, seed=m)
            assert e.alert and e.label_shift.alert, (stream, m)
            holds += e.assumption == HOLDS
            assert e.label_shift.base_rate == pytest.approx(0.45, abs=0.06)
            assert e.label_shift.refit["everyone"] < policy["thresholds"]["everyone"]  # more positives: flag more
            assert not e.readings_agree and e.outcomes_to_tell is not None
    assert holds >= 54  # and the scores fit a change of the base rate (the test's level is 1%)


def test_under_a_calibrated_covariate_shift_the_bracket_holds_what_the_outcomes_show():
    inside = months = 0
    low_em = []
    for stream in range(20):
        rng = np.random.default_rng([stream, 13])
        policy = streams.shipped(rng)
        t = policy["thresholds"]["everyone"]
        for m in range(6):
            y, s = streams.covariate_shift(rng, 1500, -0.8, 1.2)
            e = _estimate(policy, None, s, seed=m)
            spent = np.mean(np.where(s >= t, 1 - y, 3 * y))
            low, high = e.bracket
            inside += low <= spent <= high
            months += 1
            low_em.append(e.label_shift.base_rate - y.mean())
    assert inside >= 0.95 * months, inside
    assert np.mean(low_em) < -0.02  # the EM reads this change as a fall of the base rate: why both are shown


def test_a_model_that_lost_signal_fails_the_label_shift_test_in_most_months():
    fails = months = 0
    for stream in range(10):
        rng = np.random.default_rng([stream, 14])
        policy = streams.shipped(rng)
        for m in range(3):
            _, s = streams.changed_model(rng, 1500)
            e = _estimate(policy, None, s, seed=m)
            fails += e.assumption == FAILS
            months += 1
            assert e.alert or e.assumption != FAILS  # a failed check alerts: check the model
    assert fails >= 0.8 * months, fails


def test_the_interval_of_the_estimated_regret_covers_the_true_regret_about_95_times_in_100():
    """The truth: what the cutoff the month's estimate moves to saves in expectation, at the
    month's true base rate (a large sample of cases at their true probabilities)."""
    cover = months = 0
    for stream in range(24):
        rng = np.random.default_rng([stream, 15])
        policy = streams.shipped(rng)
        t = policy["thresholds"]["everyone"]
        for m, q in enumerate((0.1, 0.15, 0.2, 0.3, 0.45)):
            _, s = streams.label_shift(rng, 1500, q)
            e = _estimate(policy, None, s, seed=m)
            truth = streams.true_cost(t, q) - streams.true_cost(e.label_shift.refit["everyone"], q)
            cover += e.label_shift.regret_low <= truth <= e.label_shift.regret_high
            months += 1
    assert 0.88 * months <= cover <= 0.995 * months, cover


def test_without_a_reference_the_reading_is_untested_and_still_estimated():
    rng = np.random.default_rng(16)
    policy = {**streams.shipped(rng)}
    policy.pop("reference")
    _, s = streams.label_shift(rng, 1500, 0.45)
    e = _estimate(policy, None, s)
    assert e.assumption == UNTESTED and math.isnan(e.p_value) and e.label_shift.alert
