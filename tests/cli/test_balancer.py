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

from costlib.cli import balancer, dashboard
from costlib.cli.balancer import Balancer, headers_of, one_request, refusal, split_flags, xsrf_token


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


async def _fake_server(name: bytes, seen: list):
    """A server that answers a request with its name, the request's head after it, and for a
    websocket upgrade echoes what follows until the client closes."""

    async def handle(reader, writer):
        head = await reader.readuntil(b"\r\n\r\n")
        seen.append((name, head))
        if b"Upgrade: websocket" in head:
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


def test_the_listen_flags_go_to_the_balancer_and_the_rest_to_every_server(monkeypatch):
    monkeypatch.delenv("STREAMLIT_SERVER_PORT", raising=False)
    monkeypatch.delenv("STREAMLIT_SERVER_ADDRESS", raising=False)
    assert split_flags(["--server.address", "0.0.0.0", "--x=1"]) == ("0.0.0.0", 8501, ["--x=1"])
    monkeypatch.setenv("STREAMLIT_SERVER_PORT", "9000")
    assert split_flags([]) == ("", 9000, [])


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--processes", "0"], "whole number"),
        (["--processes=two"], "whole number"),
        (["--processes", "2", "--server.enableXsrfProtection", "false"], "XSRF"),
        (["--processes=2", "--server.enableXsrfProtection=false"], "XSRF"),
        (["--processes", "2", "--server.port", "http"], "port number"),
    ],
)
def test_a_count_or_flags_it_cannot_serve_get_a_sentence_and_exit_2(argv, says, capsys):
    assert dashboard.run(argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.startswith("costlib dashboard: ") and "Traceback" not in err


def test_one_process_is_the_plain_server_and_the_count_is_read_in_either_form():
    assert dashboard.processes_flag(["--processes", "1", "--a"]) == (1, ["--a"])
    assert dashboard.processes_flag(["--processes=3"]) == (3, [])
    assert refusal(2, ["--server.port=8502"]) is None


def test_the_servers_together_hold_the_memory_one_server_would(monkeypatch):
    from costlib.loading.budget import SERVER_MEMORY_ENV

    monkeypatch.setenv(SERVER_MEMORY_ENV, "3000")
    assert balancer.server_environment(3)[SERVER_MEMORY_ENV] == "1000"
    monkeypatch.delenv(SERVER_MEMORY_ENV)
    from costlib.loading.budget import server_memory_budget

    assert int(balancer.server_environment(2)[SERVER_MEMORY_ENV]) == server_memory_budget() // 2 // 2**20


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
