"""costlib: what a classifier's mistakes cost, and which threshold to use because of it.

One decision table underneath everything (rows: the truth; columns: what the system does);
one exact sort-once sweep behind every curve. The names below are the public contract of
``shared/spec/costlib.md``.
"""

from costlib.binary.costs import (
    RULES,
    compare_rules,
    cost_curve,
    cost_optimal_thresholds,
    elkan_threshold,
    expected_cost,
    group_costs,
    optimal_threshold,
    rule_cutoffs,
)
from costlib.binary.decision import no_model_baseline, recommend, sweep_model
from costlib.binary.elicit import optimal_cutoffs_by_ratio
from costlib.calibration import apply_temperature, expected_calibration_error, fit_temperature, reliability
from costlib.core.sweep import GroupedSweep, Sweep, grouped_sweep, threshold_sweep
from costlib.core.validation import DegenerateWarning
from costlib.instance import (
    delta_from_rating,
    delta_from_threshold,
    delta_from_votes,
    error_rate,
    nec_curve,
    normalized_excess_cost,
)
from costlib.multiclass import expected_cost_matrix, min_cost_decisions
from costlib.scale.scans import scan_compare_rules, scan_group_costs, scan_grouped_sweep, scan_optimal_thresholds
from costlib.training.compare import compare_training, cost_predictability, training_summary
from costlib.value import (
    class_thresholds,
    cost_sensitive_error,
    cost_sensitive_value,
    optimal_value,
    value_against_k,
    value_curve,
    value_score,
    value_threshold,
)

__version__ = "0.1.0"

__all__ = [
    "RULES",
    "DegenerateWarning",
    "GroupedSweep",
    "Sweep",
    "apply_temperature",
    "class_thresholds",
    "compare_rules",
    "compare_training",
    "cost_curve",
    "cost_optimal_thresholds",
    "cost_predictability",
    "cost_sensitive_error",
    "cost_sensitive_value",
    "delta_from_rating",
    "delta_from_threshold",
    "delta_from_votes",
    "elkan_threshold",
    "error_rate",
    "expected_calibration_error",
    "expected_cost",
    "expected_cost_matrix",
    "fit_temperature",
    "group_costs",
    "grouped_sweep",
    "min_cost_decisions",
    "no_model_baseline",
    "nec_curve",
    "normalized_excess_cost",
    "optimal_cutoffs_by_ratio",
    "optimal_threshold",
    "optimal_value",
    "recommend",
    "reliability",
    "rule_cutoffs",
    "scan_compare_rules",
    "scan_group_costs",
    "scan_grouped_sweep",
    "scan_optimal_thresholds",
    "sweep_model",
    "threshold_sweep",
    "training_summary",
    "value_against_k",
    "value_curve",
    "value_score",
    "value_threshold",
]
