"""The sections a page's reader reads second (every rule, the comparisons across k, the
heatmaps...), drawn on request so that a shared link opens to its answer fast.

One setting for every page, kept in the link as ``?details=true`` and off on a first visit;
each page names its own sections (`answers.Details`). A page draws its answer first and these
sections after the toggle, for the settings of the run that drew them.
"""

from __future__ import annotations

import streamlit as st

from costlib import answers
from views._ui.display import say
from views._ui.state import keep, mirror, remembered, setting, widget_key


def details_on() -> bool:
    """Whether the sections read second are drawn (read before any widget is drawn)."""
    remembered("details", False)
    return bool(setting("details"))


def details_setting(words: answers.Details) -> bool:
    """The toggle of the sections read second, kept in the link; whether they are drawn (when
    they are not, a caption says what is there on request)."""
    details_on()
    on = st.toggle(words.toggle, key=widget_key("details"), on_change=keep, args=("details",), help=words.help)
    mirror("details")
    if not on:
        say("caption", words.folded)
    return bool(on)
