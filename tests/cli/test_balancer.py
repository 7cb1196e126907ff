"""The balancer of ``costlib dashboard --processes N`` (`costlib.cli.balancer`): a browser stays
on one server, new browsers go to the server with the fewest open websockets, bytes pass both
ways unchanged, and each HTTP request gets a connection of its own."""

from __future__ import annotations

import asyncio
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.web.server.starlette.starlette_app_utils import generate_xsrf_token_string

from costlib.cli import balancer, spread
from costlib.cli.balancer import Balancer, headers_of, one_request, xsrf_token
from costlib.cli.spread import refusal, split_flags


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1, max_size=40), st.integers(0, 2**31))
def test_the_token_under_every_mask_streamlit_draws_is_one_token(token, stamp):
    a, b = generate_xsrf_token_string(token, stamp), generate_xsrf_token_string(token, stamp + 1)
    assert a != b or len(token) == 0  # masked anew each time (four random bytes)
    assert xsrf_token(f"x=1; {balancer.XSRF_COOKIE}={a}") == token
    assert xsrf_token(f'{balancer.XSRF_COOKIE}="{b}"; y=2') == token


@pytest.mark.parametrize(
    "cookie", ["", "other=1", f"{balancer.XSRF_COOKIE}=", f"{balancer.XSRF_COOKIE}=2|0102|zz|1", "garbage"]
)
def test_no_token_is_read_from_a_cookie_header_without_one(cookie):
    assert xsrf_token(cookie) is None


def test_headers_are_read_by_name_and_a_second_cookie_header_is_kept():
    head = b"GET / HTTP/1.1\r\nHost: a\r\nCookie: x=1\r\nUPGRADE: websocket\r\ncookie: y=2"
    assert headers_of(head) == {"host": "a", "cookie": "x=1; y=2", "upgrade": "websocket"}


def test_a_request_asks_for_its_connection_to_close_after_the_answer():
    head = b"PUT /x HTTP/1.1\r\nconnection: Keep-Alive\r\nKeep-Alive: timeout=5\r\nContent-Length: 3"
    assert one_request(head) == b"PUT /x HTTP/1.1\r\nContent-Length: 3\r\nConnection: close"


def test_a_browser_stays_on_its_server_and_new_ones_go_where_fewest_websockets_are_open(monkeypatch):
    b = Balancer([("h", 1), ("h", 2), ("h", 3)])
    assert [b.choose(t) for t in (b"a", b"b", b"c")] == [0, 1, 2]
    b.open = [2, 0, 1]
    assert b.choose(b"d") == 1 and b.choose(b"a") == 0 and b.choose(b"d") == 1
    b.open = [0, 0, 0]  # ties go to the server given the fewest browsers (d went to 1)
    assert b.choose(b"e") == 0 and b.choose(b"f") == 2
    assert [b.choose(None) for _ in range(4)] == [0, 1, 2, 0]  # no token: in turn
    monkeypatch.setattr(balancer, "REMEMBERED", 2)
    b.choose(b"g")
    assert list(b.tokens) == [b"f", b"g"]  # the oldest forgotten first


def test_the_dashboard_answers_once_one_server_has_started_and_the_others_take_browsers_as_they_join():
    b = Balancer([("h", 1), ("h", 2), ("h", 3)], ready={1})
    assert [b.choose(t) for t in (b"a", b"b")] == [1, 1]  # only the server that answered its health check
    assert [b.choose(None) for _ in range(3)] == [1, 1, 1]
    b.ready.add(2)
    b.open = [0, 2, 0]  # a and b hold their websockets on server 1
    assert b.choose(b"c") == 2 and b.choose(b"a") == 1  # new browsers go to the new one, a stays
    assert sorted(b.choose(None) for _ in range(4)) == [1, 1, 2, 2]  # in turn among the two


