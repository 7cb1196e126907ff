"""The Watch page's policies carry their sign-off (issue 41, item 5): the page watches (it does not
serve), so it reads an unsigned policy, or a signed one it has no key to check, and says so in a
sentence; a rejected or altered one, or one sealed with another key, is refused as ``costlib
watch`` refuses it. The built-in sample's policy is a made-up one nobody signed: its command says
``--allow-unsigned``."""

from __future__ import annotations

import json

import pytest

from costlib import DataError
from costlib.answers import watch as answers
from costlib.answers.watch import shipped_policy_json
from costlib.present import signing
from costlib.watch.sample import COMMAND

KEY = "w" * 24 + "page-key"


def test_the_built_in_sample_says_nobody_signed_it_and_its_command_says_so_too():
    policy, _ = answers.sample_inputs()
    assert policy["sign_off"]["state"] == signing.UNSIGNED
    assert policy["sign_off"]["sentence"].startswith("The built-in sample's policy is not signed: no reviewer has")
    assert COMMAND.split()[3] == "watch" and "--allow-unsigned" in COMMAND.split()


def test_an_uploaded_policy_is_read_with_its_sign_off(monkeypatch):
    text = shipped_policy_json().encode()
    monkeypatch.delenv(signing.KEY_ENV, raising=False)
    unsigned = answers.read_watched_policy(text, name="mine.json")
    assert unsigned["sign_off"]["state"] == signing.UNSIGNED
    assert unsigned["sign_off"]["sentence"].startswith('The policy "mine.json" is not signed')
    with pytest.raises(DataError, match="is not signed"):
        answers.read_watched_policy(text, allow_unsigned=False)
    monkeypatch.setenv(signing.KEY_ENV, KEY)
    signed = signing.sign_policy(text, reviewer="Ann", decision="approve").encode()
    got = answers.read_watched_policy(signed, name="mine.json")
    assert got["sign_off"]["state"] == signing.SIGNED and got["sign_off"]["reviewer"] == "Ann"
    assert got["thresholds"] == unsigned["thresholds"]  # the same policy, read alike
    monkeypatch.delenv(signing.KEY_ENV)
    assert answers.read_watched_policy(signed)["sign_off"]["state"] == signing.UNCHECKED  # no key on this server


def test_a_rejected_or_altered_policy_is_refused_on_the_page(monkeypatch):
    monkeypatch.setenv(signing.KEY_ENV, KEY)
    text = shipped_policy_json().encode()
    rejected = signing.sign_policy(text, reviewer="Ann", decision="reject")
    with pytest.raises(DataError, match='was rejected by "Ann"'):
        answers.read_watched_policy(rejected.encode())
    altered = json.loads(signing.sign_policy(text, reviewer="Ann", decision="approve"))
    altered["prices"][0]["c_fn"] = 30.0
    with pytest.raises(DataError, match="its seal does not match its content"):
        answers.read_watched_policy(json.dumps(altered).encode())


def test_the_page_says_each_sign_off_in_its_own_words(monkeypatch):
    policy, _ = answers.sample_inputs()
    assert answers.sign_off_note(policy) == ("caption", answers.UNSIGNED_ON_PAGE)
    monkeypatch.setenv(signing.KEY_ENV, KEY)
    text = signing.sign_policy(shipped_policy_json().encode(), reviewer="Ann", decision="approve").encode()
    signed = answers.read_watched_policy(text)
    kind, sentence = answers.sign_off_note(signed)
    assert kind == "success" and sentence == signed["sign_off"]["sentence"] and "Ann" in sentence
    monkeypatch.delenv(signing.KEY_ENV)
    unchecked = answers.read_watched_policy(text)
    assert answers.sign_off_note(unchecked) == ("info", unchecked["sign_off"]["sentence"])
