"""A first-time user prices mistakes on the default sample and reads the cost-optimal cutoffs."""

from __future__ import annotations

import pytest
from e2e_support import (
    alert_texts,
    data_choice,
    full_screenshot,
    goto,
    grid_after,
    grid_rows,
    nav,
    set_number,
    step,
    wait_for_chart,
)

from costlib import loading, words
from costlib.costs import ALL_GROUPS, rules_table
from costlib.samples_registry import SAMPLES, sample_bytes

pytestmark = pytest.mark.browser

VOLUME = 10_000  # the page's default "Cases per month"
GROUPS = ("African-American", "Caucasian", "Other")


def compas_rules(costs: dict[str, tuple[float, float]]):
    """costlib's rules table for the COMPAS sample, built as pages/costs.py builds it by default:
    cutoffs fitted on the train rows and judged on the test rows, plus (when the page offers
    them) the fairness-constrained cutoffs for every criterion at the default tolerance."""
    sample = SAMPLES["compas"]
    data = sample_bytes("compas")
    ds = loading.prepare(loading.read_table(data, sample.filename), sample.mapping, name=sample.title,
                         fingerprint=loading.fingerprint(data))
    fit, judge = ds.rows("train"), ds.rows("test")
    y, s, g = ds.y, ds.scores["p_recid"], ds.groups
    train, test = (y[fit], s[fit], g[fit]), (y[judge], s[judge], g[judge])
    extra = {}
    try:
        from costlib.audit import FAIRNESS_CRITERIA, fair_thresholds
    except ImportError:  # a costlib without fairness-constrained cutoffs
        FAIRNESS_CRITERIA = {}  # noqa: N806
    for crit in FAIRNESS_CRITERIA:
        extra[f"fair: {crit}"] = fair_thresholds(*train, costs=costs, criterion=crit, tolerance=0.05).thresholds
    return rules_table(train, test, costs=costs, extra_cutoffs=extra)


def check_rules_on_page(page, expected) -> None:
    shown = grid_rows(page, grid_after(page, "Cutoff rules by group"))
    assert len(shown) == len(expected), [(r["rule"], r["group"]) for r in shown]
    cost_col = next(c for c in shown[0] if c.startswith("cost per 100"))
    for got, (_, want) in zip(shown, expected.iterrows(), strict=True):
        where = f"{want['rule']} / {want['group']}"
        assert (got["rule"], got["group"]) == (want["rule"], want["group"])
        assert got["cutoff"] == words.cutoff(want["threshold"]), where
        # the column is formatted "%.2f": compare to the digits shown
        assert f"{float(got[cost_col]):.2f}" == f"{want['cost_per_100']:.2f}", where


def metric(page, label: str) -> str:
    box = page.locator('[data-testid="stMetric"]', has=page.locator('[data-testid="stMetricLabel"]',
                                                                     has_text=label))
    return box.locator('[data-testid="stMetricValue"]').inner_text().strip()


def test_first_time_user_prices_per_group(page, app_url):
    goto(page, app_url + "/")
    assert data_choice(page) == "Recidivism risk (COMPAS)"
    nav(page, "Costs & groups")

    set_number(page, "Cost of a false positive", 2)
    set_number(page, "Cost of a false negative", 5)
    table = compas_rules({g: (2.0, 5.0) for g in GROUPS})
    assert words.cost_verdict(table, unit="$", volume=VOLUME)[0] in alert_texts(page)
    check_rules_on_page(page, table)

    page.get_by_text("Different prices per group", exact=True).click()
    step(page, "after turning on per-group prices")
    prices = {"African-American": (1.0, 4.0), "Caucasian": (2.0, 3.0), "Other": (1.5, 6.0)}
    for i, (fp, fn) in enumerate(prices.values()):  # the inputs come in sorted group order
        set_number(page, "false positive", fp, nth=i)
        set_number(page, "false negative", fn, nth=i)
    wait_for_chart(page)

    table = compas_rules(prices)
    verdict, useless = words.cost_verdict(table, unit="$", volume=VOLUME)
    assert not useless
    assert verdict in alert_texts(page)
    check_rules_on_page(page, table)
    opt = table[(table["rule"] == "cost-optimal") & (table["group"] != ALL_GROUPS)]
    assert opt["threshold"].nunique() == 3  # the cost-optimal cutoffs differ by group, as the prices do
    all_opt = table[(table["rule"] == "cost-optimal") & (table["group"] == ALL_GROUPS)].iloc[0]
    assert metric(page, "Cost-optimal cost per 100 cases") == words.money(all_opt["cost_per_100"], "$")
    assert page.get_by_text("African-American: Elkan threshold 0.200, Caucasian: Elkan threshold 0.400, "
                            "Other: Elkan threshold 0.200").count() == 1
    full_screenshot(page, "test_first_time_user_prices_per_group")


def test_expensive_false_positives_say_do_not_decide(page, app_url):
    goto(page, app_url + "/")
    nav(page, "Costs & groups")
    set_number(page, "Cost of a false positive", 20)
    set_number(page, "Cost of a false negative", 1)
    wait_for_chart(page)
    table = compas_rules({g: (20.0, 1.0) for g in GROUPS})
    verdict, useless = words.cost_verdict(table, unit="$", volume=VOLUME)
    assert useless
    error = page.locator('[data-testid="stAlert"]', has_text="should not be making these decisions")
    assert error.inner_text().strip() == verdict
    check_rules_on_page(page, table)
    full_screenshot(page, "test_expensive_false_positives_say_do_not_decide")
