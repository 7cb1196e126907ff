"""The bounds of every setting a person can give: prices, volume, unit, tolerance, resamples, k,
the cost matrix.

A setting arrives from a widget, a shared link (`costlib.core.link`, the one place that knows
the link's keys), a policy file or the command line. All of them go through `check`, so a link
or a file can never hold a value its widget would refuse: an out-of-range value falls back to
the default with a sentence saying why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Bound:
    name: str  # what a person calls it, in sentences
    low: float
    high: float
    default: float
    integer: bool = False
    smallest: float = 0.0  # a value other than 0 must be at least this in size (prices: see `PRICE_MIN`)


PRICE_MAX = 1e9
#: the smallest price other than 0: only the ratio of prices matters, and one of 5e-324 makes its
#: reciprocal, a chart's log axis and a ratio of two such prices infinite
PRICE_MIN = 1e-9
VOLUME_MAX = 1e12
UNIT_MAX_CHARS = 12

PRICE = Bound("a price", 0.0, PRICE_MAX, 1.0, smallest=PRICE_MIN)
VOLUME = Bound("the cases per month", 0.0, VOLUME_MAX, 10_000, integer=True)
TOLERANCE = Bound("the fairness tolerance", 0.0, 0.5, 0.05)
#: a disparity ratio passes inside [t, 1/t]: 0.8 is the four-fifths rule; below 0.5 (a group at twice or half
#: the reference's rate passing) it would no longer be a test of anything a reviewer means by it
DISPARITY = Bound("the disparity threshold", 0.5, 1.0, 0.8)
RESAMPLES = Bound("the bootstrap resamples", 10, 20_000, 1000, integer=True)
K = Bound(
    "k", 0.0, 20.0, 2.0, smallest=PRICE_MIN
)  # Value's slider: how much worse a wrong answer is than a right one is good
GAIN = Bound("the worth of a correct answer", 0.0, PRICE_MAX, 1.0, smallest=PRICE_MIN)
#: Instance costs: what a mistake on a typical case costs (one of average instance cost), in the user's unit
MISTAKE_PRICE = Bound("the price of a mistake on a typical case", 0.0, PRICE_MAX, 1.0, smallest=PRICE_MIN)
REJECT_WORTH = Bound("the worth of a handed-over case", -PRICE_MAX, PRICE_MAX, 0.0, smallest=PRICE_MIN)
RESAMPLE_OPTIONS = (200, 500, 1000, 2000, 5000)  # the dashboard's choices, within RESAMPLES
SEEDS = Bound("the seeds", 1, 50, 10, integer=True)  # Train with costs: random splits to train on
BINS = Bound("the number of score bands", 5, 30, 10, integer=True)  # Calibration's reliability diagram
#: how many cases a month the people who act on the model can take (Costs: review; Value: hand-overs);
#: no setting means no limit, and the pages divide a cap by the volume to get the share of the cases
CAPACITY = Bound("the cases a month your team can take", 0.0, VOLUME_MAX, 1000, integer=True)

#: the most groups a page, the report and the audit compare one by one (fairness tables, a price per
#: group), whichever way the rows arrive: an upload, a data-folder file, an aggregate or --engine
MAX_GROUPS = 20
MSG_GROUP_TOO_MANY = (
    'In "{name}", column "{column}" has {k} distinct groups (largest: {largest}); at most {limit} can be compared.'
)
MSG_GROUPS_TOGETHER = (
    "Leave the group column out to see every case together, or put the rows into at most {limit} groups first."
)

MSG_OUT_OF_RANGE = "{what} must be a number from {low} to {high}: got {value}; using {default} instead."
MSG_TOO_SMALL = (
    "{what} must be 0 or at least {smallest} in size: got {value}; using {default} instead (only the ratio of "
    "the prices matters: scale them all up)."
)


def _show(x: float) -> str:
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:g}"


def check(bound: Bound, value, *, default=None) -> tuple[float, str | None]:
    """(value, None) when `value` is a number within `bound`, else (the default, a sentence).

    >>> check(PRICE, "3")
    (3.0, None)
    >>> check(PRICE, "1e308")[1]
    'a price must be a number from 0 to 1,000,000,000: got 1e308; using 1 instead.'
    """
    fallback = bound.default if default is None else default
    shown = str(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "…"
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        x = math.nan
    if not (math.isfinite(x) and bound.low <= x <= bound.high) or (bound.integer and not float(x).is_integer()):
        return fallback, MSG_OUT_OF_RANGE.format(
            what=bound.name, low=_show(bound.low), high=_show(bound.high), value=shown, default=_show(fallback)
        )
    if 0 < abs(x) < bound.smallest:
        smallest = f"{bound.smallest:.12f}".rstrip("0")  # 0.000000001, not 1e-09
        return fallback, MSG_TOO_SMALL.format(what=bound.name, smallest=smallest, value=shown, default=_show(fallback))
    return (int(x) if bound.integer else x), None


def check_unit(value, *, default: str = "$") -> tuple[str, str | None]:
    """The unit of the prices: at most `UNIT_MAX_CHARS` characters of text, one line."""
    if not isinstance(value, str):
        return default, f"the unit must be text: got {type(value).__name__}; using {default!r} instead."
    text = value.strip()
    if len(text) > UNIT_MAX_CHARS or any(
        ord(ch) < 32 or 0x202A <= ord(ch) <= 0x202E or 0x2066 <= ord(ch) <= 0x2069 or 0xD800 <= ord(ch) <= 0xDFFF
        for ch in text
    ):
        shown = text if len(text) <= 20 else text[:17] + "…"
        return default, (
            f"the unit must be at most {UNIT_MAX_CHARS} plain characters: got {shown!r}; using {default!r} instead."
        )
    return text, None


def matrix_in_bound(m, bound: Bound = PRICE) -> bool:
    """Whether every cell of the price matrix `m` is a number within `bound` (no empty cell)."""
    return matrix_bad_cell(m, bound) is None


def matrix_bad_cell(m, bound: Bound = PRICE) -> tuple[int, int] | None:
    """The first cell (row, column) of the price matrix `m` that is not a number within `bound`
    (an empty cell is NaN), or None when every cell is one.

    >>> matrix_bad_cell([[0, 1], [float("nan"), 0]]), matrix_bad_cell([[0, 1], [2, 0]])
    ((1, 0), None)
    """
    m = np.asarray(m, dtype=float)
    with np.errstate(invalid="ignore"):
        tiny = (m != 0) & (np.abs(m) < bound.smallest)
        bad = ~np.isfinite(m) | (m < bound.low) | (m > bound.high) | tiny
    cells = np.argwhere(bad)
    return None if not len(cells) else (int(cells[0][0]), int(cells[0][1]))


def check_matrix(text, size: int, *, bound: Bound = PRICE):
    """(matrix, None) from the link form "0,1,1;1,0,1;10,10,0" of a `size` x `size` price matrix,
    every cell within `bound`; (None, a sentence) when it is not one; (None, None) when absent.

    >>> check_matrix("0,1;2,0", 2)[0].tolist()
    [[0.0, 1.0], [2.0, 0.0]]
    >>> check_matrix("0,1;-2,0", 2)[1]
    'the cost matrix must be 2 rows of 2 prices from 0 to 1,000,000,000: got 0,1;-2,0; using the default instead.'
    """
    if not text:
        return None, None
    try:
        m = np.array([[float(x) for x in r.split(",")] for r in str(text).split(";")])
    except ValueError:
        m = None
    if m is None or m.shape != (size, size) or not matrix_in_bound(m, bound):
        shown = str(text) if len(str(text)) <= 40 else str(text)[:37] + "…"
        return None, (
            f"the cost matrix must be {size} rows of {size} prices from {_show(bound.low)} to {_show(bound.high)}: "
            f"got {shown}; using the default instead."
        )
    return m, None


def matrix_link(m) -> str:
    """The link form of a price matrix (what `check_matrix` reads)."""
    return ";".join(",".join(f"{x:g}" for x in r) for r in m)


#: what a link's on/off setting may say (case and spaces aside): "true" or "false", as `link_text` writes it
SWITCH_WORDS = {"true": True, "false": False}


def parse_switch(text: str) -> bool:
    """A link's on/off value: "true" or "false" (any case, spaces around ignored).

    Raises
    ------
    ValueError
        For anything else ("yes", "1", "nan", a 5,000-character text), so that the page says the
        link's value was refused (`link_refused`) instead of turning the setting off without a word.

    Examples
    --------
    >>> parse_switch(" TRUE "), parse_switch("false")
    (True, False)
    >>> parse_switch("yes")
    Traceback (most recent call last):
    ...
    ValueError: not "true" or "false"
    """
    value = SWITCH_WORDS.get(str(text).strip().lower())
    if value is None:
        raise ValueError('not "true" or "false"')
    return value


def link_note(name: str, note: str) -> str:
    """What a page says when the link's value of the setting `name` (a field of `costlib.core.link.Settings` or a
    `group_field`, said as the pages name it: `link_words`) was out of its bound (`note`, from `check`).

    >>> link_note("c_fp", "a price must be a number from 0 to 1,000,000,000: got 1e308; using 1 instead.")[:66]
    "The link's price of a false positive was not used. A price must be"
    """
    return f"The link's {link_words(name)} was not used. {note[:1].upper()}{note[1:]}"


def link_refused(name: str, raw: str, default) -> str:
    """What a page says when the link's value of the setting `name` (said as `link_words` says it) is not one it
    can use (shown to 40 characters); `default`: what is used instead, in words.

    >>> link_refused("resamples", "12", 1000)
    "The link's number of bootstrap resamples “12” is not one this page can use, so 1000 is used instead."
    """
    shown = raw if len(raw) <= 40 else raw[:40] + "…"
    return f"The link's {link_words(name)} “{shown}” is not one this page can use, so {default!s} is used instead."


# ---------------------------------------------------------------------------------------
# The link's keys: the one place that spells them (`costlib.core.link.Settings` reads and writes
# a link through them)

#: the one table of the link's key names: field of `costlib.core.link.Settings` -> key in the link (the groups'
#: prices, ``group_prices``, take the price's key and the group's index: ``c_fp_0``, ``c_fn_3``;
#: ``criteria`` and ``price_questions`` live in the session and the policy file, not in the link)
LINK_KEYS = {
    "c_fp": "c_fp",
    "c_fn": "c_fn",
    "per_group": "per_group",
    "unit": "unit",
    "volume": "volume",
    "review_limit_on": "cap_on",
    "review_limit": "cap",
    "handover_limit_on": "value_cap_on",
    "handover_limit": "value_cap",
    "resamples": "resamples",
    "fairness": "fair",
    "tolerance": "fair_tol",
    "reference_group": "disparity_reference",
    "k": "k",
    "worth": "gain",
    "handover_worth": "reject_worth",
    "mistake_price": "mistake_price",
    "details": "details",
    "data": "data",
    "model": "model",
    "bins": "bins",
    "cutoff": "threshold",
    "matrix": "C",
    "handover_allowed": "abstain_on",
    "handover_price": "abstain",
    "train_data": "train_data",
    "train_methods": "train_methods",
    "train_seeds": "train_seeds",
}
#: each setting of the link as the pages name it, after "The link's" (`link_note`, `link_refused`): a reader of
#: the warning knows "the price of a false negative" from the page, not its key "c_fn" (review 72)
LINK_WORDS = {
    "c_fp": "price of a false positive",
    "c_fn": "price of a false negative",
    "per_group": "different prices per group",
    "unit": "unit of your prices",
    "volume": "number of cases per month",
    "review_limit_on": "limit on what your team can review",
    "review_limit": "number of cases your team can review a month",
    "handover_limit_on": "limit on the cases handed to a person",
    "handover_limit": "number of cases your team can take a month",
    "resamples": "number of bootstrap resamples",
    "fairness": "fairness switch",
    "tolerance": "fairness tolerance",
    "reference_group": "reference group",
    "k": "k",
    "worth": "worth of a correct answer",
    "handover_worth": "worth of a handed-over case",
    "mistake_price": "price of a mistake on a typical case",
    "details": "switch that shows every rule",
    "data": "data",
    "model": "model",
    "bins": "number of score bands",
    "cutoff": "cutoff",
    "matrix": "cost matrix",
    "handover_allowed": "switch for handing a case to a person",
    "handover_price": "price of handing a case over",
    "train_data": "training data",
    "train_methods": "training methods",
    "train_seeds": "number of seeds",
}
PRICE_FIELDS = ("c_fp", "c_fn")  # the two prices of a group, in this order in `Settings.group_prices`
PRICE_DEFAULTS = {"c_fp": 1.0, "c_fn": 3.0}  # a price book nobody has set: 1 and 3


def group_field(kind: str, group: int) -> str:
    """The name of the `group`-th group's price `kind` ("c_fp" or "c_fn") among the settings,
    as `link_key` and `costlib.core.link.read` take it.

    >>> group_field("c_fn", 2)
    'c_fn_2'
    """
    if kind not in PRICE_DEFAULTS:
        raise ValueError(f"kind must be one of {list(PRICE_DEFAULTS)}: got {kind!r}")
    return f"{kind}_{int(group)}"


def link_key(name: str) -> str:
    """The link's key of the setting `name` (a field of `costlib.core.link.Settings` or a `group_field`).

    >>> link_key("tolerance"), link_key(group_field("c_fp", 0))
    ('fair_tol', 'c_fp_0')
    """
    if name in LINK_KEYS:
        return LINK_KEYS[name]
    if (price := _group_price(name)) is not None:
        return f"{LINK_KEYS[price[0]]}_{price[1]}"
    raise KeyError(f"no setting {name!r} is kept in the link")


def _group_price(name: str) -> tuple[str, int] | None:
    """(the price's field, the group's place) of a `group_field` name ("c_fp_2": ("c_fp", 2)), else None."""
    kind, _, index = name.rpartition("_")
    return (kind, int(index)) if kind in PRICE_FIELDS and index.isdigit() else None


def link_words(name: str) -> str:
    """The setting `name` (a field of `costlib.core.link.Settings` or a `group_field`) as the pages name it, after
    "The link's" (`LINK_WORDS`); a group's price with the group's place in the data.

    >>> link_words("c_fn"), link_words(group_field("c_fp", 2))
    ('price of a false negative', 'price of a false positive for group 3')
    """
    if name in LINK_WORDS:
        return LINK_WORDS[name]
    if (price := _group_price(name)) is not None:
        return f"{LINK_WORDS[price[0]]} for group {price[1] + 1}"
    return name


def price_book(everyone: tuple[float, float], groups=(), *, per_group: bool | None = None) -> dict:
    """The price book's settings by name: the price of every group (`everyone`, (c_fp, c_fn)),
    each group's pair in the order of the data's groups (`group_field`), and whether the groups
    are priced apart (default: when their pairs differ).

    >>> price_book((1.0, 3.0), [(1.0, 3.0), (1.0, 6.0)])
    {'c_fp': 1.0, 'c_fn': 3.0, 'per_group': True, 'c_fp_0': 1.0, 'c_fn_0': 3.0, 'c_fp_1': 1.0, 'c_fn_1': 6.0}
    """
    pairs = [(float(a), float(b)) for a, b in groups]
    apart = any(p != pairs[0] for p in pairs) if per_group is None and pairs else bool(per_group)
    out = {"c_fp": float(everyone[0]), "c_fn": float(everyone[1]), "per_group": apart}
    for i, (c_fp, c_fn) in enumerate(pairs):
        out[group_field("c_fp", i)], out[group_field("c_fn", i)] = c_fp, c_fn
    return out


def price_book_link(everyone: tuple[float, float], groups=(), *, per_group: bool | None = None) -> dict:
    """`price_book` under the link's keys (?c_fp=..&c_fn=..&per_group=..&c_fp_0=..)."""
    return {link_key(name): value for name, value in price_book(everyone, groups, per_group=per_group).items()}
