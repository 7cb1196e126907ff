"""A product manager opens Watch on a first visit: the built-in year says from which month the
shipped cutoff stopped holding, and what it costs."""

from __future__ import annotations

import pytest
from e2e_support import alert_texts, chart_titles, data_choice, full_screenshot, goto, nav, step, wait_for_url

from costlib import answers
from costlib.answers.watch import shipped_policy
from costlib.core import settings
from costlib.present.watch_words import watch_verdict
from costlib.watch.report import watch_report
from costlib.watch.sample import watch_year

pytestmark = pytest.mark.browser


def test_watch_says_since_when_the_cutoff_no_longer_holds(page, app_url):
    goto(page, app_url + "/")
    nav(page, "Watch")
    report = watch_report(
        shipped_policy(), watch_year(), name="the built-in year", n_resamples=500, **answers.SAMPLE_COLUMNS
    )
    want = watch_verdict(report, unit="$", volume=settings.VOLUME.default).headline  # the sidebar's cases a month
    assert want in alert_texts(page)
    assert "The shipped cutoff, period by period" in chart_titles(page)
    full_screenshot(page, "watch_sample")
    # the built-in year as files: the policy downloaded is the policy the page watches
    from pathlib import Path

    from costlib.present.policy import load_policy

    with page.expect_download() as got:
        page.get_by_role("button", name="Download its policy (JSON)").click()
    saved, want = load_policy(Path(got.value.path()).read_bytes()), shipped_policy()
    assert {k: v for k, v in saved.items() if k != "created"} == {k: v for k, v in want.items() if k != "created"}
    assert "Refitting on them saves" in page.get_by_text("over keeping the shipped cutoff").first.inner_text()
    page.get_by_role("button", name=answers.REFIT_BUTTON).click()
    wait_for_url(page, "costs")
    step(page, "refit on Costs")
    texts = " ".join(alert_texts(page))
    assert "Costs & groups now shows 2026-07 to 2026-09 of the built-in year" in texts
    assert "Your uploaded file" in data_choice(page)
    full_screenshot(page, "watch_refit_costs")
