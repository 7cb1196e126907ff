"""The reviewer's sign-off: who approved (or rejected) a policy, when, and a seal that shows the
policy has not changed since.

``costlib sign POLICY --reviewer NAME --decision approve|reject [--note TEXT]`` (`sign_policy`)
writes the reviewer's name, the date (UTC, ISO 8601), the decision and the note into the policy's
``"review"`` record and seals the whole policy with a keyed hash, written as its ``"seal"``
record::

    "seal": {"method": "HMAC-SHA256", "key_id": "<16 hex>", "digest": "<64 hex>"}

``digest`` is HMAC-SHA256, keyed by the secret in the environment variable `KEY_ENV`, of the
policy's canonical form (`canonical`): its parsed JSON without the ``"seal"`` field, keys
sorted, separators ``","`` and ``":"``, every character outside ASCII escaped, so that the
same policy seals alike however it was indented. ``key_id`` is a keyed hash of a fixed text
(it tells a policy sealed with another key from one altered after signing, and shows nothing
of the key). The key itself is never written.

The serving side (``costlib apply``, ``costlib watch``, `policy_estimator` and
`PolicyClassifier`) reads a policy through `check_sign_off`, which refuses, each with its own
sentence, a policy that is unsigned, rejected, altered after signing, sealed with another key,
or signed while the key to check it is not set. ``--allow-unsigned`` (``allow_unsigned=True``)
accepts a policy whose sign-off cannot be checked, and only that: one with no seal, or a
sealed one while `KEY_ENV` is unset. A policy whose review says "reject", whose seal does not
match it, or that was sealed with another key is refused whatever the flag: the record says
nobody may use it, and stripping its seal (which makes it unsigned) is a visible, deliberate act.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import json
import os
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from costlib.core.errors import DataError
from costlib.loading.messages import q

KEY_ENV = "COSTLIB_SIGNING_KEY"
MIN_KEY_BYTES = 32
SEAL_FIELD = "seal"
SEAL_METHOD = "HMAC-SHA256"
DECISIONS = ("approve", "reject")
_KEY_ID_TEXT = b"costlib policy signing key id"

#: the states of a policy's sign-off (`SignOff.state`); only "signed" is accepted without
#: allow_unsigned, and allow_unsigned adds only `UNCHECKABLE`
SIGNED, UNSIGNED, UNCHECKED, REJECTED, ALTERED, OTHER_KEY = (
    "signed",
    "unsigned",
    "unchecked",
    "rejected",
    "altered",
    "other key",
)
UNCHECKABLE = (UNSIGNED, UNCHECKED)

NEW_KEY = 'python -c "import secrets; print(secrets.token_hex(32))"'
MSG_NO_KEY_TO_SIGN = (
    "To sign a policy, set the environment variable " + KEY_ENV + " to a secret of at least "
    f"{MIN_KEY_BYTES} bytes (for example what {NEW_KEY} prints), the one the serving side checks "
    "policies with; nothing was signed."
)
MSG_SHORT_KEY = (
    "The environment variable " + KEY_ENV + " holds a key of {n} bytes; a signing key needs at least "
    f"{MIN_KEY_BYTES} (for example what {NEW_KEY} prints): no policy is signed or checked with it."
)
ALLOW = "--allow-unsigned on the command line, allow_unsigned=True in Python"
SIGN_COMMAND = "costlib sign POLICY --reviewer NAME --decision approve|reject [--note TEXT]"
"""How a reviewer signs a policy file (`costlib.cli.sign`), as the report tells them."""
MSG_UNSIGNED = (
    "{what} is not signed: no reviewer has signed off on it. Have it signed (costlib sign POLICY --reviewer "
    "NAME --decision approve), or use it unsigned knowingly ({allow})."
)
MSG_UNCHECKED = (
    "{what} was signed by {reviewer} on {date}, but its seal cannot be checked: the environment variable "
    + KEY_ENV
    + " is not set. Set it to the key the policy was signed with, or use it unchecked knowingly ({allow})."
)
MSG_SIGNED = "{what} was approved by {reviewer} on {date}, and its seal matches."
#: what a policy used under allow_unsigned says of itself (apply's and watch's note, the Watch page)
USED_UNCHECKED = {
    UNSIGNED: "{what} is not signed: no reviewer has signed off on it; it is used because unsigned use was allowed "
    "(--allow-unsigned, allow_unsigned=True).",
    UNCHECKED: "{what} was signed by {reviewer} on {date}, but its seal was not checked (" + KEY_ENV + " is not set); "
    "it is used because unsigned use was allowed (--allow-unsigned, allow_unsigned=True).",
}
MSG_REJECTED = (
    "{what} was rejected by {reviewer} on {date}{note}: it is not used, with or without --allow-unsigned. "
    "Audit again and have the new policy signed."
)
MSG_ALTERED = (
    "{what} was changed after {reviewer} signed it on {date}: its seal does not match its content{detail}. It is "
    "not used, with or without --allow-unsigned: use the file as it was signed, or have this one signed again."
)
MSG_OTHER_KEY = (
    "{what} was sealed with another key than the one in " + KEY_ENV + " (signed by {reviewer} on {date}): its "
    "sign-off cannot be trusted here, and it is not used, with or without --allow-unsigned. Set the key it was "
    "signed with, or have it signed with this one."
)
MSG_NOT_A_RECORD = "{what} is JSON but not a policy: it is a {kind}, not a record of fields."
MSG_NOT_JSON = "{what} cannot be sealed or checked: it is not JSON (a NaN or infinite number, or an object)."
MSG_TEXT = "{flag} must be text of 1 to {most} characters without control characters (line breaks, escapes): got {got}."
MSG_DECISION = '--decision must be "approve" or "reject": got {got}.'
MSG_NOT_SIGNED_AGAIN = "{sentence} Nothing was signed."

#: the most characters of a reviewer's name and of a note: the policy reader's bound on a text
#: (`costlib.present.policy_fields.MAX_TEXT`), so that what is signed is what is read back
MAX_NOTE = 500


@dataclass(frozen=True)
class SignOff:
    """A policy's sign-off as checked: its `state` (one of `SIGNED`, `UNSIGNED`, `UNCHECKED`,
    `REJECTED`, `ALTERED`, `OTHER_KEY`), the review record's fields (None when absent) and
    `sentence`, which says the state in words (the refusal itself for a refused state)."""

    state: str
    sentence: str
    reviewer: str | None = None
    date: str | None = None
    decision: str | None = None
    note: str | None = None

    @property
    def accepted(self) -> bool:
        """Whether the policy may be used without allow_unsigned: signed, approved, seal checked."""
        return self.state == SIGNED

    def record(self) -> dict:
        """The sign-off as JSON-ready data (what apply's and watch's ``--json`` report)."""
        return {
            "state": self.state,
            "sentence": self.sentence,
            "reviewer": self.reviewer,
            "date": self.date,
            "decision": self.decision,
            "note": self.note,
        }


def signing_key(*, required: bool) -> bytes | None:
    """The key in `KEY_ENV`, as UTF-8 bytes; None when it is unset or empty and not `required`.

    Raises
    ------
    DataError
        `MSG_NO_KEY_TO_SIGN` when `required` and it is unset; `MSG_SHORT_KEY` when it is set to
        fewer than `MIN_KEY_BYTES` bytes (a key that short is refused for checking too).
    """
    text = os.environ.get(KEY_ENV, "")
    if not text:
        if required:
            raise DataError(MSG_NO_KEY_TO_SIGN)
        return None
    key = text.encode("utf-8", "surrogateescape")
    if len(key) < MIN_KEY_BYTES:
        raise DataError(MSG_SHORT_KEY.format(n=len(key)))
    return key


def canonical(policy: Mapping, what: str = "This policy") -> bytes:
    """The bytes a seal is computed over: `policy` (parsed JSON) without its ``"seal"`` field,
    keys sorted, separators ``","`` and ``":"``, non-ASCII characters escaped (``\\uXXXX``).

    >>> canonical({"seal": {"digest": "x"}, "b": [1, 2.5], "a": "é"})
    b'{"a":"\\\\u00e9","b":[1,2.5]}'
    """
    body = {k: v for k, v in policy.items() if k != SEAL_FIELD}
    try:
        return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode()
    except (TypeError, ValueError, RecursionError):
        raise DataError(MSG_NOT_JSON.format(what=what)) from None


def key_id(key: bytes) -> str:
    """Sixteen hex digits that name `key` without showing it (a keyed hash of a fixed text)."""
    return hmac.new(key, _KEY_ID_TEXT, hashlib.sha256).hexdigest()[:16]


def seal_digest(policy: Mapping, key: bytes, what: str = "This policy") -> str:
    """HMAC-SHA256 of `canonical` (`policy`) under `key`, as 64 hex digits."""
    return hmac.new(key, canonical(policy, what), hashlib.sha256).hexdigest()


def _hex(x, n: int) -> bool:
    return isinstance(x, str) and len(x) == n and all(ch in "0123456789abcdef" for ch in x)


def _review(policy: Mapping) -> dict:
    r = policy.get("review")
    r = r if isinstance(r, Mapping) else {}
    return {k: r.get(k) if isinstance(r.get(k), str) else None for k in ("reviewer", "date", "decision", "note")}


def _who(x: str | None) -> str:
    return q(x, 80) if x else "(no name)"


def sign_off(policy: Mapping, *, what: str = "This policy", key: bytes | None = None) -> SignOff:
    """The sign-off of `policy` (its parsed JSON), checked with `key` (default: `signing_key`,
    None when `KEY_ENV` is unset). `what` names the policy in the sentence ("The policy
    "p.json"")."""
    if key is None:
        key = signing_key(required=False)
    r = _review(policy)
    fields = {"reviewer": _who(r["reviewer"]), "date": q(r["date"], 40) if r["date"] else "(no date)"}
    note = f" (note: {q(r['note'], 120)})" if r["note"] else ""

    def state(name: str, template: str, **extra) -> SignOff:
        sentence = template.format(what=what, allow=ALLOW, note=note, **fields, **extra)
        return SignOff(name, sentence, **r)

    seal = policy.get(SEAL_FIELD)
    if seal is None:
        if r["decision"] == "reject":
            return state(REJECTED, MSG_REJECTED)
        return state(UNSIGNED, MSG_UNSIGNED)
    if not (
        isinstance(seal, Mapping)
        and seal.get("method") == SEAL_METHOD
        and _hex(seal.get("key_id"), 16)
        and _hex(seal.get("digest"), 64)
    ):
        return state(ALTERED, MSG_ALTERED, detail=f' (its "seal" is not a {SEAL_METHOD} seal)')
    if key is None:
        if r["decision"] == "reject":
            return state(REJECTED, MSG_REJECTED)
        return state(UNCHECKED, MSG_UNCHECKED)
    if not hmac.compare_digest(seal["key_id"], key_id(key)):
        return state(OTHER_KEY, MSG_OTHER_KEY)
    if not hmac.compare_digest(seal["digest"], seal_digest(policy, key, what)):
        return state(ALTERED, MSG_ALTERED, detail="")
    if r["decision"] != "approve":
        return state(REJECTED, MSG_REJECTED)
    return state(SIGNED, MSG_SIGNED)


def check_sign_off(policy: Mapping, *, allow_unsigned: bool, what: str = "This policy") -> SignOff:
    """`sign_off` of `policy`, or DataError with its sentence unless it is accepted: signed
    and approved with a matching seal, or (only with `allow_unsigned`) one whose sign-off
    cannot be checked (`UNCHECKABLE`: unsigned, or sealed while the key is unset)."""
    s = sign_off(policy, what=what)
    if s.accepted:
        return s
    if allow_unsigned and s.state in UNCHECKABLE:
        return allowed(s, what)
    raise DataError(s.sentence)


def allowed(s: SignOff, what: str = "This policy") -> SignOff:
    """`s` (unsigned or unchecked) as used under allow_unsigned: its sentence says so
    (`USED_UNCHECKED`) instead of asking for a signature."""
    import dataclasses

    who = {"reviewer": _who(s.reviewer), "date": q(s.date, 40) if s.date else "(no date)"}
    return dataclasses.replace(s, sentence=USED_UNCHECKED[s.state].format(what=what, **who))


def checked_text(data: bytes | str, *, allow_unsigned: bool, what: str = "This policy") -> SignOff:
    """`check_sign_off` of a policy file's text (parsed as the policy reader parses it; the
    reader's sentences for text that is not a policy come from reading it, which callers do
    first)."""
    from costlib.present.policy_fields import parse_text

    parsed = parse_text(data)
    if not isinstance(parsed, Mapping):
        raise DataError(MSG_NOT_A_RECORD.format(what=what, kind=type(parsed).__name__))
    return check_sign_off(parsed, allow_unsigned=allow_unsigned, what=what)


def policy_name(path) -> str:
    """'The policy "NAME"' of a policy file's path, for the sentences."""
    from costlib.core.escaping import display_name

    return f"The policy {q(display_name(os.path.basename(os.fspath(path))), 80)}"


def check_text(value, flag: str, *, most: int, breaks: bool = False) -> str:
    """`value` as a short text to sign (a name, a note): 1 to `most` characters, no control
    characters (line breaks and tabs too, unless `breaks`), no lone surrogates; DataError."""
    ok = isinstance(value, str) and len(value.strip()) > 0 and len(value) <= most
    if ok:
        allowed = {"\n", "\t"} if breaks else set()
        ok = not any(
            (unicodedata.category(ch) == "Cc" and ch not in allowed) or 0xD800 <= ord(ch) <= 0xDFFF for ch in value
        )
    if not ok:
        got = f"{len(value):,} characters" if isinstance(value, str) and len(value) > most else q(value, 60)
        raise DataError(MSG_TEXT.format(flag=flag, most=most, got=got))
    return value.strip()


def file_text(policy: Mapping) -> str:
    """`policy` (a policy file's parsed JSON, changed) as the text of its file: indented JSON, as
    `costlib.present.policy.policy_json` writes it, read back by `load_policy` before it is
    returned (the bytes, as a file is read), so that what is written is never what the reader
    refuses."""
    from costlib.present.policy import load_policy

    text = json.dumps(policy, indent=2, allow_nan=False, ensure_ascii=False) + "\n"
    load_policy(text.encode("utf-8"))
    return text


def sign_policy(
    text: bytes | str,
    *,
    reviewer: str,
    decision: str,
    note: str | None = None,
    what: str = "This policy",
    now: _dt.datetime | None = None,
) -> str:
    """A policy file's text, signed: its ``"review"`` record filled in and its ``"seal"``
    computed with the key in `KEY_ENV`.

    Parameters
    ----------
    text : bytes or str
        The policy file's content (as written by ``audit --policy`` or the Costs page).
    reviewer : str
        Who signs: 1 to `MAX_NOTE` characters, no control characters.
    decision : {"approve", "reject"}
        What they decided. A rejected policy is sealed too, so that nobody can turn it into an
        approved one unnoticed; the serving side refuses it.
    note : str, optional
        Why, in a few words (line breaks allowed); at most `MAX_NOTE` characters.
    what : str
        How the sentences name the policy.
    now : datetime, optional
        The time of signing (default: now); written in UTC, to the second.

    Returns
    -------
    str
        The signed policy as indented JSON, read back by the policy reader and its seal checked
        before it is returned (what is written is what the serving side accepts or refuses as
        decided).

    Raises
    ------
    DataError
        With a sentence: no key or a short one, a reviewer, decision or note that is not one,
        text that is not a policy file, or a policy already sealed that was altered since or
        sealed with another key (signing it again would bless the change).
    """
    from costlib.present.policy import load_policy
    from costlib.present.policy_fields import MAX_TEXT, parse_text

    key = signing_key(required=True)
    if decision not in DECISIONS:
        raise DataError(MSG_DECISION.format(got=q(decision)))
    reviewer = check_text(reviewer, "--reviewer", most=MAX_TEXT)
    note = None if note is None else check_text(note, "--note", most=MAX_NOTE, breaks=True)
    load_policy(text)  # a policy file, checked whole, before anything is signed
    policy = parse_text(text)
    if SEAL_FIELD in policy:
        before = sign_off(policy, what=what, key=key)
        if before.state in (ALTERED, OTHER_KEY):
            raise DataError(MSG_NOT_SIGNED_AGAIN.format(sentence=before.sentence))
    when = (now or _dt.datetime.now(_dt.UTC)).astimezone(_dt.UTC).isoformat(timespec="seconds")
    review = {"reviewer": reviewer, "date": when, "decision": decision, "note": note}
    out: dict = {}
    for k, v in policy.items():  # the file's order, the review in its place and the seal after it
        if k == SEAL_FIELD:
            continue
        out[k] = review if k == "review" else v
        if k == "review":
            out[SEAL_FIELD] = None
    out.setdefault("review", review)
    out[SEAL_FIELD] = {"method": SEAL_METHOD, "key_id": key_id(key), "digest": seal_digest(out, key, what)}
    signed = file_text(out)
    back = sign_off(parse_text(signed), what=what, key=key)
    assert back.state in (SIGNED, REJECTED), back.sentence  # noqa: S101 - the seal of what was just written
    return signed
