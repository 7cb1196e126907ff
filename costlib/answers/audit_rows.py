"""How many rows an audit fitted and judged (`row_counts`, `rows_in`), and which of a split's
rows they were (`fitted_roles`): what `answers.audit.Audit` records of its rows."""

from __future__ import annotations

import numpy as np

from costlib.binary.model_sweeps import ModelSweeps
from costlib.binary.weighted_rows import rows_of


def row_counts(ms: ModelSweeps, purpose: str = "judge") -> dict | None:
    """{group: rows} of the fitting ("fit") or judged ("judge") rows of `ms`, one a row whatever its
    weight (the cases it stands for, which the sweeps sum); None for weighted sweeps without their
    rows (`weighted_rows.rows_of`: an aggregate file, a table read where it lies).

    >>> from costlib.binary.model_sweeps import sweep_model
    >>> ms = sweep_model([0, 1, 1, 0], [0.2, 0.4, 0.9, 0.7], sample_weight=[1, 2.5, 3, 0])
    >>> row_counts(ms), ms.judge_pooled.total
    ({'everyone': 4}, 6.5)
    """
    if not ms.weighted:
        grouped = ms.fit if purpose == "fit" else ms.judge
        return {g: int(round(grouped[g].total)) for g in ms.groups}
    rows = rows_of(ms)
    if rows is None:
        return None
    mask = rows.fit if purpose == "fit" else rows.judge
    counts = np.bincount(rows.codes if mask is None else rows.codes[mask], minlength=len(ms.groups))
    return {g: int(k) for g, k in zip(ms.groups, counts, strict=True)}


def rows_in(ms: ModelSweeps) -> int:
    """The rows fitted and judged on (`row_counts`; the cases by weight where only those are known)."""
    parts = [row_counts(ms, p) for p in ("fit", "judge")[: 1 + (ms.judged_on == "test")]]
    if None in parts:
        return round(ms.fit_pooled.total + (ms.judge_pooled.total if ms.judged_on == "test" else 0))
    return sum(sum(p.values()) for p in parts)


def fitted_roles(rec) -> tuple[str | None, str | None]:
    """(fit, judge): the split roles a recommendation `rec` with a split column was fitted and
    judged on, as its record names them (``data.train``, ``data.test``): the train rows, or the
    validation rows of a split without train rows (``fit_role``), and the test rows; (None, None)
    where both are every row (a split without test rows, or of test rows only: `Dataset.purpose_rows`).

    >>> from types import SimpleNamespace as R
    >>> fitted_roles(R(judged_on="test", fit_role="validation")), fitted_roles(R(judged_on="all", fit_role="train"))
    (('validation', 'test'), (None, None))
    """
    return (rec.fit_role, "test") if rec.judged_on == "test" else (None, None)
