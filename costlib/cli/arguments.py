"""Argument types the commands share: a number within one of the settings' bounds and a unit,
each refused with the settings' own sentence (argparse prints it after the flag's name)."""

from __future__ import annotations

import argparse

from costlib.core import settings


def bounded(bound: settings.Bound):
    """An argparse type: a number within `bound` (``settings.check``), else its first sentence."""

    def parse(text: str):
        value, problem = settings.check(bound, text)
        if problem:
            raise argparse.ArgumentTypeError(problem.split(";")[0])
        return value

    return parse


def unit(text: str) -> str:
    """An argparse type: the unit of the prices, as the sidebar's (``settings.check_unit``)."""
    value, problem = settings.check_unit(text, default="")
    if problem:
        raise argparse.ArgumentTypeError(problem.split(";")[0])
    return value
