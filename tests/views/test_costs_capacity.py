"""Costs & groups under a review limit, headless: the setting (off by default, in the link), the
answer within it equal to costlib's, the chart read against cases flagged a month with every
marker on its point, and the price of capacity."""

from __future__ import annotations

import numpy as np

import costlib
from costlib.binary import decision as D
from costlib.binary.capacity import limit_facts, price_of_capacity
from costlib.present import capacity_words
from costlib.present.cost_figures import MARKED
from tests.views.apptest_support import compas_model, figure, open_app, texts, verdict_box


def _train():
    df, ms = compas_model()
    return df[df["split"] == "train"], ms


def test_off_by_default():
    at = open_app("compas", "views/costs.py")
    assert at.toggle(key="cap_on").value is False
    assert "cap" not in at.query_params and at.query_params["cap_on"] == "false"
    assert "capacity_chart" not in {c.key for c in at.get("plotly_chart")}


def test_a_limit_gives_the_cheapest_cutoff_within_it_and_the_price_of_capacity():
    at = open_app("compas", "views/costs.py", details="true")
    at.toggle(key="cap_on").set_value(True).run()
    at.number_input(key="cap").set_value(2000).run()
    assert not at.exception
    tr, ms = _train()
    t, _ = costlib.optimal_threshold_within(tr["two_year_recid"], tr["p_recid"], c_fp=1, c_fn=3, max_flagged=0.2)
    rec = D.recommend(ms, (1.0, 3.0), n_resamples=1000, capacity=0.2)
    assert set(rec.cutoffs.values()) == {t}  # one cutoff for everyone: the cheapest within the limit
    assert f"at least {t:.4g}" in verdict_box(at)
    shown = texts(at)
    free = D.recommend(ms, (1.0, 3.0), n_resamples=1000)
    price = price_of_capacity(ms, rec.prices, 0.2)
    limit = limit_facts({"p_recid": ms}, rec, free)
    within, price_words = capacity_words.limit_sentences(rec, free, limit, price, volume=10_000, unit="$")
    assert within in shown and price_words in shown
    assert "One more case a month that your team reviews " in shown  # what it does to the answer above
    assert at.query_params["cap_on"] == "true" and at.query_params["cap"] == "2000"
    # every section below is drawn for the limit too: one answer on the page
    rules = [t.value for t in at.dataframe if "saving against flag at random" in t.value.columns]
    assert rules, [list(t.value.columns) for t in at.dataframe][:3]
    recommended = [r for r in rules[0]["rule"] if "(recommended)" in r]
    assert recommended == ["best single cutoff (recommended)"]
    assert "flag everyone (over your review limit)" in list(rules[0]["rule"])
    keys = [c.key for c in at.get("plotly_chart")]
    assert "capacity_chart" in keys
    cap_fig = figure(at, keys.index("capacity_chart"))
    costs = np.asarray(cap_fig.data[0].y, dtype=float)
    assert (np.diff(costs) <= 1e-9 * max(1.0, float(np.abs(costs).max()))).all(), "more capacity never costs more"
    assert any(s.get("x0") == 2000 for s in cap_fig.layout["shapes"])  # the limit is marked


def test_the_x_axis_reads_cases_flagged_a_month_and_every_marker_stays_on_its_point():
    at = open_app("compas", "views/costs.py", cap_on="true", cap="2000")
    at.toggle(key="cost_x_flagged").set_value(True).run()
    assert not at.exception
    keys = [c.key for c in at.get("plotly_chart")]
    fig = figure(at, keys.index("cost_chart"))
    assert fig.layout["xaxis"]["title"]["text"] == "cases flagged a month"
    (marked,) = [t for t in fig.data if t.name == MARKED]  # every marker, in one trace
    assert len(marked.x)
    lines = {t.name: t for t in fig.data if t.mode == "lines"}
    for x, y, text in zip(marked.x, marked.y, marked.text, strict=True):
        # on its line (everybody's, or its group's): the line passes through (x, y)
        group = text.rsplit(" (", 1)[1][:-1]
        line = fig.data[0] if group == "everyone" else lines[f"group {group}"]
        xs, ys = np.asarray(line.x, dtype=float), np.asarray(line.y, dtype=float)
        near = np.isclose(xs, float(x), rtol=1e-9, atol=1e-6)
        assert near.any() and np.isclose(ys[near], float(y), rtol=1e-9).any(), (text, x, y)
    assert any(s.get("x0") == 2000 for s in fig.layout["shapes"])  # the limit, at 2,000 a month


def test_a_limit_from_a_link_is_bounded_and_needs_a_volume():
    at = open_app("compas", "views/costs.py", cap_on="true", cap="-5")
    assert not at.exception
    assert "The cases a month your team can take must be a number from 0" in texts(at)
    at = open_app("compas", "views/costs.py", cap_on="true", cap="500", volume="0")
    assert capacity_words.CAP_NEEDS_VOLUME in texts(at)


def test_a_limit_that_does_not_bind_costs_nothing():
    at = open_app("compas", "views/costs.py", cap_on="true", cap="9500")
    assert "so the limit costs the model nothing" in texts(at)
    assert "Your limit already covers what the best cutoff flags" in texts(at)


def test_a_policy_with_a_limit_restores_it():
    from costlib.answers.audit import build_audit
    from costlib.present.policy import policy_json

    _, ms = _train()
    audit = build_audit(ms, (1.0, 3.0), volume=10_000, n_resamples=100, capacity=0.15, capacity_cases=1500)
    at = open_app("compas", "views/costs.py")
    at.file_uploader(key="policy_upload").upload("policy.json", policy_json(audit).encode(), "application/json").run()
    assert not at.exception
    assert at.toggle(key="cap_on").value is True and at.number_input(key="cap").value == 1500
    assert "Your team can review 1,500 cases a month." in texts(at)


def test_a_rule_over_the_limit_shows_no_saving_and_no_price_of_fairness():
    """review57, items 2, 9 and 10: at 3,050 a month the fairness rules (fitted without the limit)
    read "−$0.308" as their price and the rules over the limit the largest savings; neither can be
    had within the limit. Their price reads "over the limit" (the caption says what that means),
    their saving "–"; every rule within it keeps its figures."""
    from costlib.present import tables

    at = open_app("compas", "views/costs.py", details="true", cap_on="true", cap="3050", fair="true")
    assert f"“{tables.OVER_THE_LIMIT}”" in capacity_words.FAIR_WITHOUT_LIMIT
    assert capacity_words.FAIR_WITHOUT_LIMIT.strip() in texts(at)
    frames = [t.value for t in at.dataframe]
    (rules,) = [f for f in frames if "saving against flag at random" in f.columns]
    over = rules["rule"].str.endswith("(over your review limit)")
    assert over.sum() >= 2  # flag everyone, the cutoff from prices alone
    for col in ("saving against flag at random", "95% interval of the saving"):
        assert set(rules.loc[over, col]) == {"–"}, rules
        assert rules.loc[~over, col].str.contains(r"\$").all(), rules
    (fair,) = [f for f in frames if "price of fairness per case" in f.columns]
    price = fair["price of fairness per case"]
    assert (price == tables.OVER_THE_LIMIT).any(), fair
    assert not price.str.startswith("−").any(), fair  # no rule over the limit "saves" by being fair
    assert not fair["cutoffs"].str.contains("over the limit").any()  # said once, in the price
    within = fair["within 5% on test"]
    assert not within.str.contains("points over").any() and within.str.match(r"^(yes|no: may reach \d+\.\d%|–)$").all()
