"""Checks at the public boundary, in one place.

Every public costlib function turns its array arguments into numpy arrays here. Illegal
input raises ValueError whose message names the argument and shows the offending value;
the message templates are module constants so that tests match on them.
"""

from __future__ import annotations

import re
import warnings

import numpy as np

#: text that reads as one plain number (the loader parses it as one; a CSV cell like it is no formula)
NUMBER_RE = re.compile(
    r"^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$|^\s*[-+]?(?:inf|infinity|nan)\s*$",
    re.IGNORECASE,
)

MSG_LENGTH = "{a} and {b} must have the same length: got {na} and {nb}"
MSG_NDIM = "{name} must be 1-D: got an array of shape {shape}"
MSG_NOT_NUMERIC = "{name} must contain numbers: got dtype {dtype} (first value {first!r})"
MSG_NONFINITE = (
    "{name} has {count} values that are not finite (NaN or infinite): first at index {index}, value {value!r}"
)
MSG_PROBABILITY = "{name} has values outside [0, 1]: min {lo!r}, max {hi!r}"
MSG_BINARY = "{name} must be binary (0/1 or True/False): found {values}"
MSG_NEGATIVE = "{name} must be non-negative: got {value!r}"
MSG_NOT_FINITE_PRICE = "{name} must be a finite number: got {value!r}"
MSG_NEGATIVE_WEIGHT = (
    "{name} must be non-negative: found {count} negative values, first at index {index}, value {value!r}"
)
MSG_CLASS_INDEX = "{name} must hold class indices 0..{kmax}: found {values}"
MSG_SHAPE_2D = "{name} must be 1-D (probability of class 1) or 2-D (n, K) with K >= 2: got shape {shape}"
MSG_MATRIX = "{name} must be a square K x K matrix matching {other} (K = {k}): got shape {shape}"
MSG_MISSING_GROUP = "{name} has no entry for group {group!r} (groups present: {present})"
MSG_TEMPERATURE = "temperature must be a positive finite number: got {value!r}"
MSG_THRESHOLD = "{name} must be a number or inf: got {value!r}"
MSG_RULE = "rule must be one of {valid}: got {value!r}"
MSG_RATE = "rate must be one of {valid}: got {value!r}"


class DegenerateWarning(UserWarning):
    """Legal input whose answer is undefined (a NaN is returned instead)."""


def warn_degenerate(message: str) -> None:
    warnings.warn(message, DegenerateWarning, stacklevel=3)


def _show(values: np.ndarray, limit: int = 5) -> str:
    shown = [v.item() if hasattr(v, "item") else v for v in values[:limit]]
    more = "" if len(values) <= limit else f" and {len(values) - limit} more"
    return f"{shown}{more}"


def as_float_1d(x, name: str, *, allow_empty: bool = True) -> np.ndarray:
    """1-D float64 array of finite numbers (lists, arrays and Series alike)."""
    arr = np.asarray(x)
    if arr.ndim != 1:
        raise ValueError(MSG_NDIM.format(name=name, shape=arr.shape))
    if arr.dtype.kind not in "biuf":
        first = arr[0] if arr.size else None
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError(MSG_NOT_NUMERIC.format(name=name, dtype=arr.dtype, first=first)) from None
    arr = np.asarray(arr, dtype=np.float64)
    finite = np.isfinite(arr)
    if not finite.all():
        bad = np.flatnonzero(~finite)
        raise ValueError(MSG_NONFINITE.format(name=name, count=bad.size, index=int(bad[0]), value=arr[bad[0]].item()))
    return arr


def as_probability(x, name: str) -> np.ndarray:
    """1-D or 2-D float64 array with every value in [0, 1]."""
    arr = np.asarray(x)
    if arr.ndim == 1:
        arr = as_float_1d(arr, name)
    elif arr.ndim == 2 and arr.shape[1] >= 2:
        arr = np.asarray(arr, dtype=np.float64)
        if not np.isfinite(arr).all():
            bad = np.argwhere(~np.isfinite(arr))[0]
            raise ValueError(
                MSG_NONFINITE.format(
                    name=name,
                    count=int((~np.isfinite(arr)).sum()),
                    index=tuple(bad.tolist()),
                    value=arr[tuple(bad)].item(),
                )
            )
    else:
        raise ValueError(MSG_SHAPE_2D.format(name=name, shape=arr.shape))
    if arr.size and (arr.min() < 0 or arr.max() > 1):
        raise ValueError(MSG_PROBABILITY.format(name=name, lo=arr.min().item(), hi=arr.max().item()))
    return arr


