"""The Watch page, headless: the built-in year on a first visit, a policy and newer cases
uploaded, and bad files refused with a sentence."""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from costlib import answers
from costlib.answers.audit import build_audit
from costlib.answers.watch import shipped_policy
from costlib.binary import decision as D
from costlib.present import watch_labels, watch_words
from costlib.present.amounts import month_money
from costlib.present.costs_labels import MODEL_COST
from costlib.present.policy import policy_json
from costlib.present.watch_words import watch_verdict
from costlib.watch.report import watch_report
from costlib.watch.sample import watch_year
from tests.views.apptest_support import assert_no_exception, keep_downloads, metric, open_app, texts, unescape


def _box(at) -> str:
    boxes = [
        unescape(x.value)
        for x in (*at.success, *at.warning, *at.error)
        if x.value.startswith(("Keep", "Refit", "Check the model"))
    ]
    assert len(boxes) == 1, boxes
    return boxes[0]


def test_the_built_in_year_says_refit_from_the_month_of_the_shift():
    at = open_app("compas", "views/watch.py")
    report = watch_report(
        shipped_policy(), watch_year(), name="the built-in year", n_resamples=500, **answers.SAMPLE_COLUMNS
    )
    want = watch_verdict(report, unit="$", volume=10000)  # the sidebar's cases a month, named (review 140)
    assert _box(at) == want.headline
    assert want.headline.startswith("Refit: since 2026-07")
    assert "watch_chart" in {c.key for c in at.get("plotly_chart")}
    table = [t.value for t in at.dataframe if watch_words.SAVES in t.value.columns][0]
    assert len(table) == 12 and list(table["alert"]).count("yes") == sum(p["alert"] for p in report["periods"])
    assert "estimated from the scores from 2026-09 on (if only the share of positive cases moved)" in want.headline
    assert (table["how"] == "estimated").sum() == 3
    assert table["alert"].tolist()[9:] == ["yes"] * 3  # the months without outcomes alert on the estimate
    readings = [t.value for t in at.dataframe if watch_words.FITS in t.value.columns and "cases" not in t.value.columns]
    assert len(readings) == 1 and readings[0]["period"].tolist() == [
        m for m in ("2026-09", "2026-10", "2026-11", "2026-12") for _ in "ab"
    ]
    assert readings[0]["if"].tolist()[:2] == list(watch_words.READINGS.values())
    chart = json.loads(next(c for c in at.get("plotly_chart") if c.key == "watch_chart").proto.spec)
    shipped = chart["data"][0]
    assert shipped["marker"]["symbol"][-4:] == ["circle-open"] * 4  # estimated: hollow, with an interval
    assert all(x is not None for x in shipped["error_y"]["array"][-4:]) and shipped["error_y"]["array"][0] is None
    assert "The policy ships: flag a case when its score is at least" in texts(at)


def _stable(tmp_rng, months=6):
    frames = []
    for m in range(1, months + 1):
        n = 1000
        y = (tmp_rng.random(n) < 0.3).astype(int)
        x = tmp_rng.normal(np.where(y == 1, 1.0, -1.0), 1.0)
        p = 1 / (1 + np.exp(-(2 * x + np.log(0.3 / 0.7))))
        frames.append(pd.DataFrame({"when": f"2026-{m:02d}-15", "p": p.round(4), "y": y}))
    return pd.concat(frames, ignore_index=True)


def _upload(audit, cases: pd.DataFrame, **chosen):
    """The Watch page with a policy and a file of cases uploaded, and the columns `chosen` picked."""
    at = open_app("compas", "views/watch.py")
    at.file_uploader(key="watch_policy").upload("p.json", policy_json(audit).encode(), "application/json").run()
    at.file_uploader(key="watch_cases").upload("c.csv", cases.to_csv(index=False).encode(), "text/csv").run()
    for key, column in chosen.items():
        at.selectbox(key=f"watch_{key}").set_value(column).run()
    return at


