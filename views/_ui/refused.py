"""The one error box of a refused upload, wherever it was refused (the Data page, Watch, Train with
costs): the refusal's own words, then that the file was not loaded, what is still in use and what
to do (`labels.not_loaded_sentence`: "… is still loaded"), so that a bad second upload is said alike
on every page that keeps the earlier one."""

from __future__ import annotations

from costlib.core.escaping import display_name
from costlib.present import labels as t
from views._ui.display import say


def say_not_loaded(
    message: str,
    name: str,
    *,
    previous: str | None = None,
    sample: str | None = None,
    stage: str = "columns",
    fix: bool = False,
) -> None:
    """The refusal `message` of the upload `name` in an error box, followed by that it was not loaded,
    the `previous` upload still in use (else the built-in `sample`, else nothing said) and what to do.
    `stage`: "file" (it could not be read, or what was read was refused) or "columns" (the columns
    chosen were refused); `fix`: the refusal offers a fix to tick. The file names are shown as
    `escaping.display_name` makes them (the same for a name made so already)."""
    previous = None if previous is None else display_name(previous)
    words = t.not_loaded_sentence(display_name(name), previous=previous, sample=sample, stage=stage, fix=fix)
    say("error", f"{message} {words}")
