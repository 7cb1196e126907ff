"""The policy file: the decision to ship, as JSON, and reading one back safely.

A policy records the prices (per group), the unit and monthly volume, the rule and its
cutoffs, the decision summary (recommended rule, the no-model baseline, the saving), the
data fingerprint and the costlib version: what the system that applies the decisions needs,
and what an audit reviewer needs to see how it was chosen.

JSON has no infinity: a cutoff of +inf (flag nobody) is written as the string ``"inf"``
and -inf (flag everyone) as ``"-inf"``. Prices and cutoffs are lists of records
``{"group": ..., ...}`` so that group names keep their JSON type.

Versions: 2 added the decision summary; 3 writes the rule's cost on the judged rows as
``"cost_per_case": {"estimate", "low_95", "high_95", "judged_on"}`` (2 repeated the key
inside); 4 names what it judged (``data``: the data dictionary), gives the verdict of the rule
it records (one of the three, `rules.VERDICTS`; ``headline`` in words), the groups pooled into
the cutoff for everyone, and a ``review`` record (reviewer, date, decision) for the person who
signs it. 5 adds a review limit (``capacity``), ``random_share`` (flag at random within it) and
``base_rate``; 6 adds ``pooled_cutoff``: the cutoff of the groups the rule pooled and of groups
the data did not have (what `costlib.handoff.apply_policy` gives a group it has not seen); 7
adds ``reference``: the fitting rows' scores class by class, in buckets, with their mean and
whether they were calibrated (`costlib.watch.reference`), which Watch holds newer cases against
before their outcomes arrive. Reading accepts every version up to the current one.

Reading is defensive: a policy comes from a person's disk and may be anything. The text is
checked against one schema (types, ranges, sizes, nesting) before any field is used, and
every problem is a `DataError` sentence. A group's name is read as the loader reads a cell
(`group_name`: 1, 1.0 and "1" are one group, listed once), never cut (a name over `MAX_TEXT`
characters is refused), and a number that is not finite is refused (only the texts ``"inf"``
and ``"-inf"`` mean infinity). Writing reads its own text back (`policy_json`), so that what
is written is never what the reader refuses.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence

from costlib.binary import elicit
from costlib.core import rules as R
from costlib.core import settings
from costlib.core.errors import DataError
from costlib.core.scales import SCALES
from costlib.loading.messages import q

POLICY_SCHEMA = "costlib.policy"  # the file format's name, not the module's
POLICY_SCHEMA_VERSION = 7  # 7: "reference"; 6: "pooled_cutoff"; 5: "capacity", "random_share", "base_rate"
MAX_BYTES = 1_000_000
MAX_RECORDS = 10_000
MAX_TEXT = 500
MAX_INT_DIGITS = 30

__all__ = ["POLICY_SCHEMA", "POLICY_SCHEMA_VERSION", "load_policy", "policy_dict", "policy_json"]

MSG_UNWRITABLE = (
    "This policy cannot be written: {reason}, so apply, watch and the Costs page would refuse to read it back; "
    "nothing was written."
)
MSG_CASES_PER_MONTH = (
    '"capacity.cases_per_month" must be a whole number of cases from 0 to {high}: got {value}; the file\'s review '
    "limit as a share of the cases (max_flagged, {share}) is used instead."
)


# ---------------------------------------------------------------------------------------
# Writing


def json_cutoff(x: float):
    x = float(x)
    if x == math.inf:
        return "inf"
    if x == -math.inf:
        return "-inf"
    if not math.isfinite(x):
        raise ValueError(f"a policy cannot hold the cutoff {x!r}")
    return x


def _json_value(x):
    """A group name or setting as plain JSON (numpy scalars to Python)."""
    return x.item() if hasattr(x, "item") and not isinstance(x, (str, bytes)) else x


def pooled_cutoff(audit, cut: Mapping) -> float:
    """The cutoff a rule (its `cut`) gives a group too small for its own, and so a group never seen: the
    one cutoff when every group has the same; the pooled groups' cutoff when they share one;
    else the best single cutoff (what the product gives a group it pools). NaN when there is
    none."""
    values = {float(t) for t in cut.values()}
    if len(values) == 1:
        return values.pop()
    pooled = {float(cut[g]) for g in audit.recommendation.pooled if g in cut}
    if len(pooled) == 1:
        return pooled.pop()
    single = audit.cutoffs.get(R.SINGLE, {})
    return float(next(iter(single.values()))) if single else math.nan


def default_rule(audit) -> str:
    """The rule a policy applies unless told otherwise: what the verdict says to ship. The
    recommended cutoff(s) when the verdict is "ship the model"; otherwise the cheaper decision
    without a model (`Recommendation.shipped_rule`)."""
    return audit.recommendation.shipped_rule


def policy_dict(
    audit, rule: str | None = None, *, abstain_bands: Sequence[Mapping] = (), price_questions: Mapping | None = None
) -> dict:
    """The policy that `rule` (default: `default_rule`, what the verdict says to ship) sets,
    as JSON-ready data.

    Raises ValueError for a rule the audit does not have or whose cutoffs are NaN.
    """
    rec = audit.recommendation
    cutoffs = audit.cutoffs
    rule = default_rule(audit) if rule is None else rule
    if rule not in cutoffs:
        raise ValueError(f"rule must be one of {list(cutoffs)}: got {rule!r}")
    cut = cutoffs[rule]
    random_share = None
    if rule == R.AT_RANDOM:  # no cutoff: the score is not used, a share up to the review limit is picked at random
        random_share = float(rec.capacity)
        cut = dict.fromkeys(cut, math.inf)
    bad = [g for g, t in cut.items() if math.isnan(float(t))]
    if bad:
        raise ValueError(f"the rule {rule!r} has no cutoff for group {bad[0]!r} (NaN): it cannot be a policy")
    from costlib.binary.decision import rule_verdict
    from costlib.present.words import cutoffs_text, rule_verdict_sentence

    shipped = rule in (rec.rule, rec.shipped_rule)  # what the recommendation says: its own verdict and headline
    verdict = rec.verdict if shipped else rule_verdict(rec, rule)[0]

    bands = [
        {"group": _json_value(b["group"]), "low": float(b["low"]), "high": float(b["high"])} for b in abstain_bands
    ]
    overall = audit.results.overall.loc[rule]
    out = {
        "schema": POLICY_SCHEMA,
        "schema_version": POLICY_SCHEMA_VERSION,
        "costlib_version": audit.version,
        "created": audit.created,
        "data": {"name": audit.data_name, "n_rows": audit.n_rows, **audit.data_dictionary},
        "model": rec.model,
        **({} if audit.model_identity is None else {"model_identity": dict(audit.model_identity)}),
        "unit": audit.unit,
        "volume": audit.volume,
        "prices": [{"group": _json_value(g), "c_fp": float(p[0]), "c_fn": float(p[1])} for g, p in audit.costs.items()],
        "rule": rule,
        "rule_words": R.rule_words(rule),
        "thresholds": [
            {
                "group": _json_value(g),
                "threshold": json_cutoff(t),
                "meaning": cutoffs_text({g: float(t)}, grouped=False)
                if random_share is None
                else f"no cutoff: flag a random {random_share:.4g} of the cases, without the model",
            }
            for g, t in cut.items()
        ],
        "pooled_cutoff": None if math.isnan(pooled := pooled_cutoff(audit, cut)) else json_cutoff(pooled),
        "random_share": random_share,
        "capacity": audit.capacity_record,
        "base_rate": float(audit.base_rate) if 0 < audit.base_rate < 1 else None,  # (0, 1): what the EM starts from
        "abstain_bands": bands,
        "fairness_tolerance": audit.fairness_tolerance,
        "cost_per_case": {
            **{
                name: (None if not math.isfinite(overall[k]) else float(overall[k]))
                for name, k in (("estimate", "cost_per_case"), ("low_95", "low"), ("high_95", "high"))
            },
            "judged_on": rec.judged_on,
        },
        "decision": audit.summary(),
        "verdict": verdict,
        "headline": audit.verdict.headline if shipped else rule_verdict_sentence(rec, rule, audit.unit),
        "pooled_groups": [_json_value(g) for g in rec.pooled],
        "model_is_useless": audit.model_is_useless,
        "review": dict.fromkeys(REVIEW_FIELDS),
    }
    if price_questions:
        out["price_questions"] = dict(price_questions)
    out["reference"] = audit.reference  # last: a long block of numbers a reader skips
    return out


def policy_json(audit, rule: str | None = None, **kwargs) -> str:
    """`policy_dict` as indented JSON text (strict: no NaN or Infinity tokens), read back by
    `load_policy` before it is returned, so that what is written is what apply, watch and the
    Costs page read.

    Raises
    ------
    DataError
        `MSG_UNWRITABLE`, with the reader's reason, for a policy its own reader would refuse: a
        group name longer than `MAX_TEXT` characters, more than `MAX_RECORDS` groups, more than
        `MAX_BYTES` bytes of UTF-8.
    """
    text = json.dumps(policy_dict(audit, rule, **kwargs), indent=2, allow_nan=False, ensure_ascii=False) + "\n"
    try:
        load_policy(text.encode("utf-8"))  # the bytes, as read_path hands a file to the reader
    except PolicyFileError as exc:
        raise DataError(MSG_UNWRITABLE.format(reason=exc.reason)) from None
    return text


# ---------------------------------------------------------------------------------------
# Reading


def _questions(q) -> dict | None:
    """The record of the price questions (`elicit.record`), checked field by field: it is
    shown in the report and used to mark the bracket, so every field has its type and range."""
    if q is None:
        return None
    if not isinstance(q, dict):
        raise _bad('"price_questions" must be a record')
    out = {}
    low_end, high_end = elicit.RANGE
    for key in ("ratio_low", "ratio_high", "ratio_chosen"):
        x = q.get(key)
        if not _positive(x) or not low_end <= float(x) <= high_end:
            raise _bad(
                f'"price_questions" needs "{key}", a ratio the questions can reach ({low_end:g} to {high_end:g}): '
                f"got {_show(x)}"
            )
        out[key] = float(x)
    if not out["ratio_low"] <= out["ratio_chosen"] <= out["ratio_high"]:
        raise _bad('"price_questions" must have ratio_low <= ratio_chosen <= ratio_high')
    outcomes = q.get("outcomes", {})
    answers = q.get("answers", [])
    if not isinstance(outcomes, dict) or not all(
        isinstance(outcomes.get(k, ""), str) and len(outcomes.get(k, "")) <= MAX_TEXT for k in ("miss", "false_alarm")
    ):
        raise _bad('"price_questions" has "outcomes" that are not two short texts')
    if not isinstance(answers, list) or len(answers) > 100:
        raise _bad('"price_questions" has "answers" that are not a list of at most 100 answers')
    named = {"miss": "miss", "false_alarm": "false alarm"}  # what the questions call them when the policy does not
    out["outcomes"] = {k: outcomes.get(k) or named[k] for k in ("miss", "false_alarm")}
    out["answers"] = []
    for a in answers:
        if not (
            isinstance(a, dict)
            and isinstance(a.get("question", ""), str)
            and len(a.get("question", "")) <= MAX_TEXT
            and a.get("answer") in ("miss", "alarm", "same")
            and _positive(a.get("n", 1.0))
        ):
            raise _bad('"price_questions" has an answer that is not a question and "miss", "alarm" or "same"')
        out["answers"].append({"n": float(a.get("n", 1.0)), "answer": a["answer"], "question": a.get("question", "")})
    for key, ok in (
        ("settled", lambda x: x is None or (isinstance(x, str) and len(x) <= MAX_TEXT)),
        ("in_force", lambda x: isinstance(x, bool)),
        ("false_alarm_price", _positive),
        ("ratio_now", lambda x: x is None or _positive(x)),
        ("unit", lambda x: isinstance(x, str) and len(x) <= MAX_TEXT),
    ):
        if key in q:
            if not ok(q[key]):
                raise _bad(f'"price_questions" has a "{key}" of the wrong kind: {_show(q[key])}')
            out[key] = q[key]
    pieces = q.get("cutoffs_in_range")
    if pieces is not None:
        if not isinstance(pieces, list) or len(pieces) > MAX_RECORDS:
            raise _bad('"price_questions" has "cutoffs_in_range" that are not a list')
        out["cutoffs_in_range"] = []
        for r in pieces:
            t = r.get("threshold") if isinstance(r, dict) else "missing"
            if not (
                isinstance(r, dict)
                and _positive(r.get("ratio_low"))
                and _positive(r.get("ratio_high"))
                and (t is None or (not isinstance(t, bool) and isinstance(t, int | float) and math.isfinite(t)))
            ):
                raise _bad('"price_questions" has a cutoff range that is not two ratios and a cutoff')
            out["cutoffs_in_range"].append(
                {"ratio_low": float(r["ratio_low"]), "ratio_high": float(r["ratio_high"]), "threshold": t}
            )
    multipliers = q.get("group_multipliers")
    if multipliers is not None:
        if not isinstance(multipliers, dict) or len(multipliers) > MAX_RECORDS:
            raise _bad('"price_questions" has "group_multipliers" that are not a record')
        low_end, high_end = elicit.RANGE
        for m in multipliers.values():  # a ratio the questions can reach, as the chosen ratio is
            if not _positive(m) or not low_end <= float(m) <= high_end:
                raise _bad(
                    f'"price_questions" has a group multiplier that is not a number from {low_end:g} to {high_end:g}: '
                    f"{_show(m)}"
                )
        named: set = set()  # a long name is refused, never cut into another group's
        where = '"price_questions.group_multipliers"'
        out["group_multipliers"] = {policy_group(g, named, where): float(m) for g, m in multipliers.items()}
    return out


REVIEW_FIELDS = ("reviewer", "date", "decision", "note")


def _review(r) -> dict:
    """The reviewer's record (who signed, when, what they decided): short texts or null."""
    if r is None:
        return dict.fromkeys(REVIEW_FIELDS)
    if not isinstance(r, dict):
        raise _bad('"review" must be a record with "reviewer", "date" and "decision"')
    out = {}
    for key in REVIEW_FIELDS:
        x = r.get(key)
        if x is not None and not (isinstance(x, str) and len(x) <= MAX_TEXT):
            raise _bad(f'"review" has a "{key}" that is not a short text: {_show(x)}')
        out[key] = x
    return out


