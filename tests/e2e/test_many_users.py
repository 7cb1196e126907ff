"""Many users: two browser sessions upload different files at the same time and each sees
only its own data, even when the files have the same name."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from e2e_support import goto, nav, sidebar_text, step

pytestmark = pytest.mark.browser


def predictions(path: Path, n: int, seed: int) -> Path:
    rng = np.random.default_rng(seed)
    p = rng.random(n).round(4)
    pd.DataFrame({"label": (rng.random(n) < p).astype(int), "score": p}).to_csv(path, index=False)
    return path


def test_two_sessions_uploading_at_once_each_see_their_own_file(new_page, app_url, tmp_path):
    # Same file name, different content: a cache keyed by name would show one user the other's data.
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    files = [
        predictions(tmp_path / "a" / "predictions.csv", 300, 1),
        predictions(tmp_path / "b" / "predictions.csv", 700, 2),
    ]
    pages = [new_page(), new_page()]
    for page in pages:
        goto(page, app_url + "/")
    # Both uploads are put in flight before either is waited for, then both forms are submitted
    # back to back: the two sessions' reads, parses and cache lookups overlap on the server.
    for page, path in zip(pages, files, strict=True):
        page.set_input_files("input[type=file]", str(path))
    for page in pages:
        page.locator('[data-testid="stCaptionContainer"]', has_text="predictions.csv").first.wait_for()
        step(page, "after the upload")
    for page in pages:
        page.get_by_role("button", name="Use these columns").click()
    for page in pages:
        page.get_by_text("Loaded “predictions.csv”. Costs & groups").wait_for()
        step(page, "after loading")
    for page, rows in zip(pages, ("300", "700"), strict=True):
        metric = page.locator('[data-testid="stMetric"]', has_text="Rows").inner_text()
        assert rows in metric.replace(",", ""), metric
        nav(page, "Costs & groups")
        assert f"({rows} rows)" in sidebar_text(page).replace(",", ""), sidebar_text(page)
