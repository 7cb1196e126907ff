"""What the Train with costs page says around its answer (`training_words` holds the answer, the
charts' titles and the labels the page's widgets share): its intro, the captions of its data, the
predictability number's label, the notes under its charts and table, its tables' column names, the
names of its ways of training by the share they keep, and its charts' axes, series and legend.

Plain words first: a reader meets "each case's price" and "the cost-weighted error"; the symbols
(δ, |δ|, NEC) and the model's settings are in the box of technical terms (`training_terms`), and
the library's column names in the CSV downloads.
"""

from __future__ import annotations

import math

import numpy as np

from costlib.present import training_words
from costlib.present.labels import YOUR_UNIT
from costlib.present.training_words import BELOW_ZERO, HELD_HIGH, HELD_LOW, PICKED_AMONG

CHOOSE_A_METHOD = "Choose at least one way of training."
#: in place of the answer on Train with costs and on Instance costs (the same price box) while a mistake costs 0:
#: every mistake is then free, so no way of training and no cutoff is cheaper than another (as Costs says
#: of prices all 0, `costs_labels.ALL_PRICES_ZERO`)
NO_MISTAKE_PRICE = (
    "A mistake that costs 0 is free: no decision costs anything, so there is nothing to choose. Give what a "
    "mistake on a typical case costs, above 0, to get an answer."
)

TRAIN_WHAT = (  # each case's price and the cost-weighted error said in plain words, the symbols in the terms box
    "Each case has its own price: how much a mistake on it costs, against other cases. Train the same model "
    "seven ways with those prices (standard, weighted by price, cost-proportional upsampling, keeping only the "
    "costliest cases, a regression on the prices) on the same random splits, and compare them on held-out "
    "rows by error rate and by cost-weighted error (the share of what getting every case wrong would cost that "
    "the mistakes make up; lower is cheaper). Find out whether pricing each case gives a better model on your "
    "data before you spend a training budget."
)
TWEETS_ATTRIBUTION = (
    "Davidson et al. 2017, t-davidson/hate-speech-and-offensive-language, MIT (c) 2017 Tom Davidson. "
    "Shipped as word counts without the words; the tweets themselves are never shown."
)
TWEETS_CONTENT_NOTE = (
    "Content note: the source tweets contain hateful, racist, sexist and otherwise offensive language. "
    "Only counts of words and word pairs are shipped, without the words, and no tweet text is shown anywhere."
)

# the number's name says how to read it: "R² of |δ|" alone meant nothing to a first-time reader, and
# "(R²: 1 fully, ≤ 0 not at all)" read first was still a symbol (review 3): R² is named in its help
PREDICTABILITY_LABEL = "Can the features predict the costs? (1: fully, 0 or less: no)"  # fits its column
PREDICTABILITY_HELP = (
    "The held-out R² of each case's price: the share of the spread of the cases' costs that a ridge regression "
    "on the features explains, fitted on each seed's training rows and scored on its test rows; mean over seeds. "
    f"On held-out rows it can be negative: {BELOW_ZERO}."
)
#: under the bars: their whiskers are each way's own interval, not a comparison with standard training
BARS_NOTE = "Each whisker is one way's own 95% interval: to tell a way from standard training, read the change chart."


def case_price_axis(unit: str = "") -> str:
    """Instance costs' histogram axis: each case's price of a mistake in `unit`, from 0 up (the class is
    the series', `figures.CASE_CLASSES`: an amount drawn below 0 read as a gain, review 71).

    >>> case_price_axis("$")
    'cost of a mistake on the case ($)'
    """
    return f"cost of a mistake on the case ({unit or YOUR_UNIT})"


