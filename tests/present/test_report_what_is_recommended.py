"""The report's fairness section names what each table holds (review 56, items 3 and 7): the
rates per group are the model's best rule's, which is what is recommended only when the verdict
ships the model; and the group-by-group table of the constrained rules names each row's rule as
the table above it does, so that two rules of one criterion are told apart."""

from __future__ import annotations

import html as _html
import re

import pytest

from costlib.answers.audit import build_audit
from costlib.core import rules as R
from costlib.core.escaping import html_escape
from costlib.present.costs_labels import GROUP_RATES_WHAT
from costlib.present.report import audit_html
from tests.present.test_report import _model, audit, compas  # noqa: F401 (fixtures)

GROUP_BY_GROUP = "Each constrained rule's cutoff and rates, group by group"


@pytest.fixture(scope="module")
def kept(compas):  # noqa: F811
    """COMPAS at the page's default prices ($1 a false positive, $3 a false negative): "not
    clearly better", so the verdict keeps flagging everyone, while the model's best rule is one
    cutoff (0.323) whose flagged rates differ between the groups by 27.5 points."""
    return build_audit(
        _model(compas["frame"]), (1, 3), unit="$", volume=10_000, n_resamples=200, fairness_tolerance=0.05
    )


def _texts(report: str, tag: str) -> list[str]:
    """The text of every `tag` element, tags inside it removed and entities read."""
    found = re.findall(rf"<{tag}[^>]*>(.*?)</{tag}>", report, flags=re.S)
    return [_html.unescape(re.sub(r"<[^>]+>", "", x)) for x in found]


def _table(report: str, caption: str) -> list[dict]:
    """The rows of the report's table captioned `caption`, as {header: cell}."""
    start = report.index(f"<caption>{html_escape(caption)}</caption>")
    table = report[start : report.index("</table>", start)]
    heads = _texts(table, "th")
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table.split("<tbody>")[1], flags=re.S)
    return [dict(zip(heads, _texts(row, "td"), strict=True)) for row in rows]


def test_the_rates_are_not_called_recommended_when_the_verdict_keeps_the_choice_without_the_model(kept):
    rec = kept.recommendation
    assert not rec.ship_model and rec.shipped_rule == R.EVERYONE and rec.rule == R.SINGLE
    _, gaps = kept.group_rates
    assert gaps["gap"].iloc[0] > 0.2  # the best single cutoff's flagged rates differ; flagging everyone's are all 100%
    report = audit_html(kept)
    headings = _texts(report, "h3")
    assert "Rates per group of the model's best rule (best single cutoff), not what is recommended" in headings
    assert not [h for h in headings if "what is recommended" in h and "not what" not in h], headings
    text = " ".join(_texts(report, "p"))
    assert GROUP_RATES_WHAT.strip() in text  # the page's words for the same table, from their one home
    # every case flagged: the error rates are equal, but not the costs (nor the disparities below, which fail)
    said = (
        "What is recommended, flag everyone, does not use the model: every case is flagged (every positive case is "
        "caught and every negative case is a false alarm), so the groups' error rates are the same, but a group's "
        "cost per case still depends on its share of positive cases and its prices."
    )
    assert said in text
    assert "alike" not in text


def test_the_disparities_say_they_are_the_models_best_rule_when_the_verdict_keeps_the_choice_without_it(kept):
    # the disparities are the model's best rule's (it fails for false negatives), not flagging everyone's
    assert kept.disparities.rule == R.SINGLE and kept.disparities.fails
    report = audit_html(kept)
    said = (
        "Like the rates above, these are the disparities of the model's best rule (best single cutoff), not of what "
        "is recommended (flag everyone)."
    )
    assert said in _texts(report, "p")
    at = report.index("Disparities against a reference group</h3>")
    assert at < report.index(html_escape(said)) < report.index("<table", at)  # over the disparities' table


def test_the_rates_are_what_is_recommended_when_the_model_ships(audit):  # noqa: F811
    rec = audit.recommendation
    assert rec.ship_model and rec.shipped_rule == rec.rule == R.SINGLE
    report = audit_html(audit)
    assert "Rates per group of what is recommended (best single cutoff)" in _texts(report, "h3")
    assert "does not use the model" not in report
    assert "not of what is recommended" not in report


def test_each_row_of_the_group_by_group_table_names_its_rule_as_the_table_above(kept):
    report = audit_html(kept)
    above = [row["rule"] for row in _table(report, "Each constrained rule")]
    rows = _table(report, GROUP_BY_GROUP)
    tightened = "fair: equal opportunity (fitted within 3%)"
    assert tightened in above and "fair: equal opportunity" in above  # two rules of one criterion
    assert [r["rule"] for r in rows] == [r for r in above for _ in kept.recommendation.results.cutoffs[R.SINGLE]]
    pairs = [(r["rule"], r["group"]) for r in rows]
    assert len(set(pairs)) == len(pairs)  # no rule and group twice with two cutoffs
    cut = {(r["rule"], r["group"]): r["cutoff"] for r in rows}
    assert cut[("fair: equal opportunity", "African-American")] == "≥ 0.3229"
    assert cut[(tightened, "African-American")] == "everyone"


def test_every_no_model_choice_says_how_every_case_is_decided_and_that_costs_still_differ():
    from costlib.present.report import no_model_alike

    for rule in R.BASELINES:
        said = no_model_alike(rule)
        assert R.rule_words(rule) in said and "error rates are the same" in said
        assert "cost per case still depends on its share of positive cases" in said
        assert "alike" not in said
