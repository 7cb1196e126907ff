"""A limit in cases a month (Costs: what the team can review, the setting ``review_limit``;
Value: the hand-overs people can take, ``handover_limit``): a toggle (``<limit>_on``), off by
default, and its number, both kept in the link and bounded like every setting
(`settings.CAPACITY`)."""

from __future__ import annotations

from costlib.core import settings
from costlib.core.link import NO_LIMIT  # noqa: F401 (what a refused on/off says; tests read it here)
from views._ui.state import keep, mirror, remembered, setting, widget_key


def limit_setting(name: str) -> int | None:
    """The limit `name` of this session ("review_limit" or "handover_limit", read from the link
    as `link.LINK_KEYS` spells it), read before its widgets are drawn; None when it is off (a
    refused on/off value says so: "yes" is not "true", said, not off in silence)."""
    remembered(f"{name}_on", False)
    remembered(name, settings.CAPACITY.default)
    return int(setting(name)) if setting(f"{name}_on") else None


def limit_inputs(c1, c2, *, name: str, toggle: str, number: str, help: str) -> int | None:
    """The toggle in `c1` and the number in `c2` (greyed while off); the limit, or None."""
    limit_setting(name)
    on = c1.toggle(toggle, key=widget_key(f"{name}_on"), on_change=keep, args=(f"{name}_on",), help=help)
    c2.number_input(
        number,
        min_value=int(settings.CAPACITY.low),
        max_value=int(settings.CAPACITY.high),
        step=50,
        key=widget_key(name),
        on_change=keep,
        args=(name,),
        disabled=not on,
    )
    mirror(f"{name}_on")
    mirror(name, int(setting(name)) if on else None)
    return int(setting(name)) if on else None
