"""The nested records of a policy file, checked field by field: the price questions, the review,
the model's identity, the group columns, the fitting rows' reference, the pooled groups and the
review limit (`capacity`).

Each reader takes the record as JSON gave it and returns it checked, or raises a
`PolicyFileError` sentence (`costlib.present.policy_fields`); `costlib.present.policy.load_policy`
calls them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from costlib.binary import elicit
from costlib.core import settings
from costlib.core.errors import DataError
from costlib.loading.messages import q
from costlib.present.policy_fields import (
    MAX_RECORDS,
    MAX_TEXT,
    PolicyFileError,
    group_name,
    is_positive,
    policy_group,
    read_number,
    record_group,
    short_repr,
    writable_text,
)

MSG_CASES_PER_MONTH = (
    '"capacity.cases_per_month" must be a whole number of cases from 0 to {high}: got {value}; the file\'s review '
    "limit as a share of the cases (max_flagged, {share}) is used instead."
)


def checked_questions(q) -> dict | None:
    """The record of the price questions (`elicit.record`), checked field by field: it is
    shown in the report and used to mark the bracket, so every field has its type and range."""
    if q is None:
        return None
    if not isinstance(q, dict):
        raise PolicyFileError('"price_questions" must be a record')
    out = {}
    low_end, high_end = elicit.RANGE
    for key in ("ratio_low", "ratio_high", "ratio_chosen"):
        x = q.get(key)
        if not is_positive(x) or not low_end <= float(x) <= high_end:
            raise PolicyFileError(
                f'"price_questions" needs "{key}", a ratio the questions can reach ({low_end:g} to {high_end:g}): '
                f"got {short_repr(x)}"
            )
        out[key] = float(x)
    if not out["ratio_low"] <= out["ratio_chosen"] <= out["ratio_high"]:
        raise PolicyFileError('"price_questions" must have ratio_low <= ratio_chosen <= ratio_high')
    outcomes = q.get("outcomes", {})
    answers = q.get("answers", [])
    if not isinstance(outcomes, dict) or not all(
        isinstance(outcomes.get(k, ""), str) and len(outcomes.get(k, "")) <= MAX_TEXT for k in ("miss", "false_alarm")
    ):
        raise PolicyFileError('"price_questions" has "outcomes" that are not two short texts')
    if not isinstance(answers, list) or len(answers) > 100:
        raise PolicyFileError('"price_questions" has "answers" that are not a list of at most 100 answers')
    named = {"miss": "miss", "false_alarm": "false alarm"}  # what the questions call them when the policy does not
    out["outcomes"] = {k: outcomes.get(k) or named[k] for k in ("miss", "false_alarm")}
    out["answers"] = []
    for a in answers:
        if not (
            isinstance(a, dict)
            and isinstance(a.get("question", ""), str)
            and len(a.get("question", "")) <= MAX_TEXT
            and a.get("answer") in ("miss", "alarm", "same")
            and is_positive(a.get("n", 1.0))
        ):
            raise PolicyFileError(
                '"price_questions" has an answer that is not a question and "miss", "alarm" or "same"'
            )
        out["answers"].append({"n": float(a.get("n", 1.0)), "answer": a["answer"], "question": a.get("question", "")})
    for key, ok in (
        ("settled", lambda x: x is None or (isinstance(x, str) and len(x) <= MAX_TEXT)),
        ("in_force", lambda x: isinstance(x, bool)),
        ("false_alarm_price", is_positive),
        ("ratio_now", lambda x: x is None or is_positive(x)),
        ("unit", lambda x: isinstance(x, str) and len(x) <= MAX_TEXT),
    ):
        if key in q:
            if not ok(q[key]):
                raise PolicyFileError(f'"price_questions" has a "{key}" of the wrong kind: {short_repr(q[key])}')
            out[key] = q[key]
    pieces = q.get("cutoffs_in_range")
    if pieces is not None:
        if not isinstance(pieces, list) or len(pieces) > MAX_RECORDS:
            raise PolicyFileError('"price_questions" has "cutoffs_in_range" that are not a list')
        out["cutoffs_in_range"] = []
        for r in pieces:
            t = r.get("threshold") if isinstance(r, dict) else "missing"
            if not (
                isinstance(r, dict)
                and is_positive(r.get("ratio_low"))
                and is_positive(r.get("ratio_high"))
                and (t is None or (not isinstance(t, bool) and isinstance(t, int | float) and math.isfinite(t)))
            ):
                raise PolicyFileError('"price_questions" has a cutoff range that is not two ratios and a cutoff')
            out["cutoffs_in_range"].append(
                {"ratio_low": float(r["ratio_low"]), "ratio_high": float(r["ratio_high"]), "threshold": t}
            )
    multipliers = q.get("group_multipliers")
    if multipliers is not None:
        if not isinstance(multipliers, dict) or len(multipliers) > MAX_RECORDS:
            raise PolicyFileError('"price_questions" has "group_multipliers" that are not a record')
        low_end, high_end = elicit.RANGE
        for m in multipliers.values():  # a ratio the questions can reach, as the chosen ratio is
            if not is_positive(m) or not low_end <= float(m) <= high_end:
                raise PolicyFileError(
                    f'"price_questions" has a group multiplier that is not a number from {low_end:g} to {high_end:g}: '
                    f"{short_repr(m)}"
                )
        named: set = set()  # a long name is refused, never cut into another group's
        where = '"price_questions.group_multipliers"'
        out["group_multipliers"] = {policy_group(g, named, where): float(m) for g, m in multipliers.items()}
    return out


REVIEW_FIELDS = ("reviewer", "date", "decision", "note")


def checked_review(r) -> dict:
    """The reviewer's record (who signed, when, what they decided): short texts or null."""
    if r is None:
        return dict.fromkeys(REVIEW_FIELDS)
    if not isinstance(r, dict):
        raise PolicyFileError('"review" must be a record with "reviewer", "date" and "decision"')
    out = {}
    for key in REVIEW_FIELDS:
        x = r.get(key)
        if x is not None and not (isinstance(x, str) and len(x) <= MAX_TEXT):
            raise PolicyFileError(f'"review" has a "{key}" that is not a short text: {short_repr(x)}')
        out[key] = x
    return out


