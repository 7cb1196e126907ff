"""Load test (run by hand, not in CI): N concurrent browser sessions moving a slider.

Starts the app on a loopback port, opens N headless Chromium sessions (one browser,
N contexts) that each load the Value page on a built-in sample and move the k slider M
times with the keyboard. For every move it measures, inside the page, the time from the
key press to the chart's redraw (a MutationObserver on the chart, stored on `window` and
polled, never awaited inside page.evaluate). Reports errors (exception blocks, timeouts:
must be zero) and the median and 95th percentile of the latencies.

    python benchmarks/load_test.py                 # 20 sessions x 20 moves
    python benchmarks/load_test.py --sessions 5 --moves 10

Traffic goes to 127.0.0.1 only; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.async_api import async_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

ARM_JS = """() => {
  const chart = document.querySelector('[data-testid="stPlotlyChart"]');
  window.__redraw = null;
  window.__t0 = null;
  const obs = new MutationObserver(() => {
    if (window.__t0 !== null && window.__redraw === null) {
      window.__redraw = performance.now() - window.__t0;
      obs.disconnect();
    }
  });
  obs.observe(chart, {subtree: true, childList: true, characterData: true, attributes: true});
  document.addEventListener('keydown', () => { window.__t0 = performance.now(); }, {once: true, capture: true});
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, *, root: Path = ROOT, env: dict | None = None) -> subprocess.Popen:
    """`streamlit run app.py` in `root` on `port` (with `env` added to the environment)."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.fileWatcherType",
            "none",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=root,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).read() == b"ok":
                return proc
        except OSError:
            time.sleep(0.3)
    proc.terminate()
    raise RuntimeError("the app did not start within 60 s")


async def session(browser, url: str, moves: int, sample: str, latencies: list, errors: list) -> None:
    context = await browser.new_context(viewport={"width": 1300, "height": 900})
    page = await context.new_page()
    try:
        await page.goto(f"{url}/value?data={sample}", timeout=120_000)
        await page.wait_for_selector('[data-testid="stPlotlyChart"] .main-svg', timeout=120_000)
        slider = page.get_by_role("slider").first
        for i in range(moves):
            await page.evaluate(ARM_JS)
            await slider.focus()
            await page.keyboard.press("ArrowRight" if i % 2 == 0 else "ArrowLeft")
            for _ in range(600):  # at most 30 s per move
                value = await page.evaluate("() => window.__redraw")
                if value is not None:
                    latencies.append(value)
                    break
                await asyncio.sleep(0.05)
            else:
                errors.append(f"move {i}: no redraw within 30 s")
            if await page.locator('[data-testid="stException"]').count():
                errors.append(f"move {i}: the page shows an exception")
    except Exception as exc:  # a session that fails is counted, not fatal for the others
        errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        await context.close()


async def main_async(args) -> None:
    port = free_port()
    server = start_server(port)
    latencies: list[float] = []
    errors: list[str] = []
    try:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            started = time.perf_counter()
            await asyncio.gather(
                *(
                    session(browser, f"http://127.0.0.1:{port}", args.moves, args.sample, latencies, errors)
                    for _ in range(args.sessions)
                )
            )
            wall = time.perf_counter() - started
            await browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    q = statistics.quantiles(latencies, n=20) if len(latencies) >= 2 else [float("nan")] * 19
    print(f"sessions {args.sessions}, moves each {args.moves}, sample {args.sample}, wall {wall:.1f} s")
    print(f"redraws measured {len(latencies)} of {args.sessions * args.moves}; errors {len(errors)}")
    if latencies:
        print(
            f"key press to redraw: median {statistics.median(latencies):.0f} ms, p95 {q[18]:.0f} ms, "
            f"max {max(latencies):.0f} ms"
        )
    for e in errors[:10]:
        print("error:", e)
    if errors:
        sys.exit(1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--sample", default="screening")
    asyncio.run(main_async(ap.parse_args()))


if __name__ == "__main__":
    main()
