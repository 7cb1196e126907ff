"""Numbers as the JSON records write them (the decision summary, the audit's capacity record,
disparities, Watch's periods): one rule for every record, so that no record writes NaN or an
infinity that `json.dumps(..., allow_nan=False)` would refuse, and no float noise.
"""

from __future__ import annotations

import math


def json_number(x: float | None):
    """A cost, share or ratio for JSON: None when missing or not finite, else rounded to 12
    significant digits (no float noise, and no -0.0).

    >>> json_number(0.1 + 0.2), json_number(float("nan")), json_number(-0.0), json_number(None)
    (0.3, None, 0.0, None)
    """
    return None if x is None or not math.isfinite(x) else float(f"{float(x):.12g}") + 0.0


def json_cut(t: float | None):
    """A cutoff for JSON, written exactly: None when missing, NaN or +inf (nobody is flagged).

    >>> json_cut(0.1 + 0.2), json_cut(float("inf")), json_cut(None)
    (0.30000000000000004, None, None)
    """
    return None if t is None or math.isnan(t) or t == math.inf else float(t)
