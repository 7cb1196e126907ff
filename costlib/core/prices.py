"""Prices: the one home of the binary cost formula and of what follows from prices alone.

Every caller that turns counts of mistakes into money goes through here: the sweep, the
decision, the scans where the rows live, the bootstrap, Find my prices and the pages.

- `mistakes_cost`: ``FP * c_fp + FN * c_fn`` (the total price of the mistakes; divide by the
  cases for the cost per case);
- `elkan_threshold` (`elkan_cutoffs` for arrays of prices): the cutoff that prices imply for
  calibrated probabilities, ``c_fp / (c_fp + c_fn)`` (Elkan, 2001);
- `no_model_costs`, `no_model_cost` (vectorised) and `no_model_choice`: the best one can do without a model, flag nobody
  (every positive is missed) or flag everyone (every negative is a false alarm), whichever is
  cheaper, ties to flag nobody;
- `Prices`: one (c_fp, c_fn) pair per group, and `Prices.mean`, the one definition of the
  average price over groups (weighted by each group's cases: the price a random case faces).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from costlib.core import rules as R
from costlib.core import validation as v


def mistakes_cost(fp, fn, c_fp, c_fn):
    """The total price of the mistakes, ``fp * c_fp + fn * c_fn`` (vectorised over any argument).

    The one cost formula: every cost in costlib is this, divided by the cases it is per.

    >>> mistakes_cost(2, 1, 1.0, 3.0)
    5.0
    """
    return fp * c_fp + fn * c_fn


def elkan_threshold(c_fp, c_fn) -> float:
    """Cost-optimal cutoff for calibrated probabilities: c_fp / (c_fp + c_fn).

    Parameters
    ----------
    c_fp : float
        Price of a false positive (flagging a negative case); finite, >= 0.
    c_fn : float
        Price of a false negative (missing a positive case); finite, >= 0.

    Returns
    -------
    float
        The threshold t* in [0, 1]: flag iff p >= t*. NaN when both prices are 0.

    Raises
    ------
    ValueError
        If a price is not a finite number, is negative or is above 1e100.

    Warns
    -----
    DegenerateWarning
        When c_fp + c_fn is 0 (every threshold costs nothing); the threshold is then NaN.

    Examples
    --------
    >>> elkan_threshold(1, 3)
    0.25
    """
    c_fp = v.as_price(c_fp, "c_fp")
    c_fn = v.as_price(c_fn, "c_fn")
    if c_fp + c_fn == 0:
        v.warn_degenerate("c_fp + c_fn is 0: every threshold costs nothing; elkan_threshold is NaN")
        return float("nan")
    return c_fp / (c_fp + c_fn)


def elkan_cutoffs(c_fp: np.ndarray, c_fn: np.ndarray) -> np.ndarray:
    """`elkan_threshold` of every (validated) price pair at once: NaN, without a warning, where
    both prices are 0 (the caller says why).

    >>> elkan_cutoffs(np.array([1.0, 0.0]), np.array([3.0, 0.0])).tolist()
    [0.25, nan]
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(c_fp + c_fn > 0, c_fp / (c_fp + c_fn), np.nan)


def no_model_costs(positives, negatives, c_fp, c_fn):
    """Total cost of flagging nobody and of flagging everyone: ``(positives * c_fn, negatives * c_fp)``.

    >>> no_model_costs(3, 3, 1.0, 3.0)
    (9.0, 3.0)
    """
    return mistakes_cost(0.0, positives, c_fp, c_fn), mistakes_cost(negatives, 0.0, c_fp, c_fn)


def no_model_cost(positives, negatives, c_fp, c_fn, *, axis=None):
    """The cost of the cheaper decision without a model (flag nobody or flag everyone), element by
    element over arrays of counts (one per resample, say); with `axis`, each decision's cost is
    summed over that axis first (the groups, each at its own prices) and the cheaper total taken.
    The one baseline: the scalar readers (`no_model_choice`, `binary.decision.no_model_baseline`)
    agree with it.

    >>> float(no_model_cost(3, 3, 1.0, 3.0))
    3.0
    >>> no_model_cost(np.array([[1, 2], [3, 0]]), np.array([[2, 2], [0, 4]]), np.array([1.0, 2.0]), 3.0, axis=-1)
    array([6., 8.])
    """
    nobody, everyone = no_model_costs(positives, negatives, c_fp, c_fn)
    if axis is not None:
        nobody, everyone = np.sum(nobody, axis=axis), np.sum(everyone, axis=axis)
    return np.minimum(nobody, everyone)


