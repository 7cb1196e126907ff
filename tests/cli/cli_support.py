"""What the command-line tests share: running ``costlib`` in this process."""

from __future__ import annotations

from costlib.__main__ import main


def run_main(capsys, *args: str) -> tuple[int, str, str]:
    """(exit status, standard output, standard error) of ``costlib ARGS`` run in this process."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err
