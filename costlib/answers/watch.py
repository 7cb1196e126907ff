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


def watch_answer(
    policy: dict, df: pd.DataFrame, *, name: str, columns: dict, freq: str, n_resamples: int, unit: str, volume: float
) -> WatchAnswer:
    """The Watch page's answer (`costlib.watch.report.watch_report`, its verdict, table and chart)."""
    from costlib.watch.report import watch_report

    report = watch_report(policy, df, name=name, freq=freq, n_resamples=n_resamples, **columns)
    per_month = policy.get("volume") or volume
    return WatchAnswer(
        report,
        watch_verdict(report, unit=unit, volume=per_month if freq == "M" else None),
        watch_table(report, unit),
        figures.watch_figure(report, unit=unit),
    )
