"""The answer of the Train with costs page."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pandas as pd

from costlib.present import training_words
from costlib.training.data import SYNTHETIC_TITLES, TWEETS_TITLE

PREDICTABILITY_LABEL = "Can the features predict the costs? Held-out R² of |δ|"
PREDICTABILITY_HELP = (
    "A ridge regression of |δ| on the features, fitted on each seed's training rows and scored on its "
    "test rows; mean over seeds."
)
TRAINING_TABLE_MEANING = (
    "Means over seeds with 95% t intervals (low, high); the NEC change is relative to standard training, "
    "paired by seed; the δ error is the regression's mean absolute error in δ. The CSV keeps the column names "
    "of costlib.training_summary and every digit. The seeds "
    "re-split the same rows, so these intervals show the noise of the splits and fits, and are narrower than "
    "new data would give."
)


PRECOMPUTED_DATA = "tweets"  # the data set shipped with fits made beforehand (`training_data.tweets_precomputed`)
SYNTHETIC_DATA = ("predictable", "unpredictable")  # the generated controls: about a second to train
TRAIN_TITLE = "Train with costs"
TRAIN_WHAT = (
    "Train the same model seven ways with each case's price |δ| (standard, |δ|-weighted, cost-proportional "
    "upsampling, keeping only the costliest cases, regressing δ) on the same random splits, and compare "
    "them by normalized excess cost (NEC: mistakes weighted by |δ|) and error rate on held-out rows. Find "
    "out whether pricing each case gives a better model on your data before you spend a training budget."
)
OWN_TABLE = "Your own table"  # the page's data choice of an uploaded table
TRAIN_DATA = {  # the page's data choices (kept in the link by key) and their titles
    PRECOMPUTED_DATA: TWEETS_TITLE,
    SYNTHETIC_DATA[0]: SYNTHETIC_TITLES[True],
    SYNTHETIC_DATA[1]: SYNTHETIC_TITLES[False],
    "upload": OWN_TABLE,
}
# the page's labels, help and captions, in the order it draws them
TRAIN_WORDS = {
    "data": "Data",
    "loading_sample": "Loading the sample…",
    "upload_what": "A CSV or Parquet file with one row per case: numeric feature columns or one text column, and the "
    "source of each case's price δ. The file stays in your session.",
    "upload": "CSV or Parquet table",
    "source": "Each case's price δ comes from",
    "votes_yes": "Votes for the positive class",
    "votes_no": "Votes against",
    "measurement": "Measurement column",
    "threshold": "Threshold τ (positive above it)",
    "rating": "Rating column",
    "midpoint": "Neutral midpoint of the scale",
    "delta": "Delta column (sign = label, size = price)",
    "learns_from": "The model learns from",
    "features": "Feature columns",
    "text": "Text column",
    "building_features": "Building the features…",
    "methods": "Ways of training",
    "seeds": "Seeds (random 80/10/10 splits)",
    "submit": "Train and compare",
    "stop": "Stop training",
    "stop_help": "Finished seeds are kept: press Train and compare again to resume.",
    "by_method": "By way of training",
    "every_seed": "Every seed",
}
# where an uploaded table's prices come from, and what the model learns from (the options shown)
VOTES, MEASURED, RATED, DELTA_COLUMN = "annotator votes", "measurement and threshold", "rating", "delta column"
SOURCES = [VOTES, MEASURED, RATED, DELTA_COLUMN]
FEATURE_KINDS = ["numeric columns", "one text column"]


def guessed_source(guess) -> str:
    """The source of the prices (one of `SOURCES`) the upload's columns suggest, `guess` being
    `loading.guess_mapping` of the table: votes for and against, else a rating, else a
    measurement, else a delta column."""
    if guess.votes_yes and guess.votes_no:
        return VOTES
    if guess.rating:
        return RATED
    return MEASURED if guess.measurement else DELTA_COLUMN


def methods_help(methods) -> str:
    """The help of the ways-of-training box: each short name the charts use, and what it means."""
    from costlib.core.escaping import md_escape

    return md_escape("; ".join(f"{m}: {training_words.method_label(m).removesuffix(f' ({m})')}" for m in methods) + ".")


def your_file_sentence(name: str, n_rows: int) -> str:
    """The caption under an uploaded table's choices.

    >>> your_file_sentence("t.csv", 1200)
    'Your file: t.csv (1,200 rows).'
    """
    return f"Your file: {name} ({n_rows:,} rows)."


def training_verdict_kind(summary: pd.DataFrame) -> str:
    """The colour of the training verdict: "success" when a way of training with costs beats
    standard training beyond the noise (its whole interval of NEC change is below 0), else "info"."""
    better = summary.loc[summary["method"] != "standard", "nec_change_high"].lt(0).any()
    return "success" if better else "info"


def training_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The training table as read: four decimals for shares and errors, a percent for changes (a
    decrease with the minus sign U+2212, which no spreadsheet reads as a formula), "–" where a
    number does not apply (standard training's change against itself, a classifier's δ error).
    The CSV download keeps every digit."""
    out = frame.copy()
    itself = frame["method"].eq("standard") if "method" in frame else pd.Series(False, index=frame.index)
    for col in frame.columns:
        if col.startswith("nec_change"):
            cells = [f"{x:.1%}".replace("-", "\u2212") if pd.notna(x) else "–" for x in frame[col]]
            out[col] = ["–" if same else c for same, c in zip(itself, cells, strict=True)]
        elif col.startswith(("nec", "error_rate", "delta_mae")):
            out[col] = [f"{x:.4f}" if pd.notna(x) else "–" for x in frame[col]]
    if "method" in out:
        out["method"] = [training_words.method_label(m) for m in out["method"]]
    return out.rename(columns=training_words.COLUMN_WORDS)


