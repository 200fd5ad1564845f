"""The LLM's agent loop: model ↔ tools, bounded in model calls and seconds per question.

Two message lists grow side by side: `new`, what the advisor keeps (tool calls and the tools' full
results, for the verifier, the UI and the trace), and `view`, what the model is sent (the same calls,
each result compacted to the room left in the request, see `compact.py`). Every reply is cleaned
first: `<think>` reasoning goes to the trace, tool calls the model wrote as text become real calls
(or a failure, never an answer), and calls without an id get one.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from pydantic import ValidationError

from assistant.llm.compact import compact_tool_result, compact_tool_schema
from assistant.llm.textcalls import TextToolCallError, parse_text_tool_calls, strip_think
from assistant.llm.tool_errors import tool_argument_error

log = logging.getLogger(__name__)

REQUEST_TARGET_BYTES = 12_000  # what one request body should stay under (system prompt, tools, messages)
MIN_RESULT_BYTES = 700  # a tool result is never squeezed below this to meet the target
REQUEST_OVERHEAD_BYTES = 300  # model, temperature, stream, tool wrappers and the like around the messages

FORCE_INSTRUCTION = {
    "en": "This question needs figures: call the right tool first and answer only with its results.",
    "zh": "这个问题需要具体数字：请先调用合适的工具，只用工具结果回答。",
}


class LLMFailure(Exception):
    """The LLM brain did not produce a usable answer; `retryable`: a second try may succeed."""

    retryable = False


class LLMMalformed(LLMFailure):
    retryable = True  # a sampling accident: broken JSON arguments, an empty reply


class LLMLoopError(LLMFailure):
    """Too many model calls for one question: not retried (it would loop again)."""


class LLMQuestionTimeout(LLMFailure):
    """The question's time ran out: not retried."""


@dataclass
class Budget:
    """What one question may spend, shared by every attempt, the forced retry and the rewrite."""

    max_calls: int
    seconds: float
    call_timeout: float
    started: float = field(default_factory=time.perf_counter)
    calls: int = 0

    def left(self) -> float:
        return self.seconds - (time.perf_counter() - self.started)

    def exhausted(self) -> bool:
        return self.calls >= self.max_calls or self.left() <= 0


@dataclass
class LoopResult:
    new: list[BaseMessage]  # for the advisor: AI tool calls, ToolMessages with full results, the final AIMessage
    view: list[BaseMessage]  # what the model saw after the prefix (compacted results)
    reasoning: list[str] = field(default_factory=list)
    tool_calls: int = 0

    @property
    def final(self) -> AIMessage:
        return self.new[-1]  # type: ignore[return-value]


def message_text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return " ".join(part.get("text", "") for part in content if isinstance(part, dict))


def _bytes(text: str) -> int:
    return len(json.dumps(text, ensure_ascii=False).encode())


def _size(messages: list[BaseMessage]) -> int:
    """About how many bytes `messages` take in a request body (UTF-8 JSON)."""
    total = 0
    for m in messages:
        total += _bytes(message_text(m)) + 30
        for call in getattr(m, "tool_calls", None) or []:
            total += _bytes(json.dumps(call.get("args") or {}, ensure_ascii=False)) + len(call["name"]) + 60
    return total


def clean_reply(reply: AIMessage, tool_names: frozenset[str]) -> tuple[AIMessage, str]:
    """The reply with `<think>` removed, text-form tool calls made real and every call given an id."""
    if reply.invalid_tool_calls:
        raise LLMMalformed("malformed tool call")
    text, thought = strip_think(message_text(reply))
    calls = [dict(c) for c in reply.tool_calls]
    if not calls:
        try:
            parsed = parse_text_tool_calls(text, tool_names)
        except TextToolCallError as err:
            raise LLMMalformed("wrote a tool call as text that could not be read") from err
        if parsed is not None:
            calls, text = parsed, ""
    for call in calls:
        call["id"] = call.get("id") or f"call_{uuid.uuid4().hex[:12]}"
        call["type"] = "tool_call"
        if not isinstance(call.get("args"), dict):
            raise LLMMalformed("malformed tool call")
    cleaned = AIMessage(
        content=text,
        tool_calls=calls,
        additional_kwargs=dict(reply.additional_kwargs),  # reasoning_content travels back to echo providers
        response_metadata=dict(reply.response_metadata),
        id=reply.id,
    )
    reasoning = "\n\n".join(t for t in (reply.additional_kwargs.get("reasoning_content") or "", thought) if t)
    return cleaned, reasoning


def _result_of(message: ToolMessage) -> Any:
    artifact = getattr(message, "artifact", None)
    if artifact is not None:
        return artifact.model_dump(mode="json") if hasattr(artifact, "model_dump") else artifact
    try:
        return json.loads(message_text(message))
    except json.JSONDecodeError:
        return {"text": message_text(message)}


def _error_message(call: dict[str, Any], error: str) -> ToolMessage:
    return ToolMessage(
        content=json.dumps({"error": error}, ensure_ascii=False),
        tool_call_id=call["id"],
        name=call["name"],
        status="error",
    )


