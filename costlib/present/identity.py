"""Which model an audit judged: an identity the user gives (``--model-id TEXT``: a registry
name, a version, a run id) and the sha256 of its artifact (``--model-file PATH``), besides the
name of the score column it wrote.

The artifact is hashed as bytes, in chunks (`costlib.loading.file_fingerprint`): it is never
loaded, unpickled or run. The identity is hostile text like any other: 1 to `MAX_MODEL_ID`
characters, no control characters (line breaks, terminal escapes), no lone surrogates,
refused with a sentence otherwise (never cut: a cut name could become another model's). A
policy records both as its ``"model_identity"`` record, beside ``"model"`` (the score column)::

    "model_identity": {"id": "churn-gbm v3", "file": "model.pkl", "sha256": "<64 hex>"}
"""

from __future__ import annotations

import os

from costlib.core.errors import DataError
from costlib.loading.messages import q

#: the policy reader's bound on a text (`costlib.present.policy_fields.MAX_TEXT`)
MAX_MODEL_ID = 500
FIELD = "model_identity"

MSG_MODEL_ID = (
    "--model-id must name the model in 1 to {most} characters without control characters (line breaks, "
    "escapes): got {got}."
)
MSG_MODEL_FILE = "--model-file {path} is not a file that can be read ({why}): give the model's saved file."


def model_id_text(text) -> str:
    """`text` as a model's identity (stripped), or DataError `MSG_MODEL_ID`.

    >>> model_id_text("  churn-gbm v3 ")
    'churn-gbm v3'
    """
    from costlib.present.signing import check_text

    try:
        return check_text(text, "--model-id", most=MAX_MODEL_ID)
    except DataError:
        got = f"{len(text):,} characters" if isinstance(text, str) and len(text) > MAX_MODEL_ID else q(text, 60)
        raise DataError(MSG_MODEL_ID.format(most=MAX_MODEL_ID, got=got)) from None


def model_identity(*, model_id: str | None = None, model_file: str | os.PathLike | None = None) -> dict | None:
    """The record of which model was judged: ``{"id", "file", "sha256"}`` (None where not
    given), or None when neither is given.

    Parameters
    ----------
    model_id : str, optional
        The identity the user gives (checked by `model_id_text`).
    model_file : str or os.PathLike, optional
        The model's saved file: its name and the sha256 of its bytes (read in chunks, never
        loaded).

    Raises
    ------
    DataError
        `MSG_MODEL_ID` or `MSG_MODEL_FILE`, with a sentence.
    """
    if model_id is None and model_file is None:
        return None
    from costlib.core.escaping import display_name
    from costlib.loading.reading import file_fingerprint

    out = {"id": None if model_id is None else model_id_text(model_id), "file": None, "sha256": None}
    if model_file is not None:
        path = os.fspath(model_file)
        shown = q(path, 80)
        if not os.path.exists(path):
            raise DataError(MSG_MODEL_FILE.format(path=shown, why="there is no such file"))
        if not os.path.isfile(path):
            raise DataError(MSG_MODEL_FILE.format(path=shown, why="it is not a regular file"))
        digest = file_fingerprint(path)
        if not digest:
            raise DataError(MSG_MODEL_FILE.format(path=shown, why="it could not be read"))
        out["file"] = display_name(os.path.basename(path))
        out["sha256"] = digest
    return out


def identity_text(identity: dict) -> str:
    """The model's identity in words: its id, and its file with the file's sha256 (the report's
    record table, and `identity_line`)."""
    parts = []
    if identity.get("id"):
        parts.append(q(identity["id"], MAX_MODEL_ID))
    if identity.get("sha256"):
        parts.append(f"file {q(identity['file'], 80)}, sha256 {identity['sha256']}")
    return "; ".join(parts)


def identity_line(identity: dict | None) -> str | None:
    """The model's identity in one line of text (the audit's printout), or None."""
    return None if identity is None else f"Model: {identity_text(identity)}."
