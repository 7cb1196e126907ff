"""The Calibration page's verdict on rescaling, on simulated data: scores that are calibrated
probabilities are never told to rescale (at most 1 of 40 data sets a design), and scores whose
log-odds are three times (or half) the truth's are told to, at prices where the rescaled
probabilities flag differently (at least 36 of 40). Each data set: 1,000 validation rows the
temperature is fitted on and 2,000 test rows it is judged on, true probabilities uniform on
[0.02, 0.98], the label drawn from them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from costlib.answers.calibration import calibration_answer
from costlib.core import rules
from costlib.core.dataset import ColumnMapping
from costlib.loading.preparing import prepare
from costlib.present import words

DATA_SETS = range(100, 140)
SHIPS = words.verdict_head(rules.SHIP)


def _data(seed: int, temperature: float):
    rng = np.random.default_rng(seed)
    n_val, n_test = 1000, 2000
    q = rng.uniform(0.02, 0.98, n_val + n_test)
    y = (rng.random(q.size) < q).astype(int)
    score = 1 / (1 + np.exp(-temperature * np.log(q / (1 - q))))
    df = pd.DataFrame({"y": y, "score": score.round(6), "split": ["validation"] * n_val + ["test"] * n_test})
    mapping = ColumnMapping(label="y", positive=1, scores=["score"], split="split")
    return prepare(df, mapping, name=f"sim{seed}.csv", fingerprint=f"sim{seed}-{temperature}")


def _ships(temperature: float, prices: tuple[float, float]) -> int:
    shipped = 0
    for seed in DATA_SETS:
        answer = calibration_answer(
            _data(seed, temperature), "score", names=[""], costs={"": prices}, worth=1.0, unit="$"
        )
        shipped += answer.at(10).verdict.headline.startswith(SHIPS)
    return shipped


@pytest.mark.parametrize("prices", [(1.0, 2.0), (1.0, 9.0)])
def test_calibrated_scores_are_not_told_to_rescale(prices):
    assert _ships(1.0, prices) <= 1


@pytest.mark.parametrize("temperature", [3.0, 0.5])
def test_over_and_under_confident_scores_are_told_to_rescale(temperature):
    assert _ships(temperature, (1.0, 9.0)) >= 36