def test_an_uploaded_policy_and_cases_are_watched_with_the_columns_chosen():
    rng = np.random.default_rng(3)
    train = _stable(rng, 1)
    audit = build_audit(D.sweep_model(train["y"], train["p"]), (1, 3), n_resamples=100, volume=1000)
    at = _upload(audit, _stable(rng, 6), time="when", score="p", label="y")
    assert_no_exception(at)
    assert _box(at) == (
        "Keep the cutoff: no month with outcomes costs more than its own best cutoff by more than chance explains."
    )


def test_cases_without_outcomes_alert_the_month_the_base_rate_moves_and_say_both_readings():
    rng = np.random.default_rng(4)
    train = _stable(rng, 1)
    audit = build_audit(D.sweep_model(train["y"], train["p"]), (1, 3), n_resamples=100, volume=1000)
    cases = _stable(rng, 3)
    shifted = []
    for m in (4, 5, 6):  # April to June: the base rate falls to 8%, only the proportion of the classes moves
        y = (rng.random(1000) < 0.08).astype(int)
        x = rng.normal(np.where(y == 1, 1.0, -1.0), 1.0)
        p = 1 / (1 + np.exp(-(2 * x + np.log(0.3 / 0.7))))
        shifted.append(pd.DataFrame({"when": f"2026-{m:02d}-15", "p": p.round(4), "y": y}))
    year = pd.concat([cases, *shifted], ignore_index=True).drop(columns="y")  # no outcome column at all
    at = _upload(audit, year, time="when", score="p")
    assert_no_exception(at)
    said = "Refit if the share of positive cases moved: since 2026-04 the scores say about "
    assert _box(at).startswith(said) and " of the cases are positive (the policy was fitted where " in _box(at)
    assert "No outcomes confirm it yet." in _box(at)
    said = texts(at)
    assert "What to ship instead: flag a case when its score is at least" in said
    assert "if the cases changed and the scores still match how often cases turn out positive" in said
    assert watch_labels.READINGS_WHAT in said
    assert "watch_refit" not in {b.key for b in at.button}  # no outcomes to refit on: the words say what to ship


def test_a_file_that_is_not_a_policy_gets_a_sentence():
    at = open_app("compas", "views/watch.py")
    at.file_uploader(key="watch_policy").upload("last_policy.json", b'{"hello": 1}', "application/json").run()
    at.file_uploader(key="watch_cases").upload("c.csv", b"when,p\n2026-01-01,0.5\n", "text/csv").run()
    assert_no_exception(at)
    assert any("not a costlib policy" in unescape(e.value) for e in at.error)
    assert any("last_policy.json" in unescape(e.value).replace("\\", "") for e in at.error)  # the file is named


def test_refit_opens_costs_on_the_latest_months_with_outcomes_at_the_policys_prices():
    at = open_app("compas", "views/watch.py")
    [b for b in at.button if b.key == "watch_refit"][0].click().run()
    assert_no_exception(at)
    ds = at.session_state["upload_dataset"]
    assert at.session_state["data"] == "upload" and ds.name == "the built-in year, 2026-07 to 2026-09"
    df = watch_year()
    recent = df[(df["decided"] >= "2026-07-01") & df["outcome"].notna()]
    assert ds.n_rows == len(recent) and sorted(pd.unique(ds.groups)) == ["north", "south"]
    assert float(ds.y.mean()) == pytest.approx(float(recent["outcome"].mean()))
    c_fp, c_fn = shipped_policy()["prices"]["everyone"]
    assert (at.session_state["_keep_c_fp"], at.session_state["_keep_c_fn"]) == (c_fp, c_fn)
    shown = texts(at)
    assert "Costs & groups now shows 2026-07 to 2026-09 of the built-in year (3,938 cases with outcomes)" in shown
    volume = shipped_policy()["volume"]  # the policy's cases a month replace the sidebar's, and the sentence says so
    assert at.session_state["_keep_volume"] == volume
    assert f"at the policy's prices, unit, review limit and {volume:,} cases a month (in place of yours)" in shown


