"""Reading an uploaded table and turning it into a validated `Dataset`.

Pure Python (no Streamlit). The steps are::

    data = uploaded bytes                          # or read_path(path) on the command line
    df = read_table(data, filename)               # CSV or Parquet -> DataFrame
    mapping = guess_mapping(df)                   # a first guess the user may edit
    ds = prepare(df, mapping, name=filename, fingerprint=fingerprint(data))

Every problem with the user's file is raised as a `DataError` whose message is a sentence
naming the file, the column and the first offending rows (1-based data row numbers: the
first row under the header is row 1). Fixes are offered in `DataError.fix` (words) and
`DataError.fix_action` (a word from `ACTIONS`), and applied only when asked for
(`apply_fixes`), always with a note in `Dataset.notes`. Parquet is read with pyarrow only;
nothing is ever unpickled or evaluated. Tables larger than the memory budget
(`upload_memory_budget`, $COSTLIB_UPLOAD_MEMORY_MB) are refused before they are read whole;
on the command line (`read_path`), so are files larger than a quarter of it (`table_budget`)
and sparse files.

The parts:

- `messages`: every sentence (the MSG_, NOTE_ and FIX_ templates tests match on) and the one
  helper that fills a "these rows are bad" sentence (file names in them: `escaping.display_name`);
- `sniffing`: binary or text, encoding, separator, the header line;
- `reading`: `read_table` (CSV here, Parquet in `parquet`), `read_path`, `fingerprint`;
- `budget`: the memory budget; `frames`: tables stored compactly and tidied while they are read;
- `repeated`: column names a header repeats;
- `cells`: one column's cells as categories or numbers;
- `guessing`: `guess_mapping`, `near_misses`, `class_names_for`; `form_choices`: what a mapping form offers
  (`label_values`, `likely_positive`, `offered_columns`, `percent_columns`);
- `price_signs`: how a price's sign and a label column agree, one rule for the loader and the guess, and
  `refuse_unsigned_price` (the Data page's: no label column and no price below 0);
- `roles`: validating each column role (`classes`: the multiclass columns); `preparing`: `prepare`,
  `refusals` (why the columns nearest to an unguessed role were not taken, and why a file that looks
  as if it had more than two classes was not read so) and `apply_fixes`;
- `export`: `preview` (the escaping of cells, `safe_csv` and `safe_cells`, is `costlib.core.escaping`);
- `summary`: what the Data page says about a loaded dataset;
- `policy_cutoffs`: the cutoffs a loaded policy file decides by (`PolicyCutoffs`, `loaded_cutoffs`), read
  by Watch and the hand-off.
"""

from costlib.core.escaping import display_name, neutralise, safe_cells, safe_csv
from costlib.loading.budget import (
    DEFAULT_UPLOAD_MEMORY_MB,
    PEAK_PER_TABLE_BYTE,
    UPLOAD_MEMORY_ENV,
    table_budget,
    upload_memory_budget,
)
from costlib.loading.cells import MISSING_GROUP
from costlib.loading.classes import SUM_TOLERANCE
from costlib.loading.export import PREVIEW_COLUMNS, preview
from costlib.loading.form_choices import (
    MAX_COLUMNS_OFFERED,
    MAX_LABEL_VALUES,
    label_values,
    likely_positive,
    offered_columns,
    percent_columns,
)
from costlib.loading.guessing import SPLIT_ALIASES, class_names_for, guess_mapping, near_misses
from costlib.loading.messages import *  # noqa: F403  (the MSG_, NOTE_ and FIX_ templates)
from costlib.loading.messages import BIG_DATA_PATH
from costlib.loading.preparing import (
    ACTION_DROP_LABELS,
    ACTION_DROP_SCORES,
    ACTION_LOGIT,
    ACTION_PERCENT,
    ACTIONS,
    apply_fixes,
    prepare,
    refusals,
)
from costlib.loading.price_signs import refuse_unsigned_price
from costlib.loading.reading import file_fingerprint, fingerprint, read_path, read_peak, read_table
from costlib.loading.roles import (
    ACTION_RENORMALISE,
    ACTION_TOP_GROUPS,
    DEFAULT_TOP_GROUPS,
    MAX_GROUPS,
)
from costlib.loading.summary import (
    SUMMARY_COLUMNS,
    rows_per_split_sentence,
    summary_metrics,
    summary_tables,
    weights_sentence,
)

__all__ = [
    "ACTION_DROP_LABELS",
    "ACTION_DROP_SCORES",
    "ACTION_LOGIT",
    "ACTION_PERCENT",
    "ACTION_RENORMALISE",
    "ACTION_TOP_GROUPS",
    "BIG_DATA_PATH",
    "DEFAULT_TOP_GROUPS",
    "DEFAULT_UPLOAD_MEMORY_MB",
    "ACTIONS",
    "MAX_COLUMNS_OFFERED",
    "MAX_GROUPS",
    "MAX_LABEL_VALUES",
    "MISSING_GROUP",
    "PEAK_PER_TABLE_BYTE",
    "PREVIEW_COLUMNS",
    "SPLIT_ALIASES",
    "SUM_TOLERANCE",
    "UPLOAD_MEMORY_ENV",
    "apply_fixes",
    "class_names_for",
    "display_name",
    "file_fingerprint",
    "fingerprint",
    "guess_mapping",
    "label_values",
    "likely_positive",
    "near_misses",
    "neutralise",
    "offered_columns",
    "percent_columns",
    "preview",
    "prepare",
    "read_path",
    "read_peak",
    "read_table",
    "refusals",
    "refuse_unsigned_price",
    "rows_per_split_sentence",
    "safe_cells",
    "safe_csv",
    "summary_metrics",
    "weights_sentence",
    "summary_tables",
    "SUMMARY_COLUMNS",
    "table_budget",
    "upload_memory_budget",
]
