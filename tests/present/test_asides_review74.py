""" "Why not another rule?" on Offensive language (review 74, item 2).

The sample has no group column, yet at $1 a false positive and $15 a false negative the asides
said "“best cutoff per group” came out $0.006 per case cheaper ... than flagging everyone": with
one group that rule is the best single cutoff again (the verdict's own rule, with its numbers),
and a rule that needs groups is not spoken of where there is one. The judged rules and their
tables keep it (the numbers everywhere else stay); the asides, which the page, the report and
the command line print from one function (`words.recommendation_asides`), leave it out.

Beside "“cutoff from prices alone” came out $0.010 per case cheaper (95% interval ... $0.002 to
$0.018)" under "Not clearly better: keep flagging everyone", the closing sentence said only
"Picking whichever rule looks cheapest on the rows it is judged on would flatter it": it did not
say which rule the verdict judges, nor why an interval wholly above zero changes nothing.
"""

from __future__ import annotations

import io
from types import SimpleNamespace

import pandas as pd
import pytest

from costlib.answers.audit import dataset_models
from costlib.binary import decision
from costlib.core import rules as R
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present import words

PER_GROUP = R.rule_words(R.COST_OPTIMAL)


@pytest.fixture(scope="module")
def offensive():
    s = SAMPLES["offensive"]
    ds = prepare(pd.read_csv(io.BytesIO(sample_bytes("offensive"))), s.mapping, name=s.filename, fingerprint="o")
    models = dataset_models(ds, tuple(ds.scores))
    costs = {g: (1.0, 15.0) for g in next(iter(models.values())).groups}
    return decision.recommend(models, costs, n_resamples=200)


def test_a_rule_that_needs_groups_is_no_aside_where_there_is_one_group(offensive):
    rec = offensive
    assert not rec.grouped and not rec.ship_model  # keeps flagging everyone, as the review saw
    # the judged rules still hold it (the tables' numbers stay): only the asides leave it out
    assert R.COST_OPTIMAL in rec.results.overall.index
    said = words.recommendation_asides(rec, "$")
    assert said and not any(PER_GROUP in s for s in said), said
    assert said[0].startswith(f"“{R.rule_words(R.ELKAN)}” came out")


def test_with_groups_the_per_group_rule_is_still_an_aside():
    row = (R.COST_OPTIMAL, -0.01, -0.03, 0.02)
    grouped = SimpleNamespace(cheaper_by_chance=[row], judged_on="test", grouped=True, rule=R.SINGLE)
    assert PER_GROUP in words.recommendation_asides(grouped, "$")[0]
    alone = SimpleNamespace(cheaper_by_chance=[row], judged_on="test", grouped=False, rule=R.SINGLE)
    assert words.recommendation_asides(alone, "$") == ()  # nothing came out cheaper: nothing to say


def test_the_closing_sentence_says_why_a_clear_interval_changes_nothing(offensive):
    *rules, why = words.recommendation_asides(offensive, "$")
    assert any("not clearly above zero" not in r for r in rules)  # an interval wholly above zero, as reviewed
    # which rule the verdict judges, that it was picked by a rule set in advance, and that
    # picking afterwards among several flatters even a clear interval; the verdict stays
    assert f"it judges one rule, “{R.rule_words(offensive.rule)}”" in why
    assert "picks by a rule set in advance, not by how the others did" in why
    assert "even with its whole interval above zero" in why
    assert why.endswith("So the recommendation is still to keep flagging everyone, which needs no model.")
    assert ",," not in why and why.count("“") == why.count("”")
