"""Review 72 (a first-time product manager at 1,400 px): one precision down a table's column of
amounts beside their intervals, one money rule for an amount the tiles and the cost chart both
show, the no-model lines' labels where no curve crosses them, the net benefit chart's words
apart from its recommended cutoff's label and in plain words, and Find my prices' chart naming
its model."""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib.binary import decision
from costlib.core import rules as R
from costlib.present import price_figures
from costlib.present.amounts import column_digits, money, shown_saving
from costlib.present.cost_figures import cost_curve_figure, markers_frame
from costlib.present.watch_tables import watch_group_table


def _group(cost, low, high):
    return {"n": 500, "cost_per_case": cost, "cost_per_case_interval": [low, high], "small": False}


def test_watch_groups_cost_column_reads_at_one_precision():
    """'$0.221 ($0.183 to $0.267)' above '$0.26 ($0.20 to $0.32)': each row at its own interval's
    decimals. The column is now at the finest any row needs."""
    report = {
        "periods": [
            {"period": "2026-07", "groups": {"a": _group(0.221, 0.183, 0.267), "b": _group(0.26, 0.20, 0.32)}},
            {"period": "2026-08", "groups": {"a": {"n": 3, "cost_per_case": None}}},
        ]
    }
    cells = list(watch_group_table(report, "$")["cost per case"])
    assert cells == ["$0.221 ($0.183 to $0.267)", "$0.260 ($0.200 to $0.320)", "–"]
    assert column_digits([(0.221, 0.183, 0.267), (0.26, 0.20, 0.32)]) == 3


def _rec():
    rng = np.random.default_rng(3)
    n = 600
    s = rng.random(n)
    y = (rng.random(n) < s).astype(int)
    ms = decision.sweep_model(y, s, np.where(rng.random(n) < 0.5, "a", "b"), name="m")
    return ms, decision.recommend(ms, (1, 3), n_resamples=50)


def test_the_cost_charts_no_model_labels_read_as_the_tiles_do_and_sit_in_the_margin():
    """The tile 'Cost per case without a model $0.71' and the chart's 'flag everyone (no model):
    $0.713' on one page: the chart's labels now take the tiles' decimals (`shown_saving` of the
    saving and its interval, the precision the interval warrants), and they sit in the right
    margin beside their lines' ends, where no curve runs through them."""
    ms, rec = _rec()
    markers = markers_frame(rec, ms)
    digits = shown_saving(rec.baseline_cost, rec.cost, rec.saving_low, rec.saving_high)[0]
    assert markers.attrs["digits"] == digits
    fig = cost_curve_figure(decision.cost_curves(ms, rec.prices), markers, unit="$")
    labels = [a for a in fig.layout.annotations if "no model" in a.text]
    assert labels
    for a in labels:
        level = markers.attrs["levels"][next(r for r in markers.attrs["levels"] if a.text.startswith(R.rule_words(r)))]
        assert a.text.endswith(money(level, "$", digits=digits)), a.text
        assert (a.xref, a.x, a.xanchor) == ("paper", 1, "left")  # right of the plot
    assert fig.layout.margin.r >= 6.6 * max(len(p) for a in labels for p in a.text.split("<br>"))


def test_two_close_no_model_labels_do_not_overlap():
    curves = pd.DataFrame(
        {"line": [None] * 3, "threshold": [0.0, 0.5, 1.0], "cost_per_case": [0.75, 0.4, 0.748], "flagged_share": 0.5}
    )
    markers = pd.DataFrame(columns=["line", "rule", "threshold", "cost_per_case"])
    markers.attrs.update(levels={R.EVERYONE: 0.751, R.NOBODY: 0.748}, digits=3)
    fig = cost_curve_figure(curves, markers, unit="$")
    low, high = sorted(fig.layout.annotations, key=lambda a: a.y)
    plot_px = (fig.layout.height - fig.layout.margin.t - fig.layout.margin.b) / (0.751 - 0.4)
    apart = (high.y - low.y) * plot_px + (high.yshift or 0) - (low.yshift or 0)
    assert apart >= 2 * 15, apart  # two lines of 12 px each, one above the other


