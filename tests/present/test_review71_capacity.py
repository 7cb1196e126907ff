"""Review 71, item 6: on the screening sample at $5 / $1 with a review limit of 1,000 cases of
10,000 a month, "the best cutoff without a limit (≥ 0.9596) flags about 269 a month" beside the
rules table's 2.0% (200 of 10,000): the 269 is the fitting rows' share, the 2.0% the judged rows'.
The sentence now says which rows its count is read on."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from costlib.binary import decision as D
from costlib.binary.capacity import flagged_share, limit_facts
from costlib.present import capacity_words as W

SCREENING = Path(__file__).resolve().parents[2] / "costlib" / "samples" / "screening_two_models.csv"
VOLUME = 10_000


def test_the_count_without_a_limit_says_it_is_read_on_the_fitting_rows():
    df = pd.read_csv(SCREENING)
    fit, judge = (df["split"] == "train").to_numpy(), (df["split"] == "test").to_numpy()
    ms = D.sweep_model(df["label"], df["score_overconfident"], df["group"], fit=fit, judge=judge, name="m")
    models = {"m": ms}
    rec = D.recommend(models, (5.0, 1.0), n_resamples=50, capacity=1_000 / VOLUME)
    free = D.recommend(models, (5.0, 1.0), n_resamples=50)
    limit = limit_facts(models, rec, free)
    fitted, judged = limit.unlimited_flagged, flagged_share(ms.judge, free.cutoffs)
    assert round(fitted * VOLUME) != round(judged * VOLUME)  # the two rows' counts differ (about 269 and 200)
    sentence = W.within_sentence(rec, free, limit, volume=VOLUME, unit="$")
    count = f"{round(fitted * VOLUME):,} a month"
    assert f"{count} on the rows it is fitted on (the rules table reads the judged rows)" in sentence, sentence


def test_the_limit_that_covers_the_best_cutoff_says_which_rows_its_count_is_read_on():
    from types import SimpleNamespace

    price = SimpleNamespace(enough=0.0269, share=0.1)
    limit = SimpleNamespace(binding=False)
    sentence = W.price_sentence(price, limit, volume=VOLUME, unit="$")
    assert sentence == (
        "Your limit already covers what the best cutoff flags (about 269 a month on the rows it is fitted on): more "
        "capacity saves nothing."
    )
