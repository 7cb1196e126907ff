"""Review 74: two ideas of the Value page were each computed in two places, which could drift apart.

The headline's decimals (`shown_gain`): the headline, the outcome headline and the tiles each
called ``shown_saving(rec.value * worth, rec.baseline_value * worth, *gain)``. The month the
limit costs (`limit_month`): the headline (`value_verdict.without_limit_sentence`) and the
limit's box (`value_limit_words.value_capacity_sentence`) each took the difference of two months, at
decimals of their own choosing: where the threshold might gain (not distinguishable from chance),
the headline said its worths at the gain's decimals ("$0.449 per case ($4,490 a month)", "$0.457
per case ($4,570 a month)") while the box said the exact difference, "$75 a month" beside them.
"""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace as R

import pandas as pd
import pytest

from costlib.core.ship import ADDS_NOTHING, SAVES, UNCLEAR, WORSE
from costlib.present import value_limit_words
from costlib.present.value_limit_words import (
    LimitCost,
    gain_clause,
    limit_month,
    said_digits,
    shown_gain,
    threshold_limit_cost,
    value_capacity_sentence,
)
from costlib.present.value_verdict import without_limit_sentence
from costlib.present.value_words import value_metrics

ROOT = Path(__file__).resolve().parents[2]
PRESENT = ROOT / "costlib" / "present"


def _rec(status: str, **over):
    """A recommendation under a binding limit of 1,000 hand-overs a month, built by hand: the threshold
    within the limit worth $0.44903 a case, the best answer without the limit $0.45653."""
    kept = None if status == SAVES else ("answer everything", 0.415)
    fields = dict(
        model="m", models=pd.DataFrame({"model": ["m"], "value": [0.44903]}), value=0.44903, baseline_value=0.415,
        baseline="answer everything", gain=0.034, gain_low=0.020, gain_high=0.049, status=status, kept=kept,
        kept_value=0.415 if kept else 0.44903, estimate="test", judged_on="test", fit_role="train", reject_rate=0.07,
        n_judged=5000, tau=0.6254,
        capacity=R(
            binding=True, fit_reject_rate=0.07, unlimited_fit_reject_rate=0.22, price=0.1, max_reject=0.1,
            unlimited=R(value=0.45653, tau=0.831, model="m"),
        ),
    )  # fmt: skip
    return R(**{**fields, **over})


def _box(rec) -> str:
    return value_capacity_sentence(rec, cap=1000.0, volume=10_000.0, worth=1.0, unit="$")


@pytest.mark.parametrize("status", [SAVES, UNCLEAR])
def test_the_box_says_the_month_at_the_headlines_decimals_whenever_the_headline_says_them(status):
    """Where the threshold might gain, the headline says its worth and the one without the limit at
    the gain's decimals ($4,490 and $4,570 a month): the box's month is their difference, $80, not the
    exact $75 it said beside them."""
    rec = _rec(status)
    month = limit_month(rec, threshold_limit_cost(rec), worth=1.0, volume=10_000.0, unit="$")
    assert month == "$80 a month"
    assert f"worth {month} less than without the limit" in _box(rec)


@pytest.mark.parametrize("status", [WORSE, ADDS_NOTHING])
def test_where_the_headline_says_no_gain_the_month_is_the_exact_difference(status):
    rec = _rec(status)
    assert said_digits(rec, 1.0) is None
    assert "worth $75 a month less than without the limit" in _box(rec)


def test_the_headline_and_the_box_read_the_one_month(monkeypatch):
    """Both sentences take their month from `limit_month` (its one `month_difference`): a month
    changed there changes both, so they cannot drift apart again."""
    monkeypatch.setattr(value_limit_words, "month_difference", lambda *a, **k: "$12,345 a month")
    rec = _rec(SAVES)
    assert "That is $12,345 a month less than" in without_limit_sentence(rec, worth=1.0, unit="$", volume=10_000)
    assert "worth $12,345 a month less than without the limit" in _box(rec)


def test_the_headline_and_the_tiles_read_the_one_decimals(monkeypatch):
    """The tiles say the worths at `shown_gain`'s decimals, as the headline does (`said_digits`)."""
    rec = _rec(SAVES)
    assert shown_gain(rec, 1.0) == (3, 0.034) and said_digits(rec, 1.0) == 3
    monkeypatch.setattr(value_limit_words, "shown_saving", lambda *a, **k: (1, 0.0))
    tiles = value_metrics(rec, worth=1.0, unit="$", volume=10_000.0)
    assert tiles[0]["value"] == "$0.0" and said_digits(rec, 1.0) == 1
    assert "worth $0.5 per case" in without_limit_sentence(rec, worth=1.0, unit="$", volume=10_000)


def _calls(path: Path, name: str) -> list[str]:
    """The functions of `path` that call `name` (a bare name or an attribute)."""
    found = []
    for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(fn, ast.FunctionDef):
            for node in ast.walk(fn):
                if isinstance(node, ast.Call):
                    f = node.func
                    if (isinstance(f, ast.Name) and f.id == name) or (isinstance(f, ast.Attribute) and f.attr == name):
                        found.append(fn.name)
    return found


@pytest.mark.parametrize("module", ["value_words.py", "value_verdict.py", "value_limit_words.py"])
def test_each_idea_is_computed_in_its_one_home(module):
    """No other function of the Value page's words takes the limit's month or the gain's decimals itself."""
    path = PRESENT / module
    assert set(_calls(path, "month_difference")) <= {"limit_month", "gain_month"}  # two months, one home each
    assert set(_calls(path, "shown_saving")) <= {"shown_gain"}


def test_a_month_that_costs_nothing_is_none_and_without_a_volume_a_case():
    rec = _rec(SAVES)
    assert limit_month(rec, LimitCost(0.40, 0.40), worth=1.0, volume=10_000.0, unit="$") is None
    assert limit_month(rec, LimitCost(0.45653, 0.44903), worth=1.0, volume=None, unit="$") == "$0.0075 per case"


def test_the_gain_a_month_is_one_figure_in_the_headline_and_its_tile_at_any_volume():
    """At 12,345 cases the tile read the shown gain times the volume ($235) beside the headline's
    difference of the two months it shows ($234): both now read `gain_month`."""
    rec = _rec(SAVES, value=0.401, baseline_value=0.382, gain=0.019, gain_low=0.010, gain_high=0.030)
    clause = gain_clause(rec, 1.0, "$", 12_345)
    tiles = {t["label"]: t["value"] for t in value_metrics(rec, worth=1.0, unit="$", volume=12_345.0)}
    assert clause.endswith(", $234 a month") and tiles["Gain a month"] == "$234", (clause, tiles)
    # the interval sits beside the per-case gain it is of, not after the month
    assert "a gain of $0.019 per case (95% interval $0.010 to $0.030)" in clause


def test_a_limit_whose_months_read_the_same_costs_nothing_not_zero_a_month():
    """$0.44903 against $0.44930: at the headline's decimals both months read $4,490, so the headline
    does not say "That is $0 a month less"."""
    rec = _rec(SAVES)
    cost = LimitCost(without=0.44930, within=0.44903)
    assert limit_month(rec, cost, worth=1.0, volume=10_000, unit="$") is None
