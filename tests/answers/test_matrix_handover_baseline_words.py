"""The Cost matrix page says its choice without a model one way (first-time user review, item 2).

On the tickets sample with handing a case over at $0.20, the answer saves "against “hand every case
over”, the cheapest choice without a model", and the next line said "the choice without a model is
picked on the 1,501 validation rows (the one class to decide for every case)": a class decided for
every case, which the answer is not measured against. Now that line names handing every case over
as the choice, and the one class beside it as what it beat and where that class was picked (the
validation rows; handing over is set against it on the test rows); where the one class is the
choice, the line stays as it was."""

from __future__ import annotations

import dataclasses
import io

import pandas as pd
import pytest

from costlib.answers.matrix import default_matrix, matrix_answer
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.multiclass import HAND_OVER


def _tickets(split: bool = True):
    s = SAMPLES["tickets"]
    df = pd.read_csv(io.BytesIO(sample_bytes("tickets")))
    mapping = s.mapping if split else dataclasses.replace(s.mapping, split=None)
    return prepare(df if split else df.drop(columns="split"), mapping, name=s.filename, fingerprint=f"hand{split}")


@pytest.fixture(scope="module")
def tickets():
    return _tickets()


def _answer(ds, handover: float | None):
    price = 0.3 if handover is None else handover
    return matrix_answer(ds, default_matrix(ds.class_names), handover, handover_price=price, unit="$", volume=10_000)


def _one_class(answer) -> str:
    table = answer.rec.table
    (name,) = [p for p in table.loc[~table["uses the model"], "policy"] if p != HAND_OVER]
    return name


def test_handing_every_case_over_is_named_as_the_choice_beside_the_class_it_beat(tickets):
    answer = _answer(tickets, 0.2)
    assert answer.rec.baseline == HAND_OVER  # the reviewer's case
    assert f"against “{HAND_OVER}”, the cheapest choice without a model" in answer.verdict.headline
    rows = answer.verdict.details[-1]
    one_class = _one_class(answer)
    assert rows.startswith(
        "Judged on the 1,499 test rows of the 3,000: the choice without a model is picked on the 1,501 validation "
        "rows and on the test rows. It is handing every case over, which on the test rows costs less than the one "
        f"class to decide for every case, “{one_class}”, picked on the validation rows. Nothing else is fitted"
    ), rows
    # the two costs the line compares, as the policies' table has them
    costs = answer.rec.table.set_index("policy")["cost per case"]
    assert costs[HAND_OVER] < costs[one_class]


def test_without_test_rows_it_says_the_class_was_picked_on_the_same_rows():
    answer = _answer(_tickets(split=False), 0.2)
    assert answer.rec.baseline == HAND_OVER
    rows = answer.verdict.details[-1]
    assert rows.startswith(
        "This data has no test rows, so all its 3,000 rows are judged, and the choice without a model is picked on "
        "them too. It is handing every case over, which on these rows costs less than the one class to decide for "
        f"every case, “{_one_class(answer)}”. Nothing else is fitted"
    ), rows
    assert "validation" not in rows


def test_where_the_one_class_is_the_choice_the_line_is_as_before(tickets):
    answer = _answer(tickets, None)  # no handing over: the one class is the only choice without a model
    assert answer.rec.baseline == _one_class(answer)
    rows = answer.verdict.details[-1]
    assert (
        "the choice without a model is picked on the 1,501 validation rows (the one class to decide for every case)"
        in rows
    )
    assert "handing every case over" not in rows
