"""What every headless test of the pages needs: an exception on a page is shown whole."""

from __future__ import annotations

import pytest
from streamlit import config


@pytest.fixture(autouse=True)
def _full_errors():
    config.set_option("client.showErrorDetails", "full")
    yield
