"""Sign-off in Python (issue 41, item 5): `sign_policy` fills the review and seals the policy with
HMAC-SHA256 under COSTLIB_SIGNING_KEY; `policy_estimator` and `PolicyClassifier` use a policy
only when a reviewer approved it and its seal matches, and refuse, each with its own sentence,
one unsigned (allowed by allow_unsigned), signed while the key is unset (allowed by
allow_unsigned), rejected, altered after signing or sealed with another key (refused always)."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression

import costlib
from costlib import DataError
from costlib.handoff.estimator import PolicyClassifier
from costlib.present import signing
from costlib.present.policy import load_policy, policy_json

ROOT = Path(__file__).resolve().parents[2]
KEY = "k" * 24 + "test-key"  # 32 bytes
OTHER_KEY = "o" * 24 + "test-key"
WHEN = dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.UTC)


@pytest.fixture(scope="module")
def fitted():
    """(rows, a model fitted on them, the text of the policy an audit of its scores writes, with a
    cutoff per group)."""
    rng = np.random.default_rng(41)
    n = 1500
    g = rng.choice(["north", "south"], n)
    x = rng.normal(size=n) + 0.5 * (g == "south")
    y = (rng.random(n) < 1 / (1 + np.exp(-1.5 * x))).astype(int)
    model = LogisticRegression().fit(pd.DataFrame({"x": x}), y)
    rows = pd.DataFrame({"y": y, "p": model.predict_proba(pd.DataFrame({"x": x}))[:, 1], "g": g, "x": x})
    audit = costlib.audit(rows, label="y", score="p", group="g", c_fp=1, c_fn=3, n_resamples=20)
    return rows, model, policy_json(audit, "cost-optimal")


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv(signing.KEY_ENV, KEY)
    return KEY


def _signed(text: str, decision: str = "approve") -> str:
    return signing.sign_policy(text, reviewer="Ada <b>Lovelace</b>", decision=decision, note="checked", now=WHEN)


def _serve(policy, model, **kw):
    return costlib.policy_estimator(policy, model, group="g", **kw)


def _cases(rows):
    return rows[["x", "g"]]


def test_signing_fills_the_review_and_seals_every_field_but_the_seal(fitted, key):
    _, _, text = fitted
    signed = json.loads(_signed(text))
    assert signed["review"] == {
        "reviewer": "Ada <b>Lovelace</b>",
        "date": "2026-12-01T09:30:00+00:00",
        "decision": "approve",
        "note": "checked",
    }
    seal = signed.pop("seal")
    # the canonical form by hand: sorted keys, "," and ":" separators, non-ASCII escaped, no seal
    body = json.dumps(signed, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()
    assert seal == {
        "method": "HMAC-SHA256",
        "key_id": hmac.new(KEY.encode(), b"costlib policy signing key id", hashlib.sha256).hexdigest()[:16],
        "digest": hmac.new(KEY.encode(), body, hashlib.sha256).hexdigest(),
    }
    assert load_policy(_signed(text))["review"]["decision"] == "approve"  # the reader reads it back


def test_a_signed_policy_is_served_and_decides_as_the_unsigned_one(fitted, key, tmp_path):
    rows, model, text = fitted
    path = tmp_path / "signed.json"
    path.write_text(_signed(text), encoding="utf-8")
    for policy in (path, str(path), json.loads(path.read_text())):
        served = _serve(policy, model)
        assert served.policy.sign_off.state == signing.SIGNED
        want = costlib.apply_policy(json.loads(text), rows["p"], groups=rows["g"])
        assert (served.predict(_cases(rows)) == want.astype(int)).all()
    # indentation is not content: the same policy written on one line keeps its seal
    one_line = json.dumps(json.loads(path.read_text()))
    assert signing.sign_off(json.loads(one_line)).state == signing.SIGNED


def _tamper(policy: dict, what: str) -> dict:
    p = json.loads(json.dumps(policy))
    if what == "cutoff":
        p["thresholds"][0]["threshold"] = float(p["thresholds"][0]["threshold"]) + 0.01
    elif what == "price":
        p["prices"][0]["c_fn"] = p["prices"][0]["c_fn"] + 1
    elif what == "group name":
        old = p["thresholds"][0]["group"]
        for record in (*p["thresholds"], *p["prices"]):
            if record["group"] == old:
                record["group"] = "west"
    elif what == "review decision":
        p["review"]["decision"] = "approve" if p["review"]["decision"] == "reject" else "reject"
    return p


@pytest.mark.parametrize("what", ["cutoff", "price", "group name", "review decision"])
def test_a_policy_changed_after_signing_is_refused_even_when_unsigned_use_is_allowed(fitted, key, what):
    rows, model, text = fitted
    signed = json.loads(_signed(text, "reject" if what == "review decision" else "approve"))
    tampered = _tamper(signed, what)
    assert tampered != signed
    for allow in (False, True):
        with pytest.raises(DataError) as e:
            _serve(tampered, model, allow_unsigned=allow)
        assert 'was changed after "Ada <b>Lovelace</b>" signed it' in e.value.message
        assert "its seal does not match its content" in e.value.message


def test_a_policy_sealed_with_another_key_is_refused_and_says_so(fitted, key, monkeypatch):
    _, model, text = fitted
    signed = json.loads(_signed(text))
    monkeypatch.setenv(signing.KEY_ENV, OTHER_KEY)
    for allow in (False, True):
        with pytest.raises(DataError) as e:
            _serve(signed, model, allow_unsigned=allow)
        assert "was sealed with another key than the one in COSTLIB_SIGNING_KEY" in e.value.message


def test_a_rejected_policy_is_refused_whatever_allow_unsigned_says(fitted, key):
    _, model, text = fitted
    rejected = json.loads(_signed(text, "reject"))
    assert signing.sign_off(rejected).state == signing.REJECTED
    for allow in (False, True):
        with pytest.raises(DataError) as e:
            _serve(rejected, model, allow_unsigned=allow)
        assert 'was rejected by "Ada <b>Lovelace</b>" on "2026-12-01T09:30:00+00:00" (note: "checked")' in (
            e.value.message
        )


def test_an_unsigned_policy_is_refused_unless_allowed(fitted, monkeypatch):
    rows, model, text = fitted
    monkeypatch.delenv(signing.KEY_ENV, raising=False)
    unsigned = json.loads(text)
    with pytest.raises(DataError) as e:
        _serve(unsigned, model)
    assert e.value.message == signing.MSG_UNSIGNED.format(what="This policy", allow=signing.ALLOW)
    served = _serve(unsigned, model, allow_unsigned=True)
    assert served.policy.sign_off.state == signing.UNSIGNED
    assert "it is used because unsigned use was allowed" in served.policy.sign_off.sentence
    assert served.predict(_cases(rows)).shape == (len(rows),)
    with pytest.raises(DataError, match="is not signed"):  # the short form too: nobody signed it
        costlib.policy_estimator({"rule": "r", "cutoffs": {"everyone": 0.5}}, model)


def test_a_signed_policy_without_the_key_to_check_it_says_the_key_is_missing(fitted, key, monkeypatch):
    _, model, text = fitted
    signed = json.loads(_signed(text))
    monkeypatch.delenv(signing.KEY_ENV)
    with pytest.raises(DataError) as e:
        _serve(signed, model)
    assert "its seal cannot be checked: the environment variable COSTLIB_SIGNING_KEY is not set" in e.value.message
    assert _serve(signed, model, allow_unsigned=True).policy.sign_off.state == signing.UNCHECKED


def test_policy_classifier_checks_the_sign_off_at_fit_and_predict(fitted, key, tmp_path):
    rows, _, text = fitted
    path = tmp_path / "p.json"
    path.write_text(text, encoding="utf-8")
    X, y = _cases(rows), rows["y"]
    with pytest.raises(DataError, match="is not signed"):
        PolicyClassifier(LogisticRegression(), policy=path, group="g").fit(X, y)
    model = PolicyClassifier(LogisticRegression(), policy=path, group="g", allow_unsigned=True).fit(X, y)
    path.write_text(_signed(text), encoding="utf-8")
    signed = PolicyClassifier(LogisticRegression(), policy=path, group="g").fit(X, y)
    assert (signed.predict(X) == model.predict(X)).all()
    path.write_text(json.dumps(_tamper(json.loads(_signed(text)), "cutoff")), encoding="utf-8")
    with pytest.raises(DataError, match="its seal does not match"):
        signed.predict(X)  # altered on disk after it was fitted: refused when it decides


@pytest.mark.parametrize("value", ["", "short", "x" * 31])
def test_a_missing_or_short_key_is_refused_with_a_sentence(fitted, monkeypatch, value):
    _, _, text = fitted
    monkeypatch.setenv(signing.KEY_ENV, value)
    with pytest.raises(DataError) as e:
        _signed(text)
    if value:
        assert e.value.message == signing.MSG_SHORT_KEY.format(n=len(value))
    else:
        assert e.value.message == signing.MSG_NO_KEY_TO_SIGN


@pytest.mark.parametrize(
    "kw",
    [
        {"reviewer": ""},
        {"reviewer": "Ann\x1b[31m"},
        {"reviewer": "A" * 501},
        {"reviewer": "Ann\nBob"},
        {"note": "n" * 501},
        {"decision": "approved"},
    ],
)
def test_a_reviewer_decision_or_note_that_is_not_one_is_refused(fitted, key, kw):
    _, _, text = fitted
    args = {"reviewer": "Ann", "decision": "approve", "note": None, **kw}
    with pytest.raises(DataError) as e:
        signing.sign_policy(text, **args)
    flag = "--decision" if "decision" in kw else "--" + next(iter(kw))
    assert e.value.message.startswith(flag)


def test_an_altered_policy_is_not_signed_again(fitted, key):
    _, _, text = fitted
    altered = json.dumps(_tamper(json.loads(_signed(text)), "price"))
    with pytest.raises(DataError) as e:
        signing.sign_policy(altered, reviewer="Bob", decision="approve")
    assert "its seal does not match its content" in e.value.message and e.value.message.endswith("Nothing was signed.")
    again = json.loads(signing.sign_policy(_signed(text, "reject"), reviewer="Bob", decision="approve"))
    assert again["review"]["reviewer"] == "Bob" and signing.sign_off(again).state == signing.SIGNED
