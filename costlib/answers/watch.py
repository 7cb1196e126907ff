"""The answer of the Watch page: a policy and newer cases in, the periods and one answer out."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import pandas as pd

from costlib.answers.remembering import compute_now
from costlib.loading.messages import q
from costlib.present.watch_figures import periods_figure, refit_figure
from costlib.present.watch_labels import (
    CURRENT_POLICY,
    READINGS_WHAT,
    SAMPLE_FILES_WHAT,
    SAMPLE_NOTE,
    SAMPLE_POLICY,
    UNSIGNED_ON_PAGE,
    month_words,
    policy_settings_words,
    refit_what,
    shell_lines,
)
from costlib.present.watch_tables import GROUPS_COLUMNS, GROUPS_WHAT, period_label, watch_group_table
from costlib.present.watch_words import (
    CHOICE_KEEP,
    CHOICE_REFIT,
    CHOICE_SHIFT,
    READINGS_COLUMNS,
    alert_since,
    cut_values,
    ship_words,
    watch_readings_table,
    watch_table,
    watch_verdict,
)

#: the columns of the built-in sample (`costlib.watch.sample.watch_year`)
SAMPLE_COLUMNS = {"time": "decided", "score": "score", "label": "outcome", "group": "region"}
MSG_NOTHING_TO_REFIT = "No period has outcomes yet: there is nothing to refit on."


@dataclass(frozen=True, eq=False)
class WatchAnswer:
    """What the Watch page shows for one policy watched on one file of newer cases, read by one
    choice of columns and periods: the periods judged up front (`watch.report.watch_report`) and
    said (verdict, table, chart, the groups' and the two readings' tables), the refit on request
    (`refit`, remembered through `remember` per cases a month; `refit_figure`).

    report      the periods judged (`watch_report`)
    verdict     the page's one answer in words (`watch_verdict`)
    groups      per period and group (None without groups)
    readings    the periods without all their outcomes under both readings (None without any)
    """

    report: dict
    verdict: object
    table: pd.DataFrame
    figure: object
    groups: pd.DataFrame | None
    readings: pd.DataFrame | None
    policy: dict | None = None
    cases: pd.DataFrame | None = None
    name: str = ""
    columns: dict | None = None
    unit: str = ""
    n_resamples: int = 0
    remember: object = compute_now

    readings_what = READINGS_WHAT
    readings_columns = READINGS_COLUMNS
    groups_what, groups_columns = GROUPS_WHAT, GROUPS_COLUMNS

    @property
    def refit_offered(self) -> bool:
        """Whether the refit is offered (`refit_offered`)."""
        return refit_offered(self.report)

    def refit(self, volume: float | None = None) -> Refit:
        """`refit_inputs` of these cases and this policy (a month: the policy's cases a month, else
        `volume`), remembered under "watch_refit", `volume` and the unit; DataError or ValueError with their
        sentence as `refit_inputs` raises them."""
        return self.remember(
            "watch_refit",
            (volume, self.unit),
            lambda: refit_inputs(
                self.policy, self.cases, name=self.name, columns=self.columns, report=self.report, volume=volume,
                unit=self.unit, n_resamples=self.n_resamples,
            ),
        )  # fmt: skip

    def refit_figure(self, refit: Refit):
        """Cost per case against the cutoff on the cases `refit` is fitted on (`refit_figure`), the
        refit's star labelled as the cutoff to ship or as the alternative not chosen (`ship`)."""
        return refit_figure(
            refit.curves, refit.shipped, refit.judged, unit=policy_unit(self.policy, self.unit),
            random_share=self.policy.get("random_share"), chosen=self.ship(refit).kind == CHOICE_REFIT,
        )  # fmt: skip

    def ship(self, refit: Refit | None = None) -> ShipChoice:
        """The one cutoff to ship (`ship_choice` of the periods and `refit`, the page's refit or None)."""
        return ship_choice(self.report, refit)

    def verdict_for(self, refit: Refit | None, volume: float | None = None) -> object:
        """The one answer once `refit` (the page's refit, or None) is weighed: `watch_verdict` with
        `ship`, so that the headline never says refit where what to ship keeps the cutoff; its amounts a
        month at `volume` (the person's cases a month) and naming it, else at the file's own."""
        unit = policy_unit(self.policy, self.unit)
        return watch_verdict(self.report, unit=unit, choice=self.ship(refit), volume=volume)

    def ship_words(self, refit: Refit | None = None, volume: float | None = None) -> tuple[str, ...]:
        """`ship` in words (`what_to_ship`); a month is `volume` (the person's), else the policy's cases a month."""
        return what_to_ship(self.report, self.policy, refit, unit=self.unit, volume=volume)

    def refit_what(self, refit: Refit, volume: float | None = None) -> str:
        """What the refit button does, said before it is pressed (`REFIT_WHAT`): the settings of
        the policy that take the place of the person's (`policy_settings_words`), and the sidebar's
        cases a month changing from `volume` (the person's) when the policy's differ."""
        return refit_what(refit.policy, volume)