def no_model_choice(nobody, everyone) -> str:
    """The cheaper decision without a model, given the two costs; ties go to flag nobody.

    >>> no_model_choice(1.5, 0.5), no_model_choice(1.0, 1.0)
    ('flag everyone', 'flag nobody')
    """
    return R.EVERYONE if everyone < nobody else R.NOBODY


@dataclass(frozen=True, eq=False)
class Prices:
    """c_fp and c_fn per group, aligned with a `ModelSweeps`' groups."""

    groups: tuple
    c_fp: np.ndarray
    c_fn: np.ndarray

    @property
    def uniform(self) -> bool:
        return bool(np.all(self.c_fp == self.c_fp[0]) and np.all(self.c_fn == self.c_fn[0])) if self.groups else True

    def as_dict(self) -> dict:
        return {g: (float(a), float(b)) for g, a, b in zip(self.groups, self.c_fp, self.c_fn, strict=True)}

    @property
    def scale(self) -> float:
        """The largest price: a cost per case is at most this, so two costs per case tie within
        a relative `sweep.TIE_TOLERANCE` of it (`sweep.tie_tolerance`), whatever the unit."""
        return float(max(np.max(self.c_fp, initial=0.0), np.max(self.c_fn, initial=0.0)))

    def key(self) -> tuple:
        """A hashable identity (for memoising price-dependent results)."""
        return tuple(zip(self.groups, self.c_fp.tolist(), self.c_fn.tolist(), strict=True))

    def mean(self, cases: Sequence[float] | None = None) -> tuple[float, float]:
        """c_fp and c_fn averaged over the groups, weighted by each group's `cases`.

        The one definition of "the average price" (the price a randomly chosen case faces);
        without `cases`, or when they sum to zero, every group counts the same.

        >>> prices_for(("a", "b"), {"a": (1, 3), "b": (3, 1)}).mean([3, 1])
        (1.5, 2.5)
        >>> prices_for(("a", "b"), (0.1, 0.7)).mean([3, 1])  # one price for everyone: that price, exactly
        (0.1, 0.7)
        """
        if self.groups and self.uniform:
            return float(self.c_fp[0]), float(self.c_fn[0])
        w = np.ones(len(self.groups)) if cases is None else np.asarray(cases, dtype=float)
        if w.sum() <= 0:
            w = np.ones_like(w)
        w = w / w.sum()  # shares first: prices times raw counts could overflow
        return float(np.dot(self.c_fp, w)), float(np.dot(self.c_fn, w))


def prices_for(groups: Sequence, costs) -> Prices:
    """The price book for `groups` from ``(c_fp, c_fn)`` (everybody) or ``{group: (c_fp, c_fn)}``."""
    groups = tuple(groups)
    if isinstance(costs, Mapping):
        missing = [g for g in groups if g not in costs]
        if missing:
            raise ValueError(v.MSG_MISSING_GROUP.format(name="costs", group=missing[0], present=list(groups)))
        pairs = [price_pair(costs[g], f"costs[{g!r}]") for g in groups]
    else:
        pair = price_pair(costs, "costs")
        pairs = [pair] * len(groups)
    c_fp = np.array([p[0] for p in pairs], dtype=np.float64)
    c_fn = np.array([p[1] for p in pairs], dtype=np.float64)
    return Prices(groups, c_fp, c_fn)


def price_pair(value, name: str) -> tuple[float, float]:
    """``(c_fp, c_fn)`` from `value`, each checked as a price; `name` is used in the error."""
    try:
        a, b = value
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a (c_fp, c_fn) pair: got {value!r}") from None
    return v.as_price(a, f"{name} c_fp"), v.as_price(b, f"{name} c_fn")
