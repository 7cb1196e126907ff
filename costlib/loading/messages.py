"""Every sentence the loader says, and the one helper that fills a "these rows are bad" sentence.

Templates are module constants (tests match on their fixed words); fields are filled with
`str.format`. Rows are named as a spreadsheet shows them (`file_row`): the header is row 1, so
the first data row is row 2. A Parquet file has no header line, yet its rows follow the same
rule (its first row is row 2), so one table names a row alike whether it was uploaded as CSV or
Parquet, whichever path (upload, `costlib apply`, watch) names it.
A file's name reaches a sentence only through `costlib.core.escaping.display_name`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from costlib.core.escaping import (
    MAX_NAME_CHARS,  # noqa: F401 (re-exported: tests read messages.MAX_NAME_CHARS)
    shorten,
)
from costlib.core.settings import MSG_GROUP_TOO_MANY  # noqa: F401 (the loader's sentences read it here)
from costlib.loading.budget import PEAK_PER_TABLE_BYTE

# ---------------------------------------------------------------------------------------
# read_table and read_path
# ---------------------------------------------------------------------------------------

MSG_EMPTY = 'The file "{name}" is empty: it holds no text at all.'
MSG_HEADER_ONLY = 'The file "{name}" has column names ({columns}) but no data rows.'
MSG_NOT_A_TABLE = 'The file "{name}" is not a table: {what}. Upload a CSV or Parquet file.'
MSG_NOT_PARQUET = (
    'The file "{name}" is named like a Parquet file but is not one (it does not start '
    'with the Parquet marker "PAR1"); upload the original file, or a CSV.'
)
MSG_BAD_PARQUET = 'The file "{name}" could not be read as Parquet: {reason}.'
NOTE_NESTED_LEFT_OUT = (
    'In "{name}", {columns} {hold} nested values (lists, structs or maps), which cannot be used as table cells; '
    "{they} {were} left out and the other columns read."
)
MSG_NESTED_COLUMNS = (
    'In "{name}", {columns} hold nested values (lists, structs or maps), which cannot '
    "be used as table cells; flatten or drop them before uploading."
)
MSG_ONE_COLUMN = (
    'The file "{name}" was read as a single column ("{column}") because no comma, '
    'semicolon, tab or "|" separates its values; {reason}. Save it with one of those '
    "separators between columns."
)
MSG_PARSE_FIELDS = (
    'In "{name}", line {line} of the file has {saw} fields where the header has '
    "{expected}: a value probably contains the separator {sep} without quotes, or the "
    "line has a stray separator."
)
MSG_PARSE_QUOTE = (
    'In "{name}", a quote opened on line {line} of the file is never closed, so the '
    "rest of the file reads as one value."
)
MSG_PARSE = 'The file "{name}" could not be read as a table: {reason}.'
MSG_HEADER_TOO_LONG = (
    'The first line of "{name}" (the column names) is longer than {limit}; a table this wide cannot be explored here.'
)
BIG_DATA_PATH = (
    "Files this big belong to the big-data path (DuckDB), which reads them where they are "
    "instead of into one session's memory."
)
MSG_TOO_BIG_PARQUET = (
    'The file "{name}" holds {rows} rows, about {size} once read into memory, more than {limit}. {advice}'
)
MSG_TOO_BIG_PARQUET_READ = (
    'The file "{name}" holds {rows} rows whose first {read} already take {size} once read (its text is '
    "longer than the file's summary can tell), more than {limit}. {advice}"
)
MSG_TOO_BIG_CSV = (
    'The file "{name}" is too big to read here: its first {rows} rows already take {size} '
    "in memory, more than {limit}. {advice}"
)
LIMIT_UPLOAD = "the {size} that one uploaded table may take here"
LIMIT_SERVER_WHOLE = "the {size} that one table may take on this server even when it holds nothing else"
LIMIT_SERVER = "the {size} that a new table may take now: other sessions hold {others} of this server's {budget}"
BUSY_ADVICE = (
    "Everyone using this server shares its memory. Nothing you had loaded is lost; try again in a few minutes, "
    "once they hold less."
)
LIMIT_SESSION_HELD = (
    "the {size} that a new table may take now: this session already holds {mine} of this server's {budget}"
)
SESSION_HELD_ADVICE = (
    "Nothing you had loaded is lost; open a smaller file, or reload the page to start a fresh session."
)
MSG_TOO_MUCH_WORK = (
    'The table "{name}" has {rows} rows and {scores}: the costs, cutoffs and intervals the pages work out '
    "from it would take about {need} of memory, more than the {budget} that one upload may use here. " + BIG_DATA_PATH
)
# what a refusal of MSG_SERVER_BUSY begins with: the work that did not fit
WHAT_READING = "Reading “{name}”"
WHAT_CHECKING = "Checking the columns of “{name}”"
WHAT_FEATURES = "Building the features of “{name}”"
WHAT_OPENING = "Opening “{name}”"
MSG_SESSION_FULL = (
    "{what} would need about {need} of memory, and this session already holds {mine} of the {share} one "
    "session may hold here (the data in use and one more file). Nothing you had loaded is lost; open a smaller "
    "file, or reload the page to start a fresh session."
)
MSG_SERVER_BUSY = (
    "{what} would need about {need} of memory, and this server has {free} free now: everyone using it shares "
    "its {budget}, this session holds {mine} of that and other sessions {others}. Nothing you had loaded is lost; "
    "try again in a few minutes, or open a smaller file."
)
MSG_SERVER_TOO_SMALL = (
    "{what} would need about {need} of memory, more than the {budget} this whole server may hold even when it "
    "holds nothing else. Nothing you had loaded is lost; open a smaller file. " + BIG_DATA_PATH
)
MSG_SESSION_HOLDS = (
    "{what} would need about {need} of memory, and this server has {free} free now: this session holds {mine} "
    "of its {budget}. Nothing you had loaded is lost; open a smaller file, or reload the page to start a fresh "
    "session."
)
MSG_FILE_TOO_BIG = (
    'The file "{name}" is {size}, more than the {budget} that a file read into memory may take here. ' + BIG_DATA_PATH
)
MSG_SPARSE = (
    'The file "{name}" is {size} long, but the disk holds only {stored} of it: the rest is holes (a file still '
    "being downloaded or copied, or one made with truncate), which read as NUL bytes, not text. Give the path of "
    "the finished file."
)
MSG_NOT_REGULAR = '"{name}" is {kind}, not a regular file; give the path of a CSV or Parquet file.'
MSG_CANNOT_READ = 'The file "{name}" cannot be read: {reason}.'

# prepare: columns and roles. A sentence that asks for a setting names it in the dashboard's
# words; its {..._flag} field adds the command line's flag, " (--scale raw)", and is "" on the
# dashboard (`flag_phrase`, filled from the flags `prepare` is given).
MSG_NO_ROWS = 'The table "{name}" has no rows.'
MSG_NOTHING_MAPPED = (
    'In "{name}", no column is chosen for a label, a score, a price column or multiclass probabilities; '
    "choose at least one."
)
MSG_MISSING_COLUMN = 'In "{name}", {what} {verb} not exist; the columns are {available}.'
MSG_AMBIGUOUS_COLUMN = (
    'In "{name}", the header repeats the name "{column}" ({positions}) for columns that '
    'hold different values, so "{column}" could mean any of them; choose {choices}.'
)
MSG_BAD_SCALE = 'In "{name}", the score scale "{scale}" is not one of "probability", "logit" or "raw".'

# prepare: numbers
MSG_NOT_NUMBERS = 'In "{name}", column "{column}" has {count} {values} that {are} not {numbers}: {rows}.'
MSG_DECIMAL_COMMA_HINT = (
    " They look like numbers written with a decimal comma; save the file with "
    "decimal points, or separate its columns with semicolons."
)
MSG_ALSO_EMPTY = " It also has {count} empty {cell_word} (blank or not a number): {rows}."
MSG_MISSING_NUMBERS = 'In "{name}", column "{column}" has {count} empty {values} (blank or not a number): {rows}.'
# a score cell holding a missing-value marker ("NA", "null", "-": `cells.marked_missing`) is an empty score
# too, said apart from blank cells: {markers} is `markers_phrase`
MSG_MARKED_NUMBERS = (
    'In "{name}", column "{column}" has a missing-value marker like {markers} instead of a score in '
    "{count} {row_word}: {rows}."
)
MSG_ALSO_MARKED = " It also has a missing-value marker like {markers} in {count} {row_word}: {rows}."
MSG_SCORES_NONE_LEFT = 'In "{name}", no row has a score in {columns}.'  # each row is empty in one of them
MSG_INFINITE = 'In "{name}", column "{column}" has {count} infinite {values}: {rows}.'
MSG_ALSO_INFINITE = " It also has {count} infinite {values}: {rows}."
MSG_OUTSIDE_01 = (
    'In "{name}", column "{column}" has {count} {values} outside [0, 1] '
    "(smallest {low}, largest {high}): {rows}. A probability must lie between 0 and 1; "
    'if these scores are log-odds choose the "logit" scale{logit_flag}, for other real-valued '
    'scores choose "raw"{raw_flag}.'
)
MSG_OUTSIDE_01_FEW = (
    " Only a few rows are outside [0, 1]: correct them in the file (or leave them out), or map the "
    "column as raw scores{raw_flag} if it is not a probability."
)
# scores between 0 and 2 with some above 1 (`cells.barely_above_one`): not probabilities, and too
# small to be offered as percentages. Said when they are refused as probabilities with most values
# above 1 (a few stray ones get MSG_OUTSIDE_01_FEW), and noted when they are read as raw scores
MSG_OUTSIDE_01_ABOVE_ONE = (
    " Yet they all lie between 0 and {high}, which looks like probabilities gone a little over 1 (a sum of "
    "several probabilities, or a model that does not keep its answers between 0 and 1) rather than log-odds or "
    'percentages: correct them where they are made, or choose "raw"{raw_flag} to use them on the cost pages only.'
)
NOTE_ABOVE_ONE = (
    'In "{name}", the scores in column "{column}" lie between 0 and {high}, with {count} {values} above 1: '
    "{rows}. Probabilities lie between 0 and 1, and percentages would spread much further towards 100, so "
    "they were read as raw scores: the cost pages use them, Value and Calibration do not. If they are meant "
    "to be probabilities, correct them where they are made (a sum of several probabilities, or a model that "
    "does not keep its answers between 0 and 1); if they are percentages, divide them by 100 in the file."
)

# prepare: labels
MSG_LABEL_MISSING = 'In "{name}", column "{column}" has no label (blank or NA) in {count} {row_word}: {rows}.'
MSG_LABEL_BLANK = 'In "{name}", column "{column}" has no label (a blank cell) in {count} {row_word}: {rows}.'
MSG_LABEL_MARKED = (
    'In "{name}", column "{column}" has a missing-value marker like {markers} instead of a label in '
    "{count} {row_word}: {rows}."
)
MSG_LABEL_ALL_MISSING = 'In "{name}", column "{column}" has no label in any of its {n} rows.'
MSG_LABEL_ONE_CLASS = (
    'In "{name}", column "{column}" has only one value, {value}, {every_row}; '
    "a binary label needs both a positive and a negative class."
)
MSG_LABEL_MANY = 'In "{name}", column "{column}" has {k} distinct values where a binary label needs 2: {listing}.'
MSG_LABEL_NEEDS_POSITIVE = (
    'In "{name}", column "{column}" holds the values {a} and {b} (first at rows {row_a} '
    "and {row_b}); choose which one means positive{positive_flag}."
)
MSG_POSITIVE_NOT_FOUND = (
    'In "{name}", the positive value {positive}{positive_flag} does not occur in column "{column}"; its '
    "values are {a} (first at row {row_a}) and {b} (first at row {row_b})."
)

# prepare: other roles
MSG_WEIGHT_NEGATIVE = 'In "{name}", column "{column}" has {count} negative {values}: {rows}.'
MSG_WEIGHT_ZERO = 'In "{name}", column "{column}" is 0 {every_row}: no row would count.'
MSG_SPLIT_UNKNOWN = (
    'In "{name}", column "{column}" has {count} {values} that {are} not a split name: '
    "{rows}. Use train (or training, fit), validation (or val, valid, calib, "
    "calibration, dev) or test (or testing, holdout, eval)."
)
# the MSG_DELTA_ sentences: each case's own price (the internal field `delta`), in the pages' words; their
# {source} is where it comes from, with its article ('the price column "fee"', 'the votes "y" and "n"')
MSG_DELTA_SOURCES = 'In "{name}", each case\'s price is chosen from more than one source ({sources}); choose one.'
MSG_PRICE_SIGN_LABEL = (
    'In "{name}", column "{column}" has prices below 0, so the sign of each price is read as whether its case '
    'is positive, and in {count} {row_word} that sign disagrees with the label in column "{label}" (a price above 0 '
    "where the label is {negative}, or below 0 where it is {positive}): {rows}. Give every price as its size "
    '(0 or more) to take each case\'s class from "{label}", or correct the signs.'
)
# a price column with no value below 0 and no label column (`price_signs.refuse_unsigned_price`): its sign would
# make every case positive, where beside a label (`roles.priced_by_label`) such a column holds each case's size
MSG_PRICE_NEEDS_LABEL = (
    'In "{name}", no label column is chosen, so the sign of each price in column "{column}" says whether its case '
    "is positive, and its prices are 0 or more {every_row}: every case would be positive, and the model would "
    "have nothing to tell apart. Choose the label column (each price then says what a mistake on its case costs, and "
    '"{column}" may stay as it is), or give the prices of the negative cases a minus sign.'
)
MSG_SOURCE_SIGN_LABEL = (
    'In "{name}", the class each case gets from {source} disagrees with the label in column "{label}" in {count} '
    "{row_word} ({above} where the label is {negative}, or {below} where it is {positive}): {rows}. Choose no label "
    "column to take each case's class from {source}, or check the labels."
)
MSG_PRICE_SOURCE_EMPTY = (
    'In "{name}", each case\'s own price is to come from "{source}", but no {what} chosen: choose {it} under '
    '"{picker}", or "none" under "{radio}" if a mistake costs the same on every case.'
)
MSG_DELTA_ZERO = (
    'In "{name}", the price of each case, from {source}, is 0 {every_row}: no mistake costs anything, so there is '
    "nothing to weigh."
)
MSG_DELTA_OVERFLOW = (
    'In "{name}", the price of each case, from {source}, is larger than the largest number a computer holds in '
    "{count} {row_word}: {rows}."
)
MSG_DELTA_TOTAL = (
    'In "{name}", the prices of the cases, from {source}, are too large to add up: their sizes total more than '
    "the largest number a computer holds ({limit}), so no cost could be computed.{which} Correct those rows, "
    "or give the prices in a larger unit (thousands, millions) so that they add up."
)
MSG_WEIGHT_TOTAL = (
    'In "{name}", the weights in column "{column}" are too large to add up: they total more than the largest '
    "number a computer holds ({limit}), so no cost could be computed.{which} Correct those rows, or divide every "
    "weight by one number (only their proportions count)."
)
# the {which} of MSG_DELTA_TOTAL and MSG_WEIGHT_TOTAL: some rows, or every row
MSG_TOTAL_LARGEST = " The {largest}, without which the total would fit, {are} in {rows}."
MSG_TOTAL_ALL = " All {count} of its values are {smallest} or more in size: {rows}."
MSG_VOTES_INCOMPLETE = (
    'In "{name}", only the "{given}" vote column is chosen ("{column}"); choose the "{other}" vote column too.'
)
MSG_VOTES_NEGATIVE = 'In "{name}", column "{column}" has {count} negative vote {counts}: {rows}.'
MSG_VOTES_NOT_INTEGER = (
    'In "{name}", column "{column}" has {count} vote {counts} that {are} not {whole_numbers}: {rows}.'
)
MSG_NEEDS_NUMBER = (
    'In "{name}", column "{column}" is chosen as {role} but the {what} is {value}; enter a finite number.'
)
MSG_CLASS_TOO_FEW = 'In "{name}", multiclass needs at least 2 probability columns; only {columns} {is_are} chosen.'
MSG_CLASS_NAMES_COUNT = (
    'In "{name}", {k} class names are given for {m} probability columns ({columns}); give one name per column.'
)
MSG_CLASS_NAMES_REPEAT = 'In "{name}", the class names repeat {repeated}; give each class its own name.'
MSG_CLASS_SUM = (
    'In "{name}", the class probabilities in columns {columns} do not sum to 1 '
    "(within {tol:g}) in {count} {row_word}: {rows}."
)
MSG_CLASS_NEGATIVE = (
    'In "{name}", the class probabilities have {count} negative {values} (a probability lies between 0 and 1): {where}.'
)
MSG_CLASS_ALSO_SUM = " Also, the probabilities do not sum to 1 (within {tol:g}) in {count} {row_word}: {rows}."
MSG_CLASS_SUM_ZERO = (
    'In "{name}", the class probabilities in columns {columns} are all 0 in {count} '
    "{row_word}, so they cannot be renormalised: {rows}."
)
MSG_CLASS_ONE_CLASS = (
    'In "{name}", column "{column}" has only one value, {value}, {every_row}; a multiclass label '
    "needs cases of at least two classes{classes}."
)
CLASS_ONE_CLASS_NAMED = " (the probability columns are for {classes})"  # {classes} of MSG_CLASS_ONE_CLASS
MSG_CLASS_UNKNOWN = (
    'In "{name}", column "{column}" has {count} {values} that {are} not among the classes {classes}: {rows}.'
)

# notes (sentences collected in df.attrs["notes"] and Dataset.notes)
NOTE_ENCODING = (
    'The file "{name}" is not UTF-8 text, so it was read as {encoding}; check that accented letters look right.'
)
NOTE_UTF16 = 'The file "{name}" is UTF-16 text; it was read as such.'
NOTE_CONSTANT_SCORE = (
    'In "{name}", column "{column}" holds the same score ({value}) in all {n} rows: it cannot tell one case from '
    "another, so no page will let it decide. Check that it is the model's score."
)
NOTE_REVERSED_LABELS = (
    'In "{name}", the scores{columns} are lower for {positive} than for {negative}: is {negative} the positive '
    "class? {how}"
)
POSITIVE_PICKER = "Which label value is the positive class?"  # the Data page's choice of it (labels.MAP_POSITIVE)
REVERSED_PICK = 'If so, pick it under "{picker}" above.'  # the Data page offers the choice
REVERSED_FLAG = "If so, choose it{flag}."  # the command line names the flag
REVERSED_CHECK = "Check that the score is the chance of {positive}, not of {negative}."  # no choice offered
NOTE_DECIMAL_COMMA = (
    'The file "{name}" is separated by {sep} and writes numbers with a decimal comma '
    '("0,25"); they were read as numbers (0.25).'
)
NOTE_HEADER_NUMBERS = (
    'The first line of "{name}" looks like numbers ({cells}), not column names; it was '
    "read as the header, so its values are not part of the data."
)
NOTE_EMPTY_COLUMNS = (
    'In "{name}", {count} empty {columns} without a name (from separators at the end of lines) {were} left out.'
)
NOTE_REPEATED_SAME = (
    'In "{name}", the header repeats the name "{column}" ({positions}) and those columns '
    "hold the same values; one copy was kept."
)
NOTE_REPEATED_DIFFERENT = (
    'In "{name}", the header repeats the name "{column}" ({positions}) for columns that '
    "hold different values; they are kept as {kept}."
)
NOTE_DROPPED_LABELS = (
    'In "{name}", {count} {row_word} with no label in column "{column}" {were} dropped ({rows}); {kept} rows remain.'
)
NOTE_DROPPED_SCORES = (
    'In "{name}", {count} {row_word} with an empty score in {columns} {were} left out ({rows}); {kept} rows remain.'
)
# after NOTE_DROPPED_LABELS or NOTE_DROPPED_SCORES, when the file marked rows left out as missing
NOTE_MARKED_ALL = " The file marked {them} missing with {markers}."
NOTE_MARKED_SOME = " The file marked {count} of them missing with {markers}: {rows}."
NOTE_TOP_GROUPS = (
    'In "{name}", column "{column}" has {k} groups; the {top} largest were kept and the '
    'other {rest} ({rest_rows} rows) were put together as "{other}".'
)
NOTE_ONE_ROW_GROUP = (
    'In "{name}", {groups} in column "{column}" {has_have} a single row ({rows}); no '
    "interval can be computed for {it_them}."
)
NOTE_MISSING_GROUP = (
    'In "{name}", column "{column}" is blank in {count} {values} ({rows}); they form the group "{missing}".'
)
NOTE_RENORMALISED = (
    'In "{name}", {count} {row_word} of the class probabilities {were} renormalised to sum '
    "to 1 (the largest gap from 1 was {gap:.3g})."
)
NOTE_WIDE = (
    'The file "{name}" has {count:,} columns; each list below offers {shown:,} of them (the '
    "guessed ones first, then the first columns of the file). Type the exact name of any "
    "other column into a list to use it."
)
NOTE_PREVIEW = '"{name}": {rows:,} {row_word}, {columns:,} {columns_word}. First rows{cut}:'
NOTE_PREVIEW_WIDE = (
    '"{name}": {rows:,} {row_word}, {columns:,} {columns_word}. First rows of the first {shown:,} columns{cut}:'
)
NOTE_PREVIEW_CUT = ', with {count:,} {cells} longer than {limit:,} characters cut short at "…"{names}'
NOTE_PREVIEW_CUT_NAMES = ", {count:,} of them {names}"  # of the cells cut, the column names among them

# fixes offered with a DataError (DataError.fix), applied only when asked for
FIX_DROP_LABELS = "drop the {count} {row_word} with a missing label"
FIX_DROP_SCORES = "leave out the {count} {row_word} with an empty score"
FIX_TOP_GROUPS = "keep the {top} largest groups and put the rest in 'Other'"
FIX_RENORMALISE = "renormalise each row to sum to 1"
FIX_LOGIT = "read the scores as log-odds (the logit scale, mapped by the sigmoid)"

NOTE_SPLIT_WORDS = 'In "{name}", the split column "{column}" names splits in words of its own: {pairs}.'
SPLIT_READ_AS = "{value} read as {role}"  # one pair of NOTE_SPLIT_WORDS

# scores that look like percentages (`cells.looks_like_percent`): what the mapping form says and
# offers to tick, and the note once they were read so
NOTE_PERCENT_SCORES = (
    'In "{name}", the scores in {columns} all lie between 0 and 100 (largest {high}): they look like percentages. '
    "As raw scores they feed the cost pages only; read as probabilities (divided by 100), Value and Calibration "
    "can use them too."
)
FIX_PERCENT = "Read the scores in {columns} as percentages: divide them by 100 to make probabilities"
NOTE_PERCENT_READ = 'In "{name}", the scores in column "{column}" were read as percentages and divided by 100.'
# what a loaded file whose scores were read as raw scores cannot feed, and why (`answers.roles.loaded_sentence`)
RAW_NOT_PROBABILITIES = "{pages} need scores that are probabilities, which raw scores are not"
# why a file that looks as if it had more than two classes was not read so (`preparing.refusals`'
# "multiclass"): the heading of the loader's sentence, as `present.labels.REFUSED` heads the other
# roles' (`answers.roles.refused_sentence`)
REFUSED_MULTICLASS = "Not read as more than two classes:"

SHOW = 5  # offending rows quoted in a message

# ---------------------------------------------------------------------------------------
# Small text helpers
# ---------------------------------------------------------------------------------------


def plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def plural_words(n: int) -> dict[str, str]:
    """The words a template agrees with a count `n`: {values}, {row_word}, {are}, {were}, ..."""
    return {
        "values": plural(n, "value", "values"),
        "row_word": plural(n, "row", "rows"),
        "are": plural(n, "is", "are"),
        "were": plural(n, "was", "were"),
        "counts": plural(n, "count", "counts"),
        "columns_word": plural(n, "column", "columns"),
        "numbers": plural(n, "a number", "numbers"),  # "1 value that is not a number"
        "whole_numbers": plural(n, "a whole number", "whole numbers"),  # "1 vote count that is not a whole number"
    }


def every_row(n: int, first: int, last: int) -> str:
    """'in all 6,000 rows (rows 2 to 6001)' of a table of `n` rows whose first and last rows are
    the file's rows `first` and `last`; 'in its only row (row 2)' for one row.

    >>> every_row(6000, 2, 6001), every_row(1, 2, 2)
    ('in all 6,000 rows (rows 2 to 6001)', 'in its only row (row 2)')
    """
    if n == 1:
        return f"in its only row (row {first})"
    return f"in all {n:,} rows (rows {first} to {last})"


def join(items: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def markers_phrase(markers: Sequence[str]) -> str:
    """The missing-value markers found, quoted: '"NA"', '"NA" or "null"', the first three of more.

    >>> markers_phrase(["NA", "null", "-", "?"])
    '"NA", "null" or "-"'
    """
    return join([q(m) for m in list(markers)[:3]], "or")


def q(value: object, limit: int = 40) -> str:
    """A value quoted for a message, shortened if long (`shorten`)."""
    return '"' + shorten(value, limit).replace('"', "'") + '"'


def num(x: float) -> str:
    return f"{x:.6g}"


def limit_words(allowance, need: int) -> dict[str, str]:
    """The {limit} and {advice} of a refusal of a table that takes `need` bytes (or, for a CSV,
    whose first rows already do), too big for a read's `budget.Allowance`.

    The upload budget's words ('the 1 GB that one uploaded table may take here') and the
    big-data path when the upload budget set the allowance. When the server's free memory did:
    the same advice when the table would not fit even on an empty server; the busy server's words,
    with what other sessions hold, when their data makes the difference; else this session's
    own data, and a fresh session.

    Examples
    --------
    >>> from costlib.loading.budget import Allowance
    >>> limit_words(Allowance(400_000_000, server=True, whole=400_000_000), 500_000_000)["limit"]
    'the 100 MB that one table may take on this server even when it holds nothing else'
    >>> limit_words(Allowance(40_000_000, server=True, whole=400_000_000, others=360_000_000), 50_000_000)["limit"]
    "the 10 MB that a new table may take now: other sessions hold 360 MB of this server's 400 MB"
    """
    table = size(allowance.table)
    if not allowance.server:
        return {"limit": LIMIT_UPLOAD.format(size=table), "advice": BIG_DATA_PATH}
    if need > allowance.whole // PEAK_PER_TABLE_BYTE:
        whole = size(allowance.whole // PEAK_PER_TABLE_BYTE)
        return {"limit": LIMIT_SERVER_WHOLE.format(size=whole), "advice": BIG_DATA_PATH}
    budget, mine = size(allowance.whole), size(allowance.mine)
    if allowance.others > 0 and need <= (allowance.whole - allowance.mine) // PEAK_PER_TABLE_BYTE:
        limit = LIMIT_SERVER.format(size=table, others=size(allowance.others), budget=budget)
        return {"limit": limit, "advice": BUSY_ADVICE}
    return {"limit": LIMIT_SESSION_HELD.format(size=table, mine=mine, budget=budget), "advice": SESSION_HELD_ADVICE}


def size(n_bytes: float) -> str:
    """'1.6 GB', '380 MB', '12 kB' (decimal units, as file managers show them)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.3g} {unit}"
    return f"{int(n_bytes)} bytes"


