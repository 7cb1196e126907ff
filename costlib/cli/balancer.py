"""Several dashboard servers behind one port: ``costlib dashboard --processes N``.

One Streamlit server runs every session's script in one interpreter, so reviewers who move
prices at once queue for it (issue 39: twenty sessions at a reviewer's pace kept one
interpreter about half busy, and the 95th percentile of a move waited for two to three others).
``--processes N`` starts N servers, each its own interpreter on its own loopback port, and this
balancer on the dashboard's port in front of them, so N moves run at once on N cores.

A session stays on the server that holds it: its websocket, its uploads
(``/_stcore/upload_file/<session>/...``) and its downloads (``/media/...``) are that server's
alone. Each server makes its session ids begin with its own number, a hexadecimal digit
(`mark_sessions`), so a request that names its session goes to that server: an upload (the id is
in its path) and a websocket that reconnects to its session (the id is its third subprotocol, as
Streamlit's page sends it). A request that names no session follows its browser, known by the
token under its ``_streamlit_xsrf`` cookie, which Streamlit sets on the page's first health check
and the browser sends with every request after (the cookie's text is masked anew on each answer;
the token under the mask is not: `xsrf_token`). The first request with a token not seen before
goes to the server with the fewest open websockets, and every later one with that token to the
same server; a request with no token (the page's own files, the first health check) goes to the
servers in turn. A download can still meet the wrong server when several tabs of one browser opened
at once (each got a token of its own, the last one set stays): a ``GET /media/...`` answered 404
is asked of the other servers before the 404 is passed on.
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
MOST_SERVERS = 16  # a session id's first hexadecimal digit names its server (`mark_sessions`)
SERVER_ENV = "COSTLIB_SERVER_INDEX"  # a server's number behind the balancer, for `mark_sessions`
UPLOADS = "/_stcore/upload_file/"
MEDIA = "/media/"
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


def mark_sessions(server: int) -> None:
    """Make every session id this Streamlit server makes from now on begin with `server` as a
    hexadecimal digit (the rest stays random: 118 random bits of the 122 a version 4 UUID has), so
    the balancer can send a request that names a session to the server that holds it."""
    import types
    import uuid

    from streamlit.runtime import app_session

    if not 0 <= server < MOST_SERVERS:
        raise ValueError(f"a server's number is 0 to {MOST_SERVERS - 1}, not {server}")

    def uuid4() -> uuid.UUID:
        return uuid.UUID(f"{server:x}{uuid.uuid4().hex[1:]}")

    app_session.uuid = types.SimpleNamespace(**{**vars(uuid), "uuid4": uuid4})


def session_server(session: str, servers: int) -> int | None:
    """The server that holds the session whose id is `session` (`mark_sessions`), None for what
    is not a session id of one of `servers` servers.

    >>> session_server("1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed", 2), session_server("f00", 2), session_server("", 2)
    (1, None, None)
    """
    if len(session) < 32 or session[0] not in "0123456789abcdef":
        return None
    server = int(session[0], 16)
    return server if server < servers else None


def named_session(target: str, headers: dict[str, str]) -> str:
    """The session id a request names: an upload's (in its path) or a websocket's that reconnects
    to its session (the third entry of its subprotocols); "" for none.

    >>> named_session("/app/_stcore/upload_file/abc-1/f9", {})
    'abc-1'
    >>> named_session("/_stcore/stream", {"sec-websocket-protocol": "streamlit, 2|aa|bb|1, abc-2"})
    'abc-2'
    """
    if UPLOADS in target:
        return target.split(UPLOADS, 1)[1].split("/", 1)[0].split("?", 1)[0]
    entries = [e.strip() for e in headers.get("sec-websocket-protocol", "").split(",")]
    return entries[2] if len(entries) >= 3 else ""


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
    """Copy `source` to `sink` until `source` ends; then, with `half_close`, say so to `sink`. A
    connection that breaks closes `sink`, so the other side's copy ends too (a browser that resets
    its connection does not leave its websocket open to the server)."""
    try:
        while data := await source.read(CHUNK):
            sink.write(data)
            await sink.drain()
        if half_close and sink.can_write_eof():
            sink.write_eof()
    except (ConnectionError, OSError):
        sink.close()


class Balancer:
    """Connections to one port spread over `servers` ((host, port) each), a browser's to one
    server (the module's docstring says how)."""

    def __init__(self, servers: list[tuple[str, int]], ready: set[int] | None = None):
        self.servers = list(servers)
        # the servers new browsers may go to: those that answered their health check (all by default);
        # the dashboard listens once one has, and the others join as they finish their warm-up
        self.ready = set(range(len(self.servers))) if ready is None else set(ready)
        self.open = [0] * len(self.servers)  # open websockets per server
        self.given = [0] * len(self.servers)  # browsers sent to each server, ever
        self.tokens: OrderedDict[bytes, int] = OrderedDict()
        self._turn = itertools.cycle(range(len(self.servers)))
        self._browsers: set[asyncio.StreamWriter] = set()  # connections open, closed when serving stops
        self.listening: asyncio.Server | None = None  # while `serve` serves

    def choose(self, token: bytes | None) -> int:
        """The server of the browser whose XSRF token is `token` (None: the next server in turn)."""
        if token is None:
            return next(i for i in self._turn if i in self.ready or not self.ready)
        server = self.tokens.get(token)
        if server is None:
            server = min(self.ready or range(len(self.servers)), key=lambda i: (self.open[i], self.given[i], i))
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
        self._browsers.add(writer)
        try:
            await self._handle(reader, writer)
        finally:
            self._browsers.discard(writer)
            writer.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_SECONDS))[:-4]
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, TimeoutError):
            return
        headers = headers_of(head)
        method, _, rest = head.split(b"\r\n", 1)[0].decode("latin-1").partition(" ")
        target = rest.split(" ", 1)[0]
        websocket = "websocket" in headers.get("upgrade", "").lower()
        server = session_server(named_session(target, headers), len(self.servers))
        if server is None:
            server = self.choose(xsrf_token(headers.get("cookie", "")))
        sent = head if websocket else one_request(head)
        others = [i for i in range(len(self.servers)) if i != server] if method == "GET" and MEDIA in target else []
        up = await self._connect(server, sent, others)
        if up is None:
            with contextlib.suppress(ConnectionError, OSError):
                writer.write(BAD_GATEWAY)
                await writer.drain()
            return
        server, up_reader, up_writer, answered = up
        self.open[server] += websocket
        upstream = asyncio.create_task(_pipe(reader, up_writer, half_close=True))
        try:
            if answered:
                writer.write(answered)
            await _pipe(up_reader, writer, half_close=False)  # the server's side ends the exchange
        finally:
            self.open[server] -= websocket
            upstream.cancel()
            up_writer.close()

    async def _connect(self, server: int, head: bytes, others: list[int]):
        """(server, reader, writer, what was read of its answer) of the connection that sends
        `head` to `server`; with `others` (a download), to the first of `server` and `others`
        whose answer is not a 404. None when no server can be reached."""
        last = None
        for i in [server, *others]:
            try:
                up_reader, up_writer = await asyncio.open_connection(*self.servers[i])
            except OSError:
                continue
            _without_delay(up_writer)
            up_writer.write(head + b"\r\n\r\n")
            if not others:
                return i, up_reader, up_writer, b""
            try:
                answer = await asyncio.wait_for(up_reader.readuntil(b"\r\n\r\n"), HEAD_SECONDS)
            except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, TimeoutError):
                up_writer.close()
                continue
            if last is not None:
                last[2].close()
            last = (i, up_reader, up_writer, answer)
            if answer.split(b" ", 2)[1:2] != [b"404"]:
                return last
        return last

    async def serve(self, host: str, port: int, stop: asyncio.Event) -> None:
        """Serve on `host`:`port` (host "" for every interface) until `stop` is set; then close
        every connection (Python 3.12 and later wait for them to close before a server is done)."""
        server = await asyncio.start_server(self.handle, host or None, port, limit=HEAD_LIMIT, reuse_address=True)
        self.listening = server
        try:
            await stop.wait()
        finally:
            server.close()
            for writer in list(self._browsers):
                writer.transport.abort()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(server.wait_closed(), 5)