def test_the_refit_button_says_where_it_is_pressed_which_settings_it_changes_and_puts_them_back():
    from costlib.present import watch_labels as w

    at = open_app("compas", "views/watch.py", volume=10000)
    month = shipped_policy()["volume"]  # 1,500: the policy's cases a month, which the refit opens at
    change = f"Cases per month from 10,000 to {month:,}"
    # said where it is pressed: a box just above the button (not only inside a long caption) and its help
    boxes = [unescape(x.value) for x in at.warning]
    assert [b for b in boxes if change in b and w.REFIT_UNDO in b], boxes
    button = [b for b in at.button if b.key == "watch_refit"][0]
    assert change in unescape(button.help)
    button.click().run()
    assert_no_exception(at)
    assert at.session_state["_keep_volume"] == month and at.session_state["data"] == "upload"
    assert f"Your settings were changed for it ({change})" in texts(at)  # on Costs & groups, with the way back
    at.switch_page("views/watch.py").run()
    assert any(change in unescape(x.value) for x in at.info)  # what it changed, beside the undo
    [b for b in at.button if b.key == "watch_refit_undo"][0].click().run()
    assert_no_exception(at)
    assert at.session_state["_keep_volume"] == 10000 and at.session_state["_keep_data"] == "compas"
    back = f"Your settings are back: Cases per month from {month:,} to 10,000."
    assert any(unescape(x.value) == back for x in at.success)
    assert "watch_refit_undo" not in {b.key for b in at.button}


def test_a_setting_moved_after_the_refit_is_the_persons_and_is_not_put_back():
    at = open_app("compas", "views/watch.py", volume=10000)
    [b for b in at.button if b.key == "watch_refit"][0].click().run()
    at.switch_page("views/watch.py").run()
    at.number_input(key="volume").set_value(2000).run()  # the person sets their cases a month again
    assert_no_exception(at)
    assert "watch_refit_undo" not in {b.key for b in at.button}  # nothing of the refit's settings is left to undo
    assert at.session_state["_keep_volume"] == 2000


def test_the_refit_says_the_prices_of_the_link_it_replaces_and_puts_them_back():
    # a first visit by a shared link: its prices were not read by any page yet, and are the person's all the same
    at = open_app("compas", "views/watch.py", c_fp=2, c_fn=7, unit="€", volume=2500)
    change = "prices from a false alarm €2.00, a missed case €7.00 to a false alarm $1.00, a missed case $3.00"
    assert any(change in unescape(x.value) for x in at.warning)
    [b for b in at.button if b.key == "watch_refit"][0].click().run()
    assert (at.session_state["_keep_c_fp"], at.session_state["_keep_c_fn"]) == (1.0, 3.0)
    at.switch_page("views/watch.py").run()
    [b for b in at.button if b.key == "watch_refit_undo"][0].click().run()
    assert_no_exception(at)
    assert (at.session_state["_keep_c_fp"], at.session_state["_keep_c_fn"]) == (2.0, 7.0)
    assert (at.session_state["_keep_unit"], at.session_state["_keep_volume"]) == ("€", 2500)


def test_a_policy_for_other_groups_gets_a_sentence_not_a_traceback():
    rng = np.random.default_rng(5)
    train = _stable(rng, 1)
    groups = np.where(np.arange(len(train)) % 2, "a", "b")
    audit = build_audit(D.sweep_model(train["y"], train["p"], groups), {"a": (1, 3), "b": (1, 5)}, n_resamples=0)
    cases = _stable(rng, 2).assign(region=lambda d: np.where(np.arange(len(d)) % 2, "north", "south"))
    at = _upload(audit, cases, time="when", score="p", group="region")
    assert_no_exception(at)
    assert any("not in the policy" in unescape(e.value) for e in at.error)


def _cases_upload(at, cases: pd.DataFrame, **chosen):
    at.file_uploader(key="watch_cases").upload("c.csv", cases.to_csv(index=False).encode(), "text/csv").run()
    for key, column in chosen.items():
        at.selectbox(key=f"watch_{key}").set_value(column).run()
    return at


