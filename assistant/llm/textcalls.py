"""Reading what a model wrote as text: `<think>` reasoning, and tool calls written into `content`.

Models served without a tool parser write their calls as text, and a chat client then shows them
to the user as the answer:

* Hermes / Qwen tags: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` (Hermes function-calling
  format; vLLM's `hermes` parser reads exactly these, and leaves them in `content` when the server runs
  without `--tool-call-parser`), and the Qwen3-Coder XML body `<function=NAME><parameter=KEY>…`.
* Mistral's `[TOOL_CALLS] [{"name": ..., "arguments": ...}]`.
* A bare JSON object or list, often in a ```json fence, with `arguments` or `parameters` (small Ollama
  models, e.g. llama3.2:3b: ollama/ollama#13519), or in the OpenAI shape `{"function": {...}}`.

`parse_text_tool_calls` turns these into LangChain tool calls, returns None when the text is an
answer, and raises `TextToolCallError` when it looks like a call but cannot be read, so that it is
never shown to the user. Bare JSON counts only when it names one of our tools.
"""

from __future__ import annotations

import json
import re
from typing import Any

_THINK = re.compile(r"<think>(.*?)</think>", re.S | re.I)
_THINK_OPEN = re.compile(r"<think>", re.I)
_THINK_CLOSE = re.compile(r"</think>", re.I)
_TAG = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.S | re.I)
_FENCE = re.compile(r"^```(?:json|tool_call|tool_code)?\s*(.*?)\s*```$", re.S | re.I)
_XML_FUNCTION = re.compile(r"<function=([\w.\-]+)>(.*?)(?:</function>|$)", re.S)
_XML_PARAM = re.compile(r"<parameter=([\w.\-]+)>(.*?)(?:</parameter>|(?=<parameter=)|$)", re.S)
_MISTRAL = "[TOOL_CALLS]"


class TextToolCallError(ValueError):
    """The model wrote something that looks like a tool call but cannot be read."""


def strip_think(text: str) -> tuple[str, str]:
    """(the answer without `<think>` blocks, the reasoning that was in them)."""
    thoughts = [m.strip() for m in _THINK.findall(text)]
    text = _THINK.sub("", text)
    close = _THINK_CLOSE.search(text)
    if close:  # the template opened <think> in the prompt: everything before the lone </think> is reasoning
        thoughts.append(text[: close.start()].strip())
        text = text[close.end() :]
    open_ = _THINK_OPEN.search(text)
    if open_:  # cut off while thinking: the rest is reasoning, not an answer
        thoughts.append(text[open_.end() :].strip())
        text = text[: open_.start()]
    return text.strip(), "\n\n".join(t for t in thoughts if t)


def _arguments(raw: Any) -> dict[str, Any]:
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        raw = json.loads(raw)
    if not isinstance(raw, dict):
        raise TextToolCallError("tool-call arguments are not an object")
    return raw


def _call_from(obj: Any) -> dict[str, Any] | None:
    """One call from the JSON shapes models use, or None when `obj` is not call-shaped."""
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("function"), dict):  # OpenAI shape
        obj = obj["function"]
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        return None
    if "arguments" in obj:
        args = obj["arguments"]
    elif "parameters" in obj:
        args = obj["parameters"]
    elif set(obj) <= {"name", "type", "id"}:
        args = {}
    else:
        return None
    return {"name": name, "args": _arguments(args), "id": obj.get("id") or None, "type": "tool_call"}


def _calls_from(value: Any) -> list[dict[str, Any]] | None:
    if isinstance(value, dict) and isinstance(value.get("tool_calls"), list):
        value = value["tool_calls"]
    items = value if isinstance(value, list) else [value]
    calls = [_call_from(item) for item in items]
    if not calls or any(c is None for c in calls):
        return None
    return calls  # type: ignore[return-value]


def _xml_call(body: str) -> dict[str, Any]:
    m = _XML_FUNCTION.search(body)
    if not m:
        raise TextToolCallError("unreadable <tool_call> body")
    args: dict[str, Any] = {}
    for key, value in _XML_PARAM.findall(m.group(2)):
        value = value.strip()
        try:
            args[key] = json.loads(value)
        except json.JSONDecodeError:
            args[key] = value
    return {"name": m.group(1), "args": args, "id": None, "type": "tool_call"}


def _tagged(text: str) -> list[dict[str, Any]]:
    calls = []
    for body in _TAG.findall(text):
        body = body.strip()
        fenced = _FENCE.match(body)
        body = fenced.group(1) if fenced else body
        if body.startswith("<function="):
            calls.append(_xml_call(body))
            continue
        try:
            found = _calls_from(json.loads(body))
        except (json.JSONDecodeError, TextToolCallError):
            found = None
        if not found:
            raise TextToolCallError("unreadable <tool_call> body")
        calls.extend(found)
    if not calls:
        raise TextToolCallError("empty <tool_call> tags")
    return calls


def _json_values(text: str):
    """Every JSON object or array that starts somewhere in `text` (prose around them is skipped)."""
    decoder = json.JSONDecoder()
    i = 0
    while i < len(text):
        if text[i] in "{[":
            try:
                value, end = decoder.raw_decode(text, i)
            except json.JSONDecodeError:
                i += 1
                continue
            yield value
            i = end
        else:
            i += 1


def parse_text_tool_calls(text: str, tool_names: set[str] | frozenset[str]) -> list[dict[str, Any]] | None:
    """Tool calls written as text in `text`, None if it is an answer; TextToolCallError if unreadable."""
    stripped = text.strip()
    if not stripped:
        return None
    if "<tool_call>" in stripped.lower():
        return _tagged(stripped)
    if stripped.startswith(_MISTRAL):
        try:
            found = _calls_from(json.loads(stripped[len(_MISTRAL) :].strip()))
        except (json.JSONDecodeError, TextToolCallError):
            found = None
        if not found:
            raise TextToolCallError(f"unreadable {_MISTRAL}")
        return found
    named = (
        re.compile(r'"name"\s*:\s*"(' + "|".join(re.escape(n) for n in sorted(tool_names)) + r')"')
        if tool_names
        else None
    )
    if named is None or not named.search(stripped):
        return None  # bare JSON counts only when it names one of our tools
    calls: list[dict[str, Any]] = []
    for value in _json_values(stripped):
        try:
            found = _calls_from(value)
        except TextToolCallError:
            found = None
        if found and all(c["name"] in tool_names for c in found):
            calls.extend(found)
    if not calls:
        raise TextToolCallError("a tool call written as text could not be read")
    return calls
