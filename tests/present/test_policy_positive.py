"""The policy file writes the positive outcome one way whoever wrote it (issue 44, item 6): the
loader's text of a cell ("1"), as the Costs page names it, where the command line wrote the
number 1; files with either are read, and decide alike."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

import costlib
from costlib.present.policy import load_policy, policy_json

COMPAS = Path(__file__).resolve().parents[2] / "costlib" / "samples" / "compas.csv"


def compas_policy(**settings) -> dict:
    """The policy file an audit of the COMPAS sample at prices 1 and 3 writes, parsed; `settings`
    go to `costlib.audit` as well."""
    a = costlib.audit(
        COMPAS, label="two_year_recid", score="p_recid", split="split", c_fp=1, c_fn=3, n_resamples=20, **settings
    )
    return json.loads(policy_json(a))


@pytest.fixture(scope="module")
def written():
    return {positive: compas_policy(positive=positive) for positive in (None, 1, "1")}


def test_every_writer_writes_the_positive_outcome_as_the_loaders_text(written):
    for policy in written.values():
        assert policy["data"]["positive"] == "1"
        assert policy["decision"]["data"]["positive"] == "1"
        assert load_policy(json.dumps(policy))["data"]["positive"] == "1"  # read back as written


@pytest.mark.parametrize("old", [1, "1"])
def test_a_file_with_the_number_or_the_text_decides_alike_on_numbers_and_true_false(written, old):
    policy = json.loads(json.dumps(written[None]))
    policy["data"]["positive"] = old
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = X[:, 0] + rng.normal(size=200) > 0
    for labels in (y.astype(int), y):  # a true/false label's positive is the loader's 1 too
        model = LogisticRegression().fit(X, labels)
        served = costlib.policy_estimator(
            {**policy, "data": {**policy["data"], "score": None}}, model, allow_unsigned=True
        )
        flags = costlib.apply_policy(policy, model.predict_proba(X)[:, 1])
        assert (served.predict(X) == np.where(flags, labels.max(), labels.min())).all()
