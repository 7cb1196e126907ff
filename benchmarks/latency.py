"""Slider latency in the real app, as a ratio to a one-slider, one-chart Streamlit app.

Run by hand (not a test); needs Debian's /usr/bin/chromium and the dev requirements:

    python benchmarks/latency.py                  # samples and a 1,000,000-row upload, 3 rounds of 6 moves
    python benchmarks/latency.py --rows 0         # samples only
    python benchmarks/latency.py --json out.json  # also write the figures

What is timed: key press to a quiet page. The page records performance.now() in a capturing
keydown listener and, with a MutationObserver, the time of every later change of the page;
once the script is not running, nothing is stale, no spinner shows and nothing has changed
for 150 ms, the result is the time of the last change minus the key press. On every page that
has a slider the slider is focused and moved with ArrowRight: Costs & groups (the
false-negative price), Value (k), Calibration (bins), Instance costs (the explored cutoff).

The app is started as the README starts it (``costlib dashboard``: its imports warmed before
the first visitor). The yardstick is benchmarks/minimal_app.py (one select_slider, one Plotly
chart) on a server of its own. The machine's speed drifts over minutes, so the runs are
interleaved: each round times the yardstick, then every page, and the medians are over all
rounds. Ratios to the yardstick's median are what to compare across machines; the target is
at most 1.5x on every page (issue 23).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))

from e2e_server import CHROMIUM, CHROMIUM_ARGS, AppServer  # noqa: E402
from e2e_support import goto, nav, step, upload, use_these_columns, wait_for_app  # noqa: E402

ARM_JS = """() => {
  // Resolves window.__quietResult with (last change of the page after the key press) - (key press):
  // the page counts as quiet once the script is not running, nothing is stale and nothing has
  // changed for 150 ms; the time reported is that of the last change, not of the wait.
  window.__quietResult = undefined;
  window.__keydown = undefined;
  if (!window.__keyListener) {
    window.__keyListener = true;
    document.addEventListener('keydown', () => {
      if (window.__keydown === undefined) window.__keydown = performance.now();
    }, {capture: true});
  }
  const app = document.querySelector('[data-testid="stApp"]');
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  let last;
  const quiet = () => app.getAttribute('data-test-script-state') !== 'running'
    && !document.querySelector('[data-stale="true"]') && !document.querySelector('[data-testid="stSpinner"]');
  const observer = new MutationObserver(() => {
    if (window.__keydown !== undefined) last = performance.now();
  });
  observer.observe(main, {subtree: true, childList: true, characterData: true, attributes: true});
  const timer = setInterval(() => {
    if (last !== undefined && quiet() && performance.now() - last >= 150) {
      clearInterval(timer);
      observer.disconnect();
      window.__quietResult = last - window.__keydown;
    }
  }, 16);
}"""

# page path, the slider's label (None: the first slider), the page's title in the navigation
PAGES = {
    "costs": ("/costs", "A false negative costs", "Costs & groups"),
    "value": ("/value", None, "Value"),
    "calibration": ("/calibration", "Bins", "Calibration"),
    "instance": ("/instance", "Cutoff", "Instance costs"),
}


def make_table(rows: int, path: Path, seed: int = 0) -> Path:
    """label, two score columns, group, split and annotator votes (CSV ~35 bytes a row, or Parquet)."""
    rng = np.random.default_rng(seed)
    parts = []
    with open(path, "w", newline="") as f:
        if path.suffix == ".csv":
            f.write("label,score_a,score_b,group,split,n_yes,n_no\n")
        for start in range(0, rows, 1_000_000):
            n = min(1_000_000, rows - start)
            y = rng.integers(0, 2, n)
            z = 2 * y - 1
            yes = rng.binomial(3, np.where(y == 1, 0.8, 0.2))
            part = pd.DataFrame(
                {
                    "label": y,
                    "score_a": np.round(1 / (1 + np.exp(-(1.5 * z + rng.normal(0, 1.2, n)))), 4),
                    "score_b": np.round(1 / (1 + np.exp(-(1.0 * z + rng.normal(0, 1.0, n)))), 4),
                    "group": rng.choice(np.array(["A", "B", "C"]), n),
                    "split": rng.choice(np.array(["train", "test"]), n),
                    "n_yes": np.where(y == 1, np.maximum(yes, 2), np.minimum(yes, 1)),
                    "n_no": 3 - np.where(y == 1, np.maximum(yes, 2), np.minimum(yes, 1)),
                }
            )
            if path.suffix == ".csv":
                part.to_csv(f, header=False, index=False, float_format="%.4f")
            else:
                parts.append(part)
    if parts:
        pd.concat(parts, ignore_index=True).to_parquet(path, index=False)
    return path


def slider(page, label: str | None):
    if label is None:
        return page.get_by_role("slider").first
    return page.locator('[data-testid="stSlider"]', has=page.get_by_text(label, exact=True)).get_by_role("slider")


def moved(s, before: str | None, within: float = 5.0) -> bool:
    """Whether the slider's value left `before` within `within` seconds."""
    end = time.perf_counter() + within
    while time.perf_counter() < end:
        if s.input_value() != before:
            return True
        time.sleep(0.01)
    return False


