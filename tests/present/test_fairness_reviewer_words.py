"""A fairness reviewer's reading of the COMPAS Costs page and its downloaded report: words that
contradicted a chart, jargon, and numbers that read as another number (a tolerance of '0%', a
share of '100.0%' said to be 'nearly everyone', a cutoff rounded up in the chart's words)."""

from __future__ import annotations

from costlib.present.price_figures import NET_BENEFIT_HOW
from costlib.present.report import NET_BENEFIT_WORDS


def test_net_benefit_words_agree_with_the_chart():
    """The report said "Higher is better" of a chart whose note says the highest point is not the
    best cutoff: each point is read at the prices its cutoff stands for."""
    how = " ".join(NET_BENEFIT_HOW)
    assert "the highest point is not the best cutoff" in how  # the chart's own reading
    assert "Higher is better" not in NET_BENEFIT_WORDS
    assert "the highest point is not the best cutoff" in NET_BENEFIT_WORDS
    assert "read at the prices its cutoff stands for" in NET_BENEFIT_WORDS


def test_disparity_words_are_plain():
    """The disparities opened "Aequitas's reading: a group's metric divided by the ...": a
    statistician's words; the citation may follow in brackets, after the plain words."""
    from costlib.present.report import DISPARITY_WORDS

    assert not DISPARITY_WORDS.startswith("Aequitas")
    assert "metric" not in DISPARITY_WORDS and "ratio" not in DISPARITY_WORDS
    plain = DISPARITY_WORDS.index("divided by the reference")
    assert plain < DISPARITY_WORDS.index("(The Aequitas")


def test_a_rules_tolerance_never_reads_zero_unless_it_is():
    """A rule "fitted within 0%" read as nonsense: a tolerance that is not 0 shows enough digits
    not to read 0 (nor '1e-05'), one that is 0 reads "fitted exactly"; the tables' headers write
    a tolerance the same way (one home: `fair_tightened.tolerance_points`)."""
    import re

    from costlib.binary.fair_tightened import randomised_rule, tightened_rule, tolerance_points
    from costlib.present.tables import fairness_overview_columns

    assert tightened_rule("demographic parity", 0.0) == "fair: demographic parity (fitted exactly)"
    assert randomised_rule("demographic parity", 0.0, 0.05) == "fair: demographic parity (randomised, fitted exactly)"
    assert tightened_rule("equal opportunity", 0.0004) == "fair: equal opportunity (fitted within 0.04%)"
    for tolerance in (0.0225, 0.015, 4e-4, 3.3e-6, 1e-7, 1.23456e-9):
        name = tightened_rule("demographic parity", tolerance)
        points = re.search(r"within ([0-9.]+)%\)$", name)
        assert points and float(points.group(1)) > 0, name
        assert abs(float(points.group(1)) / (100 * tolerance) - 1) < 0.01, name  # three significant digits
        assert any(
            c["label"] == f"within {tolerance_points(tolerance)}"
            for c in fairness_overview_columns(tolerance).values()
            if "label" in c
        )


def test_nearly_everyone_never_sits_beside_a_share_that_reads_all():
    """ "it flags 100.0% (nearly everyone)": a share short of all reads with the decimals that say
    so; one that is all (or none) is not "nearly" anything."""
    from costlib.present.tables import fair_cross_fitted_notes

    rule = "fair: demographic parity (fitted exactly)"
    _, near = fair_cross_fitted_notes(True, [(rule, 0.499, 0.9996)])
    assert "flags 99.96% (nearly everyone)" in near and "100.0%" not in near
    _, few = fair_cross_fitted_notes(True, [(rule, 0.9999, 0.00004)])
    assert "flag 99.99% of the cases" in few and "flags 0.004% (nearly nobody)" in few, few
    _, whole = fair_cross_fitted_notes(True, [(rule, 0.5, 1.0)])
    assert "flags 100.0%;" in whole and "nearly" not in whole
    _, some = fair_cross_fitted_notes(True, [(rule, 0.5, 0.995)])
    assert "flags 99.5% (nearly everyone)" in some


def test_a_cutoff_reads_the_same_in_the_chart_words_as_in_the_verdict():
    """The verdict read a cutoff 0.3229 (`amounts.cutoff_number`: rounded down) and the chart in
    words 0.323: a value on a cutoff axis reads as the rules' words write a cutoff."""
    import plotly.graph_objects as go

    from costlib.present.amounts import cutoff_number
    from costlib.present.chart_text import chart_text

    t = 0.322967
    fig = go.Figure(
        [
            go.Scatter(x=[t, float("nan")], y=[0.529, 0.6], mode="lines", name="everyone, one cutoff"),
            go.Scatter(x=[t], y=[0.529], mode="markers", name="best single cutoff"),
        ]
    )
    fig.update_layout(
        title="Cost", xaxis_title="cutoff (flag a case when its score is at least this)", yaxis_title="cost per case"
    )
    alt = chart_text(fig)
    assert cutoff_number(t) == "0.3229"
    assert "best single cutoff at cutoff 0.3229, cost per case 0.529" in alt.sentence, alt.sentence
    assert "0.323," not in alt.sentence
    # where the table writes its numbers (a column with a gap), a cutoff as the rules write it too
    cutoffs = alt.table[alt.table.columns[1]].tolist()
    assert cutoffs[:2] == ["0.3229", "–"], alt.table


def test_disparity_words_name_a_small_group_as_the_table_marks_it():
    """The tables mark a group too small for a cutoff of its own "(small group)", not "(pooled)":
    the words above them say what that mark means, in its words."""
    from costlib.present.disparity_table import SMALL_GROUP_MARK
    from costlib.present.report import DISPARITY_WORDS

    assert f"“{SMALL_GROUP_MARK.strip()}”" in DISPARITY_WORDS and "pooled" not in DISPARITY_WORDS
