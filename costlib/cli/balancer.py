"""Several dashboard servers behind one port: ``costlib dashboard --processes N``.

One Streamlit server runs every session's script in one interpreter, so reviewers who move
prices at once queue for it (issue 39: twenty sessions at a reviewer's pace kept one
interpreter about half busy, and the 95th percentile of a move waited for two to three others).
``--processes N`` starts N servers, each its own interpreter on its own loopback port, and this
balancer on the dashboard's port in front of them, so N moves run at once on N cores.

A session stays on the server that holds it: its websocket, its uploads
(``/_stcore/upload_file/<session>/...``) and its downloads (``/media/...``) are that server's
alone. A browser is known by its XSRF token, which Streamlit sets as the ``_streamlit_xsrf``
cookie on the page's first health check, before the page opens its websocket, and which the
browser sends with the websocket, every upload and every download. (The cookie's text changes
from one answer to the next, masked anew; the token under the mask does not: `xsrf_token`.) The
first request with a token not seen before goes to the server with the fewest open websockets,
and every later one with that token goes to the same server. A request without a token (the
page's own files, the first health check) goes to the servers in turn: any of them can answer it.
So ``--processes`` needs Streamlit's XSRF protection on, as it is by default and in the
dashboard's own settings.

Each HTTP request gets a connection of its own (``Connection: close`` is asked of the server): a
browser sends requests of any kind down a connection it keeps, and this balancer routes a
connection, not a request. A websocket keeps its connection for the session's life. Bytes pass
through unchanged otherwise; nothing here reads a body.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
from collections import OrderedDict

XSRF_COOKIE = "_streamlit_xsrf"
HEAD_LIMIT = 64 * 1024  # the longest request line and headers taken (Streamlit's own server allows less)
CHUNK = 64 * 1024
HEAD_SECONDS = 30.0  # a connection that has not sent its request head by then is closed
REMEMBERED = 100_000  # browsers' tokens kept (the oldest forgotten first): a few MB at most
BAD_GATEWAY = b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


def xsrf_token(cookies: str) -> bytes | None:
    """The XSRF token under the mask of the ``_streamlit_xsrf`` cookie in a Cookie header, None
    without one (or with one that is not a token).

    >>> a = xsrf_token("x=1; _streamlit_xsrf=2|01020304|0b0b0b0b0b|1700000000")
    >>> a == xsrf_token("_streamlit_xsrf=2|00000000|0a09080f0a|1700000099"), a.hex()
    (True, '0a09080f0a')
    >>> xsrf_token("_streamlit_xsrf=2|zz|00|1"), xsrf_token("other=1")
    (None, None)
    """
    for part in cookies.split(";"):
        name, _, value = part.strip().partition("=")
        if name == XSRF_COOKIE:
            return _unmasked(value.strip().strip("\"'"))
    return None


def _unmasked(value: str) -> bytes | None:
    """The token of a version 2 cookie (``2|mask|masked token|time``, hexadecimal) or of a
    version 1 cookie (the token in hexadecimal)."""
    try:
        if value.startswith("2|"):
            _, mask_hex, masked_hex, _time = value.split("|")
            mask, masked = bytes.fromhex(mask_hex), bytes.fromhex(masked_hex)
            if len(mask) != 4:
                return None
            return bytes(b ^ mask[i % 4] for i, b in enumerate(masked)) or None
        return bytes.fromhex(value) or None
    except ValueError:
        return None


def headers_of(head: bytes) -> dict[str, str]:
    """A request head's headers by lower-case name (a repeated Cookie header joined with "; ")."""
    out: dict[str, str] = {}
    for line in head.split(b"\r\n")[1:]:
        name, sep, value = line.partition(b":")
        if not sep:
            continue
        key, text = name.strip().lower().decode("latin-1"), value.strip().decode("latin-1")
        out[key] = f"{out[key]}; {text}" if key == "cookie" and key in out else text
    return out


def one_request(head: bytes) -> bytes:
    """A request head (its line and headers, without the blank line) that asks the server to
    close the connection after its answer.

    >>> one_request(b"GET / HTTP/1.1\\r\\nHost: x\\r\\nConnection: keep-alive\\r\\nKeep-Alive: 5")
    b'GET / HTTP/1.1\\r\\nHost: x\\r\\nConnection: close'
    """
    kept = [line for line in head.split(b"\r\n") if not line.lower().startswith((b"connection:", b"keep-alive:"))]
    return b"\r\n".join([*kept, b"Connection: close"])


