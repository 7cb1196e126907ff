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
    assert plain < DISPARITY_WORDS.index("(This is how the Aequitas")
