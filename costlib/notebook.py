"""`audit`: the whole audit of a table of predictions in one call, for a notebook or a script.

It is what the Costs page and ``costlib audit`` compute (`costlib.answers.audit.build_audit` on
the sweeps of the rows `costlib.loading.prepare` read and checked), returned as the `Audit`
record, which shows its verdict and rules table in a notebook and gives its charts with
``.figure()``. Everything is imported when it is called: ``import costlib`` stays light.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import pandas as pd


def audit(
    data,
    *,
    label: str,
    score: str | Sequence[str],
    c_fp: float | None = None,
    c_fn: float | None = None,
    costs: Mapping | None = None,
    group: str | Sequence[str] | None = None,
    split: str | None = None,
    positive=None,
    scale: str = "probability",
    unit: str = "",
    volume: float | None = None,
    max_flagged: float | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    model_id: str | None = None,
    model_file: str | os.PathLike | None = None,
):
    """The audit of a table of predictions, for a notebook or a script: what the Costs page and
    ``costlib audit`` compute, as one `Audit` (it shows its verdict and rules table in a
    notebook, and ``.figure()`` gives its charts).

    Parameters
    ----------
    data : pandas.DataFrame, str or os.PathLike
        The rows, or a CSV or Parquet file of them (read with the upload's checks).
    label, score : str
        The label column and the score column (a list of them to compare models).
    c_fp, c_fn : float
        The prices of a false positive and a false negative, for everybody.
    costs : {group: (c_fp, c_fn)}, optional
        Prices per group instead (every group of `group`).
    group, split, positive, scale : optional
        The group column, the split column (train / test per row), the label value that means
        positive, and how to read the scores (``"probability"``, ``"logit"`` or ``"raw"``).
        A list of group columns audits their intersections (``group=["race", "sex"]``: the groups
        are "African-American × Male" and so on, `costs` is keyed by them) and reports the
        disparities of each column alone too (``Audit.column_disparities``).
    unit, volume : optional
        The prices' unit and the cases a month (for the monthly figures).
    max_flagged : float, optional
        A review limit: the largest share of the cases that may be flagged (0 to 1); the answer
        is then the one within it, and ``.figure("capacity")`` shows what more capacity saves.
    n_resamples, seed : the bootstrap of the intervals
    model_id, model_file : optional
        Which model made the scores: an identity (a registry name, a version, a run id) and
        its saved file, whose sha256 is recorded (the file is hashed, never loaded); the
        record, its report and its policy name them beside the score column.

    Returns
    -------
    Audit

    Raises
    ------
    DataError
        With a sentence for a problem with the data (a missing column, labels that are not
        two values, scores that are not numbers, ...).
    """
    from costlib import loading
    from costlib.answers.audit import build_audit, data_columns, dataset_models
    from costlib.core.dataset import ColumnMapping
    from costlib.present.identity import model_identity

    identity = model_identity(model_id=model_id, model_file=model_file)  # refused before the work
    scores = (score,) if isinstance(score, str) else tuple(dict.fromkeys(score))
    if isinstance(data, (str, os.PathLike)):
        raw, name = loading.read_path(data)
        df, fp = loading.read_table(raw, name), loading.fingerprint(raw)
    else:
        df, name, fp = pd.DataFrame(data), "the table", ""
    mapping = ColumnMapping(label=label, positive=positive, scores=scores, score_scale=scale, group=group, split=split)
    ds = loading.prepare(df, mapping, name=name, fingerprint=fp)
    models = dataset_models(ds, scores)
    names = list(next(iter(models.values())).groups)
    if costs is None:
        if c_fp is None or c_fn is None:
            raise ValueError("give the prices: c_fp and c_fn, or costs={group: (c_fp, c_fn)}")
        costs = {g: (c_fp, c_fn) for g in names}
    return build_audit(
        models,
        costs,
        unit=unit,
        volume=volume,
        n_resamples=n_resamples,
        seed=seed,
        data_name=name,
        fingerprint=fp,
        n_rows=ds.n_rows,
        data_notes=ds.notes,
        columns=data_columns(mapping, scale=scale),
        capacity=max_flagged,
        model_identity=identity,
        group_parts=ds.group_parts,
    )
