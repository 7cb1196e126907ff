"""Find my prices: exact pieces over a ratio range, the break-even range, the bisection."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costlib
from costlib.binary import elicit
from costlib.binary.elicit import ALARM, MISS, SAME, Bracket

rows = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 9), st.integers(1, 3)), min_size=2, max_size=30)


def _brute(y, s, w, r):
    """The cheapest cutoff at c_fp = 1, c_fn = r by exact arithmetic (the float r taken
    exactly), trying +inf and every distinct score on the rows themselves; an exact tie goes
    to the larger cutoff. None where another cutoff comes within a relative 1e-9 of the
    cheapest without tying exactly: there the tie rule decides (see test_ties.py)."""
    rr = Fraction(r)
    costs = []
    for t in [math.inf, *sorted(set(s), reverse=True)]:
        flagged = s >= t
        fp = sum(Fraction(int(wi)) for wi, f, yi in zip(w, flagged, y, strict=True) if f and yi == 0)
        fn = sum(Fraction(int(wi)) for wi, f, yi in zip(w, flagged, y, strict=True) if not f and yi == 1)
        costs.append((fp + rr * fn, -t))
    costs.sort()
    (best, t), (second, _) = costs[0], costs[1]
    if best < second <= best + max(best, Fraction(1)) * Fraction(1, 10**9):
        return None
    return -t


@settings(max_examples=150, deadline=None)
@given(data=rows, bounds=st.tuples(st.floats(-3, 3), st.floats(-3, 3)), probes=st.lists(st.floats(0, 1), max_size=6))
def test_pieces_equal_brute_force_at_many_ratios(data, bounds, probes):
    y = np.array([d[0] for d in data])
    s = np.array([d[1] for d in data]) / 9
    w = np.array([d[2] for d in data], dtype=float)
    if y.min() == y.max():
        return
    lo, hi = sorted(10.0 ** np.array(bounds))
    table = costlib.optimal_cutoffs_by_ratio(y, s, ratio_low=lo, ratio_high=hi, sample_weight=w)
    # the pieces cover [lo, hi] without gaps, sorted
    assert table["ratio_low"].iloc[0] == lo and table["ratio_high"].iloc[-1] == hi
    np.testing.assert_array_equal(table["ratio_low"].iloc[1:], table["ratio_high"].iloc[:-1])
    for i, piece in enumerate(table.itertuples()):
        ratios = [piece.ratio_high] + [
            piece.ratio_low * (piece.ratio_high / piece.ratio_low) ** u for u in probes if piece.ratio_low > 0
        ]
        if i == 0:
            ratios.append(piece.ratio_low)
        for r in ratios:
            if piece.ratio_low < r <= piece.ratio_high or (i == 0 and r == piece.ratio_low):
                assert _brute(y, s, w, r) in (None, piece.threshold), (r, table)


def test_pieces_per_group_equal_each_groups_own_pieces():
    rng = np.random.default_rng(2)
    y, s, g = rng.integers(0, 2, 300), rng.integers(0, 20, 300) / 19, rng.choice(["a", "b"], 300)
    both = costlib.optimal_cutoffs_by_ratio(y, s, ratio_low=0.05, ratio_high=20, groups=g)
    for name in ("a", "b"):
        own = costlib.optimal_cutoffs_by_ratio(y[g == name], s[g == name], ratio_low=0.05, ratio_high=20)
        np.testing.assert_array_equal(both[both["group"] == name].drop(columns="group").to_numpy(), own.to_numpy())


def test_worked_example():
    # y = [0, 0, 1, 1, 0, 1], p = [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], c_fp = 1, c_fn = r. Per cutoff:
    # 0.9: 2r; 0.8: r; 0.65: 1 + r; 0.4: 2 + r; 0.35: 2; 0.1: 3; nobody: 3r. So 0.8 is cheapest
    # while r <= 2 (at r = 2 it ties with 0.35 and the larger cutoff wins), 0.35 above.
    table = costlib.optimal_cutoffs_by_ratio(
        [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], ratio_low=0.5, ratio_high=4
    )
    assert table["threshold"].tolist() == [0.8, 0.35]
    # the break is 2 up to the tie tolerance: a false alarm is priced 1e-12 dearer, so the
    # larger cutoff keeps the tie and the break sits at 2 * (1 + 1e-12)
    np.testing.assert_allclose(table[["ratio_low", "ratio_high"]].to_numpy(), [[0.5, 2.0], [2.0, 4.0]], rtol=1e-10)
    assert (
        table["ratio_high"].iloc[0] >= 2.0
        and costlib.optimal_threshold(
            [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9], c_fp=1, c_fn=table["ratio_high"].iloc[0]
        )[0]
        == 0.8
    )
    # Without a model: flag nobody 3r, flag everyone 3. The model's best is r (r <= 2) or 2:
    # below both at every r > 0, so it beats them everywhere.
    assert elicit.break_even_range(costlib.threshold_sweep([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.65, 0.9])) == (
        0.0,
        math.inf,
    )
    # Reversed scores (y = [0, 1], p = [0.9, 0.1]): the only inner cutoff 0.9 costs 1 + r, more
    # than flagging nobody (r) and flagging everyone (1): the model never helps.
    assert all(math.isnan(x) for x in elicit.break_even_range(costlib.threshold_sweep([0, 1], [0.9, 0.1])))


@settings(max_examples=80, deadline=None)
@given(data=rows, r=st.floats(-3, 3))
def test_break_even_range_is_where_the_best_cutoff_beats_both_no_model_choices(data, r):
    y = np.array([d[0] for d in data])
    s = np.array([d[1] for d in data]) / 9
    if y.min() == y.max():
        return
    r = 10.0**r
    sw = costlib.threshold_sweep(y, s)
    low, high = elicit.break_even_range(sw)
    cost = (sw.fp + r * sw.fn) / sw.total
    baseline = min(r * sw.positives, sw.negatives) / sw.total
    beats = cost.min() < baseline - 1e-12 * max(1.0, baseline)
    # within 1e-9 of an end the model and the baseline cost the same up to the tie tolerance:
    # either answer is a tie there, so the ends are not probed
    if math.isnan(low):
        assert not beats
    elif low * (1 + 1e-9) < r < high * (1 - 1e-9):
        assert beats
    elif r < low * (1 - 1e-9) or r > high * (1 + 1e-9):
        assert not beats


@pytest.mark.parametrize("truth", list(np.geomspace(1e-3, 1e3, 61)) + [1.0, 3.0, 0.2, 999.0])
def test_bisection_brackets_any_true_ratio_within_a_factor_of_1_5_in_at_most_6_answers(truth):
    b = Bracket()
    asked = 0
    while b.settled is None:
        n = elicit.next_n(b)
        assert b.low < n < b.high
        b = elicit.answer(b, n, MISS if truth > n else ALARM)  # an honest answerer
        asked += 1
    assert b.settled == "precise" and b.high / b.low <= elicit.PRECISION * (1 + 1e-9)
    assert b.low <= truth <= b.high
    assert 4 <= asked <= 6, asked


def test_about_the_same_stops_and_going_back_undoes_one_answer():
    b = elicit.answer(Bracket(), 1.0, MISS)
    b2 = elicit.answer(b, elicit.next_n(b), ALARM)
    assert elicit.back(b2) == b
    same = elicit.answer(b2, 10, SAME)
    assert same.settled == SAME and same.low == pytest.approx(10 / math.sqrt(1.5))
    assert elicit.back(same) == b2


def test_questions_are_in_the_users_words_and_count_whole_cases():
    b = Bracket(names=("a missed fraud", "a blocked honest customer"))
    assert elicit.question(b, 30)[0] == "Which is worse: 1 × a missed fraud, or 30 × a blocked honest customer?"
    assert elicit.question(b, 0.2)[0] == "Which is worse: 5 × a missed fraud, or 1 × a blocked honest customer?"
    with pytest.raises(ValueError, match="choice must be one of"):
        elicit.answer(b, 3, "dunno")


def test_one_class_is_one_nan_piece_with_a_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = costlib.optimal_cutoffs_by_ratio([1, 1], [0.2, 0.3], ratio_low=1, ratio_high=2)
    assert len(t) == 1 and math.isnan(t["threshold"].iloc[0])
    assert any(issubclass(w.category, costlib.DegenerateWarning) for w in caught)


def test_the_record_round_trips_through_a_policy_file():
    from costlib.answers.audit import build_audit
    from costlib.binary.decision import sweep_model
    from costlib.present.policy import load_policy, policy_json
    from costlib.present.report import audit_html

    b = Bracket(names=("a missed fraud", "a blocked <b>honest</b> customer"))
    for n, choice in ((1.0, MISS), (30.0, ALARM), (5.5, MISS)):
        b = elicit.answer(b, n, choice)
    record = elicit.record(b, money=2.0, unit="$")
    audit = build_audit(
        sweep_model([0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.3, 0.7, 0.6, 0.2]),
        (2.0, 2.0 * b.middle),
        n_resamples=20,
        price_questions=record,
    )
    back = load_policy(policy_json(audit, price_questions=record))
    assert back["price_questions"] == record
    assert [a["answer"] for a in back["price_questions"]["answers"]] == [MISS, ALARM, MISS]
    html = audit_html(audit)
    assert "How the prices were chosen" in html and "&lt;b&gt;honest&lt;/b&gt;" in html


def _small_audit(prices, record):
    from costlib.answers.audit import build_audit
    from costlib.binary.decision import sweep_model

    return build_audit(
        sweep_model([0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.3, 0.7, 0.6, 0.2]), prices, n_resamples=20, price_questions=record
    )


def test_prices_moved_after_the_questions_are_not_said_to_come_from_them():
    from costlib.present.report import audit_html

    b = Bracket(names=("a miss", "a false alarm"))
    for n, choice in ((1.0, MISS), (30.0, ALARM), (5.5, MISS)):
        b = elicit.answer(b, n, choice)
    record = elicit.record(b, money=2.0, unit="$")
    kept = elicit.in_force(record, {"everyone": (2.0, 2.0 * b.middle)})
    moved = elicit.in_force(record, {"everyone": (2.0, 50.0)})
    assert kept["in_force"] and not moved["in_force"] and moved["ratio_now"] == 25.0
    assert "The prices come from 3 answers" in audit_html(_small_audit((2.0, 2.0 * b.middle), kept))
    html = audit_html(_small_audit((2.0, 50.0), moved))
    assert "The prices come from" not in html
    assert "changed by hand to a ratio of 25" in html
    # per-group multipliers: each group's ratio is the middle times its multiplier
    record["group_multipliers"] = {"a": 1.0, "<b>b</b>": 2.0}
    html = audit_html(_small_audit((2.0, 2.0 * b.middle), elicit.in_force(record, {"everyone": (2.0, 2 * b.middle)})))
    assert "A miss was said to cost more or less in some groups: a × 1; &lt;b&gt;b&lt;/b&gt; × 2." in html
    record["group_multipliers"] = {"a": 1.0, "b": 2.0}
    assert elicit.in_force(record, {"a": (1.0, b.middle), "b": (1.0, 2 * b.middle)})["in_force"]
    assert not elicit.in_force(record, {"a": (1.0, b.middle), "b": (1.0, b.middle)})["in_force"]
    assert elicit.in_force(None, {"a": (1.0, 1.0)}) is None


@pytest.mark.parametrize(
    "change, words",
    [
        ({"ratio_chosen": "4"}, '"ratio_chosen", a ratio the questions can reach'),
        ({"ratio_low": -1.0}, '"ratio_low", a ratio the questions can reach'),
        ({"ratio_chosen": 0.5}, "ratio_low <= ratio_chosen <= ratio_high"),
        ({"ratio_low": 1e-200, "ratio_high": 1e200}, '"ratio_low", a ratio the questions can reach (0.001 to 1000)'),
        ({"answers": "miss"}, '"answers" that are not a list'),
        ({"answers": [{"answer": "maybe"}]}, "an answer that is not"),
        ({"outcomes": {"miss": ["x"]}}, '"outcomes" that are not two short texts'),
        ({"group_multipliers": {"a": -2.0}}, "group multiplier that is not a number from 0.001 to 1000"),
        ({"cutoffs_in_range": [{"ratio_low": 1, "ratio_high": 2, "threshold": "0.5"}]}, "a cutoff range"),
        ({"in_force": "yes"}, '"in_force" of the wrong kind'),
    ],
)
def test_a_policy_with_bad_price_questions_gets_a_sentence(change, words):
    import json

    from costlib.core.errors import DataError
    from costlib.present.policy import load_policy, policy_json

    b = elicit.answer(Bracket(names=("a miss", "a false alarm")), 1.0, MISS)
    record = elicit.record(b)
    text = json.loads(policy_json(_small_audit((1.0, b.middle), record), price_questions=record))
    text["price_questions"].update(change)
    with pytest.raises(DataError, match="not a usable costlib policy file") as err:
        load_policy(json.dumps(text))
    assert words in str(err.value)


def test_a_policy_whose_questions_name_no_outcomes_still_reads_with_both_names():
    import json

    from costlib.present.policy import load_policy, policy_json

    b = elicit.answer(Bracket(names=("a miss", "a false alarm")), 1.0, MISS)
    record = elicit.record(b)
    text = json.loads(policy_json(_small_audit((1.0, b.middle), record), price_questions=record))
    text["price_questions"]["outcomes"] = {"false_alarm": "a blocked customer"}  # "miss" left out
    got = load_policy(json.dumps(text))["price_questions"]["outcomes"]
    assert got == {"miss": "miss", "false_alarm": "a blocked customer"}


@given(st.floats(1e-3, 1e3), st.floats(1.001, 1e3))
def test_the_price_set_reads_as_a_person_would_type_it_and_stays_inside(low, spread):
    """A review found "Use these prices" setting a miss at $178.89 (c_fn=178.885438199983 in the
    link): the geometric middle to the last bit. It is now three significant digits where that
    stays strictly inside the bracket (else the exact middle)."""
    b = elicit.Bracket(low, low * spread)
    m = b.middle
    assert b.low < m < b.high
    exact = math.sqrt(b.low * b.high)
    if m != exact:
        assert abs(m / exact - 1) <= 0.005
        assert float(f"{m:.3g}") == m
    else:  # already three digits, or rounding would leave the bracket
        assert float(f"{exact:.3g}") == exact or not b.low < float(f"{exact:.3g}") < b.high