def test_the_cutoff_costs_recommends_now_is_watched_as_its_policy_file_would_be():

    at = open_app("compas", "views/watch.py")
    at.radio(key="watch_which").set_value(answers.FROM_COSTS).run()
    # before the cases come: a sentence, not the built-in year under its own shipped policy
    assert answers.NEEDS_CASES_NOW in [unescape(x.value) for x in at.info] and not at.get("plotly_chart")
    rng = np.random.default_rng(12)
    cases = _stable(rng, 3).rename(columns={"p": "decile_score"})
    cases["decile_score"] = (cases["decile_score"] * 10).round()
    cases["race"] = np.array(["African-American", "Caucasian", "Other"])[np.arange(len(cases)) % 3]
    _cases_upload(at, cases, time="when", score="decile_score", label="y", group="race")
    assert_no_exception(at)
    answer = [v for k, v in at.session_state["_memo"].items() if k[0] == "watch_answer"][-1]
    policy = [v for k, v in at.session_state["_memo"].items() if k[0] == "watch_current"][-1]
    assert policy["data"]["name"] == at.session_state["_samples"]["compas"].name  # the sidebar's data
    as_json = {g: (None if t == np.inf else "-inf" if t == -np.inf else t) for g, t in policy["thresholds"].items()}
    assert answer.report["policy"]["cutoffs"] == as_json
    assert len(answer.report["periods"]) == 3
    assert _box(at).startswith(("Keep", "Refit"))
    # back later under the same choice: the last inputs; the sample button shows the sample, under its policy file
    at.switch_page("views/costs.py").run()
    at.switch_page("views/watch.py").run()
    at.radio(key="watch_which").set_value(answers.FROM_COSTS).run()
    assert any("Showing your last inputs (c.csv)" in unescape(x.value) for x in at.info)
    [b for b in at.button if b.key == "watch_sample_again"][0].click().run()
    assert_no_exception(at)
    assert at.radio(key="watch_which").value == answers.FROM_FILE and _box(at).startswith("Refit: since 2026-07")


def watch_folder(audit) -> AppTest:
    """The Watch page with the policy of `audit` uploaded, reading the data folder's file by its
    columns when, p and y (time, score, label)."""
    at = open_app("compas", "views/watch.py")
    at.file_uploader(key="watch_policy").upload("p.json", policy_json(audit).encode(), "application/json").run()
    at.radio(key="watch_from").set_value(answers.CASES_FOLDER).run()
    at.multiselect(key="watch_folder_cols").set_value(["when", "p", "y"]).run()
    for key, column in {"time": "when", "score": "p", "label": "y"}.items():
        at.selectbox(key=f"watch_{key}").set_value(column).run()
    assert_no_exception(at)
    return at


def test_a_data_folder_file_is_read_by_its_chosen_columns(tmp_path, monkeypatch):
    rng = np.random.default_rng(13)
    train = _stable(rng, 1)
    audit = build_audit(D.sweep_model(train["y"], train["p"]), (1, 3), n_resamples=100, volume=1000)
    _stable(rng, 4).assign(extra="ignored").to_parquet(tmp_path / "cases.parquet")
    monkeypatch.setenv("COSTLIB_DATA_DIR", str(tmp_path))
    at = watch_folder(audit)
    table = [t.value for t in at.dataframe if watch_words.SAVES in t.value.columns][0]
    assert list(table["period"]) == ["2026-01", "2026-02", "2026-03", "2026-04"]
    assert _box(at).startswith("Keep the cutoff")


def test_a_data_folder_file_replaced_with_the_same_name_size_and_time_is_read_again(tmp_path, monkeypatch):
    rng = np.random.default_rng(13)
    train = _stable(rng, 1)
    audit = build_audit(D.sweep_model(train["y"], train["p"]), (1, 3), n_resamples=100, volume=1000)
    cases = _stable(rng, 4)
    path = tmp_path / "cases.csv"
    cases.to_csv(path, index=False)
    monkeypatch.setenv("COSTLIB_DATA_DIR", str(tmp_path))
    at = watch_folder(audit)
    st = path.stat()
    flipped = cases.assign(y=1 - cases["y"])  # every label the other way: the same bytes, rearranged
    flipped.to_csv(path, index=False)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    at.run()
    assert_no_exception(at)
    read = [v for k, v in at.session_state["_memo"].items() if k[0] == "watch_folder"][-1]
    assert read["y"].tolist() == flipped["y"].tolist()  # before: the old labels, remembered by name, size and time


