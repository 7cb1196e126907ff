"""A group's own counts in its disparities (`binary.disparity_counts`): no interval of a group
with no events claims certainty, the cost per case goes through the same "too few cases" test as
the rates, and the headline names a real failure before one resting on 8 cases (fairness review:
tiny.csv's 8-row group "t" had no mistakes, so its cost per case read "0.00 (0.00 to 0.00)",
"fails", and the headline named it over group B's miss rate, 0.435 (0.240 to 0.700))."""

from __future__ import annotations

import numpy as np

from costlib.binary.disparity import disparities
from costlib.binary.disparity_counts import own_intervals, share_bounds
from costlib.present import words

# true chances of a case's cell in every group: positives 30%, 12.7% of them missed, 10.7% of
# the negatives wrongly flagged (tiny.csv's group A): tp, fp, fn, tn
CELLS = np.array([0.3 * 0.873, 0.7 * 0.107, 0.3 * 0.127, 0.7 * 0.893])


def _gaps(cells, rng, resamples=200, *, c_fp=1.0, c_fn=3.0, groups=("A", "B", "t")):
    """`disparities` of per-group cells (groups, 4: tp, fp, fn, tn) with resamples as the costs
    make them (each group's rows resampled apart, its size fixed)."""
    cells = np.asarray(cells, dtype=np.float64)
    n = cells.sum(axis=1)
    draws = np.stack(
        [rng.multinomial(int(n[g]), cells[g] / n[g], size=resamples) for g in range(len(n))], axis=1
    ).astype(np.float64)
    return disparities(
        list(groups),
        cells[:, 0],
        cells[:, 1],
        cells[:, 2],
        n,
        c_fp=c_fp,
        c_fn=c_fn,
        draws=(draws[..., 0], draws[..., 1], draws[..., 2], n),
    )


def _row(d, metric, group):
    t = d.table
    return t[(t["metric"] == metric) & (t["group"] == group)].iloc[0].to_dict()


# tiny.csv's counts (best single cutoff): A 1,006 cases, B 986, t 8 with no mistakes
TINY = [[254, 77, 37, 638], [282, 75, 16, 613], [3, 0, 0, 5]]


def test_no_mistakes_in_8_cases_is_not_a_zero_width_interval():
    d = _gaps(TINY, np.random.default_rng(3))
    for metric in ("cost per case", "false positive rate", "false negative rate"):
        row = _row(d, metric, "t")
        assert row["value"] == 0 and row["passes"] is False
        # none of 8 allows up to 1 - 0.025^(1/8) = 36.9% of them wrong
        assert row["ratio_low"] == 0 and row["ratio_high"] > 1.25, (metric, row["ratio_high"])
        assert row["difference_high"] > 0
        assert d.could_be_chance(row) and d.rests_on_few(row)
    cost = _row(d, "cost per case", "t")
    # no false positive ($1) and no false negative ($3) among 8 cases: each up to 36.9% of them, combined
    np.testing.assert_allclose(cost["value_high"], np.hypot(1, 3) * (1 - 0.025 ** (1 / 8)), rtol=1e-9)


def test_the_headline_names_group_b_s_miss_rate_not_the_8_cases():
    d = _gaps(TINY, np.random.default_rng(3))
    assert _row(d, "cost per case", "t")["passes"] is False
    largest = d.largest
    assert (largest["metric"], largest["group"]) == ("false negative rate", "B")
    assert not d.could_be_chance(largest)
    assert d.record("best single cutoff")["largest_failing"]["group"] == "B"
    s = words.disparity_sentence(d)
    assert "“B”" in s and "missed" in s and "“t”" not in s


def test_the_cost_per_case_goes_through_the_too_few_test_as_the_rates_do():
    d = _gaps(TINY, np.random.default_rng(3))
    assert d.rests_on_few(_row(d, "cost per case", "t"))
    # B's $0.125 against $0.187 from 986 cases: its own interval over A's reaches to 0.81, as its
    # resampled one does to 0.91 ("could be chance" either way)
    b = _row(d, "cost per case", "B")
    assert b["passes"] is False and d.rests_on_few(b) and b["ratio_high"] > 0.8
    assert not d.rests_on_few(_row(d, "cost per case", "A"))  # the reference
    assert not d.rests_on_few(_row(d, "false negative rate", "B"))  # 16 of 298 missed: a clear failure


