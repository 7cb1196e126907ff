"""Headless AppTest of the Costs & groups page: a price moves the answer, which equals costlib's;
prices in the link, per-group prices, the fairness rules and the policy file."""

import json

import numpy as np
import pytest

import costlib
import costlib.binary.fairness
from costlib import answers
from costlib.binary import decision as D
from costlib.loading.samples import SAMPLES
from costlib.present import tables, words
from costlib.present.amounts import month_money, shown_saving
from costlib.present.costs_labels import MODEL_COST
from tests.views.apptest_support import (
    assert_no_exception,
    chart_keys,
    compas_model,
    figure,
    metric,
    open_app,
    sample_frame,
    texts,
    unescape,
    verdict_box,
)


def test_costs_page_moving_c_fn_moves_the_answer_and_it_equals_costlib():
    at = open_app("compas", "views/costs.py")
    df, ms = compas_model()
    tr = df[df["split"] == "train"]

    def expected(c_fn):
        t, _ = costlib.optimal_threshold(tr["two_year_recid"], tr["p_recid"], c_fp=1.0, c_fn=c_fn)
        rec = D.recommend(ms, (1.0, c_fn), n_resamples=1000)
        assert set(rec.cutoffs.values()) == {t}  # one cutoff for everyone: the optimum on the fit rows
        return t, rec, answers.costs_verdict(rec, ms, unit="$", volume=10_000)

    t1, rec1, v1 = expected(3.0)
    assert verdict_box(at) == v1.headline
    shown = MODEL_COST
    assert metric(at, shown) == words.money(rec1.cost, "$")
    curve1 = np.asarray(figure(at, 0).data[0].y, dtype=float)
    at.select_slider(key="s_c_fn").set_value(1.0).run()
    assert_no_exception(at)
    t2, rec2, v2 = expected(1.0)
    assert t2 != t1 and v2.headline != v1.headline
    assert verdict_box(at) == v2.headline
    assert f"at least {t2:.4g}" in v2.headline
    shown = MODEL_COST
    assert metric(at, shown) == words.money(rec2.cost, "$")
    assert not np.array_equal(np.asarray(figure(at, 0).data[0].y, dtype=float), curve1)
    assert at.query_params["c_fn"] == "1"


def test_a_price_move_writes_only_the_moved_price_to_the_link(monkeypatch):
    """Every write of a query parameter is a message the browser acts on (it rewrites the
    address and tells the page's host), whether or not the value changed: a run rewrites only
    what changed."""
    from streamlit.runtime.state.query_params import QueryParams

    at = open_app("compas", "views/costs.py")
    sent = []
    send = QueryParams._send_query_param_msg
    monkeypatch.setattr(QueryParams, "_send_query_param_msg", lambda self: (sent.append(dict(self)), send(self)))
    at.select_slider(key="s_c_fn").set_value(5.0).run()
    assert_no_exception(at)
    assert len(sent) == 1, sent
    assert sent[0]["c_fn"] == "5" and at.query_params["c_fn"] == "5"


def test_exact_prices_typed_in_the_popover_reach_the_slider_and_the_link():
    at = open_app("compas", "views/costs.py")
    at.number_input(key="n_c_fp").set_value(1.7).run()
    assert_no_exception(at)
    assert at.select_slider(key="s_c_fp").value == 1.7
    assert at.query_params["c_fp"] == "1.7"
    _, ms = compas_model()
    rec = D.recommend(ms, (1.7, 3.0), n_resamples=1000)
    # the decimals the saving shown needs, no more than its interval's width warrants
    digits = shown_saving(rec.baseline_cost, rec.cost, rec.saving_low, rec.saving_high)[0]
    assert metric(at, MODEL_COST) == words.money(rec.cost, "$", digits=digits)


def test_offensive_verdict_is_measured_against_flag_everyone():
    at = open_app("offensive", "views/costs.py")
    box = verdict_box(at)
    assert "against flagging everyone" in box and "flagging nobody" not in box


