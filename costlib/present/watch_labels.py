"""What the Watch page says around its answer: its inputs' labels and help, the sentences that
ask for what is missing, the built-in sample's notes, the refit's button and words, and its
headers (its verdict and tables are in `costlib.present.watch_words`).

The page (``views/watch.py``) and `costlib.answers.watch` import these names; user text goes into
a ``{name}`` format only through the page's escaping (`costlib.core.escaping`), as before.
"""

from __future__ import annotations

from costlib.loading.messages import q
from costlib.present.amounts import a_month, money_digits, month_money, number
from costlib.present.labels import NEEDS, VOLUME_LABEL
from costlib.watch.periods import FREQS

# ---------------------------------------------------------------------------------------
# The inputs: the policy, the newer cases and their columns

NO_COLUMN = "(none)"
POLICY_LABEL = "Policy file downloaded from Costs & groups"
#: the command-line way to the same file, in the uploader's help (details, not the first words)
POLICY_UPLOAD_HELP = "The JSON file Costs & groups downloads with its report, or one written by costlib audit --policy."
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
    "Now give the newer cases to watch this cutoff on: a CSV or Parquet file with a date column and the same "
    "score column."
)
#: which cutoff "What Costs & groups recommends now" watches, said before the cases are in and after
#: (`current_watched`): the data it is fitted on, where that is chosen, the model and its cutoff
WATCHING_NOW = (
    "The cutoff to watch: what Costs & groups recommends now for {data}, the data chosen in the sidebar's "
    "{data_label} list (or uploaded on the Data page), at your prices: {rule}."
)
#: the same when the policy is not fitted on the data chosen in the sidebar (`current_watched`'s `chosen`):
#: which data it is fitted on, and why (`WATCHED_FALLBACK` or `WATCHED_EARLIER`)
WATCHING_OTHER = (
    "The cutoff to watch: what Costs & groups recommends now for {data}, at your prices: {rule}. {data} is not "
    "the data chosen in the sidebar's {data_label} list, {chosen}: {why}."
)
WATCHED_FALLBACK = (
    "Costs & groups cannot answer for that data (it needs {need}), so it answers for this built-in sample instead"
)
WATCHED_EARLIER = "this is the cutoff of your last inputs, as Costs & groups recommended it then"
#: the rule watched, with its model (`current_watched`): the model's cutoff when it ships, else the
#: choice without it and why (the verdict, worded as on every page)
WATCHED_MODEL = "model {model}, {rule}"
WATCHED_NO_MODEL = "{rule}, without the model (model {model}: {verdict})"
#: why the built-in year is gone under "What Costs & groups recommends now", and the way back
SAMPLE_HIDDEN = (
    "The built-in year is not shown here: it is watched under its own policy file. To see it again, press the "
    "button or choose \u201cA policy file\u201d."
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
    "No reviewer has signed this policy off yet. This page watches it all the same; the command line and a served "
    "model use it only once a reviewer has signed it."
)

#: the built-in year's command line, folded away under this title (details, not the first words)
SAMPLE_CLI_TITLE = "Watch the built-in year on the command line"
SAMPLE_FILES_WHAT = (
    "The built-in year as files, to run the command line on: {cases} (its cases) and {policy} (the policy "
    "shipped before it). In their folder, this command gives this page's answer (--allow-unsigned: nobody signed "
    "the sample's policy; a reviewer signs one with costlib sign):"
)  # the command follows in a code block (`SampleFiles.shell`), cut only between its arguments

# ---------------------------------------------------------------------------------------
# The refit

