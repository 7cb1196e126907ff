"""Watch says "base rate" nowhere a person reads it: a first-time product manager does not know the
term, so the page, its built-in year's title and the command line say "the share of positive cases"
(in a table's heading, "% positive"). The JSON keeps its key ``base_rate`` (the spec's contract)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import costlib.cli.watch as cli_watch
from costlib.__main__ import main
from costlib.answers.watch import SAMPLE_COLUMNS, sample_files, sample_inputs, sample_note, watch_answer
from costlib.present import watch_words

ROOT = Path(__file__).resolve().parents[2]
JARGON = ("base rate", "base-rate")
#: the modules whose strings the Watch page, its report and ``costlib watch`` show
SHOWN = (
    "costlib/present/watch_words.py",
    "costlib/present/watch_labels.py",
    "costlib/present/watch_tables.py",
    "costlib/present/watch_figures.py",
    "costlib/present/watch_periods.py",
    "costlib/answers/watch.py",
    "costlib/answers/watch_inputs.py",
    "costlib/watch/report.py",
    "costlib/watch/sample.py",
    "costlib/cli/watch.py",
)


def _shown_strings(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string literal of `path` (an f-string's literal parts joined), its
    docstrings and bare string statements aside (they are read by engineers)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bodies = [node.body for node in ast.walk(tree) if isinstance(getattr(node, "body", None), list)]
    docs = {
        id(stmt.value)
        for body in bodies
        for stmt in body
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
    }
    inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs | inner:
            out.append((node.lineno, node.value))
        elif isinstance(node, ast.JoinedStr):
            out.append((node.lineno, "".join(v.value for v in node.values if isinstance(v, ast.Constant))))
    return out


def _jargon(text: str) -> list[str]:
    return [word for word in JARGON if word in text.lower()]


def test_no_string_watch_shows_says_base_rate():
    said = [
        f"{name}:{line}: {text[:80]!r}" for name in SHOWN for line, text in _shown_strings(ROOT / name) if _jargon(text)
    ]
    assert said == []
    # ``costlib watch --help`` shows the module docstring's second paragraph
    assert _jargon(cli_watch.__doc__.split("\n\n")[1]) == []


@pytest.fixture(scope="module")
def year():
    policy, df = sample_inputs()
    return watch_answer(
        policy, df, name="the built-in year", columns=SAMPLE_COLUMNS, freq="M", n_resamples=100, unit="$"
    )


def test_the_built_in_year_is_said_in_plain_words(year):
    refit = year.refit(10000)
    verdict = year.verdict_for(refit)
    tables = [t for t in (year.table, year.readings, year.groups) if t is not None]
    texts = [
        sample_note(),
        verdict.headline,
        *verdict.details,
        *year.ship_words(refit, 10000),
        year.refit_what(refit, 10000),
        year.readings_what,
        *(str(c) for t in tables for c in t.columns),
        *(str(x) for t in tables for x in t.to_numpy().ravel()),
        *(tr.name for tr in year.figure.data),
    ]
    assert [x for x in texts if _jargon(x)] == []
    # the plain words stand where the term stood
    assert "far fewer cases turn out positive" in sample_note()
    assert watch_words.POSITIVE in year.table.columns and watch_words.POSITIVE in year.readings.columns
    assert "share of positive cases" in year.readings_what


def test_the_command_line_says_it_in_the_same_words(tmp_path, capsys):
    files = sample_files()
    cases, policy = tmp_path / files.cases_name, tmp_path / files.policy_name
    cases.write_bytes(files.cases)
    policy.write_bytes(files.policy)
    columns = ("--time", "decided", "--score", "score", "--label", "outcome", "--group", "region")
    main(["watch", "--allow-unsigned", str(policy), str(cases), *columns, "--resamples", "100"])
    out, err = capsys.readouterr()
    assert _jargon(out) == [] and _jargon(err) == []
    assert "% of the cases positive" in out and watch_words.FITS in out
    assert "if only the share of positive cases moved" in err  # the note under an estimate
