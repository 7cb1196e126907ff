"""Training with instance costs: does pricing each case change the model worth shipping?

Each case carries a signed margin delta: label = delta > 0, price of a mistake = abs(delta). Rows
with delta == 0 carry neither a label nor a cost; they are left out (and counted). The same
model family is trained seven ways and each model is judged on held-out rows by normalized
excess cost (NEC) and error rate:

========== ==============================================================================
standard   ordinary training on the labels
weighted   each row's loss weighted by abs(delta) / mean abs(delta) of the training rows (equal
           costs give weights of exactly 1, hence exactly the standard model)
p_up       within each class, draw as many rows as the class has, with replacement, with
           probability proportional to abs(delta)
tdownK     within each class keep the rows whose abs(delta) is at or above the class's
           (100 - K)th percentile (``numpy.percentile``, linear): the costliest K%
           (K = 30, 50, 70); ties at the cut are all kept
regression regress delta itself (squared error); decide positive iff the prediction > 0
========== ==============================================================================

Seeds. Seed ``s`` draws one 80/10/10 train/validation/test split stratified on the label
(`training_split`), shared by every method of that seed. The validation rows are set aside:
none of the methods uses them (they keep the test rows those of the published protocol).
Random draws come from ``numpy.random.default_rng([random_state, s, stream])`` with stream 0
for the split and 1 for p_up's draw, so seed ``s`` gives the same rows whatever the other
seeds and methods are: a result can be computed, cached and resumed seed by seed.

Decisions: 1[p >= 0.5] for the classifiers (p the predicted probability of the positive
class), 1[delta-hat > 0] for `regression`. The summary over seeds (mean and Student t
interval per method, corrected for the seeds' shared rows) is `costlib.training.summary`; the synthetic controls are
`costlib.training.synthetic` (both importable from here too).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from costlib.core import validation as v
from costlib.core.errors import DataError
from costlib.instance import error_rate, normalized_excess_cost, unit_exponent
from costlib.training.protocol import SPLIT
from costlib.training.summary import t_interval, training_summary  # noqa: F401  (importable from here, as before)
from costlib.training.synthetic import SYNTHETIC_FEATURES, SYNTHETIC_N, synthetic_costs  # noqa: F401  (as before)

METHODS = ("standard", "weighted", "p_up", "tdown30", "tdown50", "tdown70", "regression")
TDOWN = {"tdown30": 30, "tdown50": 50, "tdown70": 70}

MIN_ROWS_PER_CLASS = 10  # so that 10% of a class is at least one row
STREAM_SPLIT, STREAM_P_UP = 0, 1

RESULT_COLUMNS = (
    "method",
    "seed",
    "nec",
    "error_rate",
    "delta_mae",
    "n_fit",
    "n_train",
    "n_validation",
    "n_test",
    "n_zero_delta",
)

# Illegal arguments (ValueError naming the argument).
MSG_METHODS = "methods must be a non-empty sequence of names from {valid}: got {value!r}"
MSG_METHODS_REPEAT = "methods names {value!r} more than once"
MSG_SEEDS = "seeds must be a positive whole number or a sequence of distinct non-negative whole numbers: got {value!r}"
MSG_X_SHAPE = "X must be 2-D (rows x features): got an array of shape {shape}"
MSG_X_EMPTY = "X has no feature columns (shape {shape})"
MSG_X_NONFINITE = "X has {count} values that are not finite (NaN or infinite): first at row {row}, column {col}"
MSG_X_NOT_NUMERIC = "X must hold numbers: got dtype {dtype}"
MSG_ESTIMATOR = (
    "estimator must be None, a classifier, or a dict with keys 'classifier' and/or 'regressor': got {value!r}"
)
MSG_ESTIMATOR_KEYS = "estimator dict may only have the keys 'classifier' and 'regressor': got {keys}"
MSG_NEEDS_REGRESSOR = (
    "estimator is a single classifier, but methods include 'regression', which needs a regressor: pass "
    "estimator={{'classifier': ..., 'regressor': ...}} or leave 'regression' out of methods"
)
MSG_NO_WEIGHTS = (
    "estimator {name} does not accept sample_weight in fit, which method 'weighted' needs: leave "
    "'weighted' out of methods or use an estimator that accepts weights"
)

# Data that cannot be trained on (DataError, a ValueError; `what` names the argument or file).
MSG_ALL_ZERO = "{what} is 0 in all {n} rows: no row has a label or a cost, so there is nothing to train on."
MSG_ONE_CLASS = (
    "{what} is {sign} in all {n} rows{after}: training needs both positive (delta > 0) and negative (delta < 0) rows."
)
MSG_TOO_FEW = (
    "{what} has only {k} {cls} rows{after}; a stratified 80/10/10 split needs at least {need} rows per class so "
    "that the validation and test rows hold both classes. Add rows of that class, or use other data."
)


# ---------------------------------------------------------------------------------------
# Checks


def _check_methods(methods) -> tuple[str, ...]:
    if isinstance(methods, str):
        methods = (methods,)
    try:
        out = tuple(methods)
    except TypeError:
        raise ValueError(MSG_METHODS.format(valid=METHODS, value=methods)) from None
    if not out or any(not isinstance(m, str) or m not in METHODS for m in out):
        raise ValueError(MSG_METHODS.format(valid=METHODS, value=methods))
    repeated = sorted({m for m in out if out.count(m) > 1})
    if repeated:
        raise ValueError(MSG_METHODS_REPEAT.format(value=repeated))
    return out


def _check_seeds(seeds) -> tuple[int, ...]:
    if v.is_whole(seeds):
        if seeds < 1:
            raise ValueError(MSG_SEEDS.format(value=seeds))
        return tuple(range(int(seeds)))
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Iterable):
        raise ValueError(MSG_SEEDS.format(value=seeds))
    out = tuple(seeds)
    if not out or not all(v.is_whole(s) and s >= 0 for s in out) or len(set(out)) != len(out):
        raise ValueError(MSG_SEEDS.format(value=seeds))
    return tuple(int(s) for s in out)


def _check_x(X, n: int):
    """X as a float64 ndarray or CSR matrix with `n` rows and finite values."""
    import scipy.sparse as sp

    if sp.issparse(X):
        X = sp.csr_matrix(X)
        if X.dtype.kind not in "biuf":
            raise ValueError(MSG_X_NOT_NUMERIC.format(dtype=X.dtype))
        X = X.astype(np.float64, copy=False)
        bad = ~np.isfinite(X.data)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            row = int(np.searchsorted(X.indptr, k, side="right") - 1)
            raise ValueError(MSG_X_NONFINITE.format(count=int(bad.sum()), row=row, col=int(X.indices[k])))
    else:
        X = np.asarray(X)
        if X.ndim != 2:
            raise ValueError(MSG_X_SHAPE.format(shape=X.shape))
        if X.dtype.kind not in "biuf":
            raise ValueError(MSG_X_NOT_NUMERIC.format(dtype=X.dtype))
        X = np.asarray(X, dtype=np.float64)
        bad = ~np.isfinite(X)
        if bad.any():
            row, col = np.argwhere(bad)[0]
            raise ValueError(MSG_X_NONFINITE.format(count=int(bad.sum()), row=int(row), col=int(col)))
    if X.shape[1] == 0:
        raise ValueError(MSG_X_EMPTY.format(shape=X.shape))
    if X.shape[0] != n:
        raise ValueError(v.MSG_LENGTH.format(a="X", b="delta", na=X.shape[0], nb=n))
    return X


def check_trainable(delta, *, what: str = "delta") -> np.ndarray:
    """Raise DataError unless `delta` can be trained on; return the mask of rows kept (delta != 0).

    `what` names the data in the sentences ("delta", or 'the delta of "file.csv"'). Training
    needs, after leaving out the rows with delta == 0, both classes with at least
    `MIN_ROWS_PER_CLASS` rows each, so that a stratified 80/10/10 split puts both classes in
    every part.

    >>> check_trainable([1.0] * 10 + [-1.0] * 10 + [0.0]).sum()
    np.int64(20)
    """
    d = v.as_float_1d(delta, "delta")
    keep = d != 0
    n, kept = d.size, int(keep.sum())
    zero = n - kept
    after = f" after leaving out the {zero:,} {'row' if zero == 1 else 'rows'} where it is 0" if zero else ""
    if kept == 0:
        raise DataError(MSG_ALL_ZERO.format(what=what, n=f"{n:,}"))
    pos = int((d > 0).sum())
    neg = kept - pos
    if pos == 0 or neg == 0:
        sign = "negative" if pos == 0 else "positive"
        raise DataError(MSG_ONE_CLASS.format(what=what, sign=sign, n=f"{kept:,}", after=after))
    for k, cls in sorted([(neg, "negative (delta < 0)"), (pos, "positive (delta > 0)")]):
        if k < MIN_ROWS_PER_CLASS:
            raise DataError(MSG_TOO_FEW.format(what=what, k=k, cls=cls, after=after, need=MIN_ROWS_PER_CLASS))
    return keep


# ---------------------------------------------------------------------------------------
# Split and per-method training rows


def seed_rng(random_state: int, seed: int, stream: int) -> np.random.Generator:
    """The generator of one seed's random step: stream 0 = the split, 1 = p_up's draw."""
    return np.random.default_rng([int(random_state), int(seed), int(stream)])


def training_split(y, *, seed: int, random_state: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(train, validation, test) row indices of seed `seed`: 80/10/10, stratified on `y`.

    Within each class (False first, then True) the rows are permuted by
    ``seed_rng(random_state, seed, 0)``; the first round(10%) go to test, the next
    round(10%) to validation (each at least 1), the rest to train. Halves round up. Each
    returned index array is sorted.

    >>> y = [0] * 10 + [1] * 20
    >>> [len(part) for part in training_split(y, seed=0)]
    [24, 3, 3]
    """
    y = v.as_binary(y, "y")
    rng = seed_rng(v.as_random_state(random_state), seed, STREAM_SPLIT)
    parts: list[list[np.ndarray]] = [[], [], []]
    for cls in (False, True):
        idx = np.flatnonzero(y == cls)
        idx = idx[rng.permutation(idx.size)]
        n_test = max(1, math.floor(SPLIT[2] * idx.size + 0.5))
        n_val = max(1, math.floor(SPLIT[1] * idx.size + 0.5))
        parts[2].append(idx[:n_test])
        parts[1].append(idx[n_test : n_test + n_val])
        parts[0].append(idx[n_test + n_val :])
    train, val, test = (np.sort(np.concatenate(p)) for p in parts)
    return train, val, test


