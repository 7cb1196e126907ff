"""Flagging at random up to the review limit has one home (`capacity.at_random`): the judged rules'
``flag at random`` row (`decision.evaluate_rules`), the Value page's "hand over at random" and
Watch's policy that flags a share at random all read it, so they agree to the last bit."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose, assert_array_equal

from costlib.binary import capacity as C
from costlib.binary import decision as D
from costlib.core import rules as R
from costlib.core.prices import prices_for
from costlib.value import HAND_AT_RANDOM, recommend_value, sweep_value, value_sweep


def test_at_random_is_the_mixture_of_flagging_nobody_and_everyone():
    # a quarter of the cases at random: 3/4 of nobody's cost (4) and 1/4 of everyone's (8)
    assert C.at_random(0.25, 4.0, 8.0) == 5.0
    assert C.at_random(0.0, 4.0, 8.0) == 4.0 and C.at_random(1.0, 4.0, 8.0) == 8.0
    assert_array_equal(C.at_random(0.5, np.array([0.0, 2.0]), np.array([2.0, 4.0])), [1.0, 3.0])


def test_the_judged_rules_flag_at_random_as_the_mixture_of_their_no_model_rows():
    rng = np.random.default_rng(4)
    y, s = rng.integers(0, 2, 300), rng.random(300)
    g = np.where(rng.random(300) < 0.5, "a", "b")
    ms = D.sweep_model(y, s, groups=g)
    prices = prices_for(ms.groups, {"a": (1.0, 3.0), "b": (2.0, 1.0)})
    cutoffs = D.model_rule_cutoffs(ms, prices, capacity=0.3)
    res = D.evaluate_rules(ms, prices, cutoffs, n_resamples=50, seed=1, capacity=0.3)
    by = res.by_group.set_index(["rule", "group"])
    for grp in ms.groups:
        nobody, everyone, random = (by.loc[(r, grp)] for r in (R.NOBODY, R.EVERYONE, R.AT_RANDOM))
        for col in ("fp", "fn"):  # the expected counts, exactly
            assert random[col] == C.at_random(0.3, nobody[col], everyone[col]), (grp, col)
        assert_allclose(random["cost_per_case"], C.at_random(0.3, nobody["cost_per_case"], everyone["cost_per_case"]))
    t = res.total_cost  # each resample's cost per case: the same mixture on the same resample
    assert_allclose(t[R.AT_RANDOM], C.at_random(0.3, t[R.NOBODY], t[R.EVERYONE]), rtol=1e-12)


def test_the_value_pages_random_hand_over_is_the_same_mixture():
    rng = np.random.default_rng(5)
    y, p = rng.integers(0, 2, 400), rng.random(400)
    judge = {"m": value_sweep(y, p)}
    rec = recommend_value(judge, k=3, max_reject=0.3, n_resamples=0)
    assert rec.baseline == HAND_AT_RANDOM  # a hand-over (0) beats a blind answer at k = 3
    answer_all = float(sweep_value(judge["m"], 3, 0.0)[-1])
    assert rec.baseline_value == C.at_random(0.3, answer_all, 0.0)
