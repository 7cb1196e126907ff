"""Why cutoffs within a review limit flag nobody in a group (`capacity.unflagged`, review 56 item 1),
held against the rows: the group's top block of tied scores bigger than the whole limit, or than what
the other groups' flags leave of it, against the limit spent where a flag saves more."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from costlib.binary import decision as D
from costlib.binary.capacity import unflagged
from costlib.present.capacity_words import unflagged_words


def _two_groups():
    """A: 5 positives, then 15 positive-negative pairs, then 40 negatives (distinct scores);
    D: 16 positives tied at its highest score, 10 more positives and 40 negatives below. The
    fitting rows are judged again (their copy)."""
    a = [1] * 5 + [1, 0] * 15 + [0] * 40
    d = [1] * 26 + [0] * 40
    ys = a + d
    ss = list(0.99 - np.arange(len(a)) * 1e-3) + [0.995] * 16 + list(0.5 - np.arange(50) * 1e-3)
    gs = ["A"] * len(a) + ["D"] * len(d)
    y, s, g = np.tile(ys, 2), np.tile(ss, 2), np.tile(gs, 2)
    fit = np.arange(y.size) < y.size // 2
    return D.sweep_model(y, s, g, fit=fit, judge=~fit, name="m"), len(ys)


def test_a_tied_block_bigger_than_what_the_others_leave_is_named_not_a_flag_saving_more():
    """20 cases of 141 may be flagged: A's top 20 (13 positives at $20 a miss, 7 false alarms at $1:
    (13 * 20 - 7) / 20 = $12.65 a flagged case) leave nothing for D, whose 16 tied positives would
    save $10 each: a flag in D saves less than in A, so the limit is spent where a flag saves more;
    at $20 a miss in D a flag there saves more, and what stops it is its tied block."""
    ms, n = _two_groups()
    cutoffs = {"A": 0.99 - 19e-3, "D": np.inf}  # A's 20 highest scores, nobody in D
    for c_fn_d, why in ((10.0, "elsewhere"), (20.0, "left")):
        prices = D.prices_for(ms.groups, {"A": (1.0, 20.0), "D": (1.0, c_fn_d)})
        got = unflagged(ms, prices, cutoffs, 20 / n)
        assert [(g, w, block, total) for g, w, block, _, total in got] == [("D", why, 16.0, n)]
        assert got[0][3] < 1e-6  # nothing of the limit left
    words = unflagged_words(SimpleNamespace(share=20 / n, unflagged=got), None)
    assert "spend the limit where a flag saves the most" not in words
    assert "“D” gets no flags at all, though a flag there would save more per case than in the other groups" in words
    assert "the other groups' flags take the whole limit; its highest score is shared by 16 of all 141 cases" in words


def test_a_block_bigger_than_the_whole_limit_whatever_the_prices():
    """D's 16 tied cases are more than a limit of 15 of 141: no cutoff for D fits, at any price."""
    ms, n = _two_groups()
    for c_fn_d in (1.0, 10.0, 1000.0):
        prices = D.prices_for(ms.groups, {"A": (1.0, 20.0), "D": (1.0, c_fn_d)})
        got = unflagged(ms, prices, {"A": 0.99 - 14e-3, "D": np.inf}, 15 / n)
        assert [(g, w, block) for g, w, block, *_ in got] == [("D", "block", 16.0)]
    words = unflagged_words(SimpleNamespace(share=15 / n, unflagged=got), 1410)
    assert "Per-group cutoffs cannot flag anyone in “D” within this limit, whatever its prices" in words
    assert "more than the whole limit of 150 cases a month" in words