def training_rows(method: str, y, cost, *, rng: np.random.Generator | None = None):
    """(rows, sample_weight) that `method` fits on, from training rows with labels `y` and costs.

    `rows` indexes the given training rows (it may repeat rows for p_up); `sample_weight` is
    None except for `weighted`. `cost` is abs(delta) (all > 0). `rng` is used by p_up only.

    >>> rows, w = training_rows("tdown50", [0, 0, 0, 1, 1, 1], [1.0, 2.0, 3.0, 5.0, 4.0, 6.0])
    >>> rows.tolist(), w
    ([1, 2, 3, 5], None)
    >>> training_rows("weighted", [0, 1], [1.0, 3.0])[1].tolist()
    [0.5, 1.5]
    """
    method = _check_methods((method,))[0]
    y = v.as_binary(y, "y")
    c = v.as_float_1d(cost, "cost")
    v.same_length(y, c, "y", "cost")
    all_rows = np.arange(y.size)
    if method in ("standard", "regression"):
        return all_rows, None
    if method == "weighted":
        if c.size and c.max() == c.min():
            return all_rows, np.ones(c.size)  # exactly 1: equal costs give exactly the standard model
        return all_rows, c / c.mean()
    if method == "p_up":
        if rng is None:
            raise ValueError("rng is required for method 'p_up'")
        drawn = []
        for cls in (False, True):
            idx = np.flatnonzero(y == cls)
            if idx.size:
                p = c[idx] / c[idx].sum()
                drawn.append(idx[rng.choice(idx.size, size=idx.size, replace=True, p=p)])
        return np.sort(np.concatenate(drawn)), None
    k = TDOWN[method]
    keep = np.zeros(y.size, dtype=bool)
    for cls in (False, True):
        idx = np.flatnonzero(y == cls)
        if idx.size:
            keep[idx] = c[idx] >= np.percentile(c[idx], 100 - k)
    return all_rows[keep], None


