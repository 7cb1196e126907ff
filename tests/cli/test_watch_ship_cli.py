"""``costlib watch`` says what to ship as the Watch page does: one cutoff, then the other
candidate as the alternative not chosen, word for word."""

from __future__ import annotations

import shlex

from costlib.__main__ import main


def test_the_built_in_year_says_the_pages_cutoff_to_ship_word_for_word(tmp_path, capsys, monkeypatch):
    from costlib.answers.watch import SAMPLE_COLUMNS, WATCH_RESAMPLES, sample_files, sample_inputs, watch_answer

    files = sample_files()
    (tmp_path / files.cases_name).write_bytes(files.cases)
    (tmp_path / files.policy_name).write_bytes(files.policy)
    monkeypatch.chdir(tmp_path)
    assert main(shlex.split(files.command)[3:]) == 1
    out = capsys.readouterr().out.splitlines()
    policy, df = sample_inputs()  # what the page watches on a first visit, at the page's resamples
    answer = watch_answer(
        policy, df, name="the built-in year", columns=dict(SAMPLE_COLUMNS), freq="M", n_resamples=WATCH_RESAMPLES,
        unit="$",
    )  # fmt: skip
    ship = answer.ship_words(answer.refit(None))
    assert len(ship) == 2 and ship[0].startswith("What to ship instead: ") and ship[1].startswith("Not chosen: ")
    assert out[-2:] == list(ship)  # after the headline, the page's words, in the page's order
    assert sum(line.startswith("What to ship instead") for line in out) == 1