def checked_model_identity(r) -> dict | None:
    """Which model the policy was chosen for (`costlib.present.identity`): ``{"id", "file",
    "sha256"}``, short texts or null, the sha256 64 lower-case hex digits; None when not recorded."""
    if r is None:
        return None
    if not isinstance(r, dict):
        raise PolicyFileError('"model_identity" must be a record with "id", "file" and "sha256"')
    out = {}
    for key in ("id", "file", "sha256"):
        x = r.get(key)
        if x is not None and not (isinstance(x, str) and len(x) <= MAX_TEXT):
            raise PolicyFileError(f'"model_identity" has an "{key}" that is not a short text: {short_repr(x)}')
        out[key] = None if x is None else writable_text(x, f'"model_identity.{key}"')
    sha = out["sha256"]
    if sha is not None and (len(sha) != 64 or any(ch not in "0123456789abcdef" for ch in sha)):
        raise PolicyFileError(f'"model_identity.sha256" must be 64 lower-case hex digits, got {short_repr(sha)}')
    return out


MSG_GROUP_COLUMNS = (
    '"data.group_columns" must list from 2 to {most} group columns by name (text), whose intersection '
    '"data.group" names ({example}), got {got}'
)
MAX_GROUP_COLUMNS = 10  # group columns a policy may name (their intersections are its groups)


def checked_group_columns(data: Mapping, group) -> dict:
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
        raise PolicyFileError(
            MSG_GROUP_COLUMNS.format(
                most=MAX_GROUP_COLUMNS, example='"race" and "sex": "race × sex"', got=short_repr(columns)
            )
        )
    return {"group_columns": [writable_text(c, '"data.group_columns"') for c in columns]}


MAX_REFERENCE_ROWS = 10**15


def checked_reference(record) -> dict | None:
    """The fitting rows' record (`costlib.watch.reference.reference_record`), checked field by
    field: Watch draws samples from it and tests against it, so every list has its length, type,
    order and range."""
    from costlib.watch.reference import MAX_BUCKETS

    if record is None:
        return None
    if not isinstance(record, dict):
        raise PolicyFileError('"reference" must be a record of the fitting rows\' scores')
    rows = record.get("rows")
    if isinstance(rows, bool) or not isinstance(rows, int) or not 1 <= rows <= MAX_REFERENCE_ROWS:
        raise PolicyFileError(f'"reference.rows" must be a whole number of rows from 1, got {short_repr(rows)}')
    mean = read_number(record.get("mean_score"), '"reference.mean_score"')
    sd = read_number(record.get("score_sd"), '"reference.score_sd"')
    if not (0 < mean < 1 and 0 <= sd <= 0.5):
        raise PolicyFileError(
            '"reference" must have a "mean_score" strictly between 0 and 1 and a "score_sd" from 0 to 0.5'
        )
    lists = {}
    for key in ("scores", "positives", "negatives"):
        items = record.get(key)
        if not isinstance(items, list) or not 2 <= len(items) <= MAX_BUCKETS:
            raise PolicyFileError(f'"reference.{key}" must be a list of 2 to {MAX_BUCKETS} numbers')
        lists[key] = [read_number(x, f'"reference.{key}"') for x in items]
    scores, pos, neg = lists["scores"], lists["positives"], lists["negatives"]
    if not len(scores) == len(pos) == len(neg):
        raise PolicyFileError('"reference.scores", "positives" and "negatives" must have one entry per bucket')
    if any(not 0 <= x <= 1 for x in scores) or any(b <= a for a, b in zip(scores, scores[1:], strict=False)):
        raise PolicyFileError('"reference.scores" must be probabilities from 0 to 1 in increasing order')
    if any(x < 0 or x != int(x) for x in pos + neg) or sum(pos) < 1 or sum(neg) < 1 or sum(pos) + sum(neg) != rows:
        raise PolicyFileError(
            '"reference" must count whole positives and negatives, some of each, that add up to its rows'
        )
    cal = record.get("calibration")
    if not isinstance(cal, dict):
        raise PolicyFileError('"reference.calibration" must be a record with "statistic", "bins" and "p_value"')
    p_value = cal.get("p_value")
    p_value = None if p_value is None else read_number(p_value, '"reference.calibration.p_value"')
    bins = cal.get("bins")
    if p_value is not None and not 0 <= p_value <= 1 or isinstance(bins, bool) or not isinstance(bins, int):
        raise PolicyFileError('"reference.calibration" must have a "p_value" from 0 to 1 (or null) and whole "bins"')
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


