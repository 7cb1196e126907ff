"""Deciding by group alone, with no model: the no-model choice made group by group.

Without a model one can still treat groups differently: flag everyone in a group whose cases are
mostly worth flagging and nobody in another, or, under a review limit, spend the limit at random
on the groups where a flag pays most. Per-group cutoffs on scores without signal find exactly that,
and save money against one choice for everyone although the scores add nothing (a fairness
reviewer's finding: "ship the model" on random scores with two groups of unequal base rates). So
per-group cutoffs ship only when they are clearly cheaper than this too (`judged_rules.group_alone`,
`decision.Recommendation.held_by_groups`).

Each group g flags a share f_g of its cases at random: its expected cost is
``c_fn P_g + f_g (c_fp N_g - c_fn P_g)``, linear in f_g. Without a limit each group takes the
cheaper end (f_g = 1 when flagging all of it is cheaper, ties: nobody); under a limit of a share c
of all cases it is a fractional knapsack: the groups where a flag saves most per case are flagged
first, in full, until the limit is spent (`shares`).
"""

from __future__ import annotations

import numpy as np


def shares(pos, neg, c_fp, c_fn, capacity: float | None = None) -> np.ndarray:
    """Each group's share flagged at random by deciding by group alone, from its positives `pos`
    and negatives `neg` (arrays whose last axis is the groups: one data set, or resamples by
    groups) at its prices, within `capacity` (a share of all cases; None: no limit).

    >>> shares([20.0, 48.0], [80.0, 52.0], [1.0, 1.0], [3.0, 3.0]).tolist()
    [0.0, 1.0]
    >>> shares([20.0, 48.0], [80.0, 52.0], [1.0, 1.0], [3.0, 3.0], capacity=0.25).tolist()
    [0.0, 0.5]
    """
    pos, neg = np.asarray(pos, dtype=np.float64), np.asarray(neg, dtype=np.float64)
    slope = np.asarray(c_fp, dtype=np.float64) * neg - np.asarray(c_fn, dtype=np.float64) * pos
    if capacity is None or capacity >= 1.0:
        return (slope < 0).astype(np.float64)
    n = pos + neg
    with np.errstate(invalid="ignore", divide="ignore"):
        per_case = np.where(n > 0, slope / np.where(n > 0, n, 1.0), 0.0)
    order = np.argsort(per_case, axis=-1, kind="stable")  # the dearest-to-miss groups first
    n_s, per_s = np.take_along_axis(n, order, axis=-1), np.take_along_axis(per_case, order, axis=-1)
    budget = float(capacity) * n.sum(axis=-1, keepdims=True)
    before = np.cumsum(n_s, axis=-1) - n_s
    with np.errstate(invalid="ignore", divide="ignore"):
        f_s = np.clip((budget - before) / np.where(n_s > 0, n_s, 1.0), 0.0, 1.0)
    f_s = np.where((per_s < 0) & (n_s > 0), f_s, 0.0)
    out = np.empty_like(f_s)
    np.put_along_axis(out, order, f_s, axis=-1)
    return out


def cost(pos, neg, c_fp, c_fn, flagged: np.ndarray) -> np.ndarray:
    """The expected total cost of flagging each group's share `flagged` at random (summed over the
    last axis, the groups).

    >>> float(cost([20.0, 48.0], [80.0, 52.0], [1.0, 1.0], [3.0, 3.0], np.array([0.0, 1.0])))
    112.0
    """
    pos, neg = np.asarray(pos, dtype=np.float64), np.asarray(neg, dtype=np.float64)
    c_fp, c_fn = np.asarray(c_fp, dtype=np.float64), np.asarray(c_fn, dtype=np.float64)
    return (c_fn * pos + flagged * (c_fp * neg - c_fn * pos)).sum(axis=-1)
