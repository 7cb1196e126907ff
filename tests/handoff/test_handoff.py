"""The hand-off to the serving model: the scorer is minus `expected_cost`, `apply_policy` and
`policy_estimator(...).predict` decide as the policy's cutoffs do (seen, pooled and unseen
groups), and every mismatch of scale, column or model is refused with a sentence."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.special import expit
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import FixedThresholdClassifier, GridSearchCV, TunedThresholdClassifierCV, cross_val_score

import costlib
from costlib import DataError
from costlib.handoff.estimator import PolicyClassifier
from costlib.handoff.policy import logit_cutoff, read_policy
from costlib.present.policy import load_policy, policy_json

ROOT = Path(__file__).resolve().parents[2]
COMPAS = ROOT / "costlib" / "samples" / "compas.csv"


def _brute(cutoffs: dict, pooled, scores, groups) -> np.ndarray:
    """The reference: case by case, its group's cutoff (else the pooled one); the texts "inf"
    and "-inf" flag nobody and everyone."""
    number = {"inf": math.inf, "-inf": -math.inf}
    return np.array([s >= number.get(t := cutoffs.get(str(g), pooled), t) for s, g in zip(scores, groups, strict=True)])


def _data(seed: int = 0, n: int = 400):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int)
    return X, y


# ---------------------------------------------------------------------------------------
# The scorer


@pytest.mark.parametrize("seed", range(5))
def test_the_scorer_is_minus_expected_cost_of_the_models_decisions(seed):
    X, y = _data(seed)
    rng = np.random.default_rng(seed)
    c_fp, c_fn = float(rng.uniform(0, 5)), float(rng.uniform(0, 5))
    model = LogisticRegression().fit(X[:200], y[:200])
    got = costlib.cost_scorer(c_fp=c_fp, c_fn=c_fn)(model, X[200:], y[200:])
    assert got == -costlib.expected_cost(y[200:], model.predict(X[200:]), c_fp=c_fp, c_fn=c_fn)


def test_whole_weights_count_as_repeated_rows_and_words_as_labels():
    X, y = _data(3)
    model = LogisticRegression().fit(X, y)
    w = np.random.default_rng(1).integers(0, 4, size=len(y))
    scorer = costlib.cost_scorer(c_fp=1, c_fn=4)
    repeated = np.repeat(np.arange(len(y)), w)
    assert scorer(model, X, y, sample_weight=w) == pytest.approx(scorer(model, X[repeated], y[repeated]), rel=1e-12)
    words = np.where(y == 1, "yes", "no")
    model_w = LogisticRegression().fit(X, words)
    assert costlib.cost_scorer(c_fp=1, c_fn=4, pos_label="yes")(model_w, X, words) == scorer(model, X, y)


def test_the_scorer_drives_scikit_learns_model_selection():
    X, y = _data(4, 600)
    scorer = costlib.cost_scorer(c_fp=1, c_fn=9)
    scores = cross_val_score(LogisticRegression(), X, y, scoring=scorer, cv=3)
    assert scores.shape == (3,) and (scores <= 0).all()
    grid = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, scoring=scorer, cv=3).fit(X, y)
    assert grid.best_score_ == max(grid.cv_results_["mean_test_score"])
    tuned = TunedThresholdClassifierCV(LogisticRegression(), scoring=scorer, cv=3).fit(X, y)
    assert tuned.best_threshold_ < 0.5  # a miss costs 9 false alarms: the cutoff moves down


def test_the_scorer_refuses_a_price_that_is_not_one():
    with pytest.raises(ValueError, match="c_fn"):
        costlib.cost_scorer(c_fp=1, c_fn=float("nan"))


# ---------------------------------------------------------------------------------------
# apply_policy against the brute-force reference

CUTOFF = st.one_of(st.floats(0, 1), st.sampled_from(["inf", "-inf"]))  # infinity as the texts a file holds


@given(
    cutoffs=st.dictionaries(st.sampled_from(["a", "b", "c", "7"]), CUTOFF, min_size=1),
    pooled=CUTOFF,
    cases=st.lists(st.tuples(st.floats(0, 1), st.sampled_from(["a", "b", "c", "7", "new", 7])), max_size=40),
)
def test_apply_policy_is_each_groups_cutoff_and_the_pooled_one_for_unseen_groups(cutoffs, pooled, cases):
    scores = [s for s, _ in cases]
    groups = [g for _, g in cases]
    policy = {"rule": "cost-optimal", "cutoffs": cutoffs, "pooled_cutoff": pooled}
    got = costlib.apply_policy(policy, scores, groups=groups)
    assert got.dtype == bool and got.tolist() == _brute(cutoffs, pooled, scores, groups).tolist()


def _audit(group="age_cat", **kw):
    return costlib.audit(
        COMPAS, label="two_year_recid", score="p_recid", group=group, split="split", n_resamples=50, **kw
    )


@pytest.fixture(scope="module")
def age_audit():
    return _audit(c_fp=1, c_fn=3)


def test_a_written_policy_decides_as_the_audit_and_costs_what_the_audit_says(age_audit, tmp_path):
    a = age_audit
    df = pd.read_csv(COMPAS)
    for rule in ("cost-optimal", "best single cutoff"):
        path = tmp_path / "policy.json"
        path.write_text(policy_json(a, rule))
        flags = costlib.apply_policy(path, df["p_recid"], groups=df["age_cat"])
        want = df["p_recid"].to_numpy() >= df["age_cat"].map(a.cutoffs[rule]).to_numpy()
        assert (flags == want).all()
        test = (df["split"] == "test").to_numpy()  # what the audit judged the rule on
        cost = costlib.expected_cost(df["two_year_recid"][test], flags[test], c_fp=1, c_fn=3)
        assert cost == pytest.approx(a.results.overall.loc[rule, "cost_per_case"], rel=1e-12)
        # the parsed JSON and the loaded policy give the same decisions as the path
        assert (costlib.apply_policy(json.loads(path.read_text()), df["p_recid"], groups=df["age_cat"]) == flags).all()
        assert (costlib.apply_policy(load_policy(path.read_text()), df["p_recid"], groups=df["age_cat"]) == flags).all()


def test_pooled_and_unseen_groups_get_the_pooled_cutoff(tmp_path):
    rng = np.random.default_rng(5)
    n = 3000
    g = rng.choice(["big", "huge", "tiny"], size=n, p=[0.5, 0.497, 0.003])
    s = rng.random(n)
    y = (rng.random(n) < s).astype(int)
    path = tmp_path / "rows.csv"
    pd.DataFrame({"y": y, "s": s, "g": g, "split": np.where(rng.random(n) < 0.5, "train", "test")}).to_csv(path)
    a = costlib.audit(path, label="y", score="s", group="g", split="split", c_fp=1, c_fn=2, n_resamples=20)
    assert "tiny" in [str(x) for x in a.recommendation.pooled]
    policy = json.loads(policy_json(a, "cost-optimal"))
    pooled = policy["pooled_cutoff"]
    assert pooled == a.cutoffs["best single cutoff"]["tiny"] == a.cutoffs["cost-optimal"]["tiny"]
    scores = np.linspace(0, 1, 101)
    for group in ("tiny", "never seen"):
        assert (costlib.apply_policy(policy, scores, groups=[group] * 101) == (scores >= pooled)).all()


def test_a_policy_without_a_pooled_cutoff_refuses_an_unseen_group():
    policy = {"rule": "cost-optimal", "cutoffs": {"a": 0.2, "b": 0.7}}
    with pytest.raises(DataError, match='The group "c" is not in the policy'):
        costlib.apply_policy(policy, [0.5], groups=["c"])
    with pytest.raises(DataError, match='a cutoff per group of "group"'):
        costlib.apply_policy(policy, [0.5])


@pytest.mark.parametrize(
    ("policy", "scores", "groups", "words"),
    [
        ({"rule": "r", "cutoffs": {"everyone": 0.3}}, [0.2, 1.7], None, "scores\\[1\\] is 1.7: these scores are on"),
        ({"rule": "r", "cutoffs": {"everyone": 0.3}}, [0.2, float("nan")], None, "scores\\[1\\] is nan"),
        ({"rule": "r", "cutoffs": {"a": 0.3, "b": 0.4}}, [0.2, 0.3], ["a", None], 'group "\\(missing\\)" is not in'),
        ({"rule": "r", "cutoffs": {"a": 0.3, "b": 0.4}}, [0.2, 0.3], ["a"], "2 scores but 1 groups"),
        ({"rule": "r", "cutoffs": "0.3"}, [0.2], None, '"cutoffs" must map'),
        ({"rule": "r", "cutoffs": {"everyone": "high"}}, [0.2], None, "must be a number"),
        ({"rule": "r", "cutoffs": {"everyone": 0.3}, "scale": "odds"}, [0.2], None, '"scale" must be one of'),
        ({"thresholds": [1]}, [0.2], None, "not a costlib policy"),
        ({"schema": "costlib.policy", "x": float("nan")}, [0.2], None, "a mapping that is not JSON"),
        (["not", "a", "policy"], [0.2], None, "This is not a policy"),
    ],
)
def test_apply_policy_refuses_with_a_sentence(policy, scores, groups, words):
    with pytest.raises(DataError, match=words):
        costlib.apply_policy(policy, scores, groups=groups)


def test_a_policy_for_another_score_column_or_scale_is_refused(age_audit):
    policy = json.loads(policy_json(age_audit, "cost-optimal"))
    df = pd.read_csv(COMPAS)
    with pytest.raises(DataError, match='chosen on the score column "p_recid", not "decile_score"'):
        costlib.apply_policy(policy, df["decile_score"] / 10, groups=df["age_cat"])
    with pytest.raises(DataError, match="probabilities from 0 to 1"):
        costlib.apply_policy(policy, df["decile_score"].to_numpy(), groups=df["age_cat"])
    random = {**policy, "rule": "flag at random", "random_share": 0.1}
    with pytest.raises(DataError, match="flags a random 0.1 of the cases without the model"):
        costlib.apply_policy(random, df["p_recid"], groups=df["age_cat"])


def test_a_logit_policy_reads_log_odds_through_the_sigmoid():
    policy = {"rule": "r", "cutoffs": {"everyone": 0.7}, "scale": "logit"}
    x = np.array([-3.0, 0.0, 0.84, 0.85, 4.0, 50.0])
    assert (costlib.apply_policy(policy, x) == (expit(x) >= 0.7)).all()


# ---------------------------------------------------------------------------------------
# policy_estimator


@given(t=st.floats(1e-9, 1 - 1e-9))
def test_the_logit_cutoff_decides_exactly_as_the_sigmoid_at_its_neighbours(t):
    x = logit_cutoff(t)
    near = np.array([np.nextafter(x, -np.inf), x, np.nextafter(x, np.inf)])
    assert ((near >= x) == (expit(near) >= t)).all()


def test_one_cutoff_becomes_scikit_learns_fixed_threshold_classifier():
    X, y = _data(6)
    model = LogisticRegression().fit(X, y)
    for scale, score in (("probability", model.predict_proba(X)[:, 1]), ("logit", model.decision_function(X))):
        t = float(np.quantile(expit(score) if scale == "logit" else score, 0.37))
        policy = {"rule": "best single cutoff", "cutoffs": {"everyone": t}, "scale": scale}
        est = costlib.policy_estimator(policy, model, allow_unsigned=True)
        assert isinstance(est, FixedThresholdClassifier)
        assert (est.predict(X) == costlib.apply_policy(policy, score).astype(int)).all()


@given(seed=st.integers(0, 10_000))
def test_per_group_cutoffs_predict_what_apply_policy_flags(seed):
    rng = np.random.default_rng(seed)
    n = 120
    X = pd.DataFrame(rng.normal(size=(n, 2)), columns=["x1", "x2"])
    y = np.where(X["x1"] + rng.normal(size=n) > 0, "yes", "no")
    model = LogisticRegression().fit(X, y)
    cutoffs = {g: float(rng.random()) for g in ("a", "b")}
    policy = {"rule": "cost-optimal", "cutoffs": cutoffs, "pooled_cutoff": float(rng.random()), "positive": "yes"}
    groups = rng.choice(["a", "b", "unseen"], size=n)
    est = costlib.policy_estimator(policy, model, group="region", allow_unsigned=True)
    assert isinstance(est, PolicyClassifier)
    pred = est.predict(X.assign(region=groups))
    score = model.predict_proba(X)[:, list(model.classes_).index("yes")]
    want = _brute(cutoffs, policy["pooled_cutoff"], score, groups)
    assert (pred == np.where(want, "yes", "no")).all()


def test_a_group_column_the_model_was_fitted_on_is_kept_and_fit_refits_a_clone(age_audit):
    df = pd.read_csv(COMPAS)
    X = pd.DataFrame({"decile_score": df["decile_score"], "young": (df["age_cat"] == "Less than 25").astype(int)})
    model = LogisticRegression().fit(X, df["two_year_recid"])
    policy = json.loads(policy_json(age_audit, "cost-optimal"))
    est = costlib.policy_estimator(policy, model, group="age_cat", allow_unsigned=True)
    cases = X.assign(age_cat=df["age_cat"])
    flags = costlib.apply_policy(
        {**policy, "data": {**policy["data"], "score": None}}, model.predict_proba(X)[:, 1], groups=df["age_cat"]
    )
    assert (est.predict(cases) == flags.astype(int)).all()
    refit = est.fit(cases, df["two_year_recid"])
    assert refit.estimator_ is not model and (refit.predict(cases) == flags.astype(int)).all()
    with pytest.raises(DataError, match='the group column "age_cat"'):
        est.predict(X)


def test_policy_estimator_refuses_an_unfitted_model_or_a_missing_positive_class():
    X, y = _data(7)
    policy = {"rule": "r", "cutoffs": {"everyone": 0.5}}
    with pytest.raises(DataError, match="is not fitted"):
        costlib.policy_estimator(policy, LogisticRegression(), allow_unsigned=True)
    model = LogisticRegression().fit(X, y)
    with pytest.raises(DataError, match='positive outcome is "yes", which is not a class'):
        costlib.policy_estimator({**policy, "positive": "yes"}, model, allow_unsigned=True)
    with pytest.raises(DataError, match="a cutoff per group"):
        costlib.policy_estimator({"rule": "r", "cutoffs": {"a": 0.1, "b": 0.9}}, model, allow_unsigned=True)


def test_read_policy_names_the_columns_of_the_data_dictionary(age_audit):
    p = read_policy(json.loads(policy_json(age_audit, "cost-optimal")))
    assert (p.score, p.group, p.scale, p.positive) == ("p_recid", "age_cat", "probability", "1")
    assert p.pooled == age_audit.cutoffs["best single cutoff"]["25 - 45"]


def test_a_group_column_that_is_a_feature_of_a_pipeline_survives_cloning_and_cross_validation(age_audit):
    from sklearn.base import clone
    from sklearn.compose import ColumnTransformer
    from sklearn.exceptions import NotFittedError
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder
    from sklearn.utils.validation import check_is_fitted

    df = pd.read_csv(COMPAS)
    X = df[["decile_score", "age_cat"]]
    encode = ColumnTransformer([("g", OneHotEncoder(), ["age_cat"])], remainder="passthrough")
    pipe = make_pipeline(encode, LogisticRegression()).fit(X, df["two_year_recid"])
    policy = age_audit.policy("cost-optimal")
    policy["data"]["score"] = None  # the pipeline's own score, not the audited column
    est = costlib.policy_estimator(policy, pipe, group="age_cat", allow_unsigned=True)
    flags = costlib.apply_policy(policy, pipe.predict_proba(X)[:, 1], groups=df["age_cat"])
    assert (est.predict(X) == flags.astype(int)).all()
    scores = cross_val_score(est, X, df["two_year_recid"], cv=3, scoring=costlib.cost_scorer(c_fp=1, c_fn=3))
    assert np.isfinite(scores).all()
    fresh = clone(est)
    with pytest.raises(NotFittedError):
        fresh.predict(X)
    with pytest.raises(NotFittedError):
        check_is_fitted(fresh)
    check_is_fitted(est)
    check_is_fitted(costlib.policy_estimator({"rule": "r", "cutoffs": {"everyone": 0.5}}, pipe, allow_unsigned=True))


def test_a_response_method_against_the_policys_scale_or_missing_from_the_model_is_refused():
    from sklearn.svm import LinearSVC

    X, y = _data(8)
    model = LogisticRegression().fit(X, y)
    one = {"rule": "r", "cutoffs": {"everyone": 0.4}}
    with pytest.raises(DataError, match="which a model gives by predict_proba, not decision_function"):
        costlib.policy_estimator(one, model, response_method="decision_function", allow_unsigned=True)
    groups = {"rule": "r", "cutoffs": {"a": 0.4, "b": 0.6}, "scale": "logit"}
    with pytest.raises(DataError, match="by decision_function, not predict_proba"):
        costlib.policy_estimator(groups, model, group="g", response_method="predict_proba", allow_unsigned=True)
    with pytest.raises(DataError, match="LinearSVC has no predict_proba"):
        costlib.policy_estimator(one, LinearSVC().fit(X, y), allow_unsigned=True)
    raw = {"rule": "r", "cutoffs": {"everyone": 0.0}, "scale": "raw"}
    assert (
        costlib.policy_estimator(raw, model, allow_unsigned=True).predict(X) == (model.decision_function(X) >= 0)
    ).all()


def test_the_policys_group_column_null_cutoffs_short_files_and_duplicates(age_audit, tmp_path):
    policy = age_audit.policy("cost-optimal")
    df = pd.read_csv(COMPAS)
    with pytest.raises(DataError, match='per group of the column "age_cat", not "race"'):
        costlib.apply_policy(policy, df["p_recid"], groups=df["race"])
    model = LogisticRegression().fit(df[["decile_score"]], df["two_year_recid"])
    with pytest.raises(DataError, match='not "sex"'):
        costlib.policy_estimator(policy, model, group="sex", allow_unsigned=True)
    short = {"rule": "r", "cutoffs": {"a": None, "b": 0.5}, "pooled_cutoff": 0.5}  # null: nobody, as --json writes
    assert costlib.apply_policy(short, [1.0, 1.0], groups=["a", "b"]).tolist() == [False, True]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(short))
    assert costlib.apply_policy(path, [1.0, 1.0], groups=["a", "b"]).tolist() == [False, True]
    with pytest.raises(DataError, match="not an array of shape \\(2, 2\\)"):
        costlib.apply_policy(short, [[0.1, 0.9], [0.2, 0.8]])
    twice = json.loads(json.dumps(policy))
    twice["thresholds"].append({**twice["thresholds"][0], "threshold": 0.99})
    with pytest.raises(DataError, match="a second time"):
        costlib.apply_policy(twice, df["p_recid"], groups=df["age_cat"])
    typo = json.loads(json.dumps(policy))
    typo["data"]["scale"] = "logits"
    with pytest.raises(DataError, match='"data.scale" must be one of'):
        costlib.apply_policy(typo, df["p_recid"], groups=df["age_cat"])
