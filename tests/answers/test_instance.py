"""The Instance costs page's answer object: its figures and another cutoff's tables come from the
answer, at the recommended cutoff they say what the recommendation says, and it says it in the
user's money (a mistake on a typical case at the page's price) and in plain words."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from costlib.answers.instance import cutoff_axis, cutoff_start, instance_answer, round_down
from costlib.instance import NecSweeps, nec_money
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present import labels as t
from costlib.present.amounts import money, month_money, shown_saving

# what a first-time reader should not meet in the page's intro, answer, caption, titles and legends
JARGON = ("NEC", "δ", "delta", "Normalized", "normalized", "judged cases", "ratio", "interval of the difference", "|")


@pytest.fixture(scope="module")
def ds():
    s = SAMPLES["offensive"]
    return prepare(pd.read_csv(io.BytesIO(sample_bytes("offensive"))), s.mapping, name=s.filename, fingerprint="o")


@pytest.fixture(scope="module")
def answer(ds):
    return instance_answer(ds)


def test_at_the_recommended_cutoff_the_table_says_what_the_recommendation_says(answer):
    rec = answer.rec
    shown = answer.at_cutoff(rec.threshold)
    row = shown.overall_csv.set_index("option").loc[rec.model]
    assert row["NEC"] == pytest.approx(rec.nec)
    assert row["error rate"] == pytest.approx(rec.error_rate)
    assert shown.overall_csv.set_index("option").loc[rec.baseline, "NEC"] == pytest.approx(rec.baseline_nec)


def test_the_cutoff_reads_the_same_on_the_chart_as_in_the_answer(answer):
    """The answer and the slider say 0.6381; the chart title said 0.64 and the marker 0.638."""
    rec = answer.rec
    shown = f"{rec.threshold:.4g}"
    fig = answer.at_cutoff(rec.threshold).figure
    assert fig.layout.title.text.endswith(f"at the cutoff {shown}")
    marks = [a.text for a in answer.figure().layout.annotations]
    assert f"recommended: {shown}" in marks, marks


def test_the_figures_show_every_model_and_every_judged_delta(answer):
    lines = answer.figure()
    shown = {t.name for t in lines.data}
    assert set(answer.curves["model"]) <= shown
    hist = answer.delta_figure()
    assert sum(np.asarray(t.x).size for t in hist.data) == answer.delta.size


def _brute_cost_per_case(scores, delta, cutoff, price):
    """Row by row: a mistake on case i costs price * |delta_i| / mean |delta|; the mean over the cases."""
    d = np.asarray(delta, float)
    wrong = (np.asarray(scores) >= cutoff) != (d > 0)
    each = price * np.abs(d) / np.abs(d).mean()
    return float(np.where(wrong, each, 0.0).mean())


def test_the_answer_says_the_cost_per_case_and_a_month_in_the_users_unit(answer, ds):
    """The headline gave NEC 0.036 against 0.143 and an interval of 0.100 to 0.113, in no unit;
    at $2 for a mistake on a typical case it says dollars per case and a month."""
    rec, price, volume = answer.rec, 2.0, 10_000
    judge = ds.purpose_rows("judge")
    cost = _brute_cost_per_case(ds.scores[rec.model][judge], ds.delta[judge], rec.threshold, price)
    assert cost == pytest.approx(price * rec.nec)  # the money is NEC times the price
    v = answer.verdict(price, "$", volume)
    assert v.kind == "success"  # the verdict is the one it was: only how it is said changes
    head = v.headline
    # a month: the per-case amount as it reads, times the cases (`amounts.month_figure`: beside the interval)
    said = money(cost, "$")
    assert f"{said} per case ({month_money(float(said[1:]) * volume, '$')} a month)" in head, head
    base = price * rec.baseline_nec
    said = money(base, "$")
    assert f"{said} per case ({month_money(float(said[1:]) * volume, '$')} a month)" in head, head
    assert f"{money(price * rec.saving_low, '$')} to {money(price * rec.saving_high, '$')}" in head, head
    assert f"at least {rec.threshold:.4g}" in head
    # the price moves the money and nothing else
    assert answer.verdict(4.0, "$", volume).headline.count("$") == head.count("$")
    # at the decimals the saving reads at beside its interval (`amounts.shown_saving`)
    digits = shown_saving(2 * base, 2 * cost, 2 * price * rec.saving_low, 2 * price * rec.saving_high)[0]
    assert money(2 * cost, "$", digits=digits) in answer.verdict(4.0, "$", volume).headline


def test_what_a_reader_reads_first_is_in_plain_words(answer):
    v = answer.verdict(1.0, "$", 10_000)
    lines = answer.figure(1.0, "$")
    bars = answer.at_cutoff(answer.rec.threshold).figure
    hist = answer.delta_figure()
    read_first = [t.INSTANCE_WHAT, t.TYPICAL_MISTAKE, t.TYPICAL_MISTAKE_HELP, t.CUTOFF_HELP, v.headline, *v.details]
    read_first += [answer.sentence, *answer.at_cutoff(0.5).overall.columns]
    for fig in (lines, bars, hist):
        read_first += [fig.layout.title.text, fig.layout.xaxis.title.text, fig.layout.yaxis.title.text]
        read_first += [tr.name for tr in fig.data if tr.name not in answer.curves["model"].unique()]
        read_first += [a.text for a in fig.layout.annotations]
    said = [(word, text) for text in read_first for word in JARGON if text and word in text]
    assert not said, said
    # the terms are explained, one sentence each, where a reader who wants them looks
    terms = answer.terms(1.0, "$")
    assert any(x.startswith("Instance cost δ") for x in terms) and any("(NEC" in x for x in terms)
    assert "ln((yes + 1)/(no + 1))" in " ".join(terms)


def test_the_explore_table_gives_every_option_its_cost_per_case_and_a_month(answer, ds):
    rec = answer.rec
    judge = ds.purpose_rows("judge")
    shown = answer.at_cutoff(0.8, price=3.0, unit="€", volume=1000)
    table = shown.overall.set_index("option")
    assert list(table.columns) == ["cases", "error rate", "weighted error", "cost per case", "cost a month"]
    cost = _brute_cost_per_case(ds.scores[rec.model][judge], ds.delta[judge], 0.8, 3.0)
    assert table.loc[rec.model, "cost per case"] == money(cost, "€")
    assert table.loc[rec.model, "cost a month"] == month_money(cost * 1000, "€")
    everyone = _brute_cost_per_case(np.ones(judge.sum()), ds.delta[judge], 0.5, 3.0)
    assert table.loc["flag everyone", "cost per case"] == money(everyone, "€")  # the no-model choice beside it
    assert shown.overall_csv.set_index("option").loc[rec.model, "cost per case (€)"] == pytest.approx(cost)


def test_a_groups_cost_per_case_counts_its_own_cases_costs():
    """By group the money is NEC of the group times its weight against every case's: the groups'
    costs, weighted by their cases, add up to the cost of every case (brute force row by row)."""
    rng = np.random.default_rng(3)
    n = 400
    d = rng.normal(0, 1, n) * np.where(rng.random(n) < 0.3, 4.0, 1.0)
    g = np.array(["a", "b", "c"], dtype=object)[rng.integers(0, 3, n)]
    d[g == "c"] *= 3  # group c's cases cost more
    s = rng.random(n)
    sweeps = NecSweeps.of({"m": s}, d, groups=g)
    overall, by_group = sweeps.table(0.4)
    weights = dict(zip(sweeps.groups, sweeps.relative_weights(), strict=True))
    for name in ("a", "b", "c"):
        nec = by_group.set_index(["option", "group"]).loc[("m", name), "NEC"]
        sel = g == name
        wrong = (s >= 0.4) != (d > 0)
        want = float(np.where(wrong & sel, 5.0 * np.abs(d) / np.abs(d).mean(), 0.0).sum() / sel.sum())
        assert float(nec_money(nec, 5.0, relative_weight=weights[name])) == pytest.approx(want)
    assert weights["c"] > 1 > weights["a"]


def test_a_key_press_moves_the_cutoff_visibly_and_the_start_flags_what_the_answer_flags(answer, ds):
    """The slider moved by 0.0001 a key press, invisible at any zoom; now by 0.001 on probabilities.
    Its start is the recommended cutoff 0.638132 rounded down as far as it flags the same test cases:
    0.638 would flag one more (scored 0.638087), so 0.6381, shown with four decimals."""
    assert answer.cutoff_step == 0.001
    low, high, start = answer.cutoff_range
    assert (low, high) == (0.0, 1.0)
    rec = answer.rec
    scores = ds.scores[rec.model][ds.purpose_rows("judge")]
    assert start <= rec.threshold
    np.testing.assert_array_equal(scores >= start, scores >= rec.threshold)
    assert (start, answer.cutoff_format) == (0.6381, "%.4f")
    assert answer.cutoff_format % (start + answer.cutoff_step) != answer.cutoff_format % start


def test_the_start_takes_a_finer_step_only_where_the_coarse_one_would_flag_more():
    s = np.array([0.1, 0.6375, 0.63805, 0.9])
    assert cutoff_start(s, 0.63812, 0.001, low=0.0) == (0.6381, 0.0001)  # 0.638 would flag 0.63805 too
    assert cutoff_start(s[[0, 3]], 0.63812, 0.001, low=0.0) == (0.638, 0.001)
    start, step = cutoff_start(np.array([0.638105, 0.9]), 0.63812, 0.001, low=0.0)
    assert (start, step) == (0.63812, pytest.approx(1e-5))
    # finer than that the slider cannot help it: the start flags the few cases in between
    start, step = cutoff_start(np.array([0.638121, 0.9]), 0.638123, 0.001, low=0.0)
    assert (start, step) == (0.63812, pytest.approx(1e-5))


@pytest.mark.parametrize("x", [0.638, 0.6381, 0.1 + 0.2, -1.2345, 12.0, 0.999999])
@pytest.mark.parametrize("step", [0.01, 0.001, 0.0001])
def test_rounding_down_to_the_step_never_rises_above_and_stays_within_a_step(x, step):
    r = round_down(x, step)
    assert r <= x < r + step + 1e-12
    assert abs(r / step - round(r / step)) < 1e-6  # on the step's grid


def test_scores_that_are_not_probabilities_get_a_step_of_a_thousandth_of_their_range():
    low, high, step = cutoff_axis(-40.0, 460.0, probabilities=False)
    assert (low, high, step) == (-40.0, 460.0, 0.1)


def test_the_table_by_group_gives_each_group_its_own_cost_per_case(answer, ds):
    """Groups whose cases cost more than the typical one cost more per case than their weighted
    error says: weighted by their cases, the groups' costs add up to every case's cost."""
    import dataclasses

    judge = ds.purpose_rows("judge")
    judged = {m: s[judge] for m, s in ds.scores.items()}
    d = answer.delta
    groups = np.where(np.abs(d) > np.median(np.abs(d)), "clear-cut", "ambiguous").astype(object)
    grouped = dataclasses.replace(answer, necs=NecSweeps.of(judged, d, groups=groups))
    shown = grouped.at_cutoff(0.7, price=4.0, unit="$", volume=500)
    assert list(shown.by_group.columns) == ["option", "group", "cases", "error rate", "weighted error", "cost per case"]
    csv = shown.by_group_csv.set_index(["option", "group"])["cost per case ($)"]
    overall = shown.overall_csv.set_index("option")["cost per case ($)"]
    n = {g: int((groups == g).sum()) for g in ("ambiguous", "clear-cut")}
    for option in overall.index:
        together = sum(csv.loc[(option, g)] * n[g] for g in n) / len(d)
        assert together == pytest.approx(overall.loc[option])
    row = shown.by_group.set_index(["option", "group"]).loc[("score_lr", "clear-cut")]
    assert row["cost per case"] == money(csv.loc[("score_lr", "clear-cut")], "$")
