"""Headless AppTest of the Cost matrix page: an edited matrix changes the expected cost, and the
verdict against no model."""

import numpy as np
from streamlit.testing.v1 import AppTest

import costlib
from tests.views.apptest_support import (
    assert_no_exception,
    open_app,
    sample_frame,
    texts,
    unescape,
)


def edit_matrix(at: AppTest, row: int, col: str, value: float) -> None:
    at.session_state["cost_matrix"] = {"edited_rows": {row: {col: value}}, "added_rows": [], "deleted_rows": []}
    at.run()


def _matrix_cost(at: AppTest, policy: str) -> str:
    table = [t.value for t in at.dataframe if "policy" in t.value.columns][0]
    return table[table["policy"] == policy]["cost per case"].iloc[0]


def _reads_as(cell: str, cost: float) -> bool:
    """Whether a money cell ("$0.44") reads `cost` at its own decimals: the table says costs at the
    headline's decimals (`answers.matrix.matrix_table`), not at each amount's own."""
    whole, _, tail = cell.lstrip("$").partition(".")
    return abs(float(f"{whole}.{tail}") - cost) <= 0.5 * 10 ** -len(tail) + 1e-12


def test_cost_matrix_edit_changes_expected_cost():
    at = open_app("tickets", "views/matrix.py", abstain_on="false")
    df = sample_frame("tickets")
    te = df[df["split"] == "test"]
    names = ["billing", "technical", "security"]
    y = te["true_class"].map(names.index).to_numpy()
    p = te[[f"p_{n}" for n in names]].to_numpy()
    c = np.ones((3, 3)) - np.eye(3)
    c[2, :] = [10, 10, 0]
    d = costlib.min_cost_decisions(p, c)
    got = _matrix_cost(at, "cheapest decision")
    assert _reads_as(got, float(np.mean(c[y, d]))), got
    assert got == at.metric[0].value  # the tile's "Cost per case", as the headline says it

    edit_matrix(at, 0, "decide technical", 4.0)
    assert_no_exception(at)
    c[0, 1] = 4.0
    d = costlib.min_cost_decisions(p, c)
    got2 = _matrix_cost(at, "cheapest decision")
    assert _reads_as(got2, float(np.mean(c[y, d]))) and got2 != got, (got, got2)
    assert at.query_params["C"].startswith("0,4,1;")


def test_cost_matrix_says_when_the_model_is_no_better_than_no_model():
    at = open_app("tickets", "views/matrix.py", abstain_on="false")
    # every decision costs 1 whatever the truth: a model cannot beat deciding the same for everyone
    at.session_state["cost_matrix"] = {
        "edited_rows": {
            0: {"decide billing": 1.0},
            1: {"decide technical": 1.0},
            2: {"decide billing": 1.0, "decide technical": 1.0, "decide security": 1.0},
        },
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert_no_exception(at)
    assert "Do not let the model decide: at these prices its best policy" in texts(at)
    table = [t.value for t in at.dataframe if "policy" in t.value.columns][0]
    assert table["policy"].str.startswith("always decide").any()
    assert not table["policy"].str.contains("hand every case").any()


def test_a_link_with_an_abstain_price_past_its_bound_gets_a_sentence_not_an_exception():
    at = open_app("tickets", "views/matrix.py", abstain="1e308")
    assert_no_exception(at)
    said = [unescape(w.value) for w in at.warning]  # the setting as the page names it (review 72), not "abstain"
    assert any("price of handing a case over" in w and "1e308" in w for w in said), said
    assert at.number_input(key="abstain").value == 1.0
    kept = open_app("tickets", "views/matrix.py", abstain="2.5")
    assert kept.number_input(key="abstain").value == 2.5 and kept.query_params["abstain"] == "2.5"


def test_an_emptied_cell_keeps_the_last_matrix_whose_every_cell_was_a_price():
    """A reviewer priced one cell, then emptied another: the page said "the last valid matrix is
    used" but answered with the matrix the session started from, dropping the first edit."""
    at = open_app("tickets", "views/matrix.py", abstain_on="false")
    edit_matrix(at, 0, "decide technical", 4.0)
    priced = _matrix_cost(at, "cheapest decision")
    at.session_state["cost_matrix"] = {
        "edited_rows": {0: {"decide technical": 4.0}, 1: {"decide billing": None}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert_no_exception(at)
    assert [e.value for e in at.error] and "“technical” decided as “billing”" in unescape(at.error[0].value)
    assert _matrix_cost(at, "cheapest decision") == priced
    assert at.query_params["C"].startswith("0,4,1;")
