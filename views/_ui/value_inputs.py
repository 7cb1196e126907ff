"""Value's settings: the worth of a right answer and of a handed-over case, k (the prices'
until its slider moves) and the cases a month people can take, all remembered across pages and
mirrored in the URL, bounded by `settings.GAIN`, `settings.REJECT_WORTH`, `settings.K` and
`settings.CAPACITY`."""

from __future__ import annotations

import numpy as np
import streamlit as st

from costlib import answers
from costlib.core import settings
from costlib.present import labels as t
from costlib.present import value_words
from views._ui.limit import limit_inputs
from views._ui.state import (
    amount_input,
    ensure_setting,
    mirror,
    set_setting,
    setting,
    setting_notes,
    widget_key,
)

K_MAX = settings.K.high
K_OPTIONS = sorted(
    {
        *np.round(np.arange(0, 2.0001, 0.05), 2),
        *np.round(np.arange(2.25, 5.0001, 0.25), 2),
        *np.round(np.arange(5.5, K_MAX + 0.0001, 0.5), 2),
    }
)


def reset_k() -> None:
    set_setting("k", None)


def pick_k() -> None:
    set_setting("k", float(st.session_state[widget_key("k")]))


def worth_inputs(c1, c2, unit: str) -> tuple[float, float]:
    """The worth of a right answer and of a handed-over case, remembered and in the URL."""
    worth = amount_input(c1, "worth", settings.GAIN, t.in_unit(t.WORTH, unit), t.WORTH_HELP)
    reject_worth = amount_input(
        c2, "handover_worth", settings.REJECT_WORTH, t.in_unit(t.HANDOVER_WORTH, unit), t.HANDOVER_WORTH_HELP
    )
    return worth, reject_worth


def k_setting() -> float | None:
    """The k the slider moved to (the setting "k", and ?k=), or None while k follows the prices;
    a link's k out of range is said once and dropped."""
    ensure_setting("k", None)  # refused: `link.K_FROM_PRICES` is used instead
    setting_notes()
    return setting("k")


def k_slider(where, choice: answers.KChoice) -> None:
    """k follows the prices until the slider moves (`choice`, the answer's `KChoice`); the moved
    value is the setting "k" (and ?k=)."""
    k = choice.k
    options = K_OPTIONS if k in K_OPTIONS else sorted({*K_OPTIONS, k})
    if st.session_state.get(widget_key("k")) != k:  # only when k came from elsewhere: keeps key presses
        st.session_state[widget_key("k")] = k
    where.select_slider(
        t.K_LABEL,
        options=options,
        key=widget_key("k"),
        on_change=pick_k,
        format_func=lambda x: f"{x:.3g}",
        help=t.K_HELP,
    )
    mirror("k", k if choice.moved else None)
    if choice.moved:
        where.button(t.K_RESET, key="k_reset", on_click=reset_k)


def capacity_inputs(c1, c2) -> float | None:
    """The cases a month people can take (the setting ``handover_limit``), or None without a
    limit (the default)."""
    cap = limit_inputs(
        c1,
        c2,
        name="handover_limit",
        toggle=value_words.VALUE_CAP_LABEL,
        number=value_words.VALUE_CAP_NUMBER,
        help=value_words.VALUE_CAP_HELP,
    )
    return None if cap is None else float(cap)