# ---------------------------------------------------------------------------------------
# Estimators


def _default_classifier():
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=1.0, max_iter=1000)


def _default_regressor():
    from sklearn.linear_model import Ridge

    return Ridge(alpha=1.0)


def estimators(estimator, methods: Sequence[str]):
    """(classifier, regressor) prototypes (unfitted; cloned for every fit)."""
    from sklearn.base import is_classifier, is_regressor

    needs_clf = any(m != "regression" for m in methods)
    needs_reg = "regression" in methods
    if estimator is None:
        clf, reg = _default_classifier(), _default_regressor()
    elif isinstance(estimator, dict):
        extra = set(estimator) - {"classifier", "regressor"}
        if extra:
            raise ValueError(MSG_ESTIMATOR_KEYS.format(keys=sorted(map(str, extra))))
        clf = estimator.get("classifier")
        reg = estimator.get("regressor")
        clf = _default_classifier() if clf is None else clf
        reg = _default_regressor() if reg is None else reg
    elif hasattr(estimator, "fit") and not is_regressor(estimator):
        if needs_reg:
            raise ValueError(MSG_NEEDS_REGRESSOR)
        clf, reg = estimator, None
    else:
        raise ValueError(MSG_ESTIMATOR.format(value=estimator))
    if needs_clf and not (hasattr(clf, "fit") and (is_classifier(clf) or hasattr(clf, "predict_proba"))):
        raise ValueError(MSG_ESTIMATOR.format(value=estimator))
    if needs_reg and not hasattr(reg, "fit"):
        raise ValueError(MSG_ESTIMATOR.format(value=estimator))
    if "weighted" in methods and _weight_param(clf) is None:
        raise ValueError(MSG_NO_WEIGHTS.format(name=type(clf).__name__))
    return clf, reg


