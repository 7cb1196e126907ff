"""One field of a policy file, checked: the file's limits, the parse of its text (`parse_text`), a
number (`read_number`), a group's name (`group_name`, `policy_group`), a text (`writable_text`), and
the sentence of a file the reader refuses (`PolicyFileError`).

A policy comes from a person's disk and may be anything: every check here refuses with a
`PolicyFileError` sentence, never a traceback. `costlib.present.policy.load_policy` reads a whole
file with them; `costlib.present.policy_records` checks the nested records.
"""

from __future__ import annotations

import json
import math

from costlib.core import settings
from costlib.core.errors import DataError
from costlib.core.escaping import display_name
from costlib.loading.messages import q

MAX_BYTES = 1_000_000
MAX_RECORDS = 10_000
MAX_TEXT = 500
MAX_INT_DIGITS = 30


def json_value(x):
    """A group name or setting as plain JSON (numpy scalars to Python)."""
    return x.item() if hasattr(x, "item") and not isinstance(x, (str, bytes)) else x


def is_positive(x) -> bool:
    """A number (not a bool) that is finite and above 0."""
    return not isinstance(x, bool) and isinstance(x, int | float) and math.isfinite(x) and x > 0


NOT_A_POLICY = "This is not a usable costlib policy file: {reason}."
NOT_A_POLICY_NAMED = "The file {name} is not a usable costlib policy file: {reason}."  # an upload's, named


class PolicyFileError(DataError):
    """A policy the reader refuses: the sentence, and its `reason` alone (what the writer says)."""

    def __init__(self, reason: str):
        super().__init__(NOT_A_POLICY.format(reason=reason))
        self.reason = reason

    def named(self, filename: str) -> str:
        """The sentence naming the uploaded file `filename`, as every upload's refusal does.

        >>> PolicyFileError("it is not JSON").named("p.json")
        'The file "p.json" is not a usable costlib policy file: it is not JSON.'
        """
        return NOT_A_POLICY_NAMED.format(name=q(display_name(filename), 80), reason=self.reason)


