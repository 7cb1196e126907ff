"""Headless AppTest of the Instance costs page: the NEC-optimal cutoff fitted on the train rows."""

import numpy as np
from streamlit.testing.v1 import AppTest

import costlib
from tests.views.apptest_support import (
    assert_no_exception,
    open_app,
    sample_frame,
    unescape,
)


def test_instance_page_recommends_the_nec_optimal_cutoff_fitted_on_train():
    at = open_app("offensive", "views/instance.py")
    df = sample_frame("offensive")
    tr, te = df[df["split"] == "train"], df[df["split"] == "test"]
    d_tr = costlib.delta_from_votes(tr["n_yes"], tr["n_no"])
    d_te = costlib.delta_from_votes(te["n_yes"], te["n_no"])
    best = {}
    for m in ("score_lr", "score_nb"):
        t, nec = costlib.optimal_threshold(d_tr > 0, tr[m], c_fp=1, c_fn=1, sample_weight=np.abs(d_tr))
        best[m] = (nec, t)
    model = min(best, key=lambda m: best[m][0])
    t = best[model][1]
    nec = costlib.normalized_excess_cost(te[model] >= t, d_te)
    assert f"at least {t:.4g}" in verdict_box_nec(at) and f"NEC {nec:.3f}" in verdict_box_nec(at)
    at.slider(key="threshold").set_value(0.8).run()
    assert_no_exception(at)
    overall = [t.value for t in at.table if "NEC" in t.value.columns][0]
    overall = overall.set_index(overall["option"].map(unescape))  # its cells are Markdown, escaped
    # the table on screen shows what costlib gives, to the digit it shows
    assert overall.loc["score_lr", "NEC"] == f"{costlib.normalized_excess_cost(te['score_lr'] >= 0.8, d_te):.4f}"
    assert f"at least {t:.4g}" in verdict_box_nec(at)  # the answer does not move with the explored cutoff


def verdict_box_nec(at: AppTest) -> str:
    boxes = [unescape(x.value) for x in (*at.success, *at.warning, *at.error) if "NEC" in x.value]
    assert len(boxes) == 1
    return boxes[0]