REFIT_BUTTON = "Open the refit on Costs & groups: its report and policy file"
REFIT_WHAT = (
    "Opens Costs & groups on the cases with outcomes of the latest three periods, at {settings}: there the refit is "
    "the recommended cutoff, with its verdict, report and policy file. {keeps}These cases take the place of any file "
    "you uploaded on the Data page (the built-in samples stay in the sidebar)."
)
#: without the list of what changes (`refit_changes`, which the page says in a box of its own)
REFIT_KEEPS = "Every page keeps these settings after{volume}. "
#: what the refit button does to the sidebar's cases a month, when the policy's differ from the person's
REFIT_VOLUME = " (the sidebar's {label} becomes {month}, from your {yours})"
#: whose "a month" the answer's monthly amounts are (`costlib.answers.watch.what_to_ship`), said once
MONTH_IS_POLICYS = (
    "A month here is {cases} cases, the policy's cases a month (the volume it was written for){yours}; amounts for "
    "a past {word} are what that {word}'s own cases cost."
)
MONTH_NOT_YOURS = ", not your {yours} ({label} in the sidebar)"
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


def current_watched(policy: dict, data_label: str, *, chosen: str | None = None, answerable: bool = True) -> str:
    """Which cutoff "What Costs & groups recommends now" watches (`WATCHING_NOW`): the data the
    policy is fitted on (`data_label`: the sidebar's list it is chosen in), its model and its cutoffs;
    names go in quoted (`q`), and the page escapes the sentence. `chosen`: the name of the data chosen
    in the sidebar (None: not known); when the policy is fitted on other data, the sentence names both
    and says why (`WATCHING_OTHER`): Costs & groups cannot answer for the data chosen (`answerable`
    False: it fell back on a built-in sample), or the policy is the one of the last inputs."""
    from costlib.core.rules import SHIP
    from costlib.present.amounts import percent
    from costlib.present.words import cutoffs_text

    cuts = {g: float(t) for g, t in policy.get("thresholds", {}).items()}
    model, verdict, share = q(policy.get("model"), 60), policy.get("verdict"), policy.get("random_share")
    rule = cutoffs_text(cuts, grouped=len(set(cuts.values())) > 1)
    rule = (WATCHED_MODEL if verdict == SHIP else WATCHED_NO_MODEL).format(model=model, rule=rule, verdict=verdict)
    if share is not None:  # a review limit filled at random: no model, no cutoff
        rule = f"flag a random {percent(share)} of the cases, without the model"
    name = (policy.get("data") or {}).get("name")
    data = q(name or "the data", 80)
    if chosen is None or name is None or chosen == name:
        return WATCHING_NOW.format(data=data, data_label=data_label, rule=rule)
    why = WATCHED_EARLIER if answerable else WATCHED_FALLBACK.format(need=NEEDS["binary"][0])
    return WATCHING_OTHER.format(data=data, data_label=data_label, rule=rule, chosen=q(chosen, 80), why=why)


def month_words(month: float, volume: float | None = None, *, freq: str = "M") -> str:
    """Whose "a month" the monthly amounts of `what_to_ship` are, said once beside them
    (`MONTH_IS_POLICYS`): the policy's `month` cases a month, what it was written for, and not the
    person's `volume` (the page's, or ``--volume``; None on the command line without it) when that
    differs; amounts for a past period (the headline's) are that period's own cases' (`freq`: the periods).

    >>> month_words(1500, 10000)  # doctest: +NORMALIZE_WHITESPACE
    "A month here is 1,500 cases, the policy's cases a month (the volume it was written for), not your 10,000
    (Cases per month in the sidebar); amounts for a past month are what that month's own cases cost."
    """
    yours = ""
    if volume is not None and float(volume) != float(month):
        yours = MONTH_NOT_YOURS.format(yours=number(volume, 0), label=VOLUME_LABEL)
    word = FREQS.get(freq, "period")
    return MONTH_IS_POLICYS.format(cases=number(month, 0), yours=yours, word=word)


def policy_settings_words(policy: dict, *, yours: bool = True) -> str:
    """The settings of `policy` that the refit puts in place of the person's
    (`views._ui.policy.set_policy_prices`), as the sentences say them: "the policy's prices, unit,
    review limit and 1,500 cases a month (in place of yours)"; `yours` False: they are the person's
    own already (`REFIT_NO_CHANGE` says so, once), so not "in place of yours"."""
    month = policy.get("volume")
    parts = ["prices", *(["unit"] if policy.get("unit_given", True) else []), "review limit"]
    parts += [f"{number(month, 0)} cases a month"] if month is not None else []
    return f"the policy's {', '.join(parts[:-1])} and {parts[-1]}" + (" (in place of yours)" if yours else "")


