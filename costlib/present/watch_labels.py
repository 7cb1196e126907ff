"""What the Watch page says around its answer: its inputs' labels and help, the sentences that
ask for what is missing, the built-in sample's notes, the refit's button and words, and its
headers (its verdict and tables are in `costlib.present.watch_words`).

The page (``views/watch.py``) and `costlib.answers.watch` import these names; user text goes into
a ``{name}`` format only through the page's escaping (`costlib.core.escaping`), as before.
"""

from __future__ import annotations

# ---------------------------------------------------------------------------------------
# The inputs: the policy, the newer cases and their columns

NO_COLUMN = "(none)"
POLICY_LABEL = "Policy file (JSON) from Costs & groups or audit --policy"
CASES_LABEL = "Newer cases (CSV or Parquet) with a date column"
CASES_UPLOADED, CASES_FOLDER = "An uploaded file", "A file in the server's data folder"
FOLDER_COLUMNS = "Its columns to read (date, score, outcome, group)"
SAMPLE_NOTE = (
    "Showing the built-in sample: {title}. Upload a policy and a file of newer cases to watch your own cutoff."
)
NEEDS_POLICY = (
    "Your cases are in. Now give the policy whose cutoff to watch: upload its file, or choose "
    "\u201cWhat Costs & groups recommends now\u201d."
)
NEEDS_CASES = "The policy is in. Now give the newer cases to watch it on: a CSV or Parquet file with a date column."
NEEDS_CASES_NOW = (
    "The cutoff to watch is the one Costs & groups recommends now for the data in the sidebar, at your prices. "
    "Now give the newer cases to watch it on: a CSV or Parquet file with a date column."
)
LAST_NOTE = "Showing your last inputs ({name}). Upload others to replace them."
SAMPLE_BUTTON = "Show the built-in sample instead"
WATCH_WHICH = "The cutoff to watch"
NEWER_CASES = "Newer cases"
SAMPLE_YEAR = "the built-in year"  # the name of the sample's cases in the page's sentences
DOWNLOAD_SAMPLE_CASES = "Download its cases (CSV)"
DOWNLOAD_SAMPLE_POLICY = "Download its policy (JSON)"
DATE_COLUMN = "Date column"
SCORE_COLUMN = "Score column"
OUTCOME_COLUMN = "Outcome column"
PERIODS = "Periods"
PERIOD_NAME = "{name}s"  # a period in the picker: "months"
WHAT_TO_DO = "What to do"
READINGS_HEADER = "Before the outcomes: two readings of the scores"
GROUPS_HEADER = "Group by group"

# ---------------------------------------------------------------------------------------
# The policy watched and the built-in year

SAMPLE_POLICY = "The built-in sample's policy"
CURRENT_POLICY = "The policy Costs & groups recommends now"


#: the page's word on a policy nobody signed: it watches, it does not serve
UNSIGNED_ON_PAGE = (
    "No reviewer has signed this policy off yet. Watch reads it all the same; costlib apply, costlib watch and a "
    "served model refuse it until a reviewer signs it (costlib sign)."
)

SAMPLE_FILES_WHAT = (
    "The built-in year as files, to run the command line on: {cases} (its cases) and {policy} (the policy "
    "shipped before it). In their folder, `{command}` gives this page's answer."
)

# ---------------------------------------------------------------------------------------
# The refit

REFIT_BUTTON = "Open the refit on Costs & groups: its report and policy file"
REFIT_WHAT = (
    "Opens Costs & groups on the cases with outcomes of the latest three periods, at the policy's prices (and review "
    "limit): there the refit is the recommended cutoff, with its verdict, report and policy file. These months take "
    "the place of any file you uploaded on the Data page (the built-in samples stay in the sidebar)."
)
REFIT_TITLE = "The refit, on the latest periods with outcomes"
REFIT_CHART = (
    "Cost per case at each cutoff on the cases the refit is fitted on: the shipped cutoff is the diamond on the "
    "dashed line, at what it cost on them; the refit's cutoff is the star on the dotted line. Its cost there "
    "flatters it (it is fitted on these very cases): what it saves is judged on cases it was not fitted on, above."
)
FROM_FILE = "A policy file"
FROM_COSTS = "What Costs & groups recommends now"
POLICY_SOURCES = (FROM_FILE, FROM_COSTS)
POLICY_SOURCE_HELP = (
    "A policy file downloaded from Costs & groups (or written by audit --policy), or the cutoff Costs & groups "
    "recommends now for the data in the sidebar at your prices and review limit."
)
