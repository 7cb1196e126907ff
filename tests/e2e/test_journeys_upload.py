"""Uploads through the real file input: a rich file that lights up every page, broken files, and
hostile strings in names and values."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from e2e_support import (
    UPLOADED,
    alert_texts,
    assert_no_error,
    data_choice,
    full_screenshot,
    goto,
    nav,
    pick,
    sidebar_text,
    upload,
    use_these_columns,
    wait_for_chart,
)

pytestmark = pytest.mark.browser

# The pages of a binary file, and whether a first visit draws a chart (the Cost matrix's
# answer is a table, its heatmaps come on request).
CHART_PAGES = {"Costs & groups": True, "Value": True, "Cost matrix": False, "Instance costs": True, "Calibration": True}
SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"


def rich_csv(path: Path, n: int = 900, seed: int = 7) -> Path:
    """Binary label, two models, group, train/validation/test split, annotator votes, and three
    class probabilities with a class label: every page of the app has something to show."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    noise = rng.normal(0, 1.2, n)
    classes = np.array(["billing", "technical", "security"])
    true_class = rng.choice(classes, n, p=[0.5, 0.35, 0.15])
    logits = rng.normal(0, 1, (n, 3))
    for i, c in enumerate(classes):
        logits[true_class == c, i] += 1.5
    probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    probs = np.round(probs, 4)
    probs[:, 2] = np.round(1 - probs[:, 0] - probs[:, 1], 4)
    yes = np.where(y == 1, rng.integers(2, 4, n), rng.integers(0, 2, n))
    df = pd.DataFrame(
        {
            "label": y,
            "score_calibrated": np.round(1 / (1 + np.exp(-(2 * y - 1 + noise))), 4),
            "score_sharp": np.round(1 / (1 + np.exp(-3 * (2 * y - 1 + 1.3 * noise))), 4),
            "group": rng.choice(["north", "south", "east"], n),
            "split": rng.choice(["train", "validation", "test"], n, p=[0.5, 0.2, 0.3]),
            "n_yes": yes,
            "n_no": 3 - yes,
            "true_class": true_class,
            "p_billing": probs[:, 0],
            "p_technical": probs[:, 1],
            "p_security": probs[:, 2],
        }
    )
    df.to_csv(path, index=False)
    return path


def test_upload_rich_csv_and_visit_every_page(page, app_url, tmp_path):
    path = rich_csv(tmp_path / "rich_predictions.csv")
    goto(page, app_url + "/")
    upload(page, path)
    use_these_columns(page)
    page.get_by_text("Loaded “rich_predictions.csv”. Costs & groups").wait_for()
    assert data_choice(page) == UPLOADED
    loaded = page.locator('[data-testid="stMetric"]', has_text="Rows")
    assert "900" in loaded.inner_text()
    full_screenshot(page, "test_upload_rich_csv_and_visit_every_page-data")

    for title, chart in CHART_PAGES.items():
        nav(page, title, chart=chart)  # waits for a drawn Plotly chart where the page has one
        assert data_choice(page) == UPLOADED, title
        assert "rich_predictions.csv" in sidebar_text(page), title
        assert not [a for a in alert_texts(page) if "which this page needs" in a], title
        slug = re.sub(r"\W+", "_", title.lower()).strip("_")
        full_screenshot(page, f"test_upload_rich_csv_and_visit_every_page-{slug}")
    # the charts are about this file: the Value page names its models
    nav(page, "Value")
    titles = " ".join(page.locator(".js-plotly-plot .gtitle").all_text_contents())
    assert "score_calibrated" in titles or "score_sharp" in titles, titles
    nav(page, "Data", chart=False)
    assert "rich_predictions.csv" in sidebar_text(page)
    full_screenshot(page, "test_upload_rich_csv_and_visit_every_page")


