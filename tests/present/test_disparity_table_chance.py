"""The disparities table says when a result could be chance (review 56, item 9): "pass" or
"fails" reads the ratio, as ``--fail-if-disparity`` does, and a ratio whose 95% interval reaches
past a line of the pass range says so, as the product words any interval past a line."""

from __future__ import annotations

import pytest

from costlib.answers.audit import build_audit
from costlib.binary.disparity import ratio_passes
from costlib.present.disparity_table import COULD_BE_CHANCE, disparity_caption, disparity_table, result_words
from tests.present.test_report import _model, compas  # noqa: F401 (fixture)


@pytest.fixture(scope="module")
def gaps(compas):  # noqa: F811
    """COMPAS at $1 / $3: the best single cutoff flags Caucasian cases at 0.8 times the rate of
    African-American ones, the interval reaching below 0.8."""
    return build_audit(_model(compas["frame"]), (1, 3), unit="$", n_resamples=200, criteria=()).disparities


def test_a_pass_at_the_line_says_its_interval_reaches_below_it(gaps):
    table = disparity_table(gaps, "$")
    cell = table.query("metric == 'flagged rate' and group == 'Caucasian'")["result"].item()
    row = gaps.table.query("metric == 'flagged rate' and group == 'Caucasian'").iloc[0]
    assert row["passes"] and row["ratio_low"] < 0.8 < row["ratio_high"]  # 0.8003 (0.766 to 0.836) at 1,000 resamples
    assert cell == "pass (could be chance)"  # which line: the caption says what "could be chance" means
    assert not gaps.table.query("metric == 'flagged rate' and group == 'Other'")["passes"].item()
    assert table.query("metric == 'flagged rate' and group == 'Other'")["result"].item() == "fails"  # wholly below


def test_every_result_cell_reads_the_ratio_and_names_the_lines_its_interval_reaches_past(gaps):
    table = disparity_table(gaps, "$")
    for row, cell in zip(gaps.table.to_dict("records"), table["result"], strict=True):
        if row["is_reference"] or row["undefined"]:
            continue
        assert cell.startswith("pass" if ratio_passes(row["ratio"]) else "fails")
        lo, hi = row["ratio_low"], row["ratio_high"]
        if row["passes"]:
            past = [f"below {0.8:.3g}"] * (lo < 0.8) + [f"above {1.25:.3g}"] * (hi > 1.25)
        else:
            past = ([f"above {0.8:.3g}"] if row["ratio"] < 0.8 else [f"below {1.25:.3g}"]) * (hi >= 0.8 and lo <= 1.25)
        expected = COULD_BE_CHANCE.format(result=cell.split(" ")[0]) if past else cell
        assert cell == expected, (row["metric"], row["group"], cell)
    assert any("could be chance" in c for c in table["result"] if c.startswith("fails"))  # FPR, Caucasian: 0.764


def test_a_range_other_than_four_fifths_is_read_by_its_own_lines():
    row = {"passes": True, "ratio": 1.0, "ratio_low": 0.85, "ratio_high": 1.2}
    assert result_words(row, 0.9) == "pass (could be chance)"
    assert result_words({**row, "ratio_low": 0.95, "ratio_high": 1.05}, 0.9) == "pass"


def test_the_caption_says_what_could_be_chance_means(gaps):
    """The cell is short enough for the table at 1400 px ("pass (could be chance)"); the caption
    above the table says what it means once."""
    assert "“could be chance”: the ratio's interval reaches past a line of that range" in disparity_caption(gaps)
