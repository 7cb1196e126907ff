"""The Value page's answer object: one call gives the verdict, numbers and sentences the page
showed, its sections are drawn on request, and the sweeps and the recommendation are made once
through the page's memo (a unit or a volume only rewords)."""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd
import pytest
from counting_memo import Store

from costlib import value
from costlib.answers.calibration import calibration_advice_line
from costlib.answers.value import (
    K_GRID,
    ValueAnswer,
    acceptance_table,
    calibrated_sweeps,
    judged_cases,
    models_by_k,
    value_answer,
    value_calibration_table,
    value_k,
    value_k_sentence,
    value_sweeps,
)
from costlib.answers.value_sections import outcome_sweeps
from costlib.core import settings
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present.value_limit_words import value_capacity_sentence
from costlib.present.value_verdict import value_verdict
from costlib.present.value_words import FITTED_RULE, VALUE_CAP_NO_VOLUME, value_metrics


@pytest.fixture(scope="module")
def screening():
    s = SAMPLES["screening"]
    return prepare(pd.read_csv(io.BytesIO(sample_bytes("screening"))), s.mapping, name=s.filename, fingerprint="s")


@pytest.fixture(scope="module")
def no_split():
    """The screening sample with its split column left unmapped."""
    import dataclasses

    s = SAMPLES["screening"]
    mapping = dataclasses.replace(s.mapping, split=None)
    return prepare(pd.read_csv(io.BytesIO(sample_bytes("screening"))), mapping, name=s.filename, fingerprint="n")


NAMES = [""]
COSTS = {"": (3.0, 3.0)}  # one price of a wrong answer: the answer at k
SEPARATE = {"": (1.0, 5.0)}  # two prices: the answer prices each mistake on its own


def _answer(ds, costs=COSTS, **kw) -> ValueAnswer:
    options = {"worth": 1.0, "reject_worth": 0.0, "unit": "$", "volume": 1000.0}
    options |= kw
    return value_answer(ds, costs, names=NAMES, **options)


def test_the_answer_is_what_the_page_said_with_the_functions_one_by_one(screening):
    answer = _answer(screening, worth=2.0, reject_worth=0.5)
    sweeps = value_sweeps(screening)
    choice = value_k(COSTS, judged_cases(screening, NAMES), 2.0, None, settings.K.high)
    assert choice.k == pytest.approx(1.5)  # a wrong answer costs 3, a right one earns 2: k = 3 / 2
    rec = value.recommend_value(sweeps.judge, k=1.5, reject_value=0.25, fit_sweeps=sweeps.fit)
    want = value_verdict(rec, k=1.5, worth=2.0, unit="$", volume=1000.0)
    assert answer.verdict.headline == want.headline and answer.verdict.details == want.details
    assert (answer.rec.model, answer.rec.tau, answer.rec.value) == (rec.model, rec.tau, rec.value)
    assert answer.rec is answer.k_rec
    assert answer.metrics == value_metrics(rec, worth=2.0, unit="$", volume=1000.0)
    assert answer.k_sentence == value_k_sentence(choice, 2.0, "$")
    assert answer.limit_note is None and answer.counts_only_note is None
    assert answer.drawn_for == (1.5, 0.25, 2.0)


def test_at_separate_prices_the_answer_is_the_per_outcome_rule_of_the_same_functions(screening):
    """Prices 1 and 5, a right answer worth 2: the answer is `recommend_outcome` at k_fp 0.5 and
    k_fn 2.5, its thresholds fitted on the train rows, not the answer at the mean price (k = 1.5)."""
    from costlib.value.per_outcome import recommend_outcome

    answer = _answer(screening, SEPARATE, worth=2.0, reject_worth=0.5)
    judge, fit = screening.purpose_rows("judge"), screening.purpose_rows("fit")
    rec = recommend_outcome(
        screening.y[judge],
        {m: s[judge] for m, s in screening.scores.items()},
        k_fp=0.5,
        k_fn=2.5,
        reject_value=0.25,
        y_fit=screening.y[fit],
        fit_scores={m: s[fit] for m, s in screening.scores.items()},
    )
    assert (answer.rec.model, answer.rec.tau_pos, answer.rec.tau_neg) == (rec.model, rec.tau_pos, rec.tau_neg)
    assert (answer.rec.value, answer.rec.reject_rate, answer.rec.status) == (rec.value, rec.reject_rate, rec.status)
    assert answer.k_rec is not answer.rec and answer.k == pytest.approx(1.5)
    assert answer.metrics == value_metrics(rec, worth=2.0, unit="$", volume=1000.0)
    assert "“positive” when its confidence is at least" in answer.verdict.headline
    assert any("priced on its own" in d for d in answer.verdict.details)
    # the per-outcome table's row of the page's rule reads the answer's numbers
    table = answer.acceptance_table(k_tp=1.0, k_fp=0.5, k_fn=2.5)
    row = table[(table["model"] == rec.model) & (table["acceptance rule"] == FITTED_RULE)].iloc[0]
    assert row["value per case"] == pytest.approx(rec.value * 2.0) and row["handed over"] == pytest.approx(
        rec.reject_rate
    )


