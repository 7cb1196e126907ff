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

``decision`` is the audit's recommendation (`Audit.summary`), whichever rule the file ships; its
``recommended`` block says whether the file applies it (``"applied"``; when not, ``"not_applied"``:
why, and what it applies instead: `_recommended`), added within version 8 as ``decision_is``.
``decision_is`` says in words what it is beside the rule the file ships (`_decision_is`): that
rule, or another one given for comparison. When the file ships a rule other than the one
whose disparities ``decision.disparities`` holds (a fairness rule, or the choice without a model),
``disparities`` holds those of the rule it ships (`disparity.rule_disparities`, given the sweeps
the audit was made from; null without them). Both are read by people, not by `load_policy`, so
they came within version 8: a reader of an older file finds them missing, and ignores them.

Reading is defensive: a policy comes from a person's disk and may be anything. The text is
checked against one schema (types, ranges, sizes, nesting) before any field is used, and
every problem is a `DataError` sentence: one field's checks are in `costlib.present.policy_fields`,
the nested records' in `costlib.present.policy_records`, and what a loaded policy puts back into
the price book in `costlib.present.policy_restore`. A group's name is read as the loader reads a cell
(`group_name`: 1, 1.0 and "1" are one group, listed once), never cut (a name over `MAX_TEXT`
characters is refused), and a number that is not finite is refused (only the texts ``"inf"``
and ``"-inf"`` mean infinity). Writing reads its own text back (`policy_json`), so that what
is written is never what the reader refuses.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence

from costlib.core import rules as R
from costlib.core import settings
from costlib.core.errors import DataError
from costlib.core.scales import SCALES
from costlib.loading.messages import q
from costlib.present.policy_fields import (
    MAX_RECORDS,
    MAX_TEXT,
    PolicyFileError,
    group_records,
    json_value,
    parse_text,
    read_number,
    record_group,
    short_repr,
    text_field,
    unique_group,
    writable_text,
)
from costlib.present.policy_records import (
    REVIEW_FIELDS,
    checked_capacity,
    checked_group_columns,
    checked_model_identity,
    checked_pooled_groups,
    checked_questions,
    checked_randomised,
    checked_reference,
    checked_review,
)

# isort: split
# kept for costlib/handoff/policy.py and costlib/handoff/randomised.py: moves when those files are free
# (they also read MAX_RECORDS, MAX_TEXT, parse_text, read_number and writable_text here)
from costlib.present.policy_fields import MAX_BYTES, group_name, policy_group  # noqa: F401

POLICY_SCHEMA = "costlib.policy"  # the file format's name, not the module's
#: 8: "randomised"; 7: "reference"; 6: "pooled_cutoff"; 5: "capacity", "random_share", "base_rate"
POLICY_SCHEMA_VERSION = 8

__all__ = ["POLICY_SCHEMA", "POLICY_SCHEMA_VERSION", "load_policy", "policy_dict", "policy_json"]

#: `_decision_is`: what the ``decision`` block is (the audit's recommendation) beside the rule the file ships
DECISION_IS_SHIPPED = "the audit's recommendation: the rule this file ships"
DECISION_IS_NO_MODEL = (
    "the audit's recommendation: its verdict keeps the choice without a model, “{rule}”, which this file "
    "ships; its recommended cutoffs are the model's best, not applied"
)
DECISION_IS_OTHER = "the audit's recommendation, for comparison: this file ships “{rule}”, not it"
#: `_recommended`: why the ``decision.recommended`` block's rule is not what the file applies, in the block itself
#: (``"applied": false`` beside it): a system or person reading "recommended" alone would ship the model's
#: cutoff where the verdict keeps the choice without a model (review 74)
NOT_APPLIED_NO_MODEL = (
    'not applied: the verdict is “{verdict}”, so this file applies “{rule}”, which needs no model (its "rule" '
    'and "thresholds"); these cutoffs are the model\'s best, for comparison only'
)
NOT_APPLIED_OTHER = (
    'not applied: this file applies “{rule}” (its "rule" and "thresholds"); these cutoffs are the recommendation\'s, '
    "for comparison only"
)
DISPARITIES_HERE = (
    '; "disparities" holds the disparities between the groups of “{rule}”, '
    'and "decision.disparities" those of “{recommended}”'
)
DISPARITIES_NOT_HERE = (
    "; this file holds no disparities between the groups of “{rule}”: "
    '"decision.disparities" are those of “{recommended}”'
)