def refit_offered(report: dict) -> bool:
    """Whether a period of `report` alerts and some period has its outcomes: then the refit
    (`refit_inputs`) is offered, and `ship_choice` weighs it."""
    periods = report["periods"]
    return any(p["alert"] for p in periods) and any(p["labelled"] for p in periods)


def what_to_ship(
    report: dict, policy: dict, refit: Refit | None = None, *, unit: str = "", volume: float | None = None
) -> tuple[str, ...]:
    """`ship_choice` in words (`present.watch_words.ship_words`), the same on the Watch page and
    ``costlib watch``: amounts in the policy's unit (else `unit`), a month being the person's `volume`
    (the page's sidebar, ``--volume``: the headline's month too, `watch_verdict`), else the policy's cases
    a month; the first line then says so once (`month_words`)."""
    month = policy.get("volume")
    said = ship_words(
        ship_choice(report, refit), unit=policy_unit(policy, unit), volume=month if volume is None else volume,
        freq=report.get("freq", "M"),
    )  # fmt: skip
    if not said or not month or volume is not None:  # no amount a month, or the person's: nothing to set apart
        return said
    return (f"{said[0]} {month_words(month, volume, freq=report.get('freq', 'M'))}", *said[1:])


@dataclass(frozen=True)
class ShipChoice:
    """The one cutoff Watch recommends shipping (`ship_choice`), and the other candidate.

    kind                 ``CHOICE_REFIT`` (the refit on the latest periods with outcomes), ``CHOICE_SHIFT``
                         (the shipped cutoff moved to the base rate the latest period's scores suggest) or
                         ``CHOICE_KEEP`` (the shipped cutoff)
    cutoffs              ``{group: cutoff}`` to ship
    alternative          the candidate not chosen (``CHOICE_REFIT`` or ``CHOICE_SHIFT``), None without one
    alternative_cutoffs  its cutoffs (empty without one)
    period               the period the shift is read from (a period of the report), None without a shift
    refit                the refit (`Refit`: its rows and honest judgement), None without one
    """

    kind: str
    cutoffs: dict
    alternative: str | None = None
    alternative_cutoffs: dict = field(default_factory=dict)
    period: dict | None = None
    refit: Refit | None = None


