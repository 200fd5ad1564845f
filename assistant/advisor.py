"""`Advisor`: one conversation with the GPU advisor.

`Advisor().ask(question)` runs one LangChain agent loop (offline brain by
default, or a configured LLM) over the advisor's tools, then checks every
number in the answer against the tool results and passages. Heavy resources
(catalog, embedding model, index) are shared between advisors; the
conversation history is this object's own.
"""

from __future__ import annotations

import re
import threading
import time
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from assistant.answer import Answer, Citation, ToolCallRecord
from assistant.llm import SYSTEM_PROMPT, brain_name, make_llm
from assistant.offline.brain import OFFLINE_BRAIN_KEY, _outcomes, _text, make_offline_brain
from assistant.offline.composer import passages_of
from assistant.resources import Resources
from assistant.understanding import language_of
from assistant.verifier import Evidence, restate_evidence, verify_numbers
from knowledge.settings import Settings
from tools.errors import AdvisorError, ConfigError, InputError

MAX_QUESTION_CHARS = 4000
MAX_AGENT_STEPS = 12  # model ↔ tools round trips before we call it an endless loop
LLM_ATTEMPTS = 2  # one try and one retry, then the offline brain


class _ToolTimer(BaseCallbackHandler):
    def __init__(self) -> None:
        self.started: dict[Any, float] = {}
        self.seconds: dict[str, float] = {}
        self.names: dict[Any, str] = {}

    def on_tool_start(self, serialized: dict[str, Any], input_str: str, *, run_id: Any, **kw: Any) -> None:
        self.started[run_id] = time.perf_counter()
        self.names[run_id] = (serialized or {}).get("name") or kw.get("name") or "tool"

    def on_tool_end(self, output: Any, *, run_id: Any, **kw: Any) -> None:
        if run_id in self.started:
            name = f"tool:{self.names.get(run_id, 'tool')}"
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - self.started.pop(run_id)


class LLMFailure(Exception):
    """The LLM brain did not produce a usable answer (timeout, HTTP error, malformed calls, endless loop)."""


