"""Load test (run by hand, not in CI): many sessions moving a price slider on Costs & groups at once.

Starts the app on a loopback port and opens ``--sessions`` sessions, each on Costs & groups,
either on a built-in sample (``sample``) or on its own uploaded CSV of ``--rows`` rows
(``upload``: label, score and a two-valued group, its own seed, read on the Data page and used
with "Use these columns"). Each session then moves the false-negative price ``--moves`` times
(``--pattern``, below).

By default (``--client protocol``) a session is a protocol client (`st_client.Session`): it
speaks the browser's websocket protocol (the same messages: the page, the upload, the button,
the slider's new value with every widget's state and, the slider being drawn in the page's
price fragment, that fragment's id, so only the fragment reruns as in a browser) and times a
move from sending the slider's new value to the server's "script finished", which costs the
client a few milliseconds a move, so that twenty sessions measure the server and not twenty
browsers drawing charts on the same two cores. One real Chromium tab first opens the sample
alone and moves the same slider, timed from the key press to the chart's redraw (a
MutationObserver), as a check that a session alone measures what a browser alone does (the
browser adds its drawing). ``--client browser`` runs every session in Chromium as before (one
context per session).

The pace (protocol client): a reviewer reads each answer before moving again; the pause after
each answer is drawn from an exponential distribution with mean ``--pause`` seconds (3 s by
default: independent reviewers, so moves arrive as a Poisson stream of about
``sessions / pause`` a second), and each session starts at a random moment within one pause.
The worst case is measured apart, with the same sessions after their paced moves (``--burst``
rounds): every session moves within the same 100 ms, waits for its answer, and all move again
together one second after the last answer.

The moves (``--pattern``): ``walk``, the default, moves each session one stop further the same
way every time (its way drawn at random), so every move asks for a price that session has not
had and its answer is computed, not remembered; ``back-and-forth`` moves one stop right, one
left, so after two moves every answer is remembered.

Each variant runs **one session alone** first (on uploads ``--alone`` sessions, 3 by default,
one after another, each on its own file, so that the median alone is of 30 moves), then the
sessions at once, on the same server in the same run. The target: zero errors, and the 95th
percentile of a move with everyone at once within 3x the median of the session alone. The
server's CPU seconds (all its threads) over each phase, divided by the moves made, are printed
beside: ``cpu per move x sessions / cores`` says how much of the wait is the machine's cores
rather than anything that serialises sessions; the client's own CPU per move is printed too.

    python benchmarks/load_test.py                           # 20 sessions x 10 moves, both variants
    python benchmarks/load_test.py --variants sample --sessions 5 --moves 5
    python benchmarks/load_test.py --client browser --pause 1    # every session in Chromium
    python benchmarks/load_test.py --root /path/to/other/checkout   # the same load on another tree

Traffic goes to 127.0.0.1 only; every loop is bounded in count and time. Results are printed
and written as JSON (``--out``, default benchmarks/load-results.json).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from machine_watch import MachineWatch, loop_lag_probe, read_lags
from playwright.async_api import async_playwright
from processes import cpu_seconds, descendants, write_predictions
from st_client import Session

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
CHART = '[data-testid="stPlotlyChart"]'
SAMPLE = "compas"
FN_PRICE = "A false negative costs"  # the slider every session moves
UPLOADER = "CSV or Parquet file"
USE = "Use these columns"
BURST_S = 0.1  # the worst case: every session moves within the same 100 ms

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


def niced_browser(folder: Path) -> str:
    """A launcher that runs Chromium at the lowest CPU priority: the browsers share the machine
    with the server they measure, and what is measured is the server, not their drawing."""
    path = folder / "chromium-niced"
    path.write_text(f'#!/bin/sh\nexec nice -n 19 {CHROMIUM} "$@"\n')
    path.chmod(0o755)
    return str(path)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, *, root: Path = ROOT, env: dict | None = None, runs_log: Path | None = None):
    """`streamlit run app.py` in `root` on `port` (with `env` added to the environment).

    With `runs_log`, the server is started through this file (`serve_timed`), which writes there
    how long each of its script runs took, from the rerun request's arrival to the run's end."""
    flags = [
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
    ]
    head = [sys.executable, "-m", "streamlit", "run", "app.py"]
    if runs_log is not None:
        head = [sys.executable, str(Path(__file__).resolve()), "--serve-timed", str(runs_log), "app.py"]
    proc = subprocess.Popen(
        head + flags,
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


def serve_timed(runs_log: str, argv: list[str]) -> None:
    """Run ``streamlit run <argv>`` in this process, writing to `runs_log` one line per script run
    that ends (the wall clock at its end and its seconds, from the moment the server's event loop
    took the rerun request): the server's part of a move, queueing for the interpreter included;
    and to `runs_log`.lag its event loop's late pings (`machine_watch.loop_lag_probe`).
    Its connections are served as `costlib dashboard` serves them (without Nagle's delay, where
    the tree served has `send_without_delay`)."""
    sys.path.insert(0, os.getcwd())
    from streamlit.runtime import app_session
    from streamlit.runtime.scriptrunner import ScriptRunnerEvent
    from streamlit.web import cli

    asked: dict = {}
    done = {ScriptRunnerEvent.SCRIPT_STOPPED_WITH_SUCCESS, ScriptRunnerEvent.FRAGMENT_STOPPED_WITH_SUCCESS}
    log = open(runs_log, "a", buffering=1)  # noqa: SIM115 (open for the server's life)
    request, handle = (
        app_session.AppSession.request_rerun,
        app_session.AppSession._handle_scriptrunner_event_on_event_loop,
    )

    def request_rerun(self, client_state):
        asked.setdefault(self.id, time.perf_counter())
        return request(self, client_state)

    def on_event(self, sender, event, *args, **kwargs):
        if event in done and self.id in asked:
            log.write(f"{time.time():.3f} {time.perf_counter() - asked.pop(self.id):.4f}\n")
        return handle(self, sender, event, *args, **kwargs)

    with contextlib.suppress(ImportError):  # as `costlib dashboard` serves, where the tree has it
        from costlib.cli.dashboard import send_without_delay

        send_without_delay()
    import importlib.util  # this checkout's balancer, whatever tree is served: it reads the session ids it marks

    spec = importlib.util.spec_from_file_location("balancer", ROOT / "costlib" / "cli" / "balancer.py")
    balancer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(balancer)
    if balancer.SERVER_ENV in os.environ:  # one of --processes servers
        balancer.mark_sessions(int(os.environ[balancer.SERVER_ENV]))
    app_session.AppSession.request_rerun = request_rerun
    app_session.AppSession._handle_scriptrunner_event_on_event_loop = on_event
    loop_lag_probe(f"{runs_log}.lag")  # the event loop's late pings, beside the runs
    sys.argv = ["streamlit", "run", *argv]
    cli.main()


def cpu_split(server_pid: int | tuple) -> dict:
    """CPU seconds so far of the server (its processes, with `--processes`: a tuple) and of
    everything else this process started (the browsers)."""
    servers = set(server_pid) if isinstance(server_pid, tuple) else {server_pid}
    others = 0.0
    for pid in set(descendants(os.getpid())) - servers:
        with contextlib.suppress(OSError, IndexError):
            others += cpu_seconds(pid)
    server = 0.0
    for pid in servers:
        with contextlib.suppress(OSError, IndexError):  # a server that has stopped: its phase fails on its own
            server += cpu_seconds(pid)
    return {"server": server, "browsers": others}


BALANCE = """
import asyncio, sys
from costlib.cli.balancer import Balancer

