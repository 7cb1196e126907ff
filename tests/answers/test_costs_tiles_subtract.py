"""Costs & groups' four tiles subtract as they read (a reviewer found "$0.249 - $0.131" beside a
saving of "$0.119", and "$2.12" twice beside "$0.0082"), and a model that costs more says so
rather than "would save −$0.033"; the verdict's sentence reads the same figures."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from costlib.answers.costs import costs_metrics
from costlib.core import rules as R
from costlib.core.ship import SAVES, UNCLEAR, WORSE
from costlib.present.words import recommendation_verdict


def _rec(cost, baseline_cost, *, ship, status=SAVES):
    overall = pd.DataFrame({"flagged_rate": [0.3]}, index=[R.SINGLE])
    return SimpleNamespace(
        baseline="flag nobody", rule=R.SINGLE, results=SimpleNamespace(overall=overall), estimate="test",
        capacity=None, ship_model=ship, cost=cost, baseline_cost=baseline_cost, saving=baseline_cost - cost,
        status=status,
    )  # fmt: skip


def _amount(text: str) -> float:
    return float(text.replace("$", "").replace("\u2212", "-").replace(",", ""))


@pytest.mark.parametrize(
    ("cost", "baseline"),
    [(0.1308, 0.2493), (2.1234, 2.1316), (0.5449, 0.5781), (0.4, 0.9), (1.6357, 1.6338)],
)
def test_the_saving_tile_is_the_difference_of_the_two_cost_tiles_as_shown(cost, baseline):
    model, without, per_case, month = costs_metrics(_rec(cost, baseline, ship=True), unit="$", volume=1500)
    assert model["value"] != without["value"]  # two different costs never read the same
    shown = _amount(without["value"]) - _amount(model["value"])
    sign = -1 if "costs more" in per_case["label"] else 1
    assert _amount(per_case["value"]) * sign == pytest.approx(shown, abs=1e-9), (model, without, per_case)


def test_a_model_that_costs_more_says_so_instead_of_a_saving_below_zero():
    _, _, per_case, month = costs_metrics(_rec(0.578, 0.545, ship=False, status=WORSE), unit="$", volume=10_000)
    assert per_case["label"] == "The model costs more per case" and per_case["value"] == "$0.033"
    assert month["label"] == "The model costs more a month" and month["value"] == "$330"
    assert "\u2212" not in per_case["value"] + month["value"]


def test_the_verdict_says_the_tiles_figures():
    from costlib.binary import decision as D

    rng = np.random.default_rng(3)
    y = rng.random(3000) < 0.3
    s = np.clip(rng.normal(0.3 + 0.3 * y, 0.2), 0, 1)
    rec = D.recommend(D.sweep_model(y, s, None), (1, 3), n_resamples=200)
    assert rec.ship_model
    model, without, per_case, _ = costs_metrics(rec, unit="$", volume=1500)
    said = recommendation_verdict(rec, unit="$", volume=1500).headline
    assert f"It costs {model['value']} per case" in said and f"saves {per_case['value']} per case" in said
    assert _amount(without["value"]) - _amount(model["value"]) == pytest.approx(_amount(per_case["value"]), abs=1e-9)


def test_a_saving_whose_interval_reaches_zero_is_what_the_model_might_save():
    """Beneath "Not clearly better: keep flagging everyone", a tile reading "The model would save a
    month $158.73" in the page's largest type was read as a reason to ship (review 57)."""
    _, _, per_case, month = costs_metrics(_rec(0.529, 0.545, ship=False, status=UNCLEAR), unit="$", volume=10_000)
    assert per_case["label"] == "The model might save per case" and month["label"] == "The model might save a month"
    assert "Not a saving you can count on" in per_case["help"]
    _, _, per_case, _ = costs_metrics(_rec(0.529, 0.545, ship=True), unit="$", volume=10_000)
    assert per_case["label"] == "The model saves per case"


def test_the_saving_shown_is_also_the_saving_rounded_on_its_own():
    """'$1.115 - $0.853 = $0.262' beside a table's $0.263 and $2,625.32 a month at 10,000 cases
    (review 57): the amounts take one more decimal when their shown difference and the saving
    rounded on its own would differ."""
    model, without, per_case, month = costs_metrics(_rec(0.85277, 1.1153, ship=True), unit="$", volume=10_000)
    assert (without["value"], model["value"], per_case["value"]) == ("$1.1153", "$0.8528", "$0.2625")
    assert month["value"] == "$2,625"  # a month: whole units (`amounts.month_money`)