def ship_choice(report: dict, refit: Refit | None = None) -> ShipChoice:
    """The one cutoff to ship, for the Watch page and ``costlib watch`` alike, by one rule.

    The two candidates are the refit on the latest periods with outcomes (`refit`,
    `refit_inputs`: what it saves over the shipped cutoff is cross-fitted, each case judged by a
    cutoff fitted on the others, with its bootstrap's 95% interval) and the shipped cutoff moved to
    the base rate the scores of the latest alerting period suggest (that period's own best
    cutoff, when its cost is estimated: it rests on the assumption that only the base rate moved,
    which the scores alone cannot confirm).

    1. No period alerts: keep the shipped cutoff.
    2. The refit saves beyond the noise (the whole 95% interval of its saving above zero): ship
       the refit. It is judged on outcomes, on cases it was not fitted on; the shift, if there is
       one, is the alternative not chosen.
    3. Else, the latest alerting period is estimated, its scores fit a change of the base rate and
       it has a cutoff moved to it: ship that shift (if only the base rate moved); the refit, if
       there is one, is the alternative not chosen (its saving is within the noise).
    4. Else keep the shipped cutoff (the refit, if any, saves within the noise; or the scores fit
       no change of the base rate, and the verdict says to check the model).
    """
    from costlib.watch.estimate import FAILS

    shipped = cut_values(report["policy"]["cutoffs"])
    since = alert_since([p for p in report["periods"] if not p.get("too_few")])
    if not since:
        return ShipChoice(CHOICE_KEEP, shipped)
    latest = since[-1]
    shift = None
    if not latest["measured"] and latest.get("best_threshold") and latest.get("assumption") != FAILS:
        shift = latest
    honest = refit is not None and refit.judged.regret is not None and not math.isnan(refit.judged.regret)
    best = dict(refit.judged.best) if honest else {}
    if honest and refit.judged.alert and best:
        if shift is None:
            return ShipChoice(CHOICE_REFIT, best, refit=refit)
        return ShipChoice(CHOICE_REFIT, best, CHOICE_SHIFT, cut_values(shift["best_threshold"]), shift, refit)
    alternative = CHOICE_REFIT if honest and best else None
    if shift is not None:
        cuts = cut_values(shift["best_threshold"])
        return ShipChoice(CHOICE_SHIFT, cuts, alternative, best, shift, refit if alternative else None)
    return ShipChoice(CHOICE_KEEP, shipped, alternative, best, None, refit if alternative else None)


def shipped_policy(seed: int = 7) -> dict:
    """The policy the built-in sample shipped before its year (`costlib.watch.sample`), as
    `present.policy.load_policy` reads it: its file, `shipped_policy_json`, read back."""
    from costlib.present.policy import load_policy

    return load_policy(shipped_policy_json(seed))


def shipped_policy_json(seed: int = 7) -> str:
    """The policy the built-in sample shipped before its year, as the policy file Costs & groups
    downloads: the audit of its fitting month (`watch.sample.fitting_month`) at the sample's
    prices. Made once per seed, however the seed is passed, so the policy the page reads and the
    file it offers are one (the same ``created`` time included)."""
    return _shipped_policy_json(int(seed))


@functools.lru_cache(maxsize=2)
def _shipped_policy_json(seed: int) -> str:
    from costlib.answers.audit import build_audit
    from costlib.binary.model_sweeps import sweep_model
    from costlib.present.policy import policy_json
    from costlib.watch.sample import FITTING_NAME, PRICES, fitting_month

    train = fitting_month(seed)
    audit = build_audit(
        sweep_model(train["outcome"], train["score"]),
        PRICES,
        unit="$",
        volume=1500,
        n_resamples=200,
        seed=seed,
        data_name=FITTING_NAME,
    )
    return policy_json(audit)


def sample_inputs(seed: int = 7) -> tuple[dict, pd.DataFrame]:
    """The built-in sample's shipped policy (with its ``"sign_off"``, `with_sign_off`: a sample
    nobody signed) and year of cases."""
    from costlib.watch.sample import watch_year

    return with_sign_off(shipped_policy(seed), shipped_policy_json(seed), what=SAMPLE_POLICY), watch_year(seed)


