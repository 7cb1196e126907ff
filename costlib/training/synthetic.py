"""Synthetic controls for training with instance costs: costs the features do (or do not) predict."""

from __future__ import annotations

import numpy as np

from costlib.core import validation as v

SYNTHETIC_N = 5000
SYNTHETIC_FEATURES = 10
SYNTHETIC_KAPPA = 1.0  # cost = exp(kappa * x1) in the predictable control


def synthetic_costs(
    n: int = SYNTHETIC_N,
    *,
    predictable: bool = True,
    n_features: int = SYNTHETIC_FEATURES,
    random_state: int = 0,
    kappa: float = SYNTHETIC_KAPPA,
) -> tuple[np.ndarray, np.ndarray]:
    """(X, delta): a seeded control whose costs are (or are not) predictable from the features.

    Features are independent standard normals x0, x1, ..., x_{p-1} (p >= 3). Where x1 > 0
    (the dear half) the label follows x0; where x1 <= 0 (the cheap half) it follows x2; the
    signed margin before pricing is m = x0 + 0.5 e (dear half) or x2 + 0.5 e (cheap half),
    e standard normal noise. A linear model cannot follow both halves and has to compromise.

    - ``predictable=True``: delta = m * exp(kappa * x1): a case's price grows with x1, which the
      model sees, so cost-aware training can move the compromise towards the dear half (the
      more, the larger `kappa`; 0 prices every case by its margin alone).
    - ``predictable=False``: the same labels (signs) and the same multiset of prices |delta|,
      but the prices are shuffled across rows: independent of the features and the label, so
      pricing can only add noise.

    >>> X, d = synthetic_costs(1000, random_state=0)
    >>> X.shape, bool((d > 0).mean() > 0.4)
    ((1000, 10), True)
    """
    if not v.is_whole(n) or n < 1:
        raise ValueError(f"n must be a positive whole number: got {n!r}")
    if not v.is_whole(n_features) or n_features < 3:
        raise ValueError(f"n_features must be a whole number at least 3: got {n_features!r}")
    if not (isinstance(kappa, (int, float)) and np.isfinite(kappa)):
        raise ValueError(f"kappa must be a finite number: got {kappa!r}")
    rng = np.random.default_rng(v.as_random_state(random_state))
    X = rng.standard_normal((int(n), int(n_features)))
    noise = rng.standard_normal(int(n))
    dear = X[:, 1] > 0
    margin = np.where(dear, X[:, 0], X[:, 2]) + 0.5 * noise
    size = np.abs(margin) * np.exp(kappa * X[:, 1])
    if not predictable:
        size = size[rng.permutation(int(n))]
    return X, np.where(margin > 0, size, -size)