def _net_benefit(model):
    t = np.round(np.arange(0.01, 1.0, 0.01), 2)
    return pd.DataFrame(
        {
            "threshold": np.tile(t, 3),
            "option": ["m"] * 99 + [R.EVERYONE] * 99 + [R.NOBODY] * 99,
            "net_benefit": np.concatenate([model, 0.3 - t / (1 - t) * 0.7, np.zeros(99)]),
        }
    )


def test_the_net_benefit_words_sit_above_the_plot_apart_from_the_recommended_cutoff():
    """'recommended cutoff of score_overconfident: 0.08635' ran into 'flag everyone: below the chart
    from cutoff 0.31 on' at the plot's bottom; the note under the title had no full stop."""
    t = np.round(np.arange(0.01, 1.0, 0.01), 2)
    fig = price_figures.net_benefit_figure(_net_benefit(0.2 - 0.2 * t), price_threshold=0.25, shipped=(0.08,))
    notes = fig.layout.annotations
    cut = [a for a in notes if "below the chart" in a.text]
    shipped = [a for a in notes if a.text.startswith("recommended cutoff")]
    assert cut and shipped
    for a in cut:  # above the plot (y = 1, anchored at its bottom)
        assert (a.yref, a.y, a.yanchor) == ("paper", 1, "bottom")
    assert shipped[0].y == 0  # the recommended cutoff's label alone at the bottom
    how = next(a for a in notes if "Compare the lines" in a.text)
    assert how.text.endswith(".")
    assert fig.layout.margin.t >= 100 + 15 * len(cut)


def test_the_net_benefit_axes_are_plain():
    fig = price_figures.net_benefit_figure(_net_benefit(np.zeros(99)), price_threshold=0.3)
    x, y = fig.layout.xaxis.title.text, fig.layout.yaxis.title.text
    for jargon in ("counted in", "under it:", "false alarm : miss)"):
        assert jargon not in x + y
    assert x == "cutoff (under each: false alarm price : miss price)"
    assert y == "saving per case against flagging nobody<br>(1 = the price of one missed case)"


def test_the_price_ratio_chart_names_its_model():
    table = pd.DataFrame({"ratio_low": [0.001, 1.0], "ratio_high": [1.0, 1000.0], "threshold": [0.9, 0.2]})
    fig = price_figures.ratio_pieces_figure(table, low=0.001, high=1000, names=("a miss", "a false alarm"), model="lr")
    assert fig.layout.title.text == "The best cutoff for every price ratio, lr (train rows)"


def _decimals(cell: str) -> set[int]:
    """The decimals of each amount in a cell ('$0.221 ($0.183 to $0.267)': {3}); 0 is left out
    (nothing reads as '$0.000', `amounts.money`)."""
    import re

    return {len(d) for whole, d in re.findall(r"(\d[\d,]*)\.(\d+)", cell) if float(f"{whole.replace(',', '')}.{d}")}


def test_the_rules_tables_read_one_precision_down_each_money_column():
    """The rules table read "$1.37" above "$0.784" (each cost at its own size's decimals) and
    its savings each at their own interval's: every money column now reads at one precision."""
    from costlib.present.tables import rules_by_group_table, rules_overall_table

    ms, rec = _rec()
    rec = decision.recommend(ms, (1, 3), n_resamples=50)
    for table in (rules_overall_table(rec, "$"), rules_by_group_table(rec.results, "$")):
        for column in table.columns:
            if any("$" in str(x) for x in table[column]):
                found = set().union(*(_decimals(str(x)) for x in table[column]))
                assert len(found) <= 1, (column, list(table[column]))


def test_the_instance_charts_no_model_label_sits_in_the_margin():
    """'flag everyone (no model): $0.143' on Instance costs' chart was crossed by both models' curves."""
    from costlib.present.figures import line_figure

    frame = pd.DataFrame(
        {"t": [0.0, 0.5, 1.0] * 2, "cost": [0.14, 0.05, 0.9, 0.13, 0.06, 0.8], "m": ["a"] * 3 + ["b"] * 3}
    )
    fig = line_figure(
        frame, x="t", y="cost", color="m", title="t", x_title="x", y_title="y", baseline=0.143,
        baseline_label="flag everyone (no model): $0.143",
    )  # fmt: skip
    note = fig.layout.annotations[-1]
    assert (note.xref, note.x, note.xanchor) == ("paper", 1, "left")
    assert note.text == "flag everyone<br>(no model): $0.143"
    assert fig.layout.margin.r >= 6.6 * len("(no model): $0.143")