def checked_pooled_groups(policy: dict) -> list:
    """The groups the policy pooled into one cutoff (version 4 on), each a group name."""
    groups = policy.get("pooled_groups") or []
    if not isinstance(groups, list) or len(groups) > MAX_RECORDS:
        raise PolicyFileError('"pooled_groups" must be a list of group names')
    return [record_group({"group": g}, f"pooled_groups[{i}]") for i, g in enumerate(groups)]


def checked_capacity(record, notes: list) -> dict | None:
    """A policy's review limit, checked: ``{"max_flagged": share, "cases_per_month": N or None}``.
    A ``cases_per_month`` that is not a number of cases (``true``, -3, 1.5, "many") is None with
    a note (`MSG_CASES_PER_MONTH`): the file's share then sets the limit (the Costs page takes
    ``max_flagged`` times the cases a month), never a default count the file did not give."""
    if record is None:
        return None
    if not isinstance(record, dict):
        raise PolicyFileError('"capacity" must be a record with "max_flagged" (a share) and "cases_per_month"')
    share = read_number(record.get("max_flagged"), '"capacity.max_flagged"')
    if not 0 <= share <= 1:
        raise PolicyFileError(
            f'"capacity.max_flagged" must be a share of the cases from 0 to 1, got {short_repr(share)}'
        )
    n = record.get("cases_per_month")
    if n is not None:
        checked, note = settings.check(settings.CAPACITY, n if not isinstance(n, bool) else None)
        if note:
            high = f"{settings.CAPACITY.high:,.0f}"
            notes.append(MSG_CASES_PER_MONTH.format(high=high, value=short_repr(n), share=f"{share:.4g}"))
        n = None if note else checked
    return {"max_flagged": share, "cases_per_month": n}


# ---------------------------------------------------------------------------------------
# Randomised cutoffs (`binary.fair_random`), drawn by case id when applied (`handoff.randomised`)

MSG_RECORD = (
    '"randomised" must give, for each group, "low" (a number at most the group\'s cutoff) and "p" (a probability '
    "from 0 to 1): {where} {what}."
)
MSG_NO_CUTOFF = '"randomised" names the group {group}, which has no cutoff in the policy.'


def checked_randomised(raw, cutoffs: Mapping) -> dict | None:
    """``{group name: (low, p)}`` from a policy's ``"randomised"`` field (a mapping of group to
    ``{"low", "p"}``, or a list of records with ``"group"``), each group keyed as the policy's
    cutoffs are (`policy_fields.group_name`); None when the field is absent or empty.
    DataError, naming the group, for a record that is not one, a `p` outside 0 to 1, a `low` above
    the group's cutoff or a group without a cutoff."""
    if raw is None or (hasattr(raw, "__len__") and len(raw) == 0):
        return None
    if isinstance(raw, Mapping):
        items = list(raw.items())
    elif isinstance(raw, list):
        items = []
        for i, r in enumerate(raw):
            if not isinstance(r, Mapping) or "group" not in r:
                raise DataError(MSG_RECORD.format(where=f"record {i + 1}", what="has no group"))
            items.append((r["group"], r))
    else:
        raise DataError(MSG_RECORD.format(where="the field", what=f"is a {type(raw).__name__}"))
    if len(items) > MAX_RECORDS:
        raise DataError(MSG_RECORD.format(where="the field", what=f"has more than {MAX_RECORDS:,} groups"))
    out = {}
    for g, r in items:
        name = group_name(g)
        where = f"the group {q(name)}"
        if not isinstance(r, Mapping):
            raise DataError(MSG_RECORD.format(where=where, what="is not a record"))
        if name not in cutoffs:
            raise DataError(MSG_NO_CUTOFF.format(group=q(name)))
        low = read_number(r.get("low"), f'"randomised" {where} low', allow_inf=True)
        p = read_number(r.get("p"), f'"randomised" {where} p')
        if not 0 <= p <= 1 or not low <= cutoffs[name]:
            what = f"has low {low:g} and p {p:g} (its cutoff is {cutoffs[name]:g})"
            raise DataError(MSG_RECORD.format(where=where, what=what))
        out[name] = (float(low), float(p))
    return out or None