def test_the_picked_model_keeps_its_cost_curve_when_the_prices_move():
    """The cost chart is made before the inputs are drawn, from what they hold (views/costs.py,
    `answer_ahead`): a model picked in "Curve of the model" and the x axis of cases flagged stay
    on the chart through a price move, and the curve is that model's at the new prices."""
    at = open_app("screening", "views/costs.py")
    models = list(at.selectbox(key="curve_model").options)
    recommended = at.selectbox(key="curve_model").value
    other = next(m for m in models if m != recommended)
    at.selectbox(key="curve_model").set_value(other).run()
    at.toggle(key="cost_x_flagged").set_value(True).run()
    at.select_slider(key="s_c_fn").set_value(7.5).run()
    assert_no_exception(at)
    title = figure(at, 0).layout["title"]["text"]
    assert other in title and "cases flagged a month" in title, title
    at.toggle(key="cost_x_flagged").set_value(False).run()
    at.select_slider(key="s_c_fn").set_value(5.0).run()
    title = figure(at, 0).layout["title"]["text"]
    assert other in title and "against the cutoff" in title, title
    sample = SAMPLES["screening"]
    frame = sample_frame("screening")
    fit, judge = (frame[sample.mapping.split] == v for v in ("train", "test"))
    ms = D.sweep_model(
        frame[sample.mapping.label], frame[other], frame[sample.mapping.group], fit=fit, judge=judge, name=other
    )
    curves = D.cost_curves(ms, D.prices_for(ms.groups, (1.0, 5.0)), max_points=costlib.present.figures.MAX_POINTS)
    everyone = curves[curves["line"].isna() & np.isfinite(curves["threshold"])]
    drawn = figure(at, 0).data[0]
    assert drawn.name == "everyone, one cutoff"
    assert np.isin(np.asarray(drawn.y, dtype=float), everyone["cost_per_case"].to_numpy()).all()


def test_costs_page_per_group_prices():
    at = open_app("compas", "views/costs.py")
    at.toggle(key="per_group").set_value(True).run()
    groups = sorted(sample_frame("compas")["race"].unique())
    at.select_slider(key="s_c_fp_0").set_value(5.0).run()
    at.select_slider(key="s_c_fp_1").set_value(7.5).run()
    assert_no_exception(at)
    costs = {g: (1.0, 3.0) for g in groups}
    costs[groups[0]] = (5.0, 3.0)
    costs[groups[1]] = (7.5, 3.0)
    _, ms = compas_model()
    rec = D.recommend(ms, costs, n_resamples=1000)
    assert metric(at, MODEL_COST) == words.money(rec.cost, "$")
    assert verdict_box(at) == answers.costs_verdict(rec, ms, unit="$", volume=10_000).headline
    # by brute force on the rows: the best one cutoff on train at each group's prices, priced on test
    df = sample_frame("compas")
    c_fp, c_fn = (
        df["race"].map({g: c[0] for g, c in costs.items()}),
        df["race"].map({g: c[1] for g, c in costs.items()}),
    )

    def cost(rows, t):
        flagged, y = rows["p_recid"] >= t, rows["two_year_recid"] == 1
        return float((c_fp[rows.index] * (flagged & ~y) + c_fn[rows.index] * (~flagged & y)).sum() / len(rows))

    tr, te = df[df["split"] == "train"], df[df["split"] == "test"]
    candidates = sorted(set(tr["p_recid"]) | {np.inf}, reverse=True)
    best = min(candidates, key=lambda t: (round(cost(tr, t), 12), -t))  # ties to the larger cutoff
    assert rec.rule == "best single cutoff" and set(rec.cutoffs.values()) == {best}
    assert metric(at, MODEL_COST) == words.money(cost(te, best), "$")


def test_when_the_model_adds_nothing_the_page_says_so_once():
    at = open_app("compas", "views/costs.py", c_fp=20, c_fn=1)
    assert at.select_slider(key="s_c_fp").value == 20
    box = verdict_box(at)
    assert box.startswith("Do not let the model decide: its cheapest cutoff") and "flags nobody" in box
    assert len(at.error) == 1


