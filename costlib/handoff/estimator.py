"""`PolicyClassifier`: a policy's per-group cutoffs inside the scikit-learn model that serves
them (`costlib.handoff.policy.policy_estimator` makes one). This module subclasses
scikit-learn's estimator classes, so it imports scikit-learn; `costlib.handoff.policy` does not
until a model is wrapped.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone

from costlib.core.errors import DataError
from costlib.handoff.policy import apply_policy, is_fitted, positive_label, read_policy


class PolicyClassifier(ClassifierMixin, MetaEstimatorMixin, BaseEstimator):
    """A fitted classifier and a policy's per-group cutoffs: ``predict(X)`` flags a case when
    the classifier's score is at least the cutoff of its group, read from the column `group`
    of ``X`` (`apply_policy`). ``fit`` refits a clone of the classifier; the cutoffs stay the
    policy's. `keep_group`: whether the classifier reads the group column too (a feature), so
    that a clone hands it the same columns as the original."""

    def __init__(self, estimator, *, policy, group: str, response_method: str = "predict_proba", keep_group=False):
        self.estimator = estimator
        self.policy = policy
        self.group = group
        self.response_method = response_method
        self.keep_group = keep_group

    def _model(self):
        return getattr(self, "estimator_", self.estimator)

    def _features(self, X):
        if not isinstance(X, pd.DataFrame) or self.group not in X.columns:
            raise DataError(f'The cases must be a table with the group column "{self.group}".', column=self.group)
        return X if self.keep_group else X.drop(columns=[self.group])

    def fit(self, X, y, **params):
        self.estimator_ = clone(self.estimator).fit(self._features(X), y, **params)
        return self

    def __sklearn_is_fitted__(self) -> bool:
        return hasattr(self, "estimator_") or is_fitted(self.estimator)

    def _fitted_model(self):
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self)
        return self._model()

    @property
    def classes_(self):
        return self._fitted_model().classes_

    def _score(self, X, model, pos) -> np.ndarray:
        """The fitted `model`'s score of the positive class `pos` for the cases `X`."""
        features = self._features(X)
        if self.response_method == "predict_proba":
            return model.predict_proba(features)[:, list(model.classes_).index(pos)]
        s = np.asarray(model.decision_function(features), dtype=np.float64)
        return s if pos == model.classes_[1] else -s

    def predict(self, X) -> np.ndarray:
        """The policy's positive class where it flags the case, the other class elsewhere."""
        model, p = self._fitted_model(), read_policy(self.policy)
        pos = positive_label(model.classes_, p.positive)
        neg = next(c for c in model.classes_ if c != pos)
        flags = apply_policy(p, self._score(X, model, pos), groups=X[self.group])
        return np.where(flags, pos, neg)

    def predict_proba(self, X) -> np.ndarray:
        """The classifier's own probabilities (the cutoffs change decisions, not scores)."""
        return self._fitted_model().predict_proba(self._features(X))

    def decision_function(self, X) -> np.ndarray:
        """The classifier's own decision function."""
        return self._fitted_model().decision_function(self._features(X))
