"""`Advisor`: one conversation with the GPU advisor.

`Advisor().ask(question)` reads the turn once (`assistant.understand`: a typed
slot update and a frame), advances the conversation state, and runs one
LangChain agent loop — the offline brain by default, which plans from the
state and never re-reads the conversation, or a configured LLM — then checks
every number in the answer against the tools' typed results, the passages and
the user's own words. UI settings reach the state through
`set_preferences(...)`, never as words. Heavy resources (catalog, embedding
models, index, name automaton) are shared between advisors; the conversation
state is this object's own.
"""

from __future__ import annotations

import threading
import time
import unicodedata
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from assistant.answer import Answer, Citation, ToolCallRecord
from assistant.llm import SYSTEM_PROMPT, brain_name, make_llm
from assistant.llm.turn import LLMTurnInput, LLMTurnResult, answer_with_llm
from assistant.offline.brain import OFFLINE_BRAIN_KEY, _text, make_offline_brain, outcomes
from assistant.offline.context import CONTEXT_KEY, TurnContext
from assistant.offline.handlers.extras import checked_first
from assistant.resources import Resources
from assistant.understand import ConversationState, Preferences, TurnReading
from assistant.understand.slots import Frame
from assistant.understand.pasted import split_turn
from assistant.verifier import Evidence, verify_numbers
from knowledge.settings import Settings
from tools.errors import InputError
from tools.notes import Note

MAX_QUESTION_CHARS = 20_000  # pasted documents are welcome up to this size; the answer says when more was cut
MAX_AGENT_STEPS = 12  # model ↔ tools round trips before we call it an endless loop
HISTORY_TURNS = 6  # earlier turns sent to an LLM (the state carries what they said)
NUMERIC_FRAMES = {Frame.feasibility, Frame.memory, Frame.recommend, Frame.train_time, Frame.deadline, Frame.cost,
                  Frame.serving, Frame.comparison, Frame.catalog_filter, Frame.spec}
PREFERENCE_AUTO = ("auto", "", None)


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


def clean_text(text: str) -> str:
    """Text a user can send us: lone surrogates and undecodable bytes become U+FFFD, control characters spaces."""
    if not isinstance(text, str):
        text = str(text or "")
    text = text.encode("utf-8", "replace").decode("utf-8", "replace")
    return "".join(" " if unicodedata.category(c) == "Cc" and c not in "\n\t" else c for c in text)


def _workload(state, catalog) -> tuple[float | None, str | None]:
    """The model in force: its parameter count (a catalog model's, or the one the user stated) and its catalog kind
    (decoder, diffusion, vision …; None for a stated size or no model)."""
    model = catalog.models.get(str(state.get("model"))) if state.has("model") else None
    if model is not None:
        return model.params, model.kind.value
    return (float(state.get("params")) if state.has("params") else None), None


