"""Review 74: the downloaded report of Costs & groups (Screening, default prices $1 / $3) said in its headline
"saves $0.357 per case ($3,570 a month)" ($0.748 - $0.391, the two costs as shown) while its rules table said
"best single cutoff (recommended) ... $0.358" (the saving rounded on its own). The table's row reads the
headline's figure, from the one computation (`amounts.shown_saving` of the answer)."""

import re
from pathlib import Path

import pandas as pd

import costlib
from costlib.binary.decision import recommend, sweep_model
from costlib.present import tables, words


def _screening(prices=(1.0, 3.0)):
    df = pd.read_csv(Path(costlib.__file__).parent / "samples" / "screening_two_models.csv")
    split, groups = df["split"].to_numpy(), df["group"].to_numpy()
    models = {
        m: sweep_model(df["label"], df[m], fit=split == "train", judge=split == "test", name=m, groups=groups)
        for m in ("score_calibrated", "score_overconfident")
    }
    return recommend(models, prices, n_resamples=200)


def test_the_recommended_rows_saving_is_the_headlines():
    rec = _screening()
    headline = words.recommendation_verdict(rec, unit="$", volume=10_000).headline
    (saves,) = re.findall(r"saves (\$[0-9.]+) per case", headline)
    table = tables.rules_overall_table(rec, unit="$")
    saving = next(c for c in table.columns if c.startswith("saving against"))
    row = table.loc[table["rule"].str.contains("(recommended)", regex=False)].iloc[0]
    assert row[saving] == saves == "$0.357", (row[saving], headline)
    low, high = re.search(r"\(95% interval (\$[0-9.]+) to (\$[0-9.]+)\)", headline).groups()
    assert row["95% interval of the saving"] == f"{low} to {high}"
