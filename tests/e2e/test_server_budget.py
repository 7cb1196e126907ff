"""One memory budget for the whole server, in real sessions: while one person's upload fills
it, another's is refused with a sentence; when the first closes the tab, the second gets in."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from e2e_server import AppServer
from e2e_support import alert_texts, assert_no_error, full_screenshot, goto, upload, use_these_columns

from costlib.loading import budget

pytestmark = pytest.mark.browser

ROWS = 200_000
BUDGET_MB = round(1.5 * budget.work_bytes(ROWS, 1) / 2**20)  # one such upload and its work fit, two do not


def predictions(path: Path, seed: int) -> Path:
    rng = np.random.default_rng(seed)
    p = rng.random(ROWS).round(4)
    pd.DataFrame({"label": (rng.random(ROWS) < p).astype(int), "score": p}).to_csv(path, index=False)
    return path


@pytest.fixture
def small_server(tmp_path, monkeypatch, chromium_path):
    monkeypatch.setenv(budget.SERVER_MEMORY_ENV, str(BUDGET_MB))
    server = AppServer(tmp_path / "server.log").start()
    try:
        yield server
    finally:
        server.stop()


def test_a_full_server_refuses_the_second_upload_until_the_first_session_ends(new_page, small_server, tmp_path):
    assert budget.work_bytes(ROWS, 1) < (BUDGET_MB << 20) < 2 * budget.work_bytes(ROWS, 1)
    first, second = new_page(), new_page()
    for page in (first, second):
        goto(page, small_server.url + "/")
    upload(first, predictions(tmp_path / "first.csv", 1))
    use_these_columns(first)
    first.get_by_text("Loaded “first.csv”").wait_for()

    upload(second, predictions(tmp_path / "second.csv", 2))
    use_these_columns(second)
    refusals = [a for a in alert_texts(second) if "second.csv" in a and "this server" in a]
    assert refusals and "try again in a few minutes" in refusals[0], alert_texts(second)
    assert "Nothing you had loaded is lost" in refusals[0]
    full_screenshot(second, "test_a_full_server_refuses_the_second_upload")
    assert_no_error(second)

    first.context.close()  # the first person closes the tab: the session's memory is released
    for _ in range(20):
        second.wait_for_timeout(500)
        use_these_columns(second)
        if second.get_by_text("Loaded “second.csv”").count():
            break
    second.get_by_text("Loaded “second.csv”").wait_for()
    assert_no_error(second)
    assert "Traceback" not in small_server.log_tail(20_000)
