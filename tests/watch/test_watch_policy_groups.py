"""Watch meets a policy's groups by the hand-off's one rule (issue 45): groups matched as the
loader reads a cell (`present.policy.group_name`: 1, 1.0 and "1" are one group, True is
"True"), one cutoff for cases without groups only from a policy for everyone
(`handoff.policy.PolicyCutoffs.one_cutoff`), and sentences that name at most five groups."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib import DataError


def _policy(thresholds: dict, prices: dict | None = None, **more) -> dict:
    """A policy as `present.policy.load_policy` returns one (groups keyed by their JSON value)."""
    return {
        "thresholds": thresholds,
        "prices": prices or dict.fromkeys(thresholds, (1.0, 3.0)),
        "rule": "cost-optimal",
        "unit": "$",
        "volume": 1000,
        "base_rate": 0.3,
        **more,
    }


def _two_groups(names: tuple) -> dict:
    """A policy of the groups `names[0]` (cutoff 0.4, prices 1 and 3) and `names[1]` (0.5; 2 and 5)."""
    first, second = names
    return _policy({first: 0.4, second: 0.5}, {first: (1, 3), second: (2, 5)})


def _cases(values: tuple, seed: int = 3, n: int = 400) -> pd.DataFrame:
    """One month of cases with outcomes, each in the group `values[0]` or `values[1]` (any type)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    p = np.round(np.clip(rng.normal(0.25 + 0.4 * y, 0.2), 0, 1), 3)
    g = pd.Series([values[int(k)] for k in rng.random(n) < 0.4], dtype=object)
    if all(isinstance(v, float) for v in values):
        g = g.astype(float)
    return pd.DataFrame({"t": "2026-05-14", "p": p, "y": y, "g": g})


def _report(groups_of_policy: tuple, groups_of_cases: tuple):
    from costlib.watch.report import watch_report

    policy = _two_groups(groups_of_policy)
    out = watch_report(
        policy, _cases(groups_of_cases), name="f", time="t", score="p", label="y", group="g", n_resamples=0
    )
    return out["policy"]["cutoffs"], out["periods"]


def test_the_same_cases_give_the_same_report_whatever_the_type_of_their_groups():
    """The same two groups written as a float (1.0, as JSON or pandas writes a float column), an
    int or text, in the policy and in the cases, in every pairing; True and False as text too."""
    spellings = [(1.0, 2.0), (1, 2), ("1", "2")]
    text = _report(("1", "2"), ("1", "2"))
    for of_policy in spellings:
        for of_cases in spellings:
            assert _report(of_policy, of_cases) == text, (of_policy, of_cases)
    truth = _report(("True", "False"), ("True", "False"))
    for of_policy in ((True, False), ("True", "False")):
        for of_cases in ((True, False), ("True", "False")):
            assert _report(of_policy, of_cases) == truth, (of_policy, of_cases)


def test_the_refit_meets_float_groups_as_the_report_does():
    """The refit's judgement of the shipped policy reads the cases' groups as the report does:
    a float group column (1.0) meets the policy's group 1.0 and "1" alike."""
    from costlib.answers.watch import refit_inputs
    from costlib.watch.report import watch_report

    columns = {"time": "t", "score": "p", "label": "y", "group": "g"}

    def shipped(groups_of_policy):
        policy = _two_groups(groups_of_policy)
        df = _cases((1.0, 2.0))
        report = watch_report(policy, df, name="f", n_resamples=0, **columns)
        out = refit_inputs(policy, df, name="f", columns=columns, report=report)
        return out.shipped, out.judged.shipped

    assert shipped((1.0, 2.0)) == shipped(("1", "2"))
    assert shipped((1.0, 2.0))[0] == {"1": 0.4, "2": 0.5}


def test_a_policy_of_ten_thousand_groups_asks_for_the_group_column_in_a_short_sentence():
    from costlib.watch.report import watch_report

    df = _cases(("a", "b")).drop(columns="g")
    many = _policy({f"group number {i}": 0.3 + (i % 7) / 100 for i in range(10_000)})
    with pytest.raises(DataError, match="give each case's group") as err:
        watch_report(many, df, name="f", time="t", score="p", label="y", n_resamples=0)
    assert len(str(err.value)) < 2_000 and "9,995 more" in str(err.value)


def test_a_policy_for_everyone_at_prices_per_group_asks_for_the_group_column_in_a_short_sentence():
    from costlib.watch.report import watch_report

    df = _cases(("a", "b")).drop(columns="g")
    groups = [f"group number {i}" for i in range(10_000)]
    many = _policy(dict.fromkeys(groups, 0.3), {g: (1.0, 2.0 + i % 3) for i, g in enumerate(groups)}, pooled_cutoff=0.3)
    with pytest.raises(DataError, match="prices per group") as err:
        watch_report(many, df, name="f", time="t", score="p", label="y", n_resamples=0)
    assert len(str(err.value)) < 2_000 and "9,995 more" in str(err.value)
    one_price = _policy(dict.fromkeys(groups, 0.3), pooled_cutoff=0.3)
    (row,) = watch_report(one_price, df, name="f", time="t", score="p", label="y", n_resamples=0)["periods"]
    assert row["flagged_share"] == pytest.approx(float(np.mean(df["p"] >= 0.3)))
