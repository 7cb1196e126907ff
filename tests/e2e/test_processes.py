"""``costlib dashboard --processes 2``: two servers behind one port, used by real browsers.

Each browser (a context of its own: its own cookies) uploads its own file, reads its own rows on
Costs & groups, moves a price and downloads the policy at that price. The upload and the
download are requests to the session's own server (``/_stcore/upload_file/<session>/...`` and
``/media/...``): sent to the other server they would fail, so each passing is the balancer
keeping a browser on its server (`costlib.cli.balancer`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from e2e_server import AppServer
from e2e_support import goto, nav, sidebar_text, step, upload, wait_for_chart
from test_many_users import predictions

pytestmark = pytest.mark.browser


def test_two_browsers_behind_the_balancer_each_keep_their_upload_and_download(new_page, tmp_path, chromium_path):
    server = AppServer(tmp_path / "server.log", warm=True, extra_args=("--processes", "2")).start()
    try:
        files = [predictions(tmp_path / f"preds{i}.csv", n, i) for i, n in enumerate((300, 700))]
        pages = [new_page(), new_page()]
        for page, path in zip(pages, files, strict=True):
            goto(page, server.url + "/")
            upload(page, path)
            page.get_by_role("button", name="Use these columns").click()
            page.get_by_text(f"Loaded “{path.name}”").wait_for()
            step(page, "after loading")
        for page, rows in zip(pages, ("300", "700"), strict=True):
            nav(page, "Costs & groups")
            assert f"({rows} rows)" in sidebar_text(page).replace(",", ""), sidebar_text(page)
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
