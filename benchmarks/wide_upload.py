"""Very wide uploads in the real app: time from choosing the file to a usable mapping form.

Run by hand (not a test); needs Debian's /usr/bin/chromium and the dev requirements:

    python benchmarks/wide_upload.py                        # 10,000 and 100,000 columns
    python benchmarks/wide_upload.py --columns 10000 --root /path/to/another/checkout

Writes a CSV of 5 rows and k numeric columns named c00000, c00001, ... (zero-padded, so a
header cut short at 64 KiB cannot collide with a real name), starts `streamlit run app.py`
from `--root` on a free loopback port, puts the file into the Data page's real file input and
measures the wall time until the "Use these columns" button is visible and the app is idle.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))

from e2e_server import CHROMIUM, CHROMIUM_ARGS, AppServer  # noqa: E402
from e2e_support import goto, step  # noqa: E402


def make_csv(k: int, path: Path) -> Path:
    width = len(str(k - 1))
    header = ",".join(f"c{i:0{width}d}" for i in range(k))
    rows = "\n".join(",".join(str((i + j) % 7 / 7) for j in range(k)) for i in range(5))
    path.write_text(header + "\n" + rows + "\n")
    return path


def measure(page, url: str, path: Path, timeout_s: float) -> float:
    goto(page, url + "/data")
    t0 = time.perf_counter()
    page.set_input_files("input[type=file]", str(path))
    page.get_by_role("button", name="Use these columns").wait_for(timeout=timeout_s * 1000)
    step(page, "mapping form", timeout=timeout_s)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--columns", default="10000,100000")
    ap.add_argument("--root", default=str(REPO))
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="wide_upload_"))
    server = AppServer(tmp / "server.log", cwd=Path(args.root)).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for k in (int(x) for x in args.columns.split(",")):
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.set_default_timeout(args.timeout * 1000)
                path = make_csv(k, tmp / f"wide_{k}.csv")
                try:
                    seconds = measure(page, server.url, path, args.timeout)
                    print(f"{k:,} columns ({path.stat().st_size / 1e6:.1f} MB): mapping form after {seconds:.1f} s")
                except Exception as err:  # a timeout is a result too
                    print(f"{k:,} columns: no mapping form within {args.timeout:.0f} s ({type(err).__name__})")
                page.close()
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
