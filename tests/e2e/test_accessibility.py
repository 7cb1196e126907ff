"""WCAG 2.2 AA on every page: axe-core's A/AA rules find no critical or serious violation.

Each state is one page as a reader meets it, with its sections read second drawn
(``details=true``) and every expander open: each built-in sample on every page it applies to,
Costs & groups with per-group prices and with a review limit, Watch on the built-in year, the
Train page on its own built-in data, and the Data page's column mapping for a file whose columns
the app cannot guess. axe judges the whole page at once (the viewport grown to the page's
height, so text below the fold is judged too); Streamlit's own chrome is judged with the rest
and passes through the theme (.streamlit/config.toml), so nothing is excluded.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from e2e_support import axe_blocking, axe_message, axe_violations, goto, open_expanders, upload

pytestmark = pytest.mark.browser

# Selectors of Streamlit's own DOM that axe may leave out, each with the reason it cannot be
# fixed from the app. None is needed with this theme: keep it that way unless a Streamlit
# upgrade brings one, and never leave a whole rule out.
EXCLUDE: tuple[str, ...] = ()

# (state, path): the samples on the pages they apply to (`costlib.present.labels.NEEDS`: the
# binary pages take screening, compas and offensive; Cost matrix takes tickets; Instance costs
# takes offensive, the only sample with an instance cost); the Data page shows every sample.
STATES = [
    *[(f"data-{s}", f"/?data={s}") for s in ("screening", "compas", "offensive", "tickets")],
    ("costs-compas-per-group", "/costs?data=compas&details=true&per_group=true"),
    ("costs-screening-review-limit", "/costs?data=screening&details=true&cap_on=true&cap=400"),
    ("costs-offensive", "/costs?data=offensive&details=true"),
    *[(f"prices-{s}", f"/prices?data={s}") for s in ("screening", "compas", "offensive")],
    *[(f"value-{s}", f"/value?data={s}&details=true") for s in ("screening", "compas", "offensive")],
    ("matrix-tickets", "/matrix?data=tickets&details=true"),
    ("instance-offensive", "/instance?data=offensive&details=true"),
    *[(f"calibration-{s}", f"/calibration?data={s}") for s in ("screening", "compas", "offensive")],
    # Train with costs reads its own data: the tweets, and one synthetic set (the other is drawn alike)
    *[(f"train-{d}", f"/train?train_data={d}") for d in ("tweets", "predictable")],
    ("watch-built-in-year", "/watch"),
]


def assert_no_blocking(page, where: str) -> None:
    """Open every expander, then fail with each critical or serious violation axe finds."""
    open_expanders(page)
    blocking = axe_blocking(axe_violations(page, exclude=EXCLUDE))
    if blocking:
        pytest.fail(axe_message(blocking, where), pytrace=False)


@pytest.mark.parametrize(("state", "path"), STATES, ids=[s for s, _ in STATES])
def test_page_passes_axe(page, app_url, state, path):
    goto(page, app_url + path)  # waits until the page has settled
    assert_no_blocking(page, f"{state} ({path})")


def unguessable_csv(path: Path, n: int = 60, seed: int = 3) -> Path:
    """Columns named a, b, c: no name says which is the label, the score or the group, so the
    mapping form shows with the score columns left to the reader."""
    rng = np.random.default_rng(seed)
    pd.DataFrame({"a": rng.integers(0, 2, n), "b": rng.random(n).round(4), "c": rng.choice(["x", "y"], n)}).to_csv(
        path, index=False
    )
    return path


def test_column_mapping_form_passes_axe(page, app_url, tmp_path):
    goto(page, app_url + "/")
    upload(page, unguessable_csv(tmp_path / "mystery.csv"))
    page.get_by_role("button", name="Use these columns").wait_for()  # the mapping form is shown
    assert_no_blocking(page, "the Data page's column mapping for mystery.csv")
