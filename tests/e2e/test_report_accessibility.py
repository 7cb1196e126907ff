"""The offline HTML audit report (``python -m costlib audit ... --report FILE``) read as a reviewer
with assistive technology reads it, and printed (issue 38, item 4).

The report, opened from a file in Chromium with every network request refused, passes axe-core's
WCAG 2.x A and AA rules (through the `axe-playwright-python` package, which ships axe-core) with
every folded part opened; and under print media its print stylesheet applies: what only a screen
needs is hidden, the charts fit the page's width, tables are kept whole, and it prints to PDF.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from costlib.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = str(ROOT / "costlib" / "samples" / "compas.csv")
AUDIT = ["audit", SAMPLE, "--label", "two_year_recid", "--score", "p_recid", "--split", "split", "--group", "race"]
AUDIT += ["--c-fp", "1", "--c-fn", "3", "--unit", "$", "--volume", "10000", "--max-flagged", "2000"]
AUDIT += ["--resamples", "100"]
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
BLOCKING = ("critical", "serious")
A4_WIDTH_PX = 794  # 210 mm at 96 px an inch: a chart wider than the page is cut off in print


@pytest.fixture(scope="module")
def report_url(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("report") / "audit.html"
    assert main([*AUDIT, "--report", str(path)]) == 0
    return path.as_uri()


def _open(new_page, url: str):
    """The report in a fresh page, every request that leaves the file refused and recorded."""
    page = new_page()
    page.fetched = []

    def refuse(route, page=page):
        if not route.request.url.startswith(("file:", "data:", "blob:")):
            page.fetched.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.route("**/*", refuse)
    page.goto(url, wait_until="load")
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot .main-svg').length >= 4")
    return page


def _contrast_with_white(css_color: str) -> float:
    """WCAG's contrast ratio with white of an ``rgb(...)``/``rgba(...)`` colour (on white)."""
    parts = [float(x) for x in re.findall(r"[\d.]+", css_color)]
    alpha = parts[3] if len(parts) > 3 else 1.0
    channels = [(alpha * c + (1 - alpha) * 255) / 255 for c in parts[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 1.05 / (luminance + 0.05)


def _violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]})
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes'][:4]]}"
        for v in results.response["violations"]
        if v["impact"] in BLOCKING
    ]


def test_the_report_passes_axe_with_its_folded_parts_open_and_fetches_nothing(new_page, report_url):
    page = _open(new_page, report_url)
    assert page.evaluate("document.documentElement.lang") == "en"
    folded = page.evaluate(
        "() => { const d = [...document.querySelectorAll('details')]; d.forEach(x => x.open = true); return d.length }"
    )
    assert folded >= 4  # every chart's numbers, folded under it
    assert not _violations(page), _violations(page)
    levels = page.evaluate("[...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map(h => +h.tagName[1])")
    assert levels[0] == 1 and all(b <= a + 1 for a, b in itertools.pairwise(levels))  # no level skipped
    assert not page.fetched, page.fetched
    # the charts' own text (ticks, legends, labels: SVG, which axe leaves unjudged) reads at 4.5:1 on white;
    # a map's cell letters sit on their cells, in the colour Plotly picks against each (not on white)
    fills = page.evaluate(
        """() => [...new Set([...document.querySelectorAll('.js-plotly-plot svg text')]
              .filter(t => t.textContent.trim() && !t.closest('.heatmap-label'))
              .map(t => getComputedStyle(t).fill))]"""
    )
    letters = page.evaluate("document.querySelectorAll('.js-plotly-plot .heatmap-label text').length")
    assert letters > 0  # the sensitivity map says each cell's option in a letter, not only in colour
    low = {fill: round(_contrast_with_white(fill), 2) for fill in fills if _contrast_with_white(fill) < 4.5}
    assert fills and not low, low


def test_every_chart_has_its_sentence_and_its_numbers_beside_it(new_page, report_url):
    page = _open(new_page, report_url)
    charts = page.evaluate(
        """() => [...document.querySelectorAll('.js-plotly-plot')].map(plot => {
          const figure = plot.closest('figure');
          return figure && {
            caption: (figure.querySelector('figcaption') || {}).innerText || '',
            described: plot.closest('[aria-describedby]') !== null,
            headers: [...figure.querySelectorAll('details table th[scope=col]')].length,
            rows: figure.querySelectorAll('details table tbody tr').length,
          };
        })"""
    )
    assert len(charts) >= 4 and all(charts), charts
    for chart in charts:
        assert chart["caption"].endswith(".") and chart["described"] and chart["headers"] >= 2 and chart["rows"]


SVG_WIDTHS = "[...document.querySelectorAll('.js-plotly-plot .main-svg')].map(e => e.getBoundingClientRect().width)"


def test_the_report_prints_cleanly(new_page, report_url):
    page = _open(new_page, report_url)
    shown = "(sel) => [...document.querySelectorAll(sel)].map(e => getComputedStyle(e).display)"
    assert "none" not in page.evaluate(shown, ".screen-only, details > summary")  # on screen: there
    assert min(page.evaluate(SVG_WIDTHS)) > A4_WIDTH_PX  # on screen the charts are wider than a page
    page.emulate_media(media="print")
    assert set(page.evaluate(shown, ".screen-only, details > summary, .modebar-container")) == {"none"}
    # each chart drawn again at the page's width
    page.wait_for_function(f"() => ({SVG_WIDTHS}).every(w => w <= {A4_WIDTH_PX})", timeout=5_000)
    breaks = page.evaluate(
        "[...document.querySelectorAll('table.tbl, figure')].map(e => getComputedStyle(e).breakInside)"
    )
    assert set(breaks) == {"avoid"}
    pdf = page.pdf(format="A4", print_background=True)
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") >= 2
    page.emulate_media(media="screen")  # and back at the window's width after
    page.wait_for_function(f"() => ({SVG_WIDTHS}).every(w => w > {A4_WIDTH_PX})", timeout=5_000)
