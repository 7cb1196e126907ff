"""A report of a file without a split names its rows by what they are, and writes counts as counts
(review: "largest gap (train)/(test)", "within tolerance on test" without a split; "434.00" and
"59.40" beside "954" in the disparities and the table by group)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from costlib.answers.audit import build_audit
from costlib.binary import honest as H
from costlib.binary.decision import sweep_model
from costlib.present.disparity_table import count_text, disparity_tables
from costlib.present.report import _fairness_tables_text, audit_html
from costlib.present.tables import CROSS_FIT_MEAN, FAIR_ROWS, count_cell, rules_by_group_table

MONEY_LIKE = re.compile(r"^\d[\d,]*\.\d0$|^\d[\d,]*\.\d\d\d")  # "434.00", "59.40", "1,202.00", "4.125"


def _signal(n: int, seed: int) -> pd.DataFrame:
    """The reviewer's signal.csv, smaller: two groups of different base rates, a useful score."""
    r = np.random.default_rng(seed)
    g = r.choice(["A", "B"], size=n, p=[0.6, 0.4])
    base = np.where(g == "A", 0.2, 0.45)
    y = (r.random(n) < base).astype(int)
    z = 1.5 * (2 * y - 1) + r.normal(0, 1.3, n) + np.log(base / (1 - base))
    return pd.DataFrame({"outcome": y, "score": (1 / (1 + np.exp(-z))).round(6), "group": g})


@pytest.fixture(scope="module")
def no_split():
    df = _signal(1000, 1)
    ms = sweep_model(df["outcome"], df["score"], df["group"], name="score")
    return build_audit(ms, {"A": (1.0, 3.0), "B": (1.0, 3.0)}, n_resamples=50, fairness_tolerance=0.05)


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.text: list[str] = []

    def handle_data(self, data):
        if data.strip():
            self.text.append(data.strip())


def test_without_a_split_the_fairness_tables_name_the_fitting_and_the_cross_fitted_rows(no_split):
    assert set(no_split.fairness_summary["estimate"]) == {H.CROSS_FITTED}
    summary, long = _fairness_tables_text(no_split)
    fit, judged = FAIR_ROWS[H.CROSS_FITTED]
    headers = [*summary.columns, *long.columns]
    assert not [h for h in headers if "train" in h or "test" in h], headers
    assert f"largest gap ({fit})" in headers and f"largest gap ({judged})" in headers
    assert f"within tolerance ({judged})" in headers and f"rate ({judged})" in headers
    page = _Text()
    page.feed(audit_html(no_split))
    cells = set(page.text)
    assert not cells & {"largest gap (train)", "largest gap (test)", "within tolerance on test", "rate (test)"}


def test_whole_counts_read_whole_and_averaged_ones_keep_one_decimal(no_split):
    assert count_text(434.00000000000006) == "434" and count_text(247.99999999999997) == "248"
    assert count_cell(59.4, averaged=True) == "59.4" and count_cell(4.75) == "4.75"
    for _, table in disparity_tables(no_split):
        bad = [c for c in table["out of"] if MONEY_LIKE.match(c)]
        assert not bad, bad
    by_group = rules_by_group_table(no_split.results, "", lowest=no_split.recommendation.lowest)
    for name in ("false positives", "false negatives"):
        column = CROSS_FIT_MEAN.format(count=name)
        assert column in by_group.columns  # without a split the fitted rules' counts are means over the deals
        cells = list(by_group[column])
        assert not [c for c in cells if MONEY_LIKE.match(c)], cells
        assert all(re.fullmatch(r"[\d,]+(\.\d)?|about [\d,]+|–", c) for c in cells), cells