def _model_identity(r) -> dict | None:
    """Which model the policy was chosen for (`costlib.present.identity`): ``{"id", "file",
    "sha256"}``, short texts or null, the sha256 64 lower-case hex digits; None when not recorded."""
    if r is None:
        return None
    if not isinstance(r, dict):
        raise _bad('"model_identity" must be a record with "id", "file" and "sha256"')
    out = {}
    for key in ("id", "file", "sha256"):
        x = r.get(key)
        if x is not None and not (isinstance(x, str) and len(x) <= MAX_TEXT):
            raise _bad(f'"model_identity" has an "{key}" that is not a short text: {_show(x)}')
        out[key] = None if x is None else writable_text(x, f'"model_identity.{key}"')
    sha = out["sha256"]
    if sha is not None and (len(sha) != 64 or any(ch not in "0123456789abcdef" for ch in sha)):
        raise _bad(f'"model_identity.sha256" must be 64 lower-case hex digits, got {_show(sha)}')
    return out


def _positive(x) -> bool:
    return not isinstance(x, bool) and isinstance(x, int | float) and math.isfinite(x) and x > 0


class PolicyFileError(DataError):
    """A policy the reader refuses: the sentence, and its `reason` alone (what the writer says)."""

    def __init__(self, reason: str):
        super().__init__(f"This is not a usable costlib policy file: {reason}.")
        self.reason = reason