def sign_off_note(policy: dict) -> tuple[str, str]:
    """How the Watch page says a policy's sign-off (`with_sign_off`): ``(kind, sentence)``, kind
    being the page's call ("success" for a signed policy, "caption" for one nobody signed,
    "info" for a seal the server cannot check)."""
    from costlib.present.signing import SIGNED, UNSIGNED

    record = policy.get("sign_off") or {}
    state = record.get("state")
    if state == SIGNED:
        return "success", record["sentence"]
    if state == UNSIGNED:
        return "caption", UNSIGNED_ON_PAGE
    return "info", record.get("sentence", UNSIGNED_ON_PAGE)


def with_sign_off(policy: dict, text: bytes | str, *, what: str, allow_unsigned: bool = True) -> dict:
    """`policy` (what `load_policy` read from `text`) with its reviewer's sign-off as
    ``policy["sign_off"]`` (`costlib.present.signing.SignOff.record`: ``state``, ``sentence``,
    ``reviewer``, ``date``, ``decision``, ``note``), checked as ``costlib watch`` checks it; the
    page shows its ``sentence``. With `allow_unsigned` (the page: it watches, it does not serve),
    an unsigned policy, or a signed one while the server has no key to check it, is shown with
    a sentence that says so; a rejected or altered one, or one sealed with another key, is
    refused with a sentence (DataError), as on the command line."""
    from costlib.present.signing import checked_text

    return {**policy, "sign_off": checked_text(text, allow_unsigned=allow_unsigned, what=what).record()}


@dataclass(frozen=True)
class SampleFiles:
    """The built-in year as the Watch page downloads it: its cases (CSV, cells neutralised), its
    shipped policy (JSON, the policy file Costs & groups writes) and the command that watches them."""

    cases: bytes
    policy: bytes
    command: str
    cases_name: str = ""
    policy_name: str = ""

    @property
    def what(self) -> str:
        """The files and the command, in a sentence (`SAMPLE_FILES_WHAT`)."""
        return SAMPLE_FILES_WHAT.format(cases=self.cases_name, policy=self.policy_name, command=self.command)

    @property
    def shell(self) -> str:
        """The command as the page shows it under `what`, in a code block: lines cut only between its
        arguments, each but the last continued (`present.watch_labels.shell_lines`)."""
        return shell_lines(self.command)


def sample_note() -> str:
    """What the page says while it shows the built-in year (`SAMPLE_NOTE`, with its title)."""
    from costlib.watch.sample import TITLE

    return SAMPLE_NOTE.format(title=TITLE)


def sample_files(seed: int = 7) -> SampleFiles:
    """The built-in year (`sample_inputs`) as files for ``costlib watch``, which reads them to
    this page's answer (at the page's `WATCH_RESAMPLES` resamples)."""
    from costlib.watch.sample import CASES_FILE, COMMAND, POLICY_FILE, watch_year_csv

    return SampleFiles(
        watch_year_csv(seed),
        shipped_policy_json(seed).encode(),
        COMMAND.format(resamples=WATCH_RESAMPLES),
        CASES_FILE,
        POLICY_FILE,
    )


def read_watched_policy(data: bytes, *, allow_unsigned: bool = True, name: str | None = None) -> dict:
    """An uploaded policy file, checked (`present.policy.load_policy`: a sentence on bad input),
    with its reviewer's sign-off (`with_sign_off`; `name`: the uploaded file's name, for the
    sentence)."""
    from costlib.present.policy import load_policy

    what = "This policy" if name is None else f"The policy {q(name, 80)}"
    return with_sign_off(load_policy(data), data, what=what, allow_unsigned=allow_unsigned)


MSG_AGGREGATE = (
    'The file "{name}" is a costlib aggregate: it holds counts of scores without the date of each case, and Watch '
    "needs the dates to tell the months apart. Give the cases themselves (a date, score and outcome column), or "
    "a data-folder file."
)


