"""The settings pages share (`costlib.core.link.Settings`): remembered across pages and mirrored
in the URL, bounded.

Streamlit drops a widget's value when the page that drew it stops rendering, and a widget
on another page starts from its default. A shared setting therefore lives in the session
(``_keep_<its link key>``), first read from the URL once per session through
`costlib.core.link` (the one place that knows the link's keys and bounds), and its widget is
re-seeded from it on every run; `keep` (the widget's on_change) stores a change and `mirror`
writes it back to the URL. Pages name a setting by its field of `Settings` (``tolerance``,
``review_limit``), never by its link key; `current` reads the session's settings as one
`Settings` and `adopt` writes one (a restored policy, Find my prices). A value from the URL that
is out of its bound falls back to the default and the page says so (`setting_notes`).

What the link keeps is decided here, once for every page (`keep_link`, which app.py calls before
the page runs): a move within the app drops the address's query, and a page writes back only the
settings it draws or reads, so ?fair_tol=0.1&details=true&bins=12 left the address on the Data page
(a link copied there lost them) and a link's ?bins=12 that the page it opened did not read was
gone before Calibration read it. Every setting this session has had in its address stays there, on
every page, at the value the session holds (or, while no page has read it yet, the link's text),
until the user changes it.
"""

from __future__ import annotations

import dataclasses

import streamlit as st

from costlib.core import link, settings
from costlib.core.settings import PRICE_FIELDS, group_field, link_key
from views._ui.display import say

#: the session's settings that are not in the link, and the key of their widget and store
SESSION_ONLY = {"criteria": "fair_criteria", "price_questions": "price_questions"}


def widget_key(name: str) -> str:
    """The key of the widget that sets the setting `name` (its link key, as links and tests know it)."""
    return SESSION_ONLY[name] if name in SESSION_ONLY else link_key(name)


def _store(name: str) -> str:
    return f"_keep_{widget_key(name)}"


def remembered(name: str, default, valid=None, bound: settings.Bound | None = None, default_words=None) -> str:
    """Seed the widget of the setting `name` with this session's value (see `ensure_setting`);
    its key, for the widget.

    Call `mirror(name)` after the widget to write the value back to the URL.
    """
    ensure_setting(name, default, valid, bound, default_words)
    key = widget_key(name)
    st.session_state[key] = st.session_state[_store(name)]
    return key


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
    name: str, default, valid=None, bound: settings.Bound | None = None, default_words: str | None = None
) -> None:
    """Read the setting `name` from the URL once per session (`link.read`: its bound or its
    parser), no widget. `valid`: what this page can use besides (a group of this data);
    `bound`: the page's bound in place of the setting's own; `default_words` say what the
    default is when a link's value is refused (for a default of None)."""
    store = _store(name)
    if store not in st.session_state:
        value = default
        raw = None if name in SESSION_ONLY else link.link_raw(st.query_params, name)
        if raw is not None:
            value, note = link.read(name, raw, default=default, bound=bound, words=default_words)
            if note is None and valid is not None and not valid(value):
                shown = default_words if default_words is not None else default
                value, note = default, link.refused(name, raw, shown)
            if note:
                st.session_state.setdefault("_setting_notes", []).append(note)
        st.session_state[store] = value if valid is None or valid(value) else default


def in_link(name: str) -> bool:
    """Whether the page's address holds a value for setting `name` (read or not yet)."""
    return link.link_raw(st.query_params, name) is not None


def setting(name: str, default=None):
    """The current value of a remembered setting (without drawing its widget), written to the link
    as it is (`link_read`): a page whose answer reads a setting carries it in its address, so a
    fresh browser opening the copied link reads the same answer (Value and Calibration read the
    prices and dropped them from theirs). A setting this session has not read yet: `default`."""
    link_read(name)
    return peek(name, default)


def peek(name: str, default=None):
    """The value of a remembered setting without putting it in the link: for code that only looks
    at it (the price book read for its notes on a page that does not use it)."""
    return st.session_state.get(_store(name), default)


def link_read(name: str) -> None:
    """Write the setting `name`, as this session holds it, to the link (`mirror`) when it is one of
    the link's settings this session holds; the page's own `mirror` after its widget may write
    what it uses of it instead."""
    if name not in SESSION_ONLY and _store(name) in st.session_state:
        mirror(name)


def current() -> link.Settings:
    """The session's settings as one `Settings` (a setting not read yet: its default; the groups'
    prices as far as they were read)."""
    values = {}
    for f in dataclasses.fields(link.Settings):
        if f.name != "group_prices" and _store(f.name) in st.session_state:
            values[f.name] = st.session_state[_store(f.name)]
    pairs = []
    while any(_store(group_field(kind, len(pairs))) in st.session_state for kind in PRICE_FIELDS):
        pairs.append(tuple(setting(group_field(kind, len(pairs))) for kind in PRICE_FIELDS))
    return link.Settings(**values, group_prices=tuple(pairs))