# the columns of `training.summary.training_summary` and of every seed's rows as the page shows them
COST_COLUMN = "cost per case"  # the price of a typical mistake times NEC (`answers.training.training_table`)
CHANGE_INTERVAL_COLUMN = "95% interval"  # of the change beside it, the verdict's (held): fits beside the sidebar
#: the summary's columns the page's table leaves to the charts' whiskers and tables (the CSV keeps them), and
#: the seeds, one count on every row, which the verdict and the bars' axis say ("10-seed means"): with it the
#: columns took 944 px of the 940 the page gives a table at 1400 px, "price error" cut at the edge
LEFT_TO_THE_CHARTS = (
    "nec_low", "nec_high", "error_rate_low", "error_rate_high", "nec_change_low", "nec_change_high", "seeds",
    HELD_LOW, HELD_HIGH, PICKED_AMONG,
)  # fmt: skip
#: the tables' row counts, read as every count in the app is ("19,812"; the grid shows a bare number "19812")
COUNT_COLUMNS = ("n_fit", "n_train", "n_validation", "n_test", "n_zero_delta")


def count_cells(counts) -> list[str]:
    """Row counts as the page's tables show them: with a thousands separator, "–" where there is none.

    >>> count_cells([19812, 980, None, float("nan")])
    ['19,812', '980', '–', '–']
    """
    return ["–" if x is None or x != x else f"{int(x):,}" for x in counts]


COLUMN_WORDS = {
    "method": "way of training",
    "nec": "cost-weighted error",
    "nec_low": "cost-weighted error low",
    "nec_high": "cost-weighted error high",
    "error_rate": "error rate",
    "error_rate_low": "error rate low",
    "error_rate_high": "error rate high",
    "nec_change": "cost change (− cheaper)",
    "nec_change_low": "change low, this way alone",
    "nec_change_high": "change high, this way alone",
    HELD_LOW: "change low, held for the pick",  # the verdict's, the chart's and the table's interval
    HELD_HIGH: "change high, held for the pick",
    PICKED_AMONG: "ways picked among",
    "delta_mae": "price error",
    "n_fit": "rows fitted on",
    "n_train": "training rows",
    "n_validation": "validation rows",
    "n_test": "test rows",
    "n_zero_delta": "rows priced 0 (left out)",
}
#: every seed's row counts that are the same for every way of training and every seed (the 80/10/10
#: split of the same rows): said once under the table, in place of four columns that ran off its edge
SPLIT_COUNTS = ("n_train", "n_validation", "n_test", "n_zero_delta")


def split_counts_sentence(train: int, validation: int, test: int, zero: int) -> str:
    """The row counts every seed shares, under the table of every seed.

    >>> split_counts_sentence(19812, 2477, 2477, 17)[:72]
    'Every seed splits the rows alike: 19,812 training rows, 2,477 validation'
    >>> split_counts_sentence(80, 10, 10, 1)[-82:]
    '10 test rows; 1 row priced 0 is left out before the split. The CSV has the counts.'
    """
    rows, are = ("row", "is") if zero == 1 else ("rows", "are")
    left = f"; {zero:,} {rows} priced 0 {are} left out before the split" if zero else ""
    return (
        f"Every seed splits the rows alike: {train:,} training rows, {validation:,} validation rows and {test:,} "
        f"test rows{left}. The CSV has the counts."
    )


def synthetic_description(*, predictable: bool) -> str:
    """What a synthetic control is, in one caption."""
    common = (
        "Synthetic control (5,000 rows, 10 features, fixed seed): the label follows feature x0 where x1 > 0 "
        "and feature x2 elsewhere, so a linear model must compromise between the two halves. "
    )
    if predictable:
        return common + (
            "Each case's price grows with x1 (the margin times exp(x1)): the features predict the costs, "
            "so training with costs can favour the dear half."
        )
    return common + (
        "The same prices are shuffled across cases: nothing predicts them, so training with costs can only add noise."
    )


