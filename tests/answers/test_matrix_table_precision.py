"""First-time product manager's read of the Cost matrix page (Support tickets sample, 10,000 cases a
month): the headline said "$0.44 per case ($4,400 a month)" and the policies table beneath it
"$0.437 | $4,370" for the same policy, two roundings of one number. The table now says every cost at
the decimals the headline and the tiles say them (the saving's interval's, `matrix_saving`), its
month as theirs (`amounts.month_figure`: the amount as shown times the cases)."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from costlib.answers.matrix import default_matrix, matrix_answer
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present.labels import COST_A_MONTH, COST_PER_CASE


@pytest.fixture(scope="module")
def tickets():
    s = SAMPLES["tickets"]
    return prepare(pd.read_csv(io.BytesIO(sample_bytes("tickets"))), s.mapping, name=s.filename, fingerprint="t")


def _decimals(cell: str) -> int:
    return len(cell.rpartition(".")[2]) if "." in cell else 0


@pytest.mark.parametrize("handover", [1.0, 0.3, None])
def test_the_recommended_row_reads_as_the_headline_and_the_tiles(tickets, handover):
    answer = matrix_answer(
        tickets, default_matrix(tickets.class_names), handover, handover_price=handover or 1.0, unit="$", volume=10_000
    )
    table = answer.table.set_index("policy")
    rec = answer.rec
    per_case, month = (table.loc[rec.policy, c] for c in (COST_PER_CASE, COST_A_MONTH))
    assert f"It costs {per_case} per case ({month} a month)" in answer.verdict.headline, (per_case, month)
    base = table.loc[rec.baseline, COST_PER_CASE]
    tiles = {m["label"]: m for m in answer.metrics}
    assert tiles["Cost per case"]["value"] == per_case and tiles["Best without the model"]["value"] == base
    assert f"{month} a month at 10,000 cases." in tiles["Cost per case"]["help"]
    assert (
        f"{table.loc[rec.baseline, COST_A_MONTH]} a month at 10,000 cases." in tiles["Best without the model"]["help"]
    )
    # one precision for the whole column, "$1.00" not beneath "$0.898"
    assert len({_decimals(x) for x in table[COST_PER_CASE]}) == 1, list(table[COST_PER_CASE])


def test_the_review_s_figures(tickets):
    answer = matrix_answer(
        tickets, default_matrix(tickets.class_names), 1.0, handover_price=1.0, unit="$", volume=10_000
    )
    row = answer.table.set_index("policy").loc["cheapest decision"]
    assert (row[COST_PER_CASE], row[COST_A_MONTH]) == ("$0.44", "$4,400")  # not "$0.437", "$4,370"
    assert "It costs $0.44 per case ($4,400 a month)" in answer.verdict.headline
    without = matrix_answer(tickets, default_matrix(tickets.class_names), 1.0, handover_price=1.0, unit="$")
    assert (
        COST_A_MONTH not in without.table
        and without.table.set_index("policy").loc["cheapest decision", COST_PER_CASE] == "$0.44"
    )
