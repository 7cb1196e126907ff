"""What the dashboard's widgets say: page titles and intros, headers, widget labels, help texts,
button texts and option labels, grouped by page (the shared widgets of ``views/_ui`` first), with
the few sentences the Data, Find my prices and Cost matrix pages say around their inputs. The
Watch page's are in `costlib.present.watch_labels`, Value's in `costlib.present.value_words`.

A page and ``app.py`` import these names and make no sentence of their own
(`tests/present/test_sentences_home.py`). A label with a user's text in it is a function or a
``{name}`` format here; the page escapes the user's part (`costlib.core.escaping.label`) before
it goes in, as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from costlib.binary.elicit import PRECISION
from costlib.core import escaping
from costlib.core.dataset import Dataset
from costlib.core.escaping import shorten
from costlib.loading.messages import POSITIVE_PICKER

YOUR_UNIT = "your unit"  # a unit left empty, inside a label: "(your unit)"


def in_unit(text: str, unit: str) -> str:
    """`text` with the unit in brackets: "A right answer is worth ($)", "(your unit)" without one.

    >>> in_unit("A case handed over is worth", "")
    'A case handed over is worth (your unit)'
    """
    return f"{text} ({unit or YOUR_UNIT})"


# ---------------------------------------------------------------------------------------
# The navigation (app.py) and the pages' titles

APP_TITLE = "What mistakes cost"
PAGE_DATA = "Data"
PAGE_COSTS = "Costs & groups"
PAGE_PRICES = "Find my prices"
PAGE_VALUE = "Value"
PAGE_MATRIX = "Cost matrix"
PAGE_INSTANCE = "Instance costs"
PAGE_CALIBRATION = "Calibration"
PAGE_TRAIN = "Train with costs"
PAGE_WATCH = "Watch"

# headers more than one page shows
WHAT_TO_SHIP = "What to ship"
CURVE_OF_MODEL = "Curve of the model"
BY_GROUP = "By group"
FILE = "File"
GROUP_COLUMN = "Group column"

# ---------------------------------------------------------------------------------------
# Every page (views/_ui): the sidebar's unit and volume, tables, charts, verdicts, loading

UNIT_LABEL = "Unit of your prices"
UNIT_HELP = "What one price unit is: $, €, minutes, hours…"
VOLUME_LABEL = "Cases per month"
VOLUME_HELP = "Used to show cost and value per month."

DOWNLOAD_TABLE = "Download this table (CSV)"
# a table's CSV download (`present.downloads.csv_table`): the headers of its numbers in the table's words
# (a snake_case name not here reads with spaces), the interval ends and the saving named as the table does
CSV_HEADERS = {
    "rule_words": "rule",
    "n": "cases",
    "threshold": "cutoff",
    "flagged_rate": "flagged",
    "fp": "false positives",
    "fn": "false negatives",
    "cost": "cost per case",
    "spread_train": "largest gap on the rows fitted",
    "spread_test": "largest gap on the rows judged",
    "within_tolerance_on_test": "within the tolerance on the rows judged",
    "cost_per_case_train": "cost per case on the rows fitted",
    "cost_per_case_test": "cost per case on the rows judged",
    "price_per_case_train": "price of fairness per case on the rows fitted",
    "price_per_case_test": "price of fairness per case on the rows judged",
    "fit_tolerance": "tolerance fitted within",
    "may_miss_by": "may miss the tolerance by",
    "is_reference": "is the reference group",
    "estimate": "judged on",
}
CSV_SAVING = "saving against {base}"  # `tables.rules_numbers`' saving_per_case_vs_<base>, as the table heads it
CSV_INTERVAL = "{column} (95% interval {end})"  # X_low, X_low_95, "X low": "cost per case (95% interval low)"
CSV_INTERVAL_END = r"^(?P<column>.+?)(?P<sep>[_ ])(?P<end>low|high)(?:_95)?$"  # the names CSV_INTERVAL words
ASIDES_TITLE = "Why not another rule?"  # the verdict's folded asides
# the second reading under every chart (`show_chart`): the chart's sentence and numbers, on request
CHART_TEXT = "The chart in words and numbers"
CHART_ALT = "{title}: a chart; its sentence and numbers are under it, in “{label}”."
CHART_UNTITLED = "A chart"

READING_FILE = "Reading the file…"
CHECKING_COLUMNS = "Checking the columns…"
LOADING_SAMPLE = "Loading the sample…"

# ---------------------------------------------------------------------------------------
# The price book (views/_ui/prices.py)

FP_PRICE = "A false positive costs"
FN_PRICE = "A false negative costs"
EXACT_PRICES = "Type exact prices"
_STOPS_NOTE = f" The slider moves in rounded steps; for any other amount, use “{EXACT_PRICES}”."
FP_PRICE_HELP = "What it costs to flag a case that turns out negative (a false alarm)." + _STOPS_NOTE
FN_PRICE_HELP = "What it costs to miss a case that turns out positive." + _STOPS_NOTE
EXACT_FP = "False positive"
EXACT_FN = "False negative"
GROUP_EXACT_FP = "{group}: false positive"  # the group's name escaped by the page
GROUP_EXACT_FN = "{group}: false negative"
GROUP_FP_PRICE = "{group}: a false positive costs"
GROUP_FN_PRICE = "{group}: a false negative costs"
PER_GROUP = "Different prices per group"
PER_GROUP_HELP = "Give each group its own pair of prices."
EXACT_EVERYONE_UNUSED = (  # above the exact prices with "Different prices per group" on
    f"The first pair is the price for every group, used only when “{PER_GROUP}” is off; "
    "each group's own pair below is in use now."
)

# ---------------------------------------------------------------------------------------
# Data (views/data.py, the column mapping views/_ui/mapping.py, the data folder views/_ui/folder.py)

DATA_WHAT = (
    "Start with a built-in sample (one is already loaded) or upload your own predictions. Then open "
    "Costs & groups to find the cheapest cutoff."
)
UPLOAD_WHAT = (
    "A CSV or Parquet file with one row per case: a label, one score column per model, and optionally a "
    "group, a train/validation/test split, weights, votes, or one probability column per class when there are "
    "more than two. The file "
    "stays in your session and is never part of a shared link."
)
BIG_DATA_WHAT = (
    "For files too big to upload (the upload limit is 200 MB, and a 10-million-row CSV is near it; Parquet is "
    "five times smaller and reads faster): compute the counts where the data lives with "
    "`python -m costlib aggregate SOURCE --label … --score … --out counts.parquet` (DuckDB or Spark), then load "
    "that file here. Costs & groups, Find my prices and Value work on counts, exactly; pages that need each case say "
    "so."
)
SAMPLE_IN_USE = "The other pages use this sample now."
NO_SCORE_CHOSEN = "Choose at least one score column."
EMPTY_FOLDER = "The server's data folder has no Parquet or CSV files."
DATA_TO_COSTS = "Find the cutoff that costs least at your prices →"
SAMPLES_HEADER = "Built-in samples"
USE_SAMPLE = "Use “{title}”"  # each button named by its sample: a screen reader lists buttons by name
SAMPLE_USED = "In use"
UPLOAD_HEADER = "Upload your predictions"
UPLOAD_LABEL = "CSV or Parquet file"
USE_COLUMNS = "Use these columns"
BIG_DATA_HEADER = "Big data: counts instead of rows"
AGGREGATE_LABEL = "Aggregate file (.parquet, from python -m costlib aggregate)"
LOADED_HEADER = "What is loaded"
# the Data page's intro with an upload chosen (no sample is loaded then), and when that upload is not
# in this session (a reload or a link opened anew)
DATA_WHAT_UPLOAD = (
    "Upload your predictions, or choose a built-in sample. Then open Costs & groups to find the cheapest cutoff."
)
UPLOAD_GONE = (
    "Your uploaded file is not in this session: an upload lasts until the tab is reloaded or closed, and a "
    "link never carries it. Upload the file again below, or choose a built-in sample."
)
NOTHING_LOADED = "Nothing yet: upload a file or choose a sample above."
KEPT_UPLOAD = (
    "Your uploaded file “{name}” is in use: change any column below and press “{button}” again, "
    "or upload another file above to replace it."
)
KEPT_UPLOAD_AWAY = (  # the same, while a built-in sample is in use
    "Your uploaded file “{name}” is kept for this session while a sample is in use: press “{button}” to use it "
    "again (with any column changed), or upload another file above to replace it."
)
MISSING_CELL = "–"  # an empty cell of a table read from the user's file (blank or NaN)
LOADED_NAMED = "What is loaded: {name}"  # the loaded data named: after a refused upload it is still the old one


def classes_sentence(class_names: Sequence[str]) -> str:
    """'Classes: a, b, c' (each name `shorten`ed: a class is named by a column's name, as long as a header)."""
    return "Classes: " + ", ".join(shorten(n) for n in class_names)


def previous_upload_sentence(name: str, what: str = "file") -> str:
    """The upload `name` still in use after a new one failed (`what`: "file" or "data")."""
    return f"Your previous {what}, “{name}”, is still loaded."


def unusable_upload_sentence(name: str, need: str, why: str = "") -> str:
    """The refusal of the upload `name` whose columns, as mapped, feed no page: it lacks `need`
    (`missing`), and `why` the columns nearest to it were not taken (`roles.refused_sentence`)."""
    return f"No page can use “{name}” with these columns: it lacks {need}." + (" " + why if why else "")


def not_loaded_sentence(
    name: str, *, previous: str | None = None, sample: str | None = None, stage: str = "columns", fix: bool = False
) -> str:
    """What follows the refusal of the upload `name`: it was not loaded, what is still in use
    (the `previous` upload, else the built-in `sample`, else nothing said) and what to do.
    `stage`: "file" (the file could not be read) or "columns" (the columns chosen were refused);
    `fix`: the refusal offers a fix to tick."""
    still = (
        " " + previous_upload_sentence(previous, "file" if stage == "file" else "data")
        if previous
        else f" The built-in sample “{sample}” is still in use."
        if sample
        else ""
    )
    if stage == "file":
        todo = " Correct the file and upload it again."
    elif fix:
        todo = f" Tick the fix above the button, or choose other columns, and press “{USE_COLUMNS}” again."
    else:
        todo = f" Choose other columns above and press “{USE_COLUMNS}” again, or correct the file and upload it again."
    return f"“{name}” was not loaded.{still}{todo}"


def fix_offer(fix: str) -> str:
    """The tick box that applies a `DataError`'s fix."""
    return f"Fix it: {fix} (tick, then press “{USE_COLUMNS}” again)"


def data_folder_sentence(n_files: int) -> str:
    """What the data-folder form says above its `n_files` files (read where they lie, no upload)."""
    return f"Files in this server's data folder ({n_files}), read where they lie through DuckDB:"


NO_COLUMN_CHOSEN = "(none)"  # a mapping's optional column left out
SCALES = {
    "probability": "probabilities (0 to 1)",
    "logit": "log-odds (any number; turned into probabilities)",
    "raw": "raw scores (any other number; not for Value or Calibration)",
}
SCALE_LABEL = "The scores are"
MAP_LABEL = "Label column (the true outcome)"
MAP_POSITIVE = POSITIVE_PICKER  # one text: the loader's note on reversed labels names it too
MAP_SCORES = "Score columns (one per model; higher = more likely positive)"
MAP_GROUP = "Group column (optional, for per-group prices)"
MORE_GROUPS = "More group columns (optional: audit their intersections)"
MORE_GROUPS_HELP = (
    "With more than one group column, the groups are their intersections (race × sex: “African-American × Male”): "
    "per-group prices, cutoffs and rates are the intersections', and the disparities are shown for them and for "
    "each column alone."
)
MAP_SPLIT = "Split column (optional: train / validation / test)"
MAP_WEIGHT = "Weight column (optional: how many cases each row stands for)"
INSTANCE_HEADER = "**Prices that differ from case to case (optional)**"
DELTA_SOURCE_LABEL = "Each case's own price comes from"
# where each case's price comes from: the choices of `DELTA_SOURCE_LABEL`, as the guess names them
NO_DELTA, DELTA_COLUMN, VOTES, RATING, MEASUREMENT = (
    "none",
    "price column",
    "annotator votes",
    "rating",
    "measurement and threshold",
)
DELTA_SOURCES = [NO_DELTA, DELTA_COLUMN, VOTES, RATING, MEASUREMENT]
# Train with costs' price column (`training_words`), where a price's sign is always its case's class: said plainly
MAP_DELTA = "Price column: what a mistake on each case costs, positive on a positive case, negative on a negative one"
MAP_VOTES_YES = "Votes for the positive class"
MAP_VOTES_NO = "Votes against"
MAP_RATING = "Rating column"
MAP_MIDPOINT = "Neutral midpoint of the scale"
MAP_MEASUREMENT = "Measurement column"
MAP_THRESHOLD = "Threshold (positive when above)"
# the price picker, shown whatever the source (a form does not redraw until its button): when it is read
MAP_PRICE_HEAD = "Price column"  # the picker as a refusal names it (`answers.data.unpriced_source`)
MAP_PRICE = (
    f"{MAP_PRICE_HEAD}, read when “price column” is chosen above: what a mistake on each case costs "
    "(an amount; with no label column, its sign is the class: below 0 on a negative case)"
)
# a price source whose columns are not chosen, as its refusal (`loading.messages.MSG_PRICE_SOURCE_EMPTY`)
# says it: (what is not chosen, the pronoun for it, the picker to choose it under)
UNPRICED_PICKERS = {
    DELTA_COLUMN: ("price column is", "it", MAP_PRICE_HEAD),
    VOTES: ("vote columns are", "them", MAP_VOTES_YES),
}
# Instance costs: a price column read beside a label column (`page_answers.delta_source`): its size is each case's
# price and the label column says its class, whether the column holds sizes (no price below 0, signed by the label:
# `loading.roles.priced_by_label`) or signs that agree with the label; in words, and δ's formula
PRICE_BESIDE_LABEL = (
    "your price column {price}: its size is how costly a mistake on the case is, and column {label} says which "
    "cases are positive"
)
PRICE_BESIDE_LABEL_DELTA = "δ is the price column, below 0 on the cases whose label is {negative}"
# ... {negative}: the label's other value when its positive one is not named, else not the positive one
PRICE_BESIDE_LABEL_NEGATIVE = ("the other value", "not {positive}")
MULTICLASS_HEADER = "**More than two classes (optional)**"
MAP_CLASS_PROBS = "Probability columns, one per class"
MAP_CLASS_LABEL = "Label column for more than two classes (the true class)"

FOLDER_LABEL = "Label column (0/1)"
FOLDER_SCORES = "Score columns"
FOLDER_SPLIT = "Split column"
FOLDER_OPEN = "Open with DuckDB"

# the role each page needs (`answers.roles.has_role`), as the fallback to a built-in sample says it, and
# that sample: one for every two-class page (COMPAS, the default data), so that Costs & groups, Find my
# prices, Value and Calibration all answer for the same sample (Value and Calibration answered for
# Screening, and Calibration checked "the model Costs & groups picks" on a sample Costs & groups did
# not show); none of them needs a second model
_PROBABILITIES = (
    "a label with two values and scores that are probabilities (scores that are log-odds can be turned into "
    "probabilities on the Data page)",
    "compas",
)
NEEDS = {  # role -> (what it is, in words; the sample that has it)
    "binary": ("a label with two values and at least one score column", "compas"),
    "probabilities": _PROBABILITIES,
    "value": _PROBABILITIES,
    "multiclass": ("probability columns, one per class (for more than two classes)", "tickets"),
    "delta": ("a price for each case (a price column, votes, a rating or a measurement)", "offensive"),
}


def whose_models(sample: bool) -> str:
    """Whose the models an answer names are: a built-in sample's are not the reader's (`sample`:
    `loading.samples.is_sample` of the data's fingerprint, the one test of it).

    >>> f"the best of {whose_models(True)} 2 models", f"the best of {whose_models(False)} 2 models"
    ("the best of the sample's 2 models", 'the best of your 2 models')
    """
    return "the sample's" if sample else "your"


#: beside an answer that picked the cheapest of several models on the same rows (`honest.picked_z`);
#: {whose} is `whose_models`
MODELS_PICKED = (
    "The cheapest of {whose} {m} models is picked on these same rows, so its saving's interval is wider than that "
    "model's own (a {level} interval): the luck of that pick is inside it too."
)
#: the roles whose pages count each row by the file's weight column (Costs & groups, Find my prices)
WEIGHTED_ROLES = ("binary",)
UNWEIGHTED_PAGE = (
    "This page counts each row of your file once: it does not read your weight column, by which Costs & groups "
    "and Find my prices count the cases each row stands for. Its answer can differ from theirs for that reason."
)
UNWEIGHTED_PAGES = "{pages} count each row once: they do not read the weight column."
FALLS_BACK = "Shown here: the built-in sample"  # what a page answers instead of the data chosen
REFUSED = {  # role (a key of `loading.refusals`) -> what the sentences that follow explain
    "label": "Not taken as the label:",
    "scores": "Not taken as a score:",
    "group": "Not taken as the group:",
}

# the data choice every page has (its sidebar), and the fallback to a built-in sample
DATA_WORDS = {
    "upload": "Your uploaded file",
    "data": "Data",
    "data_help": "A built-in sample, or the file you uploaded on the Data page.",
    "no_upload": "Choose a sample in the sidebar or upload a file on the Data page first. "
    "(Uploaded data is never part of a shared link: it stays in your session.)",
    "to_data_page": "Go to the Data page",
    # the sidebar's caption when the upload chosen is not in this session (a reload, a link)
    "upload_gone": "No file in this session: an upload lasts until the tab is reloaded or closed.",
    "use_sample": "Use this sample everywhere",
    "model": "Model (score column)",
}


def your_data_sentence(name: str, n_rows: int) -> str:
    """The sidebar's caption of the uploaded data in use.

    >>> your_data_sentence("cases.csv", 1200)
    'Your file: cases.csv (1,200 rows)'
    """
    return f"Your file: {name} ({n_rows:,} rows)"


def use_sample_help(sample_title: str) -> str:
    """The help of the button that makes the sample `sample_title` the data of every page."""
    return f"Makes “{sample_title}” the data of every page."


def missing(ds: Dataset, role: str) -> str:
    """What exactly `ds` lacks for `role`, in words ("" when the general hint says it best)."""
    if role not in ("binary", "probabilities", "value") or ds.counts_only:
        return ""
    parts = []
    if ds.y is None:
        parts.append("a label column with two values")
    if not ds.scores:
        parts.append("a score column")
    if not parts and not ds.probabilities and role != "binary":
        parts.append("scores that are probabilities (they were read as raw scores)")
    return " and ".join(parts)


_COUNTS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def sample_words(title: str) -> str:
    """A built-in sample by its title, as a sentence names it (a refused ?data=... said its key, "compas")."""
    return f"the built-in sample “{title}”"


def fallback_sentence(ds: Dataset, role: str, sample_title: str) -> str:
    """Why a page that needs `role` answers for the sample `sample_title` instead of `ds`, which page
    answers for `ds` when one does (Cost matrix for more than two classes, Costs & groups for two),
    then the sample shown: "“Support tickets (3 classes)” has three classes and this page needs two;
    the Cost matrix page answers for it. Shown here: the built-in sample “Recidivism risk (COMPAS)”."
    """
    shown = f"{FALLS_BACK} “{sample_title}”."
    if ds.counts_only:
        return f"“{ds.name}” holds counts, not rows, and this page needs each case's score and label. {shown}"
    if role != "multiclass" and ds.class_probs is not None and ds.y_class is not None:
        n = len(ds.class_names)
        return (
            f"“{ds.name}” has {_COUNTS.get(n, n)} classes and this page needs two; "
            f"the {PAGE_MATRIX} page answers for it. {shown}"
        )
    elsewhere = f"; {PAGE_COSTS} answers for it" if role != "binary" and ds.y is not None and ds.scores else ""
    return f"“{ds.name}” lacks {missing(ds, role) or NEEDS[role][0]}, which this page needs{elsewhere}. {shown}"


# ---------------------------------------------------------------------------------------
# Find my prices (views/prices.py)

PRICES_WHAT = (
    "You may not know what a false alarm or a missed case costs, but you can say which of two outcomes is worse. "
    "Each answer narrows down how many times worse a missed case is than a false alarm. The questions stop as soon "
    "as knowing it more exactly would change neither the cutoff to ship nor the verdict (ship the model or not), "
    "or once the answers pin it down closely: the highest value still possible at most "
    f"{PRECISION:g} times the lowest (then the answer says what a wrong guess inside that would cost)."
)
# how much worse a group's miss is than the others' (the slider's options)
MULTIPLIERS = {0.25: "a quarter as bad", 0.5: "half as bad", 1.0: "as bad", 2.0: "twice as bad", 4.0: "4 times as bad"}
NAME_MISTAKES = "Name the two mistakes"
MISS_LABEL = "A missed case is"
MISS_HELP = "In your own words, for example “a missed fraud”."
ALARM_LABEL = "A false alarm is"
ALARM_HELP = "In your own words, for example “a blocked honest customer”."
MISS_NAME, ALARM_NAME = "a missed case", "a false alarm"  # the two mistakes until the user names them


def alarm_price_label(unit: str) -> str:
    """The label of the price of one false alarm, in the user's unit (escaped by the widget)."""
    return f"One false alarm costs you ({unit or YOUR_UNIT}), if you know"


def question_sentence(bracket, question: str) -> str:
    """'Question 2: ...': the next question, numbered after the answers given."""
    return f"Question {len(bracket.answers) + 1}: {question}"


def group_multiplier_label(miss: str, shown: str) -> str:
    """The label of a group's slider: how a miss there compares. `shown` is the group's name as
    every slider shows it, already escaped and told apart from the others' (`escaping.distinct_labels`
    over all the groups: "$x$" and "*x*" read "·x·" and "·x· (2)"); the miss's name is escaped here."""
    return f"{escaping.label(miss)} in group “{shown}” is … as one elsewhere"


ALARM_PRICE_HELP = "Optional: sets the scale. Only the ratio moves the cutoff."
WHICH_WORSE = "Which is worse?"
YOUR_ANSWERS = "Your answers"
ABOUT_SAME = "About the same"
GO_BACK = "Go back"
START_OVER = "Start over"
CUTOFFS_IN_PLAY = "The cutoffs in play, by ratio"
GROUPS_DIFFER = "Do misses cost differently in different groups?"
GROUPS_DIFFER_WHAT = (
    "One question per group; the false alarm keeps its price everywhere. Nothing on this page changes with "
    "them: they set each group's price of a miss on Costs & groups when you press “Use these prices”."
)
USE_PRICES = "Use these prices"
USE_PRICES_HELP = (
    "Sets a false alarm to the price above and a miss to the middle of your range on a ratio scale, on every "
    "page: from 10 to 1,000 that is 100 (10 times the low end, a tenth of the high end), not 505."
)
PRICES_FROM_QUESTIONS = "Your current prices came from these questions; answering again replaces them."

# ---------------------------------------------------------------------------------------
# Value (views/value.py, its inputs views/_ui/value_inputs.py)

VALUE_WHAT = (
    "A model that answers only when it is confident enough and hands the rest to a person. What is that worth "
    "per case and per month, against handing everything over or letting the model answer everything?"
)
YOUR_PRICES = "Your prices"
UPDATE_FOR_K = "Update them for this k"
K_DEPENDS = "Which model is worth more depends on k"
#: the fold under the Value page's first chart when the answer prices each mistake on its own: the chart at k,
#: one price for every wrong answer and one threshold, which is not how the answer above is priced
ONE_PRICE_CHART = (
    "The same at one price for every wrong answer (the mean of your two prices) and one threshold: "
    "not how the answer above is priced"
)
PER_OUTCOME = "Separate prices per outcome: a right positive worth more than a right negative"
#: the per-outcome inputs, in right answers (`value_words.per_outcome_prices_sentence`): their notation,
#: "(k_tp)", "(k_fp)", "(k_fn)", read as a formula to a product manager (review 71)
K_TP = "A true positive is worth"
K_FP = "A false positive costs"
K_FN = "A false negative costs"
SIDE_BY_SIDE = "Models side by side at the cutoff 0.5 (every case answered, none handed over)"
BEFORE_AFTER_CALIBRATION = "Before and after calibration"
WORTH = "A right answer is worth"  # + the unit: `in_unit`
WORTH_HELP = "What the business gains when the model answers a case correctly."
HANDOVER_WORTH = "A case handed over is worth"  # + the unit: `in_unit`
HANDOVER_WORTH_HELP = "0: a person handles it at no gain or loss (the default)."
K_LABEL = "How many right answers does one wrong answer cancel out?"
K_HELP = (
    "Called k on this page: what a wrong answer costs, counted in right answers' worth. k = 2: a wrong answer costs "
    "twice what a right one earns. k = 0: only accuracy counts."
)
K_RESET = "Back to what my prices say"
# the value tables' headers, in the user's unit (`in_unit`; the calibration's "per case" without one)
ACCEPTANCE_HEADER = "worth per case"
CLASSIFICATION_HEADER = "price of the errors per case"
PER_CASE = "per case"

# ---------------------------------------------------------------------------------------
# Cost matrix (views/matrix.py)

MATRIX_WHAT = (  # a plain sentence first: "C[i, j] is the price of deciding j when the truth is i" opened it
    "Each cell is what it costs to decide the column's class when the truth is the row's class. The cheapest "
    "decision for a case is the one with the lowest expected price under the model's probabilities, which is "
    "often not the most probable class; with a price for handing a case to a person, the system answers only "
    "when an answer is cheaper."
)
MATRIX_PRICES = "Prices"
TRUTH_ROW = "truth: {name}"  # a row of the matrix, the class's name shortened by the page
DECIDE_COLUMN = "decide {name}"


def matrix_prices_caption(unit: str) -> str:
    """The caption over the matrix's editor, in the user's unit (escaped where it is said)."""
    return (
        f"Rows: the true class. Columns: the decision. Prices in {unit or YOUR_UNIT}; the diagonal is "
        "usually 0. Edit a cell to reprice: double-click it, or with the keyboard Tab into the grid, move to "
        "it with the arrow keys, type the price and press Enter."
    )


HANDOVER_ALLOWED = "Allow handing a case to a person"
HANDOVER_PRICE = "Price of handing a case over"  # + the unit: `in_unit`
HANDOVER_PRICE_HELP = "Answer only when the cheapest answer's expected price is strictly below this."
HEATMAPS_FOR = "Heatmaps for"
MATRIX_CELLS_REFUSED = (
    "The price for the truth “{truth}” decided as “{decide}” must be a number from 0 to {high:,.0f}; empty cells "
    "are not allowed. Until it is, the answer below uses your last matrix whose every cell was a price, so it "
    "does not yet count this edit."
)

# ---------------------------------------------------------------------------------------
# Instance costs (views/instance.py)

INSTANCE_WHAT = (
    "Some mistakes cost more than others: each case carries its own price of a mistake, how costly getting it "
    "wrong is (from annotator votes, a measurement against a threshold, or a rating). The page prices the "
    "model's mistakes by it, in your unit per case and a month, against flagging nobody or everyone. Costs & groups "
    "prices every false positive alike and every false negative alike, so the two pages can ship different "
    "cutoffs for the same model: ship the one whose prices are how your mistakes really cost."
)
TYPICAL_MISTAKE = "A mistake on a typical case costs"  # + the unit: `in_unit`
TYPICAL_MISTAKE_HELP = (
    "What one mistake costs on a case of average cost. A mistake on a costlier case costs more, on a more "
    "ambiguous one less, in proportion; the cost per case is the model's share of the mistake cost (its weighted "
    "error) times this price."
)
INSTANCE_TERMS = "What the technical terms mean"
EXPLORE_CUTOFF = "Explore another cutoff"
CUTOFF = "Cutoff"
CUTOFF_NAME = "the cutoff"  # the setting's name in the sentence that refuses a link's value
CUTOFF_HELP = (
    "The cost per case, the weighted error and the error rate of every model at this cutoff, by group; the answer "
    "above does not change with it."
)
INSTANCE_CURVE = "Cost per case against the cutoff ({rows})"  # rows: one of INSTANCE_ROWS
# which rows the curves are drawn on, by how the answer was judged (`NecRecommendation.estimate`):
# without a split the curves read the rows that chose the cutoff, a cross-fitted answer does not
ALL_ROWS_FLATTER = "all rows, which flatter the cutoff picked on them"
ALL_ROWS_FLATTER_THRESHOLD = ALL_ROWS_FLATTER.replace("cutoff", "threshold")  # the Value page's word for it
"""Which rows a cost curve is drawn on when the answer above it is judged on rows its cutoff was not
picked on (cross-fitted): the curve's lowest point is the pick's cost on the rows that picked it, so
it reads cheaper there than the answer (a reader saw "$0.425" on the chart beside "$0.446")."""
INSTANCE_ROWS = {
    "test": "test rows",
    "cross-fitted": ALL_ROWS_FLATTER,
    "same rows": "all rows",
}
INSTANCE_CURVE_X = "cutoff (flag a case when its score is at least this)"
INSTANCE_BARS = "Error rate beside the weighted error at the cutoff {cutoff}"
#: the Instance costs table's columns (`costlib.instance.nec_table`'s, in plain words) and its money
INSTANCE_COLUMNS = {
    "option": "option",
    "group": "group",
    "n": "cases",
    "error rate": "error rate",
    "NEC": "weighted error",
}
COST_PER_CASE = "cost per case"
COST_A_MONTH = "cost a month"
# a tile's amount a month, and its help, with no cases a month set in the sidebar
NO_VOLUME = "set a volume"
NO_VOLUME_HELP = "Set how many cases you decide a month in the sidebar to see this."

# ---------------------------------------------------------------------------------------
# Calibration (views/calibration.py)

NO_SPLIT_TO_CALIBRATE = (
    "No validation or train split: the rescaling is fitted and judged on the same rows, which flatters "
    "it. Map a split column on the Data page."
)
