"""Headless AppTest of the Value page: k follows the prices, the baseline, the acceptance rules
and calibration on the validation split."""

import numpy as np
import pytest

import costlib
from costlib import answers, value
from costlib.binary import decision as D
from costlib.present import words
from costlib.present.value_words import WORTH_AFTER_RESCALING, value_gain_tile
from costlib.value import value_sweep, value_table
from tests.views.apptest_support import (
    assert_no_exception,
    charts,
    metric,
    open_app,
    sample_frame,
    screening_value,
    texts,
    unescape,
    verdict_box,
)


def test_value_page_k_follows_the_prices_and_its_slider_moves_the_answer():
    at = open_app("screening", "views/value.py", c_fp=3, c_fn=3)
    df = sample_frame("screening")
    tr, te = df[df["split"] == "train"], df[df["split"] == "test"]
    # k from the prices: a wrong answer costs 3 and a right one earns 1, so k = 3
    assert at.select_slider(key="k").value == 3.0
    assert "k = 3 follows from your prices" in texts(at)

    def expected(k):
        _, rec = screening_value(k)
        tau, _ = costlib.optimal_value(tr["label"], tr[rec.model], k=k)
        assert rec.tau == tau and rec.value == pytest.approx(
            costlib.value_score(te["label"], te[rec.model], k=k, tau=tau).value
        )
        return rec

    def model_worth(rec) -> str:  # the model's worth tile: its label follows the verdict (the first tile is its answer)
        if rec.status != D.SAVES:
            return metric(at, answers.VALUE_THRESHOLD_TILE)
        shown = [m.label for m in at.metric]
        gain_tile = value_gain_tile(rec.baseline)  # the gain, named with what it is against
        assert shown[0] == gain_tile  # shipped: its gain first, as Costs & groups shows its saving
        assert metric(at, gain_tile) == words.money(rec.gain, "$")
        # its worth, unless the choice without it is worth nothing (the same number twice)
        return metric(at, answers.VALUE_WORTH_TILE if answers.VALUE_WORTH_TILE in shown else gain_tile)

    rec = expected(3.0)
    assert model_worth(rec) == words.money(rec.value, "$")
    at.select_slider(key="k").set_value(8.0).run()
    assert_no_exception(at)
    rec8 = expected(8.0)
    assert model_worth(rec8) == words.money(rec8.value, "$")
    assert at.query_params["k"] == "8"
    assert "one wrong answer cancels out 8 right answers" in charts(at)[0]["layout"]["title"]["subtitle"]["text"]
    at.button(key="k_reset").click().run()
    assert at.select_slider(key="k").value == 3.0


def test_value_page_baseline_is_the_better_of_handing_over_and_answering_everything():
    at = open_app("screening", "views/value.py", c_fp=1, c_fn=1)  # k = 1
    df = sample_frame("screening")
    te = df[df["split"] == "test"]
    # answering everything with the recommended model: value 2 * accuracy - 1 (k = 1); handing over: 0
    box = verdict_box(at)
    assert ("letting the model answer every case" in box) or ("handing every case to a person" in box)
    acc = {m: np.mean((te[m] >= 0.5) == te["label"]) for m in ("score_calibrated", "score_overconfident")}
    # the sentence prices the better of the two: answering all (2 * accuracy - 1 with k = 1) or 0
    against = float(box.split("against $", 1)[1].split(" per case", 1)[0])  # at the decimals the gain needs
    assert any(against == pytest.approx(max(2 * a - 1, 0.0), abs=5e-6) for a in acc.values()), box


def test_value_page_acceptance_rules_use_the_price_book():
    at = open_app("screening", "views/value.py", c_fp=2, c_fn=4, details="true")
    at.number_input(key="k_tp").set_value(3.0).run()
    assert_no_exception(at)
    df = sample_frame("screening")
    te = df[df["split"] == "test"]
    cs = [t.value for t in at.dataframe if "acceptance rule" in t.value.columns][0]
    for rule, shown in value.ACCEPTANCE_WORDS.items():
        got = cs[(cs["model"] == "score_calibrated") & (cs["acceptance rule"] == shown)]["value per case"].iloc[0]
        want = costlib.cost_sensitive_value(
            te["label"], te["score_calibrated"], k_tp=3.0, k_fp=2.0, k_fn=4.0, rule=rule
        ).value
        assert got == pytest.approx(want, abs=1e-12)


def test_value_page_per_outcome_prices_say_the_worth_they_are_counted_in():
    """A right answer worth 0 cannot be the unit of the per-outcome prices: they are counted in
    units of 1, and the sentence above them says so (it said "worth $0.00" beside k_fp = c_fp / 1)."""
    for gain, unit_worth in (("2", 2.0), ("0", 1.0)):
        at = open_app("screening", "views/value.py", c_fp=3, c_fn=5, gain=gain, details="true")
        assert at.number_input(key="k_fp").value == pytest.approx(3.0 / unit_worth)
        assert at.number_input(key="k_fn").value == pytest.approx(5.0 / unit_worth)
        assert f"with a right answer worth {words.money(unit_worth, '$')}, those are the costs below" in texts(at)


def test_value_page_before_and_after_calibration_uses_the_validation_split():
    at = open_app("screening", "views/value.py", details="true")
    df = sample_frame("screening")
    val, te = df[df["split"] == "validation"], df[df["split"] == "test"]
    header = "rescaling number (fitted on the validation rows)"
    comp = [t.value for t in at.dataframe if header in t.value.columns][0]
    t = costlib.fit_temperature(val["label"], val["score_overconfident"])
    row = comp[comp["model"] == "score_overconfident"].iloc[0]
    assert row[header] == pytest.approx(t)
    after = value_table({"m": value_sweep(te["label"], costlib.apply_temperature(te["score_overconfident"], t))}, k=2.0)
    assert row[WORTH_AFTER_RESCALING] == pytest.approx(after["value at tau*"].iloc[0])  # a right answer is worth $1


def test_when_the_model_does_not_ship_the_first_number_is_the_choice_the_verdict_keeps():
    """At k = 0.5 the reject option adds nothing on the screening sample: the fitted threshold
    accepts every answer, and the numbers are those of letting the model answer every case."""
    at = open_app("screening", "views/value.py", k="0.5")
    _, rec = screening_value(0.5)
    assert rec.status == D.ADDS_NOTHING and np.isfinite(rec.tau)
    assert [m.label for m in at.metric] == ["Worth per case, model answers all", "Worth a month", "Handed to a person"]
    assert metric(at, "Worth per case, model answers all") == words.money(rec.value, "$")
    assert metric(at, "Handed to a person") == "0%"
    # the model answering every case is the best choice, said calmly ("info"), not as an alarm (review 2026-12-07)
    (box,) = [unescape(x.value) for x in at.info if "per case" in unescape(x.value)]
    assert f"answer every case, the best choice at these prices, worth {words.money(rec.value, '$')} per case" in box


def test_the_page_makes_one_call_for_its_answer():
    """widgets -> settings -> one memoised `answers.value_answer` -> draw: the page names no other
    computing function of `costlib.answers` (it named 24) and no costlib module but `answers` (and its
    labels, `present.labels`)."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path("views/value.py").read_text())
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and getattr(n.value, "id", "") == "answers"}
    # and the Calibration page's two functions its calibration section reads, passed in
    assert used == {"value_answer", "ValueAnswer", "VALUE_DETAILS"}
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module.startswith("costlib")}
    assert imported <= {"costlib", "costlib.core", "costlib.core.escaping", "costlib.present"}  # its labels