class Advisor:
    def __init__(self, settings: Settings | None = None, *, llm: str | None = None, resources: Resources | None = None):
        self.settings = settings or (resources.settings if resources else Settings.load())
        self.resources = resources or Resources.shared(self.settings)
        self.brain_spec = brain_name(self.settings, llm)
        # built once (a bad --llm fails here, before the first question) and shared by the loop and the rewrite
        self._llm = make_llm(self.brain_spec, self.settings) if self.brain_spec != "offline" else None
        self.history: list[BaseMessage] = []
        self._lock = threading.Lock()

    # ------------------------------------------------------------ public

    def ask(self, question: str) -> Answer:
        text = (question or "").strip()
        if not text:
            raise InputError("The question is empty: ask about a model, a GPU, a budget or a provider.")
        text = text[:MAX_QUESTION_CHARS]
        with self._lock:
            return self._ask(text)

    def reset(self) -> None:
        self.history.clear()

    # ------------------------------------------------------------ the loop

    def _ask(self, text: str) -> Answer:
        timings: dict[str, float] = {}
        start = time.perf_counter()
        human = HumanMessage(content=text)
        messages = [*self.history, human]
        brain_label = "offline"
        new: list[BaseMessage] | None = None
        llm = self._llm
        if llm is not None:
            reason = ""
            for _ in range(LLM_ATTEMPTS):
                try:
                    new = self._run(self._llm_graph(llm), messages, timings)
                    _check_llm_output(new)
                    brain_label = self.brain_spec
                    break
                except Exception as err:  # any LLM-side failure falls back; our own bugs still surface in tests
                    reason = _failure_reason(err)
                    new = None
            if new is None:
                brain_label = f"offline (fallback: {reason})"
        if new is None:
            new = self._run(self._offline_graph(), messages, timings)

        final = next(m for m in reversed(new) if isinstance(m, AIMessage) and not m.tool_calls)
        answer_text = _text(final)
        outcomes = _outcomes(new)
        passages = passages_of(outcomes)
        t = time.perf_counter()
        if isinstance(final.additional_kwargs.get(OFFLINE_BRAIN_KEY), dict):
            cited = final.additional_kwargs[OFFLINE_BRAIN_KEY]["citations"]
        else:
            answer_text, cited = _number_citations(answer_text, passages)
        user_texts = [_text(m) for m in messages if isinstance(m, HumanMessage)]
        records = [ToolCallRecord(name=o.name, args=o.args, result=o.result) for o in outcomes]
        evidence = Evidence.from_tool_calls(records, passages=[(p["doc_id"], f"{p['title']}\n{p['section']}\n{p['text']}") for p in passages])
        claims = verify_numbers(answer_text, evidence, user_texts)
        if llm is not None and brain_label == self.brain_spec and any(c.backed_by is None for c in claims):
            answer_text, claims = self._regenerate(llm, messages, new, answer_text, evidence, user_texts, passages)
        timings["verify"] = time.perf_counter() - t

        self.history.extend([human, AIMessage(content=answer_text)])
        timings["total"] = time.perf_counter() - start
        recommendation, options = _recommendation(outcomes)
        return Answer(
            answer=answer_text,
            language=language_of(text),
            tool_calls=records,
            citations=[
                Citation(marker=n, doc_id=p["doc_id"], title=p["title"], section=p["section"], lang=p.get("lang", ""), text=p.get("text", ""))
                for n, p in enumerate(cited, 1)
            ],
            recommendation=recommendation,
            options=options,
            numbers=claims,
            brain=brain_label,
            timings={k: round(v, 4) for k, v in timings.items()},
        )

    def _run(self, graph: Any, messages: list[BaseMessage], timings: dict[str, float]) -> list[BaseMessage]:
        timer = _ToolTimer()
        t = time.perf_counter()
        result = graph.invoke(
            {"messages": messages},
            config={"recursion_limit": MAX_AGENT_STEPS * 2 + 1, "callbacks": [timer]},
        )
        timings["agent"] = time.perf_counter() - t
        timings.update(timer.seconds)
        return result["messages"][len(messages) :]

    def _offline_graph(self) -> Any:
        return self.resources.graph("offline", lambda: make_offline_brain(self.resources.catalog, self.settings))

    def _llm_graph(self, llm: Any) -> Any:
        return self.resources.graph(self.brain_spec, lambda: llm, system_prompt=SYSTEM_PROMPT)

    def _regenerate(self, llm, messages, new, answer_text, evidence, user_texts, passages):
        """One rewrite with the tool results restated; what is still unbacked gets flagged."""
        bad = [c for c in verify_numbers(answer_text, evidence, user_texts) if c.backed_by is None]
        prompt = (
            "Your answer states numbers that no tool result or passage contains: "
            + ", ".join(c.text for c in bad)
            + ". Rewrite the answer using only these figures (and none of your own):\n"
            + restate_evidence(evidence)
        )
        try:
            reply = llm.invoke([*messages, *new, HumanMessage(content=prompt)])
            candidate = _text(reply).strip()
        except Exception:
            candidate = ""
        if candidate:
            answer_text, _ = _number_citations(candidate, passages)
        claims = verify_numbers(answer_text, evidence, user_texts)
        unbacked = [c.text for c in claims if c.backed_by is None]
        if unbacked:
            zh = language_of(answer_text) == "zh"
            note = ("⚠ 以下数字未能由工具结果核实：" if zh else "⚠ Unverified figures (not found in any tool result): ") + ", ".join(unbacked)
            answer_text = f"{answer_text}\n\n{note}"
        return answer_text, claims


# ---------------------------------------------------------------- helpers


def _check_llm_output(new: list[BaseMessage]) -> None:
    final = new[-1] if new else None
    if not isinstance(final, AIMessage):
        raise LLMFailure("no final answer")
    if getattr(final, "invalid_tool_calls", None):
        raise LLMFailure("malformed tool call")
    if final.tool_calls:
        raise LLMFailure("unfinished tool calls")
    if not _text(final).strip():
        raise LLMFailure("empty answer")


def _failure_reason(err: Exception) -> str:
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


def _number_citations(text: str, passages: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
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


def _recommendation(outcomes) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    for o in reversed(outcomes):
        if o.name == "recommend_config" and isinstance(o.result, dict) and not o.result.get("error"):
            options = o.result.get("options") or []
            return (options[0] if options else None), options
    return None, []
