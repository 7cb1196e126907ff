"""A limit in cases a month (Costs: what the team can review; Value: the hand-overs people can
take): a toggle, off by default, and its number, both kept in the link and bounded like every
setting (`settings.CAPACITY`)."""

from __future__ import annotations

from costlib.core import settings
from views._ui.state import ensure_setting, keep, mirror, remembered, setting

NO_LIMIT = "no limit"  # what a refused ?{key}_on=... gives: "... so no limit is used instead."


def limit_setting(key: str) -> int | None:
    """The limit of this session (?{key}_on=true&{key}=400), read before its widgets are drawn;
    None when it is off."""
    # read from the link first with the words of a refused value ("yes" is not "true": said, not off in silence)
    ensure_setting(f"{key}_on", False, parse=settings.parse_switch, default_words=NO_LIMIT)
    remembered(f"{key}_on", False, parse=settings.parse_switch)
    remembered(key, settings.CAPACITY.default, bound=settings.CAPACITY)
    return int(setting(key)) if setting(f"{key}_on") else None


def limit_inputs(c1, c2, *, key: str, toggle: str, number: str, help: str) -> int | None:
    """The toggle in `c1` and the number in `c2` (greyed while off); the limit, or None."""
    limit_setting(key)
    on = c1.toggle(toggle, key=f"{key}_on", on_change=keep, args=(f"{key}_on",), help=help)
    c2.number_input(
        number,
        min_value=int(settings.CAPACITY.low),
        max_value=int(settings.CAPACITY.high),
        step=50,
        key=key,
        on_change=keep,
        args=(key,),
        disabled=not on,
    )
    mirror(f"{key}_on")
    mirror(key, int(setting(key)) if on else None)
    return int(setting(key)) if on else None