class Advisor:
    def __init__(self, settings: Settings | None = None, *, llm: str | None = None, resources: Resources | None = None):
        self.settings = settings or (resources.settings if resources else Settings.load())
        self.resources = resources or Resources.shared(self.settings)
        self.brain_spec = brain_name(self.settings, llm)
        # built once (a bad --llm fails here, before the first question) and shared by the loop and the rewrite
        self._llm = make_llm(self.brain_spec, self.settings) if self.brain_spec != "offline" else None
        self.history: list[BaseMessage] = []
        self.state = ConversationState()
        self._defaults_applied = False
        self._lock = threading.Lock()

    # ------------------------------------------------------------ public

    def ask(self, question: str) -> Answer:
        text = clean_text(question).strip()
        if not text:
            raise InputError("The question is empty: ask about a model, a GPU, a budget or a provider.")
        notices: list[Note] = []
        if len(text) > MAX_QUESTION_CHARS:
            notices.append(Note.of("notice.cut", total=len(text), kept=MAX_QUESTION_CHARS))
            text = text[:MAX_QUESTION_CHARS]
        with self._lock:
            return self._ask(text, notices)

    def set_preferences(self, *, currency: str | None = None, region: str | None = None, billing: str | None = None,
                        lang: str | None = None) -> None:
        """Settings for the rest of the conversation; 'auto' (or '') clears one. The latest stated value wins,
        whether it was typed in a question or set here."""
        with self._lock:
            self._apply_defaults()
            cleared = tuple(n for n, v in (("currency", currency), ("region", region), ("billing", billing), ("lang", lang))
                            if v is not None and v in PREFERENCE_AUTO)
            if cleared:
                self.state = self.state.without_preferences(cleared)
            set_ = {n: v for n, v in (("currency", currency), ("region", region), ("billing", billing), ("lang", lang))
                    if v not in PREFERENCE_AUTO}
            if set_:
                self.state = self.state.with_preferences(Preferences(**set_))

    def reset(self) -> None:
        with self._lock:
            self.history.clear()
            self.state = ConversationState()
            self._defaults_applied = False

    # ------------------------------------------------------------ the turn

    def _apply_defaults(self) -> None:
        """Configured currency/region act as settings below anything the user says."""
        if self._defaults_applied:
            return
        self._defaults_applied = True
        s = self.settings
        prefs: dict[str, Any] = {}
        if s.currency:
            prefs["currency"] = s.currency.value
        if s.region.value != "any":
            prefs["region"] = s.region.value
        if s.lang in ("en", "zh"):
            prefs["lang"] = s.lang
        if prefs:
            self.state = self.state.with_preferences(Preferences(**prefs))

    def _context(self, tr: TurnReading, notices: list[Note]) -> TurnContext:
        r = tr.reading
        state = tr.state
        lang = state.lang.value if state.lang else r.language
        if r.model_read_as and r.update.model:
            model = self.resources.catalog.models.get(r.update.model)
            notices = [*notices, Note.of("notice.read_as", written=r.model_read_as, name=model.name if model else r.update.model)]
        if r.split.overrides:
            notices = [*notices, Note.of("notice.override_refused")]
        if r.split.instructions:
            notices = [*notices, Note.of("notice.pasted_instruction", instructions=r.split.instructions[:2])]
        pasted = sorted(k for k in r.pasted_slots if k not in ("pasted", "pasted_instruction"))
        if pasted:
            notices = [*notices, Note.of("notice.pasted_read", slots=pasted)]
        catalog = self.resources.catalog
        family = (catalog.family_members(str(state.get("model_name")))
                  if state.has("model_name") and not (state.has("model") or state.has("params")) else [])
        params, kind = _workload(state, catalog)
        slots = state.values()
        if "tokens" not in slots and slots.get("examples") and slots.get("example_tokens"):
            # "20k examples avg 800 tokens": the data size every calculator takes, multiplied here and said first
            slots["tokens"] = float(slots["examples"]) * int(slots["example_tokens"])
            if "examples" in tr.update.stated() or "example_tokens" in tr.update.stated():
                notices = [*notices, Note.of("notice.dataset_tokens", examples=slots["examples"],
                                             example_tokens=slots["example_tokens"], tokens=slots["tokens"])]
        return TurnContext(
            frame=checked_first(tr.frame, tr.held),
            slots=slots,
            sources={k: v.source for k, v in state.slots.items()},
            lang=lang,
            currency=state.currency.value if state.currency else None,
            question=r.split.own or r.split.pasted[:400],
            notices=notices,
            problems=list(r.problems),
            workload_params=params,
            workload_kind=kind,
            unknown_model=r.unknown_model if not (state.has("model") or state.has("params")) else None,
            model_suggestions=catalog.closest_models(r.unknown_model) if r.unknown_model else [],
            family_members=family,
            family_names=[catalog.models[k].name for k in family],
            unknown_gpu=r.unknown_gpu,
            gpu_suggestions=catalog._gpu_names.closest(r.unknown_gpu) if r.unknown_gpu else [],
            training=r.training,
            cues=sorted(r.cues),
            confidence=tr.decision.confidence,
            turn=state.turn,
            stated=sorted(tr.update.stated()),
            held=tr.held.values() if tr.held else {},
        )

    def _ask(self, text: str, notices: list[Note]) -> Answer:
        timings: dict[str, float] = {}
        start = time.perf_counter()
        self._apply_defaults()
        t = time.perf_counter()
        tr = self.resources.understanding.turn(text, self.state)
        self.state = tr.state
        ctx = self._context(tr, notices)
        timings["understand"] = time.perf_counter() - t
        # The user's own words back figures; a pasted document backs only a repetition of itself (never a price or spec)
        earlier = [split_turn(_text(m)) for m in self.history if isinstance(m, HumanMessage)]
        user_texts = [x.own for x in (tr.reading.split, *earlier) if x.own]
        # the instructions found in a paste are quoted back in the notice ("it asks me to rent an 8x H100 node"):
        # their figures are the paste's, backed as pasted (an exact repeat), never as a tool's
        pasted_texts = [t for x in (tr.reading.split, *earlier) for t in (x.pasted, *x.instructions, *x.posed) if t]
        human = HumanMessage(content=text, additional_kwargs={CONTEXT_KEY: ctx.model_dump(mode="json")})
        messages = [*self.history[-2 * HISTORY_TURNS :], human]
        brain_label = "offline"
        new: list[BaseMessage] | None = None
        llm_result: LLMTurnResult | None = None
        if self._llm is not None:
            llm = self._llm
            llm_result = answer_with_llm(
                LLMTurnInput(
                    llm=llm,
                    messages=[*self.history[-2 * HISTORY_TURNS :], HumanMessage(content=text)],
                    verify=lambda answer, new_msgs: verify_numbers(answer, _evidence(new_msgs), user_texts, pasted_texts=pasted_texts),
                    passages=lambda new_msgs: _passages(outcomes(new_msgs)),
                    language=ctx.lang,
                    needs_number=ctx.frame in NUMERIC_FRAMES,
                    tools=_tools_for(ctx.frame, self.resources.tools),
                    rewrite_tools=list(self.resources.tools),
                    system_prompt=SYSTEM_PROMPT,
                    settings=self.settings,
                    timings=timings,
                    state_summary=_state_summary(ctx),
                )
            )
            if llm_result.new is not None:
                new, brain_label = llm_result.new, self.brain_spec
                timings["llm_calls"] = float(llm_result.calls)
            else:
                brain_label = f"offline (fallback: {llm_result.reason})"
                llm_result = None
        if new is None:
            new = self._run(self._offline_graph(), messages, timings)

        results = outcomes(new)
        t = time.perf_counter()
        unshown: set[str] = set()
        if llm_result is not None:
            answer_text, cited, claims = llm_result.answer_text, llm_result.citations, llm_result.claims
        else:
            final = next(m for m in reversed(new) if isinstance(m, AIMessage) and not m.tool_calls)
            answer_text = _text(final)
            cited = final.additional_kwargs[OFFLINE_BRAIN_KEY]["citations"]
            unshown = set(final.additional_kwargs[OFFLINE_BRAIN_KEY].get("unshown", []))
            claims = verify_numbers(answer_text, _evidence(new, shown=cited), user_texts, pasted_texts=pasted_texts)
        timings["verify"] = time.perf_counter() - t
        records = [ToolCallRecord(name=o.name, args=o.args, result=o.result, shown=o.key not in unshown) for o in results]

        self.history.extend([HumanMessage(content=text), AIMessage(content=answer_text)])
        del self.history[: max(0, len(self.history) - 4 * HISTORY_TURNS)]
        timings["total"] = time.perf_counter() - start
        recommendation, options = _recommendation([o for o in results if o.key not in unshown])
        return Answer(
            answer=answer_text,
            language=ctx.lang,
            tool_calls=records,
            citations=[
                Citation(marker=n, doc_id=p["doc_id"], title=p["title"], section=p["section"], lang=p.get("lang", ""), text=p.get("text", ""))
                for n, p in enumerate(cited, 1)
            ],
            recommendation=recommendation,
            options=options,
            numbers=claims,
            brain=brain_label,
            reasoning=llm_result.reasoning if llm_result is not None else "",
            frame=ctx.frame.value,
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



# ---------------------------------------------------------------- helpers


# The tools an LLM sees for a question: what the frame needs plus lookup and search (a smaller request, and
# a small model is less tempted to call the wrong tool). An unread frame gets them all.
FRAME_TOOLS: dict[Frame, tuple[str, ...]] = {
    Frame.feasibility: ("estimate_vram", "recommend_config"),
    Frame.memory: ("estimate_vram",),
    Frame.recommend: ("recommend_config", "estimate_vram", "estimate_cost"),
    Frame.train_time: ("estimate_train_time", "recommend_config"),
    Frame.deadline: ("estimate_train_time", "recommend_config"),
    Frame.cost: ("estimate_cost", "recommend_config", "estimate_train_time"),
    Frame.serving: ("estimate_serving", "recommend_config", "estimate_vram"),
    Frame.spec: (),
    Frame.comparison: ("compare_gpus",),
    Frame.catalog_filter: ("filter_catalog",),
    Frame.guidance: (),
    Frame.chitchat: (),
    Frame.out_of_scope: (),
}
ALWAYS_TOOLS = ("search_guidance", "lookup_catalog")


def _tools_for(frame: Frame, tools: list[Any]) -> list[Any]:
    wanted = set(FRAME_TOOLS.get(frame, ())) | set(ALWAYS_TOOLS)
    chosen = [t for t in tools if t.name in wanted]
    return chosen or list(tools)


def _passages(results) -> list[dict[str, Any]]:
    seen: set[tuple[str, str]] = set()
    out = []
    for o in results:
        if o.name == "search_guidance" and not o.error:
            for p in o.result.get("passages", []):
                key = (p["doc_id"], p["section"])
                if key not in seen:
                    seen.add(key)
                    out.append(p)
    return out


def _evidence(new: list[BaseMessage], shown: list[dict[str, Any]] = ()) -> Evidence:
    """Tool results and retrieved passages; `shown`: the passages as the answer quotes them (whole sections)."""
    results = outcomes(new)
    records = [ToolCallRecord(name=o.name, args=o.args, result=o.result) for o in results]
    passages = [*_passages(results), *shown]
    return Evidence.from_tool_calls(
        records, passages=[(p["doc_id"], f"{p['title']}\n{p['section']}\n{p['text']}") for p in passages]
    )


def _state_summary(ctx: TurnContext) -> str:
    """The conversation state in a few lines, for an LLM that sees only the recent turns."""
    lines = [f"frame: {ctx.frame.value}"]
    for k, v in ctx.slots.items():
        lines.append(f"{k}: {v}")
    if ctx.held:  # withdrawn only if it falls short: check it first
        lines.append(f"held (check first; withdrawn only if it cannot hold the job): {ctx.held}")
    return "\n".join(lines)


def _recommendation(results) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    for o in reversed(results):
        if o.name == "recommend_config" and isinstance(o.result, dict) and not o.result.get("error"):
            options = o.result.get("options") or []
            priced = [x for x in options if x.get("price_per_hour") is not None]
            return ((priced or options)[0] if options else None), options
    return None, []