#: the seeds' box (it said "Seeds (random 80/10/10 splits)"): plain first, the split in its help
SEEDS_LABEL = "Seeds: random splits of the rows to average over"
SEEDS_HELP = (
    "Each seed splits the rows at random: 80% to train on, 10% set aside and 10% to test on. Every way of "
    "training is judged on the same test rows of a seed, and the page shows the mean over the seeds; more seeds "
    "give a narrower interval and take longer."
)
#: where the tweets' prices come from, in plain words (the formula is `training_words.TWEETS_SOURCE`, in the terms)
TWEETS_SOURCE_PLAIN = "annotator votes: the more the annotators agree, the costlier a mistake"


def word_features(n: int, column: str | None = None) -> str:
    """The words the model learns from, in plain words (`training_words.tfidf_features` is the technical name).

    >>> word_features(44319), word_features(2, "note")
    ('44,319 words and word pairs as features', '2 words and word pairs of the text column "note" as features')
    """
    of = "" if column is None else f' of the text column "{column}"'
    return f"{n:,} words and word pairs{of} as features"


def votes_source(mapping) -> str:
    """Where an uploaded table's prices come from, in plain words, where `training_words.table_source` gives a
    formula (votes); "" where its words are plain already.

    >>> from costlib.core.dataset import ColumnMapping
    >>> votes_source(ColumnMapping(votes_yes="y", votes_no="n")), votes_source(ColumnMapping(delta="d"))
    ('votes "y" against "n": the more of them agree, the costlier a mistake', '')
    """
    if not mapping.votes_yes:
        return ""
    return f'votes "{mapping.votes_yes}" against "{mapping.votes_no}": the more of them agree, the costlier a mistake'


def data_terms(data) -> str:
    """The data's features and prices in their technical words, for the box of technical terms.

    >>> from types import SimpleNamespace as D
    >>> data_terms(D(features="2 TF-IDF features", source="votes, ln((yes + 1) / (no + 1))"))
    "This data, technically: 2 TF-IDF features; each case's price δ from votes, ln((yes + 1) / (no + 1))."
    """
    return f"This data, technically: {data.features}; each case's price δ from {data.source}."


def data_sentence(data) -> str:
    """What a `training.data.TrainingData` is made of, in words (its source's formula in parentheses).

    >>> from types import SimpleNamespace as D
    >>> data_sentence(D(delta=[1.0, 0.0, -2.0], n_rows=3, features="2 numeric feature columns", source="x"))[:64]
    "3 rows; 2 numeric feature columns; each case's price from x. 1 r"
    """
    zero = int(np.count_nonzero(np.asarray(data.delta) == 0))
    left = (
        f" {zero:,} {'row has' if zero == 1 else 'rows have'} a price of 0 (no label, no cost) and "
        f"{'is' if zero == 1 else 'are'} left out."
        if zero
        else ""
    )
    features = getattr(data, "features_plain", "") or data.features  # plain words first: the terms say the rest
    source = getattr(data, "source_plain", "") or data.source
    return f"{data.n_rows:,} rows; {features}; each case's price from {source}.{left}"


def precomputed_technical(settings: dict, versions: dict) -> str:
    """How the precomputed result was made: in words, then for the record its script, random
    state, estimators and versions."""
    return (
        "The precomputed result trained the page's own model, with the same random splits as training here "
        f"would. For the record: scripts/make_training_sample.py, random state {settings['random_state']}, "
        f"{settings.get('estimator', 'default estimators')}, scikit-learn {versions.get('scikit-learn', '?')}."
    )


# ---------------------------------------------------------------------------------------
# The ways of training by the share they keep (`training.kept`): where many cases share a price,
# every case tied at the cut is kept, and "the costliest 30%" kept 88% of the tweets' training
# rows, the same rows as "the costliest 50%" (review 3). A name says what the way does, the share it
# keeps the costliest of and that the cases tied with them come too, then the share that comes to:
# "costliest 30% + ties: 88.0%", now "top 30% + ties: 88.0% kept" (review 71: a bare share read as
# accuracy). Review 70: "costliest 88% (30% / 50% / 70% asked)" read as three alike ways, "asked"
# unexplained, and the 70% one (88.2%) was another model. The kept shares
# are shown at the decimals that tell apart those that differ (`_kept_digits`). `shares` is
# {method: (share asked, share kept)}.


