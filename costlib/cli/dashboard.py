"""``python -m costlib dashboard [STREAMLIT FLAGS]``: start the dashboard, warm.

Streamlit runs a page's script only when a visitor opens it, so the first visitor of a fresh
server pays every import the pages need (about 3.6 s of a 4.7 s first run on Costs, measured
for the issue on first paint). This command starts the server as ``streamlit run app.py``
would, with the flags given passed through (``--server.port 8502``, ``--server.address
0.0.0.0``), and imports what the pages use before the server listens (`WARM_MODULES`), so the
first visitor finds them loaded.

It turns off Nagle's algorithm on the server's connections (`send_without_delay`): a small
message written after a large one (a chart) otherwise waited for the browser's delayed
acknowledgement, up to 40 ms on one move in ten.

It also hands memory back after sessions end: the allocator (glibc) keeps the pages a
finished session freed, so a server that served ten sessions stays about that much bigger.
Every `TRIM_SECONDS` a thread asks glibc to return its free pages (``malloc_trim``): 15 Costs
sessions run in batches of five (AppTest, in one process) left 306 to 312 MB after each batch
without it, and 210 to 215 MB with it.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
from pathlib import Path

#: what the pages import on a first visit, in the order a first Costs run needs them; never
#: scikit-learn (no page's first run needs it), Spark or the training modules
WARM_MODULES = (
    "numpy",
    "pandas",
    "plotly.graph_objects",
    "costlib.binary.decision",
    "costlib.binary.honest",
    "costlib.loading",
    "costlib.loading.samples",
    "costlib.answers",
    "costlib.present.figures",
    "costlib.present.report",
    "costlib.present.policy",
    "scipy.optimize",  # the temperature fit of the calibration advice on Costs
    "views._ui.data",
    "views._ui.costs_sections",
    # every page's first run: app.py's page icon is looked up in Streamlit's emoji table, whose
    # pattern compiles on import (0.03 to 0.07 s idle); a chart's data read by Plotly (narwhals),
    # its JSON, and a table's Arrow and CSV (measured on the Instance page's first run)
    "streamlit.emojis",
    "narwhals._pandas_like.dataframe",
    "plotly.io._json",
    "pyarrow.pandas_compat",
    "pandas.io.formats.csvs",
)
TRIM_SECONDS = 30.0


def app_path() -> Path:
    """The dashboard's main script: ``costlib/_app/app.py`` where costlib is installed (the
    wheel ships ``app.py`` and ``views/`` there), else ``app.py`` beside the ``costlib`` folder
    of a checkout."""
    package = Path(__file__).resolve().parents[1]
    installed = package / "_app" / "app.py"
    return installed if installed.is_file() else package.parent / "app.py"


APP = app_path()


def _read_toml(path: Path) -> dict:
    import tomllib

    try:
        return tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def env_name(section: str, key: str) -> str:
    """The environment variable Streamlit reads for ``section.key``.

    >>> env_name("server", "maxUploadSize")
    'STREAMLIT_SERVER_MAX_UPLOAD_SIZE'
    """
    import re

    return "STREAMLIT_" + section.upper() + "_" + re.sub(r"(?<!^)(?=[A-Z])", "_", key).upper()


def _set_elsewhere(settings: dict) -> set[str]:
    """The ``section.key`` of `settings` that the deployment sets itself: in
    ``~/.streamlit/config.toml``, in ``./.streamlit/config.toml`` of the folder the server starts
    in, or as an environment variable (`env_name`)."""
    import os

    out = set()
    for path in (Path.home() / ".streamlit" / "config.toml", Path.cwd() / ".streamlit" / "config.toml"):
        out |= {f"{s}.{k}" for s, values in _read_toml(path).items() if isinstance(values, dict) for k in values}
    return out | {f"{s}.{k}" for s, values in settings.items() for k in values if env_name(s, k) in os.environ}


#: sections whose keys go together: a deployment that sets one of them (``theme.base = "dark"``)
#: gets none of ours (our dark text on its dark background would be unreadable)
WHOLE_SECTIONS = ("theme",)


def config_flags(config: Path, given: list[str]) -> list[str]:
    """The settings of the dashboard's ``.streamlit/config.toml`` as ``--section.key=value`` flags,
    except those `given` sets and those the deployment sets itself (`_set_elsewhere`: its own
    config files and ``STREAMLIT_*`` variables, which flags would otherwise override). Streamlit
    reads that file only from the folder it is started in, so without the flags a server started
    elsewhere would lose them (the upload size, error details hidden, the theme). The theme is
    taken whole or not at all (`WHOLE_SECTIONS`)."""
    settings = _read_toml(config)
    named = {flag.split("=", 1)[0] for flag in given if flag.startswith("--")}
    theirs = _set_elsewhere(settings) | {name.removeprefix("--") for name in named}
    flags = []
    for section, values in settings.items():
        for key, value in values.items():
            name = f"{section}.{key}"
            whole = section in WHOLE_SECTIONS and any(t.startswith(section + ".") for t in theirs)
            if name not in theirs and not whole:
                flags.append(f"--{name}={str(value).lower() if isinstance(value, bool) else value}")
    return flags


def add_parser(sub) -> None:
    p = sub.add_parser(
        "dashboard",
        help="start the dashboard (Streamlit's flags pass through)",
        description="Start the dashboard on http://localhost:8501, its imports warmed before the first visitor. "
        "Streamlit's own flags pass through, e.g. --server.port 8502. It runs one server a core (at most "
        "4) behind the one port (a browser stays on one), so price moves run at once on as many cores; "
        "--processes N sets the count.",
    )
    p.add_argument(
        "--processes",
        default="auto",
        metavar="N",
        help="N servers behind the one port, each its own interpreter (costlib.cli.balancer); default auto: "
        "one a core, at most 4, each with a share of the memory budget no smaller than one upload's; "
        "1: one server, no balancer",
    )
    p.add_argument("flags", nargs="*", metavar="STREAMLIT_FLAG", help="a flag for streamlit run (passed through)")


def warm() -> None:
    """Import `WARM_MODULES` and every module of the pages' shared code (``views._ui``; a module
    that fails to import is left for its page to report), then take what they made out of the
    garbage collector's walks (`freeze_long_lived`): Streamlit collects in full after every run."""
    import pkgutil

    from costlib.loading.ledger import freeze_long_lived

    root = str(APP.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    for name in WARM_MODULES:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - warming is best effort; the page says what is wrong
            continue
    shared = sys.modules.get("views._ui")
    for info in pkgutil.iter_modules(getattr(shared, "__path__", []), "views._ui."):
        try:
            importlib.import_module(info.name)
        except Exception:  # noqa: BLE001 - as above
            continue
    freeze_long_lived()


_WARMED = threading.Event()
_WARMING = threading.Lock()


def warm_once() -> None:
    """`warm`, once per process; a caller that comes while another warms waits until it is done.

    ``app.py`` calls it at the top of every run, so on a server started as ``streamlit run
    app.py`` the first visitors' runs (each in its own thread) do not import the pages' modules
    at the same time: two threads importing ``views._ui`` and ``views._ui.data`` at once can each
    hold the lock the other needs, and Python breaks that by failing one page's import
    (``_DeadlockError``, seen in CI). After the first run it is one check of a flag."""
    if _WARMED.is_set():
        return
    with _WARMING:
        if not _WARMED.is_set():
            warm()
            _WARMED.set()


def send_without_delay() -> bool:
    """Make every TCP connection asyncio accepts in this process send small writes at once
    (``TCP_NODELAY``), as asyncio means to; returns whether it was arranged.

    asyncio turns Nagle's algorithm off on each TCP transport, but only on a socket whose
    protocol number says TCP (``IPPROTO_TCP``). Streamlit's server binds its listening socket
    with ``socket.socket(family)``, protocol 0, so the connections it accepts keep Nagle on: a
    small message written after a large one (the cost chart, 64 KB) waits until the browser
    acknowledges the large one, and browsers delay that acknowledgement by up to 40 ms. Measured
    (issue 39, benchmarks/README.md "Many people at once"): one session moving prices on a
    200,000-row upload waited about 40 ms more on one move in ten. This widens asyncio's test to
    protocol 0, which for a stream socket of an internet family is TCP."""
    import asyncio.base_events as base_events
    import contextlib
    import socket

    original = getattr(base_events, "_set_nodelay", None)
    if original is None or not hasattr(socket, "TCP_NODELAY"):
        return False
    if getattr(original, "costlib", False):
        return True

    def set_nodelay(sock) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.type == socket.SOCK_STREAM and sock.proto == 0:
            with contextlib.suppress(OSError):  # a socket that refuses it keeps what it had
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        else:
            original(sock)

    set_nodelay.costlib = True
    set_nodelay.__wrapped__ = original
    base_events._set_nodelay = set_nodelay
    return True


def trim_forever(every: float = TRIM_SECONDS) -> None:
    """Every `every` seconds, return the allocator's free pages to the system (glibc's
    ``malloc_trim``); nothing where there is no glibc."""
    import ctypes
    import ctypes.util
    import time

    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        trim = None
    while trim is not None:
        time.sleep(every)
        trim(0)


def run(flags: list[str]) -> int:
    """Warm the pages' imports (`warm`), then start the server with Streamlit's `flags`, its
    connections without Nagle's delay (`send_without_delay`), and trim its free memory from
    then on (`trim_forever`).

    The warm-up finishes before the server listens. It used to run in a thread while the server
    started, and a first visitor's run could then import ``views._ui`` while the thread was
    importing ``views._ui.data``: each held the lock of the module the other needed (a package's
    ``__init__`` imports its submodules), Python broke the deadlock by failing one import, and
    the first page showed an error instead of its answer (CI, stop 57: ``_DeadlockError:
    deadlock detected by _ModuleLock('views._ui.data')``). The imports take about 3 s, which the
    first visitor would otherwise wait for."""
    flags = flags[1:] if flags[:1] == ["--"] else flags  # "dashboard -- --server.port 8502" means the same
    from streamlit.web import cli as streamlit_cli

    from costlib.cli.balancer import SERVER_ENV, mark_sessions

    if SERVER_ENV in os.environ:  # one of several servers behind the balancer: its sessions carry its number
        mark_sessions(int(os.environ[SERVER_ENV]))
    send_without_delay()
    warm_once()
    threading.Thread(target=trim_forever, name="costlib-trim", daemon=True).start()
    sys.argv = ["streamlit", "run", str(APP), *config_flags(APP.parent / ".streamlit" / "config.toml", flags), *flags]
    return streamlit_cli.main()
