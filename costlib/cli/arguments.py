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


VOLUME_HELP = "cases a month (for the monthly figures)"


def add_volume(p: argparse.ArgumentParser, *, help: str = VOLUME_HELP) -> None:
    """``--volume N``: the cases a month, within the sidebar's bounds (``settings.VOLUME``), as the
    sidebar's "Cases per month" and the audit's and train's ``--volume`` read it (None when not given)."""
    p.add_argument("--volume", type=bounded(settings.VOLUME), metavar="N", help=help)