def test_a_price_from_a_link_is_bounded_like_its_slider():
    at = open_app("compas", "views/costs.py", c_fp="1e308", c_fn="nan")
    assert_no_exception(at)
    assert at.select_slider(key="s_c_fp").value == 1.0 and at.select_slider(key="s_c_fn").value == 3.0
    notes = "\n".join(unescape(w.value) for w in at.warning)
    assert (
        "The link's price of a false positive was not used. A price must be a number from 0 to 1,000,000,000: got "
        "1e308" in notes
    )


def test_a_typed_price_goes_into_the_link_whole():
    """A link reproduces the view: a price with more than six digits is not rounded on its way
    into the URL (it was written with %g: 1234567 became 1.23457e+06)."""
    at = open_app("compas", "views/costs.py", c_fp="1234567", c_fn="0.125")
    assert at.query_params["c_fp"] == "1234567" and at.query_params["c_fn"] == "0.125"
    at.number_input(key="n_c_fn").set_value(2.0000001).run()
    assert_no_exception(at)
    assert at.query_params["c_fn"] == "2.0000001"


def test_costs_page_fairness_rules_equal_costlib_and_can_be_switched_off():
    at = open_app("compas", "views/costs.py", details="true")
    table = [t.value for t in at.dataframe if "price of fairness per case" in t.value.columns][0]
    stated = [f"fair: {c}" for c in costlib.binary.fairness.FAIRNESS_CRITERIA]
    assert list(table["rule"])[: len(stated)] == stated  # then the rules fitted tighter, where one may miss
    assert all(r.startswith(tuple(stated)) for r in table["rule"])
    df = sample_frame("compas")
    tr = df[df["split"] == "train"]
    costs = {g: (1.0, 3.0) for g in tr["race"].unique()}
    fc = costlib.binary.fairness.fair_thresholds(
        tr["two_year_recid"], tr["p_recid"], tr["race"], costs=costs, criterion="equal opportunity", tolerance=0.05
    )
    shown = table.set_index("rule").loc["fair: equal opportunity", "cutoffs"]
    assert shown == tables.PER_GROUP  # a list of groups does not fit the cell; the table below has them
    # a row per rule and group: six race × sex groups fit the page at 1400 px
    per_group = [t.value for t in at.dataframe if list(t.value.columns) == ["rule", "group", "cutoff"]][0]
    per_group = per_group[per_group["rule"] == "fair: equal opportunity"].set_index("group")
    lowest = tr.groupby("race")["p_recid"].min().to_dict()
    for g, t in fc.thresholds.items():
        want = words.cutoffs_short({g: t}, grouped=False, lowest=lowest)
        assert per_group.loc[g, "cutoff"] == want, g
    # its price: the fair rule's test cost minus the best cutoffs per group's, counted on the rows
    te = df[df["split"] == "test"]
    opt = costlib.cost_optimal_thresholds(tr["two_year_recid"], tr["p_recid"], tr["race"], costs=costs)

    def cost(cut):
        t = te["race"].map(cut).to_numpy()
        flagged = te["p_recid"].to_numpy() >= t
        y = te["two_year_recid"].to_numpy()
        return (np.sum(flagged & (y == 0)) + 3 * np.sum(~flagged & (y == 1))) / len(te)

    price = table.set_index("rule").loc["fair: equal opportunity", "price of fairness per case"]
    assert price == words.money(cost(fc.thresholds) - cost(opt), "$")
    at.toggle(key="fair").set_value(False).run()
    assert not [t for t in at.dataframe if "price of fairness per case" in t.value.columns]