def test_a_new_unit_or_volume_rewords_without_sorting_or_fitting_again(screening):
    store = Store()
    first = _answer(screening, remember=store)
    assert store.made == ["judged_cases", "value_sweeps", "value_rec"]
    again = _answer(screening, unit="EUR", volume=50.0, remember=store)
    assert store.made == ["judged_cases", "value_sweeps", "value_rec"]
    assert again.rec is first.rec and again.sweeps is first.sweeps
    assert "EUR" in again.verdict.headline and "EUR" not in first.verdict.headline


def test_a_price_move_at_separate_prices_sorts_the_rows_once(no_split):
    """The answer at separate prices and its chart read one sorting of each model's rows per data
    set (`value_outcome_sweeps`): a move of a price makes the answer and the chart again, not the
    sorted rows, and both read the same sorted rows the first move made."""
    store = Store()
    first = _answer(no_split, SEPARATE, remember=store)
    first.tau_figure(first.rec.model)
    kept = store.kept[("value_outcome_sweeps", ())]
    moved = _answer(no_split, {"": (1.0, 7.0)}, remember=store)
    moved.tau_figure(moved.rec.model)
    from unittest.mock import patch

    from costlib.value import per_outcome

    with patch.object(per_outcome, "outcome_sweep", side_effect=AssertionError("sorted again")):
        moved.acceptance_table(k_tp=1.0, k_fp=1.0, k_fn=7.0)  # the table's fitted rule reads the same sorted rows
    assert store.made.count("value_outcome_sweeps") == 1
    assert store.made.count("value_outcome") == 2 and store.made.count("value_outcome_curves") == 2
    assert store.kept[("value_outcome_sweeps", ())] is kept and kept.fit is None  # no split: cross-fitted
    assert moved.rec.estimate == "cross-fitted" and moved.rec.k_fn == 7.0
    # the interval's sentence names what it counts: how far the pair fitted on all rows moves with the rows
    assert any("how far the two thresholds fitted on all rows would move" in d for d in moved.verdict.details)
    at_k = _answer(no_split, remember=store)  # one price: the threshold at k, cross-fitted the same way
    assert any("how far the threshold fitted on all rows would move" in d for d in at_k.verdict.details)


def test_a_k_move_makes_one_recommendation_and_reads_the_sweeps(screening):
    store = Store()
    _answer(screening, remember=store).k_figure()
    moved = _answer(screening, moved_k=8.0, remember=store)
    moved.k_figure()  # the values against k do not depend on k: only its mark moves
    assert store.made == ["judged_cases", "value_sweeps", "value_rec", "value_k", "value_rec"]
    assert moved.k == 8.0 and moved.choice.moved and "You moved the slider to k = 8." in moved.k_sentence
    subtitle = moved.tau_figure(moved.rec.model).layout.title.subtitle.text
    assert subtitle == "At this price, one wrong answer cancels out 8 right answers"


def test_the_sections_below_are_drawn_on_request_from_the_same_functions(screening):
    store = Store()
    answer = _answer(screening, moved_k=2.0, remember=store)
    assert store.made == ["judged_cases", "value_sweeps", "value_rec"]  # nothing below until asked
    cal = answer.calibration_table()
    want = value_calibration_table(
        calibrated_sweeps(screening), value_sweeps(screening), k=2.0, reject_value=0.0, worth=1.0
    )
    pd.testing.assert_frame_equal(cal, want)
    answer.calibration_table()
    assert store.made.count("calibrated_sweeps") == 1 and store.made.count("value_calibration") == 1
    got = answer.acceptance_table(k_tp=3.0, k_fp=1.0, k_fn=5.0)
    rows = outcome_sweeps(screening, split=True)  # the screening sample has train and test rows
    want = acceptance_table(screening, rows, k_tp=3.0, k_fp=1.0, k_fn=5.0, worth=1.0)
    pd.testing.assert_frame_equal(got, want)
    assert answer.outcome_defaults == (3.0, 3.0)
    advice = [calibration_advice_line(screening, m) for m in screening.scores]
    assert answer.calibrates and answer.calibration_advice() == [a for a in advice if a] and any(advice)


def test_the_chart_against_k_is_each_models_value_against_k_of_the_contract(screening):
    """`models_by_k` (the page's chart) is `costlib.value.value_against_k` (the public function of
    another shape) of each model, on the judged rows, its threshold fitted on the train rows."""
    sweeps = value_sweeps(screening)
    long, _ = models_by_k(sweeps, K_GRID, reject_value=0.0)
    for m in sweeps.judge:
        one = value.value_against_k(None, None, K_GRID, sweep=sweeps.judge[m], fit_sweep=sweeps.fit[m])
        got = long[long["model"] == m].drop(columns="model").reset_index(drop=True)
        pd.testing.assert_frame_equal(got, one.reset_index(drop=True))
    assert np.isclose(K_GRID[[0, -1]], [settings.K.low, settings.K.high]).all()