servers = [("127.0.0.1", int(p)) for p in sys.argv[2:]]
asyncio.run(Balancer(servers).serve("127.0.0.1", int(sys.argv[1]), asyncio.Event()))
"""


class Servers:
    """The app served on `port` as ``costlib dashboard --processes count`` serves it: one server
    (`start_server`), or `count` servers on ports of their own behind the dashboard's balancer
    (`costlib.cli.balancer`, this checkout's). `pid` is every process that serves (a tuple when
    there are several: the servers and the balancer), whose CPU is the server's."""

    def __init__(self, port: int, count: int, *, root: Path, runs_log: Path):
        if count == 1:
            self.procs = [start_server(port, root=root, runs_log=runs_log)]
            self.pid = self.procs[0].pid
            return
        from costlib.cli.spread import server_environment

        ports = [free_port() for _ in range(count)]
        self.procs = [  # each with its number (its session ids') and its share of the memory budget
            start_server(p, root=root, runs_log=runs_log, env=server_environment(count, i)) for i, p in enumerate(ports)
        ]
        self.procs.append(subprocess.Popen([sys.executable, "-c", BALANCE, str(port), *map(str, ports)], cwd=ROOT))
        self.pid = tuple(p.pid for p in self.procs)
        deadline = time.time() + 30
        while time.time() < deadline:
            with contextlib.suppress(OSError):
                if urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).read() == b"ok":
                    return
            time.sleep(0.2)
        self.terminate()
        raise RuntimeError("the balancer did not answer within 30 s")

    def terminate(self) -> None:
        for p in self.procs:
            p.terminate()

    def wait(self, timeout: float) -> None:
        for p in self.procs:
            p.wait(timeout=timeout)


