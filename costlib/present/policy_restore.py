"""What a loaded policy puts back into the settings: its prices, as the price book of the groups
of the data now, its unit, volume, fairness tolerance, price questions and review limit, as one
`costlib.core.link.Settings` (`policy_settings`; `costlib.core.link` is the one home of the
link's keys)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from costlib.core.errors import DataError
from costlib.core.escaping import display_name
from costlib.core.link import Settings
from costlib.core.settings import price_book, price_book_link
from costlib.loading.messages import q
from costlib.present.policy_fields import PolicyFileError, group_name

NO_PRICES = "The policy{name} has no prices for the group {group} of this data; nothing was changed."
#: the same when the policy's record says it was made on other data: that first, as the reason
OTHER_DATA = (
    "The policy{name} was made on another data set{theirs}, not on the data in use{ours}, and it has no prices "
    "for the group {group} of this data, so it was not applied. Nothing was changed."
)


class MissingPrices(DataError):
    """A policy without prices for a group of the data now (`group`): nothing is restored. `made_on`:
    the policy's record of its data (its ``"data"``: name and fingerprint), when it has one."""

    def __init__(self, group, made_on: Mapping | None = None):
        super().__init__(NO_PRICES.format(name="", group=q(group)))
        self.group = group
        self.made_on = made_on or {}

    def named(self, filename: str, *, fingerprint: str | None = None, data_name: str | None = None) -> str:
        """The sentence naming the uploaded policy file `filename`; made on data other than the data in
        use (its fingerprint `fingerprint`, its name `data_name`), it says so first (`OTHER_DATA`)."""
        name = " " + q(display_name(filename), 80)
        made = self.made_on.get("sha256")
        if fingerprint is None or made is None or made == fingerprint:
            return NO_PRICES.format(name=name, group=q(self.group))
        theirs = f", {q(self.made_on['name'], 80)}" if self.made_on.get("name") else ""
        ours = f", {q(data_name, 80)}" if data_name else ""
        return OTHER_DATA.format(name=name, theirs=theirs, ours=ours, group=q(self.group))


def restore_refusal(
    err: DataError, filename: str, *, fingerprint: str | None = None, data_name: str | None = None
) -> str:
    """Why the uploaded policy file `filename` restored nothing, naming the file as every upload's
    refusal does: `err` from `present.policy.load_policy` (`PolicyFileError`) or from
    `policy_settings` (`MissingPrices`, said to be made on other data when the policy's record
    differs from the data in use: `fingerprint`, named `data_name`); another DataError's own
    sentence, after the file's name.

    >>> restore_refusal(PolicyFileError("it is not JSON (line 1, column 2: Expecting value)"), "garbage.json")
    'The file "garbage.json" is not a usable costlib policy file: it is not JSON (line 1, column 2: Expecting value).'
    """
    if isinstance(err, MissingPrices):
        return err.named(filename, fingerprint=fingerprint, data_name=data_name)
    if isinstance(err, PolicyFileError):
        return err.named(filename)
    return f"{q(display_name(filename), 80)}: {err.message}"


def _pairs(saved: Mapping, names: Sequence) -> list:
    by_text = {group_name(k): v for k, v in saved["prices"].items()}  # matched as the loader reads a cell
    missing = [g for g in names if group_name(g) not in by_text]
    if missing:
        raise MissingPrices(missing[0], saved.get("data"))
    return [by_text[group_name(g)] for g in names]


def policy_price_settings(saved: Mapping, names: Sequence) -> dict:
    """The price-book settings a loaded policy sets for the groups `names` of the data now:
    ``{"c_fp": .., "c_fn": .., "per_group": bool, "c_fp_0": .., "c_fn_0": .., ...}``
    (group i is ``names[i]``; `price_book_link` spells the keys). Raises DataError when the
    policy lacks a group of the data."""
    pairs = _pairs(saved, names)
    return price_book_link(pairs[0], pairs)


def _review_limit(saved: Mapping, volume) -> int | None:
    """The policy's review limit in cases a month (a limit saved as a share needs `volume`)."""
    cap = saved.get("capacity")
    cases = None if cap is None else cap["cases_per_month"]
    if cap is not None and cases is None and volume:
        cases = round(cap["max_flagged"] * float(volume))
    return None if cases is None else int(cases)


def restored_fields(saved: Mapping, base: Settings | None = None) -> tuple[str, ...]:
    """The fields of the settings a loaded policy `saved` sets (`policy_settings`); the others
    stay the session's `base` (default: `Settings()`; a policy without a unit of its own leaves the unit)."""
    base = Settings() if base is None else base
    fields = ["c_fp", "c_fn", "per_group", "group_prices", "price_questions", "review_limit_on"]
    fields += ["unit"] if saved.get("unit_given", True) else []
    fields += ["tolerance"] if saved.get("fairness_tolerance") is not None else []
    fields += ["volume"] if saved.get("volume") is not None else []
    fields += ["review_limit"] if _review_limit(saved, saved.get("volume") or base.volume) is not None else []
    return tuple(fields)


def policy_settings(saved: Mapping, names: Sequence, base: Settings | None = None) -> Settings:
    """The settings `base` (default: `Settings()`) with what the loaded policy `saved` sets for
    the groups `names` of the data now (`restored_fields`): its prices (group i is
    ``names[i]``), unit, volume, fairness tolerance, the price questions behind its prices
    (whether they still set the prices is worked out wherever they are shown:
    `elicit.in_force`) and its review limit. Raises DataError when the policy lacks a group of
    the data.

    >>> s = policy_settings({"prices": {"a": (1.0, 3.0), "b": (1.0, 6.0)}, "unit": "€"}, ["a", "b"])
    >>> s.per_group, s.group_prices, s.unit, s.review_limit_on
    (True, ((1.0, 3.0), (1.0, 6.0)), '€', False)
    """
    base = Settings() if base is None else base
    pairs = _pairs(saved, names)
    questions = saved.get("price_questions")
    volume = saved.get("volume") or base.volume
    cases = _review_limit(saved, volume)
    given = {
        "unit": saved.get("unit"),
        "tolerance": None if saved.get("fairness_tolerance") is None else float(saved["fairness_tolerance"]),
        "volume": None if saved.get("volume") is None else int(saved["volume"]),
        "price_questions": (
            {k: v for k, v in questions.items() if k not in ("in_force", "ratio_now")} if questions else None
        ),
        "review_limit_on": cases is not None,
        "review_limit": cases,
    }
    changed = {k: v for k, v in given.items() if k in restored_fields(saved, base)}
    return dataclasses.replace(base.with_price_book(price_book(pairs[0], pairs)), **changed)
