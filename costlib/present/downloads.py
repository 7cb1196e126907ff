"""What a download is: a table's CSV as a reader and a spreadsheet read it (`csv_table`), and a
file's name that says what it holds, for which data and when (`dated_name`, `file_part`: the
data's name is user text, made safe for a file name)."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

import numpy as np
import pandas as pd

from costlib.core import rules as R
from costlib.present import labels as t

_INTERVAL_END = re.compile(t.CSV_INTERVAL_END)
_SAVING = "saving_per_case_vs_"


def csv_header(name: object, columns=()) -> str:
    """A column's header in a table's CSV: the table's words (`labels.CSV_HEADERS`), an
    interval's end named for its column (`labels.CSV_INTERVAL`: "X_low", "X_high_95", or "X low"
    beside a column "X" of `columns`), a snake_case name with spaces.

    >>> csv_header("saving_per_case_vs_flag everyone"), csv_header("cost_low_95"), csv_header("out_of")
    ('saving against flag everyone', 'cost per case (95% interval low)', 'out of')
    >>> csv_header("ratio_high"), csv_header("flagged rate low", ["flagged rate"]), csv_header("slow")
    ('ratio (95% interval high)', 'flagged rate (95% interval low)', 'slow')
    """
    name = str(name)
    if name in t.CSV_HEADERS:
        return t.CSV_HEADERS[name]
    if name.startswith(_SAVING):
        return t.CSV_SAVING.format(base=name[len(_SAVING) :])
    end = _INTERVAL_END.match(name)
    if end and (end["sep"] == "_" or end["column"] in columns):
        return t.CSV_INTERVAL.format(column=csv_header(end["column"]), end=end["end"])
    return name.replace("_", " ")


def csv_table(table: pd.DataFrame) -> pd.DataFrame:
    """`table` as its CSV download writes it, for a reader and a spreadsheet alike: headers in
    the table's words (`csv_header`), a rule by the name the table shows (its id column
    dropped beside its words, else each id read as words), whole counts as integers, no
    negative zero; numbers stay numbers. `table` is not changed.

    >>> csv_table(pd.DataFrame({"rule_words": ["cutoff 0.5", "cutoff from prices alone"],
    ...     "rule": ["threshold 0.5", "elkan"], "n": [3087.0, 3087.0], "saving_low_95": [-0.0, 0.25]})).iloc[0]
    rule                         cutoff 0.5
    cases                              3087
    saving (95% interval low)           0.0
    Name: 0, dtype: object
    """
    out = table if isinstance(table.index, pd.RangeIndex) else table.reset_index()
    out = out.copy()
    if "rule" in out.columns:
        if "rule_words" in out.columns:
            out = out.drop(columns="rule")
        else:
            out["rule"] = [R.rule_words(r) if isinstance(r, str) else r for r in out["rule"]]
    for name in out.columns:
        column = out[name]
        if not pd.api.types.is_float_dtype(column):
            continue
        column = column + 0.0  # -0.0 + 0.0 is 0.0
        known = column.dropna().to_numpy(float)
        if len(known) and np.isfinite(known).all() and (known == np.round(known)).all() and (abs(known) < 2**53).all():
            column = column.astype("Int64")  # a count (or any whole column) without its ".0"
        out[name] = column
    headers = [csv_header(c, list(out.columns)) for c in out.columns]
    if len(set(headers)) == len(headers):  # two names reading alike keep their own
        out.columns = headers
    return out


FILE_PART_CHARS = 40  # the most of a data name a download's file name holds
_DATA_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,8}$")


def file_part(text: object, *, limit: int = FILE_PART_CHARS) -> str:
    """`text` (a data set's name: user text) as a part of a file name: its letters and digits
    (any script) and "-", "_", "." kept, anything else (a path separator, a space, a bracket, an
    invisible or right-to-left character) one "_", no "..", no data file extension, at most
    `limit` characters, never empty ("data").

    >>> file_part("../../etc/passwd <script>.csv"), file_part("Recidivism risk (COMPAS)"), file_part("/")
    ('etc_passwd_script', 'Recidivism_risk_COMPAS', 'data')
    """
    text = _DATA_EXTENSION.sub("", unicodedata.normalize("NFKC", str(text)))
    kept = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in text)
    kept = re.sub(r"\.{2,}", ".", re.sub(r"_{2,}", "_", kept)).strip("._-")
    return kept[:limit].strip("._-") or "data"


def dated_name(file: str, data: object, day: dt.date) -> str:
    """`file` ("cost_audit.html") named for the data and the day: "cost_audit_<data>_<YYYY-MM-DD>.html"
    (`file_part` of `data`), so that the files of several data sets or days kept side by side
    neither overwrite each other nor lose where they came from.

    >>> dated_name("cost_audit.html", "compas.csv", dt.date(2026, 12, 7))
    'cost_audit_compas_2026-12-07.html'
    """
    stem, dot, ext = file.rpartition(".")
    return f"{stem or ext}_{file_part(data)}_{day.isoformat()}{dot}{ext if stem else ''}"
