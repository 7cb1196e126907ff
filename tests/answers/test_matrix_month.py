"""Review 140: the Cost matrix page said per-case figures without their month (the hand-overs, the
policies table, the model's cost under "Do not let the model decide"), the saving a month without
its interval, and its CSV held "$0.898" as text."""

from __future__ import annotations

import io
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from costlib.answers.matrix import default_matrix, matrix_answer, matrix_metrics
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present import matrix_words
from costlib.present.downloads import csv_table
from costlib.present.page_answers import matrix_verdict


@pytest.fixture(scope="module")
def tickets():
    s = SAMPLES["tickets"]
    return prepare(pd.read_csv(io.BytesIO(sample_bytes("tickets"))), s.mapping, name=s.filename, fingerprint="t")


def test_the_hand_overs_are_said_a_month_too(tickets):
    answer = matrix_answer(
        tickets, default_matrix(tickets.class_names), 0.3, handover_price=0.3, unit="$", volume=10_000
    )
    handed = int((answer.rec.decisions[answer.rec.policy] < 0).sum())
    assert handed == 675  # of the 1,499 test rows: 675 / 1,499 x 10,000 = 4,503.0 a month
    assert "It hands 675 of the 1,499 test cases to a person, about 4,503 cases a month." in answer.verdict.headline
    unset = matrix_answer(tickets, default_matrix(tickets.class_names), 0.3, handover_price=0.3, unit="$")
    assert unset.verdict.headline.endswith("It hands 675 of the 1,499 test cases to a person.")


def test_the_policies_table_has_a_month_column_and_its_csv_numbers(tickets):
    c = default_matrix(tickets.class_names)
    answer = matrix_answer(tickets, c, 0.3, handover_price=0.3, unit="$", volume=10_000)
    table = answer.table.set_index("policy")
    assert table.loc["hand every case over", "cost a month"] == "$3,000"  # 0.3 x 10,000
    assert table.loc["hand every case over", "handed over a month"] == "10,000"
    assert table.loc["cheapest decision, or hand over", "handed over a month"] == "4,503"
    csv = csv_table(answer.export)
    assert list(csv.columns) == [
        "policy", "uses the model", "cost per case ($)", "cost a month ($)", "handed over", "handed over a month",
        "accuracy of answers",
    ]  # fmt: skip
    rec = answer.rec.table
    for column in ("cost per case ($)", "cost a month ($)", "handed over", "accuracy of answers"):
        assert pd.api.types.is_numeric_dtype(csv[column]), column  # numbers, never "$0.898"
    np.testing.assert_allclose(csv["cost per case ($)"], rec["cost per case"])
    np.testing.assert_allclose(csv["cost a month ($)"], rec["cost per case"] * 10_000)
    unset = matrix_answer(tickets, c, 0.3, handover_price=0.3, unit="$")
    assert "cost a month" not in unset.table and "cost a month ($)" not in unset.export


def test_the_saving_a_month_carries_its_interval(tickets):
    answer = matrix_answer(
        tickets, default_matrix(tickets.class_names), None, handover_price=1.0, unit="$", volume=10_000
    )
    tile = {m["label"]: m for m in answer.metrics}["Saving a month"]
    rec = answer.rec
    low, high = rec.saving_low * 10_000, rec.saving_high * 10_000
    # each end as the per-case interval reads it (at the saving's decimals), times the cases: to the hundred
    # at two decimals and 10,000 cases (`amounts.month_interval`)
    d = matrix_words.matrix_saving(rec).digits
    shown = [round(x, d) * 10_000 for x in (rec.saving_low, rec.saving_high)]
    assert d == 2 and tile["delta"] == f"95% interval ${shown[0]:,.0f} to ${shown[1]:,.0f}", (d, tile)
    assert tile["delta_arrow"] == "off"
    assert low < rec.saving * 10_000 < high


DEARER = SimpleNamespace(  # the review's file: the model's best policy $0.677 a case against $0.650 without it
    cost=0.677, baseline_cost=0.650, saving=-0.027, saving_low=-0.078, saving_high=0.023, cheaper_by_chance=[],
    policy="cheapest decision", baseline="always decide x", decisions={},
)  # fmt: skip


def test_do_not_let_the_model_decide_says_its_cost_a_month_and_the_interval():
    said = matrix_verdict(DEARER, unit="$", volume=10_000)
    assert said.kind == "error"
    # a month as each per-case amount reads, times 10,000 cases (`amounts.month_figure`): $0.68, not $0.677
    assert "its best policy, “cheapest decision”, costs $0.68 per case ($6,800 a month)" in said.headline
    assert "at $0.65 per case ($6,500 a month)" in said.headline
    # the saving's interval, its ends turned round: -0.027 saved is 0.027 more, (-0.078, 0.023) is (-0.023, 0.078)
    assert said.headline.endswith(
        "The policy costs $0.03 per case more, $300 a month more (95% interval of the extra cost −$0.02 to $0.08)."
    ), said.headline
    tiles = {m["label"]: m for m in matrix_metrics(DEARER, unit="$", volume=10_000)}
    assert tiles["Extra cost a month"]["value"] == "$300"
    assert tiles["Extra cost a month"]["delta"] == "95% interval −$200 to $800"
    assert "$6,800 a month" in tiles["Cost per case"]["help"]


def test_a_tie_says_no_extra_cost():
    tie = SimpleNamespace(**{**vars(DEARER), "cost": 0.650, "saving": 0.0, "saving_low": -0.01, "saving_high": 0.01})
    said = matrix_verdict(tie, unit="$", volume=10_000).headline
    assert said.startswith("Do not let the model decide") and "more" not in said.split("no model,")[1], said
