"""The offline brain: a deterministic LangChain chat model.

It drives the very same agent loop as an LLM: on a new user turn it answers
with tool calls (the plan); once the tool results are back it answers with the
composed text. It needs no network and no weights. LangChain's fake chat
models lack `bind_tools`, which `create_agent` requires, so this one has its
own (the tools are fixed by the plan, so binding is a no-op).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, Field

from assistant.offline.composer import Composer, ToolOutcome
from assistant.offline.planner import make_plan
from assistant.understanding import Facts, NameScanner, read_conversation

OFFLINE_BRAIN_KEY = "gpu_advisor"


def _text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return " ".join(part.get("text", "") for part in content if isinstance(part, dict))


class OfflineBrain(BaseChatModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    scanner: Any = Field(exclude=True, description="NameScanner over the catalog")
    defaults: Any = Field(default=None, exclude=True, description="Facts from the configuration (currency, region)")

    @property
    def _llm_type(self) -> str:
        return "gpu-advisor-offline"

    def bind_tools(self, tools: Any, **kwargs: Any) -> "OfflineBrain":
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:
        last_human = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
        turns = [_text(m) for m in messages if isinstance(m, HumanMessage)]
        facts = read_conversation(turns, self.scanner, self.defaults)
        plan = make_plan(facts)
        since = messages[last_human + 1 :]
        if plan.calls and not any(isinstance(m, ToolMessage) for m in since):
            calls = []
            for call in plan.calls:
                args = dict(call.args)
                if call.name == "search_guidance" and not args.get("query"):
                    args["query"] = turns[-1]
                calls.append({"name": call.name, "args": args, "id": f"call_{uuid.uuid4().hex[:12]}", "type": "tool_call"})
            message = AIMessage(content="", tool_calls=calls)
        else:
            outcomes = _outcomes(since)
            composer = Composer(facts, plan, outcomes, turns[-1])
            text = composer.compose()
            message = AIMessage(
                content=text,
                additional_kwargs={
                    OFFLINE_BRAIN_KEY: {
                        "citations": composer.cited.passages,
                        "language": facts.language,
                    }
                },
            )
        return ChatResult(generations=[ChatGeneration(message=message)])


def _outcomes(messages: list[BaseMessage]) -> list[ToolOutcome]:
    calls: dict[str, dict[str, Any]] = {}
    for m in messages:
        if isinstance(m, AIMessage):
            for c in m.tool_calls:
                calls[c["id"]] = c
    out = []
    for m in messages:
        if isinstance(m, ToolMessage) and m.tool_call_id in calls:
            call = calls[m.tool_call_id]
            try:
                result = json.loads(_text(m))
            except json.JSONDecodeError:
                result = {"error": _text(m)}
            out.append(ToolOutcome(name=call["name"], args=call["args"], result=result))
    return out


def make_offline_brain(catalog: Any, settings: Any = None) -> OfflineBrain:
    defaults = None
    if settings is not None and (settings.currency or settings.region.value != "any"):
        defaults = Facts(
            currency=settings.currency,
            region=settings.region if settings.region.value != "any" else None,
        )
    return OfflineBrain(scanner=NameScanner(catalog), defaults=defaults)
