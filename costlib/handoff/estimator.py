"""`PolicyClassifier`: a policy's per-group cutoffs inside the scikit-learn model that serves
them (`costlib.handoff.serving.policy_estimator` makes one). This module subclasses
scikit-learn's estimator classes, so it imports scikit-learn; `costlib.handoff.serving` and
`costlib.handoff.policy` do not until a model is wrapped.

`PolicyClassifier` passes scikit-learn's ``check_estimator`` but for the checks that
`expected_failed_checks` names, each with its reason.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.utils import get_tags
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from costlib.core.errors import DataError
from costlib.handoff.policy import apply_policy, is_fitted, positive_label, signed_cutoffs
from costlib.loading.messages import q

MSG_BINARY = (
    "Only binary classification is supported: a policy decides between two classes, and y is {kind} ({n} classes)."
)
MSG_NO_COLUMN = "The cases lack the group column {group}: {where}."
MSG_TWICE = "The cases have {n} columns named {group}: give the group column once."
MSG_KEEP_GROUP = 'keep_group must be True, False or "auto": got {value!r}'
MSG_ARRAY_GROUP = (
    "The cases are an array, whose columns have no names: give the group column by its index (group=0 for the "
    "first), not {group}."
)
MSG_ONLY_GROUP = (
    "The cases hold only the group column {group}, which the model does not read (keep_group=False): there are "
    "no features left for it."
)
MSG_WIDTH = (
    "The model reads {n_model:,} features, but the cases have {n_x:,} columns with the group column {group}: give "
    "the model's columns, with the group column among them or beside them."
)
MSG_MISSING = "The cases lack the columns the model was fitted on: {missing}."

#: scikit-learn checks that fail by design, by `keep_group`; see `expected_failed_checks`
_DROPPED_GROUP_FAILURES = {
    "check_estimators_nan_inf": (
        "NaN and inf only in the group column, which the model does not read: the group column holds categories, "
        "not numbers; a missing group is refused when the policy decides (not at fit, which does not read it), and "
        "inf is a group's name, as the loader reads a cell"
    ),
    "check_fit2d_1feature": (
        "one column that is the group column, which the model does not read (keep_group=False): no features are "
        "left, which is refused with a sentence (MSG_ONLY_GROUP)"
    ),
}


def expected_failed_checks(estimator) -> dict[str, str]:
    """The scikit-learn estimator checks that `estimator` (a `PolicyClassifier`) fails by design,
    as {check name: reason}, for ``check_estimator(..., expected_failed_checks=...)`` and
    ``parametrize_with_checks(..., expected_failed_checks=expected_failed_checks)``: none when the
    model reads the group column too (``keep_group=True``); else the two checks that put NaN,
    inf or the only column into the group column, which the model does not read."""
    if isinstance(estimator, PolicyClassifier) and estimator.keep_group is not True:
        return dict(_DROPPED_GROUP_FAILURES)
    return {}


def _estimator_has(attr: str):
    """Whether the wrapped classifier (fitted or not) has `attr`, for `available_if`."""

    def check(self) -> bool:
        return hasattr(getattr(self, "estimator_", self.estimator), attr)

    return check


class PolicyClassifier(ClassifierMixin, MetaEstimatorMixin, BaseEstimator):
    """A fitted classifier and a policy's per-group cutoffs: ``predict(X)`` flags a case when
    the classifier's score is at least the cutoff of its group (`apply_policy`).

    Parameters
    ----------
    estimator : scikit-learn classifier
        The model whose positive-class score the policy's cutoffs apply to; fitted already
        (as `policy_estimator` hands it over), or fitted by ``fit`` (a clone).
    policy : str, os.PathLike, mapping or PolicyCutoffs
        As for `apply_policy`; ``fit`` never changes its cutoffs.
    group : str or int
        The column of ``X`` that holds each case's group: a DataFrame's column by its name (an
        int that is not one of its names is a position), an array's by its index (negative
        counts from the end).
    response_method : {"predict_proba", "decision_function"}
        Which of the model's scores the cutoffs apply to.
    keep_group : bool or "auto", default=False
        Whether the model reads the group column too (a feature): True hands it the whole of
        ``X``, False the other columns. "auto" (what `policy_estimator` gives) asks the fitted
        model: kept when its ``feature_names_in_`` hold the group column, or, for a model fitted
        on an array, when ``X`` has exactly as many columns as the model reads; ``fit`` refits as
        the model handed over read, but a clone's (cross-validation's) model is not fitted, so it
        is fitted without the group column: say True for a model that reads it from an array.
    allow_unsigned : bool, default=False
        Use a policy whose sign-off cannot be checked (unsigned, or sealed while the key is
        unset); without it such a policy is refused at ``fit`` and ``predict``, as one rejected,
        altered or sealed with another key always is (`costlib.handoff.policy.signed_cutoffs`).

    Attributes
    ----------
    estimator_ : classifier
        The fitted clone (set by ``fit``; before it, the given model is used when fitted).
    n_features_in_ : int
        The number of columns of ``X`` at ``fit``, the group column included.
    feature_names_in_ : ndarray of str
        The column names of ``X`` at ``fit``, when it was a DataFrame with text names.
    """

    def __init__(
        self,
        estimator,
        *,
        policy,
        group,
        response_method: str = "predict_proba",
        keep_group=False,
        allow_unsigned: bool = False,
    ):
        self.estimator = estimator
        self.policy = policy
        self.group = group
        self.response_method = response_method
        self.keep_group = keep_group
        self.allow_unsigned = allow_unsigned

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        inner = get_tags(self.estimator)
        tags.classifier_tags.multi_class = False  # a policy decides between two classes
        tags.input_tags.sparse = False
        tags.input_tags.allow_nan = inner.input_tags.allow_nan
        # a group column the model does not read may hold text (an object array's column of names)
        tags.input_tags.string = inner.input_tags.string or self.keep_group is not True
        return tags

    def __sklearn_is_fitted__(self) -> bool:
        return hasattr(self, "estimator_") or is_fitted(self.estimator)

    def _fitted_model(self):
        check_is_fitted(self)
        return getattr(self, "estimator_", self.estimator)

    @property
    def classes_(self):
        return self._fitted_model().classes_

    def _validated(self, X, y=None, *, reset: bool):
        """`X` (and `y`) checked at the boundary: a DataFrame keeps its columns (only its names
        and width are checked and, at fit, recorded); anything else becomes a 2-D array of its
        own dtype (refused: sparse, complex, 1-D or empty). Values are the model's to check."""
        frame = isinstance(X, pd.DataFrame)
        if frame:
            self._group_position(X)  # the group column's sentence before scikit-learn compares names
        kw = {"skip_check_array": True} if frame else {"dtype": None, "ensure_all_finite": False}
        if y is not None:
            return validate_data(self, X, y, reset=reset, **kw)
        if reset or hasattr(self, "n_features_in_"):
            return validate_data(self, X, reset=reset, **kw), None
        # the model was fitted before it was wrapped (policy_estimator): no columns recorded to check against
        return (X if frame else check_array(X, **kw)), None

    def _group_position(self, X) -> int:
        """The position of the group column in `X` (validated); DataError with a sentence."""
        g, n = self.group, X.shape[1]
        if isinstance(X, pd.DataFrame) and g in list(X.columns):
            hits = np.flatnonzero([c == g for c in X.columns])
            if len(hits) == 1:
                return int(hits[0])
            raise DataError(MSG_TWICE.format(n=len(hits), group=q(g)), column=str(g))
        if not isinstance(g, numbers.Integral) or isinstance(g, bool):
            if isinstance(X, pd.DataFrame):
                raise DataError(MSG_NO_COLUMN.format(group=q(g), where="no column has that name"), column=str(g))
            raise DataError(MSG_ARRAY_GROUP.format(group=q(g)))
        if not -n <= g < n:
            raise DataError(MSG_NO_COLUMN.format(group=q(g), where=f"they have {n:,} columns (0 to {n - 1:,})"))
        return int(g) % n

    def _keeps_group(self, X, model, name) -> bool:
        """Whether the model reads the group column (`keep_group`; "auto": as the fitted `model`
        was fitted, by its column names or, without them, by the width of `X`)."""
        k = self.keep_group
        if not (isinstance(k, (bool, np.bool_)) or isinstance(k, str) and k == "auto"):
            raise ValueError(MSG_KEEP_GROUP.format(value=k))
        if self.keep_group != "auto":
            return bool(self.keep_group)
        names = getattr(model, "feature_names_in_", None)
        if names is not None:
            return isinstance(X, pd.DataFrame) and name in list(names)
        n_model = getattr(model, "n_features_in_", None)
        if n_model is None or n_model == X.shape[1] - 1:
            return False
        if n_model == X.shape[1]:
            return True
        raise DataError(MSG_WIDTH.format(n_model=n_model, n_x=X.shape[1], group=q(name)))

    def _split(self, X, *, keep: bool | None = None, model=None):
        """(features for the model, the groups) of validated `X`."""
        i = self._group_position(X)
        frame = isinstance(X, pd.DataFrame)
        name = X.columns[i] if frame else self.group
        groups = X.iloc[:, i] if frame else X[:, i]
        if keep is None:
            keep = self._keeps_group(X, model, name)
        if keep:
            features = X
        elif frame:
            features = X.iloc[:, [j for j in range(X.shape[1]) if j != i]]
        else:
            features = np.delete(X, i, axis=1)
        if features.shape[1] == 0:
            raise DataError(MSG_ONLY_GROUP.format(group=q(name)))
        names = getattr(model, "feature_names_in_", None)
        if frame and names is not None:
            missing = [c for c in names if c not in set(features.columns)]
            if missing:
                from costlib.loading.messages import available

                raise DataError(MSG_MISSING.format(missing=available(missing, 5)))
        return features, groups

    def fit(self, X, y, **params):
        """Fit a clone of the classifier on `X` (without the group column unless `keep_group`
        is True) and `y` (two classes; the policy's positive outcome among them); the policy's
        cutoffs stay as they are. `params` go to the classifier's ``fit``.

        Returns
        -------
        self : PolicyClassifier
        """
        X, y = self._validated(X, y, reset=True)
        check_classification_targets(y)
        kind = type_of_target(y, input_name="y")
        if kind != "binary":
            raise ValueError(MSG_BINARY.format(kind=kind, n=len(np.unique(np.asarray(y)))))
        p = signed_cutoffs(
            self.policy, allow_unsigned=self.allow_unsigned
        )  # a policy that is not one is refused before any fitting
        if self.keep_group == "auto" and is_fitted(self.estimator):  # as the model handed over read it
            features, _ = self._split(X, model=self.estimator)
        else:
            features, _ = self._split(X, keep=self._keeps_group(X, None, None) if self.keep_group != "auto" else False)
        model = clone(self.estimator).fit(features, y, **params)
        if len(model.classes_) == 2:
            positive_label(model.classes_, p.positive)
        self.estimator_ = model
        return self

    def _features(self, X):
        """(the fitted model, its features of `X`, the groups of `X`), `X` checked against fit."""
        model = self._fitted_model()
        X, _ = self._validated(X, reset=False)
        features, groups = self._split(X, model=model)
        return model, features, groups

    def predict(self, X) -> np.ndarray:
        """The policy's positive class where it flags the case, the other class elsewhere."""
        model, features, groups = self._features(X)
        p = signed_cutoffs(self.policy, allow_unsigned=self.allow_unsigned)
        pos = positive_label(model.classes_, p.positive)
        neg = next(c for c in model.classes_ if c != pos)
        if self.response_method == "predict_proba":
            score = model.predict_proba(features)[:, list(model.classes_).index(pos)]
        else:
            s = np.asarray(model.decision_function(features), dtype=np.float64)
            score = s if pos == model.classes_[1] else -s
        flags = apply_policy(p, score, groups=groups)
        return np.where(flags, pos, neg)

    @available_if(_estimator_has("predict_proba"))
    def predict_proba(self, X) -> np.ndarray:
        """The classifier's own probabilities (the cutoffs change decisions, not scores)."""
        model, features, _ = self._features(X)
        return model.predict_proba(features)

    @available_if(_estimator_has("decision_function"))
    def decision_function(self, X) -> np.ndarray:
        """The classifier's own decision function."""
        model, features, _ = self._features(X)
        return model.decision_function(features)