def test_a_policy_without_a_unit_keeps_the_persons_unit_and_its_tolerance_is_restored():
    from costlib.answers.audit import build_audit
    from costlib.present.policy import policy_dict

    df, ms = compas_model()
    audit = build_audit(ms, (1.0, 3.0), unit="€", n_resamples=50, fairness_tolerance=0.12)
    saved = {k: v for k, v in policy_dict(audit).items() if k != "unit"}
    at = open_app("compas", "views/costs.py")
    at.text_input(key="unit").input("minutes").run()
    at.file_uploader(key="policy_upload").upload("p.json", json.dumps(saved).encode(), "application/json").run()
    assert_no_exception(at)
    assert at.text_input(key="unit").value == "minutes"  # not replaced by nothing
    said = texts(at)
    assert "Restored the prices and the fairness tolerance of the policy" in said, said
    assert float(at.session_state["_keep_fair_tol"]) == 0.12


def test_policy_download_restores_the_prices_in_a_fresh_session():
    from costlib.answers.audit import build_audit
    from costlib.present.policy import policy_json

    df, ms = compas_model()
    groups = sorted(df["race"].unique())
    costs = {g: (5.0 if g == "African-American" else 7.5, 3.0) for g in groups}
    audit = build_audit(ms, costs, unit="€", volume=2500, n_resamples=100)
    at = open_app("compas", "views/costs.py")
    at.file_uploader(key="policy_upload").upload("policy.json", policy_json(audit).encode(), "application/json").run()
    assert_no_exception(at)
    said = texts(at)
    assert "Restored the prices, the unit, the cases a month and the fairness tolerance of the policy" in said, said
    assert at.toggle(key="per_group").value is True
    assert [at.select_slider(key=f"s_c_fp_{i}").value for i in range(3)] == [costs[g][0] for g in groups]
    assert at.text_input(key="unit").value == "€"
    rec = D.recommend(ms, costs, n_resamples=1000)
    assert metric(at, MODEL_COST) == words.money(rec.cost, "€")


def test_a_foreign_or_hostile_policy_file_is_a_sentence():
    for bad in (
        b'{"hello": 1}',
        b"[" * 100_000,
        b'\xef\xbb\xbf{"schema": "costlib.policy", "schema_version": ' + b"9" * 5000 + b"}",
    ):
        at = open_app("compas", "views/costs.py")
        at.file_uploader(key="policy_upload").upload("my_policy.json", bad, "application/json").run()
        assert_no_exception(at)
        assert any("policy" in unescape(e.value).lower() for e in at.error)
        assert any("my\\_policy.json" in e.value or "my_policy.json" in unescape(e.value) for e in at.error)  # named


def test_without_a_group_column_the_cutoff_is_not_worded_as_flag_everyone():
    at = open_app("offensive", "views/costs.py")
    box = verdict_box(at)
    assert "flag a case when its score is at least" in box
    assert "flags everyone at a score" not in box and "fitted on the all rows" not in texts(at)


def test_costs_page_offers_the_questions_before_the_sliders():
    at = open_app("compas", "views/costs.py")
    links = [p.proto.label for p in at.get("page_link")]
    assert "Not sure about your prices? Answer a few questions" in links


def test_the_slower_costs_sections_are_drawn_on_request_and_the_link_keeps_the_choice():
    folded = open_app("compas", "views/costs.py")
    assert chart_keys(folded) == {"cost_chart"} and answers.COSTS_DETAILS.folded in texts(folded)
    assert not [t for t in folded.dataframe if "price of fairness per case" in t.value.columns]
    folded.toggle(key="details").set_value(True).run()
    assert_no_exception(folded)
    assert {"sensitivity_chart", "net_benefit_chart"} <= chart_keys(folded)
    assert folded.query_params["details"] == "true"
    linked = open_app("compas", "views/costs.py", details="true")
    assert {"sensitivity_chart", "net_benefit_chart"} <= chart_keys(linked)


