"""The fairness rules' cross-fitted notes on the Costs & groups page (a fairness audit reviewer):
without a split, a constrained rule's numbers are those of the rule refitted without each part of
the rows, and a rule whose cutoffs shown flag another share than those numbers was named only in
the report's Notes and on the command line's stderr. The page now says the same sentences
(`tables.fair_cross_fitted_notes`, their one home) under the fairness rules."""

from __future__ import annotations

import warnings

import pytest

from costlib.binary import fairness
from costlib.binary.model_sweeps import sweep_model
from costlib.core.prices import prices_for
from costlib.present import tables
from tests.binary.test_fair_rows_review_crossfit import _tiny
from tests.views.apptest_support import assert_no_exception, load_file, open_app, texts, unescape


@pytest.fixture(scope="module")
def tiny():
    """The review's data without a split (tests/binary/test_fair_rows_review_crossfit.py): two
    groups and one of 15 cases; its prices and the notes the report gives its fairness rules."""
    return _tiny()


def _in_order(block) -> list:
    """Every element under `block`, in the order the page draws them."""
    out = []
    for child in block.children.values():
        out.extend(_in_order(child) if hasattr(child, "children") else [child])
    return out


def _notes(data, prices, n_resamples) -> list[str]:
    ms = sweep_model(
        data["outcome"].to_numpy(), data["score"].to_numpy(), groups=data["group"].to_numpy(), name="score"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fr = fairness.fairness_results(
            ms,
            prices_for(ms.groups, prices),
            criteria=tuple(fairness.FAIRNESS_CRITERIA),
            tolerance=0.05,
            n_resamples=n_resamples,
        )
    return tables.fair_cross_fitted_notes(*fairness.cross_fitted_drift(ms, fr.judged))


def test_the_page_says_the_fairness_rules_cross_fitted_notes_under_them(tiny):
    at = open_app(None, "views/data.py", details="true", c_fp="1", c_fn="3", resamples="100")
    load_file(at, "tiny.csv", tiny.to_csv(index=False).encode())
    at.switch_page("views/costs.py").run()
    assert_no_exception(at)
    said = texts(at)
    notes = _notes(tiny, (1, 3), 100)
    drift = [n for n in notes if "the cutoffs shown flag" in n]
    assert drift, notes  # the data names a rule whose refitted cutoffs flag another share
    for note in notes:
        assert note in said, note
    order = _in_order(at.main)
    table = next(
        i for i, e in enumerate(order) if e.type == "dataframe" and "price of fairness" in str(e.value.columns.tolist())
    )
    shown = [i for i, e in enumerate(order) if e.type == "caption" and unescape(e.value) in notes]
    assert len(shown) == len(notes) and min(shown) > table, (shown, table)  # captions under the fairness rules
    assert said.count(drift[0]) == 1  # once

    at.toggle(key="fair").set_value(False).run()  # the fairness rules off: no notes of theirs
    assert_no_exception(at)
    assert not any(note in texts(at) for note in notes)