def read_cases(data: bytes, name: str, *, limit=None) -> pd.DataFrame:
    """An uploaded file of newer cases (CSV or Parquet, read with the upload checks and within
    `limit`, a `loading.budget.Allowance`); an aggregate file is refused with a sentence from
    its footer, before any data is read."""
    from costlib import loading
    from costlib.core.errors import DataError
    from costlib.scale.aggregates import META_KEY

    if data[:4] == b"PAR1":
        import io

        import pyarrow.parquet as pq

        try:
            meta = pq.ParquetFile(io.BytesIO(data)).schema_arrow.metadata or {}
        except Exception:  # noqa: BLE001 - an unreadable footer is the reader's sentence below
            meta = {}
        if META_KEY in meta:
            raise DataError(MSG_AGGREGATE.format(name=loading.display_name(name)))
    return loading.read_table(data, name, limit=limit)


DATE_WORDS = ("date", "time", "when", "day", "month", "decided", "created", "timestamp", "period")


def guess_columns(df: pd.DataFrame, policy: dict | None = None) -> dict:
    """A first guess at the Watch roles of `df`'s columns: ``{"time", "score", "label",
    "group"}`` (None where nothing fits). The date is a date-typed column, else the first whose
    name says so and whose first cells read as dates by Watch's one rule (`watch.periods.read_dates`;
    dates whose day and month cannot be told apart count, and so do a few cells that are not dates among
    dates (`watch.periods.mostly_dates`), so that Watch says at once why it refuses them, naming the row);
    the others come from the Data page's guess (`loading.guess_mapping`), or the policy's own column
    names when `df` has them; no score when the policy names one `df` lacks (the page asks for it)."""
    from costlib.answers.watch_inputs import score_missing
    from costlib.loading.guessing import guess_mapping
    from costlib.watch.periods import NOT_A_DATE, DateError, mostly_dates, read_dates

    time = next((c for c in df.columns if pd.api.types.is_datetime64_any_dtype(df[c])), None)
    for c in df.columns if time is None else ():
        if any(w in str(c).lower() for w in DATE_WORDS) and not pd.api.types.is_numeric_dtype(df[c]):
            try:
                read_dates(df[c].head(50))
            except DateError as err:
                if err.kind == NOT_A_DATE and not mostly_dates(df[c].head(50)):
                    continue
            except ValueError:
                continue
            time = c
            break
    rest = df.drop(columns=[time]) if time is not None else df
    guess = guess_mapping(rest)
    data = (policy or {}).get("data") or {}
    named = {role: data.get(role) if data.get(role) in df.columns else None for role in ("label", "group", "score")}
    label, group = named["label"] or guess.label, named["group"] or guess.group
    score = named["score"] or (guess.scores[0] if guess.scores else None)
    if score_missing(policy, df.columns):  # fitted on another column: asked for, never guessed (`score_column_words`)
        score = None
    elif score is None:  # the first other column of numbers with more than two values
        numbers = [c for c in df.columns if c not in {time, label, group} and pd.api.types.is_numeric_dtype(df[c])]
        score = next((c for c in numbers if df[c].nunique(dropna=True) > 2), None)
    return {"time": time, "score": score, "label": label, "group": group}


MSG_SAME_COLUMN = 'The date and the score must be two columns: "{column}" is chosen for both.'


def policy_unit(policy: dict, unit: str) -> str:
    """The unit amounts are said in: the policy's (its prices are in it), else the page's."""
    return policy.get("unit") or unit