def _kept_digits(shares) -> int:
    """The decimals (0, 1 or 2) at which the kept shares of `shares` that differ read differently.

    >>> _kept_digits({"tdown30": (0.3, 0.8800), "tdown50": (0.5, 0.8800), "tdown70": (0.7, 0.8822)})
    1
    >>> _kept_digits({"tdown30": (0.3, 0.88), "tdown50": (0.5, 0.93)})
    0
    """
    kept = sorted({k for _, k in (shares or {}).values()})
    for d in (0, 1):
        shown = [f"{100 * k:.{d}f}" for k in kept]
        if len(set(shown)) == len(shown):
            return d
    return 2


def _kept(method: str, shares) -> tuple[str, str] | None:
    """(kept, asked) as percents when `method` keeps another share than its name asks (at whole percents), else
    None: the kept share at the decimals that tell it from the other ways' (`_kept_digits`)."""
    if method not in (shares or {}):
        return None
    asked, kept = shares[method]
    if f"{100 * kept:.0f}" == f"{100 * asked:.0f}":
        return None
    return f"{100 * kept:.{_kept_digits(shares)}f}%", f"{100 * asked:.0f}%"


def method_short(method: str, shares=None) -> str:
    """The chips' and the charts' name of `method`: 'top 30% + ties: 88% kept' (the costliest 30%) where
    keeping the costliest 30%, and every case tied with them, kept 88% of the rows; else
    `training_words.method_short`'s. The share is said as the rows kept: a bare "88.0%" beside a way
    of training read as its accuracy (review 71, item 10); "top" for "costliest", so that every way's tag
    fits the box at once (`tests/views/test_train_methods_box.py`).

    >>> method_short("tdown30", {"tdown30": (0.3, 0.8797)}), method_short("tdown30", {"tdown30": (0.3, 0.302)})
    ('top 30% + ties: 88% kept', 'top 30%')
    """
    kept = _kept(method, shares)
    if kept is None:
        return training_words.method_short(method)
    return f"top {kept[1]} + ties: {kept[0]} kept"


def method_label(method: str, shares=None) -> str:
    """The verdict's and the table's name of `method`, as `method_short` but in full.

    >>> method_label("tdown50", {"tdown50": (0.5, 0.88)}), method_label("tdown50", {"tdown50": (0.5, 0.5)})
    ('keeping the top 50% + ties (88% of rows)', 'keeping the top 50%')
    """
    kept = _kept(method, shares)
    if kept is None:
        return training_words.method_label(method)
    return f"keeping the top {kept[1]} + ties ({kept[0]} of rows)"


def methods_help(methods, shares=None) -> str:
    """The help of the ways-of-training box: each name the charts use, and what it means.

    >>> methods_help(["tdown30"], {"tdown30": (0.3, 0.88)}).replace(chr(92), "")[:92]  # no Markdown escapes
    'top 30% + ties: 88% kept — keeps the costliest 30% of the training cases and every case tied'
    """
    from costlib.core.escaping import md_escape

    def meaning(m: str) -> str:
        kept = _kept(m, shares)
        if kept is not None:
            return (
                f"keeps the costliest {kept[1]} of the training cases and every case tied with them (many cases "
                f"share a price), {kept[0]} of them"
            )
        if m in (shares or {}):  # "top 30%": of what, said here
            return f"keeps the costliest {100 * shares[m][0]:.0f}% of the training cases"
        return method_label(m)

    return md_escape("; ".join(f"{method_short(m, shares)} — {meaning(m)}" for m in methods) + ".")


