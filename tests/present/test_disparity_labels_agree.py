"""The disparities table's labels agree with the numbers beside them (fairness review: tiny2.csv's
"flagged rate | tiny (small group) | 0.0% | 8 | 0.00 (0.00 to 0.00) | fails (could be chance)",
a zero-width interval called chance, and tiny.csv's "false positive rate | B | 688 | 1.02 (0.77
to 1.38) | pass (too few cases)", 688 negatives called too few). The rule: a result "could be
chance" when its ratio's interval, as shown, reaches past a line of the pass range, and that
interval holds the group's own counts' exact one; "too few cases" when the group's own counts
(its "out of" and the events among them), against the reference group's value as it is, fit a
failure either way."""

from __future__ import annotations

import numpy as np

from costlib.binary.disparity import disparities, lines_crossed
from costlib.present import words
from costlib.present.disparity_table import INTERVAL_WORDS, disparity_caption, disparity_table


def _gaps(cells, seed, groups, resamples=200, c_fp=1.0, c_fn=3.0):
    rng = np.random.default_rng(seed)
    cells = np.asarray(cells, dtype=np.float64)
    n = cells.sum(axis=1)
    draws = np.stack(
        [rng.multinomial(int(n[g]), cells[g] / n[g], size=resamples) for g in range(len(n))], axis=1
    ).astype(np.float64)
    b = (draws[..., 0], draws[..., 1], draws[..., 2], n)
    return disparities(list(groups), cells[:, 0], cells[:, 1], cells[:, 2], n, c_fp=c_fp, c_fn=c_fn, draws=b)


def _cell(d, metric, group, column="result"):
    return disparity_table(d, "$").set_index(["metric", "group"]).loc[(metric, group), column]


# tiny2.csv under per-group cutoffs (tp, fp, fn, tn): A 992, B 1,000, tiny 8 never flagged
TINY2 = [[287, 27, 11, 667], [255, 17, 23, 705], [0, 0, 2, 6]]
# tiny.csv under one cutoff: A 1,006, B 986, t 8 with no mistakes
TINY = [[254, 77, 37, 638], [282, 75, 16, 613], [3, 0, 0, 5]]


def test_a_group_never_flagged_in_8_cases_shows_an_interval_that_reaches_into_the_range():
    d = _gaps(TINY2, 1, ("A", "B", "tiny"))
    ratio = _cell(d, "flagged rate", "tiny", "ratio")
    assert ratio != "0.00 (0.00 to 0.00)" and ratio.startswith("0.00 (0.00 to ")
    assert float(ratio.split(" to ")[1].rstrip(")")) > 0.8
    assert _cell(d, "flagged rate", "tiny") == "fails (could be chance)"


def test_688_negatives_are_not_called_too_few():
    d = _gaps(TINY, 3, ("A", "B", "t"))
    assert _cell(d, "false positive rate", "B", "out of") == "688"
    assert _cell(d, "false positive rate", "B") == "pass (could be chance)"
    assert _cell(d, "flagged rate", "t") == "pass (too few cases)"  # 3 flagged of 8
    assert _cell(d, "cost per case", "t") == "fails (could be chance)"


def test_the_headline_names_the_real_failure_and_the_caption_says_how_intervals_are_made():
    d = _gaps(TINY, 3, ("A", "B", "t"))
    s = words.disparity_sentence(d, "$")
    assert "in group “B”, cases that turn out positive are missed" in s and "could be chance" not in s
    assert "cost nothing" not in s
    assert INTERVAL_WORDS in disparity_caption(d)


def test_every_label_agrees_with_the_interval_shown():
    """Seeded random groups (8 to 2,000 cases, rates from 0 up): every "could be chance" sits on an
    interval reaching past a line, every "too few cases" on one reaching past both, and no
    failure on a zero-width interval is called chance."""
    rng = np.random.default_rng(11)
    seen = set()
    for _ in range(60):
        sizes = rng.choice([8, 12, 40, 300, 2000], size=3)
        probs = rng.dirichlet([2, 1, 1, 6], size=3)
        cells = [rng.multinomial(int(n), p) for n, p in zip(sizes, probs, strict=True)]
        if min(c[0] + c[2] for c in cells) == 0 or min(c[1] + c[3] for c in cells) == 0:
            continue  # a group without positives or negatives: no rate to compare
        d = _gaps(cells, int(rng.integers(1 << 30)), ("a", "b", "c"))
        shown = disparity_table(d)
        for r, cell in zip(d.table.to_dict("records"), shown["result"], strict=True):
            if r["is_reference"]:
                continue
            if not (r["passes"] and d.rests_on_few(r)):  # a pass on too few says that instead
                assert ("could be chance" in cell) == d.could_be_chance(r), (cell, r)
            if not np.isfinite(r["ratio"]):  # no ratio (the reference's value is 0): no interval shown
                seen.add("no ratio")
                continue
            crossed = lines_crossed(r["ratio"], r["ratio_low"], r["ratio_high"], d.threshold)
            if "could be chance" in cell:
                seen.add("chance")
                assert crossed, (cell, r)
                assert r["ratio_high"] > r["ratio_low"], (cell, r)
            if "too few cases" in cell:
                seen.add("few")
                assert len(crossed) == 2 or (r["ratio_low"] < 0.8 and r["ratio_high"] > 1.25), (cell, r)
    assert seen == {"chance", "few", "no ratio"}


def test_a_failure_against_a_reference_of_0_says_could_be_chance_when_the_record_does():
    """Reference A misses 0 of its 5 positives, B 1 of its 10: no ratio, "fails", and resting on
    so few cases that the headline and the JSON say it could be chance; the table said only
    "fails: the reference group's is 0 and this group's is not"."""
    d = disparities(["A", "B"], [5, 9], [2, 3], [0, 1], [40, 30], c_fp=1, c_fn=3)
    row = d.table[(d.table["metric"] == "false negative rate") & (d.table["group"] == "B")].iloc[0].to_dict()
    assert row["passes"] is False and not np.isfinite(row["ratio"])
    assert d.could_be_chance(row)
    cell = _cell(d, "false negative rate", "B")
    assert cell.startswith("fails: the reference group's is 0 and this group's is not") and "could be chance" in cell
    record = d.record("best single cutoff")["largest_failing"]
    if (record["metric"], record["group"]) == ("false_negative_rate", "B"):
        assert record["could_be_chance"] is True
