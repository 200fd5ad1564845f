"""The LangChain chat clients, each with the repairs its provider needs.

* Non-standard reply shapes are normalised before LangChain reads them: tool-call `arguments` sent
  as a JSON object instead of a string (llama.cpp server, ggml-org/llama.cpp#20198) and tool calls
  without an `id` (ggml-org/llama.cpp#11992, NVIDIA/nim-deploy#182) would otherwise become invalid
  calls or a validation error.
* `echo_reasoning` providers (DeepSeek, Kimi thinking models) get their own `reasoning_content` back
  on assistant tool-call messages; `ChatOpenAI` drops it and the next request fails with HTTP 400.
* Ollama goes through `langchain-ollama`'s native client so `num_ctx` reaches the server.

Each client carries `force_tool_choice`: the `tool_choice` value that forces a tool call on this
provider, or None where it cannot be forced.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatResult
from langchain_deepseek import ChatDeepSeek
from langchain_ollama import ChatOllama
from langchain_openai import ChatOpenAI
from pydantic import Field

from tools.errors import ConfigError


def _new_call_id() -> str:
    return f"call_{uuid.uuid4().hex[:12]}"


def normalise_tool_calls(raw_calls: list[Any] | None) -> None:
    """Make OpenAI-protocol tool calls standard in place: `arguments` a JSON string, every call with an id."""
    for call in raw_calls or []:
        if isinstance(call, dict):
            fn = call.get("function")
            if isinstance(fn, dict) and not isinstance(fn.get("arguments"), str):
                fn["arguments"] = json.dumps(fn.get("arguments") or {}, ensure_ascii=False)
            if not call.get("id"):
                call["id"] = _new_call_id()
            call.setdefault("type", "function")
            continue
        fn = getattr(call, "function", None)
        if fn is not None and not isinstance(getattr(fn, "arguments", ""), str):
            fn.arguments = json.dumps(fn.arguments or {}, ensure_ascii=False)
        if not getattr(call, "id", None):
            call.id = _new_call_id()
        if not getattr(call, "type", None):
            call.type = "function"


def _choices(response: Any) -> list[Any]:
    if isinstance(response, dict):
        return response.get("choices") or []
    return getattr(response, "choices", None) or []


def _message_of(choice: Any) -> Any:
    return choice.get("message") if isinstance(choice, dict) else getattr(choice, "message", None)


def _reasoning_of(message: Any) -> str | None:
    if message is None:
        return None
    if isinstance(message, dict):
        return message.get("reasoning_content")
    return getattr(message, "reasoning_content", None)


class _Repairs:
    """Mixin for the OpenAI-protocol clients (BaseChatOpenAI subclasses)."""

    def _create_chat_result(self, response: Any, generation_info: dict | None = None) -> ChatResult:
        for choice in _choices(response):
            message = _message_of(choice)
            calls = message.get("tool_calls") if isinstance(message, dict) else getattr(message, "tool_calls", None)
            normalise_tool_calls(calls)
        result = super()._create_chat_result(response, generation_info)  # type: ignore[misc]
        if self.echo_reasoning and result.generations:  # type: ignore[attr-defined]
            choices = _choices(response)
            reasoning = _reasoning_of(_message_of(choices[0])) if choices else None
            message = result.generations[0].message
            if reasoning and "reasoning_content" not in message.additional_kwargs:
                message.additional_kwargs["reasoning_content"] = reasoning
        return result

    def _get_request_payload(self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any) -> dict:
        payload = super()._get_request_payload(input_, stop=stop, **kwargs)  # type: ignore[misc]
        if not self.echo_reasoning or "messages" not in payload:  # type: ignore[attr-defined]
            return payload
        messages = self._convert_input(input_).to_messages()  # type: ignore[attr-defined]
        if not any(isinstance(m, AIMessage) and m.additional_kwargs.get("reasoning_content") for m in messages):
            return payload  # the model is not thinking (moonshot-v1, deepseek-chat): send nothing new
        for message, sent in zip(messages, payload["messages"], strict=False):
            # only tool-call turns need it; one without reasoning gets "" (DeepSeek and Kimi accept that)
            if isinstance(message, AIMessage) and sent.get("role") == "assistant" and sent.get("tool_calls"):
                sent["reasoning_content"] = message.additional_kwargs.get("reasoning_content") or ""
        return payload


class CompatChatOpenAI(_Repairs, ChatOpenAI):
    force_tool_choice: str | None = Field(default="required", exclude=True)
    echo_reasoning: bool = Field(default=False, exclude=True)


class CompatChatDeepSeek(_Repairs, ChatDeepSeek):
    force_tool_choice: str | None = Field(default="required", exclude=True)
    echo_reasoning: bool = Field(default=True, exclude=True)


class CompatChatOllama(ChatOllama):
    force_tool_choice: str | None = Field(default=None, exclude=True)


# ChatOllama fields a user may set through GPU_ADVISOR_LLM_EXTRA_BODY (Ollama's `options` and request fields)
_OLLAMA_FIELDS = {
    "mirostat",
    "mirostat_eta",
    "mirostat_tau",
    "num_ctx",
    "num_gpu",
    "num_thread",
    "num_predict",
    "repeat_last_n",
    "repeat_penalty",
    "temperature",
    "seed",
    "tfs_z",
    "top_k",
    "top_p",
    "keep_alive",
    "reasoning",
}


def _ollama_host(base_url: str) -> str:
    """The native API's root: a preset or user URL may end in the OpenAI-compatible /v1."""
    url = base_url.rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


def make_client(provider, model: str, base_url: str | None, api_key: str, options, settings) -> Any:
    """The chat model for one provider (a `Provider` row) and its `RequestOptions`."""
    if provider.client == "ollama":
        extra = dict(options.extra_body)
        if "think" in extra:  # Ollama's own name for it
            extra["reasoning"] = extra.pop("think")
        unknown = sorted(set(extra) - _OLLAMA_FIELDS)
        if unknown:
            raise ConfigError(
                f"GPU_ADVISOR_LLM_EXTRA_BODY for ollama: unknown option(s) {', '.join(unknown)}; "
                f"known: {', '.join(sorted(_OLLAMA_FIELDS))}"
            )
        fields: dict[str, Any] = {"num_ctx": options.num_ctx, **extra}
        if options.temperature is not None:
            fields.setdefault("temperature", options.temperature)
        return CompatChatOllama(
            model=model,
            base_url=_ollama_host(base_url or "http://127.0.0.1:11434"),
            client_kwargs={"timeout": settings.llm_timeout},
            force_tool_choice=options.tool_choice,
            **fields,
        )
    common: dict[str, Any] = {
        "model": model,
        "api_key": api_key,
        "timeout": settings.llm_timeout,
        "max_retries": 0,  # the turn decides what to retry, within the question's budget
        "temperature": options.temperature,
        "extra_body": options.extra_body or None,
        "force_tool_choice": options.tool_choice,
    }
    if provider.client == "deepseek":
        return CompatChatDeepSeek(base_url=base_url, echo_reasoning=provider.echo_reasoning, **common)
    return CompatChatOpenAI(base_url=base_url, echo_reasoning=provider.echo_reasoning, **common)
