"""Randomised cutoffs (issue 41, item 1): fitted to hit a rate no deterministic cutoff reaches,
drawn reproducibly from case ids, refused without them, and kept through a policy file."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from costlib import DataError
from costlib.__main__ import main
from costlib.binary.fair_random import randomised_cutoffs
from costlib.binary.fairness import fair_cutoffs
from costlib.core.prices import prices_for
from costlib.core.sweep import grouped_sweep
from costlib.handoff import randomised as RZ
from costlib.handoff.policy import apply_policy
from costlib.handoff.serving import policy_estimator

POLICY = {
    "rule": "fair: demographic parity",
    "cutoffs": {"a": 0.6, "b": 0.5},
    "randomised": {"a": {"low": 0.4, "p": 0.3}},
}


def cases(n: int = 20_000):
    rng = np.random.default_rng(0)
    g = rng.choice(["a", "b", "c"], n)
    y = (rng.random(n) < np.where(g == "a", 0.3, 0.5)).astype(int)
    s = np.round(np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1), 2)
    return y, s, g


def test_randomised_cutoffs_hit_a_common_rate_that_no_deterministic_cutoff_reaches():
    y, s, g = cases(3000)
    gs = grouped_sweep(y, s, g)
    prices = prices_for(gs.groups, (1, 2))
    fit = randomised_cutoffs(gs, prices, criterion="demographic parity", tolerance=0.0)
    rates = np.array(list(fit.rates.values()))
    np.testing.assert_allclose(rates, rates[0], atol=1e-12)
    assert 0 < rates[0] < 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        det = fair_cutoffs(gs, prices, criterion="demographic parity", tolerance=0.0)
    assert fit.cost < det.cost  # deterministic: only trivial equality (everyone or nobody) at tolerance 0
    # in expectation on the rows: apply the policy to every row with ids, many times over the band
    record = fit.policy_record()
    flags = apply_policy(
        {"rule": "fair", **record},
        s,
        groups=g,
        case_ids=[f"case {i}" for i in s.size * [0]] and [f"case {i}" for i in range(s.size)],
    )
    for grp, rate in fit.rates.items():
        share = flags[g == grp].mean()
        n = int((g == grp).sum())
        assert abs(share - rate) < 4 * np.sqrt(rate * (1 - rate) / n), (grp, share, rate)


def test_a_band_is_flagged_at_its_probability_and_each_id_decides_alike_anywhere():
    n = 20_000
    s = np.full(n, 0.5)
    g = np.array(["a"] * (n // 2) + ["b"] * (n // 2))
    ids = [f"c{i}" for i in range(n)]
    flags = apply_policy(POLICY, s, groups=g, case_ids=ids)
    assert abs(flags[: n // 2].mean() - 0.3) < 4 * np.sqrt(0.3 * 0.7 / (n // 2))
    assert flags[n // 2 :].all()  # b: at or above its cutoff, no band
    back = apply_policy(POLICY, s[::-1], groups=g[::-1], case_ids=ids[::-1])[::-1]
    np.testing.assert_array_equal(back, flags)  # order and batch do not matter
    one = apply_policy(POLICY, s[:5], groups=g[:5], case_ids=pd.Series(ids[:5]))
    np.testing.assert_array_equal(one, flags[:5])
    # the draw is a keyed BLAKE2b of the id's text, not Python's salted hash(): pinned
    assert RZ.draws(["c0"], 1)[0] == pytest.approx(
        int.from_bytes(__import__("hashlib").blake2b(b"c0", digest_size=8, key=RZ.DRAW_KEY).digest(), "big") / 2**64
    )
    assert RZ.draws([7], 1)[0] == RZ.draws([7.0], 1)[0] == RZ.draws(["7"], 1)[0]  # read as the loader reads a cell


def test_a_randomised_policy_is_refused_without_case_ids_or_with_bad_ones():
    s, g = np.array([0.5, 0.7]), np.array(["a", "b"])
    with pytest.raises(DataError, match="give each case's id"):
        apply_policy(POLICY, s, groups=g)
    with pytest.raises(DataError, match="1 case ids"):
        apply_policy(POLICY, s, groups=g, case_ids=["x"])
    with pytest.raises(DataError, match="is missing"):
        apply_policy(POLICY, s, groups=g, case_ids=["x", None])
    with pytest.raises(DataError, match="given to cases 1 and 2"):
        apply_policy(POLICY, s, groups=g, case_ids=["x", "x"])
    with pytest.raises(DataError, match="no cutoff in the policy"):
        apply_policy({**POLICY, "randomised": {"z": {"low": 0.1, "p": 0.5}}}, s, groups=g, case_ids=["x", "y"])
    with pytest.raises(DataError, match="a probability"):
        apply_policy({**POLICY, "randomised": {"a": {"low": 0.1, "p": 1.5}}}, s, groups=g, case_ids=["x", "y"])


def test_a_randomised_policy_round_trips_through_its_file_and_the_cli(tmp_path, capsys):
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(POLICY))
    n = 400
    rng = np.random.default_rng(2)
    df = pd.DataFrame(
        {"id": [f"k{i}" for i in range(n)], "score": rng.random(n).round(2), "group": rng.choice(["a", "b"], n)}
    )
    df.to_csv(tmp_path / "cases.csv", index=False)
    want = apply_policy(POLICY, df["score"], groups=df["group"], case_ids=df["id"])
    assert want.tolist() == apply_policy(str(path), df["score"], groups=df["group"], case_ids=df["id"]).tolist()
    out = tmp_path / "d.csv"
    base = ["apply", "--allow-unsigned", str(path), str(tmp_path / "cases.csv"), "--score", "score", "--group", "group"]
    assert main([*base, "--out", str(out)]) == 2
    assert "give each case's id" in capsys.readouterr().err
    assert main([*base, "--id", "id", "--out", str(out)]) == 0
    got = pd.read_csv(out)
    assert got["id"].tolist() == df["id"].tolist()
    assert (got["flagged"].astype(str).str.lower() == "true").tolist() == want.tolist()
    with pytest.raises(DataError, match="randomised cutoffs"):
        policy_estimator(POLICY, object(), group="group", allow_unsigned=True)


def test_a_signed_policy_file_keeps_its_randomised_cutoffs_and_refuses_them_altered(tmp_path, monkeypatch):
    """A policy file (audit --policy's) with a "randomised" block: read back with its bands,
    sealed with them, and refused once a band's probability is changed after signing."""
    import costlib
    from costlib.handoff.policy import signed_cutoffs
    from costlib.present import signing
    from costlib.present.policy import policy_json

    y, s, g = cases(2000)
    rows = pd.DataFrame({"y": y, "p": s, "g": g})
    audit = costlib.audit(rows, label="y", score="p", group="g", c_fp=1, c_fn=2, n_resamples=0)
    policy = json.loads(policy_json(audit, "cost-optimal"))
    cut = {r["group"]: r["threshold"] for r in policy["thresholds"]}
    policy["randomised"] = [{"group": "a", "low": cut["a"] - 0.2, "p": 0.25}]
    monkeypatch.setenv(signing.KEY_ENV, "k" * 32)
    text = signing.sign_policy(json.dumps(policy), reviewer="Ada", decision="approve")
    path = tmp_path / "policy.json"
    path.write_text(text)
    p = signed_cutoffs(str(path))
    assert p.randomised == {"a": (pytest.approx(cut["a"] - 0.2), 0.25)}
    ids = [f"r{i}" for i in range(len(rows))]
    flags = apply_policy(p, rows["p"], groups=rows["g"], case_ids=ids)
    band = (rows["g"] == "a") & (rows["p"] >= cut["a"] - 0.2) & (rows["p"] < cut["a"])
    assert 0.1 < flags[band.to_numpy()].mean() < 0.4  # a quarter of the band, drawn by id
    np.testing.assert_array_equal(flags[~band.to_numpy()], (rows["p"] >= rows["g"].map(cut)).to_numpy()[~band])
    altered = json.loads(text)
    altered["randomised"][0]["p"] = 0.9
    path.write_text(json.dumps(altered))
    with pytest.raises(DataError, match="altered|changed"):
        signed_cutoffs(str(path))