def watch_answer(
    policy: dict,
    df: pd.DataFrame,
    *,
    name: str,
    columns: dict,
    freq: str,
    n_resamples: int,
    unit: str,
    remember=compute_now,
) -> WatchAnswer:
    """The Watch page's answer (`costlib.watch.report.watch_report`, its verdict, table and chart);
    amounts are what the file's own cases cost, in the policy's unit (else `unit`).

    `remember(name, key, compute)` returns ``compute()``, remembered under (name, key): the page
    passes its memo, bound to the policy, the cases, their columns and the periods, so that the
    periods are judged (and resampled) once for them whatever the unit, and the refit
    (`WatchAnswer.refit`) once per unit and cases a month.
    """
    from costlib.watch.report import watch_report

    report = remember(
        "watch_report",
        (),
        lambda: watch_report(policy, df, name=name, freq=freq, n_resamples=n_resamples, **columns),
    )
    said = policy_unit(policy, unit)
    return WatchAnswer(
        report,
        watch_verdict(report, unit=said),
        watch_table(report, said),
        periods_figure(report, unit=said),
        watch_group_table(report, said),
        watch_readings_table(report, said),
        policy=policy,
        cases=df,
        name=name,
        columns=dict(columns),
        unit=unit,
        n_resamples=n_resamples,
        remember=remember,
    )


REFIT_MONTHS = 3  # the refit is fitted on the latest periods with outcomes
WATCH_RESAMPLES = 500  # the page's bootstrap resamples (the sample's command passes the same)


@dataclass(frozen=True)
class Refit:
    """What the refit hands to Costs & groups (the rows, their columns, the prices per group, the
    sentence Costs & groups opens with) and what the Watch page shows of it before: the shipped
    policy judged on these rows (`watch.alerts.judge_period`: its cost, what refitting saves over
    it, cross-fitted, with the refit bootstrap's 95% interval, as each period's), their cost
    curves (`binary.decision.cost_curves`) and that saving in words."""

    frame: pd.DataFrame
    mapping: object  # core.dataset.ColumnMapping
    name: str
    policy: dict  # the policy, with its prices for every group of `frame`
    sentence: str
    judged: object  # watch.alerts.PeriodJudgement of the shipped policy on `frame`
    curves: pd.DataFrame  # cost per case against the cutoff on `frame`, everybody's line and each group's
    shipped: dict  # {group: cutoff} the policy ships, for the groups of `frame`
    saving: str  # what refitting saves over keeping the shipped cutoff, per case and a month
    span: str  # the periods of the rows: "2026-07 to 2026-09"

    def dataset(self, salt: bytes = b""):
        """The rows as Costs & groups reads them (`loading.prepare`, a sentence on bad input),
        fingerprinted by `salt` (what they were made from) and their content."""
        import hashlib

        from costlib import loading

        digest = hashlib.sha256(salt + self.frame.to_csv(index=False).encode()).hexdigest()
        return loading.prepare(self.frame, self.mapping, name=self.name, fingerprint=digest)