def _weight_param(est) -> str | None:
    """The fit keyword that passes sample weights to `est` (a Pipeline routes to its last step)."""
    from sklearn.pipeline import Pipeline
    from sklearn.utils.validation import has_fit_parameter

    if isinstance(est, Pipeline):
        name, last = est.steps[-1]
        return f"{name}__sample_weight" if has_fit_parameter(last, "sample_weight") else None
    return "sample_weight" if has_fit_parameter(est, "sample_weight") else None


def _prepared(prototype, random_state: int, seed: int):
    """A fresh clone; any random_state parameter left at None is fixed from (random_state, seed)."""
    from sklearn.base import clone

    est = clone(prototype)
    fixed = {
        k: int(seed_rng(random_state, seed, 2).integers(2**31 - 1))
        for k, val in est.get_params().items()
        if k.endswith("random_state") and val is None
    }
    if fixed:
        est.set_params(**fixed)
    return est


def _positive_decisions(model, X) -> np.ndarray:
    """1[p >= 0.5] for the positive class (decision_function >= 0 without predict_proba)."""
    classes = list(getattr(model, "classes_", [0, 1]))
    if hasattr(model, "predict_proba"):
        p = model.predict_proba(X)[:, classes.index(1)]
        return p >= 0.5
    if hasattr(model, "decision_function"):
        return np.asarray(model.decision_function(X)) >= 0
    return np.asarray(model.predict(X)) == 1


# ---------------------------------------------------------------------------------------
# One (seed, method) task


def _run_one(X, d, train, test, method: str, clf, reg, random_state: int, seed: int) -> dict:
    y_train = (d[train] > 0).astype(np.int64)
    cost_train = np.abs(d[train])
    rng = seed_rng(random_state, seed, STREAM_P_UP) if method == "p_up" else None
    rows, weight = training_rows(method, y_train, cost_train, rng=rng)
    fit_rows = train[rows]
    X_fit = X[fit_rows]
    X_test = X[test]
    d_test = d[test]
    mae = math.nan
    with one_blas_thread():
        if method == "regression":  # on delta over a power of two: exact, and no square overflows at 1e154
            e = unit_exponent(d)
            model = _prepared(reg, random_state, seed).fit(X_fit, np.ldexp(d[fit_rows], -e))
            pred_delta = np.asarray(model.predict(X_test), dtype=np.float64).ravel()
            decisions = pred_delta > 0
            mae = float(np.ldexp(np.mean(np.abs(pred_delta - np.ldexp(d_test, -e))), e))
        else:
            model = _prepared(clf, random_state, seed)
            kwargs = {} if weight is None else {_weight_param(model): weight}
            model.fit(X_fit, y_train[rows], **kwargs)
            decisions = _positive_decisions(model, X_test)
    return {
        "method": method,
        "seed": seed,
        "nec": normalized_excess_cost(decisions, d_test),
        "error_rate": error_rate(decisions, d_test),
        "delta_mae": mae,
        "n_fit": int(fit_rows.size),
    }


