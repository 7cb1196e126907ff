"""The settings pages share: remembered across pages and mirrored in the URL, bounded.

Streamlit drops a widget's value when the page that drew it stops rendering, and a widget
on another page starts from its default. A shared setting therefore lives under a plain key
(``_keep_<key>``), first read from the URL (?key=...), and its widget is re-seeded from it on
every run; `keep` (the widget's on_change) stores a change and `mirror` writes it back to the
URL. A value from the URL goes through the same bound as the widget: out of range, it falls
back to the default and the page says so (`setting_notes`).
"""

from __future__ import annotations

import streamlit as st

from costlib.core import settings
from views._ui.display import say


def remembered(key: str, default, parse=str, valid=None, bound: settings.Bound | None = None):
    """Seed the widget `key` with this session's value of a setting that pages share.

    Call `mirror(key)` after the widget to write the value back to the URL.
    """
    ensure_setting(key, default, parse, valid, bound)
    st.session_state[key] = st.session_state[f"_keep_{key}"]


def seed(widget: str, value, signature=None) -> None:
    """Give the widget `widget` this value when it differs, or when the widget is drawn with
    other options or labels than last time (`signature`): Streamlit then makes a new widget,
    which would start from its default. Writing a widget's state otherwise is avoided, since
    it sends the value back to the browser and would undo key presses made meanwhile."""
    sig_key = f"_sig_{widget}"
    changed = signature is not None and st.session_state.get(sig_key) != signature
    if changed or widget not in st.session_state or st.session_state[widget] != value:
        st.session_state[widget] = value
    if signature is not None:
        st.session_state[sig_key] = signature


def ensure_setting(
    key: str, default, parse=str, valid=None, bound: settings.Bound | None = None, default_words: str | None = None
) -> None:
    """Read a remembered setting from the URL once per session (see `remembered`), no widget;
    `default_words` say what the default is when a link's value is refused (for a default of None)."""
    store = f"_keep_{key}"
    if store not in st.session_state:
        value = default
        raw = st.query_params.get(key)
        if raw is not None:
            if bound is not None:
                value, note = settings.check(bound, raw, default=default)
                if note:
                    st.session_state.setdefault("_setting_notes", []).append(settings.link_note(key, note))
            else:
                try:
                    value = parse(raw)
                    ok = valid is None or valid(value)
                except ValueError:
                    ok = False
                if not ok:
                    value = default
                    shown = default_words if default_words is not None else default
                    st.session_state.setdefault("_setting_notes", []).append(settings.link_refused(key, raw, shown))
        st.session_state[store] = value if valid is None or valid(value) else default


def setting(key: str, default=None):
    """The current value of a remembered setting (without drawing its widget)."""
    return st.session_state.get(f"_keep_{key}", default)


def setting_notes() -> None:
    """Say once which settings from the link were out of range (and what was used instead)."""
    for note in st.session_state.pop("_setting_notes", []):
        say("warning", note)


def keep(key: str) -> None:
    """A widget's on_change: remember its new value as the setting `key`."""
    st.session_state[f"_keep_{key}"] = st.session_state[key]


def set_setting(key: str, value) -> None:
    """Set a remembered setting (from a callback, a button or a loaded policy)."""
    st.session_state[f"_keep_{key}"] = value


_STORED = object()


def link_text(value) -> str | None:
    """How a setting's value is written in the URL: "true"/"false", a float to 15 significant
    digits (so a link gives back the price that was typed, not one rounded to 6), else str().

    >>> link_text(True), link_text(2.5), link_text(1234567.0), link_text(10_000), link_text("€")
    ('true', '2.5', '1234567', '10000', '€')
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:.15g}"
    return str(value)


def note_link(key: str, bound: settings.Bound) -> None:
    """Say when ?key=... is outside `bound` for a widget that reads the link itself
    (``bind="query-params"``): Streamlit then starts it at its default without a word."""
    raw = st.query_params.get(key)
    if raw is not None:
        _, note = settings.check(bound, raw)
        if note:
            say("warning", settings.link_note(key, note))


def mirror(key: str, value=_STORED) -> None:
    """Write the setting `key` (or `value`, what the page uses of it) back to the URL as
    `link_text`; a setting that is None leaves the URL."""
    write_link(key, link_text(st.session_state[f"_keep_{key}"] if value is _STORED else value))


def write_link(key: str, text: str | None) -> None:
    """Put `text` in the URL as `key` (None: take `key` out), only where it changes: every write
    is a message the browser acts on (it rewrites its address and tells the page's host),
    changed or not. A full run of Costs & groups wrote 11 and a price move 2; the browser's
    handling of those messages was 10 ms of a move at a million rows (its CPU profile)."""
    if text is None:
        st.query_params.pop(key, None)
    elif st.query_params.get_all(key) != [text]:
        st.query_params[key] = text
