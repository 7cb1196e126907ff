"""Plain-words sentences for training with instance costs, built from computed numbers, and what
the Train with costs page says around them: its intro, its data choices' titles and captions, its
labels and help (`TRAIN_WORDS`), the notes on an uploaded text column and the charts' titles.

The verdict reads `costlib.training.summary.training_summary`'s table; the predictability sentence
reads the held-out R^2 of |delta| from `costlib.training.compare.cost_predictability`. Pages, the
command line and tests all use these functions, so the words are the same everywhere.
"""

from __future__ import annotations

import math

import pandas as pd

from costlib.loading.messages import plural
from costlib.present import labels
from costlib.present.amounts import MONTH_WHOLE, money, money_digits, shown_saving
from costlib.present.words import Verdict, verdict_head

UPLOAD_TO_TRAIN = "Upload a table to train on it."
PRESS_TRAIN = "Press **Train and compare** to train with these settings."

METHOD_LABELS = {
    "standard": "standard training",
    "weighted": "price-weighted training",
    "p_up": "cost-proportional upsampling",
    "tdown30": "keeping the top 30%",
    "tdown50": "keeping the top 50%",
    "tdown70": "keeping the top 70%",
    "regression": "price regression",
}
#: what the verdict says a way is, after its name, where the name alone is jargon (review 140)
METHOD_GLOSS = {"regression": "a model trained to predict each case's price, its sign the class"}
# What the box's chips and the charts' axes call each way: short enough for a chip and a bar, in
# words (the code names p_up and tdown30 meant nothing to a first-time reader)
METHOD_SHORT = {
    "standard": "standard",
    "weighted": "weighted",
    "p_up": "upsampled",
    "tdown30": "top 30%",
    "tdown50": "top 50%",
    "tdown70": "top 70%",
    "regression": "regression",
}
# Rules of thumb for the held-out R^2 of |delta| (stated on the page with the number).
R2_NONE, R2_SOME = 0.05, 0.20


# ---------------------------------------------------------------------------------------
# The Train with costs page (views/train.py, views/_ui/training.py): its intro, labels and captions

# the page's data choices: the tweets (`training.data.tweets`), the synthetic controls, an upload
TWEETS_TITLE = "Offensive language (Davidson et al. 2017 tweets)"
SYNTHETIC_TITLES = {
    True: "Synthetic control: costs predictable from the features",
    False: "Synthetic control: costs not predictable (shuffled)",
}
OWN_TABLE = "Your own table"  # the page's data choice of an uploaded table
# what `training.data.text_features` did to an uploaded text column (a `TrainingData` note)
NOTE_EMPTY_TEXT = (
    '{count:,} {rows} of "{column}" {are} empty; {they} get no word features (the model sees only its intercept there).'
)
NOTE_TEXT_CAPPED = (
    'The text column "{column}" has {total:,} words and word pairs that occur in two or more rows; the '
    "{kept:,} most frequent are used."
)
# the page's labels, help and captions, in the order it draws them
TRAIN_WORDS = {
    "data": "Data",
    "loading_sample": "Loading the sample…",
    "upload_what": "A CSV or Parquet file with one row per case: numeric feature columns or one text column, and the "
    "source of each case's price. The file stays in your session.",
    "upload": "CSV or Parquet table",
    "source": "Each case's price comes from",
    "votes_yes": "Votes for the positive class",
    "votes_no": "Votes against",
    "measurement": "Measurement column",
    "threshold": "Threshold (positive above it)",
    "rating": "Rating column",
    "midpoint": "Neutral midpoint of the scale",
    "delta": labels.MAP_DELTA,  # the Data page's words
    "learns_from": "The model learns from",
    "features": "Feature columns",
    "text": "Text column",
    "building_features": "Building the features…",
    "methods": "Ways of training",
    "submit": "Train and compare",
    "stop": "Stop training",
    "stop_help": "Finished seeds are kept: press Train and compare again to resume.",
    "by_method": "By way of training",
    "every_seed": "Every seed",
    "pick_column": "Choose a column",  # a price column the table's names did not give: no default
}
# an upload's sources of prices (the Data page's names, in this page's order) and kinds of features
SOURCES = [labels.VOTES, labels.MEASUREMENT, labels.RATING, labels.DELTA_COLUMN]
FEATURE_KINDS = ["numeric columns", "one text column"]
#: a held-out R² below 0, said where it is shown (it is not clipped: the number is the one measured)
BELOW_ZERO = "below 0 means the features predict the costs worse than their average does, that is not at all"
#: what the seeds' intervals are, said under the verdict and above the table
SEEDS_CAVEAT = (
    "The seeds re-split the same rows, so their results are not independent: each interval is widened for the "
    "rows they share (the technical terms say how) to roughly cover what new data of this size would give "
    "(94% to 99% of the time in our simulations), not only these splits."
)
#: what the command line calls the intervals (`costlib train`'s settings and its header line)
INTERVAL_NAME = (
    "95% corrected resampled t interval over seeds (Nadeau and Bengio 2003); for the change in NEC, the delta "
    "method's for the ratio of the mean NECs, with the same correction"
)
# what a `training.data.TrainingData` is made of, in one phrase each (its ``features`` and ``source``)
TWEETS_SOURCE = "annotator votes, ln((offensive or hateful votes + 1) / (neither votes + 1))"


