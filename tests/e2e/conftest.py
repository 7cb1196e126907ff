"""Browser journeys: one Streamlit server and one headless Chromium per pytest(-xdist) worker.

Every test under tests/e2e gets the `browser` marker. Chromium is Debian's (/usr/bin/chromium);
Playwright's own browser download is never used. Without it the journeys are skipped, unless
COSTLIB_REQUIRE_BROWSER=1 (CI), where a missing browser is a failure.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_server import CHROMIUM, CHROMIUM_ARGS, AppServer
from e2e_support import full_screenshot

E2E_DIR = Path(__file__).resolve().parent
DEFAULT_TIMEOUT_MS = 30_000
VIEWPORT = {"width": 1400, "height": 1000}


def pytest_collection_modifyitems(config, items):
    # This hook sees every collected item (not only this folder's), so filter by path.
    for item in items:
        if E2E_DIR in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"_e2e_report_{report.when}", report)
    return report


def require_chromium() -> str:
    """The Chromium path, or a skip (a failure when COSTLIB_REQUIRE_BROWSER=1)."""
    if os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    reason = (
        f"the browser journeys need Chromium at {CHROMIUM} (apt-get install chromium); "
        "Playwright's bundled browsers are not used"
    )
    if os.environ.get("COSTLIB_REQUIRE_BROWSER") == "1":
        pytest.fail(f"COSTLIB_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    return require_chromium()


@pytest.fixture(scope="session")
def app_server(chromium_path, tmp_path_factory) -> Iterator[AppServer]:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    server = AppServer(tmp_path_factory.mktemp("streamlit") / f"server-{worker}.log").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def app_url(app_server) -> str:
    return app_server.url


# ---------------------------------------------------------------------------------------
# The browser


@pytest.fixture(scope="session")
def browser(chromium_path):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:
        if os.environ.get("COSTLIB_REQUIRE_BROWSER") == "1":
            pytest.fail(f"COSTLIB_REQUIRE_BROWSER=1 but the playwright package is missing: {err}", pytrace=False)
        pytest.skip(f"the browser journeys need the playwright package: {err}")

    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
    except Exception:
        pw.stop()
        raise
    try:
        yield b
    finally:
        with contextlib.suppress(Exception):
            b.close()
        pw.stop()


@pytest.fixture
def new_page(browser, request):
    """Factory: a page in a fresh context (no shared cookies or session); all are closed at the end.

    Every page fails the test on a JavaScript dialog (alert/confirm/prompt) or an uncaught
    page error; the dialogs are kept in `page.dialogs` for explicit checks.
    """
    contexts = []
    problems: list[str] = []

    def make():
        ctx = browser.new_context(viewport=VIEWPORT)
        ctx.set_default_timeout(DEFAULT_TIMEOUT_MS)
        contexts.append(ctx)
        pg = ctx.new_page()
        pg.dialogs = []

        def on_dialog(dialog, pg=pg):
            pg.dialogs.append(f"{dialog.type}: {dialog.message}")
            problems.append(f"a JavaScript {dialog.type} fired: {dialog.message!r}")
            with contextlib.suppress(Exception):
                dialog.dismiss()

        pg.on("dialog", on_dialog)
        pg.on("pageerror", lambda err: problems.append(f"uncaught page error: {err}"))
        return pg

    yield make
    failed = getattr(request.node, "_e2e_report_call", None)
    if failed is not None and failed.failed:
        for i, ctx in enumerate(contexts):
            for j, pg in enumerate(ctx.pages):
                with contextlib.suppress(Exception):
                    full_screenshot(pg, f"{request.node.name}-FAILED-{i}{j}")
    for ctx in contexts:
        with contextlib.suppress(Exception):
            ctx.close()
    if problems:
        pytest.fail("; ".join(problems), pytrace=False)


@pytest.fixture
def page(new_page, app_server):
    """A fresh browser context and page; the server log must show no traceback during the test."""
    start = app_server.log_size()
    pg = new_page()
    yield pg
    log = app_server.log_since(start)
    if "Traceback" in log:
        pytest.fail(f"the server logged a traceback during this test:\n{log[-4000:]}", pytrace=False)
