"""Helpers for the browser journeys: wait for Streamlit, check for errors, read the page.

Streamlit renders asynchronously over a websocket, so every step is: act, wait until the
script has finished running and the page is quiet, then check that no exception is shown.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "artifacts" / "screenshots"
UPLOADED = "Your uploaded file"  # the sidebar's data choice once a file is mapped
CHART = '[data-testid="stPlotlyChart"] .js-plotly-plot, .js-plotly-plot'

_APP_STATE_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const status = document.querySelector('[data-testid="stStatusWidget"]');
  return {
    script: app ? app.getAttribute('data-test-script-state') : null,
    connection: app ? app.getAttribute('data-test-connection-state') : null,
    running: !!status && /running/i.test(status.innerText || ''),
    stale: document.querySelectorAll('[data-stale="true"]').length,
    spinner: document.querySelectorAll('[data-testid="stSpinner"]').length,
  };
}"""


class AppError(AssertionError):
    pass


def wait_for_app(page: Page, *, settle: float = 0.4, timeout: float = 30.0) -> None:
    """Wait until the script is not running (and nothing is stale) for `settle` seconds in a row."""
    deadline = time.monotonic() + timeout
    quiet_since = None
    state = {}
    while True:
        state = page.evaluate(_APP_STATE_JS)
        busy = (
            state["script"] != "notRunning"
            or state["running"]
            or state["stale"]
            or state["spinner"]
            or state["connection"] not in (None, "CONNECTED")
        )
        now = time.monotonic()
        if busy:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = now
        elif now - quiet_since >= settle:
            return
        if now > deadline:
            raise AppError(f"the app was still busy after {timeout:.0f}s: {state}")
        page.wait_for_timeout(50)


def assert_no_error(page: Page, where: str = "") -> None:
    """Fail if the page shows a Streamlit exception box or the word Traceback anywhere."""
    exc = page.locator('[data-testid="stException"]')
    if exc.count():
        raise AppError(f"Streamlit shows an exception{' ' + where if where else ''}: {exc.first.inner_text()[:1500]}")
    text = page.locator("body").inner_text()
    if "Traceback" in text:
        i = text.index("Traceback")
        raise AppError(f"the page shows a traceback{' ' + where if where else ''}: {text[i : i + 1500]}")


def step(page: Page, where: str = "", *, settle: float = 0.4, timeout: float = 30.0) -> None:
    """After every action: wait for the app, then check for errors."""
    wait_for_app(page, settle=settle, timeout=timeout)
    assert_no_error(page, where)


def wait_for_chart(page: Page, *, timeout: float = 30.0) -> Locator:
    """The first rendered Plotly chart (its SVG drawn), after the app is idle."""
    step(page, timeout=timeout)
    chart = page.locator(CHART).first
    chart.wait_for(state="visible", timeout=timeout * 1000)
    chart.locator(".main-svg").first.wait_for(state="attached", timeout=timeout * 1000)
    assert_no_error(page)
    return chart


# The app's page links: Streamlit's sidebar list or, with st.navigation(position="top"), the top bar.
NAV_LINKS = '[data-testid="stSidebarNavLink"], [data-testid="stTopNavLink"]'


def nav_titles(page: Page) -> list[str]:
    """The page titles in the app's navigation, in order (icons dropped)."""
    texts = page.locator(NAV_LINKS).all_inner_texts()
    return [t.split("\n")[-1].strip() for t in texts]


def goto(page: Page, url: str, *, chart: bool = False) -> None:
    page.goto(url)
    page.locator('[data-testid="stApp"]').wait_for()
    # The first run starts only after the websocket is up: wait for some main content.
    page.locator('[data-testid="stMainBlockContainer"] h1').first.wait_for()
    if chart:
        wait_for_chart(page)
    else:
        step(page, f"after opening {url}")


def nav(page: Page, title: str, *, chart: bool = True, timeout: float = 30.0) -> None:
    """Click the navigation link `title` (sidebar or top bar), as the user would."""
    link = page.locator(NAV_LINKS).filter(has_text=re.compile(rf"(^|\W){re.escape(title)}$"))
    link.click()
    page.locator('[data-testid="stMainBlockContainer"] h1', has_text=title).first.wait_for(timeout=timeout * 1000)
    if chart:
        wait_for_chart(page, timeout=timeout)
    else:
        step(page, f"on {title}", timeout=timeout)


