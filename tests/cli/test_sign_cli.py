"""``costlib sign`` and the refusals of ``apply`` and ``watch`` (issue 41, item 5): sign, tamper
and refuse round trips on the command line, each refusal its own sentence and exit 2; and the
audit's record of the model (``--model-id``, ``--model-file``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from costlib.__main__ import main
from costlib.present import signing

ROOT = Path(__file__).resolve().parents[2]
KEY = "s" * 24 + "cli-key!"  # 32 bytes


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """(folder, the cases, an unsigned policy of them, its text)."""
    folder = tmp_path_factory.mktemp("sign")
    rng = np.random.default_rng(7)
    n = 400
    p = rng.uniform(0, 1, n).round(3)
    y = (rng.uniform(0, 1, n) < p).astype(int)
    when = pd.Timestamp("2026-01-01") + pd.to_timedelta(rng.integers(0, 90, n), unit="D")
    pd.DataFrame({"y": y, "p": p, "g": rng.choice(["a", "b"], n), "when": when}).to_csv(
        folder / "cases.csv", index=False
    )
    policy = folder / "policy.json"
    args = ["audit", str(folder / "cases.csv"), "--label", "y", "--score", "p", "--group", "g", "--c-fp", "1"]
    assert (
        main([*args, "--c-fn", "3", "--resamples", "10", "--json", "--rule", "cost-optimal", "--policy", str(policy)])
        == 0
    )
    return folder, folder / "cases.csv", policy, policy.read_text(encoding="utf-8")


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv(signing.KEY_ENV, KEY)


def _sign(path, *extra, decision="approve") -> int:
    return main(["sign", str(path), "--reviewer", "Ann Reviewer", "--decision", decision, *extra])


def _apply(policy, cases, tmp_path, *extra) -> int:
    return main(["apply", str(policy), str(cases), "--out", str(tmp_path / "d.csv"), *extra])


def _watch(policy, cases, *extra) -> int:
    return main(["watch", str(policy), str(cases), "--time", "when", "--score", "p", "--label", "y", "--group", "g",
                 "--resamples", "20", *extra])  # fmt: skip


def _copy(made, tmp_path, name="p.json") -> Path:
    path = tmp_path / name
    path.write_text(made[3], encoding="utf-8")
    return path


def test_sign_then_apply_and_watch_use_it(made, key, tmp_path, capsys):
    _, cases, _, _ = made
    path = _copy(made, tmp_path)
    assert _sign(path, "--note", "fine <script>") == 0
    out = capsys.readouterr().out
    assert out.startswith('The policy "p.json" was approved by "Ann Reviewer" on ') and "seal matches" in out
    assert "Signed policy written to" in out and "(it replaced the file that was there)" in out
    signed = json.loads(path.read_text(encoding="utf-8"))
    assert signed["review"]["decision"] == "approve" and signed["review"]["note"] == "fine <script>"
    assert signed["seal"]["method"] == "HMAC-SHA256"
    assert _apply(path, cases, tmp_path, "--json") == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["policy"]["sign_off"]["state"] == "signed"
    assert summary["policy"]["sign_off"]["reviewer"] == "Ann Reviewer"
    assert _watch(path, cases, "--json") in (0, 1)
    captured = capsys.readouterr()
    assert json.loads(captured.out)["policy"]["sign_off"]["state"] == "signed"
    assert "signed" not in captured.err and "allowed" not in captured.err  # no sign-off note for a signed policy


def test_sign_out_leaves_the_policy_as_it_was(made, key, tmp_path, capsys):
    path = _copy(made, tmp_path)
    assert _sign(path, "--out", str(tmp_path / "signed.json")) == 0
    assert path.read_text(encoding="utf-8") == made[3]
    assert "seal" in json.loads((tmp_path / "signed.json").read_text(encoding="utf-8"))
    assert _sign(path, "--out", str(path)) == 2  # --out over its own input: refused
    assert "--out" in capsys.readouterr().err


def _edit(path: Path, what: str) -> None:
    p = json.loads(path.read_text(encoding="utf-8"))
    if what == "cutoff":
        p["thresholds"][0]["threshold"] = float(p["thresholds"][0]["threshold"]) + 0.001
    elif what == "price":
        p["prices"][1]["c_fp"] = 2.0
    elif what == "group name":
        for record in (*p["thresholds"], *p["prices"]):
            record["group"] = {"a": "A", "b": "b"}[record["group"]]
    elif what == "review decision":
        p["review"]["decision"] = "approve"
    path.write_text(json.dumps(p, indent=2), encoding="utf-8")


@pytest.mark.parametrize("what", ["cutoff", "price", "group name", "review decision"])
def test_a_policy_edited_after_signing_is_refused_by_apply_and_watch_even_with_allow_unsigned(
    made, key, tmp_path, capsys, what
):
    _, cases, _, _ = made
    path = _copy(made, tmp_path)
    assert _sign(path, decision="reject" if what == "review decision" else "approve") == 0
    _edit(path, what)
    capsys.readouterr()
    for extra in ((), ("--allow-unsigned",)):
        assert _apply(path, cases, tmp_path, *extra) == 2
        assert _watch(path, cases, *extra) == 2
        err = capsys.readouterr().err
        assert err.count('The policy "p.json" was changed after "Ann Reviewer" signed it on ') == 2, err
        assert not (tmp_path / "d.csv").exists()


def test_a_rejected_policy_is_refused_by_apply_and_watch(made, key, tmp_path, capsys):
    _, cases, _, _ = made
    path = _copy(made, tmp_path)
    assert _sign(path, "--note", "gap too wide", decision="reject") == 0
    assert "was rejected by" in capsys.readouterr().out
    for extra in ((), ("--allow-unsigned",)):
        assert _apply(path, cases, tmp_path, *extra) == 2
        assert _watch(path, cases, *extra) == 2
        err = capsys.readouterr().err
        assert err.count('The policy "p.json" was rejected by "Ann Reviewer" on ') == 2
        assert '(note: "gap too wide")' in err


def test_the_wrong_key_and_a_missing_key_are_named(made, key, tmp_path, capsys, monkeypatch):
    _, cases, _, _ = made
    path = _copy(made, tmp_path)
    assert _sign(path) == 0
    monkeypatch.setenv(signing.KEY_ENV, "w" * 40)
    assert _apply(path, cases, tmp_path, "--allow-unsigned") == 2
    assert "was sealed with another key than the one in COSTLIB_SIGNING_KEY" in capsys.readouterr().err
    monkeypatch.delenv(signing.KEY_ENV)
    assert _apply(path, cases, tmp_path) == 2
    assert "the environment variable COSTLIB_SIGNING_KEY is not set" in capsys.readouterr().err
    assert _apply(path, cases, tmp_path, "--allow-unsigned") == 0  # unchecked, knowingly
    assert "its seal was not checked (COSTLIB_SIGNING_KEY is not set)" in capsys.readouterr().err
    assert _sign(path) == 2  # signing needs the key
    assert capsys.readouterr().err.strip() == signing.MSG_NO_KEY_TO_SIGN
    monkeypatch.setenv(signing.KEY_ENV, "too short")
    assert _sign(path) == 2
    assert capsys.readouterr().err.strip() == signing.MSG_SHORT_KEY.format(n=9)


def test_an_unsigned_policy_needs_allow_unsigned(made, tmp_path, capsys, monkeypatch):
    _, cases, policy, _ = made
    monkeypatch.delenv(signing.KEY_ENV, raising=False)
    assert _apply(policy, cases, tmp_path) == 2
    assert _watch(policy, cases) == 2
    err = capsys.readouterr().err
    assert err.count('The policy "policy.json" is not signed: no reviewer has signed off on it.') == 2
    assert _apply(policy, cases, tmp_path, "--allow-unsigned") == 0
    assert "it is used because unsigned use was allowed" in capsys.readouterr().err


def test_the_audit_records_the_model_by_its_identity_and_its_file_hash(made, tmp_path, capsys):
    _, cases, _, _ = made
    model = tmp_path / "model.pkl"
    model.write_bytes(b"\x80\x04 not a pickle: it is hashed, never loaded" * 1000)
    hostile = '<img src=x onerror=alert(1)> **v3** "quoted"'
    policy = tmp_path / "p.json"
    args = ["audit", str(cases), "--label", "y", "--score", "p", "--c-fp", "1", "--c-fn", "3", "--resamples", "10"]
    args += ["--model-id", hostile, "--model-file", str(model), "--policy", str(policy)]
    assert main(args) == 0
    out = capsys.readouterr().out
    want = {"id": hostile, "file": "model.pkl", "sha256": hashlib.sha256(model.read_bytes()).hexdigest()}
    written = json.loads(policy.read_text(encoding="utf-8"))
    assert written["model_identity"] == want
    assert list(written).index("model_identity") == list(written).index("model") + 1
    assert f'Model: "<img src=x onerror=alert(1)> **v3** \'quoted\'"; file "model.pkl", sha256 {want["sha256"]}.' in (
        out.splitlines()
    )
    assert main([*args[:-2], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["model_identity"] == want


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--model-id", "x" * 501], "--model-id must name the model in 1 to 500 characters"),
        (["--model-id", "v3\n\x1b[2J"], "--model-id must name the model in 1 to 500 characters"),
        (["--model-id", "   "], "--model-id must name the model"),
        (["--model-file", "no-such-model.pkl"], "is not a file that can be read (there is no such file)"),
    ],
)
def test_a_model_identity_that_is_not_one_is_refused_before_the_audit(made, tmp_path, capsys, extra, says):
    _, cases, _, _ = made
    args = ["audit", str(cases), "--label", "y", "--score", "p", "--c-fp", "1", "--c-fn", "3", "--resamples", "10"]
    assert main([*args, *extra, "--policy", str(tmp_path / "p.json")]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err
    assert not (tmp_path / "p.json").exists()
    if "x" * 501 in extra:
        assert "got 501 characters" in err