def test_an_aggregate_file_as_the_cases_gets_a_sentence(tmp_path):
    from costlib.scale.aggregates import aggregate

    rng = np.random.default_rng(2)
    train = _stable(rng, 1)
    aggregate(train, label="y", score="p").to_parquet(tmp_path / "counts.parquet")
    audit = build_audit(D.sweep_model(train["y"], train["p"]), (1, 3), n_resamples=0, volume=1000)
    at = open_app("compas", "views/watch.py")
    at.file_uploader(key="watch_policy").upload("p.json", policy_json(audit).encode(), "application/json").run()
    data = (tmp_path / "counts.parquet").read_bytes()
    at.file_uploader(key="watch_cases").upload("counts.parquet", data, "application/octet-stream").run()
    assert_no_exception(at)
    assert any("is a costlib aggregate" in unescape(e.value) for e in at.error)


def test_the_refit_reads_the_scores_on_the_policys_scale():
    from costlib import loading

    policy = {**shipped_policy(), "data": {"scale": "raw", "positive": 1}}
    cases = watch_year().assign(score=lambda d: (d["score"] * 10).round() + 1)  # deciles 1 to 11: raw scores
    report = watch_report(shipped_policy(), watch_year(), name="x", n_resamples=0, **answers.SAMPLE_COLUMNS)
    refit = answers.refit_inputs(policy, cases, name="x", columns=answers.SAMPLE_COLUMNS, report=report)
    assert refit.mapping.score_scale == "raw"
    ds = loading.prepare(refit.frame, refit.mapping, name=refit.name, fingerprint="0" * 64)
    assert ds.n_rows == len(refit.frame) and float(ds.scores["score"].max()) > 1
    assert set(refit.policy["prices"]) == {"north", "south"}  # the one price book, for each group


def test_one_input_alone_says_what_is_missing_and_own_inputs_stay_after_a_visit_elsewhere():
    rng = np.random.default_rng(4)
    at = open_app("compas", "views/watch.py")
    cases = _stable(rng, 3)
    at.file_uploader(key="watch_cases").upload("c.csv", cases.to_csv(index=False).encode(), "text/csv").run()
    assert_no_exception(at)
    assert any(answers.NEEDS_POLICY in unescape(x.value) for x in at.info) and not at.get("plotly_chart")
    train = _stable(rng, 1)
    audit = build_audit(D.sweep_model(train["y"], train["p"]), (1, 3), n_resamples=50, volume=1000)
    at.file_uploader(key="watch_policy").upload("p.json", policy_json(audit).encode(), "application/json").run()
    assert [at.selectbox(key=f"watch_{k}").value for k in ("time", "score", "label")] == ["when", None, "y"]
    at.selectbox(key="watch_score").set_value("p").run()  # the policy names "score", which c.csv lacks: asked
    assert _box(at).startswith("Keep the cutoff")
    at.switch_page("views/costs.py").run()
    at.switch_page("views/watch.py").run()
    assert_no_exception(at)
    assert any("Showing your last inputs (c.csv)" in unescape(x.value) for x in at.info)
    assert _box(at).startswith("Keep the cutoff")
    # they were watched under a policy file: not what Costs & groups recommends now
    at.radio(key="watch_which").set_value(answers.FROM_COSTS).run()
    assert answers.NEEDS_CASES_NOW in [unescape(x.value) for x in at.info] and not at.get("plotly_chart")
    at.radio(key="watch_which").set_value(answers.FROM_FILE).run()
    assert any("Showing your last inputs (c.csv)" in unescape(x.value) for x in at.info)
    [b for b in at.button if b.key == "watch_sample_again"][0].click().run()
    assert _box(at).startswith("Refit: since 2026-07")


def test_the_same_column_as_date_and_score_gets_a_sentence():
    rng = np.random.default_rng(9)
    train = _stable(rng, 1)
    audit = build_audit(D.sweep_model(train["y"], train["p"]), (1, 3), n_resamples=0)
    at = _upload(audit, _stable(rng, 2), time="when", score="when")
    assert_no_exception(at)
    assert any("must be two columns" in unescape(e.value) for e in at.error)


