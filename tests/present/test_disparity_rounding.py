"""A ratio is never shown on a line of the pass range it is not on (fairness review: "1.25 (0.877
to 1.68) — fails" for 1.2547, "0.8 (0.766 to 0.836) — pass" for 0.80035): one helper
(`ratio_shown`) for the table's ratios and interval ends and for the headline's sentence."""

from __future__ import annotations

import math

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from costlib.binary.disparity import COLUMNS, Disparities, ratio_passes
from costlib.present import words
from costlib.present.disparity_table import disparity_table, ratio_shown


def _gaps(*rows, threshold=0.8) -> Disparities:
    out = []
    for group, ratio, low, high in rows:
        out.append(
            {
                "metric": "cost per case",
                "group": group,
                "value": 0.3 * ratio,
                "reference_value": 0.3,
                "ratio": ratio,
                "ratio_low": low,
                "ratio_high": high,
                "difference": 0.3 * ratio - 0.3,
                "difference_low": math.nan,
                "difference_high": math.nan,
                "passes": ratio_passes(ratio, threshold),
                "pooled": False,
                "is_reference": False,
                "undefined": "",
            }
        )
    table = pd.DataFrame(out, columns=COLUMNS)
    table["passes"] = table["passes"].astype(object)
    return Disparities("best single cutoff", "ref", "largest", threshold, table)


def test_the_table_shows_the_digits_that_keep_a_ratio_off_the_line():
    d = _gaps(
        ("up", 1.2547, 0.877, 1.68), ("down", 0.80035, 0.766, 0.836), ("on", 1.25, 1.1, 1.4), ("far", 3.72, 0.854, 8.05)
    )
    cells = disparity_table(d, "$").set_index("group")
    assert cells.loc["up", "ratio"] == "1.255 (0.877 to 1.680)"  # 1.2547 fails: never "1.25"
    assert cells.loc["up", "result"] == "fails (could be chance)"
    assert cells.loc["down", "ratio"] == "0.8004 (0.7660 to 0.8360)" and cells.loc["down", "result"].startswith("pass")
    assert cells.loc["on", "ratio"] == "1.25 (1.10 to 1.40)"  # exactly on the line: shown as it
    assert cells.loc["far", "ratio"] == "3.72 (0.85 to 8.05)"  # three significant digits, the ends at its decimals
    ends = disparity_table(_gaps(("x", 0.7, 0.61, 0.79996)), "$")["ratio"].item()
    assert ends == "0.700 (0.610 to 0.79996)"  # an interval end too: it says whether the result could be chance


def test_the_sentence_shows_the_same_digits():
    s = words.disparity_sentence(_gaps(("g", 1.2547, 1.26, 1.3)), "$")
    assert "1.255 times" in s and "1.25 times" not in s, s
    s = words.disparity_sentence(_gaps(("g", 0.79996, 0.7, 0.79999)), "$")
    assert "0.79996 times" in s, s
    assert "1.30 times" in words.disparity_sentence(_gaps(("g", 1.3, 1.26, 1.4)), "$")  # two decimals, as before


def test_another_threshold_keeps_ratios_off_its_lines_as_the_caption_writes_them():
    assert ratio_shown(1.1112, 0.9) == "1.1112"  # fails [0.9, 1.111...]: not "1.11" (the caption's line)
    assert ratio_shown(1.1105, 0.9) == "1.111"  # passes: below the line 1.1111


@given(
    st.sampled_from([0.8, 0.9, 0.5]),
    st.sampled_from([0, 1]),
    st.floats(-1e-3, 1e-3, allow_nan=False),
    st.sampled_from([None, "two decimals"]),
)
def test_a_shown_ratio_is_on_the_side_of_each_line_the_ratio_is(threshold, which, step, first):
    line = (threshold, 1 / threshold)[which]
    ratio = line * (1 + step)
    text = ratio_shown(ratio, threshold, None if first is None else f"{ratio:.2f}")
    shown = float(text)
    if abs(ratio - line) <= 1e-12 * line:
        assert shown == float(f"{line:.3g}") or shown == line
        return
    for edge in (threshold, 1 / threshold):
        if abs(ratio - edge) > 1e-12 * edge:
            assert shown != edge and text != f"{edge:.3g}" and (shown < edge) == (ratio < edge), (ratio, text)
    assert ratio_passes(shown, threshold) == ratio_passes(ratio, threshold)
