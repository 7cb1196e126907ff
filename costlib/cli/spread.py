"""``costlib dashboard --processes N``: start N dashboard servers and the balancer in front of them
(without the flag, one a core: `auto_count`).

Each server is ``python -m costlib dashboard`` on a loopback port of its own, its session ids
marked with its number (`costlib.cli.balancer.SERVER_ENV`, read by `costlib.cli.dashboard.run`:
`costlib.cli.balancer.mark_sessions`), and its share of the memory budget. The balancer listens
where one server would have: the address and port Streamlit would read from the flags, its
``STREAMLIT_*`` variables or its config files (`served`). A server that stops stops the dashboard.
"""

from __future__ import annotations

import contextlib
import os
import socket
from pathlib import Path

LISTEN_FLAGS = ("--server.port", "--server.address", "--server.headless")
START_SECONDS = 120.0  # each server imports the pages' modules before it listens (`dashboard.warm`)
OFF = {"false", "0", "no"}
AUTO = "auto"  # --processes without a count: `auto_count`, the default
AUTO_MOST = 4  # servers `auto_count` starts at most: a room of reviewers, not a server farm


def processes_flag(flags: list[str]) -> tuple[int | None, list[str]]:
    """(the servers ``--processes N`` asks for: None without it or with ``auto``, -1 with a count
    that is not a whole number; the other flags).

    >>> processes_flag(["--processes", "2", "--server.port", "8502"]), processes_flag(["--processes=x"])[0]
    ((2, ['--server.port', '8502']), -1)
    >>> processes_flag([])[0], processes_flag(["--processes", "auto"])[0]
    (None, None)
    """
    count: int | None = None
    rest: list[str] = []
    items = iter(flags)
    for flag in items:
        name, eq, value = flag.partition("=")
        if name == "--processes":
            text = (value if eq else next(items, "")).strip()
            count = None if text == AUTO else int(text) if text.isdigit() else -1
        else:
            rest.append(flag)
    return count, rest