def refit_what(policy: dict, volume: float | None = None, *, listed: bool = False, same: bool = False) -> str:
    """What the refit button does, before it is pressed (`REFIT_WHAT`): Costs & groups opens at the
    settings of `policy` (`policy_settings_words`), which every page keeps after; the sidebar's
    cases a month said changing from `volume` (the person's) when the policy's differ. `listed`:
    the page lists each setting that changes beside the button (`refit_notice`), so this leaves
    them out; `same`: none changes (`refit_changes` is empty), which `REFIT_NO_CHANGE` says once
    beside it, so the settings are not said to take the place of the person's."""
    month = policy.get("volume")
    change = ""
    if month is not None and volume is not None and float(volume) != float(month):
        change = REFIT_VOLUME.format(label=VOLUME_LABEL, month=number(month, 0), yours=number(volume, 0))
    keeps = "" if listed else REFIT_KEEPS.format(volume=change)
    return REFIT_WHAT.format(settings=policy_settings_words(policy, yours=not same), keeps=keeps)


# ---------------------------------------------------------------------------------------
# What the refit button changes, said where it is pressed, and the way back
#
# The refit opens at the policy's settings, not the person's: it is the policy's decision made again on
# newer cases, so its review limit (cases a month, a share of the policy's cases a month), its amounts a
# month and the policy file it downloads (the successor of the one watched) are those of the volume and
# prices the policy was written for. Those settings are shared by every page, so the button lists each one
# it changes, from what to what, above it, and the page keeps the person's to put back.

#: the box above the button: every setting it changes, from the person's to the policy's
REFIT_CHANGES = (
    "This button also changes your settings, on every page: {changes}. The refit is shown at the policy's "
    "settings, which its report and policy file are written for. \u201c{undo}\u201d then appears on this page "
    "to undo it."
)
REFIT_NO_CHANGE = "This button changes none of your settings: the policy's are the same as yours."
REFIT_UNDO = "Put my settings back"
#: on Watch after the refit opened: what it changed, and the button that puts the person's settings back
REFIT_CHANGED = "Opening the refit changed your settings, on every page: {changes}."
REFIT_UPLOAD_GONE = " The file you had uploaded is not brought back: upload it again on the Data page."
REFIT_UNDONE = "Your settings are back: {changes}."
#: on Costs & groups, after the refit's own sentence (`Refit.sentence`): where the person's settings are
REFIT_BACK_ON_COSTS = (
    " Your settings were changed for it ({changes}); \u201c{undo}\u201d on the Watch page puts yours back."
)
SETTING_NAMES = {
    "volume": VOLUME_LABEL,
    "unit": "Unit of your prices",
    "prices": "prices",
    "review_limit": "review limit",
    "tolerance": "fairness tolerance",
    "price_questions": "your answers on Find my prices",
}
NO_REVIEW_LIMIT = "none"
PER_GROUP_PRICES = "a price pair for each group"
QUESTIONS_SET_ASIDE = "set aside"


def _prices_words(s) -> str:
    from costlib.present.amounts import money
    from costlib.present.labels import ALARM_NAME, MISS_NAME

    if s.per_group:
        return PER_GROUP_PRICES
    return f"{ALARM_NAME} {money(s.c_fp, s.unit)}, {MISS_NAME} {money(s.c_fn, s.unit)}"


def _limit_words(s) -> str:
    return f"{number(s.review_limit, 0)} cases a month" if s.review_limit_on else NO_REVIEW_LIMIT