def _without_delay(writer: asyncio.StreamWriter) -> None:
    """Small writes go out at once (no Nagle's delay: see `costlib.cli.dashboard.send_without_delay`)."""
    sock = writer.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter, *, half_close: bool) -> None:
    """Copy `source` to `sink` until `source` ends; then, with `half_close`, say so to `sink`."""
    with contextlib.suppress(ConnectionError, OSError):
        while data := await source.read(CHUNK):
            sink.write(data)
            await sink.drain()
        if half_close and sink.can_write_eof():
            sink.write_eof()


class Balancer:
    """Connections to one port spread over `servers` ((host, port) each), a browser's to one
    server (the module's docstring says how)."""

    def __init__(self, servers: list[tuple[str, int]]):
        self.servers = list(servers)
        self.open = [0] * len(self.servers)  # open websockets per server
        self.given = [0] * len(self.servers)  # browsers sent to each server, ever
        self.tokens: OrderedDict[bytes, int] = OrderedDict()
        self._turn = itertools.cycle(range(len(self.servers)))

    def choose(self, token: bytes | None) -> int:
        """The server of the browser whose XSRF token is `token` (None: the next server in turn)."""
        if token is None:
            return next(self._turn)
        server = self.tokens.get(token)
        if server is None:
            server = min(range(len(self.servers)), key=lambda i: (self.open[i], self.given[i], i))
            self.given[server] += 1
            self.tokens[token] = server
            while len(self.tokens) > REMEMBERED:
                self.tokens.popitem(last=False)
        else:
            self.tokens.move_to_end(token)
        return server

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One connection from a browser: read its request head, pass it to its server, then
        pass bytes both ways until the server's side ends."""
        _without_delay(writer)
        try:
            head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_SECONDS))[:-4]
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, TimeoutError):
            writer.close()
            return
        headers = headers_of(head)
        websocket = "websocket" in headers.get("upgrade", "").lower()
        server = self.choose(xsrf_token(headers.get("cookie", "")))
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.servers[server])
        except OSError:
            with contextlib.suppress(ConnectionError, OSError):
                writer.write(BAD_GATEWAY)
                await writer.drain()
            writer.close()
            return
        _without_delay(up_writer)
        up_writer.write((head if websocket else one_request(head)) + b"\r\n\r\n")
        self.open[server] += websocket
        upstream = asyncio.create_task(_pipe(reader, up_writer, half_close=True))
        try:
            await _pipe(up_reader, writer, half_close=False)  # the server's side ends the exchange
        finally:
            self.open[server] -= websocket
            upstream.cancel()
            for w in (writer, up_writer):
                w.close()

    async def serve(self, host: str, port: int, stop: asyncio.Event) -> None:
        """Serve on `host`:`port` (host "" for every interface) until `stop` is set."""
        server = await asyncio.start_server(self.handle, host or None, port, limit=HEAD_LIMIT, reuse_address=True)
        async with server:
            await stop.wait()


LISTEN_FLAGS = ("--server.port", "--server.address", "--server.headless")
START_SECONDS = 120.0  # each server imports the pages' modules before it listens (`dashboard.warm`)


def split_flags(flags: list[str]) -> tuple[str, int, list[str]]:
    """(address, port, the other flags) of Streamlit's `flags`: the balancer listens where the
    one server would have (``--server.address``, ``--server.port``, in either ``--x y`` or
    ``--x=y`` form; Streamlit's defaults otherwise), and each server on a loopback port of its own.

    >>> split_flags(["--server.port=8600", "--theme.base", "dark", "--server.headless", "true"])
    ('', 8600, ['--theme.base', 'dark'])
    """
    import os

    found: dict[str, str] = {}
    rest: list[str] = []
    items = iter(flags)
    for flag in items:
        name, eq, value = flag.partition("=")
        if name in LISTEN_FLAGS:
            found[name] = value if eq else next(items, "")
        else:
            rest.append(flag)
    address = found.get("--server.address", os.environ.get("STREAMLIT_SERVER_ADDRESS", ""))
    port = found.get("--server.port", os.environ.get("STREAMLIT_SERVER_PORT", "8501"))
    return address, int(port), rest


