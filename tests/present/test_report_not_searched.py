"""The report's fairness table says a rule whose cutoffs were not searched for (equalized odds on
thousands of continuous scores: too many rate windows) was not searched, in the page's words
(`tables.NOT_SEARCHED`), not "feasible: no", which reads as "no cutoffs meet it"."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from costlib.answers.audit import build_audit
from costlib.binary import decision as D
from costlib.core import rules as R
from costlib.present.report import _fairness_tables_text, audit_html
from costlib.present.tables import NOT_SEARCHED, NOT_SEARCHED_HELP


@pytest.fixture(scope="module")
def audit():
    rng = np.random.default_rng(0)
    n = 8000
    g = rng.choice(["a", "b", "c"], n)
    y = (rng.random(n) < 0.35).astype(int)
    s = np.clip(0.35 + 0.3 * (y - 0.35) + rng.normal(0, 0.2, n), 0, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build_audit(
            D.sweep_model(y, s, g), (1, 3), n_resamples=20, criteria=["demographic parity", "equalized odds"]
        )


def test_a_rule_not_searched_is_not_said_infeasible(audit):
    summary, _ = _fairness_tables_text(audit)
    feasible = summary.set_index("rule")["feasible"]
    assert feasible[R.rule_words(R.FAIR_PREFIX + "equalized odds")] == NOT_SEARCHED["too many pairs"]
    assert feasible[R.rule_words(R.FAIR_PREFIX + "demographic parity")] in ("yes", "no")
    html = audit_html(audit)
    assert NOT_SEARCHED["too many pairs"] in html
    assert "round or bin the scores" in NOT_SEARCHED_HELP and "round or bin the scores" in html  # why, beneath


def test_a_search_that_found_nothing_still_says_no():
    import pandas as pd

    from costlib.present.tables import feasible_cells

    summary = pd.DataFrame({"feasible": [True, False, False], "not_searched": ["", "", "too many pairs"]})
    assert feasible_cells(summary) == ["yes", "no", NOT_SEARCHED["too many pairs"]]
    assert feasible_cells(summary.drop(columns="not_searched")) == ["yes", "no", "no"]
