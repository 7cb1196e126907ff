"""Review: whether the model's best policy is dearer was decided twice on the Cost matrix page, the
tile from the unrounded saving (`rec.saving < 0`), the headline from the saving as shown, so a
saving of −$0.0001 made the tile say "Extra cost a month" beside a headline saying the two tie.
Both now read `matrix_words.matrix_saving`."""

from __future__ import annotations

from types import SimpleNamespace

from costlib.answers.matrix import matrix_metrics
from costlib.present import matrix_words
from costlib.present.page_answers import matrix_verdict

DEARER = SimpleNamespace(  # $0.677 a case against $0.650 without the model
    cost=0.677, baseline_cost=0.650, saving=-0.027, saving_low=-0.078, saving_high=0.023, cheaper_by_chance=[],
    policy="cheapest decision", baseline="always decide x", decisions={},
)  # fmt: skip
# a hair dearer: $0.6500001 against $0.650 reads as a tie at the most decimals an amount is shown at
HAIR = SimpleNamespace(**{**vars(DEARER), "cost": 0.6500001, "saving": -1e-7, "saving_low": -0.05, "saving_high": 0.05})


def _tiles(rec):
    return {m["label"]: m for m in matrix_metrics(rec, unit="$", volume=10_000)}


def test_a_saving_that_reads_as_a_tie_is_a_tie_on_the_tile_and_in_the_headline():
    said = matrix_words.matrix_saving(HAIR)
    assert not said.dearer and said.shown == 0 and HAIR.saving < 0
    headline = matrix_verdict(HAIR, unit="$", volume=10_000).headline
    assert "per case more" not in headline, headline
    tiles = _tiles(HAIR)
    assert matrix_words.EXTRA_A_MONTH not in tiles and matrix_words.SAVING_A_MONTH in tiles, tiles


def test_a_dearer_policy_is_dearer_on_both_with_one_interval():
    said = matrix_words.matrix_saving(DEARER)
    assert said.dearer and (said.low, said.high) == (-0.023, 0.078) and said.exact == 0.027
    headline = matrix_verdict(DEARER, unit="$", volume=10_000).headline
    # at the decimals the interval's width warrants (`amounts.beside_interval`'s `by_width`), and a month as
    # $0.03 per case reads at 10,000 cases (`amounts.month_figure`)
    assert "$300 a month more (95% interval of the extra cost −$0.02 to $0.08)" in headline, headline
    tile = _tiles(DEARER)[matrix_words.EXTRA_A_MONTH]
    assert (tile["value"], tile["delta"]) == ("$300", "95% interval −$200 to $800")
    assert tile["help"] == "What the model costs more per case times 10,000 cases a month."


def test_the_tiles_read_as_before_without_a_volume():
    tiles = {m["label"]: m for m in matrix_metrics(DEARER, unit="$", volume=0)}
    assert tiles["Extra cost a month"]["value"] == "set a volume"
    assert tiles["Extra cost a month"]["help"] == "Set how many cases you decide a month in the sidebar to see this."
    assert tiles["Cost per case"]["help"] == "“cheapest decision” on the test rows."
    assert tiles["Best without the model"]["help"] == "“always decide x”."
