"""Review 74: Instance costs on the built-in Offensive language sample said "$0.036 per case ($360 a month)
against $0.143 per case ($1,430 a month)" above a table reading "$0.036 | $364" and "$0.143 | $1,426" (at
$2.00: "$730" and "$2,850" against "$729" and "$2,852"). By the house rule a month is the amount as shown
times the cases (`amounts.month_figure`): the table reads the answer's figures (`page_answers.nec_shown`)."""

import io
import re

import pandas as pd
import pytest

from costlib import answers
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present import labels as t


@pytest.fixture(scope="module")
def offensive():
    s = SAMPLES["offensive"]
    ds = prepare(pd.read_csv(io.BytesIO(sample_bytes("offensive"))), s.mapping, name=s.filename, fingerprint="o")
    return answers.instance_answer(ds)


@pytest.mark.parametrize("price", [1.0, 2.0])
def test_the_table_reads_the_answers_costs_and_months(offensive, price):
    a = offensive
    headline = a.verdict(price, "$", 10_000).headline
    said = re.findall(r"(\$[0-9.]+) per case \((\$[0-9,]+) a month\)", headline)
    assert len(said) == 2, headline  # the model's cost, then the choice without one
    table = a.at_cutoff(a.rec.threshold, price=price, unit="$", volume=10_000).overall
    rows = {
        r: (table.loc[i, t.COST_PER_CASE], table.loc[i, t.COST_A_MONTH])
        for i, r in zip(table.index, table[t.INSTANCE_COLUMNS.get("option", "option")], strict=True)
    }
    assert rows[a.rec.model] == said[0], (rows, headline)
    assert rows[a.rec.baseline] == said[1], (rows, headline)


def test_every_month_in_the_table_is_its_amount_as_shown(offensive):
    table = offensive.at_cutoff(0.5, price=1.0, unit="$", volume=10_000).overall
    for per_case, month in zip(table[t.COST_PER_CASE], table[t.COST_A_MONTH], strict=True):
        shown = float(per_case.lstrip("$"))
        assert float(month.lstrip("$").replace(",", "")) == round(shown * 10_000), (per_case, month)


def test_a_cost_the_answers_decimals_would_round_to_nothing_reads_at_its_own():
    """The answer's decimals can be cut to 2 by its interval's width: a row costing $0.0043 read "$0.00 | $0"
    (free) under them (the session's last read)."""
    from costlib.answers.instance import _shown

    frame = pd.DataFrame({"option": ["cheap", "dear"], "cost ($)": [0.0043, 0.2512]})
    shown = _shown(frame, "cost ($)", "$", 10_000, shown_at={"digits": 2, "beside": (0.05, 0.12)})
    assert list(shown[t.COST_PER_CASE]) == ["$0.0043", "$0.25"], shown
    assert shown[t.COST_A_MONTH].iloc[0] == "$43.00", shown  # not "$0"