def test_a_limit_says_what_it_changes_or_why_it_is_not_used(screening):
    assert _answer(screening, cap=50.0, volume=0.0).limit_note == VALUE_CAP_NO_VOLUME
    answer = _answer(screening, cap=50.0, volume=1000.0)
    assert answer.rec.capacity is not None
    assert answer.limit_note == value_capacity_sentence(answer.rec, cap=50.0, volume=1000.0, worth=1.0, unit="$")


def test_the_sections_say_when_a_move_left_them_behind(screening):
    answer = _answer(screening, moved_k=2.0)
    assert answer.lag_sentence(None) is None and answer.lag_sentence(answer.drawn_for) is None
    said = answer.lag_sentence((3.0, 0.0, 1.0))
    assert said is not None and "still drawn for the earlier price: one wrong answer cancels out 3 right" in said


@pytest.mark.parametrize("k", [1.5, 0.2, 20.0])
def test_without_a_split_nothing_speaks_of_train_or_test_rows(no_split, k):
    """The screening sample with its split column left unmapped: the threshold is fitted on all
    rows and its worth cross-fitted, so the verdict, the numbers' help, the chart's title and its
    legend say so, and none of them speaks of train or test rows (they did: "test rows" in the
    chart's title, "fitted on the train rows" in its legend, "On the test rows" in the help). At
    k = 20 every answer loses, at 0.2 the reject option adds nothing: their verdicts too."""
    answer = _answer(no_split, moved_k=k)
    assert answer.rec.judged_on == "all"
    fig = answer.tau_figure(answer.rec.model)
    said = [
        answer.verdict.headline,
        *answer.verdict.details,
        *answer.verdict.asides,
        *(m.get("help", "") for m in answer.metrics),
        fig.layout.title.text,
        *(t.name or "" for t in fig.data),
    ]
    text = " ".join(said)
    assert "train rows" not in text and "test rows" not in text, [x for x in said if "rows" in x]
    if k == 1.5:
        assert "threshold fitted on all rows (recommended)" in text
        assert fig.layout.title.text.endswith("(all rows, which flatter the threshold picked on them)")
        assert fig.layout.title.subtitle.text == "At this price, one wrong answer cancels out 1.5 right answers"


def test_without_a_split_the_limit_compares_worths_read_on_the_same_rows(no_split):
    """Under a limit on hand-overs without a split, what the limit costs a month compares the two
    thresholds' worths on the same rows: the answer without the limit is read on all rows, so
    the one within it is too (its cross-fitted worth, lower by the optimism it removes, made the
    limit look dearer than it is)."""
    import re

    answer = _answer(no_split, cap=100.0, volume=1000.0)
    rec = answer.rec
    assert rec.estimate == "cross-fitted" and rec.capacity is not None and rec.capacity.binding
    in_sample = float(rec.models.set_index("model").loc[rec.model, "value"])
    assert in_sample != rec.value
    assert answer.threshold_limit_cost.within == pytest.approx(in_sample)
    said = re.search(r"worth \$([0-9,.]+) a month less", answer.limit_note)
    assert said is not None, answer.limit_note
    # the difference per case at the decimals that tell the two worths apart ($0.384 - $0.302), times
    # the volume (`value_limit_words.LimitCost.less`), as the headline's month is: $82, for $81.50
    stated = float(said.group(1).replace(",", ""))
    assert stated == pytest.approx(answer.threshold_limit_cost.less(1.0)[1] * 1000.0)
    assert stated == pytest.approx((rec.capacity.unlimited.value - in_sample) * 1.0 * 1000.0, abs=0.5 + 1e-9)


VERBS = ("might gain", "would gain", "would lose")  # the gain tile's verb: unclear, not shipped, dearer


@pytest.mark.parametrize("worth", [1.0, 0.37, 2.0, 3.3])
@pytest.mark.parametrize("cap", [None, 300.0])
@pytest.mark.parametrize("costs", [COSTS, SEPARATE])
def test_the_worths_and_the_gain_subtract_as_they_read(screening, worth, cap, costs):
    """As on Costs & groups: the threshold's worth and the no-model choice's, shown at the decimals
    their difference needs, differ by the gain shown (tiles and answer alike)."""
    answer = _answer(screening, costs, worth=worth, **({} if cap is None else {"cap": cap}))
    rec = answer.rec
    if rec.kept is not None and rec.status == "adds nothing":
        return  # one choice, nothing to subtract
    said = answer.verdict.headline
    a, b = (float(x) for x in re.findall(r"\$(\d+\.\d+) per case", said)[:2])
    tiles = {m["label"]: m["value"] for m in answer.metrics}
    named = ("Gain per case", *(f"It {verb} per case" for verb in VERBS))
    gain = next(value for label, value in tiles.items() if label.startswith(named))
    assert abs(a - b) == pytest.approx(float(gain.lstrip("$")), abs=1e-9), (said, tiles)
