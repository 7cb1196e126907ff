"""A reviewer without a mouse: every step with Tab, Shift+Tab, the arrows, Enter and Space.

On Costs & groups they reach the price sliders and move them (the answer changes), turn on
per-group prices and a review limit, download the report and the policy, and open the details;
on Data they open the file chooser, upload a file and map its columns. At every element focus
lands on, its focus indicator must show (`assert_focus_visible`: the pixels of the element with
and without focus differ), as WCAG 2.4.7 and 2.4.11 ask.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from e2e_support import (
    UPLOADED,
    alert_texts,
    assert_focus_visible,
    data_choice,
    focused,
    goto,
    step,
    tab_to,
    wait_for_app,
)

from costlib import answers
from costlib.present import capacity_words

pytestmark = pytest.mark.browser


def answer(page) -> str:
    """The answer as the page shows it: the verdict and the four numbers under it."""
    verdict = [t for t in alert_texts(page) if "per case" in t]
    numbers = page.locator('[data-testid="stMetric"]').all_inner_texts()
    return " | ".join(verdict + numbers)


def slider_value(page, name: str) -> str:
    return page.get_by_role("slider", name=name).get_attribute("aria-valuetext")


def highlighted(page) -> str:
    """The option the focused list box's arrows are on (its aria-activedescendant)."""
    return page.evaluate("""() => {
      const id = document.activeElement && document.activeElement.getAttribute('aria-activedescendant');
      const option = id && document.getElementById(id);
      return option ? option.innerText.trim() : '';
    }""")


def press(page, key: str, where: str) -> None:
    """Press `key` on the focused element, let the app settle, and check focus still shows."""
    page.keyboard.press(key)
    step(page, where)
    assert_focus_visible(page, where)


def switch_on(page, name: str) -> None:
    """Tab to the toggle `name` (unless it has focus) and turn it on with Space."""
    if (focused(page) or {}).get("name") != name:
        tab_to(page, name, where=f"to {name!r}")
    assert page.get_by_role("switch", name=name).get_attribute("aria-checked") != "true"
    press(page, "Space", f"turning on {name!r}")
    assert page.get_by_role("switch", name=name).is_checked(), f"Space did not turn on {name!r}"


def open_file_chooser(page):
    """The file chooser, opened by Enter (or, if it did not open, Space) on the focused button."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    wait_for_app(page)
    for key in ("Enter", "Space"):
        try:
            with page.expect_file_chooser(timeout=5_000) as chooser:
                page.keyboard.press(key)
        except PlaywrightTimeout:
            continue
        return chooser.value
    raise AssertionError(f"neither Enter nor Space opened the file chooser from {focused(page)}")


def unguessable_csv(path: Path, n: int = 80, seed: int = 4) -> Path:
    """Columns a, b, c: the label (a, 0/1) and the group (c) are guessed, the score (b) is not."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    score = np.clip(0.35 * y + rng.uniform(0, 0.65, n), 0, 1).round(3)
    pd.DataFrame({"a": y, "b": score, "c": rng.choice(["x", "y"], n)}).to_csv(path, index=False)
    return path


