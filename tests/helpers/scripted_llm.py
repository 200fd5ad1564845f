"""A scripted OpenAI-compatible chat server on 127.0.0.1, for the real ChatOpenAI / ChatDeepSeek clients.

Each POST to /v1/chat/completions takes the next step of the script:
  {"tool_calls": [(name, args), ...]}   → an assistant message with tool calls; `args` is JSON text, or a
                                          dict sent as a JSON object (non-standard, llama.cpp #20198)
  {"tool_calls": [...], "no_id": True}  → the same without call ids (llama.cpp #11992)
  {"content": "..."}                    → a final answer (may hold text-form tool calls or <think>)
  {"reasoning_content": "..."}          → added to the message, as DeepSeek / Kimi thinking models do
  {"status": 500}                       → an HTTP error; {"status": 400, "error": {...}} with that body
  {"sleep": seconds}                    → answers late (client timeout)
When the script runs out, the last step repeats. Requests (bodies) and their sizes in bytes are recorded.

`provider=` emulates a provider's documented request checks (see the classes below): a request that
breaks one gets the provider's own HTTP 400 before the script is consulted.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Provider:
    """Request checks and reply decorations of one provider; the base accepts everything."""

    def check(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        return None

    def decorate(self, message: dict[str, Any], n: int) -> None:
        pass


def _tool_call_turns(body: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return [
        (i, m) for i, m in enumerate(body.get("messages", [])) if m.get("role") == "assistant" and m.get("tool_calls")
    ]


class DeepSeekThinking(Provider):
    """DeepSeek thinking mode: every reply carries reasoning_content, which must come back on tool-call turns.

    https://api-docs.deepseek.com/guides/thinking_mode#tool-calls ("if your code does not correctly pass back
    reasoning_content, the API will return a 400 error"); the message as users report it: qwersyk/Newelle#404.
    """

    def check(self, body):
        for _, m in _tool_call_turns(body):
            if "reasoning_content" not in m:
                return 400, {
                    "error": {
                        "message": "The `reasoning_content` in the thinking mode must be passed back to the API.",
                        "type": "invalid_request_error",
                        "param": None,
                        "code": "invalid_request_error",
                    }
                }
        return None

    def decorate(self, message, n):
        message["reasoning_content"] = f"thinking step {n}"


class KimiThinking(Provider):
    """Kimi K2.5+ (thinking on by default): temperature only 1, reasoning_content required on tool-call turns.

    platform.moonshot.cn docs "Use the Kimi K2 thinking model"; the messages as reported in
    NoFxAiOS/nofx#1415 and continuedev/continue#11600.
    """

    def check(self, body):
        if "temperature" in body and body["temperature"] != 1:
            return 400, {
                "error": {
                    "message": "invalid temperature: only 1 is allowed for this model",
                    "type": "invalid_request_error",
                }
            }
        for i, m in _tool_call_turns(body):
            if "reasoning_content" not in m:
                return 400, {
                    "error": {
                        "message": f"thinking is enabled but reasoning_content is missing in assistant tool call message at index {i}",
                        "type": "invalid_request_error",
                    }
                }
        return None

    def decorate(self, message, n):
        message["reasoning_content"] = f"kimi thinks {n}"


class DashScopeQwen3(Provider):
    """DashScope's OpenAI-compatible mode with an open Qwen3 model: thinking is on unless enable_thinking=false,
    and thinking is only served by streaming.

    Alibaba Cloud Model Studio, "Deep thinking"; the error as reported in infiniflow/ragflow#8972.
    """

    def check(self, body):
        if body.get("enable_thinking", True) is not False and not body.get("stream"):
            return 400, {
                "error": {
                    "code": "invalid_parameter_error",
                    "param": None,
                    "message": "parameter.enable_thinking must be set to false for non-streaming calls",
                    "type": "invalid_request_error",
                }
            }
        return None


class ZhipuGLM4(Provider):
    """Zhipu GLM-4: temperature in the open interval (0, 1).

    open.bigmodel.cn API reference (glm-4); the error as reported in songquanpeng/one-api#1141;
    langchain-ai/langchain#20261 clamps to [0.01, 0.99] for the same reason.
    """

    def check(self, body):
        t = body.get("temperature")
        if t is not None and not 0 < t < 1:
            return 400, {"error": {"code": "1214", "message": "temperature参数非法。请检查文档。"}}
        return None


class ScriptedLLM:
    def __init__(self, script: list[dict[str, Any]], provider: Provider | None = None):
        self.script = list(script)
        self.provider = provider or Provider()
        self.requests: list[dict[str, Any]] = []
        self.request_bytes: list[int] = []
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
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                body = json.loads(raw or b"{}")
                with llm._lock:
                    llm.requests.append(body)
                    llm.request_bytes.append(len(raw))
                    n = len(llm.requests)
                rejected = llm.provider.check(body)
                if rejected is not None:
                    self._send(*rejected)
                    return
                step = llm._next()
                if "sleep" in step:
                    time.sleep(step["sleep"])
                if "status" in step:
                    error = step.get("error") or {"message": "scripted failure", "type": "server_error"}
                    self._send(step["status"], {"error": error})
                    return
                message: dict[str, Any] = {"role": "assistant", "content": step.get("content")}
                finish = "stop"
                if "tool_calls" in step:
                    calls = []
                    for i, (name, args) in enumerate(step["tool_calls"]):
                        call: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": args}}
                        if not step.get("no_id"):
                            call["id"] = f"call_{i}_{n}"
                        calls.append(call)
                    message["tool_calls"] = calls
                    finish = "tool_calls"
                llm.provider.decorate(message, n)
                if "reasoning_content" in step:
                    message["reasoning_content"] = step["reasoning_content"]
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{n}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", "scripted"),
                        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    },
                )

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload, ensure_ascii=False).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

        return Handler


def warm_index() -> None:
    """Build or load the shared search index before a timed question (the first build takes minutes on 2 cores)."""
    from assistant.resources import Resources
    from knowledge.settings import Settings

    Resources.shared(Settings.load()).retriever.search("warm up", k=1)