MSG_GROUP_COLUMNS = (
    '"data.group_columns" must list from 2 to {most} group columns by name (text), whose intersection '
    '"data.group" names ({example}), got {got}'
)
MAX_GROUP_COLUMNS = 10  # group columns a policy may name (their intersections are its groups)


def _group_columns(data: Mapping, group) -> dict:
    """``{"group_columns": [...]}`` of a policy fitted on the intersections of several group columns
    (`costlib.loading.intersections`), checked: 2 to `MAX_GROUP_COLUMNS` names of text, each once, whose
    intersection name (`intersection_key`) is ``data.group`` (the name `costlib apply` gives the groups it
    builds from them); ``{}`` when there is none. A `PolicyFileError` otherwise."""
    from costlib.loading.intersections import intersection_key

    columns = data.get("group_columns")
    if columns is None:
        return {}
    ok = (
        isinstance(columns, list)
        and 2 <= len(columns) <= MAX_GROUP_COLUMNS
        and all(isinstance(c, str) and 0 < len(c) <= MAX_TEXT for c in columns)
        and len(set(columns)) == len(columns)
    )
    if not ok or group != intersection_key(columns):
        raise _bad(
            MSG_GROUP_COLUMNS.format(
                most=MAX_GROUP_COLUMNS, example='"race" and "sex": "race × sex"', got=_show(columns)
            )
        )
    return {"group_columns": [writable_text(c, '"data.group_columns"') for c in columns]}


