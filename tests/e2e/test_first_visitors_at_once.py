"""A fresh server's first visitors, all at once: each gets its page, none an import error.

Streamlit runs each session's script in its own thread, so the first visitors of a fresh
server import the pages' modules at the same time. Two threads importing ``views._ui`` (whose
``__init__`` imports its submodules) and ``views._ui.data`` at once could each hold the lock
the other needed, and Python broke the cycle by failing one page's import (``_DeadlockError``):
on the code before `costlib.cli.dashboard.warm_once` (8eacbea) this test failed in three runs of
three (pages without their heading, the server's log holding the error), and a CI run hit it on
``costlib dashboard``, whose warm-up thread raced the first visitor. Now every run of ``app.py``
imports them once, by one thread, before any page does."""

from __future__ import annotations

from e2e_server import AppServer
from e2e_support import assert_no_error

PAGES = ("costs?data=compas", "data", "value", "watch", "matrix", "instance")
HEADING = '[data-testid="stMainBlockContainer"] h1'


def test_six_first_visitors_of_a_fresh_server_each_get_their_page(tmp_path, new_page):
    server = AppServer(tmp_path / "server.log").start()  # as `streamlit run app.py`: no warm-up of its own
    try:
        pages = [new_page() for _ in PAGES]
        for page, path in zip(pages, PAGES, strict=True):  # all six navigate at once: nothing waits for a load
            page.evaluate("url => { window.location.href = url; }", f"{server.url}/{path}")
        for page, path in zip(pages, PAGES, strict=True):
            page.locator(HEADING).first.wait_for(timeout=60_000)
            assert_no_error(page, f"the first visit of /{path}")
        log = server.log_tail(20_000)
        assert "Traceback" not in log and "DeadlockError" not in log, log
    finally:
        server.stop()