def scores_csv(path: Path, *, bad_rows: tuple[int, ...] = (), n: int = 60, seed: int = 5) -> Path:
    """label, risk_score, group; the 1-based data rows in `bad_rows` get text instead of a score."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    df = pd.DataFrame(
        {
            "label": y,
            "risk_score": np.round(np.clip(0.4 * y + rng.uniform(0, 0.6, n), 0, 1), 3),
            "group": rng.choice(["a", "b"], n),
        }
    )
    df["risk_score"] = df["risk_score"].astype(object)
    for row, text in zip(bad_rows, ("high", "n/a?", "0.4.1"), strict=False):
        df.loc[row - 1, "risk_score"] = text
    df.to_csv(path, index=False)
    return path


def check_bad_scores_message(page, *, previous: str | None) -> None:
    errors = [a for a in alert_texts(page) if "bad_scores.csv" in a]
    assert errors, alert_texts(page)
    assert '"risk_score"' in errors[0] and "rows 4 and 8" in errors[0] and '("high", "n/a?")' in errors[0], errors[0]
    if previous:
        assert page.get_by_text(f"Your previous data, “{previous}”, is still loaded.").count() == 1
    assert_no_error(page)


def test_broken_uploads_explain_themselves_and_keep_earlier_data(page, app_url, tmp_path):
    png = tmp_path / "holiday_photo.csv"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(range(256)) * 8)
    bad = scores_csv(tmp_path / "bad_scores.csv", bad_rows=(3, 7))
    # The good file has the bad file's columns: a replaced upload can show the previous file's
    # column choices (see test_known_bugs), which then still name existing columns.
    good = scores_csv(tmp_path / "good_scores.csv", n=400, seed=9)

    # 1. While the default sample is loaded: a PNG renamed .csv, then text in a score column.
    goto(page, app_url + "/")
    upload(page, png)
    errors = [a for a in alert_texts(page) if "holiday_photo.csv" in a]
    assert errors and "PNG" in errors[0], alert_texts(page)
    upload(page, bad)
    use_these_columns(page)
    check_bad_scores_message(page, previous=None)
    full_screenshot(page, "test_broken_uploads_explain_themselves_and_keep_earlier_data-sample")
    nav(page, "Costs & groups")  # the sample is still loaded and still works
    assert data_choice(page) == "Recidivism risk (COMPAS)"

    # 2. After a good upload: the bad file again, and the PNG.
    nav(page, "Data", chart=False)
    upload(page, good)
    use_these_columns(page)
    page.get_by_text("Loaded “good_scores.csv”").wait_for()
    upload(page, bad)
    use_these_columns(page)
    check_bad_scores_message(page, previous="good_scores.csv")
    upload(page, png)
    assert [a for a in alert_texts(page) if "holiday_photo.csv" in a]
    assert page.get_by_text("Your previous file, “good_scores.csv”, is still loaded.").count() == 1
    full_screenshot(page, "test_broken_uploads_explain_themselves_and_keep_earlier_data-data")

    # 3. The good upload is still what the other pages use.
    nav(page, "Value")
    assert data_choice(page) == UPLOADED
    assert "good_scores.csv" in sidebar_text(page) and "bad_scores.csv" not in sidebar_text(page)
    full_screenshot(page, "test_broken_uploads_explain_themselves_and_keep_earlier_data")


def test_hostile_strings_are_shown_as_text(page, app_url, tmp_path):
    rng = np.random.default_rng(11)
    n = 240
    y = rng.integers(0, 2, n)
    label_col, score_col = f"outcome {IMG}", f"score {SCRIPT}"
    df = pd.DataFrame(
        {
            label_col: np.where(y == 1, f"bad {SCRIPT}", f"ok {IMG}"),
            score_col: np.round(np.clip(0.45 * y + rng.uniform(0, 0.55, n), 0, 1), 3),
            "group": rng.choice([SCRIPT, IMG, "plain"], n),
            "split": rng.choice(["train", "test"], n),
        }
    )
    path = tmp_path / "hostile.csv"
    df.to_csv(path, index=False)

    goto(page, app_url + "/")
    upload(page, path)
    pick(page, "Label column (the true outcome)", label_col)
    # the score column is guessed from its name ("score ..."); the label must be chosen
    assert score_col in page.locator('[data-testid="stMultiSelect"]').first.inner_text()
    use_these_columns(page)
    # Inside the form the positive-class picker appears only after a first submit.
    positive = page.get_by_role("combobox", name="Which label value is the positive class?")
    if positive.count():
        pick(page, "Which label value is the positive class?", f"bad {SCRIPT}")
        use_these_columns(page)
    page.get_by_text("Loaded “hostile.csv”").wait_for()
    full_screenshot(page, "test_hostile_strings_are_shown_as_text-data")

    # group names head the per-group prices on Costs & groups; the model (score column) is named
    # in the Calibration page's sentence and chart
    for title, shown in (("Costs & groups", (SCRIPT, IMG, score_col)), ("Calibration", (score_col,))):
        nav(page, title)
        if title == "Costs & groups":
            page.get_by_text("Different prices per group", exact=True).click()
            wait_for_chart(page)
        body = page.locator("body").inner_text()
        for s in shown:
            assert s in body, f"{s} is not shown as text on {title}"
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.content()
        legend = " ".join(page.locator(".js-plotly-plot .legendtext").all_text_contents())
        assert score_col in legend or SCRIPT in legend, legend
        assert page.locator("img[src=x], img[src='x']").count() == 0
        scripts = page.locator("script").evaluate_all("els => els.map(e => e.textContent)")
        assert not [s for s in scripts if "alert(1)" in s], "a user string became a <script> element"
        assert page.dialogs == []
        full_screenshot(page, "test_hostile_strings_are_shown_as_text-" + re.sub(r"\W+", "_", title.lower()))
    page.wait_for_timeout(500)  # give any injected onerror a chance to fire
    assert page.dialogs == []
    assert_no_error(page)
    full_screenshot(page, "test_hostile_strings_are_shown_as_text")
