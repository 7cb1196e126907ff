"""The value of a selective classifier (answer when confident, hand the rest to a person).

- `contract`: value per case, its interval, its exact sweep over the acceptance threshold and the
  best threshold (`optimal_value`);
- `within`: the best threshold within a cap on the cases handed over (`optimal_value_within`), the
  best within every cap and the price of capacity;
- `against_k`: value against k (`value_against_k`), where the best model changes along k, and
  every model's value at one k (`value_table`);
- `cost_sensitive`: prices per outcome and class thresholds;
- `recommendation`: the Value page's one answer (`recommend_value`);
- `per_outcome`: its answer at separate prices of the two mistakes (`recommend_outcome`).

Every public name is importable from ``costlib.value``.
"""

from costlib.value.against_k import ranking_flips, value_against_k, value_table
from costlib.value.contract import (
    ValueResult,
    optimal_value,
    predictions,
    sweep_value,
    value_curve,
    value_interval,
    value_score,
    value_sweep,
    value_sweep_from_counts,
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
from costlib.value.per_outcome import (
    ALL_NEGATIVE,
    ALL_POSITIVE,
    OutcomeRecommendation,
    fit_outcome_thresholds,
    outcome_table,
    recommend_outcome,
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
from costlib.value.within import (
    best_index_within,
    optimal_value_within,
    rejected_within,
    value_capacity_curve,
    value_of_capacity,
)

__all__ = [
    "ALL_NEGATIVE",
    "ALL_POSITIVE",
    "OutcomeRecommendation",
    "fit_outcome_thresholds",
    "outcome_table",
    "recommend_outcome",
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
