"""The price book: c_fp and c_fn (per group when asked), set once, read by every page.

Two sliders (a false positive, a false negative), an exact-entry popover, and, with the
toggle on, one pair per group. Values are remembered across pages and mirrored in the URL
(the settings ``c_fp``, ``c_fn``, ``per_group`` and each group's `link.group_field`); a value
from the URL is bounded like the slider.
"""

from __future__ import annotations

import streamlit as st

from costlib.core import settings
from costlib.core.escaping import distinct_labels
from costlib.core.settings import PRICE_DEFAULTS, PRICE_FIELDS, group_field
from costlib.present import labels as t
from costlib.present.amounts import money
from views._ui.state import ensure_setting, in_link, keep, link_read, mirror, peek, seed, set_setting, widget_key

FP, FN = PRICE_FIELDS


def price_stops() -> list[float]:
    """Slider stops from 0.01 to 10,000: 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5 times each power of 10."""
    stops = [0.0]
    for e in range(-2, 4):
        stops += [round(m * 10.0**e, 6) for m in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5)]
    return stops + [10_000.0]


PRICE_STOPS = price_stops()  # spans 1:1,000,000 to 1,000,000:1 in ratio


def store_price(widget: str, name: str) -> None:
    """A price widget's on_change: its value becomes the price `name`."""
    set_setting(name, float(st.session_state[widget]))


def remember_price(name: str, default: float) -> float:
    """The price `name` ("c_fp", "c_fn" or a `link.group_field`) of this session (read from the
    link once, bounded like the slider); not written back to the link here (`stored_costs` does)."""
    ensure_setting(name, default)
    return float(peek(name))


def price_slider(name: str, text: str, unit: str, where, help: str | None = None) -> float:
    """A price on a log-like slider (exact values typed elsewhere are added to its stops)."""
    key = widget_key(name)
    value = float(peek(name))
    options = PRICE_STOPS if value in PRICE_STOPS else sorted({*PRICE_STOPS, value})
    seed(f"s_{key}", value, signature=(unit, len(options), text))
    where.select_slider(
        text,
        options=options,
        key=f"s_{key}",
        format_func=lambda x: money(x, unit),
        on_change=store_price,
        args=(f"s_{key}", name),
        help=help,
    )
    mirror(name, value)
    return value


def price_box(name: str, text: str, where) -> None:
    """The exact entry of the price `name`.

    Its default is the price too, not only its seeded state: a box in a popover that was never
    opened is drawn by the browser from the last run's default when that run did not seed it (a
    price already seeded), so with a default of 0 the popover read "False positive 0" beside
    prices of $1 and $3 (Streamlit keys it by its key alone: the default does not make a new
    widget). A run that seeds it gives no default ("min"): Streamlit warns of a widget given both."""
    key = widget_key(name)
    value = float(peek(name))
    seeded = st.session_state.get(f"n_{key}") != value  # `seed` writes it in this run
    seed(f"n_{key}", value)
    where.number_input(
        text,
        value="min" if seeded else value,
        min_value=0.0,
        max_value=settings.PRICE_MAX,
        step=0.5,
        format="%g",
        key=f"n_{key}",
        on_change=store_price,
        args=(f"n_{key}", name),
    )


def _per_group_setting() -> None:
    """Read ?per_group= from the link once: "true" or "false" (`settings.parse_switch`); anything
    else ("yes") is refused with the page's sentence, not read as off without a word."""
    ensure_setting("per_group", False)  # refused: `link.ONE_PRICE`


def _everyone() -> tuple[float, float, bool]:
    """(the price of a false positive and of a false negative for every group, whether the groups
    are priced apart) of this session, read from the link the first time."""
    c_fp = remember_price(FP, PRICE_DEFAULTS[FP])
    c_fn = remember_price(FN, PRICE_DEFAULTS[FN])
    _per_group_setting()
    return c_fp, c_fn, bool(peek("per_group"))


