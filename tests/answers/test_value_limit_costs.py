"""Review 73, the Value page under a limit on the hand-overs.

The headline's "That is $N a month less than the best answer without the limit" is about what the
page says to do, the limit's box's about the confidence threshold within the limit: they are two
quantities of the answer (`threshold_limit_cost`, `answer_limit_cost`). When the verdict keeps a
choice without a confidence threshold (here: keep letting the model answer every case, $0.415),
the headline subtracted from the threshold's worth ($0.414) instead ($425 a month, not $420).
And the month it says is the difference of the two per-case amounts as shown, times the volume: it
read "$75.00 a month less than ... worth $0.457 per case" beside "$0.449", and 0.008 x 10,000 = $80.
"""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest

from costlib.answers.value import value_answer
from costlib.core.ship import SAVES
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present.value_limit_words import LimitCost, answer_limit_cost, threshold_limit_cost

VOLUME = 10_000.0
AVERAGED = {"": (1.0, 3.0)}  # two prices: under a limit, the answer prices both at their average, $2.00

MONTH_LESS = re.compile(r"That is \$([\d,.]+) a month less than the best answer without the limit")
# the worth without the limit, per case and a month, as the headline says its own worth first
WITHOUT = re.compile(r"without the limit, worth \$([\d.]+) per case \(\$([\d,]+) a month\) at this same pricing")
FIRST = re.compile(r"\$([\d.]+) per case \(\$([\d,]+) a month\)")
BOX_LESS = re.compile(r"worth \$([\d,.]+) a month less than without the limit")


@pytest.fixture(scope="module")
def screening():
    s = SAMPLES["screening"]
    return prepare(pd.read_csv(io.BytesIO(sample_bytes("screening"))), s.mapping, name=s.filename, fingerprint="s")


def _answer(ds, cap: float):
    return value_answer(ds, AVERAGED, names=[""], worth=1.0, reject_worth=0.0, unit="$", volume=VOLUME, cap=cap)


def _dollars(text: str) -> float:
    return float(text.replace(",", ""))


def test_the_headline_subtracts_the_limit_from_the_choice_it_keeps(screening):
    """Within 50 hand-overs a month no confidence threshold beats letting the model answer every
    case ($0.415 per case), so the page says to keep doing that: the limit costs that choice
    $0.457 - $0.415 = $0.042 per case, $420 a month, not the threshold's $0.4569 - $0.4144 ($425),
    which the limit's box still speaks of (it is about the threshold)."""
    answer = _answer(screening, 50.0)
    rec = answer.rec
    assert rec.capacity.binding and rec.kept is not None and rec.kept[0] == "answer everything", rec.kept
    assert rec.kept[1] != rec.value  # the case: the kept choice and the threshold are worth different amounts
    assert answer.answer_limit_cost == LimitCost(rec.capacity.unlimited.value, rec.kept[1])
    assert answer.threshold_limit_cost == LimitCost(rec.capacity.unlimited.value, rec.value)

    said = answer.verdict.headline
    month = MONTH_LESS.search(said)
    assert month, said
    unlimited, stated = rec.capacity.unlimited.value, _dollars(month.group(1))
    # the kept choice's cost ($418.75), not the threshold's ($425): it read $425
    assert abs(stated - (unlimited - rec.kept[1]) * VOLUME) < abs(stated - (unlimited - rec.value) * VOLUME), said
    assert "$0.415 per case ($4,150 a month)" in said  # what the page says to do, as the headline states it
    without = WITHOUT.search(said)
    assert without and float(without.group(1)) == pytest.approx(unlimited, abs=5e-4), said
    assert stated == _dollars(without.group(2)) - 4150  # the two months as shown subtract to it

    box = BOX_LESS.search(answer.limit_note)
    assert box, answer.limit_note
    # the threshold's cost, $0.4569 - $0.4144 a case: no per-case amounts beside it, so the month of the
    # difference itself ($425; cut to two digits of the difference it read $430)
    assert _dollars(box.group(1)) == round((unlimited - rec.value) * VOLUME) == 425


@pytest.mark.parametrize("cap", [50.0, 300.0, 1000.0, 2000.0])
def test_the_months_less_are_the_two_months_shown_apart(screening, cap):
    """Whatever the verdict, the month the headline says the limit costs is the difference of the two
    months it shows: its own worth's, said first, and the worth's without the limit, said beside it as
    the headline says its own (review 73's last read: "$0.449 per case ($4,490 a month)" above "$75.00
    a month less than ... worth $0.4569 per case ..., against $0.4494", one worth at two precisions and
    a month that was not $4,569 - $4,490); when the threshold ships, the box says the same month."""
    answer = _answer(screening, cap)
    said = answer.verdict.headline
    month, without, first = MONTH_LESS.search(said), WITHOUT.search(said), FIRST.search(said)
    assert month and without and first, said
    assert _dollars(month.group(1)) == _dollars(without.group(2)) - _dollars(first.group(2)), said
    assert float(without.group(1)) == pytest.approx(answer.rec.capacity.unlimited.value, abs=5e-4)
    assert said.count(f"${first.group(1)} per case") == 1, said  # the headline's own worth is said once
    if answer.rec.status == SAVES:
        box = BOX_LESS.search(answer.limit_note)
        # one month, from one function (`value_limit_words.limit_month`): not within $1 of each other, equal
        assert box and box.group(1) == month.group(1), (said, answer.limit_note)


def test_each_cost_reads_its_own_worth_within_the_limit():
    """The two quantities, on a recommendation built by hand: the threshold's worth (in-sample when
    the answer's is cross-fitted, as the worth without the limit is), and what the verdict keeps,
    whatever the reason it keeps it (not only when the threshold adds nothing)."""
    from types import SimpleNamespace as R

    models = pd.DataFrame({"model": ["m"], "value": [0.30]})
    for status in ("not distinguishable", "worse", "adds nothing"):
        rec = R(
            model="m", value=0.31, estimate="test", status=status, kept=("answer everything", 0.33), models=models,
            capacity=R(unlimited=R(value=0.40)),
        )  # fmt: skip
        assert threshold_limit_cost(rec) == LimitCost(0.40, 0.31)
        assert answer_limit_cost(rec) == LimitCost(0.40, 0.33)
    crossed = R(model="m", value=0.31, estimate="cross-fitted", status=SAVES, kept=None, models=models,
                capacity=R(unlimited=R(value=0.40)))  # fmt: skip
    assert threshold_limit_cost(crossed) == answer_limit_cost(crossed) == LimitCost(0.40, 0.30)