#: above the table of the ways (the CSV uses the page's names and ways, `answers.training.export_table`)
TABLE_MEANING = (
    "Means over seeds. The cost per case is the price of a typical mistake times the cost-weighted error. The "
    "cost change is relative to standard training (negative is cheaper), paired by seed, with its 95% interval: "
    "the verdict's and the change chart's, widened for picking the cheapest of the ways on the same test rows. "
    "The intervals of the cost-weighted error and of the error rate are the first chart's whiskers. The price "
    "error is how far price regression's guess of each case's signed price is off on average, in money: a "
    "typical case's price is the price above. The CSV keeps every interval and every digit under the same column "
    "names (a change as a fraction: −0.08 is 8% cheaper), each way's own interval of the change too."
)


def tfidf_features(n: int, column: str | None = None) -> str:
    """The TF-IDF features of the tweets sample (`column` None) or of a table's text `column`.

    >>> tfidf_features(44319), tfidf_features(2, "note")
    ('44,319 TF-IDF word and word-pair features', '2 TF-IDF word and word-pair features of the text column "note"')
    """
    return f"{n:,} TF-IDF word and word-pair features" + ("" if column is None else f' of the text column "{column}"')


def numeric_features(n: int) -> str:
    """A table's `n` numeric feature columns.

    >>> numeric_features(1), numeric_features(1200)
    ('1 numeric feature column', '1,200 numeric feature columns')
    """
    return f"{n:,} numeric feature {plural(n, 'column', 'columns')}"


def synthetic_features(n: int) -> str:
    """A synthetic control's `n` features."""
    return f"{n} numeric features (independent normals)"


def synthetic_source(*, predictable: bool) -> str:
    """Where a synthetic control's prices come from."""
    how = "a price that grows with feature x1" if predictable else "prices shuffled across rows"
    return f"a synthetic margin times {how}"


def table_source(mapping) -> str:
    """Where an uploaded table's δ comes from, `mapping` being the `ColumnMapping` it was read with
    (a delta column, votes for and against, a measurement and its threshold, or a rating and its
    midpoint; the names are the user's, escaped where they are shown).

    >>> from costlib.core.dataset import ColumnMapping
    >>> table_source(ColumnMapping(measurement="m", measurement_threshold=0.5))
    'measurement "m" minus 0.5'
    """
    if mapping.delta:
        return f'the price column "{mapping.delta}" (its size the price, its sign the label)'
    if mapping.votes_yes:
        return f'votes "{mapping.votes_yes}" against "{mapping.votes_no}", ln((yes + 1) / (no + 1))'
    if mapping.measurement:
        return f'measurement "{mapping.measurement}" minus {mapping.measurement_threshold:g}'
    return f'rating "{mapping.rating}" minus {mapping.rating_midpoint:g}'


