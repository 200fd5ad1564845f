"""The offline brain: a deterministic LangChain chat model driven by the turn's frame handler.

It runs in the very same agent loop as an LLM. It never reads the conversation:
the Advisor puts this turn's `TurnContext` (frame, state, language, notices) in
the HumanMessage's `additional_kwargs`; on a new turn the brain answers with the
handler's tool calls (the plan), and once their results are back it composes
the answer from the typed artifacts. LangChain's fake chat models lack
`bind_tools`, which `create_agent` requires, so this one has its own (the tools
are fixed by the plan, so binding is a no-op).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, Field

from assistant.offline.answer import compose_answer
from assistant.offline.context import CONTEXT_KEY, TurnContext
from assistant.offline.handlers import HANDLERS, Cited, Env, Outcome, Plan, Results

OFFLINE_BRAIN_KEY = "gpu_advisor"


def _text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return " ".join(part.get("text", "") for part in content if isinstance(part, dict))


def turn_context(messages: list[BaseMessage]) -> tuple[int, TurnContext]:
    last = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
    raw = messages[last].additional_kwargs.get(CONTEXT_KEY)
    if raw is None:  # a caller that did not go through the Advisor: a guidance answer to the words
        return last, TurnContext(frame="guidance", question=_text(messages[last]))
    return last, raw if isinstance(raw, TurnContext) else TurnContext.model_validate(raw)


class OfflineBrain(BaseChatModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    env: Any = Field(exclude=True, description="handlers' environment: catalog and today")

    @property
    def _llm_type(self) -> str:
        return "gpu-advisor-offline"

    def bind_tools(self, tools: Any, **kwargs: Any) -> "OfflineBrain":
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:
        last, ctx = turn_context(messages)
        handler = HANDLERS[ctx.frame]
        plan: Plan = handler.plan(ctx, self.env) if not ctx.problems else Plan()
        since = messages[last + 1 :]
        results = Results(outcomes(since, plan))
        # the plan's calls first; then the calls the handler plans from their results (a second round: the time of the
        # change that makes the job fit), each once
        pending = plan.calls if not any(isinstance(m, ToolMessage) for m in since) else follow_ups(handler, ctx, plan, results, self.env)
        if pending:
            calls = [
                {"name": c.name, "args": c.args, "id": f"call_{c.key}_{uuid.uuid4().hex[:8]}", "type": "tool_call"}
                for c in pending
            ]
            message = AIMessage(content="", tool_calls=calls)
        else:
            cited = Cited()
            text = compose_answer(handler, ctx, plan, results, cited, self.env)
            # "unshown": results the composition computed but did not show (an alternative beside a "yes"): the
            # Advisor keeps them out of the answer's structured pick
            message = AIMessage(content=text, additional_kwargs={OFFLINE_BRAIN_KEY: {
                "citations": cited.passages, "language": ctx.lang, "unshown": list(plan.data.get("unshown", []))}})
        return ChatResult(generations=[ChatGeneration(message=message)])


def follow_ups(handler: Any, ctx: TurnContext, plan: Plan, results: Results, env: Env) -> list:
    """The calls a handler adds once the plan's results are in (its optional `follow_up`), less those already made:
    the plan grows by them either way, so the composition sees the same plan on every pass."""
    follow = getattr(handler, "follow_up", None)
    if follow is None or ctx.problems:
        return []
    before = len(plan.calls)
    follow(ctx, plan, results, env)
    return [c for c in plan.calls[before:] if results.get(c.key) is None]


def outcomes(messages: list[BaseMessage], plan: Plan | None = None) -> list[Outcome]:
    """The turn's tool results, typed where the tool returned an artifact; `key` from the call id the plan gave."""
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
            key = call["id"].split("_", 1)[1].rsplit("_", 1)[0] if call["id"].startswith("call_") else call["name"]
            artifact = getattr(m, "artifact", None)
            out.append(Outcome(name=call["name"], key=key, args=call["args"], result=result,
                               artifact=None if isinstance(artifact, dict) else artifact))
    return out


_outcomes = outcomes  # the name earlier callers used


def make_offline_brain(catalog: Any, settings: Any = None) -> OfflineBrain:
    # a fixed date only when the settings fix one (tests); otherwise the Env reads the live clock at each answer
    today = settings.today if settings is not None else None
    return OfflineBrain(env=Env(catalog=catalog, today=today))
