"""The answer of the Data page."""

from __future__ import annotations

from collections.abc import Sequence

from costlib.core.escaping import shorten


def classes_sentence(class_names: Sequence[str]) -> str:
    """'Classes: a, b, c' (each name `shorten`ed: a class is named by a column's name, as long as a header)."""
    return "Classes: " + ", ".join(shorten(n) for n in class_names)


def previous_upload_sentence(name: str, what: str = "file") -> str:
    """The upload `name` still in use after a new one failed (`what`: "file" or "data")."""
    return f"Your previous {what}, “{name}”, is still loaded."


def fix_offer(fix: str) -> str:
    """The tick box that applies a `DataError`'s fix."""
    return f"Fix it: {fix} (tick, then press “Use these columns” again)"


def data_folder_sentence(n_files: int) -> str:
    return f"Files in this server's data folder ({n_files}), read where they lie through DuckDB:"
