"""``audit --weight COL``: on a file whose rows carry weights, the command line answers as the
Costs & groups page does (the answers layer, on the Dataset the page's upload builds from its
guess, which maps a column named weight by itself): the same cutoffs, saving and interval, and
the same policy, ``data.weight`` included. Without ``--weight``, a column the page would read
as weights is named on standard error, once; ``apply`` names the policy's rule in its words."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from cli_support import run_main

PRICES = ["--c-fp", "1", "--c-fn", "3", "--unit", "$", "--volume", "10000", "--resamples", "40"]


@pytest.fixture(scope="module")
def weighted(tmp_path_factory):
    """A file whose rows stand for 1, 2 or 5 cases, with two groups that differ."""
    rng = np.random.default_rng(3)
    n = 500
    group = rng.choice(["A", "B"], n, p=[0.6, 0.4])
    y = rng.random(n) < np.where(group == "A", 0.2, 0.45)
    score = np.clip(0.3 * y + 0.1 * (group == "B") + rng.normal(0.25, 0.15, n), 0.001, 0.999).round(6)
    weight = rng.choice([1.0, 2.0, 5.0], n)
    path = tmp_path_factory.mktemp("weights") / "weights.csv"
    pd.DataFrame({"outcome": y.astype(int), "score": score, "group": group, "weight": weight}).to_csv(path, index=False)
    return path


def _page(path):
    """The page's audit and policy of `path`: the upload read and guessed, prepared under the guess
    (as “Use these columns” does), every model's sweeps, the audit of the session's settings."""
    from costlib import loading
    from costlib.answers.audit import dataset_models
    from costlib.answers.costs import audit_maker
    from costlib.answers.data import mapped_upload, upload_answer
    from costlib.core import link
    from costlib.present.policy import policy_json

    raw = path.read_bytes()
    df = loading.read_table(raw, path.name)
    guess = upload_answer(df, path.name).guess
    assert guess.weight == "weight"  # the page maps it by itself

    def prepare(mapping, options):
        return loading.prepare(df, mapping, name=path.name, fingerprint=loading.fingerprint(raw), **dict(options))

    ds = mapped_upload(df, path.name, guess, (), guess, prepare=prepare).dataset
    models = dataset_models(ds)
    costs = {g: (1.0, 3.0) for g in next(iter(models.values())).groups}
    build = audit_maker(models, costs, ds, link.Settings(resamples=40), unit="$", volume=10000)
    audit = build()
    return audit, json.loads(policy_json(audit))


def _without_time(policy: dict) -> dict:
    return {k: v for k, v in policy.items() if k != "created"}


def test_the_command_line_with_weight_answers_as_the_page(weighted, tmp_path, capsys):
    audit, page_policy = _page(weighted)
    policy = tmp_path / "p.json"
    args = ["audit", str(weighted), "--label", "outcome", "--score", "score", "--group", "group", *PRICES]
    code, out, err = run_main(capsys, *args, "--weight", "weight", "--json", "--policy", str(policy))
    assert code == 0, err
    got, page = json.loads(out), json.loads(json.dumps(audit.summary(), allow_nan=False))
    assert got["data"]["weight"] == "weight"
    assert got["cases_by_weight"] > got["n"]  # the cases the rows stand for
    for key in ("recommended", "saving_per_case", "saving_interval", "verdict", "cases_by_weight", "data"):
        assert got[key] == page[key], key
    assert got == page
    cli_policy = json.loads(policy.read_text())
    assert cli_policy["data"]["weight"] == "weight"
    assert _without_time(cli_policy) == _without_time(page_policy)
    assert "is not read as case weights" not in err  # it is read


def test_without_weight_a_column_the_page_reads_as_weights_is_named_once(weighted, capsys):
    args = ["audit", str(weighted), "--label", "outcome", "--score", "score", "--group", "group", *PRICES, "--json"]
    code, _, err = run_main(capsys, *args)
    assert code == 0
    noted = [line for line in err.splitlines() if "is not read as case weights" in line]
    assert noted == [
        'note: column "weight" is not read as case weights: each row counts once here, while the dashboard '
        "counts each row by it; to count the cases as the dashboard does, give --weight weight."
    ]
    # a column another flag names is that role's, not a weight left unread
    args = ["audit", str(weighted), "--label", "outcome", "--score", "score", "--group", "weight", *PRICES, "--json"]
    code, _, err = run_main(capsys, *args)
    assert code == 0 and "is not read as case weights" not in err


def test_a_column_the_page_would_not_read_as_weights_gets_no_note(weighted, tmp_path, capsys):
    df = pd.read_csv(weighted).rename(columns={"weight": "importance"})
    df.to_csv(tmp_path / "other.csv", index=False)
    args = ["audit", str(tmp_path / "other.csv"), "--label", "outcome", "--score", "score", *PRICES, "--json"]
    code, _, err = run_main(capsys, *args)
    assert code == 0 and "case weights" not in err


def test_weight_is_refused_with_an_engine_and_a_bad_weight_column_names_its_flag(weighted, capsys):
    args = ["audit", str(weighted), "--label", "outcome", "--score", "score", *PRICES]
    code, out, err = run_main(capsys, *args, "--weight", "weight", "--engine", "duckdb")
    assert code == 2 and out == ""
    assert err.strip() == (
        "--weight is not available with --engine: weighted rows are judged row by row, in memory; leave out --engine."
    )
    code, _, err = run_main(capsys, *args, "--weight", "group")
    assert code == 2 and err.startswith("--weight: ") and "not numbers" in err


def test_apply_names_the_rule_in_the_policys_words(weighted, tmp_path, capsys):
    policy = tmp_path / "p.json"
    args = ["audit", str(weighted), "--label", "outcome", "--score", "score", "--group", "group", *PRICES]
    code, out, err = run_main(capsys, *args, "--weight", "weight", "--policy", str(policy), "--rule", "cost-optimal")
    assert code == 0, err
    assert 'Policy ("best cutoff per group") written to' in out
    code, out, err = run_main(
        capsys, "apply", "--allow-unsigned", str(policy), str(weighted), "--out", str(tmp_path / "d.csv")
    )
    assert code == 0, err
    assert out.startswith('The policy "best cutoff per group" flags ') and "cost-optimal" not in out
