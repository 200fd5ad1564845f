"""A local stand-in for Slack's Web API (and response_url webhooks) on 127.0.0.1.

Point the bot's `WebClient(base_url=...)` (SLACK_API_URL) at `api.url` and it
answers `auth.test`, `chat.postMessage` and `chat.update` like Slack does,
recording every call so tests can assert on what the bot posted. Tokens other
than the one it was given get `invalid_auth`, like the real API. Channels in
`not_member` answer `not_in_channel` to chat.postMessage.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import parse_qs

BOT_USER_ID = "UBOTFAKE1"
BOT_ID = "BBOTFAKE1"
TEAM_ID = "TFAKE0001"


@dataclass
class Call:
    method: str  # e.g. "chat.postMessage", or "response_url"
    params: dict[str, Any]
    token: str | None
    response: dict[str, Any] = field(default_factory=dict)  # what the fake answered
    at: float = field(default_factory=time.monotonic)


class FakeSlackAPI:
    def __init__(self, token: str = "xoxb-test-token", not_member: set[str] | None = None):
        self.token = token
        self.not_member = not_member or set()
        self.calls: list[Call] = []
        self._lock = threading.Lock()
        self._ts = itertools.count(1)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    # ------------------------------------------------------------ lifecycle

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        """Like https://slack.com/api/ (trailing /api/ included)."""
        return f"http://127.0.0.1:{self.port}/api/"

    def response_url(self, name: str = "cmd") -> str:
        return f"http://127.0.0.1:{self.port}/response/{name}"

    def __enter__(self) -> "FakeSlackAPI":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()

    # ------------------------------------------------------------ assertions

    def calls_to(self, method: str) -> list[Call]:
        with self._lock:
            return [c for c in self.calls if c.method == method]

    def wait_for(self, predicate: Callable[["FakeSlackAPI"], bool], timeout_s: float = 120.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if predicate(self):
                return
            time.sleep(0.05)
        raise AssertionError(f"timed out after {timeout_s:.0f} s; calls so far: {[c.method for c in self.calls]}")

    def reset(self) -> None:
        with self._lock:
            self.calls.clear()

    # ------------------------------------------------------------ HTTP

    def _record(self, call: Call) -> None:
        with self._lock:
            self.calls.append(call)

    def _reply(self, method: str, params: dict[str, Any], token: str | None) -> dict[str, Any]:
        if token != self.token:
            return {"ok": False, "error": "invalid_auth"}
        if method == "auth.test":
            return {"ok": True, "url": "https://fake.slack.test/", "team": "Fake", "user": "gpu-advisor",
                    "team_id": TEAM_ID, "user_id": BOT_USER_ID, "bot_id": BOT_ID, "is_enterprise_install": False}
        if method == "chat.postMessage":
            channel = params.get("channel")
            if channel in self.not_member:
                return {"ok": False, "error": "not_in_channel"}
            ts = f"1700000000.{next(self._ts):06d}"
            message = {"type": "message", "user": BOT_USER_ID, "bot_id": BOT_ID, "text": params.get("text"), "ts": ts}
            if params.get("thread_ts"):
                message["thread_ts"] = params["thread_ts"]
            return {"ok": True, "channel": channel, "ts": ts, "message": message}
        if method == "chat.update":
            return {"ok": True, "channel": params.get("channel"), "ts": params.get("ts"), "text": params.get("text")}
        return {"ok": False, "error": "unknown_method"}

    def _handler(self):
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet test output
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode("utf-8")
                if "json" in (self.headers.get("Content-Type") or ""):
                    params = json.loads(raw or "{}")
                else:
                    params = {k: v[0] for k, v in parse_qs(raw).items()}
                for key in ("blocks", "attachments"):  # form-encoded calls send these as JSON strings
                    if isinstance(params.get(key), str):
                        params[key] = json.loads(params[key])
                auth = self.headers.get("Authorization") or ""
                token = auth.removeprefix("Bearer ").strip() or params.get("token")
                if self.path.startswith("/response/"):
                    api._record(Call("response_url", params, token))
                    body = b"ok"
                    content_type = "text/plain"
                else:
                    method = self.path.removeprefix("/api/").split("?")[0]
                    reply = api._reply(method, params, token)
                    api._record(Call(method, params, token, reply))
                    body = json.dumps(reply).encode()
                    content_type = "application/json; charset=utf-8"
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler
