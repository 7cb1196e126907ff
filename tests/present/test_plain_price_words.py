"""A product manager reads the formula rule and the net benefit chart in plain words; the exact
formulas stay in the help (the rule's `rule_help`, the report's net benefit caption)."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from costlib.core import rules as R
from costlib.present import price_figures
from costlib.present.report import _prices_table


def test_the_formula_rule_has_a_plain_name_and_keeps_its_formula_in_the_help():
    assert R.ELKAN == "elkan"  # the contract's and the policy files' name does not move
    name = R.rule_words(R.ELKAN)
    assert name == "cutoff from prices alone"
    assert "c_fp" not in name and "formula" not in name
    assert "c_fp / (c_fp + c_fn)" in R.rule_help(R.ELKAN)


def test_the_reports_prices_table_names_the_formula_cutoff_as_the_rule():
    a = SimpleNamespace(unit="$", costs={"A": (1.0, 3.0), "B": (0.0, 0.0)})
    table = _prices_table(a)
    assert list(table.columns)[-1] == R.rule_words(R.ELKAN)
    assert list(table[R.rule_words(R.ELKAN)]) == ["0.25", "–"]
    assert not any("c_fp" in c for c in table.columns)


def test_the_net_benefit_chart_marks_the_cutoff_from_prices_alone_by_its_name():
    curves = pd.DataFrame({"threshold": [0.1, 0.5], "option": ["m", "m"], "net_benefit": [0.3, 0.2]})
    (note,) = price_figures.net_benefit_figure(curves, price_threshold=0.25).layout.annotations
    assert note.text == f"{R.rule_words(R.ELKAN)}: 0.250"
    assert "c_fp" not in note.text