def _bad(reason: str) -> PolicyFileError:
    return PolicyFileError(reason)


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _no_constant(name: str):
    raise ValueError(f"the JSON constant {name} is not allowed")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"a whole number of {len(text)} digits is too long")
    return int(text)


def parse_text(text: str | bytes):
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_BYTES:
            raise _bad(f"it is {len(text):,} bytes, more than the {MAX_BYTES:,} a policy may have")
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise _bad("it is not UTF-8 text") from None
    if not isinstance(text, str):
        raise _bad(f"expected text, got {type(text).__name__}")
    if len(text) > MAX_BYTES:
        raise _bad(f"it is {len(text):,} characters, more than the {MAX_BYTES:,} a policy may have")
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise _bad(f"it is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise _bad("it is not JSON a policy can hold: it is nested too deeply") from None
    except ValueError as exc:
        raise _bad(f"it is not JSON a policy can hold: {exc}") from None


INF_TEXTS = ' (or the text "inf" to flag nobody, "-inf" to flag everyone)'


def read_number(value, where: str, *, allow_inf: bool = False, bound: settings.Bound | None = None) -> float:
    """A number field of a policy (`where` names it in the sentence): finite, within `bound`
    (`settings.check`'s rule: its range, and 0 or at least its smallest size), or the text
    ``"inf"`` / ``"-inf"`` when `allow_inf`; DataError otherwise.

    A number that is not finite is refused however it came: JSON reads ``1e400`` as infinity,
    and only the explicit texts mean "flag nobody" or "flag everyone".
    """
    if allow_inf and value in ("inf", "-inf"):
        return math.inf if value == "inf" else -math.inf
    texts = INF_TEXTS if allow_inf else ""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _bad(f"{where} must be a number{texts}, got {_show(value)}")
    x = float(value)
    if not math.isfinite(x):
        raise _bad(f"{where} must be a finite number{texts}, got {_show(value)} (a number too large, or not one)")
    if bound is not None and settings.check(bound, x)[1] is not None:  # one home of a setting's bounds
        smallest = f", and 0 or at least {bound.smallest:.12f}".rstrip("0") + " in size" if bound.smallest else ""
        raise _bad(f"{where} must be from {bound.low:g} to {bound.high:g}{smallest}, got {_show(value)}")
    return x


def group_name(g) -> str | None:
    """A policy's group as the text cases are matched by: the loader's rule for a cell
    (`costlib.loading.cells.canon`: 1, 1.0 and "1" are "1"; True is "True"), so that a group
    the loader wrote is met whatever the type of the column it is matched against later."""
    from costlib.loading.cells import canon

    return canon(g.item() if hasattr(g, "item") and not isinstance(g, (str, bytes)) else g)


def _group(record: dict, where: str):
    g = record.get("group")
    if isinstance(g, float) and not math.isfinite(g) or g is not None and not isinstance(g, (str, int, float, bool)):
        raise _bad(f"{where} has a group that is not a name: {_show(g)}")
    if isinstance(g, str) and len(g) > MAX_TEXT:  # refused, never cut: a cut name could become another's
        raise _bad(f"{where} has a group name of {len(g):,} characters (at most {MAX_TEXT})")
    if isinstance(g, str) and group_name(g) is None:
        raise _bad(f"{where} has a group whose name is empty")
    return writable_text(g, f"{where}'s group") if isinstance(g, str) else g


def _once(g, records: dict, seen: set, where: str):
    """`g`, or DataError when the group is met a second time: a key of `records` already (JSON's 1
    and true are one key here) or a name in `seen` (the names so far, as text, by `group_name`:
    "1", 1 and 1.0). Two records for one group would leave the last one silently in force. `g`'s
    name joins `seen`."""
    name = group_name(g) if g is not None else None
    if g in records or (name is not None and name in seen) or str(g) in seen:
        raise _bad(
            f'{where} lists the group {q(g)} a second time (groups are matched as text: 1, 1.0 and "1" are one '
            "group): give each group one record"
        )
    seen.update({str(g)} | ({name} if name is not None else set()))
    return g


def policy_group(g, seen: set, where: str) -> str:
    """A policy's group `g` (from a record or a mapping's key) checked as a policy file's are
    (`_group`: a name of at most `MAX_TEXT` characters, never cut; `_once`: met once, `seen`
    holding the names so far) and returned as the text cases are matched by (`group_name`).
    The one check of a group name for the file, the short form and the price questions."""
    return group_name(_once(_group({"group": _json_value(g)}, where), {}, seen, where))


def _records(policy: dict, key: str) -> list:
    items = policy.get(key)
    if not isinstance(items, list) or not all(isinstance(r, dict) and "group" in r for r in items):
        raise _bad(f'"{key}" must be a list of records with a "group" field')
    if len(items) > MAX_RECORDS:
        raise _bad(f'"{key}" has {len(items):,} records, more than {MAX_RECORDS:,}')
    return items


def _text(policy: dict, key: str, default: str = "") -> str:
    value = policy.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str) or len(value) > MAX_TEXT * 20:
        raise _bad(f'"{key}" must be text, got {_show(value)}')
    return writable_text(value, f'"{key}"')