async def _open_costs(page, url: str, upload: Path | None) -> None:
    """Costs & groups on the sample, or on `upload` read and used on the Data page."""
    if upload is None:
        await page.goto(f"{url}/costs?data={SAMPLE}", timeout=300_000)
    else:
        await page.goto(url + "/", timeout=300_000)
        await page.wait_for_selector("input[type=file]", state="attached", timeout=300_000)
        await page.set_input_files("input[type=file]", str(upload))
        button = page.get_by_role("button", name="Use these columns")
        await button.wait_for(timeout=300_000)
        await button.click()
        await page.get_by_text(f"Loaded “{upload.name}”").wait_for(timeout=300_000)
        await page.get_by_role("link", name="Costs & groups").first.click()
    await page.wait_for_selector(f"{CHART} .main-svg", timeout=300_000)


class Start:
    """Every session of a phase starts moving together, once all have opened the page (or failed)."""

    def __init__(self, sessions: int, on_start):
        self.waiting, self.event, self.on_start = sessions, asyncio.Event(), on_start

    async def arrive(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.on_start()
            self.event.set()
        await asyncio.wait_for(self.event.wait(), timeout=900)


async def session(
    browser,
    url: str,
    args,
    upload: Path | None,
    gates: tuple[Start, Start],
    latencies: list,
    errors: list,
) -> None:
    start, stop = gates
    context = await browser.new_context(viewport={"width": 1300, "height": 900})
    page = await context.new_page()
    arrived = False
    try:
        try:
            await _open_costs(page, url, upload)
            await asyncio.sleep(1.0)  # the page's last elements settle before the first move
        finally:
            arrived = True
            await start.arrive()
        slider = page.get_by_role("slider").nth(1)  # the false-negative price
        for i in range(args.moves):
            await page.evaluate(ARM_JS)
            await slider.focus()
            await page.keyboard.press("ArrowRight" if i % 2 == 0 else "ArrowLeft")
            for _ in range(1200):  # at most 60 s per move
                value = await page.evaluate("() => window.__redraw")
                if value is not None:
                    latencies.append(value)
                    break
                await asyncio.sleep(0.05)
            else:
                errors.append(f"move {i}: no redraw within 60 s")
            if await page.locator('[data-testid="stException"]').count():
                errors.append(f"move {i}: the page shows an exception")
            await asyncio.sleep(args.pause)
    except Exception as exc:  # a session that fails is counted, not fatal for the others
        errors.append(f"{type(exc).__name__}: {str(exc)[:300]}")
        if not arrived:
            await start.arrive()
    finally:
        with contextlib.suppress(Exception):
            await stop.arrive()  # the browsers' CPU is read before any page closes
        await context.close()


def _p95(x: list) -> float | None:
    return round(statistics.quantiles(x, n=20, method="inclusive")[18]) if len(x) >= 2 else None


def _summary(latencies: list, errors: list, runs: list, cpu: dict, wall: float, expected: int) -> dict:
    moves = max(len(latencies), 1)
    return {
        "moves": len(latencies),
        "expected": expected,
        "errors": len(errors),
        "error_examples": errors[:5],
        "median_ms": round(statistics.median(latencies)) if latencies else None,
        "p95_ms": _p95(latencies),
        "max_ms": round(max(latencies)) if latencies else None,
        "server_run_median_ms": round(statistics.median(runs)) if runs else None,
        "server_run_p95_ms": _p95(runs),
        "server_cpu_s": round(cpu["server"], 2),
        "cpu_per_move_ms": round(1000 * cpu["server"] / moves),
        "browser_cpu_per_move_ms": round(1000 * cpu["browsers"] / moves),
        "wall_s": round(wall, 1),
        "latencies_ms": [round(x) for x in latencies],  # in the order the answers came
        "server_runs_ms": [round(x, 1) for x in runs],
        "server_cpu_s_exact": cpu["server"],
        "client_cpu_s": cpu["browsers"],
    }


def _merged(parts: list) -> dict:
    """One summary of phases run one after another (the sessions alone, one at a time)."""
    latencies = [x for p in parts for x in p["latencies_ms"]]
    runs = [x for p in parts for x in p["server_runs_ms"]]
    errors = [e for p in parts for e in p["error_examples"]]
    cpu = {"server": sum(p["server_cpu_s_exact"] for p in parts), "browsers": sum(p["client_cpu_s"] for p in parts)}
    out = _summary(latencies, errors, runs, cpu, sum(p["wall_s"] for p in parts), sum(p["expected"] for p in parts))
    out["errors"] = sum(p["errors"] for p in parts)
    if all("fragment_runs" in p for p in parts):
        out["fragment_runs"] = sum(p["fragment_runs"] for p in parts)
    for key in ("machine", "machine_slowest_moves"):  # one per phase merged
        if any(key in p for p in parts):
            out[key] = [p.get(key) for p in parts]
    return out


def runs_between(runs_log: Path, start: float, end: float) -> list[float]:
    """The server's script runs (ms) that ended between the wall-clock times `start` and `end`."""
    out = []
    for line in runs_log.read_text().splitlines():
        at, took = (float(x) for x in line.split())
        if start <= at <= end:
            out.append(1000 * took)
    return out


async def phase(browser, url: str, args, server_pid: int, uploads: list, runs_log: Path) -> dict:
    """All the sessions of one phase at once (one session alone when `uploads` has one entry); the
    server's CPU is counted from the moment every session has opened its page."""
    latencies: list[float] = []
    errors: list[str] = []
    mark: dict = {}

    def started():
        mark.update(cpu=cpu_split(server_pid), t=time.perf_counter(), wall_start=time.time())

    def stopped():
        mark.update(end=cpu_split(server_pid), wall=time.perf_counter() - mark["t"], wall_end=time.time())

    start, stop = Start(len(uploads), started), Start(len(uploads), stopped)
    await asyncio.gather(*(session(browser, url, args, up, (start, stop), latencies, errors) for up in uploads))
    runs = runs_between(runs_log, mark["wall_start"], mark["wall_end"])
    cpu = {k: mark["end"][k] - mark["cpu"][k] for k in mark["end"]}
    return _summary(latencies, errors, runs, cpu, mark["wall"], len(uploads) * args.moves)


async def open_session(port: int, upload: Path | None) -> Session:
    """A protocol session on Costs & groups: the sample, or `upload` read and used on the Data page."""
    s = Session(port)
    await s.open()
    if upload is None:
        await s.run(page="costs", query=f"data={SAMPLE}")
    else:
        await s.run(page="", query="")
        await s.upload(UPLOADER, upload)
        await s.press(USE)
        if not any(f"Loaded “{upload.name}”" in text.replace("\\", "") for text in s.texts):
            raise RuntimeError(f"the Data page did not say it loaded {upload.name}")
        await s.run(page="costs", query="")
    if s.errors:
        raise RuntimeError(f"the page shows an exception: {s.errors[0]}")
    return s


async def protocol_moves(s: Session, args, rng: random.Random, latencies: list, errors: list, ends: list) -> None:
    """`args.moves` moves at a reviewer's pace: a random start within one pause, then after each
    answer a pause drawn from an exponential distribution of mean `args.pause`; each answer's
    wall time and latency (ms) are added to `ends`."""
    await asyncio.sleep(rng.uniform(0, args.pause))
    way = rng.choice((1, -1))  # "walk": every move a price this session has not had
    for i in range(args.moves):
        step = way if args.pattern == "walk" else (1 if i % 2 == 0 else -1)
        try:
            latencies.append(1000 * await s.move(FN_PRICE, step))
            ends.append((time.time(), latencies[-1]))
        except Exception as exc:  # a move that fails is counted, not fatal for the others
            errors.append(f"move {i}: {type(exc).__name__}: {str(exc)[:300]}")
            return
        if s.errors:
            errors.append(f"move {i}: the page shows an exception: {s.errors[0]}")
            s.errors.clear()
        await asyncio.sleep(rng.expovariate(1 / args.pause))


async def protocol_bursts(sessions: list, args, rng: random.Random, latencies: list, errors: list, ends: list) -> None:
    """`args.burst` rounds in which every session moves within the same `BURST_S` seconds."""

    async def one(s: Session, i: int) -> None:
        await asyncio.sleep(rng.uniform(0, BURST_S))
        step = 1 if args.pattern == "walk" or i % 2 == 0 else -1
        try:
            latencies.append(1000 * await s.move(FN_PRICE, step))
            ends.append((time.time(), latencies[-1]))
        except Exception as exc:
            errors.append(f"burst {i}: {type(exc).__name__}: {str(exc)[:300]}")

    for i in range(args.burst):
        await asyncio.gather(*(one(s, i) for s in sessions))
        await asyncio.sleep(1.0)


def machine_during(args, start: float, end: float, ends: list, runs_log: Path) -> dict:
    """The machine over a phase and over its slowest 5% of moves (each move's own window, from
    sending to the answer), from the run's `MachineWatch` (`args.machine`, none without it)."""
    watch = getattr(args, "machine", None)
    if watch is None:
        return {}
    watch.sample()
    lags = read_lags(Path(f"{runs_log}.lag"))
    slowest = sorted(ends, key=lambda e: -e[1])[: max(1, len(ends) // 20)]
    windows = [w for at, ms in slowest if (w := watch.during(at - ms / 1000, at, lags))]
    numbers = ("seconds", "cores_busy", "server_cores", "others_cores", "stolen_cores", "waited_for_a_core")
    mean = {k: round(statistics.fmean(w[k] for w in windows), 3) for k in numbers} if windows else None
    if mean:
        mean["loop_lag_max_ms"] = None if lags is None else max(w["loop_lag_max_ms"] for w in windows)
        mean["loop_late_pings"] = None if lags is None else sum(w["loop_late_pings"] for w in windows)
    return {"machine": watch.during(start, end, lags), "machine_slowest_moves": mean}


async def protocol_phase(
    port: int, args, server_pid: int, uploads: list, runs_log: Path, *, bursts: int = 0, seed: int | None = None
) -> list:
    """The sessions of one phase, opened (untimed), moving at the pace; then, with `bursts`, the
    same sessions moving all together `bursts` times. One summary per part."""
    rng = random.Random(len(uploads) if seed is None else seed)
    opened = await asyncio.gather(*(open_session(port, up) for up in uploads), return_exceptions=True)
    sessions = [s for s in opened if isinstance(s, Session)]
    failed = [f"open: {type(e).__name__}: {str(e)[:300]}" for e in opened if not isinstance(e, Session)]
    await asyncio.sleep(1.0)
    parts = [False] + ([True] if bursts else [])
    out = []
    for burst in parts:
        latencies: list[float] = []
        ends: list[tuple[float, float]] = []
        errors: list[str] = list(failed)
        cpu0, client0, t0, wall0 = cpu_split(server_pid), time.process_time(), time.perf_counter(), time.time()
        fragment0 = sum(s.fragment_runs for s in sessions)
        if burst:
            await protocol_bursts(
                sessions, argparse.Namespace(burst=bursts, pattern=args.pattern), rng, latencies, errors, ends
            )
        else:
            seeds = [random.Random(rng.random()) for _ in sessions]
            await asyncio.gather(
                *(protocol_moves(s, args, r, latencies, errors, ends) for s, r in zip(sessions, seeds, strict=True))
            )
        cpu1, client1, wall = cpu_split(server_pid), time.process_time(), time.perf_counter() - t0
        runs = runs_between(runs_log, wall0, time.time())
        cpu = {"server": cpu1["server"] - cpu0["server"], "browsers": client1 - client0}
        expected = len(uploads) * (bursts if burst else args.moves)
        out.append(_summary(latencies, errors, runs, cpu, wall, expected))
        out[-1]["fragment_runs"] = sum(s.fragment_runs for s in sessions) - fragment0
        out[-1].update(machine_during(args, wall0, time.time(), ends, runs_log))
        await asyncio.sleep(1.0)
    for s in sessions:
        with contextlib.suppress(Exception):
            await s.close()
    return out


async def browser_check(url: str, args, server_pid: int, runs_log: Path) -> dict:
    """One real Chromium tab alone on the sample, moving the same slider (the protocol client's check)."""
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            return await phase(browser, url, args, server_pid, [None], runs_log)
        finally:
            await browser.close()


async def main_protocol(args, port: int, server, folder: Path, runs_log: Path, results: dict) -> None:
    """Every variant with protocol sessions: alone, together at a reviewer's pace, together in bursts."""
    warm = await open_session(port, None)  # the pages' imports, paid before anything is timed
    await warm.close()
    if args.browser_check:  # first, on the fresh server, like the protocol session alone after it
        check = dict(vars(args), pause=args.pause)
        results["browser_check"] = await browser_check(
            f"http://127.0.0.1:{port}", argparse.Namespace(**check), server.pid, runs_log
        )
    for variant in args.variants.split(","):
        if variant == "sample":
            alone_up, together_up = [None], [None] * args.sessions
        elif variant == "upload":
            n = args.sessions + args.alone
            files = [write_predictions(folder / f"predictions_{i}.csv", args.rows, i) for i in range(n)]
            alone_up, together_up = files[args.sessions :], files[: args.sessions]
        else:
            raise SystemExit(f"unknown variant {variant!r}")
        # uploads: `args.alone` sessions alone, one after another, each on its own file; the
        # sample: one (a second would find the first one's answers remembered: same content)
        alone = _merged(
            [(await protocol_phase(port, args, server.pid, [up], runs_log, seed=i))[0] for i, up in enumerate(alone_up)]
        )
        together, *burst = await protocol_phase(port, args, server.pid, together_up, runs_log, bursts=args.burst)
        out = {"alone": alone, "together": together}
        if burst:
            out["burst"] = burst[0]
        out["p95_over_alone_median"] = _ratio(together["p95_ms"], alone["median_ms"])
        out["server_run_p95_over_alone_median"] = _ratio(together["server_run_p95_ms"], alone["server_run_median_ms"])
        if args.burst:
            out["burst_p95_over_alone_median"] = _ratio(out["burst"]["p95_ms"], alone["median_ms"])
        results[variant] = out


def _ratio(a, b):
    return a / b if a and b else None


async def main_browser(args, url: str, server, folder: Path, runs_log: Path, results: dict) -> None:
    """Every variant with every session in Chromium: alone, then together."""
    async with async_playwright() as p:
        executable = niced_browser(folder) if args.nice else CHROMIUM
        browser = await p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        warm = await browser.new_page()  # the pages' imports, paid before anything is timed
        await warm.goto(f"{url}/costs?data={SAMPLE}", timeout=600_000)
        await warm.wait_for_selector(f"{CHART} .main-svg", timeout=600_000)
        await warm.close()
        for variant in args.variants.split(","):
            if variant == "sample":
                alone_up, together_up = [None], [None] * args.sessions
            elif variant == "upload":
                files = [
                    write_predictions(folder / f"predictions_{i}.csv", args.rows, i) for i in range(args.sessions + 1)
                ]
                alone_up, together_up = files[-1:], files[:-1]
            else:
                raise SystemExit(f"unknown variant {variant!r}")
            alone = await phase(browser, url, args, server.pid, alone_up, runs_log)
            together = await phase(browser, url, args, server.pid, together_up, runs_log)
            results[variant] = {
                "alone": alone,
                "together": together,
                "p95_over_alone_median": _ratio(together["p95_ms"], alone["median_ms"]),
                "server_run_p95_over_alone_median": _ratio(
                    together["server_run_p95_ms"], alone["server_run_median_ms"]
                ),
            }
        await browser.close()


async def main_async(args) -> dict:
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="costlib-load-"))
    runs_log = folder / "runs.log"
    runs_log.touch()
    server = Servers(port, args.processes, root=Path(args.root), runs_log=runs_log)
    args.machine = MachineWatch(server.pid).start() if args.watch else None
    url = f"http://127.0.0.1:{port}"
    results: dict = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "root": str(args.root),
        "client": args.client,
        "sessions": args.sessions,
        "moves": args.moves,
        "pause_s": args.pause,
        "pattern": args.pattern,
        "pace": "exponential pauses (mean pause_s)" if args.client == "protocol" else "fixed pauses",
        "burst_rounds": args.burst if args.client == "protocol" else 0,
        "rows": args.rows,
        "browsers_niced": args.nice,
        "cpus": os.cpu_count(),
        "processes": args.processes,
        "load_start": os.getloadavg(),
    }
    try:
        if args.client == "protocol":
            await main_protocol(args, port, server, folder, runs_log, results)
        else:
            await main_browser(args, url, server, folder, runs_log, results)
    finally:
        if args.machine is not None:
            args.machine.stop()
        server.terminate()
        server.wait(timeout=30)
    results["load_end"] = os.getloadavg()
    return results


