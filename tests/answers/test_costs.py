"""The Costs & groups page's answer object: one call at a price book, its recommendations made
once per price book, limit and resamples through the page's memo, its sections on request."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from counting_memo import Store

from costlib.answers.audit import dataset_models
from costlib.answers.costs import CostsAnswer, costs_answer, costs_verdict, prices_key
from costlib.binary import decision
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes


@pytest.fixture(scope="module")
def models():
    s = SAMPLES["screening"]
    ds = prepare(pd.read_csv(io.BytesIO(sample_bytes("screening"))), s.mapping, name=s.filename, fingerprint="s")
    return dataset_models(ds, tuple(ds.scores))


def test_the_answer_is_the_recommendation_the_page_would_make(models):
    costs = {g: (1.0, 4.0) for g in next(iter(models.values())).groups}
    answer = costs_answer(models, costs, resamples=200, unit="$", volume=1000)
    assert isinstance(answer, CostsAnswer)
    rec = decision.recommend(models, costs, n_resamples=200)
    assert (answer.rec.model, answer.rec.rule, answer.rec.status) == (rec.model, rec.rule, rec.status)
    assert answer.verdict.headline == costs_verdict(rec, models[rec.model], unit="$", volume=1000).headline
    assert answer.capacity is None and answer.unlimited is None
    assert prices_key(models, costs) == rec.prices.key()


def test_a_new_unit_or_volume_rewords_without_resampling(models):
    costs = {g: (1.0, 4.0) for g in next(iter(models.values())).groups}
    store = Store()
    first = costs_answer(models, costs, resamples=200, unit="$", volume=1000, remember=store)
    again = costs_answer(models, costs, resamples=200, unit="EUR", volume=50, remember=store)
    assert store.made == ["recommend"]
    assert again.rec is first.rec
    assert "EUR" in again.verdict.headline and "EUR" not in first.verdict.headline


def test_without_a_volume_the_month_asks_for_one_and_nothing_breaks(models):
    costs = {g: (1.0, 4.0) for g in next(iter(models.values())).groups}
    answer = costs_answer(models, costs, resamples=50, unit="$", volume=None)
    month = answer.metrics[-1]
    assert month["value"] == "set a volume" and "sidebar" in month["help"] and "None" not in month["help"]


def test_a_review_limit_brings_the_unlimited_answer_and_its_section(models):
    costs = {g: (1.0, 10.0) for g in next(iter(models.values())).groups}
    store = Store()
    answer = costs_answer(models, costs, resamples=200, share=0.05, unit="$", volume=1000, remember=store)
    assert store.made == ["recommend", "recommend"]
    assert answer.rec.capacity == 0.05 and answer.unlimited.capacity is None
    assert answer.capacity is not None and answer.capacity.sentence


def test_another_models_curve_is_drawn_from_its_own_recommendation_once(models):
    costs = {g: (1.0, 4.0) for g in next(iter(models.values())).groups}
    store = Store()
    answer = costs_answer(models, costs, resamples=200, unit="$", volume=1000, remember=store)
    other = next(m for m in models if m != answer.rec.model)
    fig = answer.cost_chart(other, by_flagged=True)
    answer.cost_chart(other)
    assert store.made == ["recommend", "recommend"]
    assert answer.shown(other).model == other
    assert other in fig.layout.title.text and "cases flagged a month" in fig.layout.title.text
    assert "cases flagged" not in answer.cost_chart(answer.rec.model).layout.title.text


def test_with_several_group_columns_the_downloads_and_the_page_read_each_column(tmp_path):
    """The report and policy the page downloads carry each group column's disparities, and the
    page's headline is the record's."""
    from costlib.answers.costs import audit_maker
    from costlib.core.dataset import ColumnMapping

    frame = pd.read_csv(io.BytesIO(sample_bytes("compas")))
    mapping = ColumnMapping(label="two_year_recid", scores=("p_recid",), group=("race", "sex"), split="split")
    ds = prepare(frame, mapping, name="compas.csv", fingerprint="c", top_groups=6)
    models = dataset_models(ds, ("p_recid",))
    costs = {g: (1.0, 3.0) for g in models["p_recid"].groups}
    record = audit_maker(models, costs, ds, n_resamples=200, unit="$", volume=1000)()
    assert [column for column, _ in record.column_disparities] == ["race", "sex"]
    answer = costs_answer(
        models,
        costs,
        resamples=200,
        unit="$",
        volume=1000,
        group_parts=ds.group_parts,
        group_columns=ds.mapping.group_columns,
    )
    assert answer.verdict.headline == record.verdict.headline


def test_the_price_caption_tells_groups_apart_whose_names_read_the_same():
    from costlib.answers.costs import price_caption

    caption = price_caption({"$x$": (1.0, 3.0), "*x*": (1.0, 2.0)}, "$")
    assert "·x·: $1.00 / $3.00" in caption and "·x· (2): $1.00 / $2.00" in caption