async def _fake_server(name: bytes, seen: list, missing: bytes = b"\x00"):
    """A server that answers a request with its name and the request's body, 404 to a request for
    `missing`, and for a websocket upgrade echoes what follows until the client closes."""

    async def handle(reader, writer):
        head = await reader.readuntil(b"\r\n\r\n")
        seen.append((name, head))
        if missing in head.split(b"\r\n", 1)[0]:
            writer.write(b"HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n" + name)
        elif b"Upgrade: websocket" in head:
            writer.write(b"HTTP/1.1 101 Switching Protocols\r\n\r\n" + name)
            while data := await reader.read(100):
                writer.write(data.upper())
                await writer.drain()
        else:
            body = await reader.readexactly(int(headers_of(head[:-4]).get("content-length", "0") or 0))
            writer.write(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + name + b"|" + body)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def _request(port: int, cookie: str = "", body: bytes = b"", *, half_close: bool = False) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    extra = f"Cookie: {cookie}\r\n" if cookie else ""
    writer.write(
        f"PUT /x HTTP/1.1\r\nHost: t\r\nConnection: keep-alive\r\n{extra}Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    if half_close:
        writer.write_eof()
    reply = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return reply.split(b"\r\n\r\n", 1)[1]


def _cookie(token: bytes) -> str:
    return f"{balancer.XSRF_COOKIE}={generate_xsrf_token_string(token)}"


def test_requests_and_websockets_pass_through_to_the_browsers_server():
    async def main():
        seen: list = []
        (s1, p1), (s2, p2) = await _fake_server(b"one", seen), await _fake_server(b"two", seen)
        b = Balancer([("127.0.0.1", p1), ("127.0.0.1", p2)])
        stop = asyncio.Event()
        front = await asyncio.start_server(b.handle, "127.0.0.1", 0, limit=balancer.HEAD_LIMIT)
        port = front.sockets[0].getsockname()[1]
        alice_token = os.urandom(16)
        alice, bob = _cookie(alice_token), _cookie(os.urandom(16))
        # a websocket from alice opens on one server and stays open while others come
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /_stcore/stream HTTP/1.1\r\nUpgrade: websocket\r\nCookie: {alice}\r\n\r\n".encode())
        await reader.readuntil(b"\r\n\r\n")
        ws_server = await reader.readexactly(3)
        writer.write(b"hello")
        assert await reader.readexactly(5) == b"HELLO"
        assert sorted(b.open) == [0, 1]
        # alice's upload (a body, the cookie masked anew) goes to her server; bob to the other
        big = os.urandom(300_000)
        got = await _request(port, _cookie(alice_token), big)
        assert got == ws_server + b"|" + big
        assert (await _request(port, alice, b"x")).split(b"|")[0] == ws_server
        assert (await _request(port, bob, b"y")).split(b"|")[0] != ws_server
        # a client that half-closes after its request still gets the answer
        assert (await _request(port, bob, b"z", half_close=True)).endswith(b"|z")
        # every request reached its server asking to close, the websocket as it was sent
        requests = [head for _, head in seen if b"Upgrade" not in head]
        assert requests and all(h.count(b"Connection") == 1 and b"Connection: close" in h for h in requests)
        writer.close()
        for _ in range(50):
            if sum(b.open) == 0:
                break
            await asyncio.sleep(0.05)
        assert b.open == [0, 0]
        s1.close()
        s2.close()
        await asyncio.sleep(0)
        # a server that is gone: the browser gets 502, not a hang
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
        reply = await asyncio.wait_for(reader.read(), 10)
        assert reply.startswith(b"HTTP/1.1 502")
        front.close()
        stop.set()

    asyncio.run(main())


def test_the_listen_flags_go_to_the_balancer_and_the_rest_to_every_server(monkeypatch, tmp_path):
    monkeypatch.delenv("STREAMLIT_SERVER_PORT", raising=False)
    monkeypatch.delenv("STREAMLIT_SERVER_ADDRESS", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert split_flags(["--server.address", "0.0.0.0", "--x=1"]) == ("0.0.0.0", 8501, ["--x=1"])
    monkeypatch.setenv("STREAMLIT_SERVER_PORT", "9000")
    assert split_flags([]) == ("", 9000, [])
    monkeypatch.delenv("STREAMLIT_SERVER_PORT")
    # a deployment's own config file, where the dashboard starts, as Streamlit itself reads it
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "config.toml").write_text('[server]\naddress = "127.0.0.1"\nport = 8637\n')
    assert split_flags([]) == ("127.0.0.1", 8637, [])
    assert split_flags(["--server.port", "8700"]) == ("127.0.0.1", 8700, [])


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--processes", "0"], "whole number"),
        (["--processes=two"], "whole number"),
        (["--processes", "2", "--server.enableXsrfProtection", "false"], "XSRF"),
        (["--processes=2", "--server.enableXsrfProtection=false"], "XSRF"),
        (["--processes", "2", "--server.port", "http"], "port number"),
        (["--processes", "17"], "from 1 to 16"),
        (["--processes", "2", "--server.sslCertFile", "/x.pem"], "TLS"),
    ],
)
def test_a_count_or_flags_it_cannot_serve_get_a_sentence_and_exit_2(argv, says, capsys):
    assert spread.main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.startswith("costlib dashboard: ") and "Traceback" not in err


