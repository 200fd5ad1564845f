"""One question answered by an LLM through the agent loop, or the reason to fall back.

The Advisor owns the conversation and the offline brain; this module owns everything LLM-specific
about a turn, within one budget per question (`GPU_ADVISOR_LLM_MAX_CALLS` model calls,
`GPU_ADVISOR_LLM_QUESTION_TIMEOUT` seconds):

1. the agent loop (`loop.run_loop`) over the capped context (`context.model_context`); a sampling
   accident (broken tool-call JSON, an empty reply, a 5xx) is tried once more, a loop, a timeout or
   a rejected request is not;
2. a question that needs a figure but was answered without any tool is asked again once with
   `tool_choice` forcing a tool (where the provider can force one), then falls back;
3. `[doc_id]` references become `[n]` citations; numbers no tool result backs get one rewrite
   request that carries the system prompt, the tools and the turn so far (the model may fetch the
   figure), in the user's language; what is still unbacked is flagged.

The Advisor passes callbacks, so this module needs neither the verifier's internals nor the graph.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from langchain_core.messages import BaseMessage, HumanMessage

from assistant.answer import NumberClaim
from assistant.llm.context import model_context
from assistant.llm.loop import (
    Budget,
    LLMFailure,
    LLMLoopError,
    LLMMalformed,
    LLMQuestionTimeout,
    LoopResult,
    message_text,
    run_loop,
)
from assistant.llm.presets import SYSTEM_PROMPT

__all__ = [
    "LLMFailure",
    "LLMTurnInput",
    "LLMTurnResult",
    "answer_with_llm",
    "failure_reason",
    "message_text",
    "number_citations",
]

log = logging.getLogger(__name__)

LLM_ATTEMPTS = 2  # one try and one retry of a retryable failure, then the offline brain
DEFAULT_MAX_CALLS = 8
DEFAULT_QUESTION_TIMEOUT = 120.0
DEFAULT_CALL_TIMEOUT = 60.0
QUOTE_CHARS = 200  # of the provider's own error message in the fallback reason

REWRITE = {
    "en": "Your answer states numbers that no tool result or passage contains: {figures}. Rewrite the answer "
    "using only the figures in the tool results above, or call a tool for a figure you need; never estimate a "
    "number yourself. Answer in English.",
    "zh": "你的回答里有些数字不在任何工具结果或检索段落中：{figures}。请重写回答：只使用上面工具结果中的数字，"
    "需要别的数字就调用工具，不要自己估算任何数字。请用中文回答。",
}
UNVERIFIED = {
    "en": "⚠ Unverified figures (not found in any tool result): ",
    "zh": "⚠ 以下数字未能由工具结果核实：",
}


@dataclass
class LLMTurnInput:
    llm: Any  # the chat model (presets.make_llm)
    messages: list[BaseMessage]  # history + this turn's HumanMessage
    verify: Callable[[str, list[BaseMessage]], list[NumberClaim]]  # claims of an answer text given the turn's messages
    passages: Callable[[list[BaseMessage]], list[dict[str, Any]]]  # retrieved passages of the turn
    tools: list[Any] = field(default_factory=list)  # the advisor's LangChain tools for this question's frame
    # every tool, for the rewrite: an unbacked price in a guidance answer needs estimate_cost, whatever the frame
    rewrite_tools: list[Any] | None = None
    system_prompt: str = ""  # default: presets.SYSTEM_PROMPT
    settings: Any = None  # knowledge.settings.Settings: request limits
    language: str = "en"
    needs_number: bool = False  # the understanding layer says the question asks for a computed figure
    timings: dict[str, float] = field(default_factory=dict)  # filled in place: seconds per step
    state_summary: str = ""  # the conversation state in a few lines, sent instead of the whole history
    # unused since the turn runs its own loop (kept so callers that still pass them keep working)
    run: Callable[[list[BaseMessage]], list[BaseMessage]] | None = None
    evidence_text: Callable[[list[BaseMessage]], str] | None = None


@dataclass
class LLMTurnResult:
    new: list[BaseMessage] | None  # None: fall back to the offline brain
    reason: str = ""  # why it fell back, quoting the provider where it said why
    answer_text: str = ""
    citations: list[dict[str, Any]] = field(default_factory=list)
    claims: list[NumberClaim] = field(default_factory=list)
    reasoning: str = ""  # the model's <think> / reasoning_content, for the trace (never shown as the answer)
    calls: int = 0  # model calls this question made
    forced_tool: bool = False  # the forced-tool retry was used


def _budget(settings: Any) -> Budget:
    return Budget(
        max_calls=getattr(settings, "llm_max_calls", None) or DEFAULT_MAX_CALLS,
        seconds=getattr(settings, "llm_question_timeout", None) or DEFAULT_QUESTION_TIMEOUT,
        call_timeout=getattr(settings, "llm_timeout", None) or DEFAULT_CALL_TIMEOUT,
    )


def _from_provider(err: Exception) -> bool:
    """An error the model or its server caused (vs. a bug of ours)."""
    if isinstance(err, (LLMFailure, TimeoutError, ConnectionError)) or _status(err) is not None:
        return True
    module = type(err).__module__.split(".")[0]
    return module in ("openai", "httpx", "httpcore", "ollama", "langchain_openai", "langchain_deepseek")


def _retryable(err: Exception) -> bool:
    if isinstance(err, LLMFailure):
        return err.retryable
    status = _status(err)
    if isinstance(status, int):
        return status >= 500
    return "connection" in type(err).__name__.lower()


def answer_with_llm(turn: LLMTurnInput) -> LLMTurnResult:
    budget = _budget(turn.settings)
    lang = turn.language if turn.language in ("en", "zh") else "en"
    prefix = model_context(turn.system_prompt or SYSTEM_PROMPT, turn.messages, turn.state_summary, lang)
    reasoning: list[str] = []
    result: LoopResult | None = None
    failures = forced = 0
    while True:
        try:
            result = run_loop(
                turn.llm, turn.tools, prefix, budget, lang=lang, timings=turn.timings, force_tool=forced > 0
            )
        except Exception as err:  # any failure falls back to the offline brain; a bug of ours is logged in full
            if not _from_provider(err):
                log.exception("LLM turn failed on our side")
            failures += 1
            if _retryable(err) and failures < LLM_ATTEMPTS and not budget.exhausted():
                continue
            return LLMTurnResult(
                new=None, reason=failure_reason(err), reasoning="\n\n".join(reasoning), calls=budget.calls
            )
        reasoning.extend(result.reasoning)
        if turn.needs_number and result.tool_calls == 0:
            if forced or budget.exhausted():
                return LLMTurnResult(
                    new=None,
                    reason="LLM answered a question that needs figures without calling a tool",
                    reasoning="\n\n".join(reasoning),
                    calls=budget.calls,
                    forced_tool=bool(forced),
                )
            forced += 1
            continue
        break

    new = result.new
    passages = turn.passages(new)
    answer_text, cited = number_citations(message_text(result.final), passages)
    claims = turn.verify(answer_text, new)
    if any(c.backed_by is None for c in claims):
        new, answer_text, cited, claims = _rewrite(
            turn, prefix, result, answer_text, cited, claims, budget, lang, reasoning
        )
    return LLMTurnResult(
        new=new,
        answer_text=answer_text,
        citations=cited,
        claims=claims,
        reasoning="\n\n".join(reasoning),
        calls=budget.calls,
        forced_tool=bool(forced),
    )


def _rewrite(turn, prefix, result: LoopResult, answer_text, cited, claims, budget: Budget, lang, reasoning):
    """One rewrite request with the system prompt, the tools and the turn so far; what stays unbacked is flagged."""
    new = result.new
    bad = [c.text for c in claims if c.backed_by is None]
    if not budget.exhausted():
        prompt = HumanMessage(content=REWRITE[lang].format(figures=", ".join(bad)))
        try:
            again = run_loop(
                turn.llm, turn.rewrite_tools or turn.tools, [*prefix, *result.view, prompt], budget, lang=lang,
                timings=turn.timings,
            )
        except Exception:  # the first answer stands, flagged below
            again = None
        if again is not None:
            reasoning.extend(again.reasoning)
            candidate_new = [*result.new, *again.new]
            candidate, candidate_cited = number_citations(message_text(again.final), turn.passages(candidate_new))
            if candidate.strip():
                new, answer_text, cited = candidate_new, candidate, candidate_cited
                claims = turn.verify(answer_text, new)
    unbacked = [c.text for c in claims if c.backed_by is None]
    if unbacked:
        answer_text = f"{answer_text}\n\n{UNVERIFIED[lang]}" + ", ".join(unbacked)
    return new, answer_text, cited, claims


# ------------------------------------------------------------------ why it fell back


def _status(err: Exception) -> int | None:
    status = getattr(err, "status_code", None)
    if status is None:
        status = getattr(getattr(err, "response", None), "status_code", None)
    return status if isinstance(status, int) else None


def provider_message(err: Exception) -> str:
    """The provider's own words: the error body's message (OpenAI protocol, DashScope, Zhipu, Ollama)."""
    body = getattr(err, "body", None)
    text: Any = None
    if isinstance(body, dict):
        inner = body.get("error")
        text = body.get("message") or (inner.get("message") if isinstance(inner, dict) else inner)
    elif isinstance(body, str):
        text = body
    if not text and isinstance(getattr(err, "error", None), str):  # ollama.ResponseError
        text = err.error  # type: ignore[attr-defined]
    if not text:
        text = str(err)
    text = " ".join(str(text).split())
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "…"


def failure_reason(err: Exception) -> str:
    name = type(err).__name__
    if isinstance(err, LLMLoopError):
        return f"LLM {err}"
    if isinstance(err, LLMQuestionTimeout):
        return f"LLM {err}"
    if isinstance(err, LLMFailure):
        return f"LLM {err}"
    if "timeout" in name.lower() or "timed out" in str(err).lower():
        return "LLM timed out"
    if "GraphRecursion" in name:
        return "LLM looped over tools without answering"
    status = _status(err)
    message = provider_message(err)
    if status == 429 or "RateLimit" in name:
        return f"LLM rate limited (HTTP 429: {message})"
    if status in (401, 403):
        return f"LLM refused the API key (HTTP {status}: {message})"
    if status is not None and status >= 500:
        return f"LLM server error (HTTP {status}: {message})"
    if status is not None and status >= 400:
        return f"LLM rejected the request (HTTP {status}: {message})"
    if "connect" in name.lower() or "connect" in message.lower():
        return f"LLM unreachable ({message})"
    return f"LLM failed: {name} ({message})"


# ------------------------------------------------------------------ citations

_DOC_REF = re.compile(r"\[([a-z0-9][\w:.\-]*(?:\s*§[^\]]*)?)\]")


def number_citations(text: str, passages: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """Turn an LLM's `[doc_id]` references into `[n]` markers with a citation list."""
    by_id: dict[str, dict[str, Any]] = {}
    for p in passages:
        by_id.setdefault(p["doc_id"], p)
    cited: list[dict[str, Any]] = []

    def repl(m: re.Match) -> str:
        doc_id = m.group(1).split("§")[0].strip()
        p = by_id.get(doc_id)
        if p is None:
            return m.group(0)
        if p not in cited:
            cited.append(p)
        return f"[{cited.index(p) + 1}]"

    return _DOC_REF.sub(repl, text), cited


# kept for callers of the old names
LLMMalformedOutput = LLMMalformed