def writable_text(text: str, where: str) -> str:
    """`text`, or DataError when it holds a lone surrogate (JSON's "\\ud800"): no page, report or
    terminal can write it as UTF-8."""
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        raise _bad(f"{where} holds a character that is not one (a lone surrogate)")
    return text


def load_policy(text: str | bytes) -> dict:
    """Read a policy file back, checked against the schema before any field is used.

    Returns the `policy_dict` fields with ``prices`` as {group: (c_fp, c_fn)}, ``thresholds``
    as {group: float} (``"inf"`` / ``"-inf"`` restored), ``volume`` and ``unit`` within the
    bounds of their widgets (an out-of-range value falls back to the default, with a
    sentence in ``notes``), and ``notes``: a list of such sentences.

    Raises DataError with a sentence for text that is not JSON (or too large, or nested too
    deeply), JSON that is not a costlib policy, a newer schema version, or a field of the
    wrong kind.
    """
    policy = parse_text(text)
    if not isinstance(policy, dict) or policy.get("schema") != POLICY_SCHEMA:
        raise _bad(f'it is JSON but not a costlib policy (it has no "schema": "{POLICY_SCHEMA}" field)')
    version = policy.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise _bad(f'"schema_version" must be a whole number from 1, got {_show(version)}')
    if version > POLICY_SCHEMA_VERSION:
        raise _bad(
            f"it has schema version {version}, newer than this costlib reads ({POLICY_SCHEMA_VERSION}); upgrade costlib"
        )
    rule = policy.get("rule")
    if not isinstance(rule, str) or not rule or len(rule) > MAX_TEXT:
        raise _bad('"rule" must name the rule that produced the cutoffs')
    writable_text(rule, '"rule"')
    data = policy.get("data", {})
    if not isinstance(data, dict):
        raise _bad('"data" must be a record with "name", "sha256" and "n_rows"')
    sha = data.get("sha256", "")
    if not isinstance(sha, str) or (sha and (len(sha) != 64 or any(ch not in "0123456789abcdef" for ch in sha))):
        raise _bad(f'"data.sha256" must be 64 lower-case hex digits, got {_show(sha)}')
    name = data.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_TEXT:
        raise _bad(f'"data.name" must be text of at most {MAX_TEXT} characters')
    n_rows = data.get("n_rows")
    if n_rows is not None and (isinstance(n_rows, bool) or not isinstance(n_rows, int) or n_rows < 0):
        raise _bad(f'"data.n_rows" must be a whole number, got {_show(n_rows)}')
    roles = {}
    for role in ("label", "positive", "score", "scale", "group", "split"):  # the data dictionary: which column was what
        x = data.get(role)
        if x is not None and (isinstance(x, bool) or not isinstance(x, (str, int)) or len(str(x)) > MAX_TEXT):
            raise _bad(f'"data.{role}" must be a column name or value (text), got {_show(x)}')
        roles[role] = None if x is None else str(x) if isinstance(x, str) else int(x)
    roles.update(_group_columns(data, roles["group"]))
    if roles["scale"] is not None and roles["scale"] not in SCALES:
        raise _bad(f'"data.scale" must be one of {", ".join(SCALES)}, got {_show(roles["scale"])}')
    prices, named = {}, set()
    for i, r in enumerate(_records(policy, "prices")):
        g = _once(_group(r, f"prices[{i}]"), prices, named, f"prices[{i}]")
        where = f"prices[{i}] (group {q(g)})"
        prices[g] = (
            read_number(r.get("c_fp"), where + " c_fp", bound=settings.PRICE),
            read_number(r.get("c_fn"), where + " c_fn", bound=settings.PRICE),
        )
    thresholds, named = {}, set()
    for i, r in enumerate(_records(policy, "thresholds")):
        g = _once(_group(r, f"thresholds[{i}]"), thresholds, named, f"thresholds[{i}]")
        t = r.get("threshold")  # null flags nobody in the group, as the decision summary writes it
        thresholds[g] = math.inf if t is None else read_number(t, f"thresholds[{i}] (group {q(g)})", allow_inf=True)
    pooled = policy.get("pooled_cutoff")
    pooled = None if pooled is None else read_number(pooled, '"pooled_cutoff"', allow_inf=True)
    missing = [g for g in thresholds if g not in prices]
    if missing:
        raise _bad(f"the group {q(missing[0])} has a cutoff but no prices")
    bands_in = policy.get("abstain_bands") or []
    if not isinstance(bands_in, list) or len(bands_in) > MAX_RECORDS:
        raise _bad('"abstain_bands" must be a list of records with group, low and high')
    bands = []
    for i, b in enumerate(bands_in):
        if not isinstance(b, dict) or "group" not in b:
            raise _bad(f"abstain_bands[{i}] must be a record with group, low and high")
        low = read_number(b.get("low"), f"abstain_bands[{i}] low")
        high = read_number(b.get("high"), f"abstain_bands[{i}] high")
        if low > high:
            raise _bad(f"abstain_bands[{i}] has low {low:g} above high {high:g}")
        bands.append({"group": _group(b, f"abstain_bands[{i}]"), "low": low, "high": high})
    notes = []
    volume = policy.get("volume")
    if volume is not None:
        volume, note = settings.check(settings.VOLUME, volume if not isinstance(volume, bool) else None)
        notes += [note] if note else []
    unit_given = policy.get("unit") is not None  # no unit: the person's own stays (never replaced by nothing)
    unit, note = settings.check_unit(policy.get("unit", ""), default="$")
    notes += [note] if note else []
    tolerance = policy.get("fairness_tolerance")
    if tolerance is not None:
        tolerance, note = settings.check(settings.TOLERANCE, tolerance if not isinstance(tolerance, bool) else None)
        notes += [note] if note else []
    questions = _questions(policy.get("price_questions"))
    random_share = policy.get("random_share")
    if random_share is not None:
        random_share = read_number(random_share, '"random_share"')
        if not 0 <= random_share <= 1:
            raise _bad(f'"random_share" must be a share of the cases from 0 to 1, got {_show(random_share)}')
    capacity = _capacity(policy.get("capacity"), notes)
    base_rate = policy.get("base_rate")
    if base_rate is not None:
        base_rate = read_number(base_rate, '"base_rate"')
        if not 0 < base_rate < 1:
            raise _bad(f'"base_rate" must be a share of the cases strictly between 0 and 1, got {_show(base_rate)}')
    return {
        "schema": POLICY_SCHEMA,
        "schema_version": version,
        "rule": rule,
        "prices": prices,
        "thresholds": thresholds,
        "pooled_cutoff": pooled,
        "pooled_groups": _pooled_groups(policy),
        "abstain_bands": bands,
        "volume": volume,
        "unit": unit,
        "unit_given": unit_given,
        "fairness_tolerance": tolerance,
        "data": {"name": name, "sha256": sha, "n_rows": n_rows, **roles},
        "model": _text(policy, "model"),
        "model_identity": _model_identity(policy.get("model_identity")),
        "verdict": _text(policy, "verdict"),
        "headline": _text(policy, "headline"),
        "review": _review(policy.get("review")),
        "costlib_version": _text(policy, "costlib_version"),
        "created": _text(policy, "created"),
        "price_questions": questions,
        "random_share": random_share,
        "capacity": capacity,
        "base_rate": base_rate,
        "reference": _reference(policy.get("reference")),
        "notes": notes,
    }


