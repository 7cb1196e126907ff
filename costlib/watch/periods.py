"""The shipped cutoff per calendar period, beside each period's own best: what it costs now.

Each period's rows are swept once (`costlib.core.sweep`): the cost at the shipped cutoff is read
off the sweep, and the period's own cost-optimal cutoff is the sweep's optimum under the one tie
rule, so the regret (shipped minus best) is never below zero. A period's own best is fitted on
that period, so its regret flatters how much a refit would save; whether a regret is beyond the
noise is judged elsewhere, with intervals that repeat that fit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from costlib.core import validation as v
from costlib.core.escaping import shorten
from costlib.core.sweep import grouped_sweep, threshold_sweep

FREQS = {"M": "month", "W": "week", "D": "day"}


#: the most periods one watch judges (ten years of months, two years of weeks, four months of days):
#: each period is resampled a thousand times, and 10,000 periods took a minute or two for one answer
MAX_PERIODS = 120

NOT_A_DATE, AMBIGUOUS, MISSING = "not a date", "ambiguous", "missing"
MIXED_ORDER, MIXED_ORDER_MONTH = "day first among month first", "month first among day first"
#: the sentences of a date column that cannot be read (``{where}``: "row 5" or "index 3")
DATE_SENTENCES = {
    NOT_A_DATE: "{where} holds {value}, which is not a date: write dates as YYYY-MM-DD (a time and a UTC offset "
    "may follow, as in 2026-03-04 09:30+01:00)",
    AMBIGUOUS: "the day and the month of its dates can be swapped ({where} holds {value}, and no date has a day "
    "or a month above 12 to tell which comes first): write dates as YYYY-MM-DD",
    MIXED_ORDER: "{where} holds {value} (day first) but other rows put the month first: write dates as YYYY-MM-DD",
    MIXED_ORDER_MONTH: "{where} holds {value} (month first) but other rows put the day first: write dates as "
    "YYYY-MM-DD",
    MISSING: "{where} has no date: every case needs one",
}
NUMBERS = "times must be dates (such as 2026-01-31), not numbers"
#: a date with the day and the month before a four-digit year: 03/04/2026, 3.4.2026, 03-04-2026 09:30
_DMY = re.compile(r"^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})(.*)$")


class DateError(ValueError):
    """A date column that cannot be read: `kind` (a key of `DATE_SENTENCES`), the position of
    the first row at fault (`index`, from 0) and what it holds."""

    def __init__(self, kind: str, index: int, value: str):
        self.kind, self.index, self.value = kind, int(index), value
        super().__init__(self.sentence(f"times[{self.index}]"))

    def sentence(self, where: str) -> str:
        """The sentence, with the row named as `where` ("row 5")."""
        return DATE_SENTENCES[self.kind].format(where=where, value=repr(shorten(self.value)))


def read_dates(times) -> pd.Series:
    """`times` as timestamps, by one rule, the same for every row.

    A date is read in ISO 8601 (2026-03-04, with a time and a UTC offset if any) or with the
    day and the month before a four-digit year (04/03/2026): which of the two comes first is
    proved by the rows, where some day is above 12 (day first) or some month is (month first),
    and refused when no row tells them apart. A stamp with a UTC offset is read in UTC, one
    without as it is (as UTC), so a change of the clocks moves no case to another period.
    Dates and timestamps are taken as they are (in UTC when they carry a time zone).

    Returns
    -------
    pandas.Series
        Time-zone-free timestamps (UTC where an offset was given), one per entry.

    Raises
    ------
    DateError
        At the first entry that is missing or not a date, or when day and month cannot be told
        apart (`DATE_SENTENCES`).

    Examples
    --------
    >>> read_dates(["2026-03-29T01:30+00:00", "2026-03-29T03:30+02:00", "31/03/2026"]).astype(str).tolist()
    ['2026-03-29 01:30:00', '2026-03-29 01:30:00', '2026-03-31 00:00:00']
    """
    if isinstance(times, pd.Series) and isinstance(times.dtype, pd.DatetimeTZDtype):  # a zoned column: in UTC
        out = times.dt.tz_convert("UTC").dt.tz_localize(None).reset_index(drop=True)
        _no_missing(out, out)
        return out
    values = np.asarray(times) if not isinstance(times, pd.Series) else times.to_numpy()
    if values.dtype.kind in "biuf":  # numbers would be read as nanoseconds since 1970
        raise ValueError(NUMBERS)
    if values.dtype.kind == "M":
        out = pd.Series(pd.to_datetime(values))
        _no_missing(out, values)
        return out
    if pd.api.types.infer_dtype(values, skipna=True) in ("datetime", "datetime64", "date"):
        out = pd.Series(pd.to_datetime(values, utc=True)).dt.tz_localize(None)  # timestamps (any zones): in UTC
        _no_missing(out, values)
        return out
    # each distinct cell is read once (a column of days holds a few hundred); factorize numbers the
    # cells in the order they first appear, so the first bad distinct cell is at the first bad row
    codes, uniques = pd.factorize(pd.Series(values, dtype=object))
    text = pd.Series(uniques, dtype=object).map(_as_text)
    empty = np.append((text.str.len() == 0).to_numpy(dtype=bool), True)  # the last: code -1, a missing cell
    _no_missing(pd.Series(np.where(empty[codes], np.nan, 0.0)), values)

    def row(k: int) -> int:  # the first row of the distinct cell k
        return int(np.argmax(codes == k))

    stamps = pd.to_datetime(text, format="ISO8601", utc=True, errors="coerce")
    rest = np.flatnonzero(stamps.isna().to_numpy())
    if rest.size:
        parts = text.iloc[rest].str.extract(_DMY)
        bad = np.flatnonzero(parts[0].isna().to_numpy())
        if bad.size:
            raise DateError(NOT_A_DATE, row(rest[bad[0]]), str(uniques[rest[bad[0]]]))
        first, second = parts[0].astype(int).to_numpy(), parts[2].astype(int).to_numpy()
        day_first, month_first = np.flatnonzero(first > 12), np.flatnonzero(second > 12)
        if day_first.size and month_first.size:
            k = rest[min(day_first[0], month_first[0])]
            kind = MIXED_ORDER if day_first[0] < month_first[0] else MIXED_ORDER_MONTH
            raise DateError(kind, row(k), str(uniques[k]))
        if not day_first.size and not month_first.size:
            raise DateError(AMBIGUOUS, row(rest[0]), str(uniques[rest[0]]))
        day, month = (parts[0], parts[2]) if day_first.size else (parts[2], parts[0])
        iso = parts[3] + "-" + month.str.zfill(2) + "-" + day.str.zfill(2) + parts[4]
        moved = pd.to_datetime(iso, format="ISO8601", utc=True, errors="coerce")
        bad = np.flatnonzero(moved.isna().to_numpy())
        if bad.size:
            raise DateError(NOT_A_DATE, row(rest[bad[0]]), str(uniques[rest[bad[0]]]))
        stamps.iloc[rest] = moved.to_numpy()
    return pd.Series(stamps.dt.tz_localize(None).to_numpy()[codes])


def _as_text(x) -> str:
    """One date cell as text: a date or timestamp in ISO 8601 (with its offset), else as written."""
    return x.isoformat() if hasattr(x, "isoformat") else str(x).strip()


def _no_missing(stamps: pd.Series, values) -> None:
    missing = np.flatnonzero(stamps.isna().to_numpy())
    if missing.size:
        raise DateError(MISSING, int(missing[0]), "")


#: the share of a column's first cells that must read as dates for the few others to be its mistakes
MOSTLY_DATES = 0.8


def mostly_dates(cells: pd.Series) -> bool:
    """Whether at least `MOSTLY_DATES` of `cells` (a column's first cells) read as dates, each alone
    (`watch.periods.read_dates`; a date whose day and month cannot be told apart counts): a column of dates with
    a few mistakes ("yesterday" in row 12), taken as the date so that Watch names the row at once.

    >>> mostly_dates(pd.Series(["2026-01-01", "yesterday", "2026-01-03", "2026-01-04", "2026-01-05"]))
    True
    >>> mostly_dates(pd.Series(["north", "south", "2026-01-03"]))
    False
    """

    def a_date(cell) -> bool:
        try:
            read_dates([cell])
        except DateError as err:
            return err.kind not in (NOT_A_DATE, MISSING)
        except ValueError:
            return False
        return True

    cells = cells.dropna()
    return len(cells) > 0 and sum(a_date(c) for c in cells) >= MOSTLY_DATES * len(cells)


def as_periods(times, freq: str, n: int, *, where=None) -> pd.PeriodIndex:
    """`times` (dates, date strings or timestamps, read by `read_dates`) as calendar periods of
    `freq` ("M", "W" or "D"). A date that cannot be read raises ValueError naming its row:
    `where(i)` names the row at position `i` (default "times[i]")."""
    if freq not in FREQS:
        raise ValueError(f"freq must be one of {list(FREQS)} (month, week, day): got {freq!r}")
    try:
        stamps = read_dates(times)
    except DateError as err:
        raise ValueError(err.sentence(where(err.index) if where else f"times[{err.index}]")) from None
    if len(stamps) != n:
        raise ValueError(f"times has {len(stamps)} entries but y_true has {n}")
    return pd.PeriodIndex(stamps, freq=freq)


def too_many_periods(count: int, freq: str, *, name: str, column: str) -> str | None:
    """The sentence refusing `count` periods of `freq` above `MAX_PERIODS` in the file `name`'s
    date column `column` (None within the bound)."""
    if count <= MAX_PERIODS:
        return None
    coarser = {"D": " (weeks or months instead of days)", "W": " (months instead of weeks)"}.get(freq, "")
    return MSG_TOO_MANY_PERIODS.format(
        name=name, column=column, count=f"{count:,}", word=FREQS[freq], limit=MAX_PERIODS, coarser=coarser
    )


def period_counts(times) -> dict[str, int]:
    """How many periods of each of `FREQS` the dates `times` span with cases (read by
    `read_dates`), for offering only the periods a watch can judge (`MAX_PERIODS`); {} when a date
    cannot be read (the watch itself then says which row, and why).

    >>> period_counts(["2026-01-01", "2026-01-02", "2026-03-01"])
    {'M': 2, 'W': 2, 'D': 3}
    """
    try:
        stamps = read_dates(times)
    except DateError:
        return {}
    return {freq: int(pd.PeriodIndex(stamps, freq=freq).nunique()) for freq in FREQS}


MSG_TOO_MANY_PERIODS = (
    'In "{name}", column "{column}", the dates span {count} {word}s with cases, and Watch judges at most {limit} '
    "periods at once: choose a coarser period{coarser} or give a shorter span of dates."
)


def cost_by_period(
    y_true, y_score, times, *, c_fp, c_fn, cutoff, freq="M", sample_weight=None, groups=None
) -> pd.DataFrame:
    """Per calendar period: the cost of the shipped cutoff, the period's own best cutoff and
    cost, and the regret (the difference, never below zero).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Binary labels and finite scores; flag iff score >= the cutoff.
    times : array-like of shape (n,)
        When each case was decided (dates, date strings or timestamps).
    c_fp, c_fn : float
        Prices of a false positive and a false negative; finite, >= 0.
    cutoff : float or Mapping
        The shipped cutoff, or ``{group: cutoff}`` with `groups`.
    freq : {"M", "W", "D"}
        Calendar months, weeks or days.
    sample_weight : array-like of shape (n,), optional
        Non-negative case weights.
    groups : array-like of shape (n,), optional
        Group of each case, for per-group cutoffs (`cutoff` a mapping); the period's best is then
        the best cutoff of each group, so that the regret stays at or above zero.

    Returns
    -------
    pandas.DataFrame
        One row per period with cases, in time order: ``period, n, cost_per_case,
        best_threshold, best_cost_per_case, regret_per_case`` (``best_threshold`` is a
        ``{group: cutoff}`` mapping with `groups`). A period with one class has NaN best
        (with a warning).

    Examples
    --------
    >>> t = ["2026-01-05", "2026-01-20", "2026-01-30", "2026-02-02", "2026-02-10", "2026-02-20"]
    >>> out = cost_by_period([0, 1, 1, 0, 0, 1], [0.2, 0.7, 0.4, 0.6, 0.3, 0.8], t, c_fp=1, c_fn=2, cutoff=0.5)
    >>> out[["period", "cost_per_case", "best_threshold", "regret_per_case"]].round(3)
        period  cost_per_case  best_threshold  regret_per_case
    0  2026-01          0.667             0.4            0.667
    1  2026-02          0.333             0.8            0.333
    """
    y, s = v.binary_pair(y_true, y_score)
    c_fp = v.as_price(c_fp, "c_fp")
    c_fn = v.as_price(c_fn, "c_fn")
    w = v.as_weight(sample_weight, "sample_weight", len(y))
    periods = as_periods(times, freq, len(y))
    per_group = groups is not None
    if per_group and not isinstance(cutoff, Mapping):
        raise ValueError("with groups, cutoff must map each group to its cutoff")
    if not per_group:
        if isinstance(cutoff, Mapping):
            raise ValueError("cutoff is a mapping of groups: give groups= too")
        cutoff = v.as_threshold(cutoff, "cutoff")
    g = None if not per_group else np.asarray(groups, dtype=object)
    if g is not None and g.shape != y.shape:
        raise ValueError(f"groups has {g.size} entries but y_true has {y.size}")
    codes, uniques = pd.factorize(periods, sort=True)
    rows = []
    for k, period in enumerate(uniques):
        sel = codes == k
        ws = None if w is None else w[sel]
        if not per_group:
            sw = threshold_sweep(y[sel], s[sel], sample_weight=ws)
            if sw.total <= 0:
                continue
            cost = sw.cost(c_fp, c_fn)
            shipped = float(cost[sw.index_at(cutoff)])
            j = sw.best(c_fp, c_fn)
            best_t, best = (float(sw.thresholds[j]), float(cost[j])) if j >= 0 else (np.nan, np.nan)
        else:
            gs = grouped_sweep(y[sel], s[sel], g[sel], sample_weight=ws)
            total = float(gs.positives.sum() + gs.negatives.sum())
            if total <= 0:
                continue
            missing = [name for name in gs.groups if name not in cutoff]
            if missing:
                raise ValueError(f"cutoff has no entry for group {missing[0]!r}")
            spent = best_sum = 0.0
            best_t = {}
            for name in gs.groups:
                sw = gs[name]
                errors = sw.errors_cost(c_fp, c_fn)
                spent += float(errors[sw.index_at(v.as_threshold(cutoff[name], f"cutoff[{name!r}]"))])
                j = sw.best(c_fp, c_fn) if sw.positives > 0 and sw.negatives > 0 else int(np.argmin(errors))
                best_t[name] = float(sw.thresholds[j])
                best_sum += float(errors[j])
            shipped, best = spent / total, best_sum / total
        rows.append((str(period), float(np.sum(ws)) if ws is not None else int(sel.sum()), shipped, best_t, best))
    out = pd.DataFrame(rows, columns=["period", "n", "cost_per_case", "best_threshold", "best_cost_per_case"])
    out["regret_per_case"] = np.maximum(0.0, out["cost_per_case"] - out["best_cost_per_case"])
    return out
