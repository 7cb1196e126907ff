"""Words for an answer that keeps the choice without a model: why a model whose cutoffs decide as
that choice does is not to decide (`adds_nothing_why`), and which rules came out cheaper than that
choice (`cheaper_than_no_model`), for the asides under the answer (`words.recommendation_asides`)."""

from __future__ import annotations

import math

from costlib.present.amounts import money


def adds_nothing_why(rec, unit: str, base: str, kind: str) -> str:
    """Why a model whose fitted cutoffs decide as a choice without a model does (status
    ADDS_NOTHING) is not to decide, said after "which needs no model": it saves nothing (its
    saving on the judged rows is 0, so it would only add a model to run), it costs more, or what
    it saves comes from the groups it flags whole or not at all, not from the scores. `base`: the
    no-model choice in words; `kind`: which rows were judged (`words.judged_kind`)."""
    from costlib.core.sweep import tie_tolerance

    saving = float(rec.saving)
    tol = tie_tolerance(rec.baseline_cost, getattr(getattr(rec, "prices", None), "scale", 1.0))
    if not math.isfinite(saving):
        return ""
    if abs(saving) <= tol or money(saving, unit) == money(0.0, unit):
        return (
            f": letting it decide saves nothing against {base} ({money(0.0, unit)} per case on the "
            f"{kind} rows) and only adds a model to run"
        )
    if saving < 0:
        return f", and it costs {money(-saving, unit)} per case more than {base} on the {kind} rows"
    if rec.no_model_action == "by group":
        return (
            f": the {money(saving, unit)} per case it saves against {base} comes from treating the groups apart, "
            "not from the scores"
        )
    return ""


def cheaper_than_no_model(rec) -> list:
    """[(rule, difference, low, high)] of the rules (neither the model's rule, which the answer
    names, nor a choice without a model, nor one over the review limit) that came out cheaper on
    the judged rows than the choice without a model a verdict keeps, cheapest first."""
    from costlib.binary.decision import cheaper_rules

    return cheaper_rules(rec.results, rec.rule, rec.baseline, rec.baseline_cost, rec.capacity, rec.prices.scale)