def test_the_refit_says_what_the_shipped_cutoffs_cost_on_the_rows_it_hands_over():
    from costlib.answers import watch as watch_answers
    from costlib.present.amounts import money

    policy, cases = shipped_policy(), watch_year()
    report = watch_report(policy, cases, name="x", n_resamples=0, **answers.SAMPLE_COLUMNS)
    refit = answers.refit_inputs(policy, cases, name="x", columns=answers.SAMPLE_COLUMNS, report=report)
    c = answers.SAMPLE_COLUMNS
    f = refit.frame
    y = f.iloc[:, 0].to_numpy()
    g = f[c["group"]].astype(str)
    one = len(policy["thresholds"]) == 1  # one cutoff and one price book for every group
    cut = g.map(lambda x: next(iter(policy["thresholds"].values())) if one else policy["thresholds"][x]).to_numpy()
    price = g.map(lambda x: next(iter(policy["prices"].values())) if one else policy["prices"][x])
    c_fp, c_fn = np.array([p[0] for p in price]), np.array([p[1] for p in price])
    flag = f[c["score"]].to_numpy() >= cut
    brute = float(np.mean(np.where(flag, (1 - y) * c_fp, y * c_fn)))  # case by case
    assert f"cost {money(brute, watch_answers.policy_unit(policy, ''))} per case on these cases" in refit.sentence
    assert len(f) == sum(p["labelled"] for p in [p for p in report["periods"] if p["labelled"]][-3:])


def test_mixed_utc_offsets_and_a_month_of_negatives_only_are_watched_and_alert():
    rng = np.random.default_rng(11)
    train = _stable(rng, 1)
    audit = build_audit(D.sweep_model(train["y"], train["p"]), (1, 3), n_resamples=100, volume=1000)
    cases = _stable(rng, 2)
    cases["when"] = cases["when"] + "T10:00:00+01:00"
    cases.loc[0, "when"] = "2026-01-15T10:00:00+02:00"  # one row after the clocks moved: pandas said "Mixed timezones"
    cases.loc[cases["when"].str.startswith("2026-02"), "y"] = 0  # February: every outcome 0
    at = _upload(audit, cases, time="when", score="p", label="y")
    assert_no_exception(at)
    assert "Mixed timezones" not in texts(at) and not at.exception
    box = _box(at)
    assert box.startswith("Refit: since 2026-02") and "2026-02: every outcome is negative" in box
    table = [t.value for t in at.dataframe if watch_words.SAVES in t.value.columns][0]
    assert table["alert"].tolist() == ["no", "yes"] and table["its own best cutoff"].tolist()[1] == "nobody"


def test_a_one_case_month_on_the_page_says_too_few_cases_to_judge():
    rng = np.random.default_rng(12)
    train = _stable(rng, 1)
    audit = build_audit(D.sweep_model(train["y"], train["p"]), (1, 3), n_resamples=100, volume=1000)
    cases = pd.concat([_stable(rng, 2), _stable(rng, 3).tail(1)], ignore_index=True)  # March: one case
    at = _upload(audit, cases, time="when", score="p", label="y")
    assert_no_exception(at)
    assert _box(at).endswith("2026-03: too few cases to judge: 1.")
    table = [t.value for t in at.dataframe if watch_words.SAVES in t.value.columns][0]
    assert table[watch_words.SAVES].tolist()[-1] == "too few cases to judge: 1"