MAX_REFERENCE_ROWS = 10**15


def _reference(record) -> dict | None:
    """The fitting rows' record (`costlib.watch.reference.reference_record`), checked field by
    field: Watch draws samples from it and tests against it, so every list has its length, type,
    order and range."""
    from costlib.watch.reference import MAX_BUCKETS

    if record is None:
        return None
    if not isinstance(record, dict):
        raise _bad('"reference" must be a record of the fitting rows\' scores')
    rows = record.get("rows")
    if isinstance(rows, bool) or not isinstance(rows, int) or not 1 <= rows <= MAX_REFERENCE_ROWS:
        raise _bad(f'"reference.rows" must be a whole number of rows from 1, got {_show(rows)}')
    mean = read_number(record.get("mean_score"), '"reference.mean_score"')
    sd = read_number(record.get("score_sd"), '"reference.score_sd"')
    if not (0 < mean < 1 and 0 <= sd <= 0.5):
        raise _bad('"reference" must have a "mean_score" strictly between 0 and 1 and a "score_sd" from 0 to 0.5')
    lists = {}
    for key in ("scores", "positives", "negatives"):
        items = record.get(key)
        if not isinstance(items, list) or not 2 <= len(items) <= MAX_BUCKETS:
            raise _bad(f'"reference.{key}" must be a list of 2 to {MAX_BUCKETS} numbers')
        lists[key] = [read_number(x, f'"reference.{key}"') for x in items]
    scores, pos, neg = lists["scores"], lists["positives"], lists["negatives"]
    if not len(scores) == len(pos) == len(neg):
        raise _bad('"reference.scores", "positives" and "negatives" must have one entry per bucket')
    if any(not 0 <= x <= 1 for x in scores) or any(b <= a for a, b in zip(scores, scores[1:], strict=False)):
        raise _bad('"reference.scores" must be probabilities from 0 to 1 in increasing order')
    if any(x < 0 or x != int(x) for x in pos + neg) or sum(pos) < 1 or sum(neg) < 1 or sum(pos) + sum(neg) != rows:
        raise _bad('"reference" must count whole positives and negatives, some of each, that add up to its rows')
    cal = record.get("calibration")
    if not isinstance(cal, dict):
        raise _bad('"reference.calibration" must be a record with "statistic", "bins" and "p_value"')
    p_value = cal.get("p_value")
    p_value = None if p_value is None else read_number(p_value, '"reference.calibration.p_value"')
    bins = cal.get("bins")
    if p_value is not None and not 0 <= p_value <= 1 or isinstance(bins, bool) or not isinstance(bins, int):
        raise _bad('"reference.calibration" must have a "p_value" from 0 to 1 (or null) and whole "bins"')
    return {
        "rows": rows,
        "mean_score": mean,
        "score_sd": sd,
        "scores": scores,
        "positives": [int(x) for x in pos],
        "negatives": [int(x) for x in neg],
        "calibration": {
            "statistic": read_number(cal.get("statistic", 0.0), '"reference.calibration.statistic"'),
            "bins": bins,
            "p_value": p_value,
        },
    }