@dataclass(frozen=True, eq=False)
class TrainingAnswer:
    """What the Train with costs page shows for the seeds trained so far.

    summary, results   `training_summary` over the seeds, and every seed's rows (the downloads)
    kind, verdict      the verdict's colour (`training_verdict_kind`) and its sentence
    chart              NEC and error rate of each way of training
    change_chart       NEC change against standard training (None without standard training
                       beside another way)
    r2                 the held-out R² of |δ| as shown ("n/a" without one), and its sentence
    notes              what the results ask to be told (`training_words.result_notes`)
    """

    summary: pd.DataFrame
    results: pd.DataFrame
    kind: str
    verdict: str
    chart: object
    change_chart: object | None
    r2: str
    r2_sentence: str
    notes: tuple[str, ...]

    @property
    def summary_table(self) -> pd.DataFrame:
        return training_table(self.summary)

    @property
    def results_table(self) -> pd.DataFrame:
        return training_table(self.results)


def training_answer(results: pd.DataFrame, r2: pd.Series, *, methods: tuple, data_name: str) -> TrainingAnswer:
    """The Train with costs page's answer from the seeds trained (`results`, and the cost
    predictability `r2` of each seed)."""
    from costlib.training.figures import change_figure, training_figure
    from costlib.training.summary import predictability_interval, training_summary

    summary = training_summary(results)
    r2_mean, r2_low, r2_high = predictability_interval(r2)
    return TrainingAnswer(
        summary=summary,
        results=results,
        kind=training_verdict_kind(summary),
        verdict=training_words.training_verdict(summary),
        chart=training_figure(summary, title=f"NEC and error rate on {data_name}"),
        change_chart=change_figure(summary) if "standard" in methods and len(methods) > 1 else None,
        r2="n/a" if pd.isna(r2_mean) else f"{r2_mean:.2f}",
        r2_sentence=training_words.predictability_sentence(r2_mean, r2_low, r2_high),
        notes=tuple(training_words.result_notes(results)),
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