def test_one_process_is_the_plain_server_and_the_count_is_read_in_either_form():
    assert spread.processes_flag(["--processes", "1", "--a"]) == (1, ["--a"])
    assert spread.processes_flag(["--processes=3"]) == (3, [])
    assert refusal(2, ["--server.port=8502"]) is None


def test_without_a_count_the_dashboard_starts_one_server_a_core_within_the_memory_and_flags(monkeypatch):
    from costlib.loading.budget import SERVER_MEMORY_ENV, UPLOAD_MEMORY_ENV

    monkeypatch.setenv(UPLOAD_MEMORY_ENV, "1024")
    assert spread.processes_flag(["--a"]) == (None, ["--a"])
    assert spread.processes_flag(["--processes", "auto"]) == (None, [])
    monkeypatch.setenv(SERVER_MEMORY_ENV, "64000")
    monkeypatch.setattr(spread, "cores", lambda: 2)
    assert spread.auto_count([]) == (2, None)
    monkeypatch.setattr(spread, "cores", lambda: 32)
    assert spread.auto_count([]) == (spread.AUTO_MOST, None)  # a room of reviewers, not a farm
    monkeypatch.setenv(SERVER_MEMORY_ENV, "2500")
    assert spread.auto_count([]) == (2, None)  # each keeps a share no smaller than one upload's budget
    monkeypatch.setenv(UPLOAD_MEMORY_ENV, "4096")
    monkeypatch.setenv(SERVER_MEMORY_ENV, "4096")  # half of an 8 GB machine: one server takes the largest upload
    assert spread.auto_count([]) == (1, None)
    monkeypatch.setenv(UPLOAD_MEMORY_ENV, "1024")
    monkeypatch.setattr(spread, "cores", lambda: 1)
    assert spread.auto_count([]) == (1, None)
    monkeypatch.setattr(spread, "cores", lambda: 2)
    count, why = spread.auto_count(["--server.enableXsrfProtection", "false"])
    assert count == 1 and "XSRF" in why  # the balancer needs it: one server, said, not refused


def test_without_a_count_and_with_xsrf_off_one_server_starts_and_says_why(monkeypatch, capsys):
    from costlib.cli import dashboard

    monkeypatch.setattr(spread, "cores", lambda: 2)
    started = []
    monkeypatch.setattr(dashboard, "run", lambda flags: started.append(flags) or 0)
    monkeypatch.setattr(spread, "spread", lambda count, flags: pytest.fail("no balancer without XSRF"))
    assert spread.main(["--server.enableXsrfProtection=false"]) == 0
    assert started == [["--server.enableXsrfProtection=false"]]
    assert capsys.readouterr().err.startswith("costlib dashboard: one server, no balancer: ")
    monkeypatch.setattr(spread, "spread", lambda count, flags: started.append(count) or 0)
    monkeypatch.setenv("STREAMLIT_SERVER_ENABLE_XSRF_PROTECTION", "true")
    assert spread.main([]) == 0 and started[-1] == 2


def test_each_server_behind_the_balancer_is_one_server_not_another_balancer(monkeypatch):
    import subprocess

    launched, healthy = [], []

    class Running:
        def __init__(self, cmd, **kw):
            launched.append(cmd)

        def poll(self):
            return None

        def wait(self, timeout=None):
            return 0

        def terminate(self):
            pass

    async def serve(self, host, port, stop):  # the balancer answers nobody here and stops at once
        return None

    def answers(port, base):  # the first server answers at its second health check, the others at once
        healthy.append((port, len(launched)))
        return len(healthy) > 1

    monkeypatch.setattr(subprocess, "Popen", Running)
    monkeypatch.setattr(balancer.Balancer, "serve", serve)
    monkeypatch.setattr(spread, "_healthy", answers)
    monkeypatch.delenv("STREAMLIT_LOGGER_LEVEL", raising=False)
    assert spread.spread(2, ["--server.address", "127.0.0.1", "--server.port", "0"]) == 0
    assert len(launched) == 2
    assert healthy[:2] == [(healthy[0][0], 1), (healthy[0][0], 1)]  # the second starts once the first answers
    for cmd in launched:  # without it each would start servers of its own, and so on
        assert cmd[cmd.index("dashboard") + 1 : cmd.index("dashboard") + 3] == ["--processes", "1"]
        # their "Uvicorn server started on 127.0.0.1:<port>" is not said beside the dashboard's one address
        assert cmd[cmd.index("--logger.level") + 1] == "warning"
    launched.clear()
    assert spread.spread(2, ["--server.port", "0", "--logger.level", "debug"]) == 0
    assert all("warning" not in cmd for cmd in launched)  # a level the deployment chose is its own