MSG_UNWRITABLE = (
    "This policy cannot be written: {reason}, so apply, watch and the Costs page would refuse to read it back; "
    "nothing was written."
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


OUT_OF_COUNTS = {
    "flagged_rate": "cases",
    "false_positive_rate": "negatives",
    "false_negative_rate": "positives",
    "cost_per_case": "cases",
}
"""What each metric's ``out_of`` counts in the ``"disparities"`` block (`disparities_record`), as
the page's "out of" column (`disparity.out_of`, the one home of those counts)."""


def disparities_record(d) -> dict:
    """The ``"disparities"`` block of the JSON decision summary and of the policy:
    `disparity.Disparities.record` of `d`, with each group's ``out_of`` under each metric, the
    count its value is a share of (`disparity.out_of`: its cases, negatives or positives, by weight
    with a weight column; `OUT_OF_COUNTS`, written once in the block), as the page's disparities
    table gives it, so that a reviewer can recompute each rate (value × out_of is what it counts).

    >>> from costlib.binary.disparity import disparities
    >>> block = disparities_record(disparities(["a", "b"], [4, 1], [1, 1], [1, 4], [10, 20], c_fp=1, c_fn=1))
    >>> block["out_of"]["false_negative_rate"], block["metrics"]["false_negative_rate"]["b"]["out_of"]
    ('positives', 5)
    """
    from costlib.binary.disparity import DISPARITY_METRICS
    from costlib.core.json_numbers import json_number

    out = {}
    for key, value in d.record(R.rule_words(d.rule)).items():  # beside the other words on what the numbers are
        out[key] = value
        if key == "difference":
            out["out_of"] = dict(OUT_OF_COUNTS)
    for row in d.table.to_dict("records"):
        count = json_number(row["out_of"])
        count = int(count) if count is not None and float(count).is_integer() else count
        groups = out["metrics"][DISPARITY_METRICS[row["metric"]]]
        value, *rest = groups[str(row["group"])].items()  # beside the value it is the count of
        groups[str(row["group"])] = dict([value, ("out_of", count), *rest])
    return out


def _shipped_disparities_record(audit, rule: str, sweeps=None) -> dict | None:
    """The ``"disparities"`` record (`disparities_record`) of `rule`:
    `disparity.rule_disparities` on the judged rows of `sweeps`, with the audit's reference group
    (when it was given; else the largest, the same group for every rule), pooled groups and
    threshold, as the audit's own (`disparity.shipped_disparities`) of the recommended rule.

    `sweeps` is the recommended model's `ModelSweeps`, or {model: ModelSweeps}, that the audit
    was made from. None without `sweeps`, with one group, or for a rule the judged rules do not
    hold group by group (a randomised fairness rule; flagging at random, which uses no score).

    Raises ValueError for sweeps of another model than the recommended one.
    """
    rec, d = audit.recommendation, audit.disparities
    if d is None or sweeps is None or rule not in rec.results.cutoffs or rule == R.AT_RANDOM:
        return None
    if isinstance(sweeps, Mapping):
        sweeps = sweeps[rec.model]
    if sweeps.name != rec.model:
        raise ValueError(f"sweeps must be those of the recommended model {rec.model!r}: got {sweeps.name!r}")
    from costlib.binary.disparity import rule_disparities

    reference = d.reference if d.chosen == "given" else None
    gaps = rule_disparities(
        sweeps, rec.results, rule, rec.prices, reference=reference, pooled=rec.pooled, threshold=d.threshold
    )
    return disparities_record(gaps)


def _decision_is(audit, rule: str, disparities_written: bool) -> str:
    """What the policy's ``decision`` block (the audit's recommendation) is beside `rule`, the rule
    the file ships: `DECISION_IS_SHIPPED` when it is the recommended rule; else
    `DECISION_IS_NO_MODEL` (the verdict keeps the choice without a model, which the file ships)
    or `DECISION_IS_OTHER` (given for comparison), followed, with two groups or more, by where
    the disparities of each rule are (`DISPARITIES_HERE`, or `DISPARITIES_NOT_HERE` when the
    file holds none of `rule`'s)."""
    rec = audit.recommendation
    if rule == rec.rule:
        return DECISION_IS_SHIPPED
    words = R.rule_words(rule)
    head = (DECISION_IS_NO_MODEL if rule == rec.shipped_rule else DECISION_IS_OTHER).format(rule=words)
    if audit.disparities is None:
        return head
    tail = DISPARITIES_HERE if disparities_written else DISPARITIES_NOT_HERE
    return head + tail.format(rule=words, recommended=R.rule_words(audit.disparities.rule))


def _recommended(audit, summary: dict, rule: str) -> dict:
    """The decision summary's ``recommended`` block (`Audit.summary`: its keys unchanged) saying whether
    the file applies it: ``"applied"``, and when it does not (`rule`, the rule the file ships, is another),
    ``"not_applied"``: why, and what the file applies instead (`NOT_APPLIED_NO_MODEL`, `NOT_APPLIED_OTHER`)."""
    rec = audit.recommendation
    block = {**summary["recommended"], "applied": rule == rec.rule}
    if rule != rec.rule:
        said = NOT_APPLIED_NO_MODEL if rule == rec.shipped_rule else NOT_APPLIED_OTHER
        block["not_applied"] = said.format(verdict=rec.verdict, rule=R.rule_words(rule))
    return block


def policy_dict(
    audit,
    rule: str | None = None,
    *,
    abstain_bands: Sequence[Mapping] = (),
    price_questions: Mapping | None = None,
    sweeps=None,
) -> dict:
    """The policy that `rule` (default: `default_rule`, what the verdict says to ship) sets,
    as JSON-ready data.

    ``decision`` is the audit's recommendation whatever `rule` is; ``decision_is`` says what it
    is beside `rule` (`_decision_is`). When `rule` is not the rule whose disparities ``decision``
    holds, ``disparities`` holds `rule`'s (`_shipped_disparities_record`, from `sweeps`: the
    recommended model's `ModelSweeps`, or {model: ModelSweeps}, that the audit was made from;
    by default the audit's own, ``Audit.sweeps``; null without them).

    Raises ValueError for a rule the audit does not have or whose cutoffs are NaN, and for
    sweeps of another model.
    """
    rec = audit.recommendation
    cutoffs = audit.cutoffs
    rule = default_rule(audit) if rule is None else rule
    randomised = randomised_rule(audit, rule)
    if rule not in cutoffs and randomised is None:
        raise ValueError(f"rule must be one of {[*cutoffs, *randomised_rules(audit)]}: got {rule!r}")
    cut = cutoffs[rule] if randomised is None else randomised["cutoffs"]
    random_share = None
    if rule == R.AT_RANDOM:  # no cutoff: the score is not used, a share up to the review limit is picked at random
        random_share = float(rec.capacity)
        cut = dict.fromkeys(cut, math.inf)
    bad = [g for g, t in cut.items() if math.isnan(float(t))]
    if bad:
        raise ValueError(f"the rule {rule!r} has no cutoff for group {bad[0]!r} (NaN): it cannot be a policy")
    from costlib.binary.decision import rule_verdict
    from costlib.present.tables import fair_cross_fitted_notes
    from costlib.present.words import cutoffs_text, rule_verdict_sentence

    shipped = rule in (rec.rule, rec.shipped_rule)  # what the recommendation says: its own verdict and headline
    judged = None if randomised is None else randomised["judged"]  # (verdict, saving, low, high)
    drift = next((d for d in audit.drifted if d[0] == rule), None)
    if drift is not None and judged is None and not shipped:  # its numbers are the refitted rule's, not its cutoffs'
        said, *numbers = rule_verdict(rec, rule)
        judged = (R.NOT_CLEARLY if said == R.SHIP else said, *numbers)
    verdict = rec.verdict if shipped else (judged or rule_verdict(rec, rule))[0]

    bands = [{"group": json_value(b["group"]), "low": float(b["low"]), "high": float(b["high"])} for b in abstain_bands]
    overall = audit.results.overall.loc[rule] if randomised is None else randomised["overall"]
    other = audit.disparities is not None and rule != audit.disparities.rule  # decision's disparities are not rule's
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
        "prices": [{"group": json_value(g), "c_fp": float(p[0]), "c_fn": float(p[1])} for g, p in audit.costs.items()],
        "rule": rule,
        "rule_words": R.rule_words(rule),
        "thresholds": [
            {
                "group": json_value(g),
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
        "decision_is": None,  # set below, once the disparities of the rule are known
        **({"disparities": None} if other else {}),
        "decision": (summary := audit.summary()) | {"recommended": _recommended(audit, summary, rule)},
        "verdict": verdict,
        "headline": audit.verdict.headline if shipped else rule_verdict_sentence(rec, rule, audit.unit, judged=judged),
        **({"caveat": fair_cross_fitted_notes(True, [drift])[-1]} if drift is not None else {}),
        "pooled_groups": [json_value(g) for g in rec.pooled],
        "model_is_useless": audit.model_is_useless,
        "review": dict.fromkeys(REVIEW_FIELDS),
    }
    if other:
        out["disparities"] = _shipped_disparities_record(audit, rule, audit.sweeps if sweeps is None else sweeps)
    out["decision_is"] = _decision_is(audit, rule, out.get("disparities") is not None)
    if randomised is not None:  # each group's band below its cutoff, flagged with probability p (drawn by case id)
        out["randomised"] = [{"group": json_value(g), **band} for g, band in randomised["bands"].items()]
    if price_questions:
        out["price_questions"] = dict(price_questions)
    out["reference"] = audit.reference  # last: a long block of numbers a reader skips
    return out


def randomised_rules(audit) -> list[str]:
    """The audit's fairness rules with randomised cutoffs (`binary.fair_random`) that meet their
    constraint: they are not among the recommendation's rules, and a policy records their bands."""
    s = audit.fairness_summary
    if s is None or "randomised" not in getattr(s, "columns", ()):
        return []
    return [r for r, rand, f in zip(s["rule"], s["randomised"], s["feasible"], strict=True) if rand and f]


def randomised_rule(audit, rule: str) -> dict | None:
    """What a policy of the randomised fairness rule `rule` records (None for another rule):
    ``cutoffs`` {group: cutoff}, ``bands`` {group: {"low", "p"}} (groups with 0 < p < 1),
    ``overall`` its expected cost per case where judged (no interval: a rule the recommendation
    did not judge) and ``judged``, its verdict against the choice without a model by the one ship
    rule: with no interval it is never "ship the model"."""
    if rule not in randomised_rules(audit):
        return None
    from costlib.core.ship import ship_verdict

    long = audit.fairness[audit.fairness["rule"] == rule]
    cut = {g: float(t) for g, t in zip(long["group"], long["threshold"], strict=True)}
    bands = {
        g: {"low": json_cutoff(lo), "p": float(p)}
        for g, lo, p in zip(long["group"], long["low"], long["p"], strict=True)
        if 0 < p < 1
    }
    row = audit.fairness_summary.set_index("rule").loc[rule]
    cost = float(row["cost_per_case_test"])
    rec = audit.recommendation
    saving = float(rec.baseline_cost - cost)
    verdict = ship_verdict(saving, math.nan, math.nan)
    overall = {"cost_per_case": cost, "low": math.nan, "high": math.nan}
    return {"cutoffs": cut, "bands": bands, "overall": overall, "judged": (verdict, saving, math.nan, math.nan)}


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
        raise PolicyFileError(f'it is JSON but not a costlib policy (it has no "schema": "{POLICY_SCHEMA}" field)')
    version = policy.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise PolicyFileError(f'"schema_version" must be a whole number from 1, got {short_repr(version)}')
    if version > POLICY_SCHEMA_VERSION:
        raise PolicyFileError(
            f"it has schema version {version}, newer than this costlib reads ({POLICY_SCHEMA_VERSION}); upgrade costlib"
        )
    rule = policy.get("rule")
    if not isinstance(rule, str) or not rule or len(rule) > MAX_TEXT:
        raise PolicyFileError('"rule" must name the rule that produced the cutoffs')
    writable_text(rule, '"rule"')
    data = policy.get("data", {})
    if not isinstance(data, dict):
        raise PolicyFileError('"data" must be a record with "name", "sha256" and "n_rows"')
    sha = data.get("sha256", "")
    if not isinstance(sha, str) or (sha and (len(sha) != 64 or any(ch not in "0123456789abcdef" for ch in sha))):
        raise PolicyFileError(f'"data.sha256" must be 64 lower-case hex digits, got {short_repr(sha)}')
    name = data.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_TEXT:
        raise PolicyFileError(f'"data.name" must be text of at most {MAX_TEXT} characters')
    n_rows = data.get("n_rows")
    if n_rows is not None and (isinstance(n_rows, bool) or not isinstance(n_rows, int) or n_rows < 0):
        raise PolicyFileError(f'"data.n_rows" must be a whole number, got {short_repr(n_rows)}')
    roles = {}
    for role in ("label", "positive", "score", "scale", "group", "split"):  # the data dictionary: which column was what
        x = data.get(role)
        if x is not None and (isinstance(x, bool) or not isinstance(x, (str, int)) or len(str(x)) > MAX_TEXT):
            raise PolicyFileError(f'"data.{role}" must be a column name or value (text), got {short_repr(x)}')
        roles[role] = None if x is None else str(x) if isinstance(x, str) else int(x)
    roles.update(checked_group_columns(data, roles["group"]))
    if roles["scale"] is not None and roles["scale"] not in SCALES:
        raise PolicyFileError(f'"data.scale" must be one of {", ".join(SCALES)}, got {short_repr(roles["scale"])}')
    prices, named = {}, set()
    for i, r in enumerate(group_records(policy, "prices")):
        g = unique_group(record_group(r, f"prices[{i}]"), prices, named, f"prices[{i}]")
        where = f"prices[{i}] (group {q(g)})"
        prices[g] = (
            read_number(r.get("c_fp"), where + " c_fp", bound=settings.PRICE),
            read_number(r.get("c_fn"), where + " c_fn", bound=settings.PRICE),
        )
    thresholds, named = {}, set()
    for i, r in enumerate(group_records(policy, "thresholds")):
        g = unique_group(record_group(r, f"thresholds[{i}]"), thresholds, named, f"thresholds[{i}]")
        t = r.get("threshold")  # null flags nobody in the group, as the decision summary writes it
        thresholds[g] = math.inf if t is None else read_number(t, f"thresholds[{i}] (group {q(g)})", allow_inf=True)
    pooled = policy.get("pooled_cutoff")
    pooled = None if pooled is None else read_number(pooled, '"pooled_cutoff"', allow_inf=True)
    missing = [g for g in thresholds if g not in prices]
    if missing:
        raise PolicyFileError(f"the group {q(missing[0])} has a cutoff but no prices")
    randomised = checked_randomised(policy.get("randomised"), thresholds)
    bands_in = policy.get("abstain_bands") or []
    if not isinstance(bands_in, list) or len(bands_in) > MAX_RECORDS:
        raise PolicyFileError('"abstain_bands" must be a list of records with group, low and high')
    bands = []
    for i, b in enumerate(bands_in):
        if not isinstance(b, dict) or "group" not in b:
            raise PolicyFileError(f"abstain_bands[{i}] must be a record with group, low and high")
        low = read_number(b.get("low"), f"abstain_bands[{i}] low")
        high = read_number(b.get("high"), f"abstain_bands[{i}] high")
        if low > high:
            raise PolicyFileError(f"abstain_bands[{i}] has low {low:g} above high {high:g}")
        bands.append({"group": record_group(b, f"abstain_bands[{i}]"), "low": low, "high": high})
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
    questions = checked_questions(policy.get("price_questions"))
    random_share = policy.get("random_share")
    if random_share is not None:
        random_share = read_number(random_share, '"random_share"')
        if not 0 <= random_share <= 1:
            raise PolicyFileError(
                f'"random_share" must be a share of the cases from 0 to 1, got {short_repr(random_share)}'
            )
    capacity = checked_capacity(policy.get("capacity"), notes)
    base_rate = policy.get("base_rate")
    if base_rate is not None:
        base_rate = read_number(base_rate, '"base_rate"')
        if not 0 < base_rate < 1:
            raise PolicyFileError(
                f'"base_rate" must be a share of the cases strictly between 0 and 1, got {short_repr(base_rate)}'
            )
    return {
        "schema": POLICY_SCHEMA,
        "schema_version": version,
        "rule": rule,
        "prices": prices,
        "thresholds": thresholds,
        "pooled_cutoff": pooled,
        "randomised": randomised,
        "pooled_groups": checked_pooled_groups(policy),
        "abstain_bands": bands,
        "volume": volume,
        "unit": unit,
        "unit_given": unit_given,
        "fairness_tolerance": tolerance,
        "data": {"name": name, "sha256": sha, "n_rows": n_rows, **roles},
        "model": text_field(policy, "model"),
        "model_identity": checked_model_identity(policy.get("model_identity")),
        "verdict": text_field(policy, "verdict"),
        "headline": text_field(policy, "headline"),
        "review": checked_review(policy.get("review")),
        "costlib_version": text_field(policy, "costlib_version"),
        "created": text_field(policy, "created"),
        "price_questions": questions,
        "random_share": random_share,
        "capacity": capacity,
        "base_rate": base_rate,
        "reference": checked_reference(policy.get("reference")),
        "notes": notes,
    }
