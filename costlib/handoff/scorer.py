"""`cost_scorer`: the contract's cost per case as a scikit-learn scorer."""

from __future__ import annotations

import numpy as np

from costlib.core import validation as v
from costlib.core.errors import DataError

MSG_POS_LABEL = (
    "The labels are {labels}, not 0 and 1, -1 and 1 or False and True: say which one is positive "
    "(cost_scorer(..., pos_label=...))."
)


def positive_of(y_true, pos_label=None):
    """The label that means positive: `pos_label` when given, else 1 for labels within {0, 1},
    {-1, 1} or {False, True} (the greater one, as scikit-learn's metrics default); DataError
    with a sentence for any other labels (words, {1, 2})."""
    if pos_label is not None:
        return pos_label
    labels = np.unique(np.asarray(y_true))
    if labels.dtype.kind in "biuf" and (set(labels.tolist()) <= {0, 1} or set(labels.tolist()) <= {-1, 1}):
        return 1
    from costlib.loading.messages import available

    raise DataError(MSG_POS_LABEL.format(labels=available(labels.tolist(), 5)))


def _minus_cost(y_true, y_pred, *, c_fp: float, c_fn: float, pos_label=None, sample_weight=None) -> float:
    """Minus `expected_cost` of the decisions `y_pred` (that very function without weights);
    with `sample_weight`, minus the weighted cost per weighted case, read off the one sweep
    of the 0/1 decisions at the cutoff 1 (flag the cases decided 1). The positive label is
    `positive_of`'s."""
    from costlib.binary.costs import expected_cost
    from costlib.core.sweep import threshold_sweep

    pos = positive_of(y_true, pos_label)
    y_true = np.asarray(y_true) == pos
    y_pred = np.asarray(y_pred) == pos
    if sample_weight is None:
        return -expected_cost(y_true, y_pred, c_fp=c_fp, c_fn=c_fn)
    sweep = threshold_sweep(y_true, v.as_binary(y_pred, "y_pred"), sample_weight=sample_weight)
    return -float(sweep.cost(c_fp, c_fn)[sweep.index_at(1.0)])


def cost_scorer(*, c_fp: float, c_fn: float, pos_label=None):
    """A scikit-learn scorer: minus the cost per case of an estimator's decisions.

    ``scorer(estimator, X, y) == -expected_cost(y, estimator.predict(X), c_fp=c_fp, c_fn=c_fn)``,
    so that higher is better, as scikit-learn's model selection expects. Use it as
    ``scoring=`` in ``cross_val_score``, ``GridSearchCV`` or ``TunedThresholdClassifierCV``
    (which then picks the cutoff of least cost).

    Parameters
    ----------
    c_fp : float
        Price of a false positive; finite, >= 0.
    c_fn : float
        Price of a false negative; finite, >= 0.
    pos_label : optional
        The label that means positive. Default: 1 for labels 0 and 1, -1 and 1 or False and
        True (as scikit-learn's metrics); any other labels (for instance ``"yes"`` and ``"no"``)
        need it, else each call is refused with a sentence (`MSG_POS_LABEL`).

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y, sample_weight=None) -> float``, made by
        ``sklearn.metrics.make_scorer``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]]); y = np.array([0, 0, 1, 1])
    >>> model = LogisticRegression().fit(X, y)
    >>> cost_scorer(c_fp=1, c_fn=5)(model, X, y)
    -0.0
    """
    from sklearn.metrics import make_scorer

    c_fp, c_fn = v.as_price(c_fp, "c_fp"), v.as_price(c_fn, "c_fn")
    return make_scorer(_minus_cost, c_fp=c_fp, c_fn=c_fn, pos_label=pos_label)