def price_book(names: list, unit: str) -> dict:
    """Draw the price sliders and return {group: (c_fp, c_fn)}."""
    c_fp, c_fn, per_group = _everyone()
    per_group = per_group and len(names) > 1
    if per_group:
        for i in range(len(names)):
            remember_price(group_field(FP, i), c_fp)
            remember_price(group_field(FN, i), c_fn)
    shown = distinct_labels(names)  # two groups never read alike ("🍎" and "🍊", "$x$" and "*x*")
    c1, c2, c3 = st.columns([2, 2, 1], vertical_alignment="bottom")
    if not per_group:
        c_fp = price_slider(FP, t.FP_PRICE, unit, c1, t.FP_PRICE_HELP)
        c_fn = price_slider(FN, t.FN_PRICE, unit, c2, t.FN_PRICE_HELP)
    with c3.popover(t.EXACT_PRICES, width="stretch"):
        if per_group:  # the pair for every group is not in use: say what it sets
            st.caption(t.EXACT_EVERYONE_UNUSED)
        price_box(FP, t.in_unit(t.EXACT_FP, unit), st)  # in the sidebar's unit, as the sliders show it
        price_box(FN, t.in_unit(t.EXACT_FN, unit), st)
        for i in range(len(names) if per_group else 0):
            price_box(group_field(FP, i), t.in_unit(t.GROUP_EXACT_FP.format(group=shown[i]), unit), st)
            price_box(group_field(FN, i), t.in_unit(t.GROUP_EXACT_FN.format(group=shown[i]), unit), st)
    seed(widget_key("per_group"), per_group)
    st.toggle(
        t.PER_GROUP,
        key=widget_key("per_group"),
        on_change=keep,
        args=("per_group",),
        disabled=len(names) < 2,
        help=t.PER_GROUP_HELP,
    )
    mirror("per_group", per_group)
    costs = {g: (c_fp, c_fn) for g in names}
    if per_group:
        for i, g in enumerate(names):
            a, b = st.columns(2)
            costs[g] = (
                price_slider(group_field(FP, i), t.GROUP_FP_PRICE.format(group=shown[i]), unit, a),
                price_slider(group_field(FN, i), t.GROUP_FN_PRICE.format(group=shown[i]), unit, b),
            )
    return costs


def read_costs(names: list) -> dict:
    """The price book's {group: (c_fp, c_fn)} of this session, read from the link the first time
    (its notes said), neither drawn nor written back to the link: for a page that reads the prices
    only for their notes (every page's `setup`)."""
    c_fp, c_fn, per_group = _everyone()
    if not per_group or len(names) < 2:
        return {g: (c_fp, c_fn) for g in names}
    return {
        g: (remember_price(group_field(FP, i), c_fp), remember_price(group_field(FN, i), c_fn))
        for i, g in enumerate(names)
    }


def stored_costs(names: list) -> dict:
    """The price book's {group: (c_fp, c_fn)} without drawing widgets (for pages that only read it),
    written to the link as the page uses it: a copied link of a page whose answer reads the prices
    (Value, Calibration, Find my prices) opens on those prices, not the defaults. The groups' own
    prices are in it only while they are in use (priced apart, more than one group)."""
    costs = read_costs(names)
    per_group = bool(peek("per_group")) and len(names) > 1
    mirror(FP)
    mirror(FN)
    mirror("per_group", per_group)
    for i in range(len(names) if per_group else 0):
        mirror(group_field(FP, i))
        mirror(group_field(FN, i))
    return costs


def carry_prices() -> None:
    """Hold the link's prices in this session and keep the session's in the link, on a page that
    neither draws nor uses them (the Data page, where a shared link lands). A move within the app
    drops the address's query, so prices the page the link opened did not read were lost before
    any page read them (``/?data=screening&c_fp=5&c_fn=1``, then Costs & groups, answered at 1:3).

    Only the prices the link holds are read (each group's by its place, `group_field`, however
    many groups the data turns out to have), and only those the session holds are written back:
    a fresh session opened without prices keeps them out of its address; a group's prices are
    written while the groups are priced apart, as `stored_costs` writes them."""
    defaults = {FP: PRICE_DEFAULTS[FP], FN: PRICE_DEFAULTS[FN], "per_group": False}
    for name, default in defaults.items():
        if in_link(name):
            ensure_setting(name, default)  # a value refused is said by the next page's `setup`
    groups = [group_field(kind, i) for i in range(settings.MAX_GROUPS) for kind in PRICE_FIELDS]
    for name, kind in zip(groups, PRICE_FIELDS * settings.MAX_GROUPS, strict=True):
        if in_link(name):
            ensure_setting(name, peek(kind, PRICE_DEFAULTS[kind]))  # refused: everyone's price
    for name in [*defaults, *(groups if peek("per_group") else [])]:
        link_read(name)
