"""``costlib dashboard --processes 2``: two servers behind one port, used by real browsers.

Each tab uploads its own file, reads its own rows on Costs & groups, moves a price and downloads
the policy at that price. The upload and the download are requests to the session's own server
(``/_stcore/upload_file/<session>/...`` and ``/media/...``): sent to the other server they fail,
so each passing is the balancer keeping a session on its server (`costlib.cli.balancer`). Three
tabs of one browser open at once first: each sends its first request without a cookie and gets
a token of its own, and the last token set is the one all three send after (a review found a
tab's upload refused with 400 in 3 of 12 such starts when a browser's cookie alone chose its
server)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from e2e_server import AppServer
from e2e_support import goto, nav, sidebar_text, step, upload, wait_for_chart
from test_many_users import predictions

pytestmark = pytest.mark.browser


def test_tabs_behind_the_balancer_each_keep_their_upload_and_download(new_page, tmp_path, chromium_path):
    server = AppServer(tmp_path / "server.log", warm=True, extra_args=("--processes", "2")).start()
    deadline = time.monotonic() + 120  # the second server starts once the first answers: wait for it to join
    while "all 2 servers answer" not in server.log_tail() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert "all 2 servers answer" in server.log_tail(), server.log_tail()  # else every tab is on the first
    try:
        rows = (300, 500, 700, 900)
        files = [predictions(tmp_path / f"preds{i}.csv", n, i) for i, n in enumerate(rows)]
        first = new_page()
        pages = [first, first.context.new_page(), first.context.new_page(), new_page()]  # 3 tabs, 1 browser
        for page in pages[:3]:  # all three navigate at once: none waits for another's load
            page.evaluate("url => { window.location.href = url; }", server.url + "/")
        goto(pages[3], server.url + "/")
        for page, path in zip(pages, files, strict=True):
            upload(page, path)
            page.get_by_role("button", name="Use these columns").click()
            page.get_by_text(f"Loaded “{path.name}”").wait_for()
            step(page, "after loading")
        for page, n in zip(pages, rows, strict=True):
            nav(page, "Costs & groups")
            assert f"({n} rows)" in sidebar_text(page).replace(",", ""), sidebar_text(page)
            fn = page.locator(
                '[data-testid="stSlider"]', has=page.get_by_text("A false negative costs", exact=True)
            ).get_by_role("slider")
            fn.focus()
            fn.press("ArrowLeft")
            step(page, "after a price move")
            wait_for_chart(page)
            moved = fn.get_attribute("aria-valuetext")
            with page.expect_download() as got:
                page.get_by_role("button", name="Download the policy (JSON)").click()
            saved = json.loads(Path(got.value.path()).read_text())
            assert {f"${p['c_fn']:.2f}" for p in saved["prices"]} == {moved}, (saved["prices"], moved)
        log = server.log_tail(20_000)
        assert "Traceback" not in log, log
        assert "2 servers" in log, log
    finally:
        server.stop()
