"""What the pages keep on a data set for its price moves (sorted sweeps, deals into folds, resample
draws, kept on the sweeps by `core.keeping.kept_on`) fits the work the server's ledger admitted
the data set with (`loading.budget.work_bytes`): the ledger weighs a prepared data set at its
arrays plus that work and nothing more, so a page that keeps more than it is a session the
server's budget does not see (benchmarks/README.md, "The pages' work per row, again").

Below about 100,000 rows the deals are capped by `folds.SPLIT_BUDGET` entries, not by rows: the
pages keep about 100 MB a score column whatever the size (the README's figure), which a budget per
row does not follow; the rows here are past that."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from costlib import answers
from costlib.answers.audit import dataset_models
from costlib.answers.value import value_answer
from costlib.core.dataset import ColumnMapping
from costlib.core.keeping import kept_on
from costlib.loading.budget import work_bytes
from costlib.loading.ledger import held_bytes
from costlib.loading.preparing import prepare


@dataclasses.dataclass(frozen=True)
class _Rows:
    counts: np.ndarray


def test_held_bytes_counts_what_is_kept_on_a_frozen_dataclass():
    rows = _Rows(np.zeros(10))
    before = held_bytes(rows)
    kept_on(rows, ("deal", 0), lambda: np.zeros(1000))
    assert held_bytes(rows) >= before + 8000


def _data(rows: int):
    rng = np.random.default_rng(0)
    y = (rng.random(rows) < 0.3).astype(np.int8)
    p = 1 / (1 + np.exp(-(1.2 * (2 * y - 1) + rng.normal(0, 1.2, rows))))
    frame = pd.DataFrame({"label": y, "score": p})
    mapping = ColumnMapping(label="label", scores=("score",), score_scale="probability")
    return prepare(frame, mapping, name="rows.csv", fingerprint=f"{rows:064d}")


@pytest.mark.parametrize("rows", [200_000])
def test_costs_and_value_keep_within_the_work_the_data_was_admitted_with(rows):
    ds = _data(rows)
    kept: dict = {}

    def remember(name, key, compute):
        if (name, key) not in kept:
            kept[name, key] = compute()
        return kept[name, key]

    models = dataset_models(ds, remember=remember)
    for c_fn in (3.0, 4.0):  # the first answer, then a price move
        answers.costs_answer(models, {"everyone": (1.0, c_fn)}, resamples=1000, remember=remember)
        for cap in (None, 0.2):  # with a hand-over limit, its own deals are kept beside the others
            a = value_answer(
                ds,
                {"everyone": (1.0, c_fn)},
                names=("everyone",),
                worth=1.0,
                reject_worth=0.0,
                cap=cap,
                remember=remember,
            )
            a.tau_figure(a.rec.model)
    held = held_bytes(kept)
    assert held > 100 * rows  # the sweeps, deals and draws are counted (they are kept on the sweeps)
    assert held <= work_bytes(rows, 1), f"{held / rows:.0f} bytes a row kept, {work_bytes(rows, 1) / rows:.0f} admitted"
