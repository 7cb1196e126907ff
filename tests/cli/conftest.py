"""Fixtures of the command line's tests."""

from __future__ import annotations

import asyncio

import pytest


@pytest.fixture(autouse=True)
def no_running_loop():
    """A test here may call ``asyncio.run`` (the balancer, the dashboard's socket): on a worker where
    a browser test ran first, Playwright's sync API leaves its event loop marked as running in this
    thread, and ``asyncio.run`` refuses to start beside it. The mark is lifted for the test and put
    back after it."""
    running = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(running)
