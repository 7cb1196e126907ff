"""A fairness-audit review on COMPAS (race and sex): the group numbers come with the counts they
are made of, a cost-per-case disparity under a price book by group says the prices can make it
fail, a fairness rule whose search was not run says so (not "no cutoffs meet it"), and the
table of each fairness rule's cutoffs has a row per group, so six race × sex groups fit the page."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from costlib.binary import decision as D
from costlib.binary.disparity import column_disparities, disparities, rule_disparities
from costlib.binary.fairness import fairness_results, group_rates
from costlib.core import rules as R
from costlib.present.disparity_table import PRICED_APART_WORDS, disparity_caption, disparity_table
from costlib.present.tables import (
    LARGEST_GAP,
    NOT_SEARCHED,
    fairness_cutoffs_table,
    fairness_overview_table,
    group_rates_table,
)

# a: 10 cases, 5 positives (tp 4, fn 1), 5 negatives (fp 1); b: 20 cases, 5 positives (tp 1, fn 4), 15 negatives
TP, FP, FN, N = [4, 1], [1, 1], [1, 4], [10, 20]


def test_each_disparity_says_the_count_its_value_is_made_of():
    d = disparities(["a", "b"], TP, FP, FN, N, c_fp=1, c_fn=1)
    table = disparity_table(d, "$").set_index(["metric", "group"])
    assert table.loc[("flagged rate", "b"), "out of"] == "20"  # the cases
    assert table.loc[("cost per case", "a"), "out of"] == "10"
    assert table.loc[("false positive rate", "b"), "out of"] == "15"  # the negatives
    assert table.loc[("false negative rate", "b"), "out of"] == "5"  # the positives
    assert table.loc[("false negative rate", "a"), "out of"] == "5"  # the reference's too
    assert list(table.columns).index("out of") == list(table.columns).index("value") + 1
    caption = disparity_caption(d)
    assert "“out of”" in caption and "positives for the false negative rate" in caption
    assert "negatives for the false positive rate" in caption


def test_weighted_counts_keep_their_decimals_and_a_missing_count_is_a_dash():
    d = disparities(["a", "b"], [4.5, 1], [1, 1], [1, 4], [10.25, 20], c_fp=1, c_fn=1)
    table = disparity_table(d).set_index(["metric", "group"])
    assert table.loc[("false positive rate", "a"), "out of"] == "4.75"
    d = disparities(["a", "b"], [np.nan, 1], [np.nan, 1], [np.nan, 4], [10, 20], c_fp=1, c_fn=1)
    assert disparity_table(d).set_index(["metric", "group"]).loc[("false negative rate", "a"), "out of"] == "–"


def test_both_values_at_0_pass_in_a_short_cell():
    from costlib.present.disparity_table import BOTH_ZERO

    d = disparities(["a", "b"], [4, 5], [1, 1], [0, 0], [10, 20], c_fp=1, c_fn=1)  # nobody missed in either group
    table = disparity_table(d).set_index(["metric", "group"])
    assert table.loc[("false negative rate", "a"), "result"] == BOTH_ZERO == "pass: both are 0"


def _sweeps(seed=0, n=1200):
    rng = np.random.default_rng(seed)
    g = rng.choice(["a", "b", "c"], n)
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(np.clip(0.4 + 0.3 * (y - 0.4) + rng.normal(0, 0.2, n), 0, 1), 2)
    half = np.arange(n) % 2 == 0
    return D.sweep_model(y, s, g, fit=half, judge=~half)


def test_the_rates_per_group_say_their_positives_and_negatives():
    ms = _sweeps()
    rec = D.recommend({ms.name: ms}, (1, 2), n_resamples=50)
    by_group, gaps = group_rates(ms, rec.results, rec.rule)
    view = group_rates_table(by_group, gaps, 20).set_index("group")
    for g in ms.groups:
        assert view.loc[g, "positives"] == f"{ms.judge[g].positives:,.0f}"
        assert view.loc[g, "negatives"] == f"{ms.judge[g].negatives:,.0f}"
    assert view.loc[LARGEST_GAP, "positives"] == ""
    # the disparities' counts are the same judged rows' counts
    d = rule_disparities(ms, rec.results, rec.rule, rec.prices)
    fnr = disparity_table(d).set_index(["metric", "group"])
    assert fnr.loc[("false negative rate", "b"), "out of"] == f"{ms.judge['b'].positives:,.0f}"


def test_a_price_book_by_group_is_said_beside_the_cost_per_case_disparities():
    same = disparities(["a", "b"], TP, FP, FN, N, c_fp=1, c_fn=[3, 3])
    apart = disparities(["a", "b"], TP, FP, FN, N, c_fp=1, c_fn=[3, 6])
    assert not same.priced_apart and apart.priced_apart
    assert PRICED_APART_WORDS not in disparity_caption(same)
    caption = disparity_caption(apart)
    assert PRICED_APART_WORDS in caption
    assert "the prices differ by group" in caption and "not from how the model treats the groups" in caption


def test_a_group_column_alone_says_it_when_its_intersections_are_priced_apart():
    ms = _sweeps()
    parts = {"a": ("x", "F"), "b": ("x", "M"), "c": ("y", "F")}
    for book, apart in (
        ({"a": (1, 2), "b": (1, 2), "c": (1, 2)}, False),
        ({"a": (1, 2), "b": (1, 5), "c": (1, 2)}, True),
    ):
        rec = D.recommend({ms.name: ms}, book, n_resamples=20)
        for _column, d in column_disparities(ms, rec.results, rec.rule, rec.prices, parts, ("race", "sex")):
            assert d.priced_apart is apart
            assert (PRICED_APART_WORDS in disparity_caption(d)) is apart


@pytest.fixture(scope="module")
def many_scores():
    """~8,000 rows of continuous scores in three groups: equalized odds has too many rate windows
    to search exactly (`fair_search.MAX_WINDOW_PAIRS`), demographic parity is searched."""
    rng = np.random.default_rng(0)
    n = 8000
    g = rng.choice(["a", "b", "c"], n)
    y = (rng.random(n) < 0.35).astype(int)
    s = np.clip(0.35 + 0.3 * (y - 0.35) + rng.normal(0, 0.2, n), 0, 1)
    ms = D.sweep_model(y, s, g)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = fairness_results(
            ms,
            D.prices_for(ms.groups, (1, 3)),
            criteria=["demographic parity", "equalized odds"],
            tolerance=0.05,
            n_resamples=20,
        )
    return f


def test_a_fairness_rule_not_searched_says_so_not_that_no_cutoffs_meet_it(many_scores):
    f = many_scores
    view = fairness_overview_table(f.summary, f.results, "$", tolerance=0.05).set_index("rule")
    cell = view.loc[R.rule_words(R.FAIR_PREFIX + "equalized odds"), "cutoffs"]
    assert cell.startswith("not searched") and "no cutoffs meet it" not in cell
    assert cell == NOT_SEARCHED["too many pairs"]
    assert len(cell) <= 30  # the page's cutoffs column has room for about 30 characters at 1400 px
    from costlib.present.tables import fairness_overview_columns

    assert "round or bin the scores" in fairness_overview_columns(0.05)["cutoffs"]["help"]  # why, in the help
    assert view.loc[R.rule_words(R.FAIR_PREFIX + "demographic parity"), "cutoffs"] != cell


def test_each_fairness_rules_cutoffs_are_a_row_per_rule_and_group(many_scores):
    from costlib.present.tables import EVERY_GROUP

    f = many_scores
    table = fairness_cutoffs_table(f.summary, f.results)
    assert list(table.columns) == ["rule", "group", "cutoff"]  # three columns, however many groups and rules
    dp = table[table["rule"] == R.rule_words(R.FAIR_PREFIX + "demographic parity")]
    assert list(dp["group"]) == ["a", "b", "c"] and all(c.startswith("≥") for c in dp["cutoff"])
    eo = table[table["rule"] == R.rule_words(R.FAIR_PREFIX + "equalized odds")]
    assert eo.to_dict("records") == [{"rule": "fair: equalized odds", "group": EVERY_GROUP, "cutoff": "–"}]
