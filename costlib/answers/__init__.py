"""The answer of each dashboard page, built from costlib's public functions; one module per page.

A page reads its widgets, makes one call here for what it shows, and draws it: no formula and
no sentence is made in a page. Each function returns plain objects (tables, figures,
`words.Verdict`, sentences), so the same answer can be checked without Streamlit.

- `instance`: Instance costs, `instance_answer` (per dataset; its figures and another cutoff's
  tables on request);
- `value`: Value, `value_answer` (verdict, metrics and sentences; its charts and tables on request),
  and `value_k`, the k that follows from the price book's mean (`Prices.mean`: the groups weighted by
  their judged cases), which Calibration reads too;
- `calibration`: Calibration, `calibration_fit` (per dataset and model) and `calibration_answer`;
- `matrix`: Cost matrix, `matrix_answer`, its table, heatmaps and sentences;
- `costs`: Costs & groups, its metrics, the audit for the downloads and the sensitivity section;
- `prices`: Find my prices, `prices_answer` (the bracket settled, the next question, the verdict, the
  cutoffs by ratio) and `prices_from_answers`;
- `training`: Train with costs, `training_answer` (verdict, charts, predictability, tables);
- `watch`: Watch, `watch_answer` (the periods judged and said; the refit on request), the policy
  and the newer cases read (`read_watched_policy`, `read_cases`, `guess_columns`) and the built-in year;
- `data`: the Data page's answers (an upload before and after mapping, a file read where it lies, what
  is loaded) and its sentences; `roles`: what a dataset can feed, the role each page needs;
"""

from costlib.answers.calibration import (
    CalibrationAnswer,
    CalibrationFit,
    Reliability,
    calibration_advice_line,
    calibration_answer,
    calibration_fit,
    calibration_rows,
    reliability,
)
from costlib.answers.costs import (
    CapacityView,
    CostsAnswer,
    Sensitivity,
    audit_maker,
    costs_answer,
    costs_verdict,
    criteria_help,
    every_price_zero,
    fair_rule_choice,
    group_rates_view,
    policy_restored_sentence,
    pooled_note,
    price_caption,
    price_maps,
    prices_key,
    rule_meanings,
    sensitivity,
    sensitivity_key,
)
from costlib.answers.data import (
    LoadedAnswer,
    MappedUpload,
    MappingChoices,
    OpenedFile,
    UploadAnswer,
    aggregate_reader,
    folder_reader,
    loaded_answer,
    mapped_upload,
    mapping_choices,
    opened_file,
    positive_choice,
    upload_answer,
)
from costlib.answers.instance import InstanceAnswer, instance_answer
from costlib.answers.matrix import (
    MatrixAnswer,
    default_matrix,
    matrix_answer,
)
from costlib.answers.prices import (
    PricesAnswer,
    mistake_names,
    prices_answer,
    prices_from_answers,
)
from costlib.answers.training import (
    TrainingAnswer,
    precomputed_fits,
    training_answer,
    training_table,
    training_verdict_kind,
)
from costlib.answers.value import ValueAnswer, value_answer
from costlib.answers.value_k import (
    KChoice,
    judged_cases,
    outcome_prices,
    per_outcome_sentence,
    reject_value_of,
    value_k,
    value_k_sentence,
    worth_unit,
)
from costlib.answers.value_sections import (
    ValueSweeps,
    acceptance_table,
    calibrated_sweeps,
    classification_table,
    models_by_k,
    value_calibration_table,
    value_k_figure,
    value_sweeps,
    value_tau_figure,
)
from costlib.answers.watch import (
    MSG_SAME_COLUMN,
    SAMPLE_COLUMNS,
    Refit,
    WatchAnswer,
    current_policy,
    folder_cases,
    guess_columns,
    read_cases,
    read_watched_policy,
    refit_inputs,
    sample_inputs,
    sign_off_note,
    watch_answer,
)
from costlib.present.details_words import COSTS_DETAILS, INSTANCE_DETAILS, MATRIX_DETAILS, VALUE_DETAILS, Details
from costlib.present.value_words import (
    VALUE_BASELINE_TILE,
    VALUE_CAP_LABEL,
    VALUE_GAIN_TILE,
    VALUE_THRESHOLD_TILE,
    VALUE_WORTH_TILE,
    value_metrics,
)
from costlib.present.watch_labels import (
    CASES_FOLDER,
    FROM_COSTS,
    FROM_FILE,
    NEEDS_CASES_NOW,
    NEEDS_POLICY,
    REFIT_BUTTON,
)  # the tests read them as answers.X

__all__ = [
    "REFIT_BUTTON",
    "FROM_COSTS",
    "FROM_FILE",
    "CASES_FOLDER",
    "MSG_SAME_COLUMN",
    "NEEDS_CASES_NOW",
    "NEEDS_POLICY",
    "guess_columns",
    "Refit",
    "current_policy",
    "folder_cases",
    "refit_inputs",
    "SAMPLE_COLUMNS",
    "WatchAnswer",
    "read_cases",
    "read_watched_policy",
    "sample_inputs",
    "sign_off_note",
    "watch_answer",
    "InstanceAnswer",
    "instance_answer",
    "judged_cases",
    "KChoice",
    "value_k",
    "value_k_sentence",
    "ValueAnswer",
    "value_answer",
    "ValueSweeps",
    "value_sweeps",
    "per_outcome_sentence",
    "outcome_prices",
    "reject_value_of",
    "worth_unit",
    "calibrated_sweeps",
    "value_calibration_table",
    "value_metrics",
    "VALUE_GAIN_TILE",
    "VALUE_WORTH_TILE",
    "VALUE_BASELINE_TILE",
    "VALUE_THRESHOLD_TILE",
    "value_tau_figure",
    "models_by_k",
    "value_k_figure",
    "VALUE_CAP_LABEL",
    "acceptance_table",
    "classification_table",
    "CalibrationFit",
    "calibration_fit",
    "calibration_advice_line",
    "calibration_rows",
    "CalibrationAnswer",
    "calibration_answer",
    "Reliability",
    "reliability",
    "default_matrix",
    "matrix_answer",
    "MatrixAnswer",
    "training_verdict_kind",
    "training_table",
    "training_answer",
    "precomputed_fits",
    "TrainingAnswer",
    "CapacityView",
    "CostsAnswer",
    "costs_answer",
    "prices_key",
    "audit_maker",
    "policy_restored_sentence",
    "price_caption",
    "every_price_zero",
    "COSTS_DETAILS",
    "INSTANCE_DETAILS",
    "MATRIX_DETAILS",
    "VALUE_DETAILS",
    "Details",
    "group_rates_view",
    "fair_rule_choice",
    "pooled_note",
    "costs_verdict",
    "criteria_help",
    "rule_meanings",
    "Sensitivity",
    "price_maps",
    "sensitivity",
    "sensitivity_key",
    "mistake_names",
    "prices_answer",
    "PricesAnswer",
    "prices_from_answers",
    "LoadedAnswer",
    "MappedUpload",
    "MappingChoices",
    "OpenedFile",
    "UploadAnswer",
    "aggregate_reader",
    "folder_reader",
    "loaded_answer",
    "mapped_upload",
    "mapping_choices",
    "opened_file",
    "positive_choice",
    "upload_answer",
]
