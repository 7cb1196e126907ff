"""How far the Value page's shipped pair of thresholds moves with the rows (`value.per_outcome.
refit_spread`), which its cross-fitted gain cannot follow: the weighted sweep held against refitting
on the repeated rows, and the interval it widens held to its coverage on simulated data (issue 43,
`benchmarks/README.md`, "The Value page at separate prices")."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.binary.refit_moves import best_prefixes
from costlib.value import per_outcome
from costlib.value.per_outcome import fit_outcome_thresholds, outcome_row_values, outcome_sweep


def resample_worths(y, p, counts: np.ndarray, *, k_tp: float, k_fp: float, k_fn: float, r: float) -> np.ndarray:
    """Per row of `counts` (how often each row was drawn into a resample), the worth per case on
    all the rows of the two thresholds fitted on that resample, by the kernel `refit_spread` prices
    its draws with (`refit_moves.best_prefixes` over each answer's levels, the rows drawn so often)."""
    counts = np.atleast_2d(np.asarray(counts, dtype=np.float64))
    total = np.zeros(counts.shape[0])
    worths = ((k_tp - r, -(k_fp + r)), (1.0 - r, -(k_fn + r)))
    for side, (good, bad) in zip(outcome_sweep(y, p).sides, worths, strict=True):
        if not side.rows.size:
            continue
        drawn = counts[:, side.rows]
        size = side.conf.size
        drawn_right = np.stack([np.bincount(side.level, weights=c * side.right, minlength=size) for c in drawn])
        drawn_wrong = np.stack([np.bincount(side.level, weights=c * ~side.right, minlength=size) for c in drawn])
        all_rows = np.r_[0.0, np.cumsum(side.right_n * good + side.wrong_n * bad)]
        total += all_rows[best_prefixes(drawn_right, drawn_wrong, good, bad)]
    return r + total / max(np.asarray(y).size, 1)


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(1, 40),
    seed=st.integers(0, 2**32 - 1),
    k_tp=st.sampled_from([1.0, 0.5, 2.0]),
    k_fp=st.integers(0, 6),
    k_fn=st.integers(0, 12),
    r=st.sampled_from([0.0, 0.5, -1.0]),
    levels=st.sampled_from([3, 11, 1000]),
)
def test_each_resample_is_worth_what_refitting_on_its_repeated_rows_gives(n, seed, k_tp, k_fp, k_fn, r, levels):
    """Prices in halves keep every sum exact, so the weighted sweep and the refit on the repeated
    rows must pick the same thresholds (ties to accepting fewer in both); the worths then agree
    to the last bits of one division."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    p = np.round(rng.random(n) * (levels - 1)) / (levels - 1)  # few levels: ties
    prices = {"k_tp": k_tp, "k_fp": float(k_fp), "k_fn": float(k_fn), "r": r}
    counts = rng.poisson(1.0, (4, n))
    got = resample_worths(y, p, counts, **prices)
    for b in range(4):
        drawn = np.repeat(np.arange(n), counts[b])
        t_pos, t_neg = fit_outcome_thresholds(y[drawn], p[drawn], **prices)
        assert np.isclose(got[b], outcome_row_values(y, p, t_pos, t_neg, **prices)[0].mean(), rtol=1e-12, atol=1e-12)


def _coverage(honest_bench, n, auc, c_fn, seeds):
    gain, low, high, truth, _ = zip(*honest_bench.judge_outcome(n, auc, 1.0, c_fn, seeds), strict=True)
    low, high, truth = np.array(low), np.array(high), np.array(truth)
    return int(np.sum((low <= truth) & (truth <= high)))


def test_without_signal_the_interval_holds_the_shipped_pairs_truth(honest_bench):
    """No signal at 1:10, 2,000 rows: the shipped pair accepts a spurious handful of answers, truly
    worth less than handing over. Read off the rows alone the interval held that truth in 86 of
    100 data sets (seeds 0-99); with how far the pair moves with the rows, 96 (the benchmark's
    1,000 data sets: README)."""
    assert _coverage(honest_bench, 2000, 0.5, 10.0, range(100)) >= 91


def test_with_a_split_the_rule_is_fixed_and_nothing_is_added(monkeypatch):
    """Judged on test rows the thresholds are fixed: the interval is the judged rows' own, and
    no resample is drawn."""
    rng = np.random.default_rng(3)
    y, p = rng.random(600) < 0.3, rng.random(600)
    monkeypatch.setattr(per_outcome, "refit_spread", lambda *a, **k: (_ for _ in ()).throw(AssertionError("drawn")))
    rec = per_outcome.recommend_outcome(
        y[300:], {"m": p[300:]}, y_fit=y[:300], fit_scores={"m": p[:300]}, k_fp=1.0, k_fn=10.0
    )
    assert rec.estimate == "test"


def test_a_negative_price_is_refused_not_priced():
    """The spec: a price below 0 raises ValueError. k_fp = -1 was priced and read "worse"."""
    import pytest

    y, p = np.array([1, 0] * 20, dtype=bool), np.linspace(0.0, 1.0, 40)
    with pytest.raises(ValueError, match="k_fp"):
        per_outcome.recommend_outcome(y, {"m": p}, k_fp=-1.0, k_fn=3.0)