def one_blas_thread():
    """One BLAS thread per fit: the comparison runs fits side by side (n_jobs) instead.

    Measured on 2 cores: a small logistic regression took 55 ms with two OpenBLAS threads and
    2.4 ms with one; the tweets' took 0.36 s and 0.12 s. scikit-learn limits BLAS the same
    way inside KMeans. Worker processes are limited by joblib already; this covers n_jobs=1.
    """
    global _CONTROLLER
    if _CONTROLLER is None:  # inspecting the loaded libraries costs ~3 ms: once per process
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=1, user_api="blas")


_CONTROLLER = None


def _parallel(n_jobs, calls):
    from joblib import Parallel, delayed

    return Parallel(n_jobs=n_jobs)(delayed(f)(*a) for f, a in calls)


# ---------------------------------------------------------------------------------------
# Public: the comparison


def compare_training(
    X, delta, *, methods=METHODS, seeds=10, estimator=None, random_state=0, n_jobs=None
) -> pd.DataFrame:
    """Train one model family seven ways with instance costs; judge each by NEC on test rows.

    Parameters
    ----------
    X : array-like of shape (n, p) or scipy sparse matrix
        Features, one row per case.
    delta : array-like of shape (n,)
        Signed margins: label = delta > 0, price of a mistake = abs(delta). Rows with
        delta == 0 are left out (their count is in column ``n_zero_delta``).
    methods : sequence of str, default all seven
        Any of ``METHODS``, in the order wanted in the result.
    seeds : int or sequence of int, default 10
        Number of seeds (seeds 0 .. seeds - 1) or the seed numbers themselves. Seed s gives
        the same rows and models whatever the other seeds are.
    estimator : None, classifier or dict, default None
        None: L2 logistic regression (C = 1, lbfgs) and ridge regression (alpha = 1) for
        ``regression``. A classifier is cloned for every fit of the six classification
        methods; give ``{"classifier": ..., "regressor": ...}`` to set both.
    random_state : int or None, default 0
        Fixes every split and draw (see the module docstring).
    n_jobs : int or None, default None
        Parallel fits (joblib; None = 1, -1 = all cores). The result does not depend on it.

    Returns
    -------
    pandas.DataFrame
        One row per (seed, method), seeds outer: columns ``method, seed, nec, error_rate``,
        ``delta_mae`` (mean abs(delta-hat - delta) on the test rows, `regression` only, else
        NaN), ``n_fit`` (rows the method fitted on, repeats counted), ``n_train``,
        ``n_validation``, ``n_test`` and ``n_zero_delta``.

    Raises
    ------
    ValueError
        Illegal arguments (the message names the argument); `costlib.core.errors.DataError` (a
        ValueError) when delta is 0 everywhere, has one class, or a class has fewer than
        `MIN_ROWS_PER_CLASS` rows.

    Examples
    --------
    >>> X, delta = synthetic_costs(400, random_state=1)
    >>> r = compare_training(X, delta, methods=("standard", "weighted"), seeds=2)
    >>> r[["method", "seed", "n_train", "n_test"]].values.tolist()
    [['standard', 0, 320, 40], ['weighted', 0, 320, 40], ['standard', 1, 320, 40], ['weighted', 1, 320, 40]]
    """
    methods = _check_methods(methods)
    seed_list = _check_seeds(seeds)
    random_state = v.as_random_state(random_state)
    d = v.as_float_1d(delta, "delta")
    X = _check_x(X, d.size)
    clf, reg = estimators(estimator, methods)
    keep = check_trainable(d)
    n_zero = int((~keep).sum())
    if n_zero:
        X, d = X[np.flatnonzero(keep)], d[keep]
    splits = {s: training_split(d > 0, seed=s, random_state=random_state) for s in seed_list}
    calls = [
        (_run_one, (X, d, splits[s][0], splits[s][2], m, clf, reg, random_state, s)) for s in seed_list for m in methods
    ]
    rows = _parallel(n_jobs, calls)
    out = pd.DataFrame(rows)
    sizes = {s: tuple(len(part) for part in splits[s]) for s in seed_list}
    out["n_train"] = [sizes[s][0] for s in out["seed"]]
    out["n_validation"] = [sizes[s][1] for s in out["seed"]]
    out["n_test"] = [sizes[s][2] for s in out["seed"]]
    out["n_zero_delta"] = n_zero
    return out[list(RESULT_COLUMNS)]


