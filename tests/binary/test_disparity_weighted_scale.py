"""Weighted rows' disparities do not hang on the weights' scale (review of 64117aa): the exact
own-count intervals read a sum of weights as a count of cases, so weights x 1e-4 (every group's
counts below 1) made every interval [0, 1] and every failure "could be chance", while the same
rows at x 1 or x 1000 read clear. On weighted rows (`Disparities.weighted`) there are no such
intervals, no "too few cases" test, and the caption says so."""

from __future__ import annotations

import numpy as np
import pytest

from costlib.binary.disparity import disparities
from costlib.present.disparity_table import (
    CHANCE_WORDS,
    INTERVAL_WORDS,
    WEIGHTED_WORDS,
    disparity_caption,
    disparity_table,
)

# weighted cells (tp, fp, fn, tn) per group: B misses far more of its positives than A; C is small
CELLS = np.array([[254.5, 77.25, 37.0, 638.0], [150.0, 75.5, 90.25, 613.0], [3.5, 0.0, 0.0, 5.25]])


def _gaps(scale: float, weighted: bool = True):
    c = CELLS * scale
    return disparities(["A", "B", "C"], c[:, 0], c[:, 1], c[:, 2], c.sum(axis=1), c_fp=1.0, c_fn=3.0, weighted=weighted)


def _labels(d):
    return disparity_table(d, "$")["result"].tolist()


def test_the_labels_do_not_move_with_the_weights_scale():
    small, one, large = (_labels(_gaps(s)) for s in (1e-4, 1.0, 1000.0))
    assert small == one == large
    assert "fails" in one and not any("could be chance" in x or "too few" in x for x in one)
    records = [_gaps(s).record("best single cutoff")["largest_failing"] for s in (1e-4, 1.0, 1000.0)]
    assert records[0] == records[1] == records[2] and records[0]["could_be_chance"] is False


def test_unweighted_counts_still_get_their_own_intervals():
    """The same cells read as counts (not weighted) keep the exact intervals: C's 8.75 cases with
    no mistakes still reach into the range."""
    d = _gaps(1.0, weighted=False)
    row = d.table[(d.table["metric"] == "cost per case") & (d.table["group"] == "C")].iloc[0].to_dict()
    assert row["value_high"] > 0 and d.could_be_chance(row)


@pytest.mark.parametrize("scale", [1e-4, 1.0, 1000.0])
def test_weighted_rows_have_no_own_intervals_and_the_caption_says_so(scale):
    d = _gaps(scale)
    assert d.weighted and d.table["value_low"].isna().all() and d.table["value_high"].isna().all()
    assert not any(d.rests_on_few(r) for r in d.table.to_dict("records"))
    caption = disparity_caption(d)
    assert WEIGHTED_WORDS in caption and INTERVAL_WORDS not in caption and CHANCE_WORDS not in caption


def test_an_audit_on_weighted_rows_reads_the_same_at_any_scale_of_the_weights():
    """Through the audit (`shipped_disparities` reads `ModelSweeps.weighted`): a small group "c"
    whose weights, scaled by 1e-4, sum below 1 reads as at x 1 and x 1000."""
    import warnings

    from costlib.answers.audit import build_audit
    from costlib.binary import decision as D

    rng = np.random.default_rng(4)
    n = 900
    y = (rng.random(n) < 0.3).astype(int)
    g = rng.choice(np.array(["a", "b", "c"]), size=n, p=[0.55, 0.42, 0.03])
    s = np.round(np.clip(0.3 * y + 0.7 * rng.random(n) - 0.15 * (g == "b") * y, 0, 1), 3)
    w = rng.integers(1, 9, n).astype(float)
    train = rng.random(n) < 0.5
    seen = []
    for scale in (1e-4, 1.0, 1000.0):
        ms = D.sweep_model(y, s, g, fit=train, judge=~train, sample_weight=w * scale, name="s")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            audit = build_audit(ms, (1, 3), n_resamples=20, criteria=["demographic parity"])
        d = audit.disparities
        assert d.weighted
        seen.append((_labels(d), d.record("rule")["largest_failing"]))
    assert seen[0] == seen[1] == seen[2], seen