def short_repr(value) -> str:
    """`value` as the sentence quotes it: its repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _no_constant(name: str):
    raise ValueError(f"the JSON constant {name} is not allowed")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"a whole number of {len(text)} digits is too long")
    return int(text)


def parse_text(text: str | bytes):
    """The JSON value of a policy's text or bytes (UTF-8, a BOM allowed), or a `PolicyFileError`
    for text over `MAX_BYTES`, not UTF-8, not JSON, nested too deeply, with a JSON constant
    (NaN, Infinity) or a whole number of more than `MAX_INT_DIGITS` digits."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_BYTES:
            raise PolicyFileError(f"it is {len(text):,} bytes, more than the {MAX_BYTES:,} a policy may have")
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise PolicyFileError("it is not UTF-8 text") from None
    if not isinstance(text, str):
        raise PolicyFileError(f"expected text, got {type(text).__name__}")
    if len(text) > MAX_BYTES:
        raise PolicyFileError(f"it is {len(text):,} characters, more than the {MAX_BYTES:,} a policy may have")
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise PolicyFileError(f"it is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise PolicyFileError("it is not JSON a policy can hold: it is nested too deeply") from None
    except ValueError as exc:
        raise PolicyFileError(f"it is not JSON a policy can hold: {exc}") from None


INF_TEXTS = ' (or the text "inf" to flag nobody, "-inf" to flag everyone)'


def read_number(value, where: str, *, allow_inf: bool = False, bound: settings.Bound | None = None) -> float:
    """A number field of a policy (`where` names it in the sentence): finite, within `bound`
    (`settings.check`'s rule: its range, and 0 or at least its smallest size), or the text
    ``"inf"`` / ``"-inf"`` when `allow_inf`; DataError otherwise.

    A number that is not finite is refused however it came: JSON reads ``1e400`` as infinity,
    and only the explicit texts mean "flag nobody" or "flag everyone".
    """
    if allow_inf and value in ("inf", "-inf"):
        return math.inf if value == "inf" else -math.inf
    texts = INF_TEXTS if allow_inf else ""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PolicyFileError(f"{where} must be a number{texts}, got {short_repr(value)}")
    x = float(value)
    if not math.isfinite(x):
        raise PolicyFileError(
            f"{where} must be a finite number{texts}, got {short_repr(value)} (a number too large, or not one)"
        )
    if bound is not None and settings.check(bound, x)[1] is not None:  # one home of a setting's bounds
        smallest = f", and 0 or at least {bound.smallest:.12f}".rstrip("0") + " in size" if bound.smallest else ""
        raise PolicyFileError(
            f"{where} must be from {bound.low:g} to {bound.high:g}{smallest}, got {short_repr(value)}"
        )
    return x


def group_name(g) -> str | None:
    """A policy's group as the text cases are matched by: the loader's rule for a cell
    (`costlib.loading.cells.canon`: 1, 1.0 and "1" are "1"; True is "True"), so that a group
    the loader wrote is met whatever the type of the column it is matched against later."""
    from costlib.loading.cells import canon

    return canon(json_value(g))


def record_group(record: dict, where: str):
    g = record.get("group")
    if isinstance(g, float) and not math.isfinite(g) or g is not None and not isinstance(g, (str, int, float, bool)):
        raise PolicyFileError(f"{where} has a group that is not a name: {short_repr(g)}")
    if isinstance(g, str) and len(g) > MAX_TEXT:  # refused, never cut: a cut name could become another's
        raise PolicyFileError(f"{where} has a group name of {len(g):,} characters (at most {MAX_TEXT})")
    if isinstance(g, str) and group_name(g) is None:
        raise PolicyFileError(f"{where} has a group whose name is empty")
    return writable_text(g, f"{where}'s group") if isinstance(g, str) else g


def unique_group(g, records: dict, seen: set, where: str):
    """`g`, or DataError when the group is met a second time: a key of `records` already (JSON's 1
    and true are one key here) or a name in `seen` (the names so far, as text, by `group_name`:
    "1", 1 and 1.0). Two records for one group would leave the last one silently in force. `g`'s
    name joins `seen`."""
    name = group_name(g) if g is not None else None
    if g in records or (name is not None and name in seen) or str(g) in seen:
        raise PolicyFileError(
            f'{where} lists the group {q(g)} a second time (groups are matched as text: 1, 1.0 and "1" are one '
            "group): give each group one record"
        )
    seen.update({str(g)} | ({name} if name is not None else set()))
    return g


def policy_group(g, seen: set, where: str) -> str:
    """A policy's group `g` (from a record or a mapping's key) checked as a policy file's are
    (`record_group`: a name of at most `MAX_TEXT` characters, never cut; `unique_group`: met once, `seen`
    holding the names so far) and returned as the text cases are matched by (`group_name`).
    The one check of a group name for the file, the short form and the price questions."""
    return group_name(unique_group(record_group({"group": json_value(g)}, where), {}, seen, where))


def group_records(policy: dict, key: str) -> list:
    """The list of records ``policy[key]``, each with a "group": at most `MAX_RECORDS` of them."""
    items = policy.get(key)
    if not isinstance(items, list) or not all(isinstance(r, dict) and "group" in r for r in items):
        raise PolicyFileError(f'"{key}" must be a list of records with a "group" field')
    if len(items) > MAX_RECORDS:
        raise PolicyFileError(f'"{key}" has {len(items):,} records, more than {MAX_RECORDS:,}')
    return items


def text_field(policy: dict, key: str, default: str = "") -> str:
    """The text field ``policy[key]`` (`default` when absent or null), checked by `writable_text`."""
    value = policy.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str) or len(value) > MAX_TEXT * 20:
        raise PolicyFileError(f'"{key}" must be text, got {short_repr(value)}')
    return writable_text(value, f'"{key}"')


def writable_text(text: str, where: str) -> str:
    """`text`, or DataError when it holds a lone surrogate (JSON's "\\ud800"): no page, report or
    terminal can write it as UTF-8."""
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        raise PolicyFileError(f"{where} holds a character that is not one (a lone surrogate)")
    return text
