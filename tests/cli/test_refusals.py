"""Every refusal of the command line exits 2 and names the flag that fixes it.

Each test runs one command in-process (`costlib.__main__.main`) on a small table that breaks
one rule, and checks the exit code and the flag in the one sentence on standard error. A
problem with a column is printed after the flag that named the column ("--group: In ...");
a setting the data needs is named by its flag inside the sentence ("(--positive VALUE)").
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from costlib.__main__ import main
from costlib.cli import audit as cli_audit

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "costlib/samples/compas.csv"
PRICES = ["--c-fp", "1", "--c-fn", "2", "--resamples", "10"]


def _refuse(capsys, *args: str) -> str:
    """Standard error of a command that must exit 2: one line, no traceback."""
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == "" and "Traceback" not in err
    return err.strip().splitlines()[-1]  # argparse prints its usage first


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Path:
    """400 rows of the COMPAS sample with one column per way of being wrong."""
    df = pd.read_csv(SAMPLE).head(400)
    df["words"] = df["two_year_recid"].map({0: "no", 1: "yes"})
    df["gappy"] = df["two_year_recid"].astype(object).where(df.index % 50 != 7, "")
    df["stray"] = df["p_recid"].where(df.index != 3, 1.5)  # one probability above 1
    df["many"] = [f"g{i % 25}" for i in range(len(df))]  # 25 groups: more than 20
    df["no_test"] = df["split"].replace({"test": "train"})
    df["no_train"] = df["split"].replace({"train": "test"})
    path = tmp_path_factory.mktemp("refusals") / "t.csv"
    df.to_csv(path, index=False)
    return path


def audit(table: Path, *args: str) -> list[str]:
    return ["audit", str(table), *args]


# --------------------------------------------------------------------------------------
# audit: the data asks for a setting


def test_labels_that_are_words_ask_for_positive(capsys, table):
    err = _refuse(capsys, *audit(table, "--label", "words", "--score", "p_recid", *PRICES))
    assert err.startswith("--label: ") and "choose which one means positive (--positive VALUE)." in err


def test_a_positive_value_not_in_the_labels_names_positive(capsys, table):
    err = _refuse(capsys, *audit(table, "--label", "words", "--positive", "maybe", "--score", "p_recid", *PRICES))
    assert 'the positive value "maybe" (--positive) does not occur' in err


def test_decile_scores_ask_for_scale_raw(capsys):
    err = _refuse(capsys, "audit", str(SAMPLE), "--label", "two_year_recid", "--score", "decile_score", *PRICES)
    assert err.startswith("--score: ")
    assert 'choose the "logit" scale (--scale logit)' in err and 'choose "raw" (--scale raw).' in err


def test_a_few_scores_outside_0_1_name_scale_raw(capsys, table):
    err = _refuse(capsys, *audit(table, "--label", "two_year_recid", "--score", "stray", *PRICES))
    assert err.startswith("--score: ") and "or map the column as raw scores (--scale raw) if it is not" in err


# --------------------------------------------------------------------------------------
# audit: a column named by a flag


@pytest.mark.parametrize("flag", ["--label", "--score", "--group", "--split"])
def test_a_missing_column_names_its_flag(capsys, table, flag):
    columns = {"--label": "two_year_recid", "--score": "p_recid", "--group": "race", "--split": "split"}
    columns[flag] = "no_such_column"
    args = [a for f, c in columns.items() for a in (f, c)]
    err = _refuse(capsys, *audit(table, *args, *PRICES))
    assert err.startswith(f'{flag}: In "t.csv", the column "no_such_column" chosen as ') and "does not exist" in err


@pytest.mark.parametrize(
    "args, flag, words",
    [
        (["--label", "two_year_recid", "--score", "race"], "--score", "not numbers"),
        (["--label", "race", "--score", "p_recid"], "--label", "distinct values where a binary label needs 2"),
        (["--label", "gappy", "--score", "p_recid"], "--label", "has no label (blank or NA) in 8 rows"),
        (["--label", "sex", "--score", "p_recid", "--positive", "Male", "--group", "many"], "--group", "25 distinct"),
        (["--label", "two_year_recid", "--score", "p_recid", "--split", "race"], "--split", "not a split name"),
        (["--label", "two_year_recid", "--score", "p_recid", "--split", "no_test"], "--split", "has no test rows"),
        (["--label", "two_year_recid", "--score", "p_recid", "--split", "no_train"], "--split", "has no train rows"),
    ],
)
def test_a_bad_column_comes_after_its_flag(capsys, table, args, flag, words):
    err = _refuse(capsys, *audit(table, *args, *PRICES))
    assert err.startswith(f'{flag}: In "t.csv", ') and words in err


def test_a_column_given_to_two_flags_names_both(capsys, table):
    err = _refuse(capsys, *audit(table, "--label", "two_year_recid", "--score", "race", "--group", "race", *PRICES))
    assert err.startswith("--score/--group: ")


# --------------------------------------------------------------------------------------
# audit: settings


@pytest.mark.parametrize("flag", ["--c-fp-group", "--c-fn-group"])
def test_a_group_price_for_no_such_group_names_its_flag(capsys, table, flag):
    err = _refuse(capsys, *audit(table, "--label", "two_year_recid", "--score", "p_recid", *PRICES, flag, "Mars=3"))
    assert err.startswith(f'{flag} names the group "Mars"')


@pytest.mark.parametrize(
    "args, words",
    [
        (["--c-fp-group", "Caucasian"], "argument --c-fp-group: expected GROUP=PRICE"),
        (["--c-fn", "-1"], "argument --c-fn: "),
        (["--seed", "-1"], "argument --seed: "),
        (["--tolerance", "5"], "argument --tolerance: "),
        (["--resamples", "5"], "argument --resamples: "),
        (["--volume", "-3"], "argument --volume: "),
        (["--unit", "x" * 40], "argument --unit: "),
        (["--scale", "deciles"], "argument --scale: invalid choice"),
        (["--engine", "pandas"], "argument --engine: invalid choice"),
    ],
)
def test_a_bad_value_is_refused_after_its_flag(capsys, table, args, words):
    err = _refuse(capsys, *audit(table, "--label", "two_year_recid", "--score", "p_recid", *PRICES, *args))
    assert words in err


def test_a_missing_price_names_its_flag(capsys, table):
    err = _refuse(capsys, *audit(table, "--label", "two_year_recid", "--score", "p_recid", "--c-fp", "1"))
    assert "the following arguments are required: --c-fn" in err


def test_an_unknown_rule_names_rule(capsys, table, tmp_path):
    args = ["--label", "two_year_recid", "--score", "p_recid", *PRICES, "--rule", "magic"]
    err = _refuse(capsys, *audit(table, *args, "--policy", str(tmp_path / "p.json")))
    assert err.startswith('--rule "magic" is not one of the rules')


def test_a_rule_with_no_cutoff_names_rule(capsys, tmp_path):
    # At tolerance 0 no cutoffs give the races exactly equal accuracy: the fair rule is NaN.
    args = ["--label", "two_year_recid", "--score", "p_recid", "--split", "split", "--group", "race", *PRICES]
    args += ["--tolerance", "0", "--rule", "fair: equal accuracy", "--policy", str(tmp_path / "p.json")]
    err = _refuse(capsys, "audit", str(SAMPLE), *args)
    assert err.startswith("--rule: the rule 'fair: equal accuracy' has no cutoff") and err.endswith("another rule.")


@pytest.mark.parametrize("flag", ["--report", "--policy"])
def test_an_output_that_cannot_be_written_names_its_flag(capsys, table, tmp_path, flag):
    args = ["--label", "two_year_recid", "--score", "p_recid", *PRICES, flag, str(tmp_path)]  # a folder
    err = _refuse(capsys, *audit(table, *args))
    assert err.startswith(f'{flag}: The output file "{tmp_path}" cannot be written')


def test_a_file_too_big_for_memory_names_engine(capsys, monkeypatch, table):
    monkeypatch.setenv("COSTLIB_UPLOAD_MEMORY_MB", "0.01")  # 10 kB: the 400 rows do not fit
    err = _refuse(capsys, *audit(table, "--label", "two_year_recid", "--score", "p_recid", *PRICES))
    assert "add --engine duckdb to read them where they are" in err


def test_running_out_of_memory_names_engine(capsys, monkeypatch, table):
    def exhausted(args):
        raise MemoryError

    monkeypatch.setattr(cli_audit, "run_audit", exhausted)
    err = _refuse(capsys, *audit(table, "--label", "two_year_recid", "--score", "p_recid", *PRICES))
    assert err == cli_audit.MSG_OUT_OF_MEMORY and "--engine duckdb" in err


# --------------------------------------------------------------------------------------
# audit --engine


def test_engine_with_positive_names_both(capsys, table):
    args = ["--label", "words", "--positive", "yes", "--score", "p_recid", *PRICES, "--engine", "duckdb"]
    err = _refuse(capsys, *audit(table, *args))
    assert err.startswith("--positive is not available with --engine")


def test_engine_with_one_column_for_two_flags_names_both(capsys, table):
    args = ["--label", "two_year_recid", "--score", "p_recid", "--group", "p_recid", *PRICES, "--engine", "duckdb"]
    err = _refuse(capsys, *audit(table, *args))
    assert err.startswith('--score and --group name the same column "p_recid"')


@pytest.mark.parametrize(
    "args, flag",
    [
        (["--label", "two_year_recid", "--score", "no_such_column"], "--score"),
        (["--label", "two_year_recid", "--score", "p_recid", "--split", "no_test"], "--split"),
        (["--label", "two_year_recid", "--score", "p_recid", "--split", "race"], "--split"),
    ],
)
def test_engine_refusals_about_a_column_come_after_its_flag(capsys, table, args, flag):
    err = _refuse(capsys, *audit(table, *args, *PRICES, "--engine", "duckdb"))
    assert err.startswith(f"{flag}: ")


# --------------------------------------------------------------------------------------
# train


@pytest.fixture(scope="module")
def training_table(tmp_path_factory) -> Path:
    rng = np.random.default_rng(0)
    n = 60
    a = rng.normal(size=n)
    df = pd.DataFrame(
        {
            "a": a,
            "word": ["x"] * n,
            "delta": a + rng.normal(size=n),
            "yes": rng.integers(0, 4, n),
            "minus": -rng.integers(1, 4, n),
            "text": [f"w{i}" for i in range(n)],  # no word in two rows
        }
    )
    path = tmp_path_factory.mktemp("train") / "t.csv"
    df.to_csv(path, index=False)
    return path


@pytest.mark.parametrize(
    "args, flag",
    [
        (["--features", "a,nope", "--delta", "delta"], "--features"),
        (["--text", "nope", "--delta", "delta"], "--text"),
        (["--features", "a", "--delta", "nope"], "--delta"),
        (["--features", "a", "--votes", "yes,nope"], "--votes"),
        (["--features", "a", "--threshold", "nope,1"], "--threshold"),
        (["--features", "a", "--rating", "nope,3"], "--rating"),
        (["--features", "a,word", "--delta", "delta"], "--features"),
        (["--features", "a", "--votes", "yes,minus"], "--votes"),
        (["--features", "a,delta", "--delta", "delta"], "--features/--delta"),
        (["--text", "text", "--delta", "delta"], "--text"),
    ],
)
def test_train_refusals_about_a_column_come_after_its_flag(capsys, training_table, args, flag):
    err = _refuse(capsys, "train", str(training_table), *args, "--jobs", "1")
    assert err.startswith(f'{flag}: In "t.csv", ')


@pytest.mark.parametrize(
    "args, words",
    [
        (["--methods", "boosting"], '--methods: "boosting" is not a method'),
        (["--seeds", "0"], "argument --seeds: "),
        (["--jobs", "0"], "argument --jobs: "),
        (["--random-state", "-1"], "argument --random-state: "),
        (["--threshold", "a"], "argument --threshold: "),
    ],
)
def test_train_settings_name_their_flag(capsys, training_table, args, words):
    source = [] if "--threshold" in args else ["--delta", "delta"]
    err = _refuse(capsys, "train", str(training_table), "--features", "a", *source, *args)
    assert words in err


# --------------------------------------------------------------------------------------
# aggregate: its argument parser's refusals (the command's own sentences are its module's)


@pytest.mark.parametrize(
    "args, words",
    [
        (["--score", "p_recid", "--out", "x.parquet"], "required: --label"),
        (
            ["--label", "two_year_recid", "--score", "p_recid", "--out", "x.parquet", "--max-thresholds", "0"],
            "--max-thresholds",
        ),
    ],
)
def test_aggregate_bad_arguments_name_their_flag(capsys, args, words):
    err = _refuse(capsys, "aggregate", str(SAMPLE), *args)
    assert words in err
