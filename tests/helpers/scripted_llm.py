"""A scripted OpenAI-compatible chat server on 127.0.0.1, for the real ChatOpenAI client.

Each POST to /v1/chat/completions takes the next step of the script:
  {"tool_calls": [(name, args_json_text), ...]}   → an assistant message with tool calls
  {"content": "..."}                              → a final answer
  {"status": 500}                                 → an HTTP error
  {"sleep": seconds}                              → answers late (client timeout)
When the script runs out, the last step repeats. Requests are recorded.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ScriptedLLM:
    def __init__(self, script: list[dict[str, Any]]):
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> "ScriptedLLM":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next(self) -> dict[str, Any]:
        with self._lock:
            return self.script.pop(0) if len(self.script) > 1 else self.script[0]

    def _handler(self):
        llm = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                with llm._lock:
                    llm.requests.append(body)
                step = llm._next()
                if "sleep" in step:
                    time.sleep(step["sleep"])
                if "status" in step:
                    self._send(step["status"], {"error": {"message": "scripted failure", "type": "server_error"}})
                    return
                message: dict[str, Any] = {"role": "assistant", "content": step.get("content")}
                finish = "stop"
                if "tool_calls" in step:
                    message["tool_calls"] = [
                        {"id": f"call_{n}_{len(llm.requests)}", "type": "function", "function": {"name": name, "arguments": args}}
                        for n, (name, args) in enumerate(step["tool_calls"])
                    ]
                    finish = "tool_calls"
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{len(llm.requests)}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", "scripted"),
                        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    },
                )

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

        return Handler
