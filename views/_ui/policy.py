"""The audit's files: downloading the report and the policy, and restoring a downloaded policy
(its prices, unit, volume and questions back into the settings)."""

from __future__ import annotations

import streamlit as st

from costlib import answers
from costlib.answers.costs import audit_maker
from costlib.core.errors import DataError
from costlib.present import capacity_words, costs_labels, policy, report
from costlib.present.costs_labels import AUDIT_FILE_WORDS as FILES
from costlib.present.policy_restore import policy_settings, restore_refusal, restored_fields
from views._ui.display import data_title, download_name, say
from views._ui.limit import limit_setting
from views._ui.state import adopt, current

MESSAGE = "_policy_message"


def restore_policy(names: list, fingerprint: str) -> None:
    """The policy uploader's on_change: put the policy's prices, unit and volume back into the
    price book of the groups `names` (the data's fingerprint says whether the data is the same)."""
    upload = st.session_state.get("policy_upload")
    if upload is None:
        return
    try:
        saved = policy.load_policy(upload.getvalue())
        set_policy_prices(saved, names)
    except DataError as err:
        said = restore_refusal(err, upload.name, fingerprint=fingerprint, data_name=data_title())
        st.session_state[MESSAGE] = ("error", said)
        return
    st.session_state[MESSAGE] = ("success", answers.policy_restored_sentence(saved, fingerprint))


def set_policy_prices(saved: dict, names: list) -> None:
    """Make the settings those of the loaded policy `saved` for the groups `names`: its prices,
    unit, volume, price questions and review limit (`policy_settings`; DataError, nothing
    changed, when it lacks a group)."""
    base = current()
    adopt(policy_settings(saved, names, base), restored_fields(saved, base))


def session_limit(volume: float) -> tuple[int | None, float | None, bool]:
    """(the review limit in cases a month or None, then `capacity_words.limit_in_force` of it:
    as the share of the cases the answer reads or None, whether it covers every case) of this
    session's settings."""
    cap = limit_setting("review_limit")  # the cases a month the team can review (None: no limit)
    return cap, *capacity_words.limit_in_force(cap, volume)


def session_audit(models: dict, costs: dict, ds, *, unit, volume, cap):
    """`answers.costs.audit_maker` of this session's settings (`current`) at `costs` within the review
    limit `cap` (cases a month): what the downloads of Costs & groups build."""
    return audit_maker(models, costs, ds, current(), cap=cap, unit=unit, volume=volume)


def policy_uploader(where, names: list, fingerprint: str) -> None:
    """The "Restore a saved policy" popover, and what the last restore did."""
    with where.popover(FILES["restore"], width="stretch"):
        st.file_uploader(
            FILES["policy_upload"],
            type=["json"],
            key="policy_upload",
            on_change=restore_policy,
            args=(names, fingerprint),
        )
    if MESSAGE in st.session_state:
        kind, message = st.session_state.pop(MESSAGE)
        say(kind, message)


def written(make) -> bytes:
    """The file a download button hands over, made when it is pressed: `make()`'s text, or the
    sentence of the `DataError` that refused it (a policy its own reader would refuse: group
    names over 500 characters, more groups or bytes than a policy may hold), so the person gets
    the reason in the file instead of a download that fails without a word."""
    try:
        return make().encode()
    except DataError as exc:
        return str(exc).encode()


def fair_policy_download(build, rules: dict, questions) -> None:
    """A picker of one fairness rule and the download of its policy (`build` makes the audit);
    `rules` maps each rule to whether its gap stays within the tolerance on the test rows."""
    c1, c2 = st.columns([2, 1], vertical_alignment="bottom")
    rule = c1.selectbox(
        FILES["fair_rule"],
        list(rules),
        format_func=lambda r: answers.fair_rule_choice(r, rules[r]),
        key="fair_policy_rule",
        help=costs_labels.FAIR_POLICY_HELP,
    )
    c2.download_button(
        FILES["fair_download"],
        data=lambda: written(lambda: policy.policy_json(build(), rule, price_questions=questions)),
        file_name=download_name(FILES["fair_file"]),
        mime="application/json",
        key="dl_fair_policy",
        on_click="ignore",
    )


LIVE_AUDIT = "_costs_audit"
"""Session-state key of the audit the Costs answer last showed: ``{"build": ..., "questions": ...}``,
updated in place on every price move, so that download buttons drawn outside the part that
reruns with the prices still build the report of the prices on screen when pressed."""


def downloads(live: dict) -> None:
    """The report and the policy of the audit ``live["build"]`` makes (`LIVE_AUDIT`), built only
    when a button is pressed, from what `live` holds then (one reading of it: a price move may
    update it meanwhile). The page draws these only while there is an answer: a move to every
    price at 0 reruns it without them; pressed in that instant, the file says why it is empty."""

    def made(make):
        def data() -> bytes:
            now = dict(live)
            return written(lambda: make(now)) if "build" in now else costs_labels.ALL_PRICES_ZERO.encode()

        return data

    with st.container(horizontal=True):
        st.download_button(
            FILES["report_download"],
            data=made(lambda now: report.audit_html(now["build"]())),
            file_name=download_name(FILES["report_file"]),
            mime="text/html",
            key="dl_report",
            on_click="ignore",
            width="stretch",
        )
        st.download_button(
            FILES["policy_download"],
            data=made(lambda now: policy.policy_json(now["build"](), price_questions=now["questions"])),
            file_name=download_name(FILES["policy_file"]),
            mime="application/json",
            key="dl_policy",
            on_click="ignore",
            width="stretch",
        )