def cores() -> int:
    """The cores this process may run on (its affinity where the system says it, as a container's
    CPU set does), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def auto_count(flags: list[str]) -> tuple[int, str | None]:
    """(how many servers the dashboard starts without ``--processes``, why it is one when the
    machine has more cores: None otherwise). One a core, at most `AUTO_MOST`, each with a share of the
    memory budget (`server_environment` splits it) no smaller than one upload's budget (the largest
    upload a server takes is its share: the default would not shrink it), and one when the flags
    rule out the balancer (`refusal`: XSRF off, TLS), which then serves as it always did. People
    moving prices at the same time on one server wait for each other (issue 39), so a machine
    with cores to spare answers them at once unless told otherwise."""
    from costlib.loading.budget import server_memory_budget, upload_memory_budget

    count = min(cores(), AUTO_MOST, max(1, server_memory_budget() // upload_memory_budget()))
    why = refusal(count, flags) if count > 1 else None
    return (1, why) if why is not None else (count, None)


def main(flags: list[str]) -> int:
    """``costlib dashboard [--processes N] [STREAMLIT_FLAG ...]``: one server
    (`costlib.cli.dashboard.run`), or N behind the balancer (`spread`); a count or flags it cannot
    serve get a sentence and exit code 2."""
    import sys

    from costlib.cli import dashboard

    count, flags = processes_flag(flags)
    if count is None:
        count, why = auto_count(flags)
        if why is not None:
            print(f"costlib dashboard: one server, no balancer: {why}", file=sys.stderr)
    if count == 1:
        return dashboard.run(flags)
    why = refusal(count, flags)
    if why is not None:
        print(f"costlib dashboard: {why}", file=sys.stderr)
        return 2
    return spread(count, flags)


def _flag(flags: list[str], name: str) -> str | None:
    """The last value `flags` give the flag `name` (``--x y`` or ``--x=y``), None without it."""
    found = None
    items = iter(flags)
    for flag in items:
        key, eq, value = flag.partition("=")
        if key == name:
            found = value if eq else next(items, "")
    return found


def served(setting: str, flags: list[str], default: str) -> str:
    """The value Streamlit's servers will see for ``section.key`` `setting`, as text: from
    `flags`, else its ``STREAMLIT_*`` variable, else the config file where the dashboard starts,
    else the user's (``~/.streamlit``), else the dashboard's own (`dashboard.config_flags`
    passes it on), else `default`."""
    from costlib.cli.dashboard import APP, _read_toml, env_name

    given = _flag(flags, f"--{setting}")
    if given is not None:
        return given
    section, key = setting.split(".", 1)
    if env_name(section, key) in os.environ:
        return os.environ[env_name(section, key)]
    for path in (Path.cwd(), Path.home(), APP.parent):
        values = _read_toml(path / ".streamlit" / "config.toml").get(section, {})
        if isinstance(values, dict) and key in values:
            value = values[key]
            return str(value).lower() if isinstance(value, bool) else str(value)
    return default


def split_flags(flags: list[str]) -> tuple[str, int, list[str]]:
    """(address, port, the other flags): the balancer listens where one server would have
    (`served`: "" for every interface, port 8501 by default), and each server on a loopback port
    of its own, with the other flags.

    >>> split_flags(["--server.port=8600", "--theme.base", "dark", "--server.headless", "true"])[1:]
    (8600, ['--theme.base', 'dark'])
    """
    rest: list[str] = []
    items = iter(flags)
    for flag in items:
        key, eq, _ = flag.partition("=")
        if key in LISTEN_FLAGS:
            if not eq:
                next(items, None)
        else:
            rest.append(flag)
    return served("server.address", flags, ""), int(served("server.port", flags, "8501")), rest


def refusal(count: int, flags: list[str]) -> str | None:
    """Why ``--processes count`` cannot run with `flags`, in a sentence (None: it can)."""
    from costlib.cli.balancer import MOST_SERVERS

    if not 1 <= count <= MOST_SERVERS:
        return f"--processes must be auto or a whole number of servers from 1 to {MOST_SERVERS} (--processes 2)."
    if count == 1:
        return None
    if served("server.enableXsrfProtection", flags, "true").lower() in OFF:
        return (
            "--processes keeps each browser on one server by its XSRF cookie, so it needs "
            "Streamlit's XSRF protection on (--server.enableXsrfProtection true, the default)."
        )
    if served("server.sslCertFile", flags, ""):
        return (
            "--processes serves plain HTTP from its balancer: put TLS in front of it "
            "(a reverse proxy) rather than --server.sslCertFile."
        )
    try:
        split_flags(flags)
    except ValueError:
        return "--server.port must be a port number."
    return None


def server_environment(count: int, server: int) -> dict[str, str]:
    """The environment of server `server` of `count`: this one's, its number (`SERVER_ENV`), and
    the memory every session may hold together ($COSTLIB_SERVER_MEMORY_MB,
    `costlib.loading.budget.server_memory_budget`) split evenly, so that the servers together hold
    what one would (and one upload may take at most a server's share)."""
    from costlib.loading.budget import SERVER_MEMORY_ENV, server_memory_budget

    share = max(1, server_memory_budget() // count // 2**20)
    from costlib.cli.balancer import SERVER_ENV

    return {**os.environ, SERVER_MEMORY_ENV: str(share), SERVER_ENV: str(server)}


def _die_with_parent() -> None:  # in the child, between fork and exec: a server does not outlive its balancer
    import ctypes
    import sys

    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6").prctl(1, 15)  # PR_SET_PDEATHSIG, SIGTERM


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_taken(address: str, port: int) -> str | None:
    """Why the balancer could not listen on `address`:`port` now (the system's words), None if it can."""
    try:
        with socket.create_server((address, port), reuse_port=False):
            return None
    except OSError as exc:
        return exc.strerror or str(exc)


def _healthy(port: int, base: str) -> bool:
    import urllib.request

    path = f"/{base.strip('/')}/_stcore/health" if base.strip("/") else "/_stcore/health"
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as reply:
            return reply.read().strip() == b"ok"
    except OSError:
        return False


def spread(count: int, flags: list[str]) -> int:
    """Start `count` dashboard servers (``python -m costlib dashboard`` with `flags`, each on a
    free loopback port) and the balancer where one server would listen; serve until interrupted
    or until a server stops (then stop the others). Returns the exit code."""
    import asyncio
    import signal
    import subprocess
    import sys
    import time

    from costlib.cli.balancer import Balancer

    address, port, rest = split_flags(flags)
    base = served("server.baseUrlPath", flags, "")
    why = port_taken(address, port)  # before the servers' warm-up, not a minute or two after it
    if why is not None:
        print(f"costlib dashboard: cannot listen on port {port}: {why}.", file=sys.stderr)
        return 1
    ports: list[int] = []  # each taken when its server starts, not tens of seconds before
    quiet = [] if served("logger.level", flags, "") else ["--logger.level", "warning"]  # not their loopback ports

    def launch(i: int) -> subprocess.Popen:
        ports.append(_free_port())
        return subprocess.Popen(
            [sys.executable, "-m", "costlib", "dashboard", "--processes", "1", *quiet, *rest]
            + ["--server.headless", "true"]
            + ["--server.address", "127.0.0.1", "--server.port", str(ports[i])],
            stdout=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            env=server_environment(count, i),
            preexec_fn=_die_with_parent,
        )

    # the first server warms up alone and the dashboard listens once it answers; the others start
    # then and take new browsers as they answer (warming up together, each took two to three times
    # as long, and so did the first page); one that does not answer in time is let go, not the dashboard
    servers = [launch(0)]
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _healthy(ports[0], base):
            if servers[0].poll() is not None:
                print("costlib dashboard: a server stopped while starting (its error is above).", file=sys.stderr)
                return 1
            if time.monotonic() > deadline:
                late = f"the first server did not start within {START_SECONDS:.0f} s."
                print(f"costlib dashboard: {late}", file=sys.stderr)
                return 1
            time.sleep(0.2)
        servers += [launch(i) for i in range(1, count)]
        deadline = time.monotonic() + START_SECONDS
        waiting = set(range(1, count))
        dropped: set[int] = set()  # servers let go: not started in time
        balancer = Balancer([("127.0.0.1", p) for p in ports], ready={0})

        def running() -> list[subprocess.Popen]:
            return [s for i, s in enumerate(servers) if i not in dropped]

        async def main() -> int:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, stop.set)

            async def watch() -> None:
                while not stop.is_set():
                    if any(s.poll() is not None for s in running()):
                        print("costlib dashboard: a server stopped; stopping the others.", file=sys.stderr)
                        stop.set()
                    for i in sorted(waiting):  # the others join as they finish their warm-up
                        if await asyncio.to_thread(_healthy, ports[i], base):
                            waiting.discard(i)
                            balancer.ready.add(i)
                            if not waiting:
                                print(f"costlib dashboard: all {count} servers answer.", flush=True)
                    if waiting and time.monotonic() > deadline:
                        print(
                            f"costlib dashboard: {len(waiting)} of the {count} servers did not start within "
                            f"{START_SECONDS:.0f} s; the other {count - len(waiting)} go on serving.",
                            file=sys.stderr,
                        )
                        for i in waiting:
                            servers[i].terminate()
                        dropped.update(waiting)
                        waiting.clear()
                    await asyncio.sleep(1.0 if not waiting else 0.2)

            watcher = asyncio.create_task(watch())
            shown = address or "localhost"
            path = f"/{base.strip('/')}" if base.strip("/") else ""
            print(f"costlib dashboard: http://{shown}:{port}{path} ({count} servers, one interpreter each)", flush=True)
            try:
                await balancer.serve(address, port, stop)
            except OSError as exc:
                print(f"costlib dashboard: cannot listen on port {port}: {exc.strerror}.", file=sys.stderr)
                return 1
            finally:
                watcher.cancel()
            return 0 if all(s.poll() is None for s in running()) else 1

        return asyncio.run(main())
    except KeyboardInterrupt:  # Ctrl-C while the first server warms up: its servers stop below, no traceback
        return 130
    finally:
        for s in servers:
            if s.poll() is None:
                s.terminate()
        for s in servers:
            try:
                s.wait(timeout=10)
            except subprocess.TimeoutExpired:
                s.kill()
