"""The k the Value and Calibration pages use, and the worths in units of a right answer.

k is how much a wrong answer costs in units of what a right one earns: from the price book
(the mean of a false positive's and a false negative's price, each group weighted by its judged
cases) unless the Value slider moved it (`value_k`, `KChoice`), said in words
(`value_k_sentence`, the words being `costlib.present.value_words`'); a handed-over case's worth
and the per-outcome prices in units of a right answer (`reject_value_of`, `worth_unit`,
`outcome_prices`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costlib import value
from costlib.core.dataset import Dataset
from costlib.core.prices import prices_for
from costlib.present import value_words


def judged_cases(ds: Dataset, names: Sequence) -> list[float]:
    """Each group's judged cases (weighted when the data has weights), in the order of `names`.

    The weights the price book's mean gives the groups (`Prices.mean`): the same as the report's
    (a `ModelSweeps`' judged totals).
    """
    if ds.counts_only:
        ms = next(iter(ds.sweeps.values()))
        return [float(ms.judge[g].total) for g in names]
    judge = ds.purpose_rows("judge")
    w = np.ones(int(judge.sum())) if ds.weight is None else np.asarray(ds.weight, dtype=float)[judge]
    if ds.groups is None:
        return [float(w.sum())] * len(names)
    counts = pd.Series(w).groupby(pd.Series(ds.groups[judge], dtype=object)).sum()
    return [float(counts.get(g, 0.0)) for g in names]


@dataclass(frozen=True)
class KChoice:
    """The k a page uses: from the price book (`derived`), unless the Value slider moved it."""

    c_fp: float  # the mean prices behind `derived`
    c_fn: float
    derived: float  # k that follows from the prices (not capped)
    k: float  # the k in use
    moved: bool  # True when `k` is the slider's, not the prices'
    per_group: bool  # True when the prices differ by group (then c_fp and c_fn are their means)


def value_k(costs: Mapping, cases: Sequence[float] | None, worth: float, moved_k, k_max: float) -> KChoice:
    """k = the mean price of a wrong answer over the worth of a right one, at most `k_max`
    (`value.k_from_prices`); `moved_k` (the slider's value, or None) wins when given.

    >>> value_k({"": (1.0, 3.0)}, None, 1.0, None, 20.0).k
    2.0
    """
    prices = prices_for(list(costs), dict(costs))
    c_fp, c_fn = prices.mean(cases)
    derived = value.k_from_prices(c_fp, c_fn, worth) if worth > 0 else k_max
    k = float(moved_k) if moved_k is not None else float(min(derived, k_max))
    return KChoice(c_fp, c_fn, derived, k, moved_k is not None, not prices.uniform)


def value_k_sentence(choice: KChoice, worth: float, unit: str) -> str:
    """Where the Value page's k comes from, in words (`value_words.k_from_prices_sentence`)."""
    return value_words.k_from_prices_sentence(
        c_fp=choice.c_fp,
        c_fn=choice.c_fn,
        derived=choice.derived,
        k=choice.k,
        moved=choice.moved,
        per_group=choice.per_group,
        worth=worth,
        unit=unit,
    )


def reject_value_of(reject_worth: float, worth: float) -> float:
    """A handed-over case's worth in units of a right answer's (0 when a right answer is worth 0)."""
    return reject_worth / worth if worth > 0 else 0.0


def worth_unit(worth: float) -> float:
    """The worth the per-outcome prices are counted in: a right answer's, or 1 when it is set to 0."""
    return float(worth) if worth > 0 else 1.0


def outcome_prices(choice: KChoice, worth: float) -> tuple[float, float]:
    """(k_fp, k_fn): the mean prices of a false positive and a false negative in units of
    `worth_unit(worth)`, the defaults of the per-outcome inputs."""
    unit_worth = worth_unit(worth)
    return float(choice.c_fp / unit_worth), float(choice.c_fn / unit_worth)


def per_outcome_sentence(choice: KChoice, worth: float, unit: str) -> str:
    """What the per-outcome inputs count in (`value_words.per_outcome_prices_sentence`), in the
    worth they are counted in (`worth_unit`)."""
    return value_words.per_outcome_prices_sentence(choice.c_fp, choice.c_fn, worth_unit(worth), unit)
