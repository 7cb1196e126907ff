"""The Value page's first chart draws the rule its answer uses. At separate prices the answer prices
each mistake on its own (`per_outcome.recommend_outcome`), but the chart under it priced every
wrong answer at their mean with one threshold: on COMPAS at $1 / $3 its star read "worth per case
$0.112" under an answer worth $0.129, and at $1 / $10 every point of it was below $0 under "Ship
the model … $0.113", which a first-time product manager read as a contradiction. Now the first
chart is the answer's rule at the real prices, each answer's threshold with the other's held, its
star at the answer's worth where both are read on the same rows; the chart at one price folds below."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import pandas as pd
import pytest

from costlib.answers.value import value_answer
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present.amounts import cutoff_number
from costlib.present.labels import ALL_ROWS_FLATTER
from costlib.present.value_words import VALUE_K_CHART_APART
from costlib.value.per_outcome import outcome_row_values

NAMES = [""]


def _sample(key: str, *, split: bool = True):
    s = SAMPLES[key]
    mapping = s.mapping if split else dataclasses.replace(s.mapping, split=None)
    return prepare(pd.read_csv(io.BytesIO(sample_bytes(key))), mapping, name=s.filename, fingerprint=key + str(split))


@pytest.fixture(scope="module")
def compas():
    return _sample("compas")


@pytest.fixture(scope="module")
def screening():
    return _sample("screening")


@pytest.fixture(scope="module")
def no_split():
    return _sample("screening", split=False)


def _answer(ds, c_fp: float, c_fn: float, **kw):
    options = {"worth": 1.0, "reject_worth": 0.0, "unit": "$", "volume": 10_000.0} | kw
    return value_answer(ds, {"": (c_fp, c_fn)}, names=NAMES, **options)


def _traces(fig) -> tuple[list, object, list[str]]:
    """(the two lines, the stars, the words of the stars, in the order of the stars' thresholds)."""
    lines = [t for t in fig.data if t.mode == "lines+markers"]
    (stars,) = [t for t in fig.data if t.mode == "markers"]
    words = [a.text for a in sorted(fig.layout.annotations, key=lambda a: a.x)]
    return lines, stars, words


@pytest.mark.parametrize(
    ("key", "c_fp", "c_fn", "worth", "reject_worth"),
    [("compas", 1, 3, 1.0, 0.0), ("compas", 1, 10, 1.0, 0.0), ("screening", 1, 10, 2.0, 0.5)],
)
def test_the_first_chart_is_the_answers_rule_and_its_stars_read_the_answers_worth(
    request, key, c_fp, c_fn, worth, reject_worth
):
    answer = _answer(request.getfixturevalue(key), c_fp, c_fn, worth=worth, reject_worth=reject_worth)
    rec = answer.rec
    assert answer.apart and rec.judged_on == "test"
    fig = answer.tau_figure(rec.model)
    title = fig.layout.title.text
    assert title.endswith(f"each mistake at its own price, {rec.model} (test rows)") and "k =" not in title
    lines, stars, words = _traces(fig)
    taus = {"negative": rec.tau_neg, "positive": rec.tau_pos}
    assert [t.name.split(" answers")[0] for t in lines] == ["positive", "negative"]
    for line, other in zip(lines, ("negative", "positive"), strict=True):
        held = f"{other} at {cutoff_number(taus[other])}" if np.isfinite(taus[other]) else f"no {other} answers"
        assert line.name.endswith(f"answers' threshold ({held})")
    # read apart without colour: each line its own dash and marker shape
    assert lines[0].line.dash != lines[1].line.dash and lines[0].marker.symbol != lines[1].marker.symbol
    # each finite fitted threshold starred at the answer's own worth per case, said in words beside it
    shown = [tau for tau in (rec.tau_pos, rec.tau_neg) if np.isfinite(tau)]
    assert sorted(stars.x) == pytest.approx(sorted(shown))
    assert list(stars.y) == pytest.approx([rec.value * worth] * len(shown))
    assert len(words) == len(shown) and all(f"${rec.value * worth:.3f}" in text for text in words)
    assert [w.split(" from ")[0] for w in words] == [a for a in ("positive", "negative") if np.isfinite(taus[a])]
    assert stars.name == "thresholds fitted on the train rows (recommended)"
    # the best choice without the model, at its worth, named in the legend
    (line,) = [t for t in fig.data if t.mode == "lines"]
    assert list(line.y) == pytest.approx([rec.baseline_value * worth] * 2) and line.line.dash == "dash"
    assert line.name.startswith("best without confidence thresholds")  # not "without the model" (review 72)
    assert "without the model" not in line.name
    # the chart at one price for every wrong answer is still there, and says so
    assert VALUE_K_CHART_APART in answer.one_price_figure(rec.model).layout.title.text


def test_at_1_to_10_on_compas_the_chart_no_longer_lies_below_the_answer(compas):
    """Under "Ship the model … $0.113" every point of the chart was below $0: the rule's lines
    reach the answer's worth, above handing every case over."""
    answer = _answer(compas, 1, 10)
    lines, _, words = _traces(answer.tau_figure(answer.rec.model))
    assert answer.rec.value > 0 and max(max(t.y) for t in lines) == pytest.approx(answer.rec.value)
    assert words == ["positive from 0.6032, negative never accepted: $0.113"]  # as the answer writes it


def test_each_point_is_the_rules_worth_on_the_test_rows(screening):
    answer = _answer(screening, 1, 3)
    rec = answer.rec
    judge = screening.purpose_rows("judge")
    y, p = screening.y[judge], screening.scores[rec.model][judge]
    prices = {"k_tp": 1.0, "k_fp": rec.k_fp, "k_fn": rec.k_fn, "r": 0.0}
    lines, _, _ = _traces(answer.tau_figure(rec.model))
    sides = ((p, lambda t: (t, rec.tau_neg)), (1.0 - p, lambda t: (rec.tau_pos, t)))
    for line, (conf, pair) in zip(lines, sides, strict=True):
        levels = np.unique(conf[(p >= 0.5) == (line is lines[0])])
        for x, v in list(zip(line.x, line.y, strict=True))[::7]:
            # a point of the line, or a step's corner: the worth of the level above held down to this one
            above = levels[levels > x]
            worths = [outcome_row_values(y, p, *pair(t), **prices)[0].mean() for t in (x, *above[:1])]
            assert any(v == pytest.approx(w) for w in worths), (x, v, worths)


def test_another_models_thresholds_are_its_own_and_not_recommended(screening):
    answer = _answer(screening, 1, 3)
    other = next(m for m in answer.models if m != answer.rec.model)
    _, stars, _ = _traces(answer.tau_figure(other))
    assert "recommended" not in stars.name and other in answer.tau_figure(other).layout.title.text


def test_without_a_split_the_chart_says_its_rows_flatter_the_pair_fitted_on_them(no_split):
    """Without a split the answer's worth is cross-fitted, while the pair drawn is fitted on all
    rows: its worth there is above the answer's, and the title says why (as the other pages'
    all-rows charts do)."""
    answer = _answer(no_split, 1, 3)
    rec = answer.rec
    assert rec.judged_on == "all"
    fig = answer.tau_figure(rec.model)
    assert fig.layout.title.text.endswith(f"({ALL_ROWS_FLATTER.replace('cutoff', 'thresholds')})")
    assert "train" not in fig.to_json() and "test rows" not in fig.to_json()
    _, stars, _ = _traces(fig)
    p = no_split.scores[rec.model]
    prices = {"k_tp": 1.0, "k_fp": rec.k_fp, "k_fn": rec.k_fn, "r": 0.0}
    in_sample = outcome_row_values(no_split.y, p, rec.tau_pos, rec.tau_neg, **prices)[0].mean()
    assert list(stars.y) == pytest.approx([in_sample] * len(stars.y)) and in_sample >= rec.value


@pytest.mark.parametrize(
    ("c_fp", "c_fn", "kw"),
    [(3, 3, {}), (1, 3, {"moved_k": 2.0}), (1, 3, {"cap": 500.0}), (1, 3, {"worth": 0.0})],
)
def test_where_the_answer_is_at_k_the_first_chart_is_unchanged(compas, c_fp, c_fn, kw):
    answer = _answer(compas, c_fp, c_fn, **kw)
    assert not answer.apart
    model = answer.rec.model
    assert answer.tau_figure(model).to_json() == answer.one_price_figure(model).to_json()
    assert VALUE_K_CHART_APART not in answer.tau_figure(model).layout.title.text
