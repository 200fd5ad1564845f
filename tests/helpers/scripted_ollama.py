"""A scripted Ollama-native chat endpoint (/api/chat) on 127.0.0.1, for the real ChatOllama client.

Follows ollama docs/api.md ("Generate a chat completion"): the request carries `model`, `messages`,
`tools`, `stream` and `options` (where `num_ctx` sets the context window); the reply is one JSON object,
or with `stream: true` newline-delimited JSON chunks ending in one with `done: true`. Tool calls come as
`message.tool_calls[].function.{name, arguments}` with `arguments` an object and no call id.

Like the server, it keeps only the end of a prompt longer than the context window: without `num_ctx`
the window is 4,096 tokens (ollama docs/context-length.mdx: 4k below 24 GiB of VRAM), and the start goes
first — the system prompt and the question (ollama/ollama#2714: "it will only send as many messages as
can fit in the context window"). Each request records whether the system prompt survived.

Script steps:
  {"tool_calls": [(name, args_dict), ...]}  → a reply with tool calls
  {"content": "..."}                         → a final answer (may hold text-form tool calls or <think>)
  {"status": 404, "error": "..."}            → an HTTP error with Ollama's {"error": "..."} body
When the script runs out, the last step repeats.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DEFAULT_NUM_CTX = 4096
CHARS_PER_TOKEN = 4  # a rough English average; enough to say whether a prompt fits


def _tokens(message: dict[str, Any]) -> int:
    text = str(message.get("content") or "") + json.dumps(message.get("tool_calls") or [])
    return len(text) // CHARS_PER_TOKEN + 4


class ScriptedOllama:
    def __init__(self, script: list[dict[str, Any]]):
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self.kept_system: list[bool] = []  # per request: did the system prompt fit in the context window
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "ScriptedOllama":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next(self) -> dict[str, Any]:
        with self._lock:
            return self.script.pop(0) if len(self.script) > 1 else self.script[0]

    def _window(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        """The messages the model sees: the newest that fit in num_ctx (tools count against it too)."""
        limit = (body.get("options") or {}).get("num_ctx") or DEFAULT_NUM_CTX
        used = len(json.dumps(body.get("tools") or [])) // CHARS_PER_TOKEN
        kept: list[dict[str, Any]] = []
        for message in reversed(body.get("messages") or []):
            used += _tokens(message)
            if used > limit:
                break
            kept.append(message)
        return kept[::-1]

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                if self.path.rstrip("/") != "/api/chat":
                    self._send_json(404, {"error": f"404 page not found: {self.path}"})
                    return
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                window = server._window(body)
                with server._lock:
                    server.requests.append(body)
                    server.kept_system.append(any(m.get("role") == "system" for m in window))
                step = server._next()
                if "status" in step:
                    self._send_json(step["status"], {"error": step.get("error", "scripted failure")})
                    return
                message: dict[str, Any] = {"role": "assistant", "content": step.get("content") or ""}
                if "tool_calls" in step:
                    message["tool_calls"] = [
                        {"function": {"name": name, "arguments": args}} for name, args in step["tool_calls"]
                    ]
                final = {
                    "model": body.get("model", "scripted"),
                    "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "done": True,
                    "done_reason": "stop",
                    "total_duration": 1000,
                    "prompt_eval_count": sum(_tokens(m) for m in window),
                    "eval_count": 1,
                }
                if body.get("stream", True):
                    chunks = [
                        {**{k: final[k] for k in ("model", "created_at")}, "message": message, "done": False},
                        {**final, "message": {"role": "assistant", "content": ""}},
                    ]
                    data = b"".join(json.dumps(c, ensure_ascii=False).encode() + b"\n" for c in chunks)
                    self._send(200, data, "application/x-ndjson")
                else:
                    self._send_json(200, {**final, "message": message})

            def _send_json(self, status: int, payload: dict[str, Any]) -> None:
                self._send(status, json.dumps(payload, ensure_ascii=False).encode(), "application/json")

            def _send(self, status: int, data: bytes, content_type: str) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        return Handler
