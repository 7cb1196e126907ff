"""How much the prices matter, under a verdict that ships per-group cutoffs (review C, item 4).

On tiny2.csv the headline shipped per-group cutoffs ("Per-group cutoffs save $0.145 per case over
one cutoff for everyone"), and "How much do the prices matter?" said "the cheapest option on all
rows is the model “score” at its best single cutoff": a second answer. The map compares only one
cutoff for everyone with the choices without a model (`binary.sensitivity.price_maps` reads the
pooled sweeps); the sentence now says so, and with the recommendation it names what the verdict
ships instead of sending the reader to it about the single cutoff.
"""

from __future__ import annotations

import math

import pytest

from costlib.binary import decision as D
from costlib.binary import elicit
from costlib.binary.sensitivity import price_maps, price_scale, ratio_range
from costlib.core import rules as R
from costlib.present import price_words
from costlib.present.amounts import beside_interval, interval, money
from tests.present.test_cutoff_reach_words import _rows


@pytest.fixture(scope="module")
def per_group():
    """The recommendation (per-group cutoffs shipped) and its map's leader at its prices."""
    from costlib.answers.audit import mean_prices

    y, s, g, _ = _rows()
    ms = D.sweep_model(y, s, g)
    rec = D.recommend({"m": ms}, (1, 3), n_resamples=50)
    if not (rec.ship_model and rec.rule == R.COST_OPTIMAL):
        pytest.fail(f"the reviewer's case no longer holds: {rec.verdict}, {rec.rule}")
    mp = mean_prices(ms, rec.prices)
    maps = price_maps({"m": ms}, scale=price_scale(*mp))
    return ms, rec, mp, ratio_range(maps.train, maps.test, c_fp=mp[0], c_fn=mp[1])


def test_the_sentence_says_what_the_map_compares():
    said = price_words.sensitivity_sentence(("p", 0.25, 3.6), (1.0, 3.0), "$", judged="the test rows")
    assert "of the options the map compares (a model at one cutoff for everyone, flagging nobody and flagging " in said
    assert "the cheapest on the test rows is the model “p” at its best single cutoff" in said


def test_a_verdict_that_ships_per_group_cutoffs_is_named_with_their_gain(per_group):
    ms, rec, mp, leader = per_group
    assert leader[0] == "m"  # the map's cheapest: the model at one cutoff for everyone
    said = price_words.sensitivity_sentence(
        leader,
        mp,
        "$",
        model="m",
        judged="all rows",
        break_even=elicit.break_even_range(ms.fit_pooled),
        rec=rec,
    )
    est, lo, hi = rec.group_gain
    d = beside_interval(est, lo, hi)
    gain = f"{money(est, '$', digits=d)} per case more than one cutoff for everyone ({interval(lo, hi, '$', digits=d)})"
    assert price_words.PER_GROUP_SHIPPED.format(gain=gain) in said, said
    assert price_words.MODEL_LEADS not in said  # "whether it [the single cutoff] is clearly cheaper ... is the verdict"


def test_per_group_cutoffs_shipped_where_a_choice_without_a_model_leads_the_map(per_group):
    """One cutoff for everyone would not pay, the per-group cutoffs do: the map's "not worth using"
    gives way to what the verdict ships, and its saving against that choice."""
    _, rec, mp, _ = per_group
    said = price_words.sensitivity_sentence((rec.baseline, 0.5, math.inf), mp, "$", judged="all rows", rec=rec)
    assert price_words.NO_MODEL_LEADS.format(judged="all rows") not in said
    assert "The verdict above ships per-group cutoffs, which the map leaves out: they save " in said
    assert f"per case against {price_words.BASELINE_WORDS[rec.baseline]} (95% interval " in said


def test_a_single_cutoff_shipped_keeps_the_sentence_as_it_was():
    """One group: nothing to add, the map's cheapest option is what the verdict ships."""
    y, s, _, _ = _rows()
    rec = D.recommend({"m": D.sweep_model(y, s)}, (1, 3), n_resamples=20)
    said = price_words.sensitivity_sentence(("m", 0.25, 3.6), (1.0, 3.0), "$", judged="all rows", rec=rec)
    assert price_words.MODEL_LEADS in said and "per-group" not in said