def run_tool_call(call: dict[str, Any], tools_by_name: dict[str, Any]) -> ToolMessage:
    """One tool call → its ToolMessage; a wrong name or wrong arguments come back as {'error': ...}."""
    tool = tools_by_name.get(call["name"])
    if tool is None:
        return _error_message(
            call, f"{call['name']} is not a valid tool; use one of: {', '.join(sorted(tools_by_name))}"
        )
    try:
        out = tool.invoke({"name": call["name"], "args": call["args"], "id": call["id"], "type": "tool_call"})
    except ValidationError as err:
        schema = tool.args_schema if isinstance(tool.args_schema, type) else None
        return _error_message(call, tool_argument_error(call["name"], err, schema))
    except Exception as err:  # the tool wrappers catch their own failures; this is the last line
        log.exception("tool %s failed", call["name"])
        return _error_message(call, f"{call['name']} failed ({type(err).__name__}); try other arguments")
    if isinstance(out, ToolMessage):
        return out
    content = out if isinstance(out, str) else json.dumps(out, ensure_ascii=False, default=str)
    return ToolMessage(content=content, tool_call_id=call["id"], name=call["name"])


def _invoke(bound: Any, llm: Any, messages: list[BaseMessage], budget: Budget) -> AIMessage:
    from langchain_openai.chat_models.base import BaseChatOpenAI

    kwargs: dict[str, Any] = {}
    if isinstance(llm, BaseChatOpenAI):  # the OpenAI client takes a per-request timeout: the question's time left
        kwargs["timeout"] = max(0.5, min(budget.call_timeout, budget.left()))
    try:
        return bound.invoke(messages, **kwargs)
    except Exception as err:
        if "timeout" in type(err).__name__.lower() and budget.left() <= 0.5:
            raise LLMQuestionTimeout(f"took longer than {budget.seconds:g} s for this question") from err
        raise


def run_loop(
    llm: Any,
    tools: list[Any],
    prefix: list[BaseMessage],
    budget: Budget,
    *,
    lang: str = "en",
    timings: dict[str, float] | None = None,
    force_tool: bool = False,
) -> LoopResult:
    """Model calls and tool calls until the model answers; raises LLMFailure (and provider errors)."""
    timings = timings if timings is not None else {}
    by_name = {t.name: t for t in tools}
    names = frozenset(by_name)
    schemas = [compact_tool_schema(t) for t in tools]
    schema_bytes = len(json.dumps(schemas, ensure_ascii=False, separators=(",", ":")).encode()) + REQUEST_OVERHEAD_BYTES
    auto = llm.bind_tools(schemas) if schemas else llm
    choice = getattr(llm, "force_tool_choice", "required")
    forced = auto
    prefix = list(prefix)
    if force_tool and schemas:
        if choice:
            forced = llm.bind_tools(schemas, tool_choice=choice)
        else:  # this provider cannot force a call: ask for one
            prefix.append(HumanMessage(content=FORCE_INSTRUCTION.get(lang, FORCE_INSTRUCTION["en"])))
    result = LoopResult(new=[], view=[])
    results: list[_Result] = []
    start = time.perf_counter()
    try:
        while True:
            if budget.calls >= budget.max_calls:
                raise LLMLoopError(f"looped over tools without answering ({budget.calls} model calls)")
            if budget.left() <= 0:
                raise LLMQuestionTimeout(f"took longer than {budget.seconds:g} s for this question")
            _fit_results(result.view, results, schema_bytes + _size([*prefix, *_not_results(result.view)]), lang)
            bound = forced if (force_tool and not result.new) else auto
            t = time.perf_counter()
            reply = _invoke(bound, llm, [*prefix, *result.view], budget)
            budget.calls += 1
            timings["llm"] = timings.get("llm", 0.0) + time.perf_counter() - t
            reply, thought = clean_reply(reply, names)
            if thought:
                result.reasoning.append(thought)
            result.new.append(reply)
            result.view.append(reply)
            if not reply.tool_calls:
                if not message_text(reply).strip():
                    raise LLMMalformed("empty answer")
                return result
            for call in reply.tool_calls:
                t = time.perf_counter()
                full = run_tool_call(call, by_name)
                key = f"tool:{call['name']}"
                timings[key] = timings.get(key, 0.0) + time.perf_counter() - t
                result.tool_calls += 1
                item = _Result(len(result.view), call, _result_of(full), lang)
                results.append(item)
                result.new.append(full)
                result.view.append(item.message(item.natural))
    finally:
        timings["agent"] = timings.get("agent", 0.0) + time.perf_counter() - start


class _Result:
    """One tool result in the model's view: its natural compact form, re-cut when the request runs out of room."""

    def __init__(self, index: int, call: dict[str, Any], value: Any, lang: str):
        self.index, self.call, self.value, self.lang = index, call, value, lang
        self.natural = compact_tool_result(call["name"], value, lang)
        self.size = _bytes(self.natural)

    def message(self, content: str) -> ToolMessage:
        return ToolMessage(content=content, tool_call_id=self.call["id"], name=self.call["name"])


def _not_results(view: list[BaseMessage]) -> list[BaseMessage]:
    return [m for m in view if not isinstance(m, ToolMessage)]


def _fit_results(view: list[BaseMessage], results: list[_Result], fixed_bytes: int, lang: str) -> None:
    """Share the room the request has left among this turn's results, in proportion to their natural size."""
    room = REQUEST_TARGET_BYTES - fixed_bytes
    total = sum(r.size for r in results)
    for r in results:
        if total <= room:
            content = r.natural
        else:
            content = compact_tool_result(r.call["name"], r.value, lang, max(MIN_RESULT_BYTES, room * r.size // total))
        view[r.index] = r.message(content)
