"""The value of a selective classifier (answer when confident, hand the rest to a person).

- `contract`: value per case, its exact sweep over the acceptance threshold, `value_against_k`, and
  the best threshold within a cap on the cases handed over (`optimal_value_within`);
- `cost_sensitive`: prices per outcome and class thresholds;
- `recommendation`: the Value page's one answer (`recommend_value`).

Every public name is importable from ``costlib.value``.
"""

from costlib.value.contract import (
    ValueResult,
    best_index_within,
    optimal_value,
    optimal_value_within,
    predictions,
    ranking_flips,
    rejected_within,
    sweep_value,
    value_against_k,
    value_capacity_curve,
    value_curve,
    value_interval,
    value_of_capacity,
    value_score,
    value_sweep,
    value_sweep_from_counts,
    value_table,
    value_threshold,
)
from costlib.value.cost_sensitive import (
    ACCEPTANCE_RULES,
    ACCEPTANCE_WORDS,
    CostSensitiveValue,
    acceptance_rules_table,
    class_thresholds,
    classification_table,
    cost_sensitive_actions,
    cost_sensitive_error,
    cost_sensitive_value,
)
from costlib.value.recommendation import (
    ANSWER_ALL,
    HAND_AT_RANDOM,
    HAND_OVER,
    ValueCapacity,
    ValueRecommendation,
    k_from_prices,
    recommend_value,
)

__all__ = [
    "ACCEPTANCE_RULES",
    "ACCEPTANCE_WORDS",
    "ANSWER_ALL",
    "HAND_AT_RANDOM",
    "HAND_OVER",
    "CostSensitiveValue",
    "ValueCapacity",
    "ValueRecommendation",
    "ValueResult",
    "acceptance_rules_table",
    "class_thresholds",
    "classification_table",
    "cost_sensitive_actions",
    "cost_sensitive_error",
    "cost_sensitive_value",
    "k_from_prices",
    "best_index_within",
    "optimal_value",
    "optimal_value_within",
    "predictions",
    "ranking_flips",
    "recommend_value",
    "rejected_within",
    "sweep_value",
    "value_against_k",
    "value_capacity_curve",
    "value_curve",
    "value_of_capacity",
    "value_interval",
    "value_score",
    "value_sweep",
    "value_sweep_from_counts",
    "value_table",
    "value_threshold",
]