def as_binary(y, name: str = "y_true") -> np.ndarray:
    """Boolean array from 0/1 or True/False labels; anything else is a ValueError."""
    arr = np.asarray(y)
    if arr.ndim != 1:
        raise ValueError(MSG_NDIM.format(name=name, shape=arr.shape))
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind in "iuf":
        is_one = arr == 1
        ok = is_one | (arr == 0)
        if not ok.all():
            bad = np.unique(arr[~ok])
            raise ValueError(MSG_BINARY.format(name=name, values=_show(bad)))
        return is_one
    values = np.unique(arr.astype(str))
    raise ValueError(MSG_BINARY.format(name=name, values=_show(values)))


def as_class_index(y, name: str, n_classes: int) -> np.ndarray:
    arr = np.asarray(y)
    if arr.ndim != 1:
        raise ValueError(MSG_NDIM.format(name=name, shape=arr.shape))
    if arr.dtype == bool:
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iuf":
        shown = _show(np.unique(arr.astype(str)))
        raise ValueError(MSG_CLASS_INDEX.format(name=name, kmax=n_classes - 1, values=shown))
    ok = (arr >= 0) & (arr < n_classes) & (arr == np.round(arr))
    if not ok.all():
        raise ValueError(MSG_CLASS_INDEX.format(name=name, kmax=n_classes - 1, values=_show(np.unique(arr[~ok]))))
    return arr.astype(np.int64)


def same_length(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    if len(a) != len(b):
        raise ValueError(MSG_LENGTH.format(a=name_a, b=name_b, na=len(a), nb=len(b)))


def as_weight(w, name: str, n: int, other: str = "y_true") -> np.ndarray | None:
    if w is None:
        return None
    arr = as_float_1d(w, name)
    if len(arr) != n:
        raise ValueError(MSG_LENGTH.format(a=other, b=name, na=n, nb=len(arr)))
    neg = arr < 0
    if neg.any():
        bad = np.flatnonzero(neg)
        raise ValueError(
            MSG_NEGATIVE_WEIGHT.format(name=name, count=bad.size, index=int(bad[0]), value=arr[bad[0]].item())
        )
    return arr


MSG_RANDOM_STATE = "random_state must be None or a non-negative whole number: got {value!r}"


def is_whole(x) -> bool:
    """True for an integer (Python or numpy), False for a bool or anything else.

    >>> is_whole(3), is_whole(np.int64(3)), is_whole(True), is_whole(3.0)
    (True, True, False, False)
    """
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def as_random_state(random_state) -> int:
    """A non-negative whole-number seed; None draws one from the operating system's entropy."""
    if random_state is None:
        return int(np.random.SeedSequence().generate_state(1)[0])
    if not is_whole(random_state) or random_state < 0:
        raise ValueError(MSG_RANDOM_STATE.format(value=random_state))
    return int(random_state)


PRICE_LIMIT = 1e100  # prices times counts of up to 1e200 cases stay finite


def as_price(value, name: str, *, allow_negative: bool = False) -> float:
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise ValueError(MSG_NOT_FINITE_PRICE.format(name=name, value=value)) from None
    if not np.isfinite(out):
        raise ValueError(MSG_NOT_FINITE_PRICE.format(name=name, value=value))
    if out < 0 and not allow_negative:
        raise ValueError(MSG_NEGATIVE.format(name=name, value=value))
    if abs(out) > PRICE_LIMIT:
        raise ValueError(
            f"{name} must be at most {PRICE_LIMIT:g} in size (a total of such prices over many cases would "
            f"overflow): got {value!r}; a price only matters relative to the others, so scale them down"
        )
    return out


MSG_SHARE = "{name} must be a share of the cases in [0, 1]: got {value!r}"


def as_share(value, name: str) -> float:
    """A share of the cases, a number in [0, 1]: a capacity (flagged, `costlib.binary.capacity`)
    or a reject rate (handed over, `costlib.value`)."""
    try:
        out = float(value)
    except (TypeError, ValueError, OverflowError):
        out = float("nan")
    if isinstance(value, bool) or not (0.0 <= out <= 1.0):  # also refuses NaN
        raise ValueError(MSG_SHARE.format(name=name, value=value))
    return out


def as_threshold(value, name: str) -> float:
    """A cutoff: any real number or +-inf, never NaN."""
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise ValueError(MSG_THRESHOLD.format(name=name, value=value)) from None
    if np.isnan(out):
        raise ValueError(MSG_THRESHOLD.format(name=name, value=value))
    return out


def binary_pair(y_true, y_score, *, score_name: str = "y_score", probability: bool = False):
    """Validated (labels as bool, scores as float64) of equal length."""
    y = as_binary(y_true, "y_true")
    s = as_probability(y_score, score_name) if probability else as_float_1d(y_score, score_name)
    if s.ndim != 1:
        raise ValueError(MSG_NDIM.format(name=score_name, shape=s.shape))
    same_length(y, s, "y_true", score_name)
    return y, s


def safe_divide(num, den):
    """num / den with NaN where den is 0 (no warning from numpy)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    return out if out.ndim else float(out)