def number_input(page: Page, label: str, *, nth: int = 0) -> Locator:
    """The `nth` number input whose visible label reads `label`, or `label (unit)`.

    Found by the visible label; test_accessibility checks that it is also the accessible name.
    """
    text = re.compile(rf"^{re.escape(label)}( \(.+\))?$")
    label_el = page.locator('[data-testid="stWidgetLabel"]').get_by_text(text)
    return page.locator('[data-testid="stNumberInput"]').filter(has=label_el).nth(nth).locator("input")


def set_number(page: Page, label: str, value: float | str, *, nth: int = 0) -> None:
    box = number_input(page, label, nth=nth)
    box.fill(str(value))
    box.press("Enter")
    step(page, f"after setting {label!r} to {value}")


def current_url(page: Page) -> str:
    return page.evaluate("location.href")


def wait_for_url(page: Page, pattern: str, timeout: float = 15.0) -> str:
    """location.href once it matches the regex `pattern` (Streamlit rewrites the URL after a run)."""
    deadline = time.monotonic() + timeout
    while True:
        href = current_url(page)
        if re.search(pattern, href):
            return href
        if time.monotonic() > deadline:
            raise AssertionError(f"the URL {href} never matched {pattern!r}")
        page.wait_for_timeout(100)


_GRID_JS = """el => {
  const rows = {};
  for (const tr of el.querySelectorAll('table[role="grid"] tr')) {
    rows[tr.getAttribute('aria-rowindex')] = [...tr.children].map(c => c.textContent);
  }
  const table = el.querySelector('table[role="grid"]');
  return {rows, count: table ? Number(table.getAttribute('aria-rowcount')) : 0};
}"""


def grid_rows(page: Page, grid: Locator | int = 0) -> list[dict[str, str]]:
    """The rows of an st.dataframe / st.data_editor, as dicts of header -> cell text.

    glide-data-grid draws on a canvas; the accessible <table> inside it holds the raw values
    (not the display format) of the rows it has rendered, so a long table is scrolled through.
    """
    loc = page.locator('[data-testid="stDataFrame"]').nth(grid) if isinstance(grid, int) else grid
    loc.scroll_into_view_if_needed()
    scroller = loc.locator(".dvn-scroller").first
    got = loc.evaluate(_GRID_JS)
    for _ in range(100):  # the grid fills its accessible table a moment after it is drawn
        if "1" in got["rows"] and got["count"]:
            break
        page.wait_for_timeout(50)
        got = loc.evaluate(_GRID_JS)
    seen: dict[str, list[str]] = dict(got["rows"])
    count = got["count"]
    top, height, full = scroller.evaluate("el => [el.scrollTop, el.clientHeight, el.scrollHeight]")
    while len(seen) < count and top + height < full:
        top += max(height - 80, 40)
        scroller.evaluate("(el, top) => { el.scrollTop = top; }", top)
        before = set(got["rows"])
        for _ in range(40):  # the grid redraws (and refills its table) after the scroll event
            page.wait_for_timeout(50)
            got = loc.evaluate(_GRID_JS)
            if set(got["rows"]) != before:
                break
        seen.update(got["rows"])
    scroller.evaluate("el => { el.scrollTop = 0; }")
    if len(seen) != count:
        raise AssertionError(f"read {len(seen) - 1} of {count - 1} rows of the table")
    header = seen.pop("1")
    body = [seen[k] for k in sorted(seen, key=int)]
    return [dict(zip(header, r, strict=True)) for r in body]


def grid_after(page: Page, heading: str) -> Locator:
    """The first st.dataframe after the subheader `heading`."""
    return page.locator(
        f'xpath=//h3[contains(normalize-space(.), "{heading}")]/following::div[@data-testid="stDataFrame"][1]'
    )


def data_choice(page: Page) -> str:
    """The sidebar's data choice as shown (a react-aria combobox)."""
    return page.locator('[data-testid="stSidebar"]').get_by_role("combobox", name="Data").input_value()


def alert_texts(page: Page) -> list[str]:
    """The words of each alert box, without the warning sign an error box starts with (`display.say`)."""
    return [t.strip().removeprefix("⚠️").strip() for t in page.locator('[data-testid="stAlert"]').all_inner_texts()]


