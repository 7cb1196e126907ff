"""Review 74: the Calibration page read "$0.465 per case ($4,647 a month)" in the same table as "$0.451 per case
($4,510 a month)" (Screening), and COMPAS's answer "$0.112 per case ($1,124 a month)": by the house rule a month is
the worth as shown times the cases (`amounts.month_figure`), "$4,650" and "$1,120"."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest

from costlib.answers.audit import dataset_models
from costlib.answers.calibration import calibration_answer, costs_pick
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes

PRICES = (1.0, 3.0)
VOLUME = 10_000
PAIR = re.compile(r"\$([0-9.]+) per case \(\$([0-9,]+) a month\)")


def _page(key: str, model: str):
    s = SAMPLES[key]
    ds = prepare(pd.read_csv(io.BytesIO(sample_bytes(key))), s.mapping, name=s.filename, fingerprint=key)
    names = sorted({str(g) for g in ds.groups}) if ds.groups is not None else [""]
    costs = {g: PRICES for g in names}
    pick = costs_pick(dataset_models(ds), costs, resamples=200)
    answer = calibration_answer(ds, model, names=names, costs=costs, unit="$", volume=float(VOLUME), pick=pick)
    return answer.at(10)


def _pairs(texts) -> list[tuple[str, str]]:
    return [p for t in texts for p in PAIR.findall(str(t))]


def _assert_months_as_shown(pairs):
    assert pairs
    for per_case, month in pairs:
        assert int(month.replace(",", "")) == round(float(per_case) * VOLUME), (per_case, month)


@pytest.mark.parametrize(("key", "model"), [("screening", "score_overconfident"), ("compas", "p_recid")])
def test_every_worth_a_month_is_the_worth_as_shown(key, model):
    page = _page(key, model)
    _assert_months_as_shown(_pairs([page.verdict.headline, *page.table.to_numpy().ravel()]))
