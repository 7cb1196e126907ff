"""One reading of a table on every path: a row is named as a spreadsheet shows it, a group cell
means the same to the audit and to ``apply``, and a cell's category is its `canon` text."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from costlib import loading
from costlib.__main__ import main
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.handoff.policy import read_policy
from costlib.loading.cells import canon, categories
from costlib.loading.frames import number_column
from costlib.loading.messages import file_row

BAD = 3  # 0-based data row of the bad score: the 5th line of the file, under the header


def _scores_csv() -> bytes:
    df = pd.DataFrame({"label": [0, 1, 0, 1, 0, 1], "score": ["0.1", "0.9", "0.2", "high", "0.3", "0.8"]})
    return df.to_csv(index=False).encode()


def _bytes(kind: str) -> tuple[bytes, str]:
    data = _scores_csv()
    if kind == "csv":
        return data, "s.csv"
    buf = io.BytesIO()
    pd.read_csv(io.BytesIO(data), dtype={"score": object}).to_parquet(buf, index=False)
    return buf.getvalue(), "s.parquet"


@pytest.mark.parametrize("kind", ["csv", "parquet"])
def test_the_row_a_sentence_names_is_the_line_a_spreadsheet_shows(kind):
    data, name = _bytes(kind)
    lines = _scores_csv().decode().splitlines()  # a spreadsheet's row r is line r of the CSV
    assert lines[0] == "label,score" and lines[file_row(BAD) - 1] == "1,high"
    df = loading.read_table(data, name)
    with pytest.raises(DataError) as upload:
        loading.prepare(df, ColumnMapping(label="label", scores=("score",)), name=name, fingerprint="")
    with pytest.raises(DataError) as apply:  # the path `costlib apply` and watch read scores by
        number_column(df, name, "score")
    assert 'row 5 ("high")' in upload.value.message  # line 5: header, 0.1, 0.9, 0.2, high
    assert apply.value.message == upload.value.message  # one sentence on every path
    assert file_row(BAD) == 5 and file_row(np.array([0, BAD])).tolist() == [2, 5]


def test_a_policy_decides_every_row_of_the_file_it_was_fitted_on(tmp_path, capsys):
    rng = np.random.default_rng(4)
    n = 400
    group = rng.choice(np.array(["a", "b", "NA", ""], dtype=object), n)
    score = rng.uniform(0, 1, n).round(3)
    label = (rng.uniform(0, 1, n) < score).astype(int)
    path = tmp_path / "cases.csv"
    pd.DataFrame({"y": label, "p": score, "region": group}).to_csv(path, index=False)
    assert ",NA\n" in path.read_text() and ",\n" in path.read_text()  # "NA" and blank group cells as written
    policy = tmp_path / "policy.json"
    args = ["audit", str(path), "--label", "y", "--score", "p", "--group", "region", "--c-fp", "1", "--c-fn", "3"]
    assert main([*args, "--resamples", "10", "--json", "--policy", str(policy), "--rule", "cost-optimal"]) == 0
    capsys.readouterr()
    out = tmp_path / "decisions.csv"
    assert main(["apply", str(policy), str(path), "--allow-unsigned", "--out", str(out), "--json"]) == 0, (
        capsys.readouterr().err
    )
    summary = json.loads(capsys.readouterr().out)
    got = pd.read_csv(out, keep_default_na=False, dtype={"region": str})
    assert len(got) == n and got["row"].tolist() == [file_row(i) for i in range(n)]
    assert summary["data"]["n_rows"] == n
    cutoffs = read_policy(policy).cutoffs
    assert {"NA", "(missing)"} <= set(cutoffs)  # the audit's groups, which apply now reads alike
    blank = got["region"] == ""
    assert blank.sum() > 0 and (got.loc[blank, "cutoff"] == cutoffs["(missing)"]).all()
    na = got["region"] == "NA"
    assert na.sum() > 0 and (got.loc[na, "cutoff"] == cutoffs["NA"]).all()


def test_categories_follow_canon_for_bools_beside_numbers():
    cells = [True, 1, 0, False, "x", 1.0, None, np.True_, 0.0, "True"]
    codes, names = categories(pd.Series(cells, dtype=object))
    texts = [canon(v) for v in cells]
    assert [None if c < 0 else names[c] for c in codes] == texts  # each cell's name is its canon text
    assert names == ["True", "1", "0", "False", "x"]
    codes, names = categories(pd.Series([1, True, 1], dtype=object))  # the number first, the bool after
    assert names == ["1", "True"] and codes.tolist() == [0, 1, 0]
