"""The answer of the Watch page: a policy and newer cases in, the periods and one answer out."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from costlib.present import figures
from costlib.present.watch_words import watch_table, watch_verdict

#: the columns of the built-in sample (`costlib.watch.sample.watch_year`)
SAMPLE_COLUMNS = {"time": "decided", "score": "score", "label": "outcome", "group": None}
NO_COLUMN = "(none)"
POLICY_LABEL = "Policy file (JSON) from Costs & groups or audit --policy"
CASES_LABEL = "Newer cases (CSV or Parquet) with a date column"
SAMPLE_NOTE = (
    "Showing the built-in sample: {title}. Upload a policy and a file of newer cases to watch your own cutoff."
)


@dataclass(frozen=True)
class WatchAnswer:
    report: dict
    verdict: object
    table: pd.DataFrame
    figure: object


def sample_inputs(seed: int = 7) -> tuple[dict, pd.DataFrame]:
    """The built-in sample's shipped policy and year of cases."""
    from costlib.watch.sample import shipped_policy, watch_year

    return shipped_policy(seed), watch_year(seed)


def read_policy(data: bytes) -> dict:
    """An uploaded policy file, checked (`present.policy.load_policy`: a sentence on bad input)."""
    from costlib.present.policy import load_policy

    return load_policy(data)


def read_cases(data: bytes, name: str) -> pd.DataFrame:
    """An uploaded file of newer cases (CSV or Parquet, read with the upload checks)."""
    from costlib import loading

    return loading.read_table(data, name)


def policy_unit(policy: dict, unit: str) -> str:
    """The unit amounts are said in: the policy's (its prices are in it), else the page's."""
    return policy.get("unit") or unit


def watch_answer(
    policy: dict, df: pd.DataFrame, *, name: str, columns: dict, freq: str, n_resamples: int, unit: str, volume: float
) -> WatchAnswer:
    """The Watch page's answer (`costlib.watch.report.watch_report`, its verdict, table and chart)."""
    from costlib.watch.report import watch_report

    report = watch_report(policy, df, name=name, freq=freq, n_resamples=n_resamples, **columns)
    unit = policy_unit(policy, unit)
    per_month = policy.get("volume") or volume  # as the command line says it
    return WatchAnswer(
        report,
        watch_verdict(report, unit=unit, volume=per_month),
        watch_table(report, unit),
        figures.watch_figure(report, unit=unit),
    )


REFIT_MONTHS = 3  # the refit is fitted on the latest periods with outcomes
REFIT_BUTTON = "Refit on the latest months with outcomes"
REFIT_WHAT = (
    "Fits the cutoff again at the policy's prices on the latest three periods whose outcomes are known, judges it "
    "as Costs & groups does (honest estimate and verdict), and gives its policy file to ship or to restore on "
    "Costs & groups."
)


def refit_on_recent(policy: dict, df: pd.DataFrame, *, name: str, columns: dict, report: dict, unit: str):
    """(policy JSON text, sentence) of the cutoffs refitted at the policy's prices on the latest
    `REFIT_MONTHS` periods with outcomes (the full audit: honest estimate, verdict, record), or
    (None, sentence) when there are none."""
    import numpy as np

    from costlib.answers.audit import build_audit, data_columns
    from costlib.binary.decision import sweep_model
    from costlib.core.dataset import ColumnMapping
    from costlib.present.policy import policy_json
    from costlib.watch.periods import as_periods
    from costlib.watch.report import labels_of

    recent = [p["period"] for p in report["periods"] if p["measured"]][-REFIT_MONTHS:]
    if not recent:
        return None, "No period has outcomes yet: there is nothing to refit on."
    periods = as_periods(df[columns["time"]].to_numpy(), report["freq"], len(df)).astype(str)
    y = labels_of(df[columns["label"]], name, columns["label"])
    rows = np.isin(periods, recent) & ~np.isnan(y)
    groups = df[columns["group"]].astype(str).to_numpy()[rows] if columns.get("group") else None
    ms = sweep_model(y[rows].astype(int), df[columns["score"]].to_numpy(dtype=float)[rows], groups)
    costs = {g: policy["prices"].get(g, next(iter(policy["prices"].values()))) for g in ms.groups}
    audit = build_audit(
        ms,
        costs if groups is not None else next(iter(policy["prices"].values())),
        unit=policy_unit(policy, unit),
        volume=policy.get("volume"),
        n_resamples=500,
        data_name=f"{name}, {recent[0]} to {recent[-1]}",
        columns=data_columns(ColumnMapping(label=columns["label"], group=columns.get("group"))),
    )
    span = recent[0] if len(recent) == 1 else f"{recent[0]} to {recent[-1]}"
    sentence = (
        f"Refitted on {span} ({int(rows.sum()):,} cases with outcomes) at the policy's prices: {audit.verdict.headline}"
    )
    return policy_json(audit), sentence
