"""`Advisor`: one conversation with the GPU advisor.

`Advisor().ask(question)` runs one LangChain agent loop (offline brain by
default, or a configured LLM) over the advisor's tools, then checks every
number in the answer against the tool results and passages. Heavy resources
(catalog, embedding model, index) are shared between advisors; the
conversation history is this object's own.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from assistant.answer import Answer, Citation, ToolCallRecord
from assistant.llm import SYSTEM_PROMPT, brain_name, make_llm
from assistant.llm.turn import LLMTurnInput, LLMTurnResult, answer_with_llm
from assistant.offline.brain import OFFLINE_BRAIN_KEY, _outcomes, _text, make_offline_brain
from assistant.offline.composer import passages_of
from assistant.resources import Resources
from assistant.understanding import language_of
from assistant.verifier import Evidence, restate_evidence, verify_numbers
from knowledge.settings import Settings
from tools.errors import InputError

MAX_QUESTION_CHARS = 4000
MAX_AGENT_STEPS = 12  # model ↔ tools round trips before we call it an endless loop


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
        user_texts = [_text(m) for m in messages if isinstance(m, HumanMessage)]
        brain_label = "offline"
        new: list[BaseMessage] | None = None
        llm_result: LLMTurnResult | None = None
        if self._llm is not None:
            llm = self._llm
            llm_result = answer_with_llm(
                LLMTurnInput(
                    llm=llm,
                    run=lambda msgs: self._run(self._llm_graph(llm), msgs, timings),
                    messages=messages,
                    verify=lambda answer, new_msgs: verify_numbers(answer, _evidence(new_msgs), user_texts),
                    evidence_text=lambda new_msgs: restate_evidence(_evidence(new_msgs)),
                    passages=lambda new_msgs: passages_of(_outcomes(new_msgs)),
                    language=language_of(text),
                    tools=self.resources.tools,
                    system_prompt=SYSTEM_PROMPT,
                    settings=self.settings,
                    timings=timings,
                )
            )
            if llm_result.new is not None:
                new, brain_label = llm_result.new, self.brain_spec
            else:
                brain_label = f"offline (fallback: {llm_result.reason})"
                llm_result = None
        if new is None:
            new = self._run(self._offline_graph(), messages, timings)

        outcomes = _outcomes(new)
        t = time.perf_counter()
        if llm_result is not None:
            answer_text, cited, claims = llm_result.answer_text, llm_result.citations, llm_result.claims
        else:
            final = next(m for m in reversed(new) if isinstance(m, AIMessage) and not m.tool_calls)
            answer_text = _text(final)
            cited = final.additional_kwargs[OFFLINE_BRAIN_KEY]["citations"]
            claims = verify_numbers(answer_text, _evidence(new), user_texts)
        timings["verify"] = time.perf_counter() - t
        records = [ToolCallRecord(name=o.name, args=o.args, result=o.result) for o in outcomes]

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

# ---------------------------------------------------------------- helpers


def _evidence(new: list[BaseMessage]) -> Evidence:
    outcomes = _outcomes(new)
    records = [ToolCallRecord(name=o.name, args=o.args, result=o.result) for o in outcomes]
    passages = passages_of(outcomes)
    return Evidence.from_tool_calls(
        records, passages=[(p["doc_id"], f"{p['title']}\n{p['section']}\n{p['text']}") for p in passages]
    )


def _recommendation(outcomes) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    for o in reversed(outcomes):
        if o.name == "recommend_config" and isinstance(o.result, dict) and not o.result.get("error"):
            options = o.result.get("options") or []
            return (options[0] if options else None), options
    return None, []
