"""The Watch page under review 4's hostile uploads, headless: a policy fitted on another score
column is asked about, never watched silently; a stray outcome cell is named by its rows; a bad
second upload leaves the last good policy and cases in use, said under its refusal; a cutoff
probabilities never reach is said."""

from __future__ import annotations

import io
import json

import pandas as pd

from costlib.answers.watch import sample_files
from tests.views.apptest_support import assert_no_exception, open_app, texts, unescape


def _box(at) -> list[str]:
    """The page's one answer (its headline), if it shows one."""
    return [
        unescape(x.value)
        for x in (*at.success, *at.warning, *at.error)
        if x.value.startswith(("Keep", "Refit", "Check the model"))
    ]


def _files():
    files = sample_files()
    return files.policy, files.cases


def _upload(at, policy: bytes | None = None, cases: bytes | None = None, *, p_name="p.json", c_name="c.csv"):
    if policy is not None:
        at.file_uploader(key="watch_policy").upload(p_name, policy, "application/json").run()
    if cases is not None:
        at.file_uploader(key="watch_cases").upload(c_name, cases, "text/csv").run()
    assert_no_exception(at)
    return at


def _other_score(policy: bytes) -> bytes:
    data = json.loads(policy)
    data["model"] = data["data"]["score"] = "zzz_score"
    return json.dumps(data).encode()


def test_a_policy_fitted_on_another_score_column_is_asked_about_not_watched_on_the_files_score():
    policy, cases = _files()
    at = _upload(open_app("compas", "views/watch.py"), _other_score(policy), cases)
    said = texts(at)
    # before: the answer on the file's "score", and "zzz" nowhere on the page
    assert 'The policy was fitted on the score column "zzz_score", and "c.csv" has no such column' in said
    assert '(its columns: "decided", "score", "outcome", "region")' in said
    assert at.selectbox(key="watch_score").value is None and not _box(at) and not at.get("plotly_chart")
    at.selectbox(key="watch_score").set_value("score").run()  # picked by the person: watched, and said so
    assert_no_exception(at)
    assert _box(at) and 'Its cutoff is watched on "score", as chosen under' in texts(at)


def _stray_outcomes(cases: bytes) -> bytes:
    df = pd.read_csv(io.BytesIO(cases), dtype=str, keep_default_na=False)
    df["outcome"] = df["outcome"].astype(object)
    df.loc[5, "outcome"], df.loc[9, "outcome"] = "2", "yes"  # file rows 7 and 11 (the header is row 1)
    return df.to_csv(index=False).encode()


def test_a_stray_outcome_cell_is_named_by_its_row_when_the_guess_leaves_the_outcome_out():
    policy, cases = _files()
    at = _upload(open_app("compas", "views/watch.py"), policy, _stray_outcomes(cases))
    assert at.selectbox(key="watch_label").value == "(none)"
    said = texts(at)
    assert "No column was taken as the outcome:" in said  # before: nothing said
    assert 'rows 7 and 11 ("2", "yes")' in said
    at.selectbox(key="watch_label").set_value("outcome").run()  # picked by hand: the refusal names the rows
    assert any('rows 7 and 11 ("2", "yes")' in unescape(e.value) for e in at.error)


def test_a_bad_second_upload_leaves_the_good_policy_and_cases_in_use_and_says_so():
    policy, cases = _files()
    at = _upload(open_app("compas", "views/watch.py"), policy, cases, p_name="good.json", c_name="good.csv")
    headline = _box(at)
    assert headline and at.get("plotly_chart")
    _upload(at, b"[1, 2, 3]", p_name="p_list.json")
    errors = [unescape(e.value) for e in at.error]
    assert any("p_list.json" in e and "Your previous file, “good.json”, is still loaded." in e for e in errors), errors
    assert _box(at) == headline and at.get("plotly_chart")  # before: the refusal alone
    at.file_uploader(key="watch_policy").clear().run()  # the bad file removed: the good policy, not a request for one
    assert_no_exception(at)
    assert _box(at) == headline and "Your previous file, “good.json”, is still loaded." in texts(at)
    _upload(at, cases=b"", c_name="c_empty.csv")
    errors = [unescape(e.value) for e in at.error]
    assert any("c_empty.csv" in e and "Your previous file, “good.csv”, is still loaded." in e for e in errors), errors
    assert _box(at) == headline and at.get("plotly_chart")


def _cutoff(policy: bytes, cutoff: float) -> bytes:
    data = json.loads(policy)
    for row in data["thresholds"]:
        row["threshold"] = cutoff
    data["pooled_cutoff"] = cutoff
    return json.dumps(data).encode()


def test_a_cutoff_no_probability_reaches_is_said_and_still_watched():
    policy, cases = _files()
    at = _upload(open_app("compas", "views/watch.py"), _cutoff(policy, 1e308), cases)
    warnings = [unescape(x.value) for x in at.warning]
    assert any("flags nobody: its scores are probabilities, from 0 to 1" in x for x in warnings), warnings
    assert _box(at)  # a valid policy: watched all the same


def test_a_score_cell_of_thirty_million_digits_is_named_not_chosen_as_the_date_too():
    policy, _ = _files()
    huge = b"decided,score,outcome,region\n2026-01-01," + b"9" * 100_000 + b",1,north\n"
    at = _upload(open_app("compas", "views/watch.py"), policy, huge)
    assert at.selectbox(key="watch_score").value != "decided"  # before: "decided" for both, and the page blamed it
    said = [unescape(x.value) for x in (*at.error, *at.info)]
    assert any('column "score"' in x and "row 2" in x and len(x) < 400 for x in said), said
    assert not any("is chosen for both" in x for x in said)