def test_the_price_of_capacity_and_the_cases_flagged_chart_agree_with_the_answer_at_a_limit():
    """Issue 44, item 1, on the page: COMPAS, $25 / $60, 10,000 cases a month, 400 reviewed. The
    model's best within 400 flags nobody (its top block of tied scores is bigger); one more case
    changes nothing and 100 more change the answer by what it costs at 500, and the chart read
    against cases flagged shows, at 400, what that answer costs (not a point between blocks)."""
    at = open_app("compas", "views/costs.py", c_fp=25, c_fn=60, cap_on="true", cap=400, resamples=1000)
    _, ms = compas_model()
    rec = D.recommend(ms, (25.0, 60.0), n_resamples=1000, capacity=0.04)
    at_500 = D.recommend(ms, (25.0, 60.0), n_resamples=1000, capacity=0.05)
    shown = texts(at)
    assert "One more case a month that your team reviews leaves the model's answer as it is" in shown
    assert f"100 more save about {words.money((rec.cost - at_500.cost) * 10_000, '$')} a month" in shown
    at.toggle(key="cost_x_flagged").set_value(True).run()
    assert_no_exception(at)
    keys = [c.key for c in at.get("plotly_chart")]
    line = figure(at, keys.index("cost_chart")).data[0]
    xs, ys = np.asarray(line.x, dtype=float), np.asarray(line.y, dtype=float)
    assert line.line["shape"] == "hv"  # held from the last point at or left of each x: whole blocks
    drawn = ys[np.searchsorted(xs, 400, side="right") - 1]
    np.testing.assert_allclose(drawn, rec.cost, rtol=1e-9)


def test_the_net_benefit_label_runs_into_the_chart_not_past_its_end():
    """Issue 44, item 5: at $3 / $1 the formula cutoff is 0.75 and its label ran right from the
    line, past the thresholds' end at 1; Plotly widened the axis to 3 to fit it, squeezing the
    curves into a third of the chart. The label now runs toward the middle of the data."""
    from tests.views.apptest_support import charts

    at = open_app("compas", "views/costs.py", c_fp=3, c_fn=1, details="true")
    spec = next(c for c in charts(at) if c["layout"]["title"]["text"].startswith("Net benefit"))
    (note,) = [a for a in spec["layout"]["annotations"] if a["text"].startswith("your prices")]
    assert note["x"] == pytest.approx(0.75)
    assert note["xanchor"] == "right"  # right of the thresholds' middle: the label runs left, into the chart


def test_the_first_tile_is_the_models_cost_under_every_verdict():
    """Issue 44, item 6: the first tile was the model's cost per case under a verdict that ships
    it and the choice without a model's under one that does not. Each tile now means one thing
    under every verdict (the model's cost, the cost without a model, the model's saving per case
    and a month: "might save" when the verdict does not ship it); the verdict above them is worded
    as before."""

    _, ms = compas_model()
    seen = set()
    for c_fn in (1.0, 3.0):  # the model ships at $1 / $1; at $1 / $3 its saving over flagging everyone is unclear
        at = open_app("compas", "views/costs.py", c_fp=1, c_fn=c_fn)
        rec = D.recommend(ms, (1.0, c_fn), n_resamples=1000)
        seen.add(rec.ship_model)
        assert verdict_box(at) == answers.costs_verdict(rec, ms, unit="$", volume=10_000).headline
        tiles = [(m.label, m.value) for m in at.metric]
        # not a saving anyone gets unless it ships, nor one to count on when its interval reaches zero
        saves = "saves" if rec.ship_model else "might save" if rec.status == D.UNCLEAR else "would save"
        digits, shown = shown_saving(rec.baseline_cost, rec.cost)  # the tiles subtract as they read
        assert tiles == [
            (MODEL_COST, words.money(rec.cost, "$", digits=digits)),
            ("Cost per case without a model", words.money(rec.baseline_cost, "$", digits=digits)),
            (f"The model {saves} per case", words.money(shown, "$", digits=digits)),
            # a month as the saving per case reads, times the cases (`amounts.month_figure`): $0.113 is $1,130
            (f"The model {saves} a month", month_money(shown * 10_000, "$")),
        ], (c_fn, tiles)
    assert seen == {True, False}  # one verdict of each kind