def flag_phrase(flags: Mapping[str, str] | None, setting: str, value: str = "") -> str:
    """' (--scale raw)': the command-line flag that sets `setting` (a `ColumnMapping` field),
    with the `value` to give it, for a sentence that asks for that setting; '' when `flags`
    does not name it (the dashboard: the sentence's own words name its widget).

    >>> flag_phrase({"score_scale": "--scale"}, "score_scale", "raw"), flag_phrase(None, "score_scale", "raw")
    (' (--scale raw)', '')
    """
    flag = (flags or {}).get(setting)
    if not flag:
        return ""
    return f" ({flag} {value})" if value else f" ({flag})"


def file_row(i):
    """The row a spreadsheet shows for the data row at 0-based position `i`: the header is
    row 1, so data row 0 is row 2 (Parquet files follow the same rule).

    `i` may be an int or an integer array; the answer has the same form.

    Examples
    --------
    >>> file_row(0)
    2
    """
    return i + 2


def rows_phrase(rownums: Sequence[int], count: int, texts: Sequence[str] | None = None) -> str:
    """'rows 4, 9 and 17 ("high", "n/a", "0.4.1")'; more than five: '(first 5 of 40)'."""
    shown = [str(int(r)) for r in list(rownums)[:SHOW]]
    phrase = ("row " if count == 1 else "rows ") + join(shown)
    if count > SHOW:
        phrase += f" (first {SHOW} of {count:,})"
    if texts is not None:
        phrase += " (" + ", ".join(q(t) for t in list(texts)[:SHOW]) + ")"
    return phrase