# the charts' titles (`training.figures`; their axes, series and legend are `training_page`'s): the bars of the
# cost-weighted error (NEC) and error rate per way of training, and the change in cost (NEC's relative change:
# the price is the same) against standard training
BARS_TITLE = "Cost-weighted error and error rate by way of training"
CHANGE_TITLE = "Change in cost against standard training"


def method_label(method: str) -> str:
    """'price-weighted training' for 'weighted' (unknown names are returned as they are)."""
    return METHOD_LABELS.get(method, str(method))


def method_short(method: str) -> str:
    """'upsampled' for 'p_up': the name the chips and the charts use (unknown names as they are).

    >>> method_short("tdown30"), method_short("mine")
    ('top 30%', 'mine')
    """
    return METHOD_SHORT.get(method, str(method))


def left_out_sentence(why) -> str:
    """Said under an upload's feature choices: the columns left out of the features at first because
    their names say they may be the answer (`why`: {column: why}, `training.data.answer_columns`), and
    that one chosen by hand is refused only if its values copy the label (the label is each case's
    price's sign here, not a column).

    >>> left_out_sentence({"y": "is named as the outcome"})[:74]
    'Not among the features at first: “y” is named as the outcome. Choose it by'
    """
    said = "; ".join(f"“{column}” {reason}" for column, reason in why.items())
    one = len(why) == 1
    return (
        f"Not among the features at first: {said}. Choose {'it' if one else 'one'} by hand if it is not the answer: "
        "a column is refused only if its values copy the label (the sign of each case's price)."
    )


def no_price_sentence(name: str) -> str:
    """Said above the price choices of an uploaded table none of whose columns is named like a
    price: no column is chosen for the person, who chooses one (the first column was taken before,
    and the error then blamed the file).

    >>> no_price_sentence("cases.csv")[:56]
    'No price column was found in “cases.csv”: no column is n'
    """
    return (
        f"No price column was found in “{name}”: no column is named like a price (delta, votes for and against, "
        "a rating or a measurement). Choose where each case's price comes from and its column below."
    )


def not_numbers_sentence(name: str, column: str, row: int, value: str, more: int = 0) -> str:
    """Under an uploaded table's data: a column of numbers but for a few cells, left out of the features, by
    the file, the column, its first such cell's row and value (review 140: it left without a word).

    >>> not_numbers_sentence("train_bad.csv", "f2", 6, "n/a?")[:86]
    '“f2” of “train_bad.csv” is left out of the features: row 6 holds “n/a?”, not a number.'
    >>> not_numbers_sentence("t.csv", "f2", 6, "?", more=2)[45:103]
    'row 6 holds “?”, not a number, and so do 2 more rows. Corr'
    """
    also = f", and so do {more:,} more {plural(more, 'row', 'rows')}" if more else ""
    return (
        f"“{column}” of “{name}” is left out of the features: row {row:,} holds “{value}”, not a number{also}. "
        f"Correct {'it' if not more else 'them'} to use the column."
    )


def your_file_sentence(name: str, n_rows: int) -> str:
    """The caption under an uploaded table's choices.

    >>> your_file_sentence("t.csv", 1200), your_file_sentence("one.csv", 1)
    ('Your file: t.csv (1,200 rows).', 'Your file: one.csv (1 row).')
    """
    return f"Your file: {name} ({n_rows:,} {plural(n_rows, 'row', 'rows')})."