def adopt(chosen: link.Settings, names=None) -> None:
    """Make the session's settings `chosen`'s fields `names` (default: every field; the groups'
    prices with ``group_prices``), as a restored policy or Find my prices sets them."""
    for name in names if names is not None else [f.name for f in dataclasses.fields(link.Settings)]:
        if name != "group_prices":
            set_setting(name, getattr(chosen, name))
            continue
        for i, pair in enumerate(chosen.group_prices):
            for kind, price in zip(PRICE_FIELDS, pair, strict=True):
                if price is not None:
                    set_setting(group_field(kind, i), price)


def setting_notes() -> None:
    """Say once which settings from the link were out of range (and what was used instead)."""
    for note in st.session_state.pop("_setting_notes", []):
        say("warning", note)


def keep(name: str) -> None:
    """A widget's on_change: remember its new value as the setting `name`."""
    st.session_state[_store(name)] = st.session_state[widget_key(name)]


def set_setting(name: str, value) -> None:
    """Set a remembered setting (from a callback, a button or a loaded policy)."""
    st.session_state[_store(name)] = value


_STORED = object()


def mirror(name: str, value=_STORED) -> None:
    """Write the setting `name` (or `value`, what the page uses of it) back to the URL as
    `link.link_text`; a setting that is None leaves the URL (a list: the key repeated)."""
    write_link(name, _texts(st.session_state[_store(name)] if value is _STORED else value))


def _texts(value):
    """A setting's value as the link writes it (`link.link_text`): a text, a list of texts for a
    setting the link repeats ([""] for none), None for a value that leaves the link."""
    if isinstance(value, (list, tuple)):
        return [link.link_text(v) for v in value] or [""]
    return link.link_text(value)


#: the link's settings this session has had in its address, each with its texts as last written or
#: read there (`keep_link` writes them back after a move within the app, until a page reads them)
LINKED = "_link_linked"


def _as_list(text) -> list[str] | None:
    return None if text is None else list(text) if isinstance(text, list) else [text]


def keep_link() -> None:
    """Keep in the address every setting this session has had there (`LINKED`), whichever page runs:
    called at the start of every run, before the page writes what it draws or reads.

    The address's query is dropped by a move within the app, and a page writes back only its own
    settings (`mirror`), so a setting drawn on one page (Costs & groups' fairness tolerance, the
    details switch, Calibration's score bands) left the address on every other one, and one that
    came in a link to a page that does not read it was lost for good. A setting the session holds
    is written at its value (a user's change is what changes it); one no page has read yet, at
    the link's text, so the page that reads it bounds it and says so as it would on the link
    itself. One a page took out of its address (`write_link` with None: a review limit's number
    while there is no limit) stays out until a page writes it again, and a group's own prices are
    left out while the session prices the groups alike, as the pages that price them leave them out
    (`views._ui.prices.carry_prices`).

    The writes go in one message (every write is one the browser acts on, `write_link`), and only
    those that change the address: a page's rerun finds it as it left it and writes nothing."""
    linked = st.session_state.setdefault(LINKED, {})
    for key in list(st.query_params):
        name = link.link_name(key)
        if name is not None:
            linked[name] = list(st.query_params.get_all(key))
    alike = st.session_state.get(_store("per_group")) is False
    wanted, gone = {}, []
    for name, texts in list(linked.items()):
        if _store(name) in st.session_state:
            if alike and name.rpartition("_")[0] in PRICE_FIELDS:  # a group's own price
                continue
            texts = _as_list(_texts(st.session_state[_store(name)]))
        key = link_key(name)
        if texts is None:
            gone.append(key)
            linked.pop(name)
        elif st.query_params.get_all(key) != texts:
            wanted[key] = texts
    if wanted:
        st.query_params.update(wanted)
    for key in gone:
        st.query_params.pop(key, None)


def write_link(name: str, text) -> None:
    """Put `text` (a list of texts: the key repeated) in the URL as the link key of the setting
    `name` (None: take it out), only where it changes: every write is a message the browser
    acts on (it rewrites its address and tells the page's host), changed or not. A full run of
    Costs & groups wrote 11 and a price move 2; the browser's handling of those messages was
    10 ms of a move at a million rows (its CPU profile)."""
    key = link_key(name)
    linked = st.session_state.setdefault(LINKED, {})  # kept on the pages after (`keep_link`)
    if text is None:
        linked.pop(name, None)  # taken out by the page (a review limit's number while there is no limit)
        st.query_params.pop(key, None)
        return
    linked[name] = _as_list(text)
    if st.query_params.get_all(key) != linked[name]:
        st.query_params[key] = text


def amount_input(where, name: str, bound: settings.Bound, label: str, help: str) -> float:  # noqa: A002
    """A number box for the setting `name` (an amount in the user's unit: a price or a worth), seeded
    with this session's value, bounded by `bound`, remembered across pages and written to the link;
    its value as a float."""
    remembered(name, bound.default)
    value = where.number_input(
        label,
        min_value=bound.low,
        max_value=bound.high,
        step=0.5,
        format="%g",
        key=widget_key(name),
        on_change=keep,
        args=(name,),
        help=help,
    )
    mirror(name, float(value))
    return float(value)
