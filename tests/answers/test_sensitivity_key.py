"""The memo key of "How much do the prices matter?" lives beside the answer that reads the
recommendation (`answers.sensitivity_key`, a last read of 74f94fa/bdc88aa): the page used to list
the recommendation's fields itself, a second copy of what `price_words.sensitivity_sentence` reads.
Whenever two recommendations give different sentences, their keys differ; a NaN end finds its key."""

from __future__ import annotations

import dataclasses
import math

import pytest

from costlib import answers
from costlib.binary import decision as D
from costlib.binary import elicit
from costlib.binary.sensitivity import price_maps, price_scale
from tests.present.test_cutoff_reach_words import _rows

READ = {  # a field the sentence reads -> another value it can take
    "saving": 0.5,
    "saving_low": -0.25,
    "saving_high": 0.75,
    "group_gain": (0.1, 0.01, 0.2),
    "status": "not distinguishable",
    "baseline": "flag everyone",
    "rule": "best single cutoff",
    "grouped": False,
    "judged_on": "test",
}


@pytest.fixture(scope="module")
def shipped():
    from costlib.answers.audit import mean_prices

    y, s, g, _ = _rows()
    models = {"m": D.sweep_model(y, s, g)}
    rec = D.recommend(models, (1, 3), n_resamples=50)
    maps = price_maps(models, scale=price_scale(*mean_prices(models["m"], rec.prices)))
    return models, rec, maps, elicit.break_even_range(models["m"].fit_pooled)


def _sentence(models, rec, maps, break_even):
    return answers.sensitivity(models, rec, maps, unit="$", break_even=break_even).sentence


@pytest.mark.parametrize("field", sorted(READ))
def test_a_change_the_sentence_reads_changes_the_key(shipped, field):
    models, rec, maps, break_even = shipped
    other = dataclasses.replace(rec, **{field: READ[field]})
    if _sentence(models, other, maps, break_even) != _sentence(models, rec, maps, break_even):
        assert answers.sensitivity_key(models, other, unit="$") != answers.sensitivity_key(models, rec, unit="$")


def test_at_least_one_field_moves_the_sentence(shipped):
    # the test above must be able to fail: most of these fields change what is said
    models, rec, maps, break_even = shipped
    moved = [
        f
        for f in READ
        if _sentence(models, dataclasses.replace(rec, **{f: READ[f]}), maps, break_even)
        != _sentence(models, rec, maps, break_even)
    ]
    assert len(moved) >= 4, moved


def test_the_unit_and_a_nan_end(shipped):
    models, rec, _, _ = shipped
    assert answers.sensitivity_key(models, rec, unit="$") != answers.sensitivity_key(models, rec, unit="€")
    nan = dataclasses.replace(rec, saving_low=math.nan)
    assert answers.sensitivity_key(models, nan, unit="$") == answers.sensitivity_key(models, nan, unit="$")