def measure(page, label: str | None, moves: int) -> list[float]:
    s = slider(page, label)
    s.scroll_into_view_if_needed()
    s.focus()
    out = []
    for _ in range(moves):
        # a slider already at its end would not move (and nothing would change): turn back.
        # (k follows the prices, so after the Costs page's moves the Value slider can start at 20)
        at_end = s.evaluate("e => Number(e.value) >= Number(e.max)")
        before = s.input_value()
        for _attempt in range(3):
            page.evaluate(ARM_JS)
            page.keyboard.press("ArrowLeft" if at_end else "ArrowRight")
            # a key press that missed the slider (focus lost to a rerun) would leave nothing to wait for
            if moved(s, before):
                break
            s.focus()
        else:
            raise RuntimeError("the slider did not move on three key presses in a row")
        page.wait_for_function("() => window.__quietResult !== undefined", timeout=300_000, polling=20)
        out.append(page.evaluate("() => window.__quietResult"))
        wait_for_app(page, settle=0.3, timeout=300)
        s.focus()
    return out


def new_page(browser):
    """(context, page) at 1400 x 1000 px, as every timing here uses."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.set_default_timeout(600_000)
    return ctx, ctx.new_page()


def load_table(page, table: Path) -> None:
    """Upload `table` through the Data page's file input (the app open in `page`) and use the
    columns it guesses, as a user would."""
    upload(page, table, timeout=900)
    use_these_columns(page, timeout=900)
    page.get_by_text(f"Loaded “{table.name}”").wait_for()


def median(ms: list[float]) -> float:
    return round(statistics.median(ms), 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000, help="rows of the uploaded file (0: samples only)")
    ap.add_argument("--moves", type=int, default=6, help="moves timed per page and round")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (yardstick, then every page)")
    ap.add_argument("--json", type=Path, help="also write the figures")
    ap.add_argument("--pages", nargs="*", default=list(PAGES), choices=list(PAGES), help="the pages to time")
    ap.add_argument("--parquet", action="store_true", help="upload Parquet instead of CSV (what 1e7 rows needs)")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        print(f"needs Chromium at {CHROMIUM}", file=sys.stderr)
        return 2
    results: dict = {"moves": args.moves, "rounds": args.rounds, "rows": args.rows, "median_ms": {}, "ratio": {}}
    times: dict[str, list[float]] = {"yardstick": []}
    log = Path(tempfile.gettempdir()) / "costlib_latency_server.log"
    app = AppServer(log, warm=True).start()
    yardstick = AppServer(log, script=str(REPO / "benchmarks" / "minimal_app.py")).start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

            def fresh():
                return new_page(browser)

            def timed(name: str, page, label: str | None, warm_up: int = 2) -> None:
                measure(page, label, warm_up)
                times.setdefault(name, []).extend(measure(page, label, args.moves))

            big = None  # the session that holds the uploaded file (a reload would forget it)
            if args.rows:
                suffix = ".parquet" if args.parquet else ".csv"
                table = Path(tempfile.gettempdir()) / f"costlib_latency_{args.rows}{suffix}"
                if not table.exists():
                    make_table(args.rows, table)
                big_ctx, big = fresh()
                goto(big, app.url + "/")
                t = time.perf_counter()
                load_table(big, table)
                results["upload_and_map_s"] = round(time.perf_counter() - t, 1)
                results["server_peak_rss_mb"] = {"after mapping": app.peak_rss_mb()}

            for round_ in range(args.rounds):
                ctx, page = fresh()
                goto(page, yardstick.url + "/", chart=True)
                timed("yardstick", page, None, warm_up=3)
                ctx.close()
                for name, (path, label, _) in PAGES.items():
                    if name not in args.pages:
                        continue
                    ctx, page = fresh()
                    data = "offensive" if name == "instance" else "compas"
                    goto(page, f"{app.url}{path}?data={data}", chart=True)
                    timed(f"{name} (sample)", page, label)
                    ctx.close()
                for name, (_, label, title) in PAGES.items():
                    if big is None or name not in args.pages:
                        continue
                    t = time.perf_counter()
                    nav(big, title, timeout=900)  # in the same session as the upload
                    step(big, "first visit", timeout=900)
                    if round_ == 0:
                        results.setdefault("first_visit_s", {})[name] = round(time.perf_counter() - t, 1)
                    timed(f"{name} ({args.rows:,} rows)", big, label)
                    results["server_peak_rss_mb"][f"after {name}"] = app.peak_rss_mb()
            browser.close()
    finally:
        app.stop()
        yardstick.stop()
    for name, ms in times.items():
        results["median_ms"][name] = median(ms)
    floor = results["median_ms"]["yardstick"]
    for name, ms in results["median_ms"].items():
        results["ratio"][name] = round(ms / floor, 2)
        print(f"{name:>32}: median {ms:7.1f} ms  = {ms / floor:5.2f} x the yardstick")
    if "upload_and_map_s" in results:
        print(f"upload and mapping: {results['upload_and_map_s']} s; first visits (s): {results['first_visit_s']}")
        print(f"server peak memory (MB): {results['server_peak_rss_mb']}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
