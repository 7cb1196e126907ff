"""The project's own error type for problems with a user's file or settings."""


class DataError(ValueError):
    """A problem with user data, stated as a sentence fit to show on the page.

    `message` names the file, the column and the first offending rows. `fix` is an
    optional short description of a stated rule that would repair it (for example
    "drop the 3 rows with a missing label"), offered to the user, never applied silently.
    `fix_action` says the same to a program: a fixed word naming the repair (see
    `costlib.loading.ACTIONS`), so a page maps the offer to its option by this word,
    never by the English text. It is None exactly when `fix` is None.
    """

    def __init__(
        self,
        message: str,
        *,
        fix: str | None = None,
        fix_action: str | None = None,
        column: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.fix = fix
        self.fix_action = fix_action
        self.column = column
