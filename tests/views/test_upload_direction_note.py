"""Headless AppTest of the Data page: labels 1 and 2 whose model scores "2" load with "1" as the
positive class (the picker's first value) and the page warns, under "What is loaded", that the
scores are lower for "1"; picking "2" loads them the right way round and the warning goes."""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib.present.labels import MAP_POSITIVE
from tests.views.apptest_support import USE_COLUMNS, load_file, mk, open_app, unescape


def labels_12() -> bytes:
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 800)
    score = np.clip(0.7 - 0.4 * y + rng.normal(0, 0.2, 800), 0, 1).round(4)  # the model scores "1"
    return (
        pd.DataFrame({"label": y + 1, "score": score, "group": rng.choice(["a", "b"], 800)})
        .to_csv(index=False)
        .encode()
    )


def warnings(at) -> str:
    return unescape("\n".join(w.value for w in at.warning))


def test_reversed_labels_are_loaded_with_a_warning_that_goes_once_the_positive_class_is_picked():
    at = open_app("compas", "views/data.py")
    load_file(at, "twelve.csv", labels_12())
    ds = at.session_state["upload_dataset"]
    assert ds.name == "twelve.csv" and ds.mapping.positive == "2"  # the larger value first; loaded
    said = warnings(at)
    assert 'the scores are lower for "2" than for "1": is "1" the positive class?' in said, said
    assert f'pick it under "{MAP_POSITIVE}"' in said
    at.selectbox(key=mk(at, "positive")).set_value("1")
    [b for b in at.button if b.label == USE_COLUMNS][0].click().run()
    assert at.session_state["upload_dataset"].mapping.positive == "1"
    assert 'is "2" the positive class' not in warnings(at) and "lower for" not in warnings(at)