def refit_changes(before, after, fields) -> tuple[str, ...]:
    """Each shared setting that the refit changes, from the person's (`before`) to the policy's
    (`after`; both `costlib.core.link.Settings`, `fields` the ones the policy sets:
    `present.policy_restore.restored_fields`), as the list above the button says it; empty when
    none differs. The groups' prices are said as one pair, or as a pair per group.

    >>> from costlib.core.link import Settings
    >>> refit_changes(Settings(volume=10000), Settings(volume=1500), ("volume", "unit", "c_fp", "c_fn"))
    ('Cases per month from 10,000 to 1,500',)
    >>> refit_changes(Settings(review_limit_on=True, review_limit=300), Settings(c_fn=5.0), ("c_fn", "review_limit_on"))
    ('prices from a false alarm $1.00, a missed case $3.00 to a false alarm $1.00, a missed case $5.00', \
'review limit from 300 cases a month to none')
    """
    said = []

    def change(name: str, old: str, new: str) -> None:
        if old != new:
            said.append(f"{SETTING_NAMES[name]} from {old} to {new}")

    if "volume" in fields and before.volume != after.volume:
        change("volume", *(NO_REVIEW_LIMIT if v is None else number(v, 0) for v in (before.volume, after.volume)))
    if "unit" in fields:
        change("unit", q(before.unit), q(after.unit))
    if {"c_fp", "c_fn", "per_group", "group_prices"} & set(fields):
        old, new = _prices_words(before), _prices_words(after)
        if old == new == PER_GROUP_PRICES and before.group_prices != after.group_prices:
            new = f"the policy's {PER_GROUP_PRICES}"
        change("prices", old, new)
    if {"review_limit_on", "review_limit"} & set(fields):
        change("review_limit", _limit_words(before), _limit_words(after))
    if "tolerance" in fields:
        from costlib.present.amounts import percent

        change("tolerance", percent(before.tolerance), percent(after.tolerance))
    if "price_questions" in fields and before.price_questions and before.price_questions != after.price_questions:
        said.append(f"{SETTING_NAMES['price_questions']} {QUESTIONS_SET_ASIDE}")
    return tuple(said)


def refit_notice(changes) -> str:
    """What the refit button changes, said above it (`REFIT_CHANGES`, or `REFIT_NO_CHANGE`)."""
    if not changes:
        return REFIT_NO_CHANGE
    return REFIT_CHANGES.format(changes="; ".join(changes), undo=REFIT_UNDO)


def refit_changed(changes, *, upload_gone: bool = False) -> str:
    """What opening the refit changed, said on Watch beside the button that undoes it
    (`REFIT_CHANGED`); `upload_gone`: the person's own upload was replaced by the refit's cases."""
    return REFIT_CHANGED.format(changes="; ".join(changes)) + (REFIT_UPLOAD_GONE if upload_gone else "")


def refit_undone(changes) -> str:
    """The person's settings put back (`REFIT_UNDONE`), each from the policy's to theirs (`changes`:
    `refit_changes` the other way round)."""
    return REFIT_UNDONE.format(changes="; ".join(changes))


def refit_handed(sentence: str, changes) -> str:
    """The refit's sentence on Costs & groups (`sentence`: `Refit.sentence`), with the settings it
    changed and where they are put back (`REFIT_BACK_ON_COSTS`) when it changed any."""
    if not changes:
        return sentence
    return sentence + REFIT_BACK_ON_COSTS.format(changes="; ".join(changes), undo=REFIT_UNDO)


# ---------------------------------------------------------------------------------------
# The built-in sample's command


def shell_lines(command: str, width: int = 72) -> str:
    """`command` (words separated by single spaces) as lines of at most about `width` characters,
    each but the last ending in a shell's line continuation (" \\"), cut only between arguments: a
    flag stays beside its value ("--resamples 500"), and no line breaks inside a flag as a page that
    wraps the one long line may ("--" / "allow-unsigned"). The command reads the same to a shell.

    >>> print(shell_lines("costlib watch p.json c.csv --time decided --allow-unsigned", width=30))
    costlib watch p.json c.csv \\
      --time decided \\
      --allow-unsigned
    """
    words = command.split(" ")
    groups = []  # a flag with its value, or a word alone
    for word in words:
        if groups and groups[-1].startswith("-") and " " not in groups[-1] and not word.startswith("-"):
            groups[-1] += " " + word
        else:
            groups.append(word)
    lines = [""]
    for group in groups:
        if lines[-1] and len(lines[-1]) + 1 + len(group) > width:
            lines.append("  " + group)
        else:
            lines[-1] = f"{lines[-1]} {group}" if lines[-1] else group
    return " \\\n".join(lines)


