"""A last read: with every amount at the decimals its interval warrants, the rules table read the
best cutoff's saving at COMPAS $3 / $10 as "$0.00" (−$0.0019, its sign lost) beside the headline's
"$0.002 per case more than flagging everyone". The table reads each saving as the headline does."""

import re
from pathlib import Path

import pandas as pd

import costlib
from costlib.binary.decision import recommend, sweep_model
from costlib.present import tables, words


def test_the_rules_table_reads_the_best_cutoffs_saving_as_the_headline_does():
    df = pd.read_csv(Path(costlib.__file__).parent / "samples" / "compas.csv")
    split = df["split"].to_numpy()
    ms = sweep_model(df["two_year_recid"], df["p_recid"], fit=split == "train", judge=split == "test", name="p")
    rec = recommend({"p": ms}, (3.0, 10.0), n_resamples=200)
    headline = words.recommendation_verdict(rec, unit="$").headline
    (more,) = re.findall(r"\$([0-9.]+) per case more", headline)
    table = tables.rules_overall_table(rec, unit="$")
    saving = next(c for c in table.columns if c.startswith("saving against"))
    best = table.loc[table["rule"].str.startswith("best single cutoff"), saving].iloc[0]
    assert best == f"−${more}", (best, headline)
