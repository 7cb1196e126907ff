"""Sentences about groups and review limits that must agree with the tables and answers beside
them (issue 44): a small group is pooled under the best cutoff per group only, the fairness rules
still give it a cutoff of its own; one case a month is one case."""

from __future__ import annotations

import numpy as np

from costlib.answers import costs as answers_costs
from costlib.binary import decision as D
from costlib.binary.fairness import FAIRNESS_CRITERIA, fairness_results
from costlib.core import rules as R
from costlib.present import capacity_words


def _with_a_small_group(seed: int = 3):
    """Two big groups and "student" with 12 positives and 12 negatives among its fit rows
    (fewer than `honest.MIN_CLASS_ROWS`, 20): too small for a cutoff of its own."""
    rng = np.random.default_rng(seed)
    parts = []
    for name, n in (("a", 1500), ("b", 1500), ("student", 48)):
        y = np.tile([0, 1], n // 2)
        s = np.clip(0.3 * y + rng.normal(0.35, 0.2, n), 0, 1).round(2)
        parts.append((y, s, np.full(n, name), np.arange(n) % 2 == (np.arange(n) // 2) % 2))
    y, s, g, fit = (np.concatenate(x) for x in zip(*parts, strict=True))
    return D.sweep_model(y, s, g, fit=fit, judge=~fit, name="m")


def test_the_fairness_note_says_what_its_table_shows_of_a_small_group():
    """Issue 44, item 3: "'student' ... gets the cutoff for everyone" stood above a table giving
    student its own cutoff under every fairness rule. The pooling is the best cutoff per group's;
    the note says so and that the fairness rules still set student a cutoff of its own."""
    ms = _with_a_small_group()
    prices = D.prices_for(ms.groups, (1.0, 3.0))
    fair = fairness_results(ms, prices, criteria=tuple(FAIRNESS_CRITERIA), tolerance=0.05, n_resamples=0)
    rec = fair.recommendation
    assert rec.pooled == ("student",)
    cut = rec.results.cutoffs
    assert cut[R.COST_OPTIMAL]["student"] == cut[R.SINGLE]["student"]  # pooled under the best cutoff per group
    own = [r for r in fair.rules if fair.rules[r]["student"] != cut[R.SINGLE]["student"]]
    assert own  # some fairness rule gives student a cutoff of its own
    note = answers_costs.pooled_note(rec)
    assert "the best cutoff per group gives it the cutoff for everyone" in note
    assert "The fairness rules below still set it a cutoff of its own" in note


def test_one_case_a_month_is_singular():
    assert "review 1 case a month, at least the 1 case a month there is" in capacity_words.covers_all(1, 1)
    assert "review 2 cases a month, at least the 3 cases a month there are" in capacity_words.covers_all(2, 3)
    ms = _with_a_small_group()
    rec = D.recommend(ms, (1.0, 3.0), n_resamples=0, capacity=1 / 10_000)
    free = D.recommend(ms, (1.0, 3.0), n_resamples=0)
    from costlib.binary.capacity import limit_facts

    limit = limit_facts({"m": ms}, rec, free)
    sentence = capacity_words.within_sentence(rec, free, limit, volume=10_000, unit="$")
    assert sentence.startswith("Your team can review 1 case a month.")


def test_people_can_take_one_case_a_month():
    from costlib.answers.value import value_capacity_sentence

    for binding in (False, True):
        unlimited = _value_rec(tau=0.9, value=1.0)
        cap = _capacity(unlimited, binding)
        rec = _value_rec(tau=0.95, value=0.9, capacity=cap)
        out = value_capacity_sentence(rec, cap=1, volume=10_000, worth=1.0, unit="$")
        assert out.startswith("People can take 1 case a month"), out


def _value_rec(*, tau: float, value: float, capacity=None):
    from types import SimpleNamespace

    return SimpleNamespace(
        tau=tau,
        value=value,
        model="m",
        models=[1],
        judged_on="test",
        estimate="test",
        capacity=capacity,
        reject_rate=0.0001,
        fit_reject_rate=0.0001,
        baseline_value=0.5,  # what a real recommendation carries besides: the no-model worth and the gain's interval
        gain_low=value - 0.6,
        gain_high=value - 0.4,
    )


def _capacity(unlimited, binding: bool):
    from types import SimpleNamespace

    return SimpleNamespace(
        unlimited=unlimited, binding=binding, unlimited_fit_reject_rate=0.3, fit_reject_rate=0.0001, price=float("nan")
    )
