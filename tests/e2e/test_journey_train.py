"""A user opens "Train with costs", trains the tweets sample with 2 seeds, watches it run, reads the verdict."""

from __future__ import annotations

import re

import pytest
from e2e_support import alert_texts, chart_titles, full_screenshot, goto, nav, number_input, wait_for_chart

import costlib
from costlib.answers.training import named_verdict
from costlib.present import training_page, training_words
from costlib.training import data as training_data
from costlib.training.kept import kept_of_results

pytestmark = pytest.mark.browser


def test_train_two_seeds_shows_progress_then_the_chart_and_the_verdict(page, app_url):
    goto(page, app_url)
    nav(page, "Train with costs")  # the first visit already shows a chart: the precomputed comparison
    assert training_words.BARS_TITLE in chart_titles(page)  # the data is named by the data choice, not the title
    assert any("Precomputed result" in t for t in alert_texts(page))

    number_input(page, training_page.SEEDS_LABEL).fill("2")
    page.get_by_role("button", name="Train and compare").click()
    progress = page.locator('[data-testid="stProgress"]').first
    progress.wait_for(state="visible", timeout=30_000)  # shown while the seeds train
    assert re.search(r"Training: [01] of 2 seeds done", page.locator("body").inner_text())
    full_screenshot(page, "train-running")

    wait_for_chart(page, timeout=180)
    assert page.locator('[data-testid="stProgress"]').count() == 0  # gone once finished
    data = training_data.tweets_sample()
    results = costlib.compare_training(data.X, data.delta, seeds=2, n_jobs=2)
    want = named_verdict(  # at the sidebar's unit and volume and the typical mistake's price
        costlib.training_summary(results),
        kept_of_results(results),  # a way of keeping the costliest cases named by the share it kept
        price=1.0,
        unit="$",
        volume=10_000,
    ).headline
    alerts = alert_texts(page)
    assert want in alerts, alerts
    assert not any("Precomputed result" in t for t in alerts)
    assert training_words.BARS_TITLE in chart_titles(page)  # the data is named by the data choice, not the title
    assert training_words.CHANGE_TITLE in chart_titles(page)
    assert "Trained 2 seeds here in" in page.locator("body").inner_text()
    full_screenshot(page, "train-two-seeds")
