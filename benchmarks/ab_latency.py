"""Slider latency of two versions of the app, side by side in one run (an A/B of a change).

Run by hand (not a test); needs Debian's /usr/bin/chromium and the dev requirements:

    git worktree add --detach /tmp/before HEAD~1 && ln -s "$PWD/.venv" /tmp/before/.venv
    python benchmarks/ab_latency.py costs before=/tmp/before after=. --rounds 5

Each VERSION=CHECKOUT is served on a server of its own (``python -m costlib dashboard`` run in
that checkout, so that it imports that checkout's costlib); each gets the same 1,000,000-row
upload (``--rows``, the file `latency.py` writes) and opens PAGE in one session. Each round
times the yardstick (`minimal_app.py`), then every version (in turn, the order reversed every
other round), with the moves and the quiet-page timing of `latency.py`. What to compare is the
ratios in the same run: this machine's speed drifts too much between runs for anything else
(benchmarks/README.md, "Slider latency").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "benchmarks"), str(REPO / "tests" / "e2e")]

import latency as L  # noqa: E402
from e2e_server import CHROMIUM, CHROMIUM_ARGS, AppServer  # noqa: E402
from e2e_support import goto, nav, step  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("page", choices=list(L.PAGES))
    ap.add_argument("versions", nargs="+", help="NAME=CHECKOUT, two or more")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--moves", type=int, default=6)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        print(f"needs Chromium at {CHROMIUM}", file=sys.stderr)
        return 2
    versions = dict(v.split("=", 1) for v in args.versions)
    table = Path(tempfile.gettempdir()) / f"costlib_latency_{args.rows}.csv"
    if not table.exists():
        L.make_table(args.rows, table)
    _, label, title = L.PAGES[args.page]
    log = Path(tempfile.gettempdir()) / "costlib_ab_latency.log"
    servers = {name: AppServer(log, cwd=Path(root).resolve(), warm=True).start() for name, root in versions.items()}
    yardstick = AppServer(log, script=str(REPO / "benchmarks" / "minimal_app.py")).start()
    times: dict[str, list[float]] = {"yardstick": [], **{name: [] for name in versions}}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

            pages = {}
            for name, server in servers.items():
                _, page = L.new_page(browser)
                goto(page, server.url + "/")
                L.load_table(page, table)
                nav(page, title, timeout=900)
                step(page, "first visit", timeout=900)
                L.measure(page, label, 2)
                pages[name] = page
            for round_ in range(args.rounds):
                ctx, page = L.new_page(browser)
                goto(page, yardstick.url + "/", chart=True)
                L.measure(page, None, 3)
                times["yardstick"] += L.measure(page, None, args.moves)
                ctx.close()
                for name in list(pages)[:: 1 if round_ % 2 == 0 else -1]:
                    L.measure(pages[name], label, 1)
                    times[name] += L.measure(pages[name], label, args.moves)
            browser.close()
    finally:
        for server in servers.values():
            server.stop()
        yardstick.stop()
    floor = statistics.median(times["yardstick"])
    for name, ms in times.items():
        median = statistics.median(ms)
        print(f"{name:>12}: median {median:7.1f} ms = {median / floor:5.2f} x the yardstick")
    return 0


if __name__ == "__main__":
    sys.exit(main())
