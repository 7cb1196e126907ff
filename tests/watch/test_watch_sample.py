"""The built-in year as the Watch page downloads it: cells a spreadsheet would run are
neutralised, as in every download, and the policy file is the one the page watches."""

from __future__ import annotations

import io

import pandas as pd

from costlib.answers.watch import shipped_policy, shipped_policy_json
from costlib.present.policy import load_policy
from costlib.watch import sample


def test_the_years_csv_neutralises_formula_cells(monkeypatch):
    year = sample.watch_year()
    year.loc[0, "region"], year.loc[1, "region"] = '=HYPERLINK("http://x")', "@SUM(A1)"
    monkeypatch.setattr(sample, "watch_year", lambda seed=7: year)
    data = sample.watch_year_csv()
    assert data.decode().splitlines()[0] == "decided,score,outcome,region"
    back = pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False)
    assert back["region"].tolist()[:3] == ['\'=HYPERLINK("http://x")', "'@SUM(A1)", year.loc[2, "region"]]
    assert back["decided"][2] == str(year.loc[2, "decided"].date())  # a day, as the page reads it


def test_the_policy_file_reads_back_to_the_policy_the_page_watches():
    # one policy however the seed is passed: the page reads it and offers it, so `created` agrees too
    assert shipped_policy_json() is shipped_policy_json(7) is shipped_policy_json(seed=7)
    read = load_policy(shipped_policy_json())
    assert read == shipped_policy()
    assert read["thresholds"] and read["unit"] == "$" and read["volume"] == 1500
