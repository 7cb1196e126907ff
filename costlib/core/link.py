"""The dashboard's settings as one frozen value, `Settings`, read from and written to the shared
link through the one table of the link's key names (`settings.LINK_KEYS`, beside the bounds).

A page, the policy loader, Find my prices and the command line speak of a setting by its field
name (``tolerance``, ``review_limit``); only this module (through that table) turns a field into
the link's key (``fair_tol``, ``cap``) and back. The key names and the text of their values are those links
have always had (``?c_fp=1&c_fn=3&per_group=true&c_fp_0=..&fair_tol=0.05``), so a link shared
before still opens to its settings. Every value read from a link goes through the bounds of
`costlib.core.settings` (`check`): out of range, it falls back to the default with a sentence.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass

from costlib.core import settings
from costlib.core.settings import (
    LINK_KEYS,
    PRICE_DEFAULTS,
    PRICE_FIELDS,
    group_field,
    link_key,
    price_book,
    price_book_link,
)

# the key table and its helpers live in `settings` (this module reads its bounds); they are met here
__all__ = [
    "HANDING_OVER",
    "K_FROM_PRICES",
    "LINK_KEYS",
    "MULTI_VALUED",
    "NO_LIMIT",
    "ONE_PRICE",
    "PRICE_DEFAULTS",
    "PRICE_FIELDS",
    "READERS",
    "Settings",
    "group_field",
    "link_key",
    "link_name",
    "link_raw",
    "link_text",
    "note",
    "price_book",
    "price_book_link",
    "read",
    "refused",
]

MULTI_VALUED = frozenset({"train_methods"})  # repeated in the link: ?train_methods=a&train_methods=b
K_FROM_PRICES = "the k that follows from your prices"  # what a refused ?k= falls back to
NO_LIMIT = "no limit"  # what a refused ?cap_on=... gives: "... so no limit is used instead."
ONE_PRICE = "one price for every group"  # what a refused ?per_group=... gives
HANDING_OVER = "handing a case to a person"  # what a refused ?abstain_on=... gives (the Cost matrix's default)


@dataclass(frozen=True)
class Settings:
    """Every setting the dashboard keeps for a person, one field each (None: not set, the page's
    default applies: the sample it opens, every group priced alike, k from the prices...).

    group_prices  each group's (c_fp, c_fn) in the order of the data's groups, a price None where
                  the group takes the price of every group (`c_fp`, `c_fn`)
    criteria      the fairness criteria compared (None: every one); not in the link
    price_questions  the record of Find my prices' answers (`elicit.record`); not in the link
    matrix        the cost matrix in its link form ("0,1;2,0", `settings.matrix_link`), checked
                  against the data's classes by the page that reads it
    """

    c_fp: float = PRICE_DEFAULTS["c_fp"]
    c_fn: float = PRICE_DEFAULTS["c_fn"]
    per_group: bool = False
    group_prices: tuple = ()
    unit: str = "$"
    volume: int | None = int(settings.VOLUME.default)  # None: none given (the command line without --volume)
    review_limit_on: bool = False
    review_limit: int = int(settings.CAPACITY.default)
    handover_limit_on: bool = False
    handover_limit: int = int(settings.CAPACITY.default)
    resamples: int = int(settings.RESAMPLES.default)
    fairness: bool | None = None
    tolerance: float = settings.TOLERANCE.default
    criteria: tuple | None = None
    reference_group: str | None = None
    k: float | None = None
    worth: float = settings.GAIN.default
    handover_worth: float = settings.REJECT_WORTH.default
    mistake_price: float = settings.MISTAKE_PRICE.default
    price_questions: Mapping | None = dataclasses.field(default=None, hash=False)
    details: bool = False
    data: str | None = None
    model: str | None = None
    bins: int = int(settings.BINS.default)
    cutoff: float | None = None
    matrix: str | None = None
    handover_allowed: bool = True
    handover_price: float = 1.0
    train_data: str | None = None
    train_methods: tuple | None = None
    train_seeds: int = int(settings.SEEDS.default)

    @classmethod
    def from_link(cls, params: Mapping) -> tuple[Settings, list[str]]:
        """The settings a link's query `params` hold, and a sentence for each value refused (the
        default is used instead); keys the link lacks keep their defaults.

        `params` maps a key to its text (or to a list of texts, the last one read, as Streamlit's
        ``st.query_params`` does).

        Examples
        --------
        >>> s, notes = Settings.from_link({"c_fn": "5", "fair_tol": "0.9", "cap_on": "true"})
        >>> s.c_fn, s.tolerance, s.review_limit_on
        (5.0, 0.05, True)
        >>> notes[0][:58]
        "The link's fairness tolerance was not used. The fairness t"
        """
        values, notes = {}, []
        for name in LINK_KEYS:
            raw = link_raw(params, name)
            if raw is None:
                continue
            value, note = read(name, raw, default=getattr(cls, name))
            values[name] = value
            if note:
                notes.append(note)
        pairs = []
        for i in range(settings.MAX_GROUPS):
            pair = []
            for kind in PRICE_FIELDS:
                raw = link_raw(params, group_field(kind, i))
                everyone = values.get(kind, PRICE_DEFAULTS[kind])  # a refused group price falls back to it
                value, note = (None, None) if raw is None else read(group_field(kind, i), raw, default=everyone)
                pair.append(value)
                if note:
                    notes.append(note)
            pairs.append(tuple(pair))
        while pairs and pairs[-1] == (None, None):
            pairs.pop()
        return cls(**values, group_prices=tuple(pairs)), notes

    def to_link(self) -> dict:
        """The link's query of these settings: {key: text} as `link_text` writes each value (a
        list of texts for a setting the link repeats); a setting that is None is left out.

        >>> Settings(c_fp=2.0, per_group=True, group_prices=((None, 6.0),)).to_link()["c_fn_0"]
        '6'
        """
        out = {}
        for name, key in LINK_KEYS.items():
            value = getattr(self, name)
            if value is None:
                continue
            out[key] = ([link_text(v) for v in value] or [""]) if name in MULTI_VALUED else link_text(value)
        for i, pair in enumerate(self.group_prices):
            for kind, price in zip(PRICE_FIELDS, pair, strict=True):
                if price is not None:
                    out[link_key(group_field(kind, i))] = link_text(price)
        return out

    def key(self) -> tuple:
        """A hashable form of every field (a memo's key)."""
        return tuple((f.name, _hashable(getattr(self, f.name))) for f in dataclasses.fields(self))

    def group_price(self, kind: str, i: int) -> float | None:
        """The `i`-th group's price `kind` ("c_fp" or "c_fn"), None when it takes everyone's."""
        pair = self.group_prices[i] if i < len(self.group_prices) else (None, None)
        return pair[PRICE_FIELDS.index(kind)]

    def with_price_book(self, book: Mapping) -> Settings:
        """These settings with the price book `book` (`price_book`'s form: everyone's pair, the
        per_group switch and each group's pair) in place of theirs."""
        pairs = []
        i = 0
        while group_field("c_fp", i) in book or group_field("c_fn", i) in book:
            pairs.append(tuple(book.get(group_field(kind, i)) for kind in PRICE_FIELDS))
            i += 1
        return dataclasses.replace(
            self, c_fp=book["c_fp"], c_fn=book["c_fn"], per_group=book["per_group"], group_prices=tuple(pairs)
        )


def _hashable(value):
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _hashable(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    return value


_NAMES = {key: name for name, key in LINK_KEYS.items()}


def link_name(key: str) -> str | None:
    """The setting (a field of `Settings` or a `group_field`) whose link key is `key`, `link_key`'s
    inverse; None for a key no setting has (a key of Streamlit's own, ?embed=true).

    >>> link_name("fair_tol"), link_name("c_fn_2"), link_name("embed"), link_name("c_fp_x")
    ('tolerance', 'c_fn_2', None, None)
    """
    if key in _NAMES:
        return _NAMES[key]
    prefix, _, index = key.rpartition("_")
    kind = _NAMES.get(prefix)
    return group_field(kind, int(index)) if kind in PRICE_FIELDS and index.isdigit() else None


def link_raw(params: Mapping, name: str):
    """The text the link `params` hold for the setting `name` (the last of a repeated key; every
    one, as a list, for a setting the link repeats); None when absent."""
    key = link_key(name)
    if hasattr(params, "get_all"):
        values = list(params.get_all(key)) if key in params else None
    else:
        got = params.get(key)
        values = None if got is None else (list(got) if isinstance(got, (list, tuple)) else [got])
    if values is None:
        return None
    if name in MULTI_VALUED:
        return [v for v in values if v != ""]
    return values[-1] if values else ""


def link_text(value) -> str | None:
    """How a setting's value is written in the link: "true"/"false", a float to 15 significant
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


def note(name: str, sentence: str) -> str:
    """What a page says when the link's value of the setting `name` was out of its bound
    (`sentence`, from `settings.check`)."""
    return settings.link_note(name, sentence)


def refused(name: str, raw, default) -> str:
    """What a page says when the link's value `raw` of the setting `name` is not one it can use."""
    return settings.link_refused(name, str(raw), default)


def _flag(raw: str) -> bool:
    return raw.lower() == "true"  # the details and fairness toggles: anything else is off, as ever


def _resamples(raw: str) -> int:
    value = int(raw)
    if value not in settings.RESAMPLE_OPTIONS:
        raise ValueError("not one of the page's resample counts")
    return value


def _k(raw: str) -> float:
    value = float(raw)
    if not settings.K.low <= value <= settings.K.high:
        raise ValueError("k out of range")
    return value


def _unit(raw: str) -> str:
    if settings.check_unit(raw)[1] is not None:
        raise ValueError("not a unit")
    return raw


#: how each setting is read from its link text: a `settings.Bound` (`check`, its sentence) or a
#: parser (a ValueError: refused, `refused`'s sentence), with the words of its default if not its value
READERS = {
    "c_fp": settings.PRICE,
    "c_fn": settings.PRICE,
    "per_group": (settings.parse_switch, ONE_PRICE),
    "unit": (_unit, None),
    "volume": settings.VOLUME,
    "review_limit_on": (settings.parse_switch, NO_LIMIT),
    "review_limit": settings.CAPACITY,
    "handover_limit_on": (settings.parse_switch, NO_LIMIT),
    "handover_limit": settings.CAPACITY,
    "resamples": (_resamples, None),
    "fairness": (_flag, None),
    "tolerance": settings.TOLERANCE,
    "reference_group": (str, None),
    "k": (_k, K_FROM_PRICES),
    "worth": settings.GAIN,
    "handover_worth": settings.REJECT_WORTH,
    "mistake_price": settings.MISTAKE_PRICE,
    "details": (_flag, None),
    "data": (str, None),
    "model": (str, None),
    "bins": settings.BINS,
    "cutoff": (float, None),
    "matrix": (str, None),
    "handover_allowed": (settings.parse_switch, HANDING_OVER),
    "handover_price": settings.PRICE,
    "train_data": (str, None),
    "train_methods": (tuple, None),
    "train_seeds": settings.SEEDS,
}


def read(name: str, raw, *, default, bound: settings.Bound | None = None, words=None):
    """(value, None) when the link's text `raw` of the setting `name` (a field or a
    `group_field`) is one it can use, else (`default`, the sentence the page says); `bound`: the
    page's bound in place of the setting's own (a cutoff's range is the data's); `words`: what
    the default is called in the sentence.

    >>> print(read("volume", "-3", default=10_000)[1])  # doctest: +NORMALIZE_WHITESPACE
    The link's number of cases per month was not used. The cases per month must be a number from 0 to
    1,000,000,000,000: got -3; using 10,000 instead.
    >>> read("k", "25", default=None)[1]
    "The link's k “25” is not one this page can use, so the k that follows from your prices is used instead."
    """
    how = bound if bound is not None else READERS[name if name in READERS else name.rpartition("_")[0]]
    if isinstance(how, settings.Bound):
        value, sentence = settings.check(how, raw, default=default)
        return value, None if sentence is None else note(name, sentence)
    parse, default_words = how
    try:
        value = parse(raw)
    except (TypeError, ValueError, OverflowError):
        value = None
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        words = words if words is not None else default_words if default_words is not None else default
        return default, refused(name, raw, words)
    return value, None
