"""`safe_cells` makes each distinct text of a column safe once (a chart's table repeats its line
names on every row, and a price move redraws it): the cells must be exactly those of making
every cell safe on its own."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from costlib.core import escaping
from costlib.core.escaping import MAX_CELL_CHARS, safe_cells

TEXTS = st.one_of(
    st.sampled_from(["north", "=1+1", "-3.5", " @x", "＝sum", "\tlead", "x" * (MAX_CELL_CHARS + 5), ""]),
    st.text(max_size=12),
)
CELLS = st.one_of(TEXTS, st.none(), st.floats(allow_nan=True), st.integers(-5, 5), st.booleans(), st.binary(max_size=8))


@settings(max_examples=200, deadline=None)
@given(st.lists(CELLS, min_size=1, max_size=40), st.lists(TEXTS, min_size=1, max_size=3))
def test_each_cell_is_what_making_it_safe_alone_gives(mixed, names):
    rows = len(mixed)
    df = pd.DataFrame({"mixed": pd.Series(mixed, dtype=object), "line": [names[i % len(names)] for i in range(rows)]})
    shown = safe_cells(df)
    for column in df.columns:
        # the reference: every cell made safe on its own, through the same pandas map
        alone = df[column].astype(object).map(lambda x: escaping._safe_cell(x, MAX_CELL_CHARS)).tolist()
        got = shown.iloc[:, list(df.columns).index(column)].tolist()
        assert [type(a) for a in alone] == [type(g) for g in got]
        assert [repr(a) for a in alone] == [repr(g) for g in got]
