"""One question answered by an LLM through the agent loop, or the reason to fall back.

The Advisor owns the conversation and the offline brain; this module owns everything
LLM-specific about a turn: attempts and retries, checking the final message, turning
`[doc_id]` references into `[n]` citations, and the one rewrite when numbers are unbacked.
The Advisor passes callbacks so this module needs neither the graph nor the verifier's internals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from assistant.answer import NumberClaim

LLM_ATTEMPTS = 2  # one try and one retry, then the offline brain


class LLMFailure(Exception):
    """The LLM brain did not produce a usable answer (timeout, HTTP error, malformed calls, endless loop)."""


@dataclass
class LLMTurnInput:
    llm: Any  # the chat model (for the rewrite request)
    run: Callable[[list[BaseMessage]], list[BaseMessage]]  # runs the LLM agent graph, returns the new messages
    messages: list[BaseMessage]  # history + this turn's HumanMessage
    verify: Callable[[str, list[BaseMessage]], list[NumberClaim]]  # claims of an answer text given the turn's messages
    evidence_text: Callable[[list[BaseMessage]], str]  # the tool results restated, for the rewrite request
    passages: Callable[[list[BaseMessage]], list[dict[str, Any]]]  # retrieved passages of the turn
    language: str = "en"
    needs_number: bool = False  # the understanding layer says the question asks for a computed figure
    tools: list[Any] = field(default_factory=list)  # the advisor's LangChain tools (for a rewrite that may call them)
    system_prompt: str = ""
    settings: Any = None  # knowledge.settings.Settings: request options, limits
    timings: dict[str, float] = field(default_factory=dict)  # filled in place: seconds per step
    state_summary: str = ""  # the conversation state in a few lines, for capping the history sent to the model


@dataclass
class LLMTurnResult:
    new: list[BaseMessage] | None  # None: fall back to the offline brain
    reason: str = ""  # why it fell back
    answer_text: str = ""
    citations: list[dict[str, Any]] = field(default_factory=list)
    claims: list[NumberClaim] = field(default_factory=list)


def message_text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return " ".join(part.get("text", "") for part in content if isinstance(part, dict))


def answer_with_llm(turn: LLMTurnInput) -> LLMTurnResult:
    reason = ""
    new: list[BaseMessage] | None = None
    for _ in range(LLM_ATTEMPTS):
        try:
            new = turn.run(turn.messages)
            _check_llm_output(new)
            break
        except Exception as err:  # any LLM-side failure falls back; our own bugs still surface in tests
            reason = failure_reason(err)
            new = None
    if new is None:
        return LLMTurnResult(new=None, reason=reason)
    final = next(m for m in reversed(new) if isinstance(m, AIMessage) and not m.tool_calls)
    passages = turn.passages(new)
    answer_text, cited = number_citations(message_text(final), passages)
    claims = turn.verify(answer_text, new)
    if any(c.backed_by is None for c in claims):
        answer_text, cited, claims = _regenerate(turn, new, answer_text, claims, passages)
    return LLMTurnResult(new=new, answer_text=answer_text, citations=cited, claims=claims)


def _regenerate(turn: LLMTurnInput, new, answer_text, claims, passages):
    """One rewrite with the tool results restated; what is still unbacked gets flagged."""
    bad = [c for c in claims if c.backed_by is None]
    prompt = (
        "Your answer states numbers that no tool result or passage contains: "
        + ", ".join(c.text for c in bad)
        + ". Rewrite the answer using only these figures (and none of your own):\n"
        + turn.evidence_text(new)
    )
    cited: list[dict[str, Any]] = []
    try:
        reply = turn.llm.invoke([*turn.messages, *new, HumanMessage(content=prompt)])
        candidate = message_text(reply).strip()
    except Exception:
        candidate = ""
    if candidate:
        answer_text, cited = number_citations(candidate, passages)
    else:
        answer_text, cited = number_citations(answer_text, passages)
    claims = turn.verify(answer_text, new)
    unbacked = [c.text for c in claims if c.backed_by is None]
    if unbacked:
        zh = turn.language == "zh"
        note = ("⚠ 以下数字未能由工具结果核实：" if zh else "⚠ Unverified figures (not found in any tool result): ") + ", ".join(unbacked)
        answer_text = f"{answer_text}\n\n{note}"
    return answer_text, cited, claims


def _check_llm_output(new: list[BaseMessage]) -> None:
    final = new[-1] if new else None
    if not isinstance(final, AIMessage):
        raise LLMFailure("no final answer")
    if getattr(final, "invalid_tool_calls", None):
        raise LLMFailure("malformed tool call")
    if final.tool_calls:
        raise LLMFailure("unfinished tool calls")
    if not message_text(final).strip():
        raise LLMFailure("empty answer")


def failure_reason(err: Exception) -> str:
    name = type(err).__name__
    text = str(err).splitlines()[0][:120] if str(err) else ""
    if "Timeout" in name or "timed out" in text.lower():
        return "LLM timed out"
    if "RateLimit" in name:
        return "LLM rate limited"
    if "GraphRecursion" in name:
        return "LLM looped over tools without answering"
    status = getattr(err, "status_code", None) or getattr(getattr(err, "response", None), "status_code", None)
    if "InternalServer" in name or "APIStatus" in name or (isinstance(status, int) and status >= 500) or "500" in text:
        return f"LLM server error ({text})"
    if "Connection" in name:
        return "LLM unreachable"
    if isinstance(err, LLMFailure):
        return f"LLM {text}"
    return f"LLM failed: {name}"


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
