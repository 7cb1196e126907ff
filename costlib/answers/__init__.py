"""The answer of each dashboard page, built from costlib's public functions; one module per page.

A page reads its widgets, makes one call here for what it shows, and draws it: no formula and
no sentence is made in a page. Each function returns plain objects (tables, figures,
`words.Verdict`, sentences), so the same answer can be checked without Streamlit.

- `instance`: Instance costs, `instance_answer` (per dataset) and `instance_cutoff` (per cutoff);
- `value`: Value, its sweeps, tables and sentences, and `value_k`, the k that follows from the
  price book at `mean_price` (the groups weighted by their judged cases), which Calibration reads too;
- `calibration`: Calibration, `calibration_fit` (per dataset and model) and `calibration_answer`;
- `matrix`: Cost matrix, `matrix_answer`, its table, heatmaps and sentences;
- `costs`: Costs & groups, its metrics, the audit for the downloads and the sensitivity section;
- `prices`: Find my prices, the table of cutoffs by ratio and `prices_from_answers`;
- `training`: Train with costs, the verdict's colour and the table as read;
- `data`: the Data page's sentences.
"""

from costlib.answers.calibration import (
    BRIER_HELP,
    NO_SPLIT_TO_CALIBRATE,
    CalibrationAnswer,
    CalibrationFit,
    calibration_answer,
    calibration_fit,
)
from costlib.answers.costs import (
    INTERVAL_MEANING,
    NET_BENEFIT_NEEDS_PROBABILITIES,
    REPORT_AND_POLICY,
    Sensitivity,
    audit_maker,
    costs_metrics,
    policy_restored_sentence,
    price_maps,
    price_questions_sentence,
    rule_meanings,
    sensitivity,
)
from costlib.answers.data import classes_sentence, data_folder_sentence, fix_offer, previous_upload_sentence
from costlib.answers.instance import InstanceAnswer, instance_answer, instance_cutoff, instance_figures
from costlib.answers.matrix import (
    MATRIX_CELLS_REFUSED,
    default_matrix,
    matrix_answer,
    matrix_heatmaps,
    matrix_metrics,
    matrix_policies_with_model,
    matrix_prices_caption,
    matrix_table,
)
from costlib.answers.prices import (
    ALARM_NAME,
    MISS_NAME,
    bracket_table,
    group_multiplier_label,
    mistake_names,
    prices_from_answers,
    question_sentence,
)
from costlib.answers.training import training_table, training_verdict_kind
from costlib.answers.value import (
    ACCEPTANCE_RULES_NOTE,
    CALIBRATION_VALUE_NOTE,
    CLASSIFICATION_NOTE,
    NO_VALIDATION_NOTE,
    KChoice,
    ValueSweeps,
    acceptance_table,
    classification_table,
    counts_only_value_sentence,
    judged_cases,
    mean_price,
    per_outcome_sentence,
    value_against_k,
    value_calibration_table,
    value_k,
    value_k_caption,
    value_k_figure,
    value_k_sentence,
    value_lag_sentence,
    value_metrics,
    value_sweeps,
    value_tau_figure,
)

__all__ = [
    "InstanceAnswer",
    "instance_answer",
    "instance_figures",
    "instance_cutoff",
    "judged_cases",
    "mean_price",
    "KChoice",
    "value_k",
    "value_k_sentence",
    "ValueSweeps",
    "value_sweeps",
    "value_lag_sentence",
    "value_k_caption",
    "counts_only_value_sentence",
    "per_outcome_sentence",
    "value_calibration_table",
    "value_metrics",
    "value_tau_figure",
    "value_against_k",
    "value_k_figure",
    "acceptance_table",
    "classification_table",
    "ACCEPTANCE_RULES_NOTE",
    "CLASSIFICATION_NOTE",
    "CALIBRATION_VALUE_NOTE",
    "NO_VALIDATION_NOTE",
    "CalibrationFit",
    "calibration_fit",
    "NO_SPLIT_TO_CALIBRATE",
    "BRIER_HELP",
    "CalibrationAnswer",
    "calibration_answer",
    "default_matrix",
    "MATRIX_CELLS_REFUSED",
    "matrix_prices_caption",
    "matrix_answer",
    "matrix_metrics",
    "matrix_table",
    "matrix_policies_with_model",
    "matrix_heatmaps",
    "training_verdict_kind",
    "training_table",
    "costs_metrics",
    "price_questions_sentence",
    "audit_maker",
    "policy_restored_sentence",
    "REPORT_AND_POLICY",
    "INTERVAL_MEANING",
    "rule_meanings",
    "Sensitivity",
    "NET_BENEFIT_NEEDS_PROBABILITIES",
    "price_maps",
    "sensitivity",
    "MISS_NAME",
    "ALARM_NAME",
    "mistake_names",
    "question_sentence",
    "group_multiplier_label",
    "bracket_table",
    "prices_from_answers",
    "classes_sentence",
    "previous_upload_sentence",
    "fix_offer",
    "data_folder_sentence",
]
