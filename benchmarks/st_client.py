"""A Streamlit session without a browser: the websocket protocol a browser speaks, for load tests.

A browser tab talks to the server over one websocket (``/_stcore/stream``): it sends
``BackMsg`` protobufs (``rerun_script`` with the query string, the page and every widget's
state) and receives ``ForwardMsg`` protobufs (the elements of each run, then
``script_finished``). :class:`Session` sends the same messages a browser sends when a
reviewer opens a page, uploads a file, presses a button or moves a slider (with the address's
query string as the app last wrote it, and, for a widget a fragment drew, that fragment's id,
so that only the fragment reruns, as in a browser), and times a move
from sending the widget's new state to the server's ``script_finished``: the server's whole
answer, without the drawing (a browser then draws the chart; ``load_test.py`` checks with one
real browser that the two agree). Twenty of these cost the client a few milliseconds of CPU
per move, where twenty headless Chromium tabs cost ten times what the server spends.

Only the messages the load test needs are spoken; traffic goes to 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
import uuid
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.web.server.starlette.starlette_app_utils import generate_xsrf_token_string

XSRF_COOKIE = "_streamlit_xsrf"
FINISHED = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}


class Session:
    """One reviewer's tab: a websocket, the widgets of the last run and their states.

    `widgets` maps each widget's label to its element (``kind``, proto); `states` holds the
    widget states sent with every rerun, as a browser keeps them (a moved slider's value stays
    until it moves again).
    """

    def __init__(self, port: int):
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.xsrf = generate_xsrf_token_string()
        self.ws = None
        self.session_id = ""
        self.widgets: dict[str, tuple[str, object]] = {}
        self.states: dict[str, object] = {}
        self.texts: list[str] = []
        self.errors: list[str] = []
        self.page_hashes: dict[str, str] = {}
        self.page_hash = ""
        self.fragment_runs = 0  # runs that were one fragment's, not the whole page's
        self.query = ""  # the query string of the tab's address, sent with every rerun
        self.fragments: dict[str, str] = {}  # widget id -> the fragment that drew it ("" for none)

    async def open(self) -> None:
        self.ws = await websockets.connect(
            f"ws://127.0.0.1:{self.port}/_stcore/stream",
            subprotocols=["streamlit", self.xsrf],
            additional_headers={"Cookie": f"{XSRF_COOKIE}={self.xsrf}"},
            max_size=None,
            open_timeout=60,
        )

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def _receive_run(self, timeout: float) -> None:
        """Read ForwardMsgs until the run ends; remember its widgets, texts and exceptions."""
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"no script_finished within {timeout:.0f} s")
            raw = await asyncio.wait_for(self.ws.recv(), timeout=left)
            msg = ForwardMsg()
            msg.ParseFromString(raw)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                self.session_id = msg.new_session.initialize.session_id
                self.page_hash = msg.new_session.page_script_hash
            elif kind == "page_info_changed":  # the app wrote its link: the tab's address now holds it
                self.query = msg.page_info_changed.query_string
            elif kind == "navigation":
                self.page_hashes = {p.url_pathname: p.page_script_hash for p in msg.navigation.app_pages}
                self.page_hash = msg.navigation.page_script_hash
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                self._element(msg.delta.new_element, msg.delta.fragment_id)
            elif kind == "script_finished":
                if msg.script_finished in FINISHED:
                    self.fragment_runs += msg.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
                    return
                if msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    raise RuntimeError(f"the script ended with status {msg.script_finished}")

    def _element(self, el, fragment_id: str = "") -> None:
        kind = el.WhichOneof("type")
        if kind == "exception":
            self.errors.append(f"{el.exception.type}: {el.exception.message[:200]}")
        elif kind == "markdown":
            self.texts.append(el.markdown.body)
        elif kind in ("alert", "heading", "toast", "text"):
            self.texts.append(getattr(el, kind).body)
        elif kind in ("slider", "button", "file_uploader", "selectbox", "number_input", "checkbox", "radio"):
            proto = getattr(el, kind)
            self.widgets[proto.label] = (kind, proto)
            self.fragments[proto.id] = fragment_id

    async def run(
        self, *, page: str | None = None, query: str | None = None, fragment: str = "", timeout: float = 300.0
    ) -> float:
        """Send a rerun with the current widget states (on `page`, a url path, with `query` as the
        address's query string, by default what the app last wrote there); seconds to its end.

        With `fragment` (the id of the fragment that drew a changed widget) only that fragment
        reruns, as a browser asks when a widget inside a fragment changes; the widgets drawn
        outside it keep what the last full run drew."""
        msg = BackMsg()
        cs = msg.rerun_script
        if query is not None:
            self.query = query
        cs.query_string = self.query
        cs.fragment_id = fragment
        if page is not None:
            cs.page_name = page
            cs.page_script_hash = self.page_hashes.get(page, "")
        else:
            cs.page_script_hash = self.page_hash
        for wid, value in self.states.items():
            w = cs.widget_states.widgets.add()
            w.id = wid
            if isinstance(value, tuple) and value[0] == "trigger":
                w.trigger_value = True
            elif isinstance(value, tuple) and value[0] == "strings":
                w.string_array_value.data.extend(value[1])
            elif isinstance(value, tuple) and value[0] == "file":
                w.file_uploader_state_value.CopyFrom(value[1])
        if not fragment:
            self.widgets = {}
        self.texts = []
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        await self._receive_run(timeout)
        took = time.perf_counter() - t0
        self.states = {k: v for k, v in self.states.items() if not (isinstance(v, tuple) and v[0] == "trigger")}
        return took

    async def press(self, label: str) -> float:
        """Press the button `label` (a trigger, sent once) and wait for the run."""
        wid = self._widget(label, "button").id
        self.states[wid] = ("trigger",)
        return await self.run(fragment=self.fragments.get(wid, ""))

    def slider_options(self, label: str) -> tuple[list[str], str]:
        """A select slider's option labels and the one it shows now."""
        proto = self._widget(label, "slider")
        value = self.states.get(proto.id)
        if value:
            return list(proto.options), value[1][0]
        if proto.raw_value:  # the option the page put it at (its session state)
            return list(proto.options), list(proto.raw_value)[0]
        return list(proto.options), proto.options[int(proto.default[0])]

    async def move(self, label: str, step: int) -> float:
        """Move the select slider `label` by `step` stops (the keyboard's arrows) and time the answer."""
        options, current = self.slider_options(label)
        to = options[max(0, min(len(options) - 1, options.index(current) + step))]
        wid = self._widget(label, "slider").id
        self.states[wid] = ("strings", [to])
        return await self.run(fragment=self.fragments.get(wid, ""))

    async def upload(self, label: str, path: Path) -> float:
        """Upload `path` into the file uploader `label`, as a browser does, and wait for the run."""
        from streamlit.proto.Common_pb2 import FileUploaderState

        proto = self._widget(label, "file_uploader")
        msg = BackMsg()
        req = msg.file_urls_request
        req.request_id = uuid.uuid4().hex
        req.file_names.append(path.name)
        req.session_id = self.session_id
        await self.ws.send(msg.SerializeToString())
        urls = None
        while urls is None:
            reply = ForwardMsg()
            reply.ParseFromString(await asyncio.wait_for(self.ws.recv(), timeout=60))
            if (
                reply.WhichOneof("type") == "file_urls_response"
                and reply.file_urls_response.response_id == req.request_id
            ):
                urls = reply.file_urls_response.file_urls[0]
        data = path.read_bytes()
        await asyncio.to_thread(self._put, urls.upload_url, path.name, data)
        state = FileUploaderState()
        info = state.uploaded_file_info.add()
        info.file_id, info.name, info.size = urls.file_id, path.name, len(data)
        info.file_urls.CopyFrom(urls)
        self.states[proto.id] = ("file", state)
        return await self.run()

    def _put(self, url: str, name: str, data: bytes) -> None:
        boundary = uuid.uuid4().hex
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
                "Content-Type: text/csv\r\n\r\n"
            ).encode()
            + data
            + f"\r\n--{boundary}--\r\n".encode()
        )
        full = url if url.startswith("http") else self.base + url
        request = urllib.request.Request(
            full,
            data=body,
            method="PUT",
            headers={
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "X-Xsrftoken": self.xsrf,
                "Cookie": f"{XSRF_COOKIE}={self.xsrf}",
            },
        )
        with urllib.request.urlopen(request, timeout=120) as reply:
            reply.read()

    def _widget(self, label: str, kind: str):
        found = self.widgets.get(label)
        if found is None or found[0] != kind:
            shown = json.dumps(sorted(self.widgets))[:400]
            raise LookupError(f"no {kind} labelled {label!r} in the last run (widgets: {shown})")
        return found[1]
