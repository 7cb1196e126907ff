"""A last read (2026-12-07): at separate prices a kept "answer every case" that loses money was drawn
blue, "the best choice at your prices, worth −$0.165 per case", because only the one-price verdict
told `kept_kind` it loses. `kept_kind` now reads the worth kept itself."""

from __future__ import annotations

import numpy as np

from costlib.present.value_verdict import outcome_verdict
from costlib.value.per_outcome import recommend_outcome


def test_a_losing_answer_every_case_stays_red_at_separate_prices():
    rng = np.random.default_rng(0)
    y = rng.random(2000) < 0.5
    p = np.clip(np.where(y, rng.beta(3, 2, 2000), rng.beta(2, 3, 2000)), 0.001, 0.999)
    rec = recommend_outcome(y, {"m": p}, k_fp=2.6, k_fn=2.6, reject_value=-3.0)
    assert rec.kept is not None and rec.kept[1] < 0, rec.kept  # the case the read found
    verdict = outcome_verdict(rec, worth=1.0, unit="$")
    assert verdict.kind == "error", verdict