def test_the_built_in_year_downloads_as_files_the_command_line_watches_to_the_pages_answer(
    tmp_path, monkeypatch, capsys
):
    import shlex

    from costlib.__main__ import main
    from costlib.watch.sample import CASES_FILE, POLICY_FILE

    kept = keep_downloads(monkeypatch)
    at = open_app("compas", "views/watch.py")
    buttons = {b.proto.label: b.proto.url for b in at.get("download_button")}
    for label, file in (("Download its cases (CSV)", CASES_FILE), ("Download its policy (JSON)", POLICY_FILE)):
        file_id = buttons[label].rsplit("/", 1)[-1].split(".")[0]
        (tmp_path / file).write_bytes(kept[file_id][1])
    command = next(c.value for c in at.code if "python -m costlib watch" in c.value)  # the command shown beside them
    assert all(len(line) <= 76 for line in command.splitlines())  # cut between its arguments, not by the page
    args = shlex.split(command.replace(" \\\n", " "))  # the shell's line continuations, as a shell reads them
    assert args[:4] == ["python", "-m", "costlib", "watch"]
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(args[3:]) == 1  # alerts
    # the page's answer, word for word, but for the month: the page's is the sidebar's, the command line's (no
    # sidebar) the policy's, each named (review 140)
    month = shipped_policy()["volume"]
    a_month = re.compile(r"\([^()]* a month at (your 10,000|the policy's " + f"{month:,}" + r") cases a month\)")
    box = _box(at)
    assert "at your 10,000 cases a month" in box
    lines = capsys.readouterr().out.splitlines()
    assert any(f"at the policy's {month:,} cases a month" in line for line in lines)
    assert a_month.sub("()", box) in [a_month.sub("()", line) for line in lines]


def test_the_refit_says_what_it_saves_over_the_shipped_cutoff_and_its_chart_marks_the_shipped_cutoff():
    from costlib.present.amounts import money
    from costlib.present.watch_figures import REFIT_NAME, SHIPPED_NAME
    from costlib.watch.alerts import judge_period

    at = open_app("compas", "views/watch.py")
    policy, df = answers.sample_inputs()
    report = watch_report(policy, df, name="the built-in year", n_resamples=500, **answers.SAMPLE_COLUMNS)
    refit = answers.refit_inputs(policy, df, name="x", columns=answers.SAMPLE_COLUMNS, report=report)
    f = refit.frame
    cut = float(policy["thresholds"]["everyone"])
    j = judge_period(
        f["outcome"], f["score"], f["region"].astype(str), costs=dict.fromkeys(("north", "south"),
        tuple(policy["prices"]["everyone"])), cutoffs=dict.fromkeys(("north", "south"), cut), n_resamples=500,
    )  # fmt: skip
    said = texts(at)
    # at the sidebar's cases a month, as the headline (review 140), of the amount per case as it reads beside
    # its interval (`amounts.month_figure`: $0.085 x 10,000 is $850, whatever the digits past it)
    per_case = float(money(j.regret, "$")[1:])
    month = month_money(per_case * 10000, "$")
    saves = f"Refitting on them saves {money(j.regret, '$')} per case ({month} a month)"
    assert saves + " over keeping the shipped cutoff (95% interval of the saving " in said
    assert f"{money(j.low, '$')} to {money(j.high, '$')} per case)" in said
    chart = json.loads(next(c for c in at.get("plotly_chart") if c.key == "watch_refit_chart").proto.spec)
    (shipped,) = [t for t in chart["data"] if t.get("name") == SHIPPED_NAME]
    assert shipped["x"] == [cut] and shipped["marker"]["symbol"] == "diamond"
    assert shipped["text"] == [f"shipped ≥ {cut:.4g}: {money(j.shipped, '$')} per case"]
    assert shipped["y"][0] == pytest.approx(j.shipped)  # the marker sits on the curve, at the shipped cost
    (refitted,) = [t for t in chart["data"] if t.get("name") == REFIT_NAME]
    assert refitted["marker"]["symbol"] == "star" and refitted["x"] == [j.best["north"]]
    dashes = {s["x0"]: s["line"]["dash"] for s in chart["layout"]["shapes"]}
    assert dashes == {cut: "dash", j.best["north"]: "dot"}
    # Costs & groups, opened on the refit, says the same saving over the shipped cutoff, and its
    # cost per case is the shipped cost less that saving
    [b for b in at.button if b.key == "watch_refit"][0].click().run()
    assert_no_exception(at)
    # there at the policy's cases a month, which the button put in the sidebar (said before it was pressed)
    costs_month = month_money(per_case * policy["volume"], "$")
    assert f"Refitting on them saves {money(j.regret, '$')} per case ({costs_month} a month)" in texts(at)
    shown = metric(at, MODEL_COST)  # at the decimals Costs' saving needs (`shown_saving`: 3, or one more)
    digits = len(shown.split(".")[1])
    assert digits in (3, 4)
    assert shown == money(j.refit, "$", digits=digits) == money(j.shipped - j.regret, "$", digits=digits)