def refusal(count: int, flags: list[str]) -> str | None:
    """Why ``--processes count`` cannot run with `flags`, in a sentence (None: it can)."""
    import os

    if count < 1:
        return "--processes must be a whole number of servers, 1 or more (--processes 2)."
    off = {"false", "0", "no"}
    xsrf = os.environ.get("STREAMLIT_SERVER_ENABLE_XSRF_PROTECTION", "true").lower() not in off
    items = iter(flags)
    for flag in items:
        name, eq, value = flag.partition("=")
        if name == "--server.enableXsrfProtection":
            xsrf = (value if eq else next(items, "true")).lower() not in off
    if count > 1 and not xsrf:
        return (
            "--processes keeps each browser on one server by its XSRF cookie, so it needs "
            "Streamlit's XSRF protection on (--server.enableXsrfProtection true, the default)."
        )
    try:
        split_flags(flags)
    except ValueError:
        return "--server.port must be a port number."
    return None


def server_environment(count: int) -> dict[str, str]:
    """The environment of each of `count` servers: this one's, with the memory every session may
    hold together ($COSTLIB_SERVER_MEMORY_MB, `costlib.loading.budget.server_memory_budget`)
    split evenly, so that the servers together hold what one would."""
    import os

    from costlib.loading.budget import SERVER_MEMORY_ENV, server_memory_budget

    return {**os.environ, SERVER_MEMORY_ENV: str(max(1, server_memory_budget() // count // 2**20))}


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


def _healthy(port: int) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as reply:
            return reply.read().strip() == b"ok"
    except OSError:
        return False


def spread(count: int, flags: list[str]) -> int:
    """Start `count` dashboard servers (``python -m costlib dashboard`` with `flags`, each on a
    free loopback port) and the balancer where one server would listen; serve until interrupted
    or until a server stops (then stop the others). Returns the exit code."""
    import signal
    import subprocess
    import sys
    import time

    address, port, rest = split_flags(flags)
    ports = [_free_port() for _ in range(count)]
    servers = [
        subprocess.Popen(
            [sys.executable, "-m", "costlib", "dashboard", *rest, "--server.headless", "true"]
            + ["--server.address", "127.0.0.1", "--server.port", str(p)],
            stdout=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            env=server_environment(count),
            preexec_fn=_die_with_parent,
        )
        for p in ports
    ]
    try:
        deadline = time.monotonic() + START_SECONDS
        waiting = set(range(count))
        while waiting and time.monotonic() < deadline:
            if any(s.poll() is not None for s in servers):
                print("costlib dashboard: a server stopped while starting (its error is above).", file=sys.stderr)
                return 1
            waiting = {i for i in waiting if not _healthy(ports[i])}
            time.sleep(0.2 if waiting else 0)
        if waiting:
            print(
                f"costlib dashboard: {len(waiting)} server(s) did not start within {START_SECONDS:.0f} s.",
                file=sys.stderr,
            )
            return 1

        async def main() -> int:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, stop.set)

            async def watch() -> None:
                while not stop.is_set():
                    if any(s.poll() is not None for s in servers):
                        print("costlib dashboard: a server stopped; stopping the others.", file=sys.stderr)
                        stop.set()
                    await asyncio.sleep(1.0)

            watcher = asyncio.create_task(watch())
            shown = address or "localhost"
            print(f"costlib dashboard: http://{shown}:{port} ({count} servers, one interpreter each)", flush=True)
            try:
                await Balancer([("127.0.0.1", p) for p in ports]).serve(address, port, stop)
            except OSError as exc:
                print(f"costlib dashboard: cannot listen on port {port}: {exc.strerror}.", file=sys.stderr)
                return 1
            finally:
                watcher.cancel()
            return 0 if all(s.poll() is None for s in servers) else 1

        return asyncio.run(main())
    finally:
        for s in servers:
            if s.poll() is None:
                s.terminate()
        for s in servers:
            try:
                s.wait(timeout=10)
            except subprocess.TimeoutExpired:
                s.kill()
