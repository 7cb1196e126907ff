"""On COMPAS at $1/$3 the only rules fitted tighter that hold flag everyone in every group
(`fairness.fairness_results` marks them in `fair_judged.TRIVIALLY_EQUAL_COLUMN`): the warning says so."""

import pandas as pd

from costlib.answers.audit import build_audit
from costlib.binary import fair_judged as FJ
from costlib.binary.decision import sweep_model
from tests.present.test_report import SAMPLE


def test_on_compas_the_rules_that_hold_by_flagging_everyone_are_said_not_to_use_the_model():
    df = pd.read_csv(SAMPLE)
    fit = (df["split"] == "train").to_numpy()
    ms = sweep_model(df["two_year_recid"], df["p_recid"], df["race"], fit=fit, judge=~fit, name="p_recid")
    a = build_audit(ms, (1, 3), n_resamples=200, fairness_tolerance=0.05)
    s = a.fairness_summary
    everyone = set(s.loc[s[FJ.TRIVIALLY_EQUAL_COLUMN] == "everyone", "rule"])
    assert "fair: equal opportunity (fitted within 3%)" in everyone  # "everyone (trivially equal)" in the table
    cut = a.recommendation.results.cutoffs
    for rule in everyone:  # every group's cutoff at or below its lowest score: everyone flagged
        assert all(cut[rule][g] <= a.recommendation.lowest[g] for g in ms.groups), rule
    note = FJ.holding_note(s)
    assert "stay within it, but they flag everyone in every group, so they do not use the model." in note
