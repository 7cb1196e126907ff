"""A randomised fairness rule as a policy file (issue 41, item 1): the audit writes its bands
(schema 8), the reader checks them, the serving side draws them by case id, and the verdict is
the one ship rule's (no interval: never "ship the model")."""

from __future__ import annotations

import json

import numpy as np
import pytest

from costlib.answers.audit import build_audit
from costlib.binary.decision import sweep_model
from costlib.core.errors import DataError
from costlib.handoff.policy import apply_policy
from costlib.present import policy as P
from tests.binary.test_fairness_judged import simulate


@pytest.fixture(scope="module")
def audit():
    rng = np.random.default_rng(100)
    y, s, g = simulate(20_000, rng)
    split = rng.random(y.size) < 0.6
    ms = sweep_model(y, s, g, fit=split, judge=~split)
    return build_audit(ms, (1, 3), criteria=("demographic parity",), fairness_tolerance=0.05, n_resamples=100), (s, g)


def test_the_audit_writes_a_randomised_rule_with_its_bands_and_the_reader_keeps_them(audit):
    record, (s, g) = audit
    [rule] = P.randomised_rules(record)
    text = P.policy_json(record, rule)
    raw = json.loads(text)
    assert raw["schema_version"] == P.POLICY_SCHEMA_VERSION == 8
    long = record.fairness[record.fairness["rule"] == rule].set_index("group")
    bands = {r["group"]: r for r in raw["randomised"]}
    assert bands and all(0 < r["p"] < 1 for r in bands.values())
    for grp, r in bands.items():
        assert r["low"] == pytest.approx(long.loc[grp, "low"]) and r["p"] == pytest.approx(long.loc[grp, "p"])
    assert raw["verdict"] != "ship the model" and raw["headline"].startswith(raw["verdict"].capitalize()[:10])
    loaded = P.load_policy(text)
    assert set(loaded["randomised"]) == set(bands)
    # served: a band's cases are flagged at its probability, each by its id, the same on every call
    ids = [f"case-{i}" for i in range(s.size)]
    flags = apply_policy(raw, s, groups=g, case_ids=ids)
    assert (flags == apply_policy(raw, s, groups=g, case_ids=ids)).all()
    for grp, r in bands.items():
        high = dict(loaded["thresholds"])[grp]
        band = (g == grp) & (s >= r["low"]) & (s < high)
        if band.sum() > 500:
            assert flags[band].mean() == pytest.approx(r["p"], abs=0.06)
        assert flags[(g == grp) & (s >= high)].all() and not flags[(g == grp) & (s < r["low"])].any()


def test_a_band_read_back_with_a_probability_out_of_range_is_refused(audit):
    record, _ = audit
    [rule] = P.randomised_rules(record)
    raw = json.loads(P.policy_json(record, rule))
    raw["randomised"][0]["p"] = 1.5
    with pytest.raises(DataError, match="randomised"):
        P.load_policy(json.dumps(raw))
    raw["randomised"][0].update(p=0.5, low=2.0)  # a band above its cutoff
    with pytest.raises(DataError, match="randomised"):
        P.load_policy(json.dumps(raw))


def test_the_command_line_writes_and_applies_a_randomised_policy(audit, tmp_path, capsys, monkeypatch):
    """`costlib audit --rule "<the randomised rule>" --policy` then `costlib apply --id`."""
    import pandas as pd

    from costlib.__main__ import main

    monkeypatch.delenv("COSTLIB_SIGNING_KEY", raising=False)
    record, _ = audit
    [rule] = P.randomised_rules(record)
    rng = np.random.default_rng(100)
    y, s, g = simulate(20_000, rng)
    split = rng.random(y.size) < 0.6
    data = tmp_path / "cases.csv"
    frame = pd.DataFrame({"id": [f"c{i}" for i in range(y.size)], "y": y.astype(int), "s": s, "g": g})
    frame.assign(split=np.where(split, "train", "test")).to_csv(data, index=False)
    policy = tmp_path / "p.json"
    args = ["audit", str(data), "--label", "y", "--score", "s", "--group", "g", "--split", "split"]
    args += ["--c-fp", "1", "--c-fn", "3", "--resamples", "100", "--rule", rule, "--policy", str(policy)]
    code, _, err = main(args), *capsys.readouterr()
    assert code == 0, err
    assert json.loads(policy.read_text())["randomised"]
    out = tmp_path / "d.csv"
    base = ["apply", str(policy), str(data), "--out", str(out), "--allow-unsigned"]
    assert main([*base, "--id", "id"]) == 0
    decided = pd.read_csv(out)
    want = apply_policy(json.loads(policy.read_text()), frame["s"], groups=frame["g"], case_ids=frame["id"])
    assert (decided["flagged"].to_numpy() == want).all()
    capsys.readouterr()
    assert main(base) == 2 and "--id COL" in capsys.readouterr().err  # no ids: refused, nothing drawn
