"""Slider latency in the real app: key press to chart redraw, measured inside the browser.

Run by hand (not a test); needs Debian's /usr/bin/chromium and the dev requirements:

    python benchmarks/latency.py                 # 1,000,000 rows, 20 moves, plus the sample floor
    python benchmarks/latency.py --rows 10000000 # refused when the CSV exceeds server.maxUploadSize

What it does: writes a CSV (label, two score columns, group, split) under /tmp, starts
`streamlit run app.py` on a free loopback port, uploads the file through the Data page's real
file input, maps it with "Use these columns", opens the Value page and moves the k slider with
the keyboard. For every move the page itself records performance.now() in a capturing keydown
listener and again, through a MutationObserver, at the first animation frame after the Value
chart's title shows the new k (Streamlit reruns the script, sends the new figure, Plotly
redraws). The result lives in a promise stored on `window` and is polled, so no page.evaluate
call blocks while the app works. The same is then measured on the built-in COMPAS sample
(6,172 rows) as a floor: what the round trip costs when the data is small.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))

from e2e_server import CHROMIUM, CHROMIUM_ARGS, AppServer  # noqa: E402
from e2e_support import goto, nav, step, upload, use_these_columns  # noqa: E402

VALUE_TITLE = "Value per case against the confidence threshold"

# Arms one measurement: resolves window.__latency with (redraw - keydown) in ms.
ARM_JS = """(title) => {
  const chartTitle = () => {
    for (const t of document.querySelectorAll('.js-plotly-plot .gtitle')) {
      if (t.textContent.startsWith(title)) return t.textContent;
    }
    return null;
  };
  const before = chartTitle();
  window.__latencyResult = undefined;
  window.__latencyKeydown = undefined;
  if (!window.__latencyListener) {
    window.__latencyListener = true;
    document.addEventListener('keydown', () => {
      if (window.__latencyKeydown === undefined) window.__latencyKeydown = performance.now();
    }, {capture: true});
  }
  window.__latency = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (window.__latencyKeydown === undefined) return;
      const now = chartTitle();
      if (now !== null && now !== before) {
        observer.disconnect();
        requestAnimationFrame(() => resolve({ms: performance.now() - window.__latencyKeydown, title: now}));
      }
    });
    observer.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
  });
  window.__latency.then((r) => { window.__latencyResult = r; });
  return before;
}"""


def make_csv(rows: int, path: Path, seed: int = 0) -> Path:
    """label, two score columns (a sharper and a noisier model), group, split; ~25 bytes a row."""
    rng = np.random.default_rng(seed)
    chunk = 1_000_000
    with open(path, "w", newline="") as f:
        f.write("label,score_a,score_b,group,split\n")
        for start in range(0, rows, chunk):
            n = min(chunk, rows - start)
            y = rng.integers(0, 2, n)
            z = 2 * y - 1
            a = 1 / (1 + np.exp(-(1.5 * z + rng.normal(0, 1.2, n))))
            b = 1 / (1 + np.exp(-(1.0 * z + rng.normal(0, 1.0, n))))
            df = pd.DataFrame({
                "label": y,
                "score_a": np.round(a, 4),
                "score_b": np.round(b, 4),
                "group": rng.choice(np.array(["A", "B", "C"]), n),
                "split": rng.choice(np.array(["train", "test"]), n),
            })
            df.to_csv(f, header=False, index=False, float_format="%.4f")
    return path


def upload_limit_mb() -> float:
    config = REPO / ".streamlit" / "config.toml"
    if config.exists():
        with open(config, "rb") as f:
            return float(tomllib.load(f).get("server", {}).get("maxUploadSize", 200))
    return 200.0


def measure_moves(page, moves: int) -> list[float]:
    """`moves` ArrowRight presses on the k slider, each timed from keydown to chart redraw."""
    slider = page.get_by_role("slider").first
    slider.focus()
    out = []
    for _ in range(moves):
        before = page.evaluate(ARM_JS, VALUE_TITLE)
        page.keyboard.press("ArrowRight")  # k: 2 -> 2.25 -> 2.5 ...: every move is a new k
        page.wait_for_function("() => window.__latencyResult !== undefined", timeout=300_000, polling=20)
        result = page.evaluate("() => window.__latencyResult")
        if result["title"] == before:
            raise RuntimeError("the chart title did not change")
        out.append(result["ms"])
        step(page, "after a slider move", settle=0.3, timeout=300)  # the run is over before the next press
    return out


def summary(ms: list[float]) -> dict:
    return {"n": len(ms), "median_ms": round(statistics.median(ms), 1),
            "p95_ms": round(float(np.percentile(ms, 95)), 1), "min_ms": round(min(ms), 1),
            "max_ms": round(max(ms), 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--csv-dir", type=Path, default=Path(tempfile.gettempdir()))
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        print(f"needs Chromium at {CHROMIUM}", file=sys.stderr)
        return 2
    path = args.csv_dir / f"costlib_latency_{args.rows}.csv"
    t = time.perf_counter()
    if not path.exists():
        make_csv(args.rows, path)
    size_mb = path.stat().st_size / 2**20  # Streamlit's limit counts MB of 2**20 bytes
    print(f"CSV: {path} ({args.rows:,} rows, {size_mb:.1f} MiB, written in {time.perf_counter() - t:.1f} s)")
    limit = upload_limit_mb()
    if size_mb > limit:
        print(f"Not measured: the CSV is {size_mb:.0f} MiB, above server.maxUploadSize = {limit:g} in "
              ".streamlit/config.toml. The uploader refuses it in the browser (\"File must be "
              f"{limit:.1f}MB or smaller.\") and the server would answer HTTP 413.")
        return 3

    results: dict = {"rows": args.rows, "csv_mb": round(size_mb, 1)}
    log = Path(tempfile.gettempdir()) / "costlib_latency_server.log"
    log.unlink(missing_ok=True)
    server = AppServer(log).start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                # Floor first, on a fresh session with the built-in sample.
                ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
                ctx.set_default_timeout(300_000)
                page = ctx.new_page()
                goto(page, server.url + "/")
                nav(page, "Value")
                measure_moves(page, 3)  # warm-up
                goto(page, server.url + "/")
                nav(page, "Value")
                results["sample_floor"] = summary(measure_moves(page, args.moves))
                ctx.close()

                ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
                ctx.set_default_timeout(600_000)
                page = ctx.new_page()
                goto(page, server.url + "/")
                t = time.perf_counter()
                upload(page, path, timeout=900)
                results["upload_and_preview_s"] = round(time.perf_counter() - t, 1)
                t = time.perf_counter()
                use_these_columns(page, timeout=900)
                page.get_by_text(f"Loaded “{path.name}”").wait_for()
                results["map_s"] = round(time.perf_counter() - t, 1)
                rows_shown = page.locator('[data-testid="stMetric"]', has_text="Rows").inner_text()
                assert f"{args.rows:,}" in rows_shown, rows_shown
                t = time.perf_counter()
                nav(page, "Value", timeout=900)
                results["first_value_page_s"] = round(time.perf_counter() - t, 1)
                title = next(x for x in page.locator(".js-plotly-plot .gtitle").all_text_contents()
                             if x.startswith(VALUE_TITLE))
                assert re.search(r"k = 2\b", title), title
                results["uploaded"] = summary(measure_moves(page, args.moves))
                ctx.close()
            finally:
                browser.close()
    finally:
        server.stop()

    print(f"upload + preview {results['upload_and_preview_s']} s, mapping {results['map_s']} s, "
          f"first Value page {results['first_value_page_s']} s")
    for name in ("uploaded", "sample_floor"):
        r = results[name]
        what = f"{args.rows:,} rows" if name == "uploaded" else "COMPAS sample (6,172 rows)"
        print(f"{what:>28}: key press -> chart redraw over {r['n']} moves: median {r['median_ms']} ms, "
              f"p95 {r['p95_ms']} ms (min {r['min_ms']}, max {r['max_ms']})")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