def report(results: dict) -> bool:
    """Print the results; True when every variant meets the target."""
    ok = True
    load = f"{results['load_start'][0]:.1f} -> {results['load_end'][0]:.1f}"
    client = "client" if results.get("client") == "protocol" else "browsers"
    print(
        f"{results['sessions']} sessions x {results['moves']} moves ({results.get('client', 'browser')} client), "
        f"pause {results['pause_s']} s ({results.get('pace', 'fixed pauses')}), moves "
        f"{results.get('pattern', 'back-and-forth')}; burst rounds "
        f"{results.get('burst_rounds', 0)}; load average {load} on {results['cpus']} cores; "
        f"{results.get('processes', 1)} server process(es)"
    )

    def line(variant: str, name: str, x: dict, who: str) -> None:
        print(
            f"  {variant:6s} {name:8s} moves {x['moves']}/{x['expected']}  errors {x['errors']}  "
            f"median {x['median_ms']} ms  p95 {x['p95_ms']} ms  max {x['max_ms']} ms; server's run: median "
            f"{x['server_run_median_ms']} ms  p95 {x['server_run_p95_ms']} ms; cpu a move: server "
            f"{x['cpu_per_move_ms']} ms, {who} {x['browser_cpu_per_move_ms']} ms"
            + (f"; fragment runs {x['fragment_runs']}" if "fragment_runs" in x else "")
        )
        for e in x["error_examples"]:
            print("    error:", e)
        for what, m in (("phase", x.get("machine")), ("slowest 5% of moves", x.get("machine_slowest_moves"))):
            for one in m if isinstance(m, list) else [m]:
                if one:
                    print(
                        f"    machine, {what}: cores busy {one['cores_busy']} of {results['cpus']} (server "
                        f"{one['server_cores']}, others {one['others_cores']}, stolen {one['stolen_cores']}); "
                        f"some task waited for a core {one['waited_for_a_core']:.0%} of the time; server loop: "
                        + (
                            "no probe"
                            if one.get("loop_late_pings") is None
                            else f"late pings {one['loop_late_pings']}, longest {one['loop_lag_max_ms']} ms"
                        )
                    )

    for variant in ("sample", "upload"):
        if variant not in results:
            continue
        r = results[variant]
        for name in ("alone", "together", "burst"):
            if name in r:
                line(variant, name, r[name], client)
        if "burst" in r:
            b = r["burst_p95_over_alone_median"]
            print(f"  {variant:6s} worst case (all within 100 ms): p95 / median alone = {b and round(b, 2)}")
        ratio = r["p95_over_alone_median"]
        run_ratio = r["server_run_p95_over_alone_median"]
        cores = results["cpus"] or 1
        floor = r["together"]["cpu_per_move_ms"] * results["sessions"] / cores
        met = ratio is not None and ratio <= 3 and r["together"]["errors"] == 0 and r["alone"]["errors"] == 0
        ok &= met
        shown = f"{ratio:.2f}" if ratio is not None else "n/a"
        print(
            f"  {variant:6s} p95 together / median alone = {shown} -> {'PASS' if met else 'MISS'} (target <= 3); "
            f"server's run alone {run_ratio if run_ratio is None else round(run_ratio, 2)}; "
            f"server cpu a move x sessions / cores = {floor:.0f} ms"
        )
    if "browser_check" in results:
        line("sample", "browser", results["browser_check"], "browser")
        alone = results.get("sample", {}).get("alone", {}).get("median_ms")
        check = results["browser_check"]["median_ms"]
        against = f"the protocol session alone's {alone} ms" if alone is not None else "no sample session (not run)"
        print(f"  one Chromium tab alone on the sample: median {check} ms, against {against}")
    return ok


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--serve-timed":
        serve_timed(sys.argv[2], sys.argv[3:])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--moves", type=int, default=10)
    ap.add_argument(
        "--pause", type=float, default=3.0, help="mean seconds a session waits after each answer (browser: fixed)"
    )
    ap.add_argument("--client", choices=["protocol", "browser"], default="protocol", help="what a session is")
    ap.add_argument(
        "--pattern",
        choices=("walk", "back-and-forth"),
        default="walk",
        help="walk: each move one stop further the same way (a new price every move); "
        "back-and-forth: one stop right, one left (protocol)",
    )
    ap.add_argument(
        "--alone",
        type=int,
        default=3,
        help="sessions alone, one after another, whose moves give the median alone (protocol)",
    )
    ap.add_argument("--burst", type=int, default=5, help="rounds of every session moving within 100 ms (protocol)")
    ap.add_argument(
        "--no-browser-check",
        dest="browser_check",
        action="store_false",
        help="skip the one real Chromium tab that checks a protocol session alone",
    )
    ap.add_argument("--rows", type=int, default=200_000, help="rows of each session's upload")
    ap.add_argument("--variants", default="sample,upload", help="sample, upload or both (comma-separated)")
    ap.add_argument("--root", default=str(ROOT), help="the checkout whose app.py is served")
    ap.add_argument(
        "--no-nice", dest="nice", action="store_false", help="run the browsers at the server's CPU priority"
    )
    ap.add_argument(
        "--no-watch",
        dest="watch",
        action="store_false",
        help="skip the machine's tenth-of-a-second record and the server loop's lag probe (machine_watch)",
    )
    ap.add_argument(
        "--processes",
        default="auto",
        help="servers behind one port, as `costlib dashboard --processes N` serves (1: one server, no balancer; "
        "auto, the default: as many as `costlib dashboard` starts without the flag, one a core)",
    )
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "load-results.json"))
    args = ap.parse_args()
    from costlib.cli.spread import auto_count, processes_flag

    count = processes_flag(["--processes", args.processes])[0]
    args.processes = auto_count([])[0] if count is None else count
    if not 1 <= args.processes <= 16:
        ap.error("--processes is auto or a whole number from 1 to 16")
    results = asyncio.run(main_async(args))
    Path(args.out).write_text(json.dumps(results, indent=1))
    sys.exit(0 if report(results) else 1)


if __name__ == "__main__":
    main()
