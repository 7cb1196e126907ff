"""A first-time product manager's read of the Calibration page on the screening sample at $5 a false flag and $1 a
miss: a green "Ship the model with its probabilities rescaled" sat beside "Costs & groups does not ship it", two
answers for one model. The worth's verdict is still the one ship rule's on the gain (`core.ship.ship_verdict`),
but where Costs & groups does not ship the model checked its verdict comes first, the worth's answer is for the
model used all the same, and nothing is green; and COMPAS (one model) now knows Costs & groups' verdict too."""

from __future__ import annotations

import pytest

from costlib.answers.audit import dataset_models
from costlib.answers.calibration import calibration_answer, costs_pick
from costlib.answers.costs import costs_answer
from costlib.core import rules as R
from costlib.present import calibration_words as cw
from costlib.present.words import Verdict
from tests.answers.test_calibration_review import _ds, _names

RESAMPLES = 200


@pytest.fixture(scope="module")
def screening():
    return _ds("screening")


@pytest.fixture(scope="module")
def compas():
    return _ds("compas")


def _verdict(ds, model, prices):
    names = _names(ds)
    costs = {g: prices for g in names}
    pick = costs_pick(dataset_models(ds), costs, resamples=RESAMPLES)
    answer = calibration_answer(ds, model, names=names, costs=costs, unit="$", volume=10_000.0, pick=pick)
    return pick, answer.at(10).verdict


def test_no_green_ship_where_costs_and_groups_does_not_ship_the_model(screening):
    pick, verdict = _verdict(screening, "score_overconfident", (5.0, 1.0))
    rec = costs_answer(dataset_models(screening), {g: (5.0, 1.0) for g in _names(screening)}, resamples=RESAMPLES).rec
    assert (pick.model, pick.ships) == ("score_overconfident", False) and not rec.ship_model  # Costs' own verdict
    head = verdict.headline
    assert verdict.kind == "info", (verdict.kind, head)
    assert "Ship the model" not in head and "ship" not in head.replace("does not ship", ""), head
    assert head.startswith(
        "Costs & groups does not ship score_overconfident: at your prices it says “Not clearly better” and keeps "
        "flagging"
    ), head
    # the question the page answers, and the worth's own answer for the model used all the same (the gain ships)
    assert "If score_overconfident is used all the same, to answer the cases it is confident enough of" in head
    assert "rescale its probabilities" in head and "more (95% interval of the gain $0.0" in head, head


def test_where_costs_and_groups_ships_the_model_the_rescaled_ship_stays_green(screening):
    pick, verdict = _verdict(screening, "score_overconfident", (1.0, 10.0))
    assert pick.ships and pick.model == "score_overconfident"
    assert verdict.kind == "success" and verdict.headline.startswith("Ship the model with its probabilities rescaled")


def test_compas_one_model_agrees_with_costs_and_groups(compas):
    """At $1 / $3 Costs & groups keeps flagging everyone ("Not clearly better"); the page drew a green "Do not
    rescale: keep p_recid's probabilities as they are" with no word of it (one model: no pick was read)."""
    pick, verdict = _verdict(compas, "p_recid", (1.0, 3.0))
    assert pick is not None and not pick.ships
    assert verdict.kind == "info" and verdict.headline.startswith("Costs & groups does not ship p_recid"), verdict
    assert "keep its probabilities as they are" in verdict.headline


@pytest.mark.parametrize(
    ("gain", "low", "high", "plain"),
    [(0.02, 0.01, 0.03, R.SHIP), (0.01, -0.01, 0.03, R.NOT_CLEARLY), (-0.02, -0.03, -0.01, R.DO_NOT)],
)
@pytest.mark.parametrize(
    "costs",
    [("m", False, R.NOT_CLEARLY, "flag nobody"), ("other", True, R.SHIP, "flag nobody"), ("o", False, R.DO_NOT, "")],
)
def test_every_verdict_on_rescaling_follows_costs_and_groups_verdict_and_is_never_green(gain, low, high, plain, costs):
    args = {"before": 0.1, "after": 0.1 + gain, "low": low, "high": high, "fit_on": "validation", "unit": "$"}
    why = Verdict("info", "m's probabilities are calibrated.")
    alone = cw.rescale_verdict("m", why, cw.KEEP, **args)
    said = cw.rescale_verdict("m", why, cw.KEEP, costs=costs, **args)
    standing = cw.costs_standing("m", costs)
    assert said.headline.startswith(standing + " If m is used all the same"), said.headline
    assert said.kind != "success" and said.kind == ("info" if alone.kind == "success" else alone.kind)
    assert said.details == alone.details  # the same rule's verdict, the same reasons under it
    assert ("rescale its probabilities:" in said.headline) == (plain == R.SHIP)
    assert cw.rescale_verdict("m", why, cw.KEEP, costs=("m", True, R.SHIP, "flag nobody"), **args) == alone


def test_the_sample_is_named_where_it_reads_and_the_quotes_are_one_kind():
    """On a built-in sample `words.on_sample` names it at the headline's first ': ': inside Costs & groups'
    verdict it read 'at your prices: on the built-in sample “Recidivism risk (COMPAS)”, "Do not let the model
    decide", it keeps flagging everyone' (review 73's last read)."""
    from costlib.present.words import on_sample

    for template in (cw.NOT_SHIPPED, cw.SHIPS_NONE, cw.SHIPS_OTHER):
        said = template.format(name="p_recid", pick="other", verdict="Not clearly better", keep="flagging everyone")
        head = on_sample(Verdict("info", said), "Recidivism risk (COMPAS)").headline
        before, after = head.split(": on the built-in sample “Recidivism risk (COMPAS)”, not your data, ")
        assert before.startswith(("Costs & groups ships", "Costs & groups does not ship")), head
        assert after[0].islower() and '"' not in head and after.endswith("."), head
