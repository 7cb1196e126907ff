"""A product manager reads the formula rule and the net benefit chart in plain words; the exact
formulas stay in the help (the rule's `rule_help`, the report's net benefit caption)."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from costlib.core import rules as R
from costlib.present import price_figures
from costlib.present.report import _prices_table


def test_the_formula_rule_has_a_plain_name_and_says_its_formula_in_words_in_the_help():
    assert R.ELKAN == "elkan"  # the contract's and the policy files' name does not move
    name = R.rule_words(R.ELKAN)
    assert name == "cutoff from prices alone"
    assert "c_fp" not in name and "formula" not in name
    said = R.rule_help(R.ELKAN)  # review 72: "c_fp / (c_fp + c_fn) ... (Elkan, 2001)" to a product manager
    assert (
        "the price of a false positive divided by the sum of both prices" in said
        and "prices of 1 and 3 give 0.25" in said
    )
    assert "c_fp" not in said and "/" not in said and "(Elkan, 2001)" not in said


def test_the_reports_prices_table_names_the_formula_cutoff_as_the_rule():
    a = SimpleNamespace(unit="$", costs={"A": (1.0, 3.0), "B": (0.0, 0.0)})
    table = _prices_table(a)
    assert list(table.columns)[-1] == R.rule_words(R.ELKAN)
    assert list(table[R.rule_words(R.ELKAN)]) == ["0.25", "–"]
    assert not any("c_fp" in c for c in table.columns)


def test_the_net_benefit_chart_speaks_plainly_and_keeps_its_numbers():
    curves = pd.DataFrame(
        {
            "threshold": [0.1, 0.5, 0.1, 0.5, 0.1, 0.5],
            "option": ["m", "m", R.EVERYONE, R.EVERYONE, R.NOBODY, R.NOBODY],
            "net_benefit": [0.3, 0.2, 0.25, -0.5, 0.0, 0.0],
        }
    )
    fig = price_figures.net_benefit_figure(
        curves, price_threshold=0.25, title=price_figures.net_benefit_title("the test rows")
    )
    layout = fig.layout
    assert layout.title.text == "Net benefit: each cutoff read at the prices it stands for (test rows)"
    assert layout.xaxis.title.text == "cutoff (under each: false alarm price : miss price)"  # heads a column too
    assert layout.yaxis.title.text == "saving per case against flagging nobody<br>(1 = the price of one missed case)"
    note, _how, cut = layout.annotations
    assert cut.text == f"{R.EVERYONE}: below the chart from cutoff 0.50 on"  # -0.5 is below the plot
    assert note.text == "your prices (1 : 3): 0.25"
    texts = [layout.title.text, layout.xaxis.title.text, layout.yaxis.title.text, note.text, cut.text]
    for old in ("c_fp", "threshold probability", "against the threshold", "formula"):
        assert not any(old in t for t in texts), old
    assert list(fig.data[0].y) == [0.3, 0.2]  # the curves are drawn as computed


def test_the_price_charts_axes_and_hovers_say_prices_in_words():
    """Review 57: "price of a false positive, c_fp ($)" and hovers reading "c_fp 2" on the price map."""
    import numpy as np

    grid = pd.DataFrame(
        [(fp, fn, "a" if fn > fp else "b", 0.1) for fp in (0.1, 1.0, 10.0) for fn in (0.1, 1.0, 10.0)],
        columns=["c_fp", "c_fn", "best", "cost_per_case"],
    ).assign(option=lambda d: d["best"])
    fig = price_figures.sensitivity_figure(grid, c_fp=1.0, c_fn=3.0, unit="$")
    said = [fig.layout.xaxis.title.text, fig.layout.yaxis.title.text, *(t.hovertemplate or "" for t in fig.data)]
    assert fig.layout.xaxis.title.text == "price of a false positive ($)"
    assert not any("c_fp" in x or "c_fn" in x for x in said), said
    assert np.isfinite(fig.data[0].z).any()