# ---------------------------------------------------------------------------------------
# What to ship (`costlib.present.watch_words.ship_words` says them)

SHIP_REFIT_WORDS = (
    "What to ship instead: {rule}, the refit on the {n} cases with outcomes of {span}. {saving} This is the saving "
    "of one cutoff kept for all of {span}; the amount in the answer above is another: what each {word} would have "
    "saved with its own best cutoff."
)
SHIP_SHIFT_WORDS = (
    "What to ship instead: {rule}, the shipped cutoff moved to the share of positive cases the scores of {period} "
    "suggest (about {rate}). Estimated from the scores, if only that share moved, it saves {amount} over keeping the "
    "shipped cutoff{iv}; if the cases changed and the scores still match how often cases turn out "
    "positive (about {other} of the cases positive), the shipped cutoff stays right.{label}"
)
SHIP_NOTHING_WORDS = (
    "Nothing to ship instead yet: the refit on the {n} cases with outcomes of {span} ({rule}) {effect} keeping the "
    "shipped cutoff, within the noise{iv}. Keep the shipped cutoff until more outcomes are in."
)
NOT_CHOSEN_SHIFT = (
    "Not chosen: {rule}, the shipped cutoff moved to the share of positive cases the scores of {period} suggest "
    "(about {rate}). It rests on the scores alone, read as if only that share moved; if the cases changed and the "
    "scores still match how often cases turn out positive (about {other} of the cases positive), the shipped cutoff "
    "would stay right. The refit rests on outcomes.{label}"
)
NOT_CHOSEN_REFIT = (
    "Not chosen: {rule}, the refit on the {n} cases with outcomes of {span}: judged on cases it was not fitted on, "
    "what it saves over the shipped cutoff is within the noise{iv}."
)


# ---------------------------------------------------------------------------------------
# Columns the guess did not take, and cutoffs that cannot work (`costlib.answers.watch_inputs`)

#: a required column the page did not guess: the select waits with this until the person picks
PICK_COLUMN = "Choose a column"
#: the policy's score column, missing from the cases (`score_column_words`): asked, never guessed
SCORE_NOT_IN_CASES = (
    "The policy was fitted on the score column {policy_column}, and {name} has no such column (its columns: {columns})."
)
SCORE_ASK = (
    " Choose the column that holds the same model's scores under \u201c{label}\u201d: a cutoff fitted on one "
    "model's scores says nothing about another's."
)
SCORE_CHOSEN = (
    " Its cutoff is watched on {chosen}, as chosen under \u201c{label}\u201d: check that this column holds the "
    "same model's scores."
)
#: the policy's score column is in the cases, and the person picked another
SCORE_OTHER_CHOSEN = (
    "The policy was fitted on the score column {policy_column}; its cutoff is watched on {chosen}, as chosen under "
    "\u201c{label}\u201d."
)
#: a role the guess left empty, and why the columns nearest to it were not taken (the loader's sentences)
NOT_GUESSED = "No column of {name} was taken as the {role}: choose it under \u201c{label}\u201d."
NO_OUTCOME_TAKEN = (
    "No column was taken as the outcome: {why} Until an outcome column is chosen, every period is estimated from "
    "the scores."
)
#: a policy's cutoff that flags nobody or everyone, its scores read as probabilities (`cutoff_words`): said, not
#: refused. {scores}: what its scores are, by the policy's scale (`CUTOFF_SCORES`); {cutoff_is}: `CUTOFF_LOW`'s
CUTOFF_ABOVE = "The policy's cutoff{where} ({rule}) flags nobody: {scores}, and the cutoff is above 1."
CUTOFF_BELOW = "The policy's cutoff{where} ({rule}) flags everyone: {scores}, and the cutoff is {cutoff_is}."
CUTOFF_SCORES = {
    "probability": "its scores are probabilities, from 0 to 1",
    # log-odds meet the cutoff turned into probabilities (`core.scales.on_scale`), as the report compares them
    "logit": "its scores are log-odds, compared with the cutoff as probabilities, from 0 to 1",
}
CUTOFF_LOW = {"below": "below 0", "zero": "0"}  # a cutoff below 0, and one of exactly 0
CUTOFF_WHERE = " for {group}"


