"""A first-time user's review (2026-12-07): an upload with a 5-case group ("island", 2 negatives,
none wrongly flagged) was told over a ship, in the box read first and in yellow, that "in group
“island” no case that turns out negative is wrongly flagged, while in group “south” some are, which
a common fairness rule of thumb does not allow (0.0% against 21.0%, a small group given the cutoff
for everyone; the four-fifths rule fails, but that could be chance)". A small group's failure that
could be chance and rests on its handful of cases now stays in the disparities table; the headline
does not raise it. A clear failure, or one of a group with cases enough, still is."""

from __future__ import annotations

from types import SimpleNamespace

from costlib.binary.disparity import disparities
from costlib.core import rules as R
from costlib.present.words import said_disparity, small_group_by_chance

SHIP = SimpleNamespace(verdict=R.SHIP)
GROUPS = ["north", "south", "island"]
# (tp, fp, fn, n): north 20 of 100 negatives flagged, south 19 of 91, island 0 of 2
COUNTS = dict(tp=[40, 40, 2], fp=[20, 19, 0], fn=[10, 10, 1], n=[150, 141, 5])


def _d(pooled=("island",), **counts):
    c = {**COUNTS, **counts}
    return disparities(GROUPS, c["tp"], c["fp"], c["fn"], c["n"], c_fp=1.0, c_fn=1.0, pooled=pooled)


def test_a_small_groups_failure_by_chance_is_not_raised_over_a_ship():
    d = _d()
    row = d.largest
    assert row is not None and row["group"] == "island" and d.could_be_chance(row)
    assert small_group_by_chance(d) and said_disparity(SHIP, d) == ""
    assert (d.table["passes"] == False).any()  # noqa: E712 (the table still has it)


def test_the_same_counts_in_a_group_with_its_own_cutoff_are_still_said():
    d = _d(pooled=())
    assert not small_group_by_chance(d)
    assert "island" in said_disparity(SHIP, d)


def test_a_clear_failure_is_still_said():
    # island grown to 600 cases, none of its 300 negatives flagged: not chance
    d = _d(tp=[40, 40, 200], fp=[20, 19, 0], fn=[10, 10, 100], n=[150, 141, 600])
    assert not d.could_be_chance(d.largest) and not small_group_by_chance(d)
    assert "four-fifths rule fails" in said_disparity(SHIP, d)


def test_a_small_groups_chance_failure_never_hides_a_larger_groups():
    """A last read: with a fourth group "mid" (85 cases) failing by chance too, the small group's
    failure, the farthest, was named and then silenced, and mid's with it. Quiet rows come last."""
    groups = ["north", "south", "mid", "island"]
    d = disparities(groups, [40, 40, 20, 2], [20, 19, 8, 0], [10, 10, 5, 1], [150, 141, 85, 5], c_fp=1.0, c_fn=1.0,
                    pooled=("island",))  # fmt: skip
    assert d.largest["group"] == "mid" and not d.quiet(d.largest)
    assert "“mid”" in said_disparity(SHIP, d) and not small_group_by_chance(d)
    only = _d()
    assert only.record("r")["largest_failing"]["raised"] is False  # the JSON says the headline left it out
    assert d.record("r")["largest_failing"]["raised"] is True