def test_keyboard_only_reviewer(page, app_url, tmp_path):
    goto(page, app_url + "/")

    # 1. Data: the file chooser opened with Enter on the uploader's button; the columns mapped
    # with the arrows and Enter.
    path = unguessable_csv(tmp_path / "mystery.csv")
    tab_to(page, re.compile("Upload$"), where="to the uploader")  # the first: CSV or Parquet
    assert page.locator('[data-testid="stFileUploader"] button:focus').count() == 1, focused(page)
    open_file_chooser(page).set_files(str(path))
    page.get_by_text('"mystery.csv": 80 rows').first.wait_for()  # the preview's caption
    step(page, "after the upload")
    scores = "Score columns (one per model; higher = more likely positive)"
    tab_to(page, re.compile(re.escape(scores)), where="to the score columns")
    press(page, "ArrowDown", "opening the score columns")
    for _ in range(5):  # down the list to column b
        if highlighted(page) == "b":
            break
        page.keyboard.press("ArrowDown")
    assert highlighted(page) == "b", highlighted(page)
    page.keyboard.press("Enter")
    step(page, "after choosing the score column")
    tab_to(page, "Use these columns", where="to the form's button")
    page.keyboard.press("Enter")  # the form goes, and focus with it
    step(page, "after pressing Use these columns")
    page.get_by_text("Loaded “mystery.csv”").first.wait_for()
    assert data_choice(page) == UPLOADED

    # 2. To Costs & groups by its link in the top bar (back up the page with Shift+Tab).
    tab_to(page, "Costs & groups", back=True, limit=200, where="back to the navigation")
    page.keyboard.press("Enter")
    page.locator('[data-testid="stMainBlockContainer"] h1', has_text="Costs & groups").first.wait_for()
    step(page, "on Costs & groups")
    assert data_choice(page) == UPLOADED

    # 3. The price sliders, moved with the arrows: the answer follows.
    before = answer(page)
    tab_to(page, "A false positive costs", where="to the first price")
    thumb = "getComputedStyle(document.activeElement.parentElement.parentElement).outlineStyle"  # the range input's
    assert page.evaluate(thumb) == "solid", "the slider's thumb shows only Streamlit's pale halo"
    start = slider_value(page, "A false positive costs")
    press(page, "ArrowRight", "moving the false positive's price")
    press(page, "ArrowRight", "moving the false positive's price")
    assert slider_value(page, "A false positive costs") != start, f"ArrowRight left the price at {start}"
    assert answer(page) != before, "the answer did not change with the price"
    tab_to(page, "A false negative costs", where="to the second price")
    fn_start = slider_value(page, "A false negative costs")
    press(page, "ArrowLeft", "moving the false negative's price")
    assert slider_value(page, "A false negative costs") != fn_start

    # 4. Per-group prices (after the sliders) and the review limit (before them, Shift+Tab).
    switch_on(page, "Different prices per group")
    assert page.get_by_role("slider", name=re.compile(": a false positive costs$")).count() == 2  # groups x, y
    tab_to(page, capacity_words.CAP_TOGGLE, back=True, where="back to the review limit")
    press(page, "Space", "turning on the review limit")
    assert page.get_by_role("switch", name=capacity_words.CAP_TOGGLE).is_checked()

    # 5. The report and the policy, each downloaded with Enter. Streamlit disables a button whose
    # file is made on the press (these are: the audit is built only then) while it fetches the
    # file, and a disabled button loses focus; the next Tab goes on from it all the same.
    buttons = [
        ("Download the audit report (HTML)", r"cost_audit_[\w.-]+_\d{4}-\d\d-\d\d\.html"),  # its data, its day
        ("Download the policy (JSON)", r"cost_policy_[\w.-]+_\d{4}-\d\d-\d\d\.json"),
        (answers.COSTS_DETAILS.toggle, None),
    ]
    tab_to(page, buttons[0][0], where="to the report")
    for (button, file), (after, _) in zip(buttons, buttons[1:], strict=False):
        with page.expect_download() as got:
            page.keyboard.press("Enter")
        assert re.fullmatch(file, got.value.suggested_filename), got.value.suggested_filename
        assert Path(got.value.path()).stat().st_size > 0
        wait_for_app(page)
        if focused(page) is None:
            page.keyboard.press("Tab")
            assert_focus_visible(page, f"after downloading with {button!r}")
            assert focused(page)["name"] == after, f"Tab after {button!r} went to {focused(page)}"
        else:
            tab_to(page, after, where=f"from {button!r}")

    # 6. The details, then the first of their expanders opened with Enter.
    switch_on(page, answers.COSTS_DETAILS.toggle)
    tab_to(page, re.compile("By group: each rule's cutoff, flagged share and cost$"), where="to an expander")
    press(page, "Enter", "opening the expander")
    assert page.locator('[data-testid="stExpander"] details[open]').count() == 1