def month_at(
    per_case: float, periods: list[dict], word: str, unit: str = "", volume: float | None = None, *, whose="your"
) -> str:
    """An amount a month beside its per-case amount, in brackets after a space, naming the volume it is at:
    `per_case` a month at `volume` (`amounts.a_month`: " ($860 a month at your 10,000 cases a month)", the
    page: the sidebar's cases a month; `whose` "the policy's" on the command line, which has no sidebar), else
    what `periods` cost on their own cases on average (" ($129 a week in the file's 1,500 cases a week)", a
    policy that records no cases a month); "" at a volume of 0 or fewer cases, as what to ship says no month.

    >>> month_at(0.086, [], "month", "$", 10000)
    ' ($860 a month at your 10,000 cases a month)'
    >>> month_at(0.086, [{"n": 1400}, {"n": 1600}], "week", "$")
    " ($129 a week in the file's 1,500 cases a week)"
    >>> month_at(0.086, [], "month", "$", 0)
    ''

    The month is of `per_case` as the sentence shows it (`amounts.money`'s decimals), times the cases, as a
    month reads by the house rule (`amounts.month_figure`): the built-in year's $0.0858 read "about $0.086 per
    case more ($858 a month ...)" (review 74).

    >>> month_at(0.0858, [], "month", "$", 10000), month_at(0.0858, [{"n": 1500}], "week", "$")
    (' ($860 a month at your 10,000 cases a month)', " ($129 a week in the file's 1,500 cases a week)")
    """
    per_case = round(per_case, money_digits(per_case))  # as `money` shows it beside the month
    if volume is not None:
        month = a_month(per_case, volume, unit)
        return f" ({MONTH_AT_YOURS.format(month=month, cases=number(volume, 0), whose=whose)})" if month else ""
    cases = sum(p["n"] for p in periods) / max(len(periods), 1)
    if not cases > 0:
        return ""
    return f" ({MONTH_AT_FILE.format(amount=month_money(per_case * cases, unit), cases=number(cases, 0), word=word)})"


#: whose month the answer's amount a month is at (`month_at`): the person's (the page), else the file's own
MONTH_AT_YOURS = "{month} at {whose} {cases} cases a month"  # {month}: `amounts.a_month`'s
MONTH_AT_FILE = "{amount} a {word} in the file's {cases} cases a {word}"

MISCALIBRATED = (
    "On the {rows} rows the policy was fitted on, the scores did not match how often cases turned out positive "
    "(mean score {mean} while {base} of the cases were positive; a gap this large turns up by chance {p} of the "
    "time): the estimates from the scores assume they matched, so take them as rough until the outcomes arrive."
)
NO_REFERENCE = (
    "The policy does not record the rows it was fitted on (policies before schema 7), so whether the scores moved "
    "as a change in the share of positive cases would move them is not tested: write the policy again with this "
    "costlib."
)

#: what the scores' check says, on hover over its heading (a first-time user read "yes (by chance: 9%)" as
#: a statistic with no meaning: is 9% good or bad?)
FITS_HELP = (
    "Do the period's scores look like what a change in the share of positive cases alone would give? The "
    "percentage is how often chance alone would make them fit this badly if it did: {level} or more reads yes "
    "(they fit); below {level} reads no, and then neither reading can be trusted until some outcomes are labelled."
)
READINGS_WHAT = (
    "Scores alone cannot always tell a change in the share of positive cases from a change of the kinds of case, "
    "the scores still matching how often cases turn out positive, so each period without all its outcomes is read "
    "both ways. Beside whether the scores fit a change in the share of positive cases alone: how often chance alone "
    "moves scores that far from such a change (a small share: they do not fit). The cost intervals cover "
    "what the outcomes still to come will show under each reading. Outcomes to label: how many of the period's cases, "
    "drawn at random and labelled, would tell the two readings apart."
)