def test_the_servers_together_hold_the_memory_one_server_would_and_know_their_number(monkeypatch):
    from costlib.loading.budget import SERVER_MEMORY_ENV

    monkeypatch.setenv(SERVER_MEMORY_ENV, "3000")
    env = spread.server_environment(3, 2)
    assert env[SERVER_MEMORY_ENV] == "1000" and env[balancer.SERVER_ENV] == "2"
    monkeypatch.delenv(SERVER_MEMORY_ENV)
    from costlib.loading.budget import server_memory_budget

    assert int(spread.server_environment(2, 0)[SERVER_MEMORY_ENV]) == server_memory_budget() // 2 // 2**20


def test_xsrf_turned_off_in_a_config_file_is_refused_too(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("STREAMLIT_SERVER_ENABLE_XSRF_PROTECTION", raising=False)
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "config.toml").write_text("[server]\nenableXsrfProtection = false\n")
    assert "XSRF" in refusal(2, [])
    assert refusal(2, ["--server.enableXsrfProtection=true"]) is None


def test_a_server_marks_its_session_ids_with_its_number(monkeypatch):
    from streamlit.runtime import app_session

    monkeypatch.setattr(app_session, "uuid", app_session.uuid)  # put back after the test
    balancer.mark_sessions(11)
    ids = {str(app_session.uuid.uuid4()) for _ in range(50)}
    assert len(ids) == 50 and all(i[0] == "b" and len(i) == 36 for i in ids)
    assert {balancer.session_server(i, 12) for i in ids} == {11}
    assert {balancer.session_server(i, 11) for i in ids} == {None}  # not one of 11 servers
    with pytest.raises(ValueError):
        balancer.mark_sessions(16)


def test_a_connection_that_sends_no_request_is_closed(monkeypatch):
    monkeypatch.setattr(balancer, "HEAD_SECONDS", 0.2)

    async def main():
        b = Balancer([("127.0.0.1", 9)])
        front = await asyncio.start_server(b.handle, "127.0.0.1", 0, limit=balancer.HEAD_LIMIT)
        reader, writer = await asyncio.open_connection("127.0.0.1", front.sockets[0].getsockname()[1])
        writer.write(b"GET / HTTP/1.1\r\n")  # and nothing more
        assert await asyncio.wait_for(reader.read(), 5) == b""
        writer.close()
        front.close()

    asyncio.run(main())


def test_a_request_that_names_its_session_goes_to_the_server_that_holds_it_and_a_download_finds_its_server():
    async def main():
        seen: list = []
        s1, p1 = await _fake_server(b"one", seen, b"/media/b")
        s2, p2 = await _fake_server(b"two", seen, b"/media/a")
        b = Balancer([("127.0.0.1", p1), ("127.0.0.1", p2)])
        front = await asyncio.start_server(b.handle, "127.0.0.1", 0, limit=balancer.HEAD_LIMIT)
        port = front.sockets[0].getsockname()[1]
        token = os.urandom(16)
        assert b.choose(token) == 0  # this browser's cookie points at server 0 ...

        async def ask(line: str, extra: str = "") -> bytes:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"{line} HTTP/1.1\r\nCookie: {_cookie(token)}\r\n{extra}Content-Length: 0\r\n\r\n".encode())
            reply = await asyncio.wait_for(reader.read(), 10)
            writer.close()
            return reply

        # ... but a tab of it holds a session on server 1: its upload goes there
        session = "1" + os.urandom(16).hex()[1:]
        assert (await ask(f"PUT /_stcore/upload_file/{session}/f1")).split(b"\r\n\r\n")[1] == b"two|"
        assert (await ask(f"PUT /_stcore/upload_file/0{session[1:]}/f1")).split(b"\r\n\r\n")[1] == b"one|"
        # a download server 0 does not have is asked of server 1; one neither has is a 404
        assert (await ask("GET /media/b.csv")).split(b"\r\n\r\n")[1] == b"two|"
        assert (await ask("GET /media/a.csv")).split(b"\r\n\r\n")[1] == b"one|"
        s3, p3 = await _fake_server(b"three", seen, b"/media/")
        b.servers[1] = ("127.0.0.1", p3)  # now every server answers 404 to /media/...
        reply = await ask("GET /media/b.csv")
        assert reply.startswith(b"HTTP/1.1 404") and reply.endswith(b"three")
        # a websocket that reconnects to its session goes to its server, whatever the cookie says
        b.servers[1] = ("127.0.0.1", p2)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        protocols = f"Sec-WebSocket-Protocol: streamlit, {generate_xsrf_token_string(token)}, {session}\r\n"
        writer.write(f"GET /_stcore/stream HTTP/1.1\r\nUpgrade: websocket\r\n{protocols}\r\n".encode())
        await reader.readuntil(b"\r\n\r\n")
        assert await reader.readexactly(3) == b"two" and b.open == [0, 1]
        writer.close()
        for s in (s1, s2, s3, front):
            s.close()

    asyncio.run(main())


