"""In a notebook an answer shows its verdict and rules table, every user string escaped, and
gives its Plotly figures; the README's notebook example runs as it is."""

from __future__ import annotations

import html
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

import costlib
from costlib.present.cost_figures import rule_bars_figure
from costlib.present.notebook import recommendation_card
from costlib.present.report import shipped_row

ROOT = Path(__file__).resolve().parents[2]
HOSTILE_GROUP = '<img src=x onerror="alert(1)">'
HOSTILE_SCORE = "<script>alert(2)</script>"


@pytest.fixture(scope="module")
def hostile_audit():
    rng = np.random.default_rng(3)
    n = 1200
    s = rng.random(n)
    rows = pd.DataFrame(
        {
            "y": (rng.random(n) < s).astype(int),
            HOSTILE_SCORE: s,
            "g": rng.choice([HOSTILE_GROUP, "**bold** $x$"], size=n),
            "split": np.where(rng.random(n) < 0.5, "train", "test"),
        }
    )
    return costlib.audit(rows, label="y", score=HOSTILE_SCORE, group="g", split="split", c_fp=1, c_fn=2, n_resamples=30)


def test_the_card_shows_the_verdict_and_the_rules_and_escapes_every_name(hostile_audit):
    a = hostile_audit
    card = a._repr_html_()
    assert html.escape(a.verdict.headline, quote=False) in card or a.verdict.headline in card
    assert "<script>alert" not in card and "<img src" not in card and "&lt;script&gt;" in card
    assert card.count("<tr") == len(a.results.overall) + 1  # the head and one row per rule
    assert ('class="pick"' in card) == (shipped_row(a.recommendation) is not None)
    rec_card = recommendation_card(a.recommendation)  # a Recommendation's card lives in present (issue 40)
    assert "<script>alert" not in rec_card and "Which cutoff to ship" in rec_card


def test_every_report_figure_is_one_call_away(hostile_audit):
    a = hostile_audit
    for name in ("cost_curve", "rule_bars", "sensitivity", "net_benefit"):
        assert isinstance(a.figure(name), go.Figure)
    with pytest.raises(ValueError, match="capacity"):  # only under a review limit
        a.figure("capacity")
    assert isinstance(rule_bars_figure(a.recommendation.results.by_group), go.Figure)
    assert a.policy()["rule"] == a.recommendation.shipped_rule


def test_the_readmes_notebook_example_runs(tmp_path, monkeypatch, capsys):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code = text.split("<!-- notebook-example -->\n```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md (notebook example)", "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith(("Ship the model", "Not clearly better", "Do not let the model decide"))
    assert "cost per case at scikit-learn's tuned cutoff" in out


def test_the_reports_net_benefit_marks_what_the_page_marks(hostile_audit):
    """The report drew the net benefit chart without what the answer ships (the page marks it since
    the chart read as 'the lowest cutoff is best'): both now take the marks from one place
    (`price_figures.shipped_marks`), so the report's chart is the page's."""
    from costlib.answers.costs import Sensitivity

    a = hostile_audit
    report = a.figure("net_benefit")
    rec = a.recommendation
    page = Sensitivity("", a.maps, a.mean_prices, "", blended=not rec.prices.uniform).net_benefit_figure(rec)
    marks = [(s.type, s.x0, s.x1) for s in page.layout.shapes]
    assert marks and [(s.type, s.x0, s.x1) for s in report.layout.shapes] == marks
    assert [t.name for t in report.data] == [t.name for t in page.data]
