"""costlib: what a classifier's mistakes cost, and which threshold to use because of it.

One decision table underneath everything (rows: the truth; columns: what the system does);
one exact sort-once sweep behind every curve. The names below are the public contract of
``shared/spec/costlib.md``.

``import costlib`` is light: every public name is imported from its module the first time it
is used (PEP 562), so scikit-learn, SciPy, DuckDB, pyarrow, Plotly and Streamlit load only
when a name that needs them does. `_EXPORTS` is the one table: the public name -> the module
that holds it; ``__all__`` and ``dir(costlib)`` are read from it.
"""

from __future__ import annotations

import importlib
import importlib.util

__version__ = "0.1.0"

#: public name -> the module it is imported from (on first use)
_EXPORTS = {
    # binary costs, groups and rules
    "RULES": "costlib.binary.costs",
    "compare_rules": "costlib.binary.costs",
    "cost_curve": "costlib.binary.costs",
    "cost_optimal_thresholds": "costlib.binary.costs",
    "elkan_threshold": "costlib.core.prices",
    "expected_cost": "costlib.binary.costs",
    "group_costs": "costlib.binary.costs",
    "optimal_threshold": "costlib.binary.costs",
    "rule_cutoffs": "costlib.binary.costs",
    # decisions under capacity
    "capacity_curve": "costlib.binary.capacity",
    "optimal_cutoffs_within": "costlib.binary.capacity",
    "optimal_threshold_within": "costlib.binary.capacity",
    "optimal_value_within": "costlib.value.within",
    # the decision summary
    "audit": "costlib.notebook",
    "ModelSweeps": "costlib.binary.model_sweeps",
    "Recommendation": "costlib.binary.decision",
    "no_model_baseline": "costlib.binary.decision",
    "recommend": "costlib.binary.decision",
    "sweep_model": "costlib.binary.model_sweeps",
    "optimal_cutoffs_by_ratio": "costlib.binary.elicit",
    # calibration
    "apply_temperature": "costlib.calibration",
    "expected_calibration_error": "costlib.calibration",
    "fit_temperature": "costlib.calibration",
    "reliability": "costlib.calibration",
    # the sweep, prices, errors and warnings
    "GroupedSweep": "costlib.core.sweep",
    "Sweep": "costlib.core.sweep",
    "grouped_sweep": "costlib.core.sweep",
    "threshold_sweep": "costlib.core.sweep",
    "Prices": "costlib.core.prices",
    "DataError": "costlib.core.errors",
    "DegenerateWarning": "costlib.core.validation",
    # instance-level costs
    "delta_from_rating": "costlib.instance",
    "delta_from_threshold": "costlib.instance",
    "delta_from_votes": "costlib.instance",
    "error_rate": "costlib.instance",
    "nec_curve": "costlib.instance",
    "normalized_excess_cost": "costlib.instance",
    # multiclass
    "expected_cost_matrix": "costlib.multiclass",
    "min_cost_decisions": "costlib.multiclass",
    # beyond memory
    "scan_compare_rules": "costlib.scale.scans",
    "scan_group_costs": "costlib.scale.scans",
    "scan_grouped_sweep": "costlib.scale.scans",
    "scan_optimal_thresholds": "costlib.scale.scans",
    # watching a shipped policy
    "cost_by_period": "costlib.watch.periods",
    "estimate_prior": "costlib.watch.shift",
    "expected_cost_unlabelled": "costlib.watch.shift",
    # training with instance costs
    "compare_training": "costlib.training.compare",
    "cost_predictability": "costlib.training.compare",
    "training_summary": "costlib.training.summary",
    # the hand-off to the model that serves a policy
    "apply_policy": "costlib.handoff.policy",
    "cost_scorer": "costlib.handoff.scorer",
    "policy_estimator": "costlib.handoff.serving",
    # value of a selective classifier
    "CostSensitiveValue": "costlib.value.cost_sensitive",
    "ValueResult": "costlib.value.contract",
    "class_thresholds": "costlib.value.cost_sensitive",
    "cost_sensitive_error": "costlib.value.cost_sensitive",
    "cost_sensitive_value": "costlib.value.cost_sensitive",
    "optimal_value": "costlib.value.contract",
    "value_against_k": "costlib.value.against_k",
    "value_curve": "costlib.value.contract",
    "value_score": "costlib.value.contract",
    "value_threshold": "costlib.value.contract",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    """Import a public name (or a subpackage such as ``costlib.loading``) on first use."""
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
    elif not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later look-ups do not come here again
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