def _r2_one(X, d, train, test, reg, random_state: int, seed: int) -> dict:
    # abs(delta) over a power of two (R^2 is the same at any scale): exact, and its sums of
    # squares no longer overflow from about 1e154 (R^2 and its interval read NaN)
    cost = np.ldexp(np.abs(d), -unit_exponent(d))
    with one_blas_thread():
        model = _prepared(reg, random_state, seed).fit(X[train], cost[train])
        pred = np.asarray(model.predict(X[test]), dtype=np.float64).ravel()
    truth = cost[test]
    sst = float(np.sum((truth - truth.mean()) ** 2))
    r2 = 1.0 - float(np.sum((truth - pred) ** 2)) / sst if sst > 0 else math.nan
    return {"seed": seed, "r2": r2}


def cost_predictability(X, delta, *, seeds=10, estimator=None, random_state=0, n_jobs=None) -> pd.DataFrame:
    """How much of abs(delta) the features explain on held-out rows: R^2 per seed.

    For each seed, the regressor (None: ridge regression, alpha = 1) is fitted to abs(delta) on
    that seed's training rows (the same split as `compare_training`) and scored on its test
    rows: R^2 = 1 - sum (abs(delta) - prediction)^2 / sum (abs(delta) - mean)^2 over the test rows
    (below 0 when the fit does worse than the test mean). NaN, with a DegenerateWarning, for
    a seed whose test rows all cost the same.

    Returns a DataFrame with columns ``seed, r2, n_train, n_test``.

    Parameters
    ----------
    X : array-like of shape (n, p) or scipy sparse matrix
        Features, one row per case; finite numbers.
    delta : array-like of shape (n,)
        Signed margins; abs(delta) is the target. Rows with delta == 0 are left out, as in
        `compare_training`.
    seeds : int or sequence of int, default=10
        Number of seeds (seeds 0 .. seeds - 1) or the distinct non-negative seed numbers.
    estimator : regressor, optional
        Any object with ``fit`` and ``predict``; None means ridge regression (alpha = 1).
    random_state : int or None, default=0
        Fixes every split (the same splits as `compare_training` with this random_state).
    n_jobs : int or None, default=None
        Parallel fits (joblib; None = 1, -1 = all cores). The result does not depend on it.

    Returns
    -------
    pandas.DataFrame
        One row per seed, columns ``seed, r2, n_train, n_test``.

    Raises
    ------
    ValueError
        If `seeds` or `random_state` is not valid, `delta` is not 1-D, numeric and finite, `X`
        is not 2-D with finite numbers and as many rows as `delta`, or `estimator` has no
        ``fit``; `costlib.core.errors.DataError` (a ValueError) when delta is 0 everywhere, has one
        class, or a class has fewer than `MIN_ROWS_PER_CLASS` rows.

    Warns
    -----
    DegenerateWarning
        When every test row of a seed has the same abs(delta); that seed's R^2 is NaN.

    Examples
    --------
    >>> X, delta = synthetic_costs(2000, predictable=True, random_state=3)
    >>> bool(cost_predictability(X, delta, seeds=2)["r2"].min() > 0.2)
    True
    """
    seed_list = _check_seeds(seeds)
    random_state = v.as_random_state(random_state)
    d = v.as_float_1d(delta, "delta")
    X = _check_x(X, d.size)
    reg = estimator if estimator is not None else _default_regressor()
    if not hasattr(reg, "fit"):
        raise ValueError(MSG_ESTIMATOR.format(value=estimator))
    keep = check_trainable(d)
    if not keep.all():
        X, d = X[np.flatnonzero(keep)], d[keep]
    splits = {s: training_split(d > 0, seed=s, random_state=random_state) for s in seed_list}
    calls = [(_r2_one, (X, d, splits[s][0], splits[s][2], reg, random_state, s)) for s in seed_list]
    out = pd.DataFrame(_parallel(n_jobs, calls))
    if out["r2"].isna().any():
        bad = out.loc[out["r2"].isna(), "seed"].tolist()
        v.warn_degenerate(f"every test row costs the same in seeds {bad}: R^2 is NaN there")
    out["n_train"] = [len(splits[s][0]) for s in out["seed"]]
    out["n_test"] = [len(splits[s][2]) for s in out["seed"]]
    return out
