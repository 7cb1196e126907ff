"""Command line: ``costlib COMMAND ...`` (or ``python -m costlib COMMAND ...``), with the commands
``audit``, ``train``, ``aggregate``, ``watch``, ``apply``, ``sign`` and ``dashboard``.

This module only builds the parser and dispatches: each command lives in its own module
(`costlib.cli.audit`, `costlib.cli.train`, `costlib.cli.aggregate`, `costlib.cli.watch`,
`costlib.cli.apply`, `costlib.cli.sign`, `costlib.cli.dashboard`), which registers its
arguments (``add_parser``) and runs them (``run``). Exit codes: those of the command; 2 for
bad arguments or no command (argparse's usage message on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from costlib.cli import audit as cli_audit
from costlib.cli import train as cli_train

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own usage errors: exit 2, no traceback
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def program() -> str:
    """How the command was started: ``costlib`` (the console command pip installs) or
    ``python -m costlib``."""
    return "costlib" if os.path.basename(sys.argv[0] or "") == "costlib" else "python -m costlib"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=program(), description="costlib: what a classifier's mistakes cost.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    cli_train.add_parser(sub)
    cli_audit.add_parser(sub)
    from costlib.cli import aggregate, apply, dashboard, sign, watch

    aggregate.add_parser(sub)
    watch.add_parser(sub)
    apply.add_parser(sub)
    sign.add_parser(sub)
    dashboard.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["dashboard"] and not {"-h", "--help"} & set(argv[1:]):  # Streamlit's flags, passed through
        from costlib.cli import spread

        return spread.main(argv[1:])  # one server, or --processes N behind the balancer
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "train":
        return cli_train.run(args)
    if args.command == "aggregate":
        from costlib.cli import aggregate

        return aggregate.run(args)
    if args.command == "watch":
        from costlib.cli import watch

        return watch.run(args)
    if args.command == "apply":
        from costlib.cli import apply

        return apply.run(args)
    if args.command == "sign":
        from costlib.cli import sign

        return sign.run(args)
    if args.command != "audit":
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    return cli_audit.run(args)


if __name__ == "__main__":
    sys.exit(main())
