"""What every headless test of the pages needs: an exception on a page is shown whole."""

from __future__ import annotations

import pytest
from streamlit import config


@pytest.fixture(autouse=True)
def _full_errors():
    config.set_option("client.showErrorDetails", "full")
    yield


@pytest.fixture(autouse=True)
def _no_shared_answers():
    """Each test computes its own answers: the server-wide memo of the built-in samples
    (`views._ui.memo.SHARED`) would carry one test's results (or a patched failure) into the next."""
    from views._ui.memo import SHARED

    SHARED.clear()
    yield
    SHARED.clear()