def _pooled_groups(policy: dict) -> list:
    """The groups the policy pooled into one cutoff (version 4 on), each a group name."""
    groups = policy.get("pooled_groups") or []
    if not isinstance(groups, list) or len(groups) > MAX_RECORDS:
        raise _bad('"pooled_groups" must be a list of group names')
    return [_group({"group": g}, f"pooled_groups[{i}]") for i, g in enumerate(groups)]


def _capacity(record, notes: list) -> dict | None:
    """A policy's review limit, checked: ``{"max_flagged": share, "cases_per_month": N or None}``.
    A ``cases_per_month`` that is not a number of cases (``true``, -3, 1.5, "many") is None with
    a note (`MSG_CASES_PER_MONTH`): the file's share then sets the limit (the Costs page takes
    ``max_flagged`` times the cases a month), never a default count the file did not give."""
    if record is None:
        return None
    if not isinstance(record, dict):
        raise _bad('"capacity" must be a record with "max_flagged" (a share) and "cases_per_month"')
    share = read_number(record.get("max_flagged"), '"capacity.max_flagged"')
    if not 0 <= share <= 1:
        raise _bad(f'"capacity.max_flagged" must be a share of the cases from 0 to 1, got {_show(share)}')
    n = record.get("cases_per_month")
    if n is not None:
        checked, note = settings.check(settings.CAPACITY, n if not isinstance(n, bool) else None)
        if note:
            high = f"{settings.CAPACITY.high:,.0f}"
            notes.append(MSG_CASES_PER_MONTH.format(high=high, value=_show(n), share=f"{share:.4g}"))
        n = None if note else checked
    return {"max_flagged": share, "cases_per_month": n}


def prices_for(saved: Mapping, names: Sequence) -> dict:
    """The price-book settings a loaded policy sets for the groups `names` of the data now:
    ``{"c_fp": .., "c_fn": .., "per_group": bool, "c_fp_0": .., "c_fn_0": .., ...}``
    (group i is ``names[i]``). Raises DataError when the policy lacks a group of the data."""
    by_text = {group_name(k): v for k, v in saved["prices"].items()}  # matched as the loader reads a cell
    missing = [g for g in names if group_name(g) not in by_text]
    if missing:
        raise DataError(f"The policy has no prices for the group {q(missing[0])} of this data; nothing was changed.")
    pairs = [by_text[group_name(g)] for g in names]
    out = {"c_fp": float(pairs[0][0]), "c_fn": float(pairs[0][1]), "per_group": any(p != pairs[0] for p in pairs)}
    for i, (c_fp, c_fn) in enumerate(pairs):
        out[f"c_fp_{i}"], out[f"c_fn_{i}"] = float(c_fp), float(c_fn)
    return out
