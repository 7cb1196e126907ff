"""A fairness rule's row is about one rule (review r3): its estimates lie inside their own
intervals, and a rule whose cutoffs flag everyone shows the numbers of flagging everyone.

Without a split a fairness rule's flagged share, cost, saving and gap are cross-fitted, its
intervals from a bootstrap that refits it. Before: a rule fitted tighter was cross-fitted with
each fold choosing its own tolerance (nested) while its intervals refitted it at the tolerance in
its name, and the intervals were the refits' percentile intervals, centred elsewhere; "fair: equal
false positive rate (fitted within 0%)" read cutoff "everyone", flagged 48.4%, cost 0.296 with
interval 0.668 to 0.783, and gap 0.0% (0.0% to 0.0%) beside group rates 28.5%, 31.9% and 40.0%.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from costlib.binary import fairness
from costlib.binary.fair_search import FAIRNESS_CRITERIA
from costlib.binary.model_sweeps import sweep_model
from costlib.core import rules as R
from costlib.core.prices import prices_for


def _signal(n, seed, groups=("A", "B"), rates=(0.2, 0.45), strength=1.5) -> pd.DataFrame:
    r = np.random.default_rng(seed)
    g = r.choice(groups, size=n, p=[0.6, 0.4])
    base = np.where(g == groups[0], rates[0], rates[1])
    y = (r.random(n) < base).astype(int)
    z = strength * (2 * y - 1) + r.normal(0, 1.3, n) + np.log(base / (1 - base))
    return pd.DataFrame({"outcome": y, "score": (1 / (1 + np.exp(-z))).round(6), "group": g})


def _tiny() -> pd.DataFrame:
    d, t = _signal(1985, 6), _signal(15, 8, groups=("C", "D"), rates=(0.3, 0.3))
    t["group"] = "Tiny"
    return pd.concat([d, t]).sample(frac=1, random_state=1)


@pytest.fixture(scope="module", params=["tiny", "signal"])
def audited(request):
    d = _tiny() if request.param == "tiny" else _signal(2000, 1)
    ms = sweep_model(d["outcome"].to_numpy(), d["score"].to_numpy(), groups=d["group"].to_numpy())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fr = fairness.fairness_results(
            ms, prices_for(ms.groups, (1, 3)), criteria=tuple(FAIRNESS_CRITERIA), tolerance=0.05, n_resamples=100
        )
    return request.param, ms, fr


def _inside(x, lo, hi) -> bool:
    return lo - 1e-9 <= x <= hi + 1e-9


def test_every_fairness_rows_estimates_lie_inside_their_intervals(audited):
    name, ms, fr = audited
    overall = fr.results.overall
    tightened = [r for r in fr.judged if "(fitted within" in r or r.endswith("(fitted exactly)")]
    assert tightened, f"{name}: the review's rows are rules fitted tighter"
    for rule, j in fr.judged.items():
        if rule not in overall.index:  # randomised: not among the rules table's rows
            continue
        row = overall.loc[rule]
        assert _inside(row["cost_per_case"], row["low"], row["high"]), (name, rule, row.to_dict())
        assert _inside(row["vs_baseline"], row["vs_low"], row["vs_high"]), (name, rule, row.to_dict())
        if math.isfinite(j.gap_high):
            assert _inside(j.gap, j.gap_low, j.gap_high), (name, rule, j.gap, j.gap_low, j.gap_high)
    summary = fr.summary.set_index("rule")
    for rule, s in summary.iterrows():
        if s["feasible"] and math.isfinite(s["spread_test_high"]):
            assert _inside(s["spread_test"], s["spread_test_low"], s["spread_test_high"]), (name, rule)


def test_a_rule_whose_cutoffs_flag_everyone_reads_as_flagging_everyone(audited):
    name, ms, fr = audited
    overall, summary = fr.results.overall, fr.summary.set_index("rule")
    trivial = summary.index[summary["trivially_equal"] == "everyone"]
    if name == "tiny":  # the review's row
        assert "fair: equal false positive rate (fitted exactly)" in trivial
    for rule in trivial:
        assert overall.loc[rule, "flagged_rate"] == pytest.approx(1.0)
        for col in ("cost_per_case", "low", "high", "vs_baseline", "vs_low", "vs_high"):
            assert overall.loc[rule, col] == pytest.approx(overall.loc[R.EVERYONE, col]), (rule, col)
        rates = fr.fairness.loc[fr.fairness["rule"] == rule, "rate_test"].to_numpy()
        assert np.allclose(rates, rates[0]), (rule, rates)  # the gap of 0 the table says, not 28.5% to 40.0%
        assert summary.loc[rule, "spread_test"] == 0.0


def test_cutoffs_that_flag_another_share_than_their_cross_fitted_numbers_are_named(audited):
    name, ms, fr = audited
    crossed, drifted = fairness.cross_fitted_drift(ms, fr.judged)
    assert crossed
    named = {rule: (on_all, cross) for rule, on_all, cross in drifted}
    if name == "signal":  # the review's: cutoffs flagging 49.9% of each group beside a cross-fitted 99.9%
        on_all, cross = named["fair: demographic parity (fitted exactly)"]
        assert on_all == pytest.approx(0.5, abs=0.01) and cross > 0.99
    for rule, (on_all, cross) in named.items():
        assert abs(cross - fr.results.overall.loc[rule, "flagged_rate"]) < 1e-9
        assert abs(on_all - cross) > fairness.FLAGGED_DRIFT


def test_a_policy_never_ships_a_rule_whose_numbers_are_another_rules():
    """A review: the policy for "fair: demographic parity (fitted within 0%)" on the tiny data held
    cutoffs flagging 40% of the rows beside the refitted rule's cost and verdict ("ship the model",
    cross-fitted 99.8% flagged), and said nothing. Its verdict is now at best "not clearly better",
    with the drift note as its caveat."""
    from costlib.answers.audit import build_audit
    from costlib.core import rules as R
    from costlib.present.policy import policy_dict

    d = _tiny()
    ms = sweep_model(d["outcome"].to_numpy(), d["score"].to_numpy(), groups=d["group"].to_numpy())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        audit = build_audit(ms, (1, 3), fairness_tolerance=0.05, n_resamples=100)
    assert audit.drifted
    for rule, *_ in audit.drifted:
        record = policy_dict(audit, rule)
        assert record["verdict"] != R.SHIP and not record["headline"].startswith("Ship")
        assert R.rule_words(rule) in record["caveat"] and "fitted without" in record["caveat"]
