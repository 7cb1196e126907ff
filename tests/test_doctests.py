"""The examples in costlib's docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import costlib

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(costlib.__path__, prefix="costlib.")
    if not m.name.endswith("__main__") and "spark" not in m.name
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} fail"
