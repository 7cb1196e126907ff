"""What a loaded policy puts back into the price book: its prices, as the link's settings of the
groups of the data now (`costlib.core.settings.price_book_link`, the one home of the link's keys)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from costlib.core.errors import DataError
from costlib.core.settings import price_book_link
from costlib.loading.messages import q
from costlib.present.policy_fields import group_name


def policy_price_settings(saved: Mapping, names: Sequence) -> dict:
    """The price-book settings a loaded policy sets for the groups `names` of the data now:
    ``{"c_fp": .., "c_fn": .., "per_group": bool, "c_fp_0": .., "c_fn_0": .., ...}``
    (group i is ``names[i]``; `price_book_link` spells the keys). Raises DataError when the
    policy lacks a group of the data."""
    by_text = {group_name(k): v for k, v in saved["prices"].items()}  # matched as the loader reads a cell
    missing = [g for g in names if group_name(g) not in by_text]
    if missing:
        raise DataError(f"The policy has no prices for the group {q(missing[0])} of this data; nothing was changed.")
    pairs = [by_text[group_name(g)] for g in names]
    return price_book_link(pairs[0], pairs)
