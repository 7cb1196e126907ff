"""The Cost matrix page's answer object: one call gives the verdict, metrics and table, and its
heatmaps (drawn on request) add up to the recommendation they illustrate."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from costlib.answers.matrix import MatrixAnswer, default_matrix, matrix_answer
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes


@pytest.fixture(scope="module")
def tickets():
    s = SAMPLES["tickets"]
    return prepare(pd.read_csv(io.BytesIO(sample_bytes("tickets"))), s.mapping, name=s.filename, fingerprint="t")


def _heat_sum(fig) -> float:
    return float(np.nansum(np.asarray(fig.data[0].z, dtype=float)))


@pytest.mark.parametrize("abstain", [None, 0.3])
def test_the_heatmaps_add_up_to_the_cost_of_the_policy_they_show(tickets, abstain):
    """Each cell of the cost heatmap is a share of the cost per case: with the cases handed over
    priced apart, the cells sum to the policy's cost per case, and the confusion counts to the
    judged cases not handed over."""
    c = default_matrix(tickets.class_names)
    answer = matrix_answer(tickets, c, abstain, handover_price=0.3, unit="EUR", volume=1000)
    assert isinstance(answer, MatrixAnswer)
    rec = answer.rec
    for policy in answer.policies_with_model:
        decided = rec.decisions[policy]
        confusion_fig, cost_fig, caption = answer.heatmaps(policy)
        handed = int((decided < 0).sum())
        assert _heat_sum(confusion_fig) == decided.size - handed
        cost = float(rec.table.set_index("policy").loc[policy, "cost per case"])
        assert _heat_sum(cost_fig) + handed * 0.3 / decided.size == pytest.approx(cost)
        assert f"({handed:,})" in caption


def test_the_answer_reads_the_unit_and_volume_it_was_given(tickets):
    c = default_matrix(tickets.class_names)
    monthly = matrix_answer(tickets, c, None, handover_price=1.0, unit="EUR", volume=1000)
    unset = matrix_answer(tickets, c, None, handover_price=1.0, unit="EUR", volume=0)
    saving = {m["label"]: m["value"] for m in monthly.metrics}["Saving a month"]
    assert "EUR" in saving
    assert {m["label"]: m["value"] for m in unset.metrics}["Saving a month"] == "set a volume"
    assert "EUR a month" in monthly.verdict.headline
    assert "a month" not in unset.verdict.headline


def test_a_handover_price_too_high_to_use_hands_nobody_over(tickets):
    c = default_matrix(tickets.class_names)
    answer = matrix_answer(tickets, c, 50.0, handover_price=50.0)
    assert all((answer.rec.decisions[p] >= 0).all() for p in answer.policies_with_model)
    assert set(answer.table["policy"]) == set(answer.rec.table["policy"])


def test_the_interval_in_the_answer_says_it_is_the_savings_and_sits_beside_it(tickets):
    """'saves $0.465 per case ... against “always decide security”, the cheapest choice without a
    model (95% interval $0.380 to $0.550)' read as an interval of that choice's cost (review 55)."""
    answer = matrix_answer(tickets, default_matrix(tickets.class_names), None, handover_price=1.0, unit="$")
    headline = answer.verdict.headline
    assert headline.startswith("Ship the model: use the policy")
    assert "(95% interval of the saving $" in headline and "model (95% interval $" not in headline


def test_the_two_costs_and_the_saving_subtract_as_they_read(tickets):
    c = default_matrix(tickets.class_names)
    for abstain in (None, 0.3, 0.9):
        answer = matrix_answer(tickets, c, abstain, handover_price=abstain or 1.0, unit="$")
        tiles = {m["label"]: float(m["value"].lstrip("$")) for m in answer.metrics if m["value"].startswith("$")}
        saving = float(answer.verdict.headline.split("saves $", 1)[1].split(" ", 1)[0])
        assert tiles["Best without the model"] - tiles["Cost per case"] == pytest.approx(saving, abs=1e-9)


def test_costs_that_round_apart_from_their_saving_are_shown_at_the_decimals_it_needs():
    """$0.249 - $0.131 read beside a saving of $0.119 (0.2494 - 0.1306 = 0.1188) on Costs & groups;
    the matrix's answer and tiles take the same care."""
    from types import SimpleNamespace

    from costlib.answers.matrix import matrix_metrics
    from costlib.present.page_answers import matrix_verdict

    rec = SimpleNamespace(
        cost=0.1306, baseline_cost=0.2494, saving=0.1188, saving_low=0.09, saving_high=0.15, cheaper_by_chance=[],
        policy="cheapest decision", baseline="always decide billing", decisions={},
    )  # fmt: skip
    tiles = {m["label"]: m["value"] for m in matrix_metrics(rec, unit="$", volume=0)}
    said = matrix_verdict(rec, unit="$").headline
    # $0.249 - $0.131 = $0.118 subtracts as it reads; its interval ($0.09 to $0.15) warrants no more
    # decimals, so the saving's own rounding ($0.119) is not chased past them (`amounts.shown_saving`)
    assert (tiles["Cost per case"], tiles["Best without the model"]) == ("$0.131", "$0.249")
    assert "It costs $0.131 per case and saves $0.118 per case" in said, said


@pytest.mark.parametrize("abstain", [None, 0.3])
def test_the_heatmaps_open_on_the_recommended_policy_and_read_money(tickets, abstain):
    """A reviewer found the heatmaps on "most probable class" beneath a verdict that hands 675 cases
    over, and cost cells as bare numbers ("0.000667")."""
    answer = matrix_answer(tickets, default_matrix(tickets.class_names), abstain, handover_price=0.3, unit="$")
    first, *rest = answer.policies_with_model
    assert first == answer.rec.policy and answer.rec.policy not in rest
    assert answer.policy_option(first) == f"{first} (recommended)"
    assert all(answer.policy_option(p) == p for p in rest)
    _, cost_fig, _ = answer.heatmaps(first)
    cells = [t for row in cost_fig.data[0].text for t in row]
    assert all(t.startswith("$") for t in cells), cells


def test_a_shipped_policy_on_a_sample_names_the_sample_in_its_headline(tickets):
    """Review 63: /matrix?data=compas answered for the built-in tickets sample and said "Ship the model
    with the policy “cheapest decision”. It costs ..." with no word of the sample: `on_sample` names it
    after the verdict's words and a colon, which that headline lacked."""
    from costlib.present.words import on_sample

    answer = matrix_answer(tickets, default_matrix(tickets.class_names), None, handover_price=1.0, unit="$")
    shown = on_sample(answer.verdict, "Support tickets (3 classes)").headline
    assert shown.startswith("Ship the model: on the built-in sample “Support tickets (3 classes)”, not your data, use")
