"""The Data page's column mapping takes several group columns (issue 41, item 2): the group column
and the multi-select beside it map the intersections, which the loaded data's groups are."""

from __future__ import annotations

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from tests.views.apptest_support import USE_COLUMNS, assert_no_exception, mk, open_app, texts

HOSTILE = "**<b>x</b>** | =1+1"


def test_the_mapping_takes_several_group_columns_and_loads_their_intersections():
    rng = np.random.default_rng(2)
    n = 120
    frame = pd.DataFrame(
        {
            "label": rng.integers(0, 2, n),
            "score": rng.uniform(size=n).round(3),
            "race": rng.choice(["A", HOSTILE], n),
            "sex": rng.choice(["F", "M"], n),
        }
    )
    at: AppTest = open_app("compas", "views/data.py")
    at.file_uploader(key="uploader").upload("people.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    assert_no_exception(at)
    at.selectbox(key=mk(at, "group")).set_value("race")
    at.multiselect(key=mk(at, "more_groups")).set_value(["sex"])
    [b for b in at.button if b.label == USE_COLUMNS][0].click().run()
    assert_no_exception(at)
    ds = at.session_state["upload_dataset"]
    assert ds.mapping.group == ("race", "sex")
    want = frame.groupby(["race", "sex"]).size()
    got = pd.Series(ds.groups).value_counts()
    assert {f"{r} × {s}": int(c) for (r, s), c in want.items()} == {str(k): int(v) for k, v in got.items()}
    assert ds.group_parts[f"{HOSTILE} × F"] == (HOSTILE, "F")
    at.switch_page("views/costs.py").run()  # the Costs page reads the intersections as its groups
    assert_no_exception(at)
    assert "A × F" in texts(at)