def chart_titles(page: Page) -> list[str]:
    return [t.strip() for t in page.locator(".js-plotly-plot .gtitle").all_text_contents()]


def full_screenshot(page: Page, name: str) -> Path:
    """A PNG of the whole page: Streamlit scrolls inside its main area, so grow the viewport first."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    viewport = page.viewport_size or {"width": 1400, "height": 1000}
    height = page.evaluate(_PAGE_HEIGHT_JS)
    tall = min(max(height + 40, viewport["height"]), 16000)
    try:
        if tall > viewport["height"]:
            page.set_viewport_size({"width": viewport["width"], "height": tall})
            page.wait_for_timeout(400)  # Plotly redraws on resize
        page.screenshot(path=str(path), full_page=True)
    finally:
        page.set_viewport_size(viewport)
    return path


# ---------------------------------------------------------------------------------------
# The Data page


def upload(page: Page, path: Path, *, timeout: float = 30.0, shown: str | None = None) -> None:
    """Put `path` into the Data page's file input and wait until the page is about that file.

    The rerun starts only after the upload finishes, so "the app is idle" is not enough: wait
    for the preview caption or an error naming the file (the uploader's own chip shortens long
    names). Pressing "Use these columns" in that gap would submit the previous file's form.
    """
    main = page.locator('[data-testid="stMainBlockContainer"]')
    name = shown or path.name  # `shown`: how the page writes the name, when it differs
    about = main.locator('[data-testid="stCaptionContainer"], [data-testid="stAlert"]', has_text=name).first
    wait_for_app(page, settle=0.3, timeout=timeout)  # a rerun still drawing the page could replace the input
    page.set_input_files("input[type=file]", str(path))
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        about.wait_for(timeout=timeout * 500)
    except PlaywrightTimeout:
        # the file never reached the uploader (it shows no file): give it once more
        if page.locator('[data-testid="stFileUploaderFile"]').count() == 0:
            page.set_input_files("input[type=file]", str(path))
        about.wait_for(timeout=timeout * 500)
    step(page, f"after uploading {path.name}", timeout=timeout)


def use_these_columns(page: Page, *, timeout: float = 30.0) -> None:
    page.get_by_role("button", name="Use these columns").click()
    step(page, "after pressing Use these columns", timeout=timeout)


def sidebar_text(page: Page) -> str:
    return page.locator('[data-testid="stSidebarUserContent"]').inner_text()


def pick(page: Page, combobox: str, option: str) -> None:
    """Choose `option` in the select box or multiselect labelled `combobox`."""
    page.get_by_role("combobox", name=combobox).click()
    page.keyboard.press("ArrowDown")  # opens the list
    page.get_by_role("option", name=option, exact=True).click()
    if page.get_by_role("listbox").count():
        page.keyboard.press("Escape")


# ---------------------------------------------------------------------------------------
# Accessibility: axe-core (shipped by the axe-playwright-python package) and keyboard focus

AXE_WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")  # WCAG 2.0-2.2, levels A and AA
AXE_BLOCKING = ("critical", "serious")  # the impacts a page may not have
_PAGE_HEIGHT_JS = """() => {
  let h = document.documentElement.scrollHeight;
  for (const el of document.querySelectorAll('[data-testid="stMain"], [data-testid="stAppViewContainer"],'
                                             + '[data-testid="stSidebarContent"], section, main')) {
    h = Math.max(h, el.scrollHeight + el.getBoundingClientRect().top);
  }
  return Math.ceil(h);
}"""


def axe_violations(page: Page, *, exclude: tuple[str, ...] = (), tall: bool = True) -> list[dict]:
    """axe-core's violations of the WCAG 2.x A/AA rules (`AXE_WCAG_TAGS`) on the page as it stands.

    Parameters
    ----------
    page : Page
        The page, settled (`step`).
    exclude : tuple of str
        CSS selectors axe leaves out (each caller says why: only what the app cannot fix).
    tall : bool
        Grow the viewport to the whole page first: Streamlit scrolls inside its main area, and
        axe does not judge the contrast of text scrolled out of sight.

    Returns
    -------
    list of dict
        axe's violation objects (``id``, ``impact``, ``help``, ``nodes`` with ``target``).
    """
    from axe_playwright_python.sync_playwright import Axe

    options = {"runOnly": {"type": "tag", "values": list(AXE_WCAG_TAGS)}, "resultTypes": ["violations"]}
    context = {"exclude": [[sel] for sel in exclude]} if exclude else None
    viewport = page.viewport_size or {"width": 1400, "height": 1000}
    try:
        if tall:
            height = min(max(page.evaluate(_PAGE_HEIGHT_JS) + 40, viewport["height"]), 16000)
            if height > viewport["height"]:
                page.set_viewport_size({"width": viewport["width"], "height": height})
                page.wait_for_timeout(400)  # Plotly redraws on resize
        page.evaluate(Axe().axe_script)
        found = page.evaluate("([context, options]) => axe.run(context || document, options)", [context, options])
    finally:
        page.set_viewport_size(viewport)
    return found["violations"]


def axe_blocking(violations: list[dict]) -> list[dict]:
    """The violations whose impact is critical or serious (`AXE_BLOCKING`)."""
    return [v for v in violations if v.get("impact") in AXE_BLOCKING]


def axe_message(violations: list[dict], where: str) -> str:
    """One line per violation: rule id, impact, what it asks, and every failing node's target."""
    lines = [f"axe found {len(violations)} critical/serious WCAG violation(s) on {where}:"]
    for v in violations:
        targets = "; ".join(" ".join(map(str, n["target"])) for n in v["nodes"])
        summary = (v["nodes"][0].get("failureSummary") or "").replace("\n", " ")[:300] if v["nodes"] else ""
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']} [{len(v['nodes'])} node(s)]: {targets} -- {summary}")
    return "\n".join(lines)


