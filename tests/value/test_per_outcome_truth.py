"""The truth `benchmarks/honest.py --outcome-simulate` judges the Value page's per-outcome answer
against (`honest.outcome_worth`, `outcome_baseline`): the exact worth per case of two thresholds on
the binormal design, read against the mean worth of the same thresholds on many fresh rows
(`value.per_outcome.outcome_row_values`), and the simulation's entries on a few seeds."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import ndtr

from costlib.binary.simulation import Design
from costlib.value.per_outcome import outcome_row_values


@pytest.mark.parametrize(
    ("auc", "c_fn", "taus"),
    [(0.5, 3.0, (0.6, 0.7)), (0.96, 10.0, (0.55, 0.97)), (0.7, 10.0, (-np.inf, np.inf)), (0.7, 3.0, (np.inf, 0.5))],
)
def test_the_exact_worth_is_what_fresh_rows_are_worth(honest_bench, auc, c_fn, taus):
    design = Design(400_000, auc, 0.3)
    y, s, _ = design.draw(7)
    rows, _ = outcome_row_values(y, ndtr(s - design.d / 2), *taus, k_tp=1.0, k_fp=1.0, k_fn=c_fn, r=0.0)
    exact = honest_bench.outcome_worth(design.d, 0.3, *taus, k_fp=1.0, k_fn=c_fn)
    assert abs(exact - rows.mean()) < 4.5 * rows.std() / np.sqrt(rows.size)


def test_without_signal_handing_over_is_the_true_baseline_and_the_gain_never_positive(honest_bench):
    assert honest_bench.outcome_baseline(0.0, 0.3, k_fp=1.0, k_fn=10.0) == 0.0
    for gain, low, high, truth, ships in honest_bench.judge_outcome(300, 0.5, 1.0, 10.0, range(3)):
        assert truth <= 0.0 and low <= gain <= high and not ships
