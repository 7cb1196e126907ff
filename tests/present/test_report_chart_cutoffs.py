"""The report's chart tables wrote a cutoff at its nearest four significant digits (0.322967 read
'0.323') where the rules' words, the pages and the report's own tables write it through the one
cutoff formatter, `amounts.cutoff_number`, rounded down ('0.3229'): one cutoff, two numbers."""

from __future__ import annotations

import plotly.graph_objects as go

from costlib.present.amounts import cutoff_number, plain_number
from costlib.present.report_charts import report_chart_text

CUTOFF_AXIS = "cutoff (flag a case when its score is at least this)"


def test_a_cutoff_in_a_report_chart_table_reads_as_the_rules_write_it():
    fig = go.Figure(go.Scatter(x=[0.322967, 0.25, 0.800638], y=[0.52864, 0.5, 0.78432], mode="markers", name="m"))
    fig.update_layout(title="Cost per case against the cutoff", xaxis_title=CUTOFF_AXIS, yaxis_title="cost per case")
    table = report_chart_text(fig).table
    assert table[CUTOFF_AXIS].tolist() == ["0.3229", "0.25", "0.8006"]
    assert table[CUTOFF_AXIS].tolist() == [cutoff_number(x) for x in (0.322967, 0.25, 0.800638)]
    # the other numbers as before: the nearest, at four significant digits
    assert (
        table["cost per case"].tolist()
        == [plain_number(x) for x in (0.52864, 0.5, 0.78432)]
        == ["0.5286", "0.5", "0.7843"]
    )
