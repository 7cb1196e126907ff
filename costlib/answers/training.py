"""The answer of the Train with costs page."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pandas as pd

from costlib.answers.instance import mistakes_free
from costlib.present import training_page, training_words
from costlib.present.amounts import money
from costlib.present.labels import DELTA_COLUMN, MEASUREMENT, RATING, VOTES
from costlib.present.training_words import OWN_TABLE, SYNTHETIC_TITLES, TWEETS_TITLE
from costlib.present.words import Verdict

PRECOMPUTED_DATA = "tweets"  # the data set shipped with fits made beforehand (`training_data.tweets_precomputed`)
SYNTHETIC_DATA = ("predictable", "unpredictable")  # the generated controls: about a second to train
TRAIN_DATA = {  # the page's data choices (kept in the link by key) and their titles
    PRECOMPUTED_DATA: TWEETS_TITLE,
    SYNTHETIC_DATA[0]: SYNTHETIC_TITLES[True],
    SYNTHETIC_DATA[1]: SYNTHETIC_TITLES[False],
    "upload": OWN_TABLE,
}


def guessed_source(guess) -> str:
    """The source of the prices (one of `training_words.SOURCES`) the upload's columns suggest, `guess` being
    `loading.guess_mapping` of the table: votes for and against, else a rating, else a
    measurement, else a delta column."""
    if guess.votes_yes and guess.votes_no:
        return VOTES
    if guess.rating:
        return RATING
    return MEASUREMENT if guess.measurement else DELTA_COLUMN


def price_guessed(guess) -> bool:
    """Whether the names of an upload's columns (`guess`, `loading.guess_mapping`) gave any source
    of the prices: else the page chooses none for the person (`training_words.no_price_sentence`)."""
    from costlib.training.data import PRICE_ROLES

    return any(getattr(guess, role) for role in PRICE_ROLES)


def default_features(columns, numeric, *, used, answers) -> list[str]:
    """The feature columns an upload's choices start from: its numeric `columns` (those in
    `numeric`, in order) other than the price columns `used` and the columns that are the answer
    (`answers`: `training.data.answer_columns`: the outcome, the price columns the names show), at
    most `training.data.MAX_FEATURE_COLUMNS`.

    >>> default_features(["label", "score", "delta", "age"], {"label", "score", "delta", "age"},
    ...                  used={"delta"}, answers={"label": "", "delta": ""})
    ['score', 'age']
    """
    from costlib.training.data import MAX_FEATURE_COLUMNS

    kept = [c for c in columns if c in numeric and c not in used and c not in answers]
    return kept[:MAX_FEATURE_COLUMNS]


def training_verdict_kind(summary: pd.DataFrame) -> str:
    """The colour of the training verdict (`named_verdict`, which holds each way's interval for the
    pick among the ways, as the page does): "success" to ship a way of training with costs, "warning"
    when not clearly better, "error" when no way is cheaper than standard training, "info" when there
    is nothing to judge."""
    return named_verdict(summary, {}).kind


def training_table(
    frame: pd.DataFrame, *, price: float | None = None, unit: str = "", shares=None, per_delta: float | None = None
) -> pd.DataFrame:
    """The training table as read: four decimals for shares and errors, a percent for changes
    (`training_words.change_percent`: a decrease with the minus sign U+2212, which no spreadsheet reads as a
    formula; no "+", which one would, so the column's name says "− cheaper"), "–" where a
    number does not apply (standard training's change against itself, a classifier's δ error).
    With `price` (a mistake on a typical case, in `unit`) the cost per case (`price` times NEC,
    at the decimals of the page's answer, `training_words.cost_digits`) comes right after the way
    of training. The summary's intervals of NEC and of the error rate are left to the charts'
    whiskers and tables, and the change's interval is one cell, so that the table fits the page
    beside the sidebar: the verdict's (`training_words.held_interval`: held for the pick among the ways when
    `frame` is `training.summary.held_for_pick`'s), as the change chart's, so that the three read alike.
    The ways are named by the share they keep (`shares`, `training_page.method_label`).
    With `per_delta` (what one unit of delta costs in `unit`: the price over a typical case's |delta|) the
    price regression's error is in money too, not in delta's own units. Row counts read with a thousands
    separator (`training_page.count_cells`). The CSV download keeps every column and every digit."""
    out = frame.copy()
    itself = frame["method"].eq("standard") if "method" in frame else pd.Series(False, index=frame.index)

    def changes(values) -> list[str]:
        cells = [training_words.change_percent(x) if pd.notna(x) else "–" for x in values]
        return ["–" if same else c for same, c in zip(itself, cells, strict=True)]

    for col in frame.columns:
        if col.startswith("nec_change"):
            out[col] = changes(frame[col])
        elif col.startswith(("nec", "error_rate", "delta_mae")):
            out[col] = [f"{x:.4f}" if pd.notna(x) else "–" for x in frame[col]]
        elif col in training_page.COUNT_COLUMNS:
            out[col] = training_page.count_cells(frame[col])
    if {"nec_change_low", "nec_change_high"} <= set(frame.columns):
        held = training_words.held_interval(frame)  # the verdict's interval, as the change chart's
        ends = zip(changes(held[training_words.HELD_LOW]), changes(held[training_words.HELD_HIGH]), strict=True)
        out.insert(
            list(out.columns).index("nec_change") + 1,
            training_page.CHANGE_INTERVAL_COLUMN,
            ["–" if a == "–" else f"{a} to {b}" for a, b in ends],
        )
    out = out.drop(columns=[c for c in training_page.LEFT_TO_THE_CHARTS if c in out])
    if price is not None and "nec" in frame:
        from costlib.instance import nec_money
        from costlib.training.summary import held_for_pick

        digits = training_words.cost_digits(held_for_pick(frame), price) if "nec_change" in frame else None
        out.insert(
            1 if "method" in frame else 0,
            training_page.COST_COLUMN,
            [money(float(nec_money(x, price)), unit, digits=digits) if pd.notna(x) else "–" for x in frame["nec"]],
        )
    if "method" in out:
        out["method"] = [training_page.method_label(m, shares) for m in out["method"]]
    if per_delta and "delta_mae" in frame:
        # in money, its unit in every cell as the cost per case's is: the column's name stays short
        out["delta_mae"] = [money(float(x) * per_delta, unit) if pd.notna(x) else "–" for x in frame["delta_mae"]]
    return out.rename(columns=training_page.COLUMN_WORDS)


@dataclass(frozen=True, eq=False)
class TrainingAnswer:
    """What the Train with costs page shows for the seeds trained so far.

    summary, results   `training_summary` over the seeds held for the pick among the ways
                       (`training.summary.held_for_pick`: the verdict's, the change chart's and the table's
                       interval of a change), and every seed's rows (the downloads)
    verdict            the one answer (`training_words.training_verdict_of`: a `words.Verdict`) in
                       money per case and a month at `price`, `unit` and `volume`; at a price of 0
                       `training_page.NO_MISTAKE_PRICE` (every mistake free: nothing to choose)
    chart              NEC and error rate of each way of training
    change_chart       NEC change against standard training (None without standard training
                       beside another way)
    r2                 the held-out R² of |δ| as shown ("n/a" without one; below 0 as it is, with a true minus
                       sign, its sentence saying what that means), and its sentence
    notes              what the results ask to be told (`training_page.same_rows_notes`)
    shares             {way of keeping the costliest cases: (share asked, share kept)} (`training.kept`):
                       the chart, the table and the verdict name such a way by the share it kept
    """

    summary: pd.DataFrame
    results: pd.DataFrame
    verdict: object
    chart: object
    change_chart: object | None
    r2: str
    r2_sentence: str
    notes: tuple[str, ...]
    price: float = 1.0  # a mistake on a typical case, in `unit`
    unit: str = ""
    shares: Mapping | None = None
    per_delta: float | None = None  # what one unit of delta costs in `unit`: the price error in money

    @property
    def kind(self) -> str:
        return self.verdict.kind

    @property
    def summary_table(self) -> pd.DataFrame:
        return training_table(
            self.summary, price=self.price, unit=self.unit, shares=self.shares, per_delta=self.per_delta
        )

    def _shared_counts(self) -> list[str]:
        """The row counts every seed shares (`training_page.SPLIT_COUNTS`, one value each)."""
        counts = [c for c in training_page.SPLIT_COUNTS if c in self.results]
        shared = len(counts) == len(training_page.SPLIT_COUNTS) and all(self.results[c].nunique() == 1 for c in counts)
        return counts if shared else []

    @property
    def summary_export(self) -> pd.DataFrame:
        """The summary's CSV: every interval and digit, under the page's column names (`export_table`)."""
        return export_table(
            self.summary, price=self.price, unit=self.unit, shares=self.shares, per_delta=self.per_delta
        )

    @property
    def results_export(self) -> pd.DataFrame:
        """Every seed's CSV: every column and digit, under the page's column names (`export_table`)."""
        return export_table(self.results, unit=self.unit, shares=self.shares, per_delta=self.per_delta)

    @property
    def results_table(self) -> pd.DataFrame:
        """Every seed's rows as read; the row counts every seed shares are `split_sentence`'s."""
        shown = self.results.drop(columns=self._shared_counts())
        return training_table(shown, unit=self.unit, shares=self.shares, per_delta=self.per_delta)

    @property
    def split_sentence(self) -> str:
        """The row counts every seed shares, in one sentence under `results_table` ("" when they differ)."""
        counts = self._shared_counts()
        return training_page.split_counts_sentence(*(int(self.results[c].iloc[0]) for c in counts)) if counts else ""


def named_verdict(
    summary: pd.DataFrame, shares: Mapping, *, price: float = 1.0, unit: str = "", volume: float | None = None
) -> Verdict:
    """The one answer of Train with costs (`training_words.training_verdict_of`) on the page and the
    command line alike: a way of keeping the costliest cases named by the share it kept (`shares`,
    `training.kept.kept_of_results`), as the chart and the table name it, not by the share asked; at a
    `price` of 0 `training_page.NO_MISTAKE_PRICE` (every mistake free: nothing to choose). Each way's interval
    is held for the pick among the ways here (`training.summary.held_for_pick`; a summary held already is the same).

    >>> s = pd.DataFrame({"method": ["standard", "tdown30"], "seeds": [10, 10], "nec": [0.10, 0.069],
    ...                   "nec_change": [0.0, -0.31], "nec_change_low": [0.0, -0.38],
    ...                   "nec_change_high": [0.0, -0.24], "error_rate": [0.10, 0.12]})
    >>> named_verdict(s, {"tdown30": (0.3, 0.88)}).headline[:80]
    'Ship the model: keeping the top 30% + ties (88% of rows) beats standard training'
    """
    from costlib.training.summary import held_for_pick

    if mistakes_free(price):
        return Verdict("warning", training_page.NO_MISTAKE_PRICE)
    named = held_for_pick(summary).assign(
        method=[training_page.method_label(m, shares) if m in shares else m for m in summary["method"]]
    )
    return training_words.training_verdict_of(named, price=price, unit=unit, volume=volume)


def shipped_way(summary: pd.DataFrame, verdict, shares: Mapping | None) -> str | None:
    """The name the verdict gives the way it ships (`training_words.named_way` of `summary` held for the pick,
    `training.summary.held_for_pick`; `training_page.method_label`), None when it ships none: the predictability
    sentence beside it then agrees with it."""
    from costlib.training.summary import held_for_pick

    if getattr(verdict, "kind", None) != "success":
        return None
    way = training_words.named_way(held_for_pick(summary))
    return None if way is None else training_page.method_label(way, shares)


def export_table(
    frame: pd.DataFrame, *, price: float | None = None, unit: str = "", shares=None, per_delta: float | None = None
) -> pd.DataFrame:
    """A training table as its CSV download writes it: every column and every digit, under the page's
    own column names (`training_page.COLUMN_WORDS`, not the library's nec, delta_mae), the ways named
    as the page names them; with `price` the cost per case (`price` times NEC) after the way, and with
    `per_delta` the price error in money, as the page shows them, their `unit` in their names (the cells are
    bare numbers). Review 140: the CSV said p_up, tdown30, nec and delta mae, which the page never says.

    >>> f = pd.DataFrame({"method": ["standard", "p_up"], "nec": [0.1, 0.08], "nec_change": [0.0, -0.2]})
    >>> list(export_table(f, price=2.0).columns), export_table(f)["way of training"].tolist()
    (['way of training', 'cost per case', 'cost-weighted error', 'cost change (− cheaper)'], ['standard training', \
'cost-proportional upsampling'])
    """
    out = frame.copy()
    in_unit = f" ({unit})" if unit else ""
    if "method" in out:
        out["method"] = [training_page.method_label(m, shares) for m in out["method"].astype(str)]
    if price is not None and "nec" in frame:
        column = training_page.COST_COLUMN + in_unit
        out.insert(1 if "method" in out else 0, column, frame["nec"].astype(float) * price)
    names = dict(training_page.COLUMN_WORDS)
    if per_delta and "delta_mae" in frame:
        out["delta_mae"] = frame["delta_mae"].astype(float) * per_delta
        names["delta_mae"] += in_unit
    return out.rename(columns=names)


def training_answer(
    results: pd.DataFrame,
    r2: pd.Series,
    *,
    methods: tuple,
    price: float = 1.0,
    unit: str = "",
    volume: float | None = None,
    typical: float | None = None,
    shares: Mapping | None = None,
) -> TrainingAnswer:
    """The Train with costs page's answer from the seeds trained (`results`, and the cost
    predictability `r2` of each seed), in money: `price` is what a mistake on a typical case
    costs in `unit`, `volume` the cases a month, `typical` the data's mean |delta| (a typical
    case's: the price regression's error is said in money at it). `shares` ({tdown method: (share
    asked, share kept)}) name the ways of keeping the costliest cases: the page passes those its box
    of ways is named by (`training.kept.kept_of_seeds` of the seeds asked), so that one way has one
    name; None reads them from `results` (`kept_of_results`: the same for the same seeds)."""
    from costlib.training.figures import change_figure, training_figure
    from costlib.training.kept import kept_of_results
    from costlib.training.summary import held_for_pick, predictability_interval, training_summary

    held = held_for_pick(training_summary(results))  # each way's interval held for the pick: the verdict's,
    # the change chart's and the table's (review 70: the chart and the table read each way's own and marked
    # "cheaper beyond the noise" beside a verdict that said "it could be chance")
    r2_mean, r2_low, r2_high = predictability_interval(r2)
    shares = kept_of_results(results) if shares is None else shares
    verdict = named_verdict(held, shares, price=price, unit=unit, volume=volume)
    return TrainingAnswer(
        summary=held,
        results=results,
        verdict=verdict,
        chart=training_figure(held, shares=shares),  # its title names no data: the page names it once, above
        change_chart=change_figure(held, shares=shares) if "standard" in methods and len(methods) > 1 else None,
        r2=training_words.r2_text(r2_mean),
        r2_sentence=training_words.predictability_sentence(
            r2_mean, r2_low, r2_high, shipped=shipped_way(held, verdict, shares)
        ),
        notes=tuple(training_page.same_rows_notes(results, shares)),
        price=price,
        unit=unit,
        shares=shares,
        per_delta=price / typical if typical else None,
    )


def precomputed_fits(pre, methods: tuple, seeds: int, random_state: int) -> bool:
    """Whether the precomputed results `pre` (`training_data.Precomputed`, or None) are those of
    these settings: the same ways of training, seeds and random state."""
    return (
        pre is not None
        and tuple(methods) == tuple(pre.settings["methods"])
        and seeds == pre.settings["seeds"]
        and pre.settings["random_state"] == random_state
    )


@dataclass(frozen=True)
class TrainingPlan:
    """What the Train with costs page does on this run.

    precomputed   the fits made beforehand to show (`training_data.Precomputed`), or None: the
                  seeds trained in this session are shown
    todo          the seeds (0 .. seeds - 1) not trained yet, in order (none with `precomputed`)
    train         whether to train `todo` now: asked (Train and compare was pressed for these
                  settings), or one of the synthetic controls, unless the person stopped them
    """

    precomputed: object
    todo: tuple[int, ...]
    train: bool


def training_plan(
    choice: str,
    methods: tuple,
    seeds: int,
    random_state: int,
    *,
    done: Mapping,
    requested: bool,
    stopped: bool,
    load_precomputed: Callable[[], object],
) -> TrainingPlan:
    """The `TrainingPlan` of the data `choice` (a key of the page's data: "tweets", the
    synthetic controls, "upload") at these settings.

    Parameters
    ----------
    done : {seed: (results, r2)} the seeds finished in this session at these data, ways of
        training and random state (a stopped run resumes from them)
    requested : whether Train and compare was pressed for these settings (then the session's
        own training is shown, even where precomputed fits match)
    stopped : whether the person stopped the run of these settings (the synthetic controls are
        then not trained again without asking)
    load_precomputed : returns the precomputed fits (`training_data.Precomputed`) or None;
        called only for the data shipped with them, `PRECOMPUTED_DATA`

    Examples
    --------
    >>> training_plan("predictable", ("standard",), 3, 0, done={1: None}, requested=False,
    ...               stopped=False, load_precomputed=lambda: None)
    TrainingPlan(precomputed=None, todo=(0, 2), train=True)
    """
    pre = load_precomputed() if choice == PRECOMPUTED_DATA else None
    if not requested and precomputed_fits(pre, methods, seeds, random_state):
        return TrainingPlan(precomputed=pre, todo=(), train=False)
    todo = tuple(s for s in range(seeds) if s not in done)
    auto = choice in SYNTHETIC_DATA and not stopped
    return TrainingPlan(precomputed=None, todo=todo, train=bool(todo) and (auto or requested))


def finished_seeds(done: Mapping, seeds: int) -> list[int]:
    """The seeds 0 .. seeds - 1 finished in `done` ({seed: (results, r2)}), in order.

    >>> finished_seeds({2: None, 0: None, 7: None}, 3)
    [0, 2]
    """
    return [s for s in range(seeds) if s in done]


def gather_seeds(done: Mapping, have: list[int]) -> tuple[pd.DataFrame, pd.Series]:
    """(every seed's rows, the cost-predictability R² of each) of the finished seeds `have`
    (`finished_seeds`: at least one), from `done` ({seed: (results, r2)}), in the order of `have`."""
    results = pd.concat([done[s][0] for s in have], ignore_index=True)
    return results, pd.Series([done[s][1] for s in have])
