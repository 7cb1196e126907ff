"""A first-time product manager's review of Find my prices, its widgets: the per-group sliders of
groups whose names read alike are told apart, and the exact price fields say their unit."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tests.views.apptest_support import assert_no_exception, load_file, mk, open_app


def test_groups_whose_names_read_alike_get_different_slider_labels():
    """Groups "$x$" and "*x*" both read 'a missed case in group “·x·” is … as one elsewhere': each
    group's label was escaped alone, not told apart among all the groups as the price sliders are."""
    rng = np.random.default_rng(5)
    n = 400
    y = rng.integers(0, 2, n)
    frame = pd.DataFrame(
        {
            "label": y,
            "score": np.clip(0.3 * y + rng.uniform(size=n) * 0.7, 0, 1).round(3),
            "team": rng.choice(["$x$", "*x*"], n),
        }
    )
    at = open_app("compas", "views/data.py")
    at.file_uploader(key="uploader").upload("alike.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.selectbox(key=mk(at, "group")).set_value("team")
    load_file(at, "alike.csv", frame.to_csv(index=False).encode())
    assert sorted(set(at.session_state["upload_dataset"].groups)) == ["$x$", "*x*"]
    at.switch_page("views/prices.py").run()
    assert_no_exception(at)
    shown = [s.label for s in at.select_slider if s.key and s.key.startswith("mult_")]
    assert len(shown) == 2
    assert len(set(shown)) == 2, shown
    assert all("$" not in s and "*" not in s for s in shown), shown  # still escaped


def test_the_exact_price_fields_say_their_unit():
    """The sliders read "$1.00" and "$3.00"; the fields beside them read "1" and "3" under
    "False positive" / "False negative": in what? In the sidebar's unit, the groups' fields too."""
    at = open_app("compas", "views/costs.py")
    boxes = {b.key: b.label for b in at.number_input}
    assert boxes["n_c_fp"] == "False positive ($)", boxes
    assert boxes["n_c_fn"] == "False negative ($)", boxes
    at.text_input(key="unit").set_value("minutes").run()
    at.toggle(key="per_group").set_value(True).run()
    assert_no_exception(at)
    labels = [b.label for b in at.number_input if b.key.startswith("n_")]
    assert "False positive (minutes)" in labels and "False negative (minutes)" in labels, labels
    assert all(x.endswith("(minutes)") for x in labels), labels
