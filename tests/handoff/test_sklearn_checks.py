"""The hand-off as standard scikit-learn estimators (issue 44, item 8): `PolicyClassifier`
passes ``check_estimator`` on arrays and DataFrames but for the exemptions it names with their
reasons (`expected_failed_checks`), the one-cutoff estimator (scikit-learn's
``FixedThresholdClassifier``) fails only scikit-learn's own known checks, and `cost_scorer`
takes scikit-learn's default positive label."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.utils.estimator_checks import parametrize_with_checks

import costlib
from costlib import DataError
from costlib.handoff.estimator import PolicyClassifier, expected_failed_checks
from costlib.handoff.scorer import MSG_POS_LABEL

#: a policy with a cutoff of its own for one group and a pooled one for every other (check_estimator's
#: group column holds random numbers: each is a group the policy never saw)
POLICY = {"rule": "cost-optimal", "cutoffs": {"a": 0.5}, "pooled_cutoff": 0.5}

#: scikit-learn's own expected failures of FixedThresholdClassifier (PER_ESTIMATOR_XFAIL_CHECKS in
#: sklearn/utils/_test_common/instance_generator.py, scikit-learn 1.9), with its reasons
FIXED_THRESHOLD_FAILURES = {
    "check_classifiers_train": "Threshold at probability 0.5 does not hold",
    "check_sample_weight_equivalence_on_dense_data": (
        "Due to the cross-validation and sample ordering, removing a sample is not strictly equal to putting is "
        "weight to zero. Specific unit tests are added for TunedThresholdClassifierCV specifically."
    ),
    "check_sample_weight_equivalence_on_sparse_data": "sample_weight is not equivalent to removing/repeating samples.",
}


def _data(seed: int = 0, n: int = 200):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int)
    return X, y


def _one_cutoff():
    """What `policy_estimator` gives for one cutoff (0.3: not scikit-learn's 0.5)."""
    X, y = _data()
    return costlib.policy_estimator(
        {"rule": "r", "cutoffs": {"everyone": 0.3}}, LogisticRegression().fit(X, y), allow_unsigned=True
    )


def _expected(estimator) -> dict:
    if isinstance(estimator, PolicyClassifier):
        return expected_failed_checks(estimator)
    return FIXED_THRESHOLD_FAILURES


@parametrize_with_checks(
    [
        PolicyClassifier(LogisticRegression(), allow_unsigned=True, policy=POLICY, group=0),
        PolicyClassifier(LogisticRegression(), allow_unsigned=True, policy=POLICY, group=0, keep_group=True),
        _one_cutoff(),
    ],
    expected_failed_checks=_expected,
)
def test_the_hand_off_estimators_pass_scikit_learns_checks(estimator, check):
    check(estimator)


def test_only_a_group_column_the_model_does_not_read_is_exempt():
    assert (
        expected_failed_checks(
            PolicyClassifier(LogisticRegression(), allow_unsigned=True, policy=POLICY, group=0, keep_group=True)
        )
        == {}
    )
    exempt = expected_failed_checks(PolicyClassifier(LogisticRegression(), allow_unsigned=True, policy=POLICY, group=0))
    assert set(exempt) == {"check_estimators_nan_inf", "check_fit2d_1feature"}
    assert all("group column" in reason for reason in exempt.values())


def test_an_array_takes_its_group_by_index_and_decides_as_the_table_by_name():
    X, y = _data(1)
    rng = np.random.default_rng(1)
    groups = rng.choice(["a", "b", "c"], size=len(y))
    policy = {"rule": "cost-optimal", "cutoffs": {"a": 0.2, "b": 0.8}, "pooled_cutoff": 0.5}
    frame = pd.DataFrame(X, columns=["x1", "x2", "x3"]).assign(region=groups)
    by_name = PolicyClassifier(LogisticRegression(), allow_unsigned=True, policy=policy, group="region").fit(frame, y)
    array = np.column_stack([groups.astype(object), X])  # the group first, as text
    by_index = PolicyClassifier(LogisticRegression(), allow_unsigned=True, policy=policy, group=0).fit(array, y)
    assert by_name.n_features_in_ == by_index.n_features_in_ == 4
    assert list(by_name.feature_names_in_) == ["x1", "x2", "x3", "region"]
    assert not hasattr(by_index, "feature_names_in_")
    score = by_name.estimator_.predict_proba(frame[["x1", "x2", "x3"]])[:, 1]
    want = costlib.apply_policy(policy, score, groups=groups).astype(int)
    assert (by_name.predict(frame) == want).all() and (by_index.predict(array) == want).all()
    with pytest.raises(DataError, match="give the group column by its index"):
        PolicyClassifier(LogisticRegression(), allow_unsigned=True, policy=policy, group="region").fit(X, y)
    with pytest.raises(DataError, match='lack the group column "7": they have 4 columns'):
        PolicyClassifier(LogisticRegression(), allow_unsigned=True, policy=policy, group=7).fit(array, y)
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        by_index.fit(array, np.arange(len(y)) % 3)


def test_a_model_fitted_on_an_array_with_the_group_as_a_feature_is_handed_it():
    """Issue 44, item 6: a group column that is also a model feature, the model fitted without
    column names: scikit-learn's "X has 3 features, but ... expecting 4" came through predict."""
    X, y = _data(2)
    occupation = np.random.default_rng(2).integers(1, 7, size=len(y)).astype(float)
    frame = pd.DataFrame(X, columns=["x1", "x2", "x3"]).assign(occupation=occupation)
    policy = {"rule": "cost-optimal", "cutoffs": {str(k): 0.1 * k for k in range(1, 7)}, "group": "occupation"}
    model = LogisticRegression().fit(frame.to_numpy(), y)  # the group column read as a feature, without names
    served = costlib.policy_estimator(policy, model, group=3, allow_unsigned=True)
    want = costlib.apply_policy(policy, model.predict_proba(frame.to_numpy())[:, 1], groups=occupation)
    assert (served.predict(frame.to_numpy()) == want.astype(int)).all()
    beside = LogisticRegression().fit(X, y)  # not a feature: the group column beside the model's
    served = costlib.policy_estimator(policy, beside, group=3, allow_unsigned=True)
    want = costlib.apply_policy(policy, beside.predict_proba(X)[:, 1], groups=occupation)
    assert (served.predict(frame.to_numpy()) == want.astype(int)).all()
    with pytest.raises(DataError, match="The model reads 3 features, but the cases have 5 columns"):
        served.predict(np.column_stack([frame.to_numpy(), X[:, 0]]))


def test_the_one_cutoff_estimator_refits_on_other_labels_and_keeps_a_first_positive_class():
    X, y = _data(3)
    words = np.where(y == 1, "yes", "no")
    served = _one_cutoff()
    assert served.pos_label is None  # pinned to the training label, a refit on words failed
    refit = served.fit(X, words)
    assert set(refit.predict(X)) <= {"no", "yes"}
    first = costlib.policy_estimator(
        {"rule": "r", "cutoffs": {"everyone": 0.3}, "positive": "no"},
        LogisticRegression().fit(X, words),
        allow_unsigned=True,
    )
    p_no = first.estimator_.predict_proba(X)[:, 0]
    assert first.pos_label == "no" and (first.predict(X) == np.where(p_no >= 0.3, "no", "yes")).all()


@pytest.mark.parametrize(("negative", "positive"), [(-1, 1), (False, True), (0.0, 1.0)])
def test_the_scorer_takes_scikit_learns_default_positive_label(negative, positive):
    X, y = _data(4, 600)
    labels = np.where(y == 1, positive, negative)
    scorer = costlib.cost_scorer(c_fp=1, c_fn=9)
    got = cross_val_score(LogisticRegression(), X, labels, scoring=scorer, cv=3)
    want = cross_val_score(LogisticRegression(), X, y, scoring=scorer, cv=3)
    assert np.isfinite(got).all()
    np.testing.assert_array_equal(got, want)


def test_the_scorer_asks_for_the_positive_label_of_other_labels():
    X, y = _data(5)
    for labels in (np.where(y == 1, "yes", "no"), y + 1):
        model = LogisticRegression().fit(X, labels)
        with pytest.raises(DataError, match="say which one is positive") as e:
            costlib.cost_scorer(c_fp=1, c_fn=2)(model, X, labels)
        assert str(e.value) == MSG_POS_LABEL.format(labels=", ".join(f'"{v}"' for v in np.unique(labels).tolist()))


def test_a_group_column_named_twice_or_a_keep_group_that_is_not_one_is_refused():
    X, y = _data(6, 60)
    twice = pd.DataFrame(np.column_stack([X, X[:, 0]]), columns=["x1", "x2", "g", "g"])
    with pytest.raises(DataError, match='The cases have 2 columns named "g"'):
        PolicyClassifier(LogisticRegression(), allow_unsigned=True, policy=POLICY, group="g").fit(twice, y)
    with pytest.raises(ValueError, match="keep_group must be True, False or \"auto\": got 'yes'"):
        PolicyClassifier(LogisticRegression(), allow_unsigned=True, policy=POLICY, group=0, keep_group="yes").fit(X, y)