def refit_inputs(
    policy: dict,
    df: pd.DataFrame,
    *,
    name: str,
    columns: dict,
    report: dict,
    volume: float | None = None,
    unit: str = "",
    n_resamples: int = 0,
    seed: int = 0,
) -> Refit:
    """The cases with outcomes of the latest `REFIT_MONTHS` periods with outcomes, as a table for
    Costs & groups to refit on (`loading.prepare` reads it as an upload), with the shipped
    policy judged on them as a period is (`n_resamples` for the interval of what refitting saves
    over it; 0: none; `seed`: its bootstrap's); DataError when no period has outcomes. Amounts are in the policy's unit
    (else `unit`); a month is the policy's cases a month (else `volume`)."""
    import numpy as np

    from costlib.core.dataset import ColumnMapping
    from costlib.core.errors import DataError
    from costlib.loading.frames import group_column
    from costlib.present.amounts import money
    from costlib.present.watch_words import refit_saving
    from costlib.watch.periods import as_periods
    from costlib.watch.report import for_groups, labels_of

    recent = [p["period"] for p in report["periods"] if p["labelled"]][-REFIT_MONTHS:]
    if not recent:
        raise DataError(MSG_NOTHING_TO_REFIT)
    periods = as_periods(df[columns["time"]], report["freq"], len(df)).astype(str)
    y = labels_of(df[columns["label"]], name, columns["label"], positive=(policy.get("data") or {}).get("positive"))
    rows = np.isin(periods, recent) & ~np.isnan(y)
    keep = [c for c in (columns["score"], columns.get("group")) if c]
    frame = df.loc[rows, keep].reset_index(drop=True)
    label = next(x for x in ("outcome", "outcome (known)", "the outcome") if x not in keep)
    frame.insert(0, label, y[rows].astype(int))
    # on these very cases, with their outcomes
    g = group_column(frame[columns["group"]], name, columns["group"]) if columns.get("group") else None
    judged, curves, shipped = _judged(policy, frame, columns, y[rows], g, n_resamples=n_resamples, seed=seed)
    if g is not None:  # a policy with one cutoff for everybody: its prices for every group
        _, prices = for_groups(policy, sorted(set(g)))
        policy = {**policy, "prices": prices}
    first, last = period_label(recent[0]), period_label(recent[-1])  # "week of 2026-08-31", not pandas' span
    span = first if len(recent) == 1 else f"{first} to {last}"
    scale = (policy.get("data") or {}).get("scale") or "probability"
    mapping = ColumnMapping(label=label, scores=(columns["score"],), group=columns.get("group"), score_scale=scale)
    month = policy.get("volume")
    settings = policy_settings_words(policy)  # what `set_policy_prices` puts in place of the person's settings
    unit = policy_unit(policy, unit)
    saving = refit_saving(judged, unit=unit, volume=month if month is not None else volume)
    sentence = (
        f"Costs & groups now shows {span} of {name} ({len(frame):,} cases with outcomes) at {settings}: "
        f"its recommended cutoff is the refit. The shipped policy cost {money(judged.shipped, unit)} per "
        f"case on these cases. {saving}"
    )
    return Refit(frame, mapping, f"{name}, {span}", policy, sentence, judged, curves, shipped, saving, span)


def _judged(policy: dict, frame: pd.DataFrame, columns: dict, y, groups, *, n_resamples: int, seed: int = 0):
    """(judgement, curves, shipped cutoffs) of the shipped policy on the cases of `frame` with
    outcomes `y` (0/1) and groups `groups` (as the loader reads them, `loading.frames.group_column`;
    None: no group column): `watch.alerts.judge_period` (one home for what refitting saves and its
    interval, as each period's), and the cost curves of the same rows at the policy's prices. Each
    case's cutoff is the report's (`watch.report.case_cutoffs`)."""
    import numpy as np

    from costlib.binary.model_sweeps import cost_curves, sweep_model
    from costlib.core.prices import prices_for
    from costlib.core.scales import on_scale
    from costlib.watch.alerts import judge_period
    from costlib.watch.report import case_cutoffs

    s = on_scale(
        frame[columns["score"]].to_numpy(dtype=float), (policy.get("data") or {}).get("scale") or "probability"
    )
    g, thresholds, prices = case_cutoffs(policy, groups, len(frame))
    y = np.asarray(y, dtype=int)
    judged = judge_period(
        y, s, g, costs=prices, cutoffs=thresholds, n_resamples=n_resamples, seed=seed,
        random_share=policy.get("random_share"),
    )  # fmt: skip
    ms = sweep_model(y, s, g, probabilities=False)
    curves = cost_curves(ms, prices_for(ms.groups, {k: prices[k] for k in ms.groups}), max_points=400)
    return judged, curves, {k: float(thresholds[k]) for k in ms.groups}


def current_policy(build) -> dict:
    """The policy Costs & groups would download now (`build` makes its audit), read back as a
    policy file is (`present.policy.load_policy`), so that both ways in are watched alike."""
    from costlib.present.policy import load_policy, policy_json

    text = policy_json(build())
    return with_sign_off(load_policy(text), text, what=CURRENT_POLICY)


def folder_cases(path, columns: list[str]) -> pd.DataFrame:
    """Only the `columns` of a file in the data folder, read where it lies by DuckDB, within the
    upload memory budget (a sentence when they would not fit)."""
    from costlib.scale.bigdata import read_columns

    return read_columns(path, columns)
