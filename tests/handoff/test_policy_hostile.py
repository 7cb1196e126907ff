"""Hostile policies and hostile groups (issue 45): one matching rule for groups on every path
(the loader's `canon`), every mapping checked as a file is, one cutoff for cases without groups
only from a policy that says it is for everyone, one bound for numbers and names whichever way
a policy comes in or goes out, and sentences that list a few groups, shortened."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression

import costlib
from costlib import DataError
from costlib.__main__ import main
from costlib.handoff.policy import decide, read_policy, unseen_groups
from costlib.present.policy import load_policy, policy_json
from costlib.present.policy_fields import MAX_TEXT
from costlib.present.policy_restore import policy_price_settings


def _rows(kind: str, n: int = 3000, seed: int = 11) -> pd.DataFrame:
    """Rows with two groups whose cutoffs differ from the pooled one: `kind` "int" (0/1) or
    "bool" (True/False) group cells, and a feature the model reads."""
    rng = np.random.default_rng(seed)
    g = rng.integers(0, 2, n)
    x = rng.normal(size=n) + 0.8 * g
    s = 1 / (1 + np.exp(-x))
    y = (rng.random(n) < np.clip(s * (0.6 + 0.5 * g), 0, 1)).astype(int)
    return pd.DataFrame({"y": y, "s": s, "x": x, "g": g.astype(bool) if kind == "bool" else g})


@pytest.fixture(scope="module", params=["int", "bool"])
def written(request, tmp_path_factory):
    """(rows, path of the policy the loader and audit wrote for them)."""
    folder = tmp_path_factory.mktemp(request.param)
    rows = _rows(request.param)
    rows.to_csv(folder / "rows.csv", index=False)
    path = folder / "policy.json"
    args = ["audit", str(folder / "rows.csv"), "--label", "y", "--score", "s", "--group", "g", "--c-fp", "1"]
    assert main([*args, "--c-fn", "4", "--resamples", "20", "--rule", "cost-optimal", "--policy", str(path)]) == 0
    return rows, path


def _variants(g: pd.Series) -> dict[str, pd.Series]:
    """The same groups as columns of every type a caller may hand over."""
    out = {
        "as read": g,
        "float": g.astype(float),
        "str": g.map(lambda v: str(int(v)) if not isinstance(v, (bool, np.bool_)) else str(v)),
        "categorical": g.astype("category"),
        "object": g.astype(object),
        "padded text": g.astype(object).map(lambda v: f" {int(v) if not isinstance(v, (bool, np.bool_)) else v} "),
    }
    if g.dtype == bool:
        out["float"] = g.astype(object)  # True stays True: the loader reads "True" cells as it
        out["nullable"] = g.astype("boolean")
    else:
        out["nullable"] = g.astype("Int64")
        out["mixed"] = g.astype(object).where(g.index % 2 == 0, g.astype(float))  # 1 and 1.0 in one column
    return out


def test_the_same_rows_flag_alike_whatever_the_type_of_their_group_column(written, tmp_path, capsys):
    rows, path = written
    policy = json.loads(path.read_text())
    keys = {r["group"] for r in policy["thresholds"]}
    assert keys in ({"0", "1"}, {"False", "True"})  # the loader's text for the groups
    assert policy["pooled_cutoff"] not in {r["threshold"] for r in policy["thresholds"]}  # a miss would show
    model = LogisticRegression().fit(rows[["x"]], rows["y"])
    scores = model.predict_proba(rows[["x"]])[:, 1]
    want = costlib.apply_policy(path, rows["s"], groups=rows["g"])
    est = costlib.policy_estimator(
        {**policy, "data": {**policy["data"], "score": None}}, model, group="g", allow_unsigned=True
    )
    for name, g in _variants(rows["g"]).items():
        assert (costlib.apply_policy(path, rows["s"], groups=g) == want).all(), name
        assert (decide(policy, rows["s"].to_numpy(), groups=g.to_numpy())[0] == want).all(), name
        assert unseen_groups(policy, g) == [], name
        served = costlib.apply_policy({**policy, "data": {**policy["data"], "score": None}}, scores, groups=g)
        assert (est.predict(rows[["x"]].assign(g=g)) == served.astype(int)).all(), name
        assert (est.predict(rows[["x"]].assign(g=rows["g"])) == served.astype(int)).all(), name
        cases = tmp_path / "cases.csv"
        rows.assign(g=g).to_csv(cases, index=False)  # 1.0 cells, " 1 " cells, True cells: read by the loader
        assert (
            main(["apply", "--allow-unsigned", str(path), str(cases), "--out", str(tmp_path / "d.csv"), "--json"]) == 0
        )
        assert json.loads(capsys.readouterr().out)["unseen_groups"] == [], name
        assert (pd.read_csv(tmp_path / "d.csv")["flagged"].to_numpy() == want).all(), name


def test_the_policys_own_groups_are_read_by_the_same_rule():
    loaded = {"rule": "r", "cutoffs": {1.0: 0.2, "True": 0.9, " b ": 0.5}, "pooled_cutoff": 0.7}
    p = read_policy(loaded)
    assert p.cutoffs == {"1": 0.2, "True": 0.9, "b": 0.5}
    got = costlib.apply_policy(loaded, [0.3] * 5, groups=[1, "1", np.float32(1.0), "b", "True"])
    assert got.tolist() == [True, True, True, False, False]
    with pytest.raises(DataError, match='lists the group "1" a second time'):
        read_policy({"rule": "r", "cutoffs": {1: 0.2, "1": 0.9}})
    with pytest.raises(DataError, match="a second time"):
        read_policy({"rule": "r", "cutoffs": {"a": 0.2, " a": 0.9}})
    file = json.loads(policy_json_for({"1.0": 0.2, "b": 0.4}))
    file["thresholds"][0]["group"] = 1.0  # JSON 1.0 and the text "1" are one group
    file["thresholds"][1]["group"] = "1"
    file["prices"][0]["group"], file["prices"][1]["group"] = 1.0, "1"
    with pytest.raises(DataError, match="a second time"):
        load_policy(json.dumps(file))
    saved = load_policy(policy_json_for({"1": 0.2, "b": 0.4}).replace('"group": "1"', '"group": 1.0'))
    assert policy_price_settings(saved, ["1", "b"])["c_fp_0"] == 1.0  # the Costs page matches the same way


def policy_json_for(cutoffs: dict) -> str:
    """A minimal policy file holding `cutoffs` (group: cutoff), priced 1 and 2 in every group."""
    return json.dumps(
        {
            "schema": "costlib.policy",
            "schema_version": 6,
            "rule": "cost-optimal",
            "prices": [{"group": g, "c_fp": 1.0, "c_fn": 2.0} for g in cutoffs],
            "thresholds": [{"group": g, "threshold": t} for g, t in cutoffs.items()],
        }
    )


# ---------------------------------------------------------------------------------------
# Every mapping is checked as a file is


@pytest.mark.parametrize(
    ("policy", "words"),
    [
        ({"rule": "r", "thresholds": {"a": 0.2, "b": 0.6}}, "not a costlib policy"),
        ({**load_policy(policy_json_for({"a": 0.2})), "data": "x"}, '"data" must be a record'),
        ({**load_policy(policy_json_for({"a": 0.2})), "pooled_cutoff": "abc"}, '"pooled_cutoff" must be a number'),
        ({**load_policy(policy_json_for({"a": 0.2})), "random_share": 7}, '"random_share" must be a share'),
        ({**load_policy(policy_json_for({"a": 0.2})), "thresholds": {"b": 0.3}}, 'the group "b" has a cutoff but no'),
    ],
)
def test_a_policy_given_as_a_mapping_is_checked_as_a_file_is(policy, words):
    with pytest.raises(DataError, match=words):
        costlib.apply_policy(policy, [0.5], groups=["a"])


# ---------------------------------------------------------------------------------------
# One cutoff for cases without groups only from a policy for everyone


def test_equal_cutoffs_without_a_pooled_one_are_not_a_cutoff_for_everyone(tmp_path):
    old = policy_json_for({"a": 0.3, "b": 0.3})  # schema 5: no pooled_cutoff
    (tmp_path / "old.json").write_text(old)
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    model = LogisticRegression().fit(X, [0, 0, 1, 1])
    short = {"rule": "r", "cutoffs": {"a": 0.3}}  # one group's cutoff is not everyone's
    for policy in (tmp_path / "old.json", json.loads(old), load_policy(old), short):
        with pytest.raises(DataError, match="a cutoff per group of"):
            costlib.apply_policy(policy, [0.5, 0.1])
        with pytest.raises(DataError, match="a cutoff per group of"):
            costlib.policy_estimator(policy, model, allow_unsigned=True)
    for policy in ({"rule": "r", "cutoffs": {"everyone": 0.3}}, {**json.loads(old), "pooled_cutoff": 0.3}):
        assert costlib.apply_policy(policy, [0.5, 0.1]).tolist() == [True, False]
        assert costlib.policy_estimator(policy, model, allow_unsigned=True).predict(X).shape == (4,)
    with pytest.raises(DataError, match="a cutoff per group of"):  # a pooled cutoff some group does not have
        costlib.apply_policy({**json.loads(old), "pooled_cutoff": 0.4}, [0.5])


# ---------------------------------------------------------------------------------------
# Bounds: numbers, prices, names


def test_a_number_too_large_for_a_float_is_refused_not_read_as_infinity(tmp_path):
    text = policy_json_for({"a": 0.2, "b": 0.5})
    for bad, where in (
        (text.replace('"threshold": 0.5', '"threshold": 1e400'), r'thresholds\[1\] \(group "b"\)'),
        (text.replace('"schema_version": 6', '"schema_version": 6, "pooled_cutoff": -1e400'), '"pooled_cutoff"'),
        ('{"rule": "r", "cutoffs": {"a": 1e400}}', 'the cutoff of "a"'),
        ('{"rule": "r", "cutoffs": {"everyone": 0.3}, "pooled_cutoff": 1e999}', '"pooled_cutoff"'),
    ):
        path = tmp_path / "p.json"
        path.write_text(bad)
        with pytest.raises(DataError, match=where + ' must be a finite number \\(or the text "inf"'):
            costlib.apply_policy(path, [0.5], groups=["a"])
        if "schema" in bad:
            with pytest.raises(DataError, match=where):  # the reader of watch and the Costs page
                load_policy(bad)
    with pytest.raises(DataError, match="must be a finite number"):
        costlib.apply_policy({"rule": "r", "cutoffs": {"a": math.inf}}, [0.5], groups=["a"])
    # the texts still mean nobody and everyone, in a file and in what load_policy returns from one
    loaded = load_policy(
        policy_json_for({"a": "inf", "b": "-inf"}).replace(
            '"schema_version": 6', '"schema_version": 6, "pooled_cutoff": "inf"'
        )
    )
    assert loaded["thresholds"] == {"a": math.inf, "b": -math.inf}
    assert costlib.apply_policy(loaded, [0.9, 0.1, 0.9], groups=["a", "b", "new"]).tolist() == [False, True, False]


def test_a_subnormal_price_in_a_policy_is_refused_as_a_link_is():
    text = policy_json_for({"a": 0.2}).replace('"c_fp": 1.0', '"c_fp": 5e-324')
    with pytest.raises(DataError, match=r'prices\[0\] \(group "a"\) c_fp must be from 0 to 1e\+09, and 0 or at least'):
        load_policy(text)
    assert load_policy(policy_json_for({"a": 0.2}).replace('"c_fp": 1.0', '"c_fp": 0'))["prices"]["a"][0] == 0


def test_a_long_group_name_is_refused_never_cut_into_another():
    long_a, long_b = "x" * 500 + "a" * 101, "x" * 500 + "b" * 101
    with pytest.raises(DataError, match=f"a group name of 601 characters \\(at most {MAX_TEXT}\\)"):
        costlib.apply_policy({"rule": "r", "cutoffs": {long_a: 0.1, long_b: 0.9}}, [0.5], groups=[long_a])
    with pytest.raises(DataError, match="a group name of 601 characters"):
        costlib.apply_policy({"rule": "r", "cutoffs": {long_a: 0.1, long_b: 0.1}}, [0.5])
    questions = {"ratio_low": 1, "ratio_high": 4, "ratio_chosen": 2, "group_multipliers": {long_a: 1, long_b: 2}}
    text = json.loads(policy_json_for({"a": 0.2}))
    with pytest.raises(DataError, match="a group name of 601 characters"):
        load_policy(json.dumps({**text, "price_questions": questions}))


def test_the_writer_refuses_a_policy_its_reader_would_refuse(tmp_path, capsys):
    rows = _rows("int", 1500)
    rows["g"] = np.where(rows["g"] == 1, "a" * 600, "b" * 600)
    rows.to_csv(tmp_path / "rows.csv", index=False)
    args = ["audit", str(tmp_path / "rows.csv"), "--label", "y", "--score", "s", "--group", "g", "--c-fp", "1"]
    args += ["--c-fn", "4", "--resamples", "20", "--report", str(tmp_path / "r.html")]
    assert main([*args, "--policy", str(tmp_path / "p.json")]) == 2
    err = capsys.readouterr().err
    assert "This policy cannot be written: prices[0] has a group name of 600 characters (at most 500)" in err
    assert "--rule:" not in err  # not the sentence of a rule without cutoffs
    assert not (tmp_path / "p.json").exists() and not (tmp_path / "r.html").exists()
    audit = costlib.audit(tmp_path / "rows.csv", label="y", score="s", group="g", c_fp=1, c_fn=4, n_resamples=20)
    with pytest.raises(DataError, match="cannot be written"):
        policy_json(audit)


# ---------------------------------------------------------------------------------------
# Sentences list a few groups, shortened


def test_a_sentence_lists_five_groups_shortened_and_how_many_more():
    many = {f"{i:05d}" + "y" * 400: 0.1 + i * 1e-5 for i in range(10_000)}
    with pytest.raises(DataError) as caught:
        costlib.apply_policy({"rule": "r", "cutoffs": many}, [0.5])
    message = caught.value.message
    assert "and 9,995 more" in message and len(message) < 600
    with pytest.raises(DataError) as caught:
        costlib.apply_policy({"rule": "r", "cutoffs": {"a": 0.2}}, [0.5], groups=["z" * 100_000])
    assert caught.value.message.startswith('The group "zzz') and len(caught.value.message) < 400


def test_a_long_column_class_or_rule_is_shortened_or_refused():
    policy = {"rule": "r", "cutoffs": {"everyone": 0.3}, "score": "s", "group": "g"}
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    model = LogisticRegression().fit(X, np.array(["n" * 10_000, "n" * 10_000, "y" * 10_000, "y" * 10_000]))
    for call in (
        lambda: costlib.apply_policy(policy, pd.Series([0.5], name="z" * 100_000)),
        lambda: costlib.apply_policy(policy, [0.5], groups=pd.Series(["a"], name="z" * 100_000)),
        lambda: costlib.policy_estimator({**policy, "positive": "yes"}, model, allow_unsigned=True),
    ):
        with pytest.raises(DataError) as caught:
            call()
        assert len(caught.value.message) < 400
    with pytest.raises(DataError, match='"rule" must be text of at most 500 characters'):
        costlib.apply_policy({**policy, "rule": "r" * 501}, [0.5])


def test_the_positive_outcome_meets_the_models_classes_by_the_same_rule():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    model = LogisticRegression().fit(X, np.array([0.0, 0.0, 1.0, 1.0]))  # classes 0.0 and 1.0, as a float column
    policy = {"rule": "r", "cutoffs": {"everyone": 0.5}, "positive": "1"}  # the loader's text for 1.0
    est = costlib.policy_estimator(policy, model, allow_unsigned=True)
    assert (est.predict(X) == np.where(model.predict_proba(X)[:, 1] >= 0.5, 1.0, 0.0)).all()
