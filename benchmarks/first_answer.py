"""A shared link on a fresh server: how long until a page is quiet with its answer, against the
yardstick app's first chart (`minimal_app.py`), measured the same way in the same run.

Arms, alternating, each on a new server and a new browser context: the yardstick (``streamlit
run minimal_app.py``); Costs on a dashboard started cold (``streamlit run app.py``); and each
page asked for on a dashboard started as the README starts it (``python -m costlib dashboard``,
which imports the pages' modules before the server listens). Each server is given `--settle`
seconds after its health check answers (a server is started before anyone opens a link), then
the page's link is opened and timed from the navigation to a quiet page (no script running,
nothing stale, its chart drawn where it has one, nothing changed for 150 ms).

    python benchmarks/first_answer.py --repeat 3                       # Costs cold and warm
    python benchmarks/first_answer.py --repeat 3 --pages costs value matrix instance calibration watch prices
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))

from e2e_server import CHROMIUM, CHROMIUM_ARGS, AppServer  # noqa: E402
from e2e_support import wait_for_app  # noqa: E402

YARDSTICK = {"script": str(REPO / "benchmarks" / "minimal_app.py"), "path": "/"}
COLD = {"script": "app.py", "path": "/costs?data=compas"}
# each page's link, on the sample its answer is made from; whether the first paint has a chart
PAGE_LINKS = {
    "costs": ("/costs?data=compas", True),
    "value": ("/value?data=compas", True),
    "calibration": ("/calibration?data=compas", True),
    "matrix": ("/matrix?data=tickets", False),
    "instance": ("/instance?data=offensive", True),
    "prices": ("/prices?data=compas", False),
    "watch": ("/watch?data=compas", False),
    "train": ("/train?data=offensive", False),
    "data": ("/data?data=compas", False),
}


def arms(pages: list[str], cold: bool) -> dict:
    out = {"yardstick": YARDSTICK}
    if cold:
        out["costs, cold (streamlit run app.py)"] = COLD
    for name in pages:
        path, chart = PAGE_LINKS[name]
        out[f"{name}, warm (python -m costlib dashboard)"] = {"script": "app.py", "path": path, "warm": True}
        out[f"{name}, warm (python -m costlib dashboard)"]["chart"] = chart
    return out


def first_answer(browser, url: str, chart: bool = True) -> float:
    """Seconds from opening `url` in a new context to a quiet page (with its chart, `chart`)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    t = time.perf_counter()
    page.goto(url)
    if chart:
        page.locator('[data-testid="stPlotlyChart"]').first.wait_for(timeout=120_000)
    else:
        page.locator('[data-testid="stMain"] h1').first.wait_for(timeout=120_000)
    wait_for_app(page, settle=0.15, timeout=120)
    took = time.perf_counter() - t - 0.15  # the settle is the quiet check, not the page's time
    ctx.close()
    return took


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--settle", type=float, default=5.0, help="seconds a server runs before the link is opened")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--pages", nargs="*", default=["costs"], choices=list(PAGE_LINKS), help="pages to open warm")
    ap.add_argument("--no-cold", action="store_true", help="leave out Costs on a cold server")
    args = ap.parse_args(argv)
    chosen = arms(args.pages, cold=not args.no_cold)
    from playwright.sync_api import sync_playwright

    log = Path(tempfile.gettempdir()) / "costlib_first_answer.log"
    times: dict[str, list[float]] = {name: [] for name in chosen}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(args.repeat):
            for name, arm in chosen.items():  # alternating: a burst of load hits every arm
                server = AppServer(log, script=arm["script"], warm=arm.get("warm", False)).start()
                try:
                    time.sleep(args.settle)
                    times[name].append(first_answer(browser, server.url + arm["path"], arm.get("chart", True)))
                finally:
                    server.stop()
        browser.close()
    floor = statistics.median(times["yardstick"])
    out = {"repeat": args.repeat, "seconds": times, "median_s": {}, "ratio": {}}
    for name, ts in times.items():
        med = statistics.median(ts)
        out["median_s"][name], out["ratio"][name] = round(med, 2), round(med / floor, 2)
        runs = ", ".join(f"{t:.2f}" for t in ts)
        print(f"{name:>44}: median {med:5.2f} s  = {med / floor:4.2f} x the yardstick  ({runs})")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