def test_a_pass_on_688_negatives_rests_on_the_group_s_own_counts_not_the_reference_s():
    """B's false positive rate, 75 of 688 against A's 77 of 715: the ratio's interval reaches past
    both lines, but only with A's noise in it; against A's rate as it is, B's own 688 negatives
    tell it (its exact interval over A's rate, 0.81 to 1.26, reaches past one line only)."""
    d = _gaps(TINY, np.random.default_rng(3))
    row = _row(d, "false positive rate", "B")
    assert row["passes"] is True and row["out_of"] == 688
    assert not d.rests_on_few(row)
    assert d.could_be_chance(row)  # its interval still reaches past a line
    assert d.rests_on_few(_row(d, "flagged rate", "t"))  # 3 of 8 flagged: too few


def test_share_bounds_are_the_exact_interval():
    # 0 of 8: (0, 1 - 0.025^(1/8)); 8 of 8: (0.025^(1/8), 1); weighted counts read as counts
    lo, hi = share_bounds([0, 8, 2.5], [8, 8, 10])
    np.testing.assert_allclose(hi[0], 1 - 0.025 ** (1 / 8))
    np.testing.assert_allclose(lo[1], 0.025 ** (1 / 8))
    assert lo[0] == 0 and hi[1] == 1 and 0 < lo[2] < 0.25 < hi[2] < 1
    lo, hi = share_bounds([1, 0], [0, np.nan])
    assert np.isnan(lo).all() and np.isnan(hi).all()


def test_a_group_without_mistakes_is_judged_at_each_kind_of_mistake_s_price():
    spans = own_intervals([2, 1], [0, 1], [0, 1], [8, 8], c_fp=[1.0, 1.0], c_fn=[3.0, 3.0])
    lo, hi = spans["cost per case"]
    # no mistakes: up to 36.9% of the 8 cases false positives ($1) and as many false negatives ($3)
    np.testing.assert_allclose(hi[0], np.hypot(1, 3) * (1 - 0.025 ** (1 / 8)))
    # with one of each, each kind's share of the 8 cases to its interval's ends at its own price (not
    # their mean price, $2), the two distances combined
    low, high = np.array(share_bounds(1, 8)).ravel()
    est = (1 + 3) / 8
    np.testing.assert_allclose(
        [lo[1], hi[1]], [est - np.hypot(1, 3) * (1 / 8 - low), est + np.hypot(1, 3) * (high - 1 / 8)]
    )


def test_an_8_case_group_like_the_others_is_rarely_a_clear_failure():
    """Seeded simulation: groups A and B of 1,000 cases and t of 8, every group with the same true
    chances (`CELLS`), 400 times. Before, t's cost per case was a clear failure (fails, not "could
    be chance") 40.5% of the time (every time it had no mistakes: 0.887^8 = 38%) and the headline
    named t 43%; now at most 5%."""
    rng = np.random.default_rng(7)
    reps, clear, named = 400, {}, 0
    for _ in range(reps):
        d = _gaps([rng.multinomial(n, CELLS) for n in (1000, 1000, 8)], rng)
        for r in d.table.to_dict("records"):
            if r["group"] == "t" and r["passes"] is False and not d.could_be_chance(r):
                clear[r["metric"]] = clear.get(r["metric"], 0) + 1
        big = d.largest
        named += big is not None and big["group"] == "t" and not d.could_be_chance(big)
    assert clear.get("cost per case", 0) / reps <= 0.05, clear
    assert sum(clear.values()) / reps <= 0.05, clear
    assert named / reps <= 0.05


def test_a_real_failure_in_a_middling_group_stays_clear():
    """The widening costs no power where the counts speak: 300 cases missing twice as many of
    their positives (60 of 120) as 1,000 do (30 of 120) stay a clear failure."""
    d = _gaps([[90, 40, 30, 840], [60, 12, 60, 168]], np.random.default_rng(5), groups=("A", "B"))
    row = _row(d, "false negative rate", "B")
    assert row["passes"] is False and not d.could_be_chance(row) and not d.rests_on_few(row)