def open_expanders(page: Page) -> int:
    """Open every closed st.expander on the page (as a reader would, by its summary); how many."""
    closed = page.locator('[data-testid="stExpander"] details:not([open]) > summary')
    n = closed.count()
    for _ in range(n):
        closed.first.click()  # the opened one leaves the locator's matches
    if n:
        step(page, f"after opening {n} expander(s)")
    return n


# The focused element: its accessible name (aria-label, its label, or its text, whitespace
# collapsed), its widget's data-testid, and the box where its focus indicator is looked for
# (the element grown by 6 px, within the viewport). The text field of a select box or an input
# is looked for on the whole field (its nearest bordered ancestor), whose border shows focus; a
# hidden checkbox/radio input or a tiny one on its label or parent, where Streamlit draws it;
# a table's canvas or cell on the whole table.
_FOCUS_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  let box = el.getBoundingClientRect();
  let field = null;  // a text field's box: the nearest of its 4 ancestors that has a border
  for (let e = el.parentElement, i = 0; ['INPUT', 'TEXTAREA'].includes(el.tagName) && el.type !== 'range'
       && e && i < 4 && !field; e = e.parentElement, i++) {
    if (parseFloat(getComputedStyle(e).borderTopWidth) >= 1) field = e;
  }
  const grid = el.closest('[data-testid="stDataFrame"]');  // the grid's canvas or its cells' table
  if (grid && !el.closest('[data-testid="stElementToolbar"]')) {
    box = grid.getBoundingClientRect();
  } else if (field) {
    box = field.getBoundingClientRect();
  } else if (box.width < 8 || box.height < 8 || ['checkbox', 'radio'].includes(el.type)
             || getComputedStyle(el).opacity === '0') {
    box = (el.closest('label') || el.parentElement).getBoundingClientRect();
  }
  const x0 = Math.max(box.left - 6, 0), y0 = Math.max(box.top - 6, 0);
  const x1 = Math.min(box.right + 6, window.innerWidth), y1 = Math.min(box.bottom + 6, window.innerHeight);
  const label = el.labels && el.labels.length ? el.labels[0].innerText : '';
  let name = (el.getAttribute('aria-label') || label || el.innerText || el.value || '').replace(/\\s+/g, ' ').trim();
  let tag = el.tagName.toLowerCase(), widget = el.closest('[data-testid]');
  if (grid && !el.closest('[data-testid="stElementToolbar"]')) {  // canvas and cells pass focus around: one stop
    name = `table ${[...document.querySelectorAll('[data-testid="stDataFrame"]')].indexOf(grid) + 1}`;
    tag = 'grid';
    widget = grid;
  }
  return {name, tag, testid: widget ? widget.getAttribute('data-testid') : '', tabbable: el.tabIndex >= 0,
          clip: {x: x0, y: y0, width: Math.max(x1 - x0, 0), height: Math.max(y1 - y0, 0)}};
}"""
FOCUS_MIN_PIXELS = 64  # a focus indicator changes at least a 1-px ring around a 16-px icon


def focused(page: Page) -> dict | None:
    """The focused element (`_FOCUS_JS`): name, tag, testid and clip; None when nothing is."""
    return page.evaluate(_FOCUS_JS)


def _pixels(page: Page, clip: dict):
    import io

    import numpy as np
    from PIL import Image

    png = page.screenshot(clip=clip, animations="disabled")  # transitions jump to their end
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def assert_focus_visible(page: Page, where: str = "", *, back: str = "Shift+Tab", again: str = "Tab") -> dict:
    """Fail unless the focused element shows that it has focus (WCAG 2.4.7, 2.4.11): its box
    (`_FOCUS_JS`) is drawn with focus, focus is moved away by the keyboard (`back`) and back
    again (`again`), and the two pictures must differ in at least `FOCUS_MIN_PIXELS` pixels (or
    the whole ring of a smaller box). Only the keyboard moves focus, as the reader's own would.

    Each element is checked once per page (by name, tag and widget); returns the focused element.
    """
    import numpy as np

    now = focused(page)
    assert now is not None, f"nothing has keyboard focus {where}"
    if not hasattr(page, "focus_seen"):
        page.focus_seen = set()  # the elements of this page whose focus indicator was seen
    seen = page.focus_seen
    key = (now["name"], now["tag"], now["testid"])
    if key in seen:
        return now
    clip = now["clip"]
    assert clip["width"] > 0 and clip["height"] > 0, f"the focused {now} is outside the window {where}"
    with_focus = _pixels(page, clip)
    moves = 0
    while moves < 6:  # away from it (a table's canvas and cells are one stop: out of the table)
        page.keyboard.press(back)
        moves += 1
        away = focused(page)
        if away is None or (away["name"], away["tag"]) != key[:2]:
            break
    without = _pixels(page, clip)
    for _ in range(moves):
        page.keyboard.press(again)
    returned = focused(page)
    assert returned is not None and (returned["name"], returned["tag"]) == key[:2], (
        f"{back} then {again} did not come back to {now['name']!r}, it went to {returned} {where}"
    )
    changed = int((np.abs(with_focus - without).max(axis=2) > 24).sum())
    ring = 2 * (clip["width"] + clip["height"])
    assert changed >= min(FOCUS_MIN_PIXELS, ring), (
        f"keyboard focus is not visible on the {now['tag']} {now['name']!r} ({now['testid']}) {where}: "
        f"{changed} pixels change when it gets focus"
    )
    seen.add(key)
    return now


def tab_to(page: Page, name: str | re.Pattern, *, back: bool = False, limit: int = 120, where: str = "") -> dict:
    """Press Tab (Shift+Tab when `back`) until the focused element's name matches `name` (a
    regex searched in it, or the exact text), checking at every step that focus is visible
    (`assert_focus_visible`). A press that leaves nothing focused, or an element Tab does not
    stop at, is followed by the next, as a reader would press again."""
    key, undo = ("Shift+Tab", "Tab") if back else ("Tab", "Shift+Tab")
    trail = []
    for _ in range(limit):
        page.keyboard.press(key)
        now = focused(page)
        if now is None or not now["tabbable"]:
            # out of the page, a new page drawn, or an element only a script focuses (the file
            # input after the file chooser closes): the next press goes on from there
            trail.append("(nothing)" if now is None else f"({now['name'][:40]}, not tabbable)")
            continue
        now = assert_focus_visible(page, where, back=undo, again=key)
        trail.append(now["name"][:40])
        hit = re.search(name, now["name"]) if isinstance(name, re.Pattern) else now["name"] == name
        if hit:
            return now
    raise AssertionError(f"{limit} presses of {key} never reached {name!r} {where}; passed {trail}")
