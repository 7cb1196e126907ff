"""Server load (run by hand, not in CI): many people at once, and the server's memory.

Starts the app on a loopback port and opens N headless Chromium sessions at once (one browser,
N contexts). Each uploads its own CSV of predictions on the Data page (`--rows` rows, its own
seed), presses "Use these columns", opens Costs & groups, moves the false-negative price
`--moves` times, downloads the audit report, and closes its tab. A sampler reads the server's
resident memory (VmRSS) every 0.25 s throughout. Reported: the server's memory at start, its
peak, and after every tab closed (`--settle` seconds later: memory returned when the sessions
ended), the sessions that finished, and the refusals (the sentence a busy server gives).

    python benchmarks/server_load.py                                  # 20 sessions of 200,000 rows
    python benchmarks/server_load.py --sessions 6 --rows 1000000 --server-mb 1024   # at the budget's edge
    python benchmarks/server_load.py --root /path/to/other/checkout   # the same load on another tree

Traffic goes to 127.0.0.1 only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

from load_test import CHROMIUM, CHROMIUM_ARGS, ROOT, free_port, start_server
from playwright.async_api import async_playwright
from processes import write_predictions

BUSY = "this server"  # words of every refusal for lack of server memory


def rss_mb(pid: int, field: str = "VmRSS:") -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) / 1024
    return float("nan")


async def _first(page, wanted, refused, outcome: dict, seconds: float = 600) -> bool:
    """Wait for `wanted` (True) or a busy server's refusal (False, recorded in `outcome`)."""
    for _ in range(int(seconds * 4)):
        if await wanted.count():
            return True
        if await refused.count():
            outcome["refused"] = (await refused.first.inner_text())[:300]
            return False
        await asyncio.sleep(0.25)
    outcome["error"] = f"neither {wanted} nor a refusal within {seconds:.0f} s"
    return False


async def session(browser, url: str, path: Path, moves: int, outcome: dict) -> None:
    context = await browser.new_context(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    page = await context.new_page()
    try:
        await page.goto(url + "/", timeout=600_000)
        await page.wait_for_selector("input[type=file]", state="attached", timeout=600_000)
        await page.set_input_files("input[type=file]", str(path))
        button = page.get_by_role("button", name="Use these columns")
        refused = page.locator('[data-testid="stAlert"]', has_text=BUSY)
        if not await _first(page, button, refused, outcome):  # the read itself may be refused
            return
        await button.click()
        if not await _first(page, page.get_by_text(f"Loaded “{path.name}”"), refused, outcome):
            return
        await page.get_by_role("link", name="Costs & groups").first.click()
        await page.wait_for_selector('[data-testid="stPlotlyChart"] .main-svg', timeout=300_000)
        slider = page.get_by_role("slider").nth(1)  # the false-negative price
        for i in range(moves):
            await slider.focus()
            await page.keyboard.press("ArrowRight" if i % 2 == 0 else "ArrowLeft")
            await asyncio.sleep(1.0)
        await page.wait_for_selector('[data-testid="stPlotlyChart"] .main-svg', timeout=300_000)
        async with page.expect_download(timeout=300_000) as info:
            await page.get_by_role("button", name="Download the audit report (HTML)").click()
        download = await info.value
        outcome["report_bytes"] = Path(await download.path()).stat().st_size
        if await page.locator('[data-testid="stException"]').count():
            outcome["error"] = "the page shows an exception"
        outcome["done"] = True
    except Exception as exc:  # a session that fails is counted, not fatal for the others
        outcome["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
    finally:
        await context.close()


async def sample(pid: int, trace: list, stop: asyncio.Event) -> None:
    while not stop.is_set():
        trace.append((time.perf_counter(), rss_mb(pid)))
        await asyncio.sleep(0.25)


async def main_async(args) -> dict:
    port = free_port()
    env = {"COSTLIB_SERVER_MEMORY_MB": str(args.server_mb)} if args.server_mb else {}
    server = start_server(port, root=Path(args.root), env=env)
    url = f"http://127.0.0.1:{port}"
    folder = Path(tempfile.mkdtemp(prefix="costlib-load-"))
    files = [write_predictions(folder / f"predictions_{i}.csv", args.rows, i) for i in range(args.sessions)]
    outcomes = [{} for _ in files]
    trace: list = []
    try:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            warm = await browser.new_page()  # the pages' imports, paid before the baseline is taken
            await warm.goto(url + "/costs?data=compas", timeout=600_000)
            await warm.wait_for_selector('[data-testid="stPlotlyChart"] .main-svg', timeout=600_000)
            await warm.close()
            await asyncio.sleep(3)
            start_mb = rss_mb(server.pid)
            stop = asyncio.Event()
            sampler = asyncio.create_task(sample(server.pid, trace, stop))
            started = time.perf_counter()
            await asyncio.gather(
                *(session(browser, url, f, args.moves, o) for f, o in zip(files, outcomes, strict=True))
            )
            wall = time.perf_counter() - started
            closed_at = time.perf_counter()
            await asyncio.sleep(args.settle)
            stop.set()
            await sampler
            await browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    peak = max(mb for _, mb in trace)
    final = trace[-1][1]
    result = {
        "date": time.strftime("%Y-%m-%d"),
        "root": str(args.root),
        "sessions": args.sessions,
        "rows": args.rows,
        "server_mb_budget": args.server_mb or "default (half the machine)",
        "wall_s": round(wall, 1),
        "start_mb": round(start_mb),
        "peak_mb": round(peak),
        "final_mb": round(final),
        "returned_share": round((peak - final) / max(peak - start_mb, 1e-9), 2),
        "settle_s": args.settle,
        "done": sum(bool(o.get("done")) for o in outcomes),
        "refused": sum("refused" in o for o in outcomes),
        "errors": [o["error"] for o in outcomes if "error" in o],
        "refusal_example": next((o["refused"] for o in outcomes if "refused" in o), None),
        "after_close": [round(mb) for t, mb in trace if t >= closed_at][:: max(1, int(4 * args.settle / 12))],
    }
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--moves", type=int, default=3)
    ap.add_argument("--server-mb", type=int, default=0, help="COSTLIB_SERVER_MEMORY_MB for the server (0: default)")
    ap.add_argument("--settle", type=float, default=30.0, help="seconds to watch the memory after the tabs close")
    ap.add_argument("--root", default=str(ROOT), help="the checkout whose app.py is served")
    result = asyncio.run(main_async(ap.parse_args()))
    print(json.dumps(result, indent=2, ensure_ascii=False))
    if result["errors"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