def test_costs_opened_on_the_refit_marks_the_shipped_cutoff_and_keeps_the_saving_while_it_shows_that_data():
    from costlib.present.watch_figures import SHIPPED_NAME  # the one name, wherever the shipped cutoff is marked

    at = open_app("compas", "views/watch.py")
    saving = next(unescape(x.value) for x in at.markdown if "over keeping the shipped cutoff" in unescape(x.value))
    # per case: Costs & groups opens at the policy's cases a month, Watch says a month at the sidebar's (review 140)
    saves = saving[saving.index("Refitting on them saves") :].split(" per case")[0] + " per case"
    cut = float(shipped_policy()["thresholds"]["everyone"])
    [b for b in at.button if b.key == "watch_refit"][0].click().run()
    assert_no_exception(at)

    def shipped_marks():
        chart = json.loads(next(c for c in at.get("plotly_chart") if c.key == "cost_chart").proto.spec)
        marks = [t for t in chart["data"] if t.get("name") == SHIPPED_NAME]
        shapes = chart["layout"].get("shapes", [])
        dashed = [s["x0"] for s in shapes if s["line"].get("dash") == "dash" and s.get("x0", 0) == s.get("x1", 1)]
        return marks, dashed

    def said() -> bool:
        return sum(saves in unescape(x.value) for x in at.info) == 1  # once, not once per run

    for move in (None, 7.5):  # opened by the refit, then after a price move (a rerun without the hand-off)
        if move is not None:  # AppTest runs the app's first page again unless told which page is open
            at.switch_page("views/costs.py").select_slider(key="s_c_fn").set_value(move).run()
            assert_no_exception(at)
        (mark,), dashed = shipped_marks()
        assert mark["x"] == [cut] and mark["marker"]["symbol"] == "diamond" and cut in dashed
        assert mark["text"] == [f"shipped ≥ {cut:.4g}"]
        assert said()
    at.switch_page("views/costs.py").sidebar.selectbox(key="data").set_value("compas").run()  # other data: neither
    assert_no_exception(at)
    assert shipped_marks() == ([], [])
    assert not any(saves in unescape(x.value) for x in at.info)


def test_the_page_reads_the_periods_and_the_refit_from_one_answer():
    """The page reads its inputs, then makes one call (`answers.watch_answer`) for what it shows:
    it neither judges, refits, prepares a data set nor draws a figure itself, and it names the
    built-in year's files and sentences through `answers`."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path("views/watch.py").read_text())
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and getattr(n.value, "id", "") == "answers"}
    assert "watch_answer" in used and not used & {"refit_inputs", "SAMPLE_NOTE", "SAMPLE_FILES_WHAT", "policy_unit"}
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not imported & {"costlib.present.watch_figures", "costlib.watch.sample", "costlib.watch.report"}
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not names & {"refit_figure", "policy_unit", "watch_words"}
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "prepare"]


def _in_page_order(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _in_page_order(child)


def test_what_the_policy_ships_now_is_said_before_what_to_ship_instead():
    """Review 57: the page advised 'What to ship instead: …' and said what the policy ships only
    after the refit's button. The shipped cutoff now sits under the headline, before the advice."""
    at = open_app("compas", "views/watch.py")
    said = [unescape(str(getattr(n, "value", ""))) for n in _in_page_order(at.main)]
    ships = next(i for i, x in enumerate(said) if x.startswith("The policy ships: flag a case when"))
    instead = next(i for i, x in enumerate(said) if x.startswith("What to ship instead:"))
    headline = next(i for i, x in enumerate(said) if x.startswith("Refit: since 2026-07"))
    assert headline < ships < instead
    assert sum("The policy ships:" in x for x in said) == 1
