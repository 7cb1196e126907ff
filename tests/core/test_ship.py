"""The one ship rule (`core.ship`): a saving per case against the no-model choice, with its 95%
interval, ships only when the whole interval is above zero; a missing (NaN) bound never ships.
Every page's answer reads it: Costs & groups (`decision.recommend`, `decision.rule_verdict`), Value
(`value.recommend_value`), Instance costs (`instance.recommend_nec`) and Cost matrix
(`page_answers.matrix_verdict`)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from costlib.core import rules as R
from costlib.core import ship as S

NAN, INF = math.nan, math.inf
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("saving", "low", "high", "status"),
    [
        (0.2, 0.05, 0.3, S.SAVES),  # the whole interval above zero
        (0.2, 1e-9, 0.3, S.SAVES),
        (0.2, 0.0, 0.3, S.UNCLEAR),  # the interval reaches zero
        (0.2, -0.1, 0.3, S.UNCLEAR),
        (0.2, NAN, NAN, S.UNCLEAR),  # no interval (no resamples, weighted rows): never ship
        (0.2, NAN, 0.3, S.UNCLEAR),
        (0.2, 0.05, NAN, S.UNCLEAR),  # half an interval is no interval
        (0.2, -INF, 0.3, S.UNCLEAR),
        (0.2, INF, INF, S.UNCLEAR),  # not a bound either
        (0.0, 0.05, 0.3, S.WORSE),  # no saving: a tie with the no-model choice
        (-0.1, 0.05, 0.3, S.WORSE),
        (NAN, 0.05, 0.3, S.NO_ANSWER),  # nothing could be valued
        (INF, 0.05, 0.3, S.NO_ANSWER),
    ],
)
def test_the_status_of_a_saving_and_its_interval(saving, low, high, status):
    assert S.saving_status(saving, low, high) == status
    assert S.ship_verdict(saving, low, high) == R.verdict_of(status)
    assert (S.ship_verdict(saving, low, high) == R.SHIP) == (status == S.SAVES)


def test_a_saving_within_the_tolerance_is_a_tie_and_does_not_ship():
    assert S.saving_status(1e-13, 1e-13, 1e-13, tolerance=1e-12) == S.WORSE
    assert S.saving_status(2e-12, 1e-13, 3e-12, tolerance=1e-12) == S.SAVES
    assert S.ship_verdict(1e-13, 1e-13, 1e-13, tolerance=1e-12) == R.DO_NOT


def test_no_missing_bound_ships_whatever_the_numbers():
    for saving in (1e-300, 0.1, 1.0, 1e100):
        for low, high in ((NAN, NAN), (NAN, saving), (saving / 2, NAN)):
            assert S.ship_verdict(saving, low, high) != R.SHIP


def test_every_page_answer_decides_through_the_rule():
    """Costs & groups, Value, Instance costs and Cost matrix call the rule (they used to write it four times)."""
    for path in ("binary/decision.py", "value/recommendation.py", "instance.py", "present/page_answers.py"):
        text = (ROOT / "costlib" / path).read_text(encoding="utf-8")
        assert "saving_status(" in text or "ship_verdict(" in text, path