def same_rows_notes(results, shares=None) -> list[str]:
    """Under the charts: the ways of keeping the costliest cases that kept the very same rows in every
    seed (the same model, so the same numbers), by the names the charts give them.

    >>> import pandas as pd
    >>> r = pd.DataFrame({"method": ["tdown30", "tdown50"], "seed": [0, 0], "n_fit": [70, 70], "n_train": 100})
    >>> same_rows_notes(r, {"tdown30": (0.3, 0.7), "tdown50": (0.5, 0.7)})  # doctest: +ELLIPSIS
    ['“top 30% + ties: 70% kept” and “top 50% + ties: 70% kept” keep the same...']
    """
    if not {"method", "seed", "n_fit"} <= set(results.columns):
        return []
    fits = results[results["method"].astype(str).str.startswith("tdown")].pivot_table(
        index="seed", columns="method", values="n_fit", aggfunc="first"
    )
    same = [m for m in fits.columns if any(o != m and (fits[o] == fits[m]).all() for o in fits.columns)]
    if len(same) < 2:
        return []
    names = [f"“{method_short(m, shares)}”" for m in same]  # quoted: the chart's names hold a colon
    return [
        f"{' and '.join([', '.join(names[:-1]), names[-1]])} keep the same rows in every seed: the same model, so "
        "the same numbers. Many cases share the same price, and every case tied at the cut is kept."
    ]


# ---------------------------------------------------------------------------------------
# The charts' words (`training.figures`; their titles are `training_words.BARS_TITLE` and `CHANGE_TITLE`): the
# bars of the cost-weighted error (NEC) and error rate per way of training, and the change in cost (NEC's
# relative change: the price is the same) against standard training; in plain words, the symbols in the
# terms box (`training_terms`)
METHOD_AXIS = "way of training"
BAR_SERIES = {"nec": "cost-weighted error", "error_rate": "error rate"}  # column -> its name
STANDARD_LINE = "standard training"  # the change chart's line at 0


BARS_VALUE_AXIS = "cost-weighted or plain error (test rows)"  # short: a longer title ran into the chart's title


def bars_axis_title(seeds: int, level: float) -> str:
    """The bars' category axis, short: it heads a column of the chart's words at 1400 px (what a
    bar and its whisker are is `BARS_NOTE`, under the chart).

    >>> bars_axis_title(10, 0.95)
    'way of training (10-seed means, 95% intervals)'
    """
    return f"{METHOD_AXIS} ({seeds}-seed means, {level:.0%} intervals)"


def change_axis_title(level: float, among: int = 0) -> str:
    """The change chart's value axis: its intervals are the verdict's, widened for the pick among `among` ways
    (`training_words.held_interval`), else each way's own, paired by seed. Short: a longer title ran past the
    chart's right edge beside the predictability number (the table's caption says the pairing).

    >>> change_axis_title(0.95, 6), change_axis_title(0.95, 1)
    ('cost change, % (95% interval, widened for picking among 6)', 'cost change, % (95% interval, paired by seed)')
    """
    held = f"widened for picking among {among}" if among > 1 else "paired by seed"
    return f"cost change, % ({level:.0%} interval, {held})"


def change_hover(label: str, change: float, low: float, high: float) -> str:
    """A point's hover on the change chart: the way of training's `label` (escaped by the caller),
    its change in cost (NEC) in percent and its interval (none when `low` is NaN: one seed).

    >>> change_hover("p_up", -4.25, -6.0, 2.5)
    'p_up<br>cost change: −4.2% (95% interval −6.0% to +2.5%)'
    """
    shown = (
        training_words.change_percent(x / 100, signed=True) for x in (change, low, high)
    )  # as the verdict and the table
    mid, lo, hi = shown
    return f"{label}<br>cost change: {mid}" + ("" if math.isnan(low) else f" (95% interval {lo} to {hi})")


#: the change chart's three readings in its legend (`training.figures.CHANGES` adds each one's
#: colour and shape): cheaper beyond the noise, costlier beyond the noise, not told apart
CHANGE_NAMES = (
    "cheaper beyond the noise",
    "costlier beyond the noise",
    "not told apart from standard training",
)