def _isnan(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def percents(*values: float) -> list[str]:
    """Percentages of fractions with one shared precision: whole when every value is 10% or more, else one decimal.

    >>> percents(0.31, 0.24, 0.38), percents(0.082, 0.031, 0.134)
    (['31%', '24%', '38%'], ['8.2%', '3.1%', '13.4%'])
    """
    digits = 0 if all(abs(x) >= 0.1 for x in values) else 1
    return [f"{100 * x:.{digits}f}%" for x in values]


def signed_percents(*values: float) -> list[str]:
    """Like `percents` with an explicit sign, a decrease with the table's minus sign U+2212:
    ['+4.3%', '−1.2%'] for 0.043 and -0.012."""
    out = percents(*values)
    return [p.replace("-", "\u2212") if x < 0 else "+" + p for p, x in zip(out, values, strict=True)]


#: the Train page's honest equivalent of "do not let the model decide" (`rules.DO_NOT`): the model
#: still decides, trained the standard way; it is training with costs that is not to be done
DO_NOT_TRAIN = "Do not train with costs"
INCLUDE_STANDARD = "Include standard training in the ways of training: every other way is judged against it."
CHOOSE_ANOTHER = "Choose at least one way of training besides standard training to compare with it."
STANDARD_PERFECT = (
    "Standard training makes no costly mistake on the test rows, so no way of training can improve on it."
)
ONE_SEED = "there is no interval with one seed to tell it from chance: run at least 2 seeds (10 is the default)"


def price_sentence(price: float, unit: str) -> str:
    """How the page turns NEC into money, in one sentence under its verdict.

    >>> price_sentence(2.0, "$")[:62]
    'A mistake on a typical case (one of average price) costs $2.00'
    """
    return (
        f"A mistake on a typical case (one of average price) costs {money(price, unit)}, the price above; one on "
        "a costlier case costs more in proportion. The cost per case is the cost-weighted error (the share of what "
        "getting every test case wrong would cost that the model's mistakes make up) times that price."
    )


def picked_sentence(m: int) -> str:  # beside a verdict picked among `m` ways (`training.summary.held_for_pick`)
    return (
        f"The cheapest of the {m} ways of training with costs is picked on these same test rows, so every interval "
        "of a change in cost on this page (the verdict's, the change chart's and the table's: one interval per way) "
        "is widened to hold the luck of that pick too; the CSV also keeps each way's own, narrower one."
    )


def change_percent(x: float, *, signed: bool = False) -> str:
    """A change in cost as the page reads it everywhere (the verdict, the table, the chart's hover): a percent at
    one decimal, a decrease with the minus sign U+2212 (negative is cheaper); `signed` puts "+" before an
    increase (in sentences: the table's cells go without, which a spreadsheet would take for a formula).

    >>> change_percent(-0.0833), change_percent(0.017), change_percent(0.017, signed=True)
    ('−8.3%', '1.7%', '+1.7%')
    """
    text = f"{x:.1%}".replace("-", "\u2212")
    return "+" + text if signed and round(x, 3) > 0 else text


def named_way(summary: pd.DataFrame) -> str | None:
    """The way of training the verdict names (`training_verdict_of`): of those whose whole interval
    of NEC change, held for the pick among the ways compared (`training.summary.held_for_pick`), is below 0, the
    largest cut; else the largest mean cut; None when there is no standard training or no other way
    with a change.

    >>> named_way(pd.DataFrame({"method": ["standard", "weighted", "p_up"], "nec_change": [0.0, -0.1, -0.3],
    ...                         "nec_change_high": [0.0, -0.05, 0.1]}))
    'weighted'
    """
    return _named(held_interval(summary).set_index("method"))


HELD_LOW, HELD_HIGH, PICKED_AMONG = "nec_change_held_low", "nec_change_held_high", "picked_among"


def held_interval(summary: pd.DataFrame) -> pd.DataFrame:
    """`summary` as the verdict reads it, and the change chart and the table with it (one interval of a change
    per way on the page): held for the pick by `training.summary.held_for_pick` (its columns `HELD_LOW`,
    `HELD_HIGH`, `PICKED_AMONG`), else each way on its own interval, picked among none (the answers hold
    a summary before they read it: `answers.training_verdict_kind`).

    >>> s = pd.DataFrame({"method": ["standard", "p_up"], "nec_change": [0.0, -0.1], "nec_change_low": [0.0, -0.2],
    ...                   "nec_change_high": [0.0, 0.05]})
    >>> held_interval(s)[[HELD_LOW, HELD_HIGH, PICKED_AMONG]].iloc[1].tolist()
    [-0.2, 0.05, 0.0]
    """
    if HELD_HIGH in summary:
        return summary
    own = summary.get("nec_change_low", math.nan), summary.get("nec_change_high", math.nan)
    return summary.assign(**{HELD_LOW: own[0], HELD_HIGH: own[1], PICKED_AMONG: 0})


def _named(t: pd.DataFrame) -> str | None:
    """`named_way` of a summary held for the pick (`held_interval`), by way."""
    if "standard" not in t.index:
        return None
    others = t.drop(index="standard")
    others = others[others["nec_change"].notna()]
    if others.empty:
        return None
    winners = others[others[HELD_HIGH] < 0]
    return (winners if not winners.empty else others)["nec_change"].idxmin()


def cost_digits(summary: pd.DataFrame, price: float) -> int:
    """The decimals the page shows every way's cost per case at: those that tell the way the
    verdict names (`named_way`) from standard training as their difference reads
    (`amounts.shown_saving`), so that the table's costs read as the answer's.

    >>> cost_digits(pd.DataFrame({"method": ["standard", "weighted"], "nec": [0.0572, 0.0524],
    ...                           "nec_change": [0.0, -0.08], "nec_change_high": [0.0, -0.03]}), 1.0)
    4
    """
    t = summary.set_index("method")["nec"].astype(float) * price
    way = named_way(summary)
    if way is None:
        return money_digits(float(t.max())) if t.notna().any() else 2
    return shown_saving(float(t["standard"]), float(t[way]))[0]


def training_verdict_of(
    summary: pd.DataFrame, *, price: float = 1.0, unit: str = "", volume: float | None = None
) -> Verdict:
    """The Train with costs page's one answer: does a way of training with costs beat standard
    training (the best one can do without the costs), in money per case and a month?

    Each way's cost per case is `price` (a mistake on a typical case, in `unit`) times its mean
    NEC over the seeds; a month is `volume` cases. The verdict is the shared ship rule
    (`core.ship.ship_verdict`) on the saving against standard training and its 95% interval over
    the seeds (the relative NEC change, paired by seed), held for picking the cheapest of the ways
    compared on the very test rows it is judged on (`summary` as `training.summary.held_for_pick` returns it: wider
    than each way's own with two ways or more, `picked_sentence` says so; a summary not held is read on each way's
    own interval, picked among none): ship the way whose whole interval is a saving (the
    largest such), else judge the closest one: not clearly better while it is cheaper on these seeds,
    else do not train with costs (`DO_NOT_TRAIN`).

    >>> s = pd.DataFrame({"method": ["standard", "weighted"], "seeds": [10, 10], "nec": [0.10, 0.069],
    ...                   "nec_change": [0.0, -0.31], "nec_change_low": [0.0, -0.38],
    ...                   "nec_change_high": [0.0, -0.24], "error_rate": [0.10, 0.12]})
    >>> training_verdict_of(s, price=1.0, unit="$", volume=1000).headline  # doctest: +NORMALIZE_WHITESPACE
    'Ship the model: price-weighted training beats standard training. It costs $0.069 per case ($69 a month)
     against $0.100 per case ($100 a month) with standard training: it saves $0.031 per case, $31 a month,
     a change in cost of −31.0% (95% interval over 10 seeds −38.0% to −24.0%).'

    The change and its interval read as the change chart and the table read them (`change_percent`: negative is
    cheaper), and every amount a month in one sentence at one precision (`_months`).
    """
    from costlib.core import rules as R
    from costlib.core.ship import ship_verdict
    from costlib.instance import nec_money

    t = held_interval(summary).set_index("method")  # each way's interval held for the pick: the verdict's
    m = int(t[PICKED_AMONG].max()) if len(t) else 0
    picked = (picked_sentence(m),) if m > 1 else ()
    if "standard" not in t.index:
        return Verdict("info", INCLUDE_STANDARD)
    others = t.drop(index="standard")
    if others.empty:
        return Verdict("info", CHOOSE_ANOTHER)
    others = others[others["nec_change"].notna()]
    if others.empty:
        return Verdict("info", STANDARD_PERFECT)
    winners = others[others[HELD_HIGH] < 0]
    best = _named(t)
    r = others.loc[best]
    change, low, high = (float(r[c]) for c in ("nec_change", HELD_LOW, HELD_HIGH))
    verdict = ship_verdict(-change, -high, -low)
    seeds = int(r["seeds"]) if "seeds" in r and pd.notna(r["seeds"]) else 0
    cost_std, cost = (float(nec_money(float(x), price)) for x in (t.loc["standard", "nec"], r["nec"]))
    digits, shown = shown_saving(cost_std, cost)  # the table's decimals too (`cost_digits`): they read alike
    std_month, cost_month, saved_month = _months(cost_std, cost, volume, unit)
    std_text, cost_text = (
        f"{money(x, unit, digits=digits)} per case" + (f" ({m} a month)" if m else "")
        for x, m in ((cost_std, std_month), (cost, cost_month))
    )
    label = method_label(best) + (f" ({METHOD_GLOSS[best]})" if best in METHOD_GLOSS else "")
    saves = f"{money(shown, unit, digits=digits)} per case" + (f", {saved_month} a month" if saved_month else "")
    mid, lo, hi = (change_percent(x, signed=True) for x in (change, low, high))  # the chart's and the table's
    if verdict == R.SHIP:
        k = len(winners) - 1
        also = f"{k} other {'way' if k == 1 else 'ways'} of training with costs also {'costs' if k == 1 else 'cost'} "
        head = (
            f"{verdict_head(R.SHIP)}: {label} beats standard training. It costs {cost_text} against {std_text} with "
            f"standard training: it saves {saves}, a change in cost of {mid} (95% interval over {seeds} seeds {lo} "
            f"to {hi})."
        )
        details = [_error_rate_sentence(float(r["error_rate"]), float(t.loc["standard", "error_rate"]))]
        details += [also + "less beyond the noise."] if k else []
        return Verdict("success", head, (*details, *picked, price_sentence(price, unit), SEEDS_CAVEAT))
    details = [price_sentence(price, unit)]
    worse = int((others[HELD_LOW] > 0).sum())  # as the change chart marks them: on the same held intervals
    if worse:
        details.append(
            f"{worse} of the {len(others)} ways of training with costs {'costs' if worse == 1 else 'cost'} more than "
            "standard training beyond the noise."
        )
    if verdict == R.NOT_CLEARLY:
        if math.isnan(low):
            why = ONE_SEED
        else:
            why = f"the 95% interval of that change over {seeds} seeds, {lo} to {hi}, includes zero"
        head = (
            f"{verdict_head(R.NOT_CLEARLY)}: keep standard training, at {std_text}. The closest, {label}, would "
            f"cost {cost_text}, a change in cost of {mid}: it might save {saves}, but {why}, so it could be chance."
        )
        return Verdict("warning", head, (*picked, *details, SEEDS_CAVEAT))
    than = f"{change_percent(change)} more than standard training" if change > 0 else "the same as standard training"
    head = (
        f"{DO_NOT_TRAIN}: keep standard training, at {std_text}. No way of training with costs is cheaper on these "
        f"seeds: the closest, {label}, costs {cost_text}, {than}."
    )
    return Verdict("error", head, tuple(details))


def _months(cost_std: float, cost: float, volume: float | None, unit: str) -> tuple[str, str, str]:
    """Standard training's cost a month, the way's and the saving (`cost_std` less `cost` a case, times `volume`),
    all three at one precision: whole units when either cost a month is `amounts.MONTH_WHOLE` or more, so that
    a sentence never reads "$572 a month ... $524 a month ... $47.65 a month"; the saving is the difference of
    the two as shown, so that they subtract as they read. Three "" without a volume.

    >>> _months(0.057201, 0.052436, 10_000, "$"), _months(0.0069, 0.0060, 1000, "$")
    (('$572', '$524', '$48'), ('$6.90', '$6.00', '$0.90'))
    """
    if not volume or volume <= 0 or math.isnan(cost_std) or math.isnan(cost):
        return "", "", ""
    a, b = cost_std * volume, cost * volume
    d = 0 if max(abs(a), abs(b)) >= MONTH_WHOLE else max(money_digits(a), money_digits(b))
    saved = round(round(a, d) - round(b, d), d)
    return money(a, unit, digits=d), money(b, unit, digits=d), money(saved, unit, digits=d)


def _error_rate_sentence(error_rate: float, standard: float) -> str:
    """How often the way shipped is wrong against standard training: a higher error rate is
    said as the cost it is, not as support.

    >>> _error_rate_sentence(0.095, 0.078)[:66]
    'It is wrong more often (9.5% of the test cases against 7.8% with s'
    """
    now, before = percents(error_rate, standard)
    if error_rate > standard:
        return (
            f"It is wrong more often ({now} of the test cases against {before} with standard training), but on "
            "cheaper cases: what its mistakes cost is what counts."
        )
    return f"Its error rate on the test cases is {now}, against {before} with standard training (mean over seeds)."


def r2_text(x: float) -> str:
    """An R² at two decimals, a negative one with the minus sign (U+2212) the page's other numbers
    use and without a negative zero ('-0.00' reads as '0.00'); 'n/a' without one.

    >>> r2_text(-0.0123), r2_text(-0.001), r2_text(0.456), r2_text(float("nan"))
    ('−0.01', '0.00', '0.46', 'n/a')
    """
    if _isnan(x):
        return "n/a"
    text = f"{x:.2f}"
    return "0.00" if text == "-0.00" else text.replace("-", "−")


def predictability_sentence(r2: float, low: float, high: float, *, shipped: str | None = None) -> str:
    """What the held-out R^2 of |delta| from the features implies for training with costs, in plain words.
    `shipped` names the way the verdict ships (`training_verdict_of`), or None: beside a ship the sentence
    does not say there is nothing to gain, which contradicted the verdict (review 140).

    >>> predictability_sentence(0.01, -0.01, 0.03)  # doctest: +ELLIPSIS
    'The features explain almost none of the costs (how well they predict them on rows not used to fit: 0.01, ...'
    >>> predictability_sentence(-0.06, -0.11, -0.01, shipped="price-weighted training")[-90:]
    'the saving comes from which cases it learns from, not from telling the costly cases apart.'
    """
    if _isnan(r2):
        return (
            "Whether the features predict the costs is unknown here: every test row costs the same, so there "
            "is nothing to explain."
        )
    interval = f"how well they predict them on rows not used to fit: {r2_text(r2)}" + (
        "" if _isnan(low) else f", 95% interval {r2_text(low)} to {r2_text(high)}"
    )
    if r2 < R2_NONE:
        below = f"; {BELOW_ZERO}" if r2_text(r2).startswith("−") else ""
        if shipped:
            return (
                f"The features explain almost none of the costs ({interval}{below}), yet {shipped} saves beyond "
                "the noise, the luck of its pick included (the verdict above): the saving comes from which cases "
                "it learns from, not from telling the costly cases apart."
            )
        return (
            f"The features explain almost none of the costs ({interval}{below}): training with costs has nothing "
            "to learn from them, so expect it to match standard training at best and to add noise."
        )
    if r2 < R2_SOME:
        if shipped:
            return (
                f"The features explain a little of the costs ({interval}), and {shipped} saves beyond the noise, "
                "the luck of its pick included (the verdict above)."
            )
        return (
            f"The features explain a little of the costs ({interval}): training with costs can help a little "
            "where the costly cases need a different decision, if at all."
        )
    return (
        f"The features explain a good part of the costs ({interval}): training with costs has something to "
        "work with. It pays only if the costly cases need a different decision, which the comparison shows."
    )


def precomputed_sentence(settings: dict) -> str:
    """The note above a precomputed result, in plain words (its estimators and versions are
    `precomputed_technical`'s, with the page's other technical lines)."""
    return (
        f"Precomputed result, shipped with the sample: {len(settings['methods'])} ways of training, "
        f"{settings['seeds']} seeds. Press Train and compare to train here instead."
    )


def progress_sentence(finished: int, total: int) -> str:
    return f"Training: {finished} of {total} seeds done…"


def timing_sentence(new: int, total: int, seconds: float) -> str:
    kept = total - new
    already = f" ({kept} {'was' if kept == 1 else 'were'} already done)" if kept else ""
    return f"Trained {new} {'seed' if new == 1 else 'seeds'} here in {seconds:.1f} s{already}."


def stopped_sentence(finished: int, total: int) -> str:
    if finished == 0:
        return "Stopped before any seed finished. Press Train and compare to start again."
    return (
        f"Stopped after {finished} of {total} seeds: the numbers below use those {finished}. Press Train and "
        "compare to finish; the finished seeds are kept."
    )