def rows_sentence(
    template: str,
    *,
    name: str,
    rownums: Sequence[int] | np.ndarray,
    count: int,
    texts: Sequence[str] | None = None,
    **fields: object,
) -> str:
    """`template` filled for some bad rows: the file's name, their count (with the words that
    agree with it) and the first rows (`rownums`, as `file_row` gives them), with their cells when given.

    The one place a "these rows are bad" sentence is put together.
    """
    words = {**plural_words(count), **fields}
    # the count with the thousands separator every other number of the app has ("3,000", not "3000")
    return template.format(name=name, count=f"{count:,}", rows=rows_phrase(rownums, count, texts), **words)


def cols_phrase(columns: Sequence[str]) -> str:
    columns = list(columns)
    return plural(len(columns), "column ", "columns ") + join([q(c) for c in columns])


def positions_phrase(positions: Sequence[int]) -> str:
    """'columns 2 and 40' for 1-based column positions."""
    return "columns " + join([str(p) for p in positions])


def available(columns: Sequence[str], limit: int = 20) -> str:
    cols = [q(c) for c in list(columns)[:limit]]
    more = f" and {len(columns) - limit:,} more" if len(columns) > limit else ""
    return ", ".join(cols) + more


# `from costlib.loading.messages import *` gives the templates only (costlib.loading re-exports them)
__all__ = [n for n in list(globals()) if n.startswith(("MSG_", "NOTE_", "FIX_"))]
