"""The Watch page, headless: the built-in year on a first visit, a policy and newer cases
uploaded, and bad files refused with a sentence."""

from __future__ import annotations

import numpy as np
import pandas as pd

from costlib import answers
from costlib.answers.audit import build_audit
from costlib.binary import decision as D
from costlib.present.policy import policy_json
from costlib.present.watch_words import watch_verdict
from costlib.watch.report import watch_report
from costlib.watch.sample import shipped_policy, watch_year
from tests.views.test_app import assert_no_exception, open_app, texts, unescape


def _box(at) -> str:
    boxes = [unescape(x.value) for x in (*at.success, *at.warning, *at.error) if x.value.startswith(("Keep", "Refit"))]
    assert len(boxes) == 1, boxes
    return boxes[0]


def test_the_built_in_year_says_refit_from_the_month_of_the_shift():
    at = open_app("compas", "views/watch.py")
    report = watch_report(
        shipped_policy(), watch_year(), name="the built-in year", n_resamples=500, **answers.SAMPLE_COLUMNS
    )
    want = watch_verdict(report, unit="$", volume=1500)
    assert _box(at) == want.headline
    assert want.headline.startswith("Refit: since 2026-07")
    assert "watch_chart" in {c.key for c in at.get("plotly_chart")}
    table = [t.value for t in at.dataframe if "refitting would save per case" in t.value.columns][0]
    assert len(table) == 12 and list(table["alert"]).count("yes") == sum(p["alert"] for p in report["periods"])
    assert "no outcomes yet" in texts(at)
    assert (table["how"] == "estimated").sum() == 3
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
    assert _box(at) == "Keep the cutoff: no month with outcomes costs more than its own best cutoff beyond the noise."


def test_a_file_that_is_not_a_policy_gets_a_sentence():
    at = open_app("compas", "views/watch.py")
    at.file_uploader(key="watch_policy").upload("p.json", b'{"hello": 1}', "application/json").run()
    at.file_uploader(key="watch_cases").upload("c.csv", b"when,p\n2026-01-01,0.5\n", "text/csv").run()
    assert_no_exception(at)
    assert any("not a costlib policy" in unescape(e.value) for e in at.error)


def test_refit_on_the_latest_months_gives_a_policy_with_its_verdict():
    from costlib.present.policy import load_policy

    at = open_app("compas", "views/watch.py")
    [b for b in at.button if b.key == "watch_refit"][0].click().run()
    assert_no_exception(at)
    info = [unescape(x.value) for x in at.info if x.value.startswith("Refitted")]
    assert info and info[0].startswith("Refitted on 2026-07 to 2026-09 (4,500 cases with outcomes)")
    text, _ = answers.refit_on_recent(
        shipped_policy(),
        watch_year(),
        name="the built-in year",
        columns=answers.SAMPLE_COLUMNS,
        report=watch_report(shipped_policy(), watch_year(), name="x", n_resamples=100, **answers.SAMPLE_COLUMNS),
        unit="$",
    )
    refitted = load_policy(text)
    assert refitted["thresholds"]["everyone"] > shipped_policy()["thresholds"]["everyone"]  # fewer positives: higher


def test_a_policy_for_other_groups_gets_a_sentence_not_a_traceback():
    rng = np.random.default_rng(5)
    train = _stable(rng, 1)
    audit = build_audit(D.sweep_model(train["y"], train["p"]), (1, 3), n_resamples=0, volume=1000)
    cases = _stable(rng, 2).assign(region=lambda d: np.where(np.arange(len(d)) % 2, "north", "south"))
    at = _upload(audit, cases, time="when", score="p", group="region")
    assert_no_exception(at)
    assert any("not in the policy" in unescape(e.value) for e in at.error)
