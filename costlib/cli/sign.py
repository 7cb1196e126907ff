"""``costlib sign POLICY --reviewer NAME --decision approve|reject [--note TEXT] [--out SIGNED.json]``:
a reviewer's sign-off on a policy file (`costlib.present.signing.sign_policy`).

Records the reviewer's name, the date (UTC) and the decision (and the note) in the policy's
``"review"`` and seals the whole policy with HMAC-SHA256 keyed by the secret in the environment
variable COSTLIB_SIGNING_KEY (at least 32 bytes), which ``apply``, ``watch`` and
``policy_estimator`` check before they use the policy. The signed policy replaces POLICY (written
whole to a temporary file and renamed into place: never half), or goes to ``--out``. Exit 0
when signed, 2 for bad input (no key, a policy that is not one, or one altered since it was last
signed: nothing is written then).
"""

from __future__ import annotations

import argparse
import sys

from costlib.core.errors import DataError

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Register the ``sign`` command on `subparsers` (an argparse subparsers action)."""
    from costlib.present.signing import DECISIONS

    p = subparsers.add_parser(
        "sign",
        help="a reviewer's sign-off on a policy: name, date, decision, and a seal apply and watch check",
        description=__doc__.split("\n\n")[1],
    )
    p.add_argument(
        "policy", metavar="POLICY", help="the policy file (JSON) written by audit --policy or the Costs page"
    )
    p.add_argument("--reviewer", required=True, metavar="NAME", help="who signs off")
    p.add_argument("--decision", required=True, choices=DECISIONS, help="approve (it may be used) or reject")
    p.add_argument("--note", metavar="TEXT", help="why, in a few words")
    p.add_argument("--out", metavar="SIGNED.json", help="write the signed policy here instead of replacing POLICY")
    return p


def sign(args) -> tuple[str, bool, str]:
    """Sign ``args.policy`` and write it: (the path written, whether a file was replaced, the
    sign-off's sentence)."""
    from costlib import loading
    from costlib.cli.outputs import check_outputs, write_text
    from costlib.present.policy_fields import MAX_BYTES, parse_text
    from costlib.present.signing import policy_name, sign_off, sign_policy

    if args.out:
        check_outputs([args.policy], {"--out": args.out})
    data = loading.read_path(args.policy, max_bytes=MAX_BYTES, table=False)[0]
    what = policy_name(args.policy)
    text = sign_policy(data, reviewer=args.reviewer, decision=args.decision, note=args.note, what=what)
    path, flag = (args.out, "--out") if args.out else (args.policy, "POLICY")
    replaced = write_text(path, flag, text)
    return path, replaced, sign_off(parse_text(text), what=what).sentence


def run(args) -> int:
    """Run ``sign``; print what was signed and where it was written; return the exit status."""
    from costlib.cli.outputs import written
    from costlib.cli.refusals import refusal

    try:
        path, replaced, sentence = sign(args)
    except DataError as exc:
        print(refusal(exc, {}), file=sys.stderr)
        return EXIT_BAD_INPUT
    print(sentence)
    print(written("Signed policy", path, replaced))
    return EXIT_OK
