"""Moved to `costlib.present.training_words` (what a person reads lives in `costlib.present`).

Re-exported here only for the importers not moved yet (``views/train.py``,
``views/_ui/training.py``, ``costlib/answers/training.py``, which import the module): delete
this module once they import ``costlib.present.training_words``.
"""

from costlib.present.training_words import (  # noqa: F401 (re-exported for the importers above)
    CHOOSE_A_METHOD,
    COLUMN_WORDS,
    METHOD_LABELS,
    PRESS_TRAIN,
    R2_NONE,
    R2_SOME,
    UPLOAD_TO_TRAIN,
    data_sentence,
    method_label,
    percents,
    precomputed_sentence,
    predictability_sentence,
    progress_sentence,
    result_notes,
    signed_percents,
    stopped_sentence,
    synthetic_description,
    timing_sentence,
    training_verdict,
)
