"""A fairness audit reviewer on the Costs & groups page (COMPAS, and uploads with small groups):
the disparities table printed two rates that differ as "0.1% … 0.1%" and a difference of a few
hundredths of a point as "−0.0%" (item 1), and said "pass" of a ratio of 1 flagged case against
1, where a failure either way fits the cases as well (item 2)."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

from costlib.binary.disparity import disparities
from costlib.present.disparity_table import (
    SMALL_GROUP_MARK,
    TOO_FEW,
    TOO_FEW_WORDS,
    disparity_caption,
    disparity_table,
    disparity_tables,
)

NEGATIVE_ZERO = re.compile(r"−\$?0(\.0*)?(%|\b)(?![.\d])")  # "−0.0%", "−0.00%", "−$0.00", "−0"


def _few_missed():
    # 1.7 of 1,527 positives missed in A (0.111%), 1.2 of 1,480 in B (0.081%): B - A = −0.030 points
    return disparities(["A", "B"], [1525.3, 1478.8], [850, 850], [1.7, 1.2], [3064, 2936], c_fp=1.0, c_fn=3.0)


def _number(cell: str) -> float:
    """The leading amount of a cell: '−0.03% (…)' -> -0.03."""
    return float(re.match(r"[−-]?\$?[\d.,]+", cell).group(0).replace("−", "-").replace("$", "").replace(",", ""))


def test_two_rates_that_differ_read_apart_and_their_difference_is_not_a_negative_zero():
    table = disparity_table(_few_missed()).set_index(["metric", "group"])
    row = table.loc[("false negative rate", "B")]
    assert (row["value"], row["reference"]) == ("0.08%", "0.11%")  # was "0.1%" and "0.1%"
    assert row["difference"] == "−0.03%"  # was "−0.0%"
    for cell in table[["value", "reference", "difference"]].to_numpy().ravel():
        assert not NEGATIVE_ZERO.search(cell), cell


@pytest.mark.parametrize("seed", range(40))
def test_no_cell_reads_two_different_rates_alike_or_a_nonzero_difference_as_none(seed):
    """Random small rates, groups of a few hundred to a few thousand cases, resampled intervals:
    a value that differs from the reference's reads apart from it, a difference that is not 0
    does not read 0, and no cell (difference or an end of its interval) reads '−0.0%'."""
    rng = np.random.default_rng(seed)
    k = 3
    n = rng.integers(200, 4000, k).astype(float)
    pos = np.floor(n * rng.uniform(0.2, 0.8, k))
    tp = np.floor(pos * rng.uniform(0.9, 1.0, k))
    fp = np.floor((n - pos) * rng.uniform(0, 0.004, k))
    draws = tuple(np.maximum(x[None, :] + rng.normal(0, 1.5, (200, k)).round(), 0) for x in (tp, fp, pos - tp)) + (n,)
    d = disparities(["a", "b", "c"], tp, fp, pos - tp, n, c_fp=1.0, c_fn=3.0, draws=draws)
    table = disparity_table(d, "$")
    for r, (_, cells) in zip(d.table.to_dict("records"), table.iterrows(), strict=True):
        for cell in (cells["value"], cells["reference"], cells["difference"]):
            assert not NEGATIVE_ZERO.search(cell), (r["metric"], r["group"], cell)
        if r["value"] != r["reference_value"]:
            assert cells["value"] != cells["reference"], (r["metric"], r["group"], cells.to_dict())
            assert _number(cells["difference"]) != 0, (r["metric"], r["group"], cells.to_dict())


def _tiny_and_big(n_tiny: int, n_big: int, flagged_tiny: int, flagged_big: int, missed: int = 3):
    """Two groups, every flagged case a true positive and `missed` misses each: the flagged rate's
    ratio is (flagged_tiny / n_tiny) / (flagged_big / n_big)."""
    return disparities(
        ["tiny", "big"], [flagged_tiny, flagged_big], [0, 0], [missed] * 2, [n_tiny, n_big], c_fp=1.0, c_fn=1.0
    )


def test_a_pass_on_a_tiny_group_says_it_rests_on_too_few_cases_and_a_big_group_does_not():
    tiny = _tiny_and_big(40, 45, 1, 1)  # 1 of 40 flagged against 1 of 45: 1.125, a "pass" with nothing to see
    row = tiny.table.query("metric == 'flagged rate' and group == 'tiny'").iloc[0].to_dict()
    assert row["passes"] is True and tiny.rests_on_few(row)
    table = disparity_table(tiny).set_index(["metric", "group"])
    assert table.loc[("flagged rate", "tiny"), "result"] == TOO_FEW.format(result="pass") == "pass (too few cases)"
    assert TOO_FEW_WORDS in disparity_caption(tiny)

    big = _tiny_and_big(4000, 4500, 1000, 1100, missed=300)  # 25.0% against 24.4%: a pass on a thousand cases
    row = big.table.query("metric == 'flagged rate' and group == 'tiny'").iloc[0].to_dict()
    assert row["passes"] is True and not big.rests_on_few(row)
    table = disparity_table(big).set_index(["metric", "group"])
    assert table.loc[("flagged rate", "tiny"), "result"] == "pass"
    assert TOO_FEW_WORDS not in disparity_caption(big)
    assert not any("too few cases" in c for c in table["result"])


def _rests_on_few(k: int, n: int, k_ref: int, n_ref: int) -> bool:
    """`Disparities.rests_on_few` of a flagged rate of `k` of `n` cases against the reference's `k_ref`
    of `n_ref` (every flagged case a true positive): the one rule the table, the headline and the JSON read."""
    d = disparities(["g", "ref"], [k, k_ref], [0, 0], [0, 0], [n, n_ref], c_fp=1.0, c_fn=1.0, reference="ref")
    return d.rests_on_few(d.table.query("metric == 'flagged rate' and group == 'g'").iloc[0].to_dict())


def test_too_few_cases_is_the_rule_that_says_a_failure_could_be_chance():
    """One rule (`Disparities.rests_on_few`) for a failure (its interval from the counts reaches
    into the pass range) and a pass (past both of its lines); the failures it marks are unchanged,
    and a reference rate of 0 is read at the highest its counts allow."""
    assert _rests_on_few(1, 40, 1, 45) and _rests_on_few(2, 40, 2, 45)
    assert not _rests_on_few(1000, 4000, 1100, 4500) and not _rests_on_few(0, 40, 0, 45)  # both 0: "pass: both are 0"
    assert _rests_on_few(1, 1000, 3, 1100) and not _rests_on_few(0, 500, 40, 500)  # failures, as before
    assert _rests_on_few(2, 100, 0, 100) and not _rests_on_few(0, 100, 10, 100)  # against 0 of 100: up to 3.6%
    d = _few_missed()  # a failure of a handful of cases still reads "could be chance", not "too few cases"
    assert disparity_table(d).set_index(["metric", "group"]).loc[("false negative rate", "B"), "result"] == (
        "fails (could be chance)"
    )


def test_the_report_and_the_command_line_write_the_same_mark():
    """The audit's tables (`disparity_tables`: the report and ``costlib audit``) on data with a
    group of 15 cases (tests/binary/test_fair_rows_review_crossfit.py's): its pass says so."""
    from costlib.answers.audit import build_audit
    from costlib.binary.model_sweeps import sweep_model
    from costlib.present.report import audit_html
    from tests.binary.test_fair_rows_review_crossfit import _tiny

    data = _tiny()
    ms = sweep_model(data["outcome"].to_numpy(), data["score"].to_numpy(), groups=data["group"].to_numpy())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        audit = build_audit(ms, (1, 3), n_resamples=100, criteria=())
    (caption, table), *_ = disparity_tables(audit)
    marked = table[table["result"] == "pass (too few cases)"]
    assert set(marked["group"]) == {"Tiny" + SMALL_GROUP_MARK}, table
    assert TOO_FEW_WORDS in caption
    assert "pass (too few cases)" in audit_html(audit)
