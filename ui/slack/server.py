"""Serving the Bolt app: HTTP (Starlette + uvicorn, both already Gradio dependencies) or Socket Mode.

HTTP mode listens at Bolt's default path `/slack/events` for events, slash
commands and interactions; `GET /healthz` answers "ok" for load balancers and
tests. Bolt's `dispatch` is synchronous (it verifies the signature, authorizes,
and returns once the listener has acked), so it runs in Starlette's thread
pool instead of blocking the event loop.
"""

from __future__ import annotations

import threading
import time

import uvicorn
from slack_bolt import App
from slack_bolt.adapter.starlette.handler import to_bolt_request, to_starlette_response
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

EVENTS_PATH = "/slack/events"


def asgi_app(app: App, path: str = EVENTS_PATH) -> Starlette:
    async def events(request: Request) -> Response:
        body = await request.body()
        bolt_response = await run_in_threadpool(app.dispatch, to_bolt_request(request, body))
        return to_starlette_response(bolt_response)

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    return Starlette(routes=[Route(path, events, methods=["POST"]), Route("/healthz", health, methods=["GET"])])


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