def test_a_reset_connection_and_a_stop_close_what_they_leave_open():
    import socket
    import struct

    async def main():
        seen: list = []
        s1, p1 = await _fake_server(b"one", seen)
        b = Balancer([("127.0.0.1", p1)])
        stop = asyncio.Event()
        serving = asyncio.create_task(b.serve("127.0.0.1", 0, stop))
        await asyncio.sleep(0.2)
        port = b.listening.sockets[0].getsockname()[1]

        async def websocket():
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /_stcore/stream HTTP/1.1\r\nUpgrade: websocket\r\n\r\n")
            await reader.readuntil(b"\r\n\r\n")
            await reader.readexactly(3)
            return reader, writer

        _, reset = await websocket()
        assert b.open == [1]
        sock = reset.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        reset.transport.abort()  # a TCP reset, as a browser that vanishes
        for _ in range(40):
            if b.open == [0]:
                break
            await asyncio.sleep(0.05)
        assert b.open == [0]
        reader, _ = await websocket()
        stop.set()  # serving stops with a websocket open: it is closed, and serve returns
        await asyncio.wait_for(serving, 5)
        assert await asyncio.wait_for(reader.read(), 5) == b""
        s1.close()

    asyncio.run(main())


def test_a_port_in_use_is_said_before_the_servers_start(capsys):
    import socket
    import time

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert spread.port_taken("127.0.0.1", port)  # the system's words, e.g. "Address already in use"
        start = time.monotonic()
        assert spread.main(["--processes", "2", "--server.address", "127.0.0.1", "--server.port", str(port)]) == 1
        assert time.monotonic() - start < 5  # no server was started and waited for
    err = capsys.readouterr().err
    assert err.startswith(f"costlib dashboard: cannot listen on port {port}: ") and "Traceback" not in err
    assert spread.port_taken("127.0.0.1", port) is None


def test_a_server_that_does_not_start_in_time_is_let_go_and_the_others_go_on_serving(monkeypatch, capsys):
    import subprocess

    class Running:
        made: list = []

        def __init__(self, cmd, **kw):
            self.cmd, self.stopped = cmd, False
            Running.made.append(self)

        def poll(self):
            return 0 if self.stopped else None

        def wait(self, timeout=None):
            return 0

        def terminate(self):
            self.stopped = True

    async def serve(self, host, port, stop):  # serve for a while: long enough for the second to be late
        import contextlib

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 2.0)
        assert self.ready == {0}  # no browser was sent to the late one
        first, second = Running.made
        assert second.stopped and not first.stopped and not stop.is_set()  # let go, the first serving on

    ports = iter([40001, 40002])
    monkeypatch.setattr(spread, "_free_port", lambda: next(ports))
    monkeypatch.setattr(subprocess, "Popen", Running)
    monkeypatch.setattr(balancer.Balancer, "serve", serve)
    monkeypatch.setattr(spread, "_healthy", lambda port, base: port == 40001)  # the second never answers
    monkeypatch.setattr(spread, "START_SECONDS", 0.5)
    assert spread.spread(2, ["--server.address", "127.0.0.1", "--server.port", "0"]) == 0  # served on
    err = capsys.readouterr().err
    assert "1 of the 2 servers did not start within 0 s; the other 1 go on serving." in err
    assert "a server stopped" not in err  # letting it go did not stop the dashboard
