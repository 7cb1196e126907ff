"""Watch: is the cutoff we shipped still the right one?"""

import hashlib

import streamlit as st

from costlib import answers
from costlib.core.errors import DataError
from costlib.present import watch_words
from costlib.watch.periods import FREQS
from costlib.watch.sample import TITLE
from views._ui.display import page_header, say, show_error, show_table, show_verdict
from views._ui.memo import remember
from views._ui.page import unit_and_volume

page_header("Watch", watch_words.WATCH_WHAT)
unit, volume = unit_and_volume()


def _content(upload) -> tuple[bytes, str]:
    data = upload.getvalue()
    return data, hashlib.sha256(data).hexdigest()  # remembered by content, never by file name


c1, c2 = st.columns(2)
policy_upload = c1.file_uploader(answers.POLICY_LABEL, type=["json"], key="watch_policy")
cases_upload = c2.file_uploader(answers.CASES_LABEL, type=["csv", "parquet"], key="watch_cases")
source = ("sample",)
try:
    if policy_upload is None or cases_upload is None:
        policy, df = remember(("watch_sample",), answers.sample_inputs)
        name, columns = "the built-in year", dict(answers.SAMPLE_COLUMNS)
        say("info", answers.SAMPLE_NOTE.format(title=TITLE))
    else:
        p_data, p_key = _content(policy_upload)
        c_data, c_key = _content(cases_upload)
        policy = remember(("watch_policy", p_key), lambda: answers.read_policy(p_data))
        name = cases_upload.name
        df = remember(("watch_cases", c_key), lambda: answers.read_cases(c_data, name))
        source = (p_key, c_key)
        options = list(df.columns)
        s1, s2, s3, s4 = st.columns(4)
        columns = {
            "time": s1.selectbox("Date column", options, key="watch_time"),
            "score": s2.selectbox("Score column", options, key="watch_score"),
            "label": s3.selectbox("Outcome column", [answers.NO_COLUMN, *options], key="watch_label"),
            "group": s4.selectbox("Group column", [answers.NO_COLUMN, *options], key="watch_group"),
        }
        columns = {k: (None if v == answers.NO_COLUMN else v) for k, v in columns.items()}
    freq = st.columns([1, 3])[0].selectbox(
        "Periods", list(FREQS), format_func=lambda f: FREQS[f] + "s", key="watch_freq"
    )
    key = ("watch_answer", source, tuple(sorted(columns.items())), freq, unit, volume)
    answer = remember(
        key,
        lambda: answers.watch_answer(
            policy, df, name=name, columns=columns, freq=freq, n_resamples=500, unit=unit, volume=volume
        ),
    )
except DataError as err:
    show_error(err)
    st.stop()
except ValueError as err:  # a policy that does not fit the cases (a group without a cutoff): its sentence
    say("error", str(err))
    st.stop()

st.subheader("What to do")
show_verdict(answer.verdict)
st.plotly_chart(answer.figure, key="watch_chart")
show_table(answer.table, "watch_periods", key="watch_periods")

if any(p["alert"] for p in answer.report["periods"]) and columns.get("label"):
    st.subheader("Refit")
    st.caption(answers.REFIT_WHAT)
    if st.button(answers.REFIT_BUTTON, key="watch_refit") or st.session_state.get("_watch_refit") == key:
        st.session_state["_watch_refit"] = key
        text, sentence = remember(
            ("watch_refit", key),
            lambda: answers.refit_on_recent(policy, df, name=name, columns=columns, report=answer.report, unit=unit),
        )
        say("info", sentence)
        if text is not None:
            st.download_button(
                "Download the refitted policy (JSON)",
                data=text.encode(),
                file_name="cost_policy_refitted.json",
                mime="application/json",
                key="dl_watch_refit",
                on_click="ignore",
            )
