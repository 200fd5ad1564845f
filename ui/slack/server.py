"""Serving the Bolt app: HTTP (Starlette + uvicorn, both already Gradio dependencies) or Socket Mode.

HTTP mode listens at Bolt's default path `/slack/events` for events, slash
commands and interactions; `GET /healthz` answers "ok" for load balancers and
tests. Bolt's `dispatch` is synchronous (it verifies the signature, authorizes,
and returns once the listener has acked), so it runs in Starlette's thread
pool instead of blocking the event loop.

Before Bolt sees a request, this module checks it in the order Slack's own
docs imply: a body over `MAX_BODY_BYTES` gets 413; a missing or wrong signature
(or a timestamp outside the 5-minute window) gets 401; a signed body that is not
a Slack payload this bot can read gets 400 with one line saying what is wrong
(`malformed`), and nothing is posted. Bolt parses and reads request bodies
assuming Slack's shapes (an undecodable body, a list where it expects an object,
an `authorizations` string ...) and would answer 500 or fail later in a worker.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import threading
import time
from typing import Any
from urllib.parse import parse_qsl

import uvicorn
from slack_bolt import App, BoltRequest
from slack_bolt.adapter.starlette.handler import to_starlette_response
from slack_bolt.context import BoltContext
from slack_bolt.request.internals import build_context
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

log = logging.getLogger("gpu_advisor.slack")

EVENTS_PATH = "/slack/events"
MAX_BODY_BYTES = 1 << 20  # Slack's payloads are a few KiB (a modal view tens of KiB); 1 MiB is not from Slack
DRAIN_BYTES = 4 * MAX_BODY_BYTES  # oversized bodies up to this are read and dropped, so the 413 reaches the client
REPLAY_WINDOW_S = 5 * 60  # Slack: reject requests whose timestamp is more than five minutes from now

# Fields Bolt or our listeners read from a payload, and the shape each must have where present (None is allowed:
# Slack sends `"team": null` in some interactivity payloads). They are checked on the body and on every nested
# object Bolt looks into for ids (event, message, previous_message, item, view, assistant_thread, authorizations[i]).
ID_FIELDS = ("enterprise", "team", "user", "channel")  # a string id, or an object whose "id" is a string
TEXT_FIELDS = (
    "type", "token", "team_id", "enterprise_id", "user_id", "channel_id", "api_app_id", "event_id", "ts", "thread_ts",
    "event_ts", "text", "subtype", "channel_type", "bot_id", "client_msg_id", "user_team", "command", "response_url",
    "trigger_id", "context_team_id", "context_enterprise_id", "challenge", "app_installed_team_id",
)
OBJECT_FIELDS = ("event", "message", "previous_message", "item", "view", "assistant_thread", "bot_profile",
                 "function_data")
OBJECT_LIST_FIELDS = ("authorizations", "response_urls")
ANSWERED_EVENTS = ("app_mention", "message")  # the events we answer: each needs a channel and a ts to reply to


class Malformed(ValueError):
    """A signed request whose body is not a Slack payload this bot can read (HTTP 400)."""


def malformed(body: bytes, content_type: str | None) -> dict[str, Any]:
    """The payload Bolt should see, parsed the way Bolt parses it; `Malformed` (one line) if it is not one.

    Mirrors `slack_bolt.request.internals.parse_body`: JSON when the content type is
    exactly application/json or the body starts with "{", otherwise a form (an
    interactive `payload=<json>`, a slash command, or Slack's `ssl_check`).
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        raise Malformed(f"the body is not UTF-8 (byte {err.start})") from None
    if not text.strip():
        raise Malformed("the body is empty")
    kind = (content_type or "").split(";")[0].strip()
    if kind == "application/json" or text.startswith("{"):
        payload = _json_object(text, "the body")
        _check_payload(payload)
        return payload
    form = dict(parse_qsl(text, keep_blank_values=True))
    if "payload" in form:
        payload = _json_object(form["payload"], "the form field `payload`")
        _check_payload(payload)
        return payload
    if form.get("ssl_check") == "1":
        return form
    if "command" in form:
        if not form.get("channel_id"):
            raise Malformed("the slash command has no channel_id")
        return form
    raise Malformed("the form is neither a slash command nor an interactive payload")


def _json_object(text: str, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except RecursionError:
        raise Malformed(f"{what} is nested too deeply") from None
    except ValueError as err:  # JSONDecodeError is a ValueError
        raise Malformed(f"{what} is not JSON ({err.msg} at character {err.pos})") from None
    if not isinstance(value, dict):
        raise Malformed(f"{what} is JSON but not an object (got {type(value).__name__})")
    return value


def _check_payload(payload: dict[str, Any]) -> None:
    kind = payload.get("type")
    if not isinstance(kind, str) or not kind:
        raise Malformed("the payload has no `type`")
    _check_fields(payload, "payload")
    if kind == "url_verification" and not isinstance(payload.get("challenge"), str):
        raise Malformed("url_verification without a string `challenge`")
    if kind == "event_callback":
        event = payload.get("event")
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise Malformed("event_callback without an `event` object that has a `type`")
        if event["type"] in ANSWERED_EVENTS:
            for key in ("channel", "ts"):
                if not isinstance(event.get(key), str) or not event[key]:
                    raise Malformed(f"{event['type']} event without a string `{key}`")


def _check_fields(obj: dict[str, Any], where: str) -> None:
    for key in ID_FIELDS:
        value = obj.get(key)
        if value is None or isinstance(value, str):
            continue
        if not isinstance(value, dict) or not isinstance(value.get("id", ""), (str, type(None))):
            raise Malformed(f"{where}.{key} must be a string id or an object with a string `id`")
    for key in TEXT_FIELDS:
        value = obj.get(key)
        if value is not None and not isinstance(value, str):
            raise Malformed(f"{where}.{key} must be a string (got {type(value).__name__})")
    for key in OBJECT_FIELDS:
        value = obj.get(key)
        if value is None:
            continue
        if not isinstance(value, dict):
            raise Malformed(f"{where}.{key} must be an object (got {type(value).__name__})")
        _check_fields(value, f"{where}.{key}")
    for key in OBJECT_LIST_FIELDS:
        value = obj.get(key)
        if value is None:
            continue
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise Malformed(f"{where}.{key} must be a list of objects")
        for i, item in enumerate(value):
            _check_fields(item, f"{where}.{key}[{i}]")


def signing_secret_of(app: App) -> str | None:
    """The secret `create_app` verified requests with (None: the app does its own checking only)."""
    return getattr(app, "signing_secret", None)


def asgi_app(app: App, path: str = EVENTS_PATH, signing_secret: str | None = None) -> Starlette:
    secret = signing_secret or signing_secret_of(app)
    key = secret.encode("utf-8") if secret else None

    async def events(request: Request) -> Response:
        body = await _read_limited(request)
        if body is None:
            return JSONResponse({"error": f"body larger than {MAX_BODY_BYTES} bytes"}, status_code=413)
        if key is not None and not _signed(key, body, request):
            return JSONResponse({"error": "invalid request"}, status_code=401)  # what Bolt answers, before parsing
        try:
            payload = malformed(body, request.headers.get("content-type"))
        except Malformed as err:
            log.warning("rejected a signed Slack request: %s", err)
            return JSONResponse({"error": f"malformed Slack request: {err}"}, status_code=400)
        bolt_request = _bolt_request(request, body, payload)
        bolt_response = await run_in_threadpool(app.dispatch, bolt_request)
        return to_starlette_response(bolt_response)

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    return Starlette(routes=[Route(path, events, methods=["POST"]), Route("/healthz", health, methods=["GET"])])


def _signed(secret: bytes, body: bytes, request: Request) -> bool:
    """Slack's request signature (HMAC-SHA256 over `v0:timestamp:body`, 5-minute window), computed on the raw
    bytes: `slack_sdk.signature.SignatureVerifier` decodes the body as UTF-8 and parses the timestamp with
    int(), so a non-UTF-8 body or a timestamp like "abc" would raise instead of failing the check."""
    timestamp = request.headers.get("x-slack-request-timestamp", "")
    signature = request.headers.get("x-slack-signature", "")
    if not (timestamp.isascii() and timestamp.isdigit()) or abs(time.time() - int(timestamp)) > REPLAY_WINDOW_S:
        return False
    expected = "v0=" + hmac.new(secret, b"v0:" + timestamp.encode() + b":" + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode(), signature.encode("utf-8", "replace"))


async def _read_limited(request: Request) -> bytes | None:
    """The body, or None when it is over `MAX_BODY_BYTES`. A body up to `DRAIN_BYTES` is read to its end
    first so the client gets its 413 instead of a reset connection; a bigger one is not read at all."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > DRAIN_BYTES:
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > DRAIN_BYTES:
            return None
        if size <= MAX_BODY_BYTES:
            chunks.append(chunk)
    return b"".join(chunks) if size <= MAX_BODY_BYTES else None


def _bolt_request(request: Request, body: bytes, payload: dict[str, Any]) -> BoltRequest:
    """Bolt's request with the raw body (Bolt verifies the signature again) and our parse of it.

    Bolt parses a form body that merely contains the letters "payload" as an
    interactive payload and finds none: `/gpu-advisor what payload fits` would be
    dropped as "unhandled" (404). The payload is already parsed and checked here.
    """
    bolt_request = BoltRequest(body=body.decode("utf-8"), query=request.query_params, headers=request.headers)
    if bolt_request.body != payload:
        bolt_request.body = payload
        bolt_request.context = build_context(BoltContext(), payload)
    return bolt_request


class HTTPServer:
    """uvicorn in a background thread (tests, embedding) or in the foreground (`run`)."""

    def __init__(self, app: App, host: str = "0.0.0.0", port: int = 3000):
        config = uvicorn.Config(asgi_app(app), host=host, port=port, log_level="warning", access_log=False, lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread: threading.Thread | None = None

    def run(self) -> None:
        self.server.run()
        if not self.server.started:
            raise OSError(f"cannot listen on {self.server.config.host}:{self.server.config.port}")

    def start(self, timeout_s: float = 10.0) -> "HTTPServer":
        self.thread = threading.Thread(target=self.server.run, name="slack-http", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + timeout_s
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise OSError(f"Slack HTTP server did not start on {self.server.config.host}:{self.server.config.port}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        if self.thread:
            self.thread.join(timeout=10)


def run_socket_mode(app: App, app_token: str) -> None:
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    SocketModeHandler(app, app_token).start()
