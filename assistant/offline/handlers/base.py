"""What every frame handler shares: the plan type, the tool results of a turn, and the answer's common tail.

A handler is two pure steps: `plan(ctx)` -> the tool calls (with the defaults it
assumed), `compose(ctx, plan, results)` -> blocks. The tail every computing answer
ends with — assumptions, caveats, the one question, sources — is built here once.
"""

from __future__ import annotations

import datetime as dt

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, Protocol

from pydantic import BaseModel

from assistant.offline.blocks import Bullets, Composition, Para, Section, Sources
from assistant.offline.context import TurnContext
from assistant.offline.guidance import best_sentence, relevance, written_for
from assistant.offline.sections import whole_section
from assistant.offline.workload import Defaults
from assistant.understand.slots import Frame
from tools.notes import Note, NoteCode


class AnswerCode(NoteCode):
    assumptions = "answer.assumptions"
    caveats = "answer.caveats"
    sources = "answer.sources"
    rejected = "answer.rejected"
    alternatives = "answer.alternatives"
    breakdown = "answer.breakdown"
    part = "answer.part"
    tool_error = "answer.tool_error"
    from_guidance = "answer.from_guidance"
    guidance_none = "answer.guidance_none"


@dataclass
class ToolCall:
    name: str
    args: dict[str, Any]
    key: str = ""  # which result this is for the handler ("main", "alt", "guide" …)


@dataclass
class Plan:
    calls: list[ToolCall] = field(default_factory=list)
    defaults: Defaults = field(default_factory=Defaults)
    data: dict[str, Any] = field(default_factory=dict)  # what compose needs to know about the plan

    def call(self, _tool: str, _key: str = "", **args: Any) -> None:
        self.calls.append(ToolCall(_tool, args, _key or _tool))


@dataclass
class Outcome:
    name: str
    key: str
    args: dict[str, Any]
    result: dict[str, Any]  # the JSON form
    artifact: Any = None  # the typed result (pydantic model) when the tool returned one

    @property
    def error(self) -> str | None:
        return self.result.get("error") if isinstance(self.result, dict) else None

    @property
    def error_note(self) -> Note | None:
        note = self.result.get("error_note") if isinstance(self.result, dict) else None
        return Note.model_validate(note) if isinstance(note, dict) else None

    def typed(self, model: type[BaseModel]) -> Any:
        if isinstance(self.artifact, model):
            return self.artifact
        if self.error:
            return None
        try:
            return model.model_validate(self.result)
        except Exception:  # a result of another shape (an older tool): the handler treats it as missing
            return None


@dataclass
class Results:
    outcomes: list[Outcome]

    def get(self, key: str) -> Outcome | None:
        return next((o for o in self.outcomes if o.key == key), None)

    def all(self, name: str) -> list[Outcome]:
        return [o for o in self.outcomes if o.name == name]

    def passages(self) -> list[dict[str, Any]]:
        seen: set[tuple[str, str]] = set()
        out = []
        for o in self.outcomes:
            if o.name == "search_guidance" and not o.error:
                for p in o.result.get("passages", []):
                    k = (p["doc_id"], p["section"])
                    if k not in seen:
                        seen.add(k)
                        out.append(p)
        return out


@dataclass
class Cited:
    """Passages in citation order; `[n]` markers index into it (1-based)."""

    passages: list[dict[str, Any]] = field(default_factory=list)

    def marker(self, passage: dict[str, Any], *, shown: str | None = None) -> int:
        """The passage's number; `shown` is the text the answer prints for it (a whole section is more than the
        retrieved chunk), so the verifier checks the answer's figures against what is actually quoted."""
        for n, p in enumerate(self.passages, 1):
            if p["doc_id"] == passage["doc_id"] and p["section"] == passage["section"]:
                if shown and shown not in p.get("text", ""):
                    self.passages[n - 1] = {**p, "text": f"{p.get('text', '')}\n{shown}"}
                return n
        self.passages.append({**passage, "text": f"{passage.get('text', '')}\n{shown}"} if shown else passage)
        return len(self.passages)

    def block(self) -> Sources:
        return Sources([(n, p["doc_id"], p["title"], p["section"]) for n, p in enumerate(self.passages, 1)])


def search(plan: "Plan", query: str, lang: str, k: int = 2, key: str = "") -> None:
    plan.call("search_guidance", key or f"guide{len(plan.calls)}", query=query, k=k, lang=lang)


@dataclass
class Env:
    """What handlers may consult besides the turn: the catalog (display names) and the clock (deadlines, price age).

    `today` fixes the date (tests, `Settings.today`): the clock then reads that day's start. None reads the live
    clock at each answer, so that a server started on Monday still counts Friday's deadline from Thursday."""

    catalog: Any
    today: Any = None
    # (catalog, its display names): built on first use. The catalog is immutable for an Env's life (one loaded
    # catalog object per brain; a catalog change loads a new object), so the names are built once per catalog
    # object, not per answer; keyed by the object itself should a caller ever hand the Env another one.
    _names: tuple[Any, Mapping[str, tuple[str, str | None]]] | None = field(default=None, init=False, repr=False,
                                                                             compare=False)

    def now(self) -> dt.datetime:
        return dt.datetime.combine(self.today, dt.time()) if self.today is not None else dt.datetime.now()

    def date(self) -> dt.date:
        return self.now().date()

    def model_name(self, key: str | None) -> str:
        m = self.catalog.models.get(key) if key else None
        return m.name if m else (key or "")

    def provider(self, key: str) -> Any:
        return self.catalog.providers.get(key)

    def display_names(self) -> Mapping[str, tuple[str, str | None]]:
        """key -> (name, name_zh) of every provider, for tools.messages.format.provider_names (read-only, shared)."""
        cached = self._names
        if cached is None or cached[0] is not self.catalog:
            names = {k: (p.name or k, getattr(p, "name_zh", None)) for k, p in self.catalog.providers.items()}
            cached = self._names = (self.catalog, MappingProxyType(names))
        return cached[1]

    def provider_label(self, key: str, lang: str) -> str:
        """The provider's name as the reader knows it (Chinese clouds by their Chinese name in a Chinese answer)."""
        p = self.provider(key)
        if p is None:
            return key
        return (getattr(p, "name_zh", None) or p.name) if lang == "zh" else (p.name or key)


class Handler(Protocol):
    frame: Frame

    def plan(self, ctx: TurnContext, env: Env) -> Plan: ...

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition: ...


def concept_section(ctx: TurnContext, results: Results, cited: Cited) -> list:
    """When the turn also asks a concept ("FP8 是什么？哪些卡支持？"), the best guidance section, whole."""
    if not ({"guidance", "howto"} & set(ctx.cues)):
        return []
    passages = [p for p in results.passages() if ":" not in p["doc_id"]]
    if not passages:
        return []
    best = max(passages, key=lambda p: relevance(p, ctx.question))
    body = whole_section(best)
    return [Section(title=best["section"].split(">")[-1].strip() or best["title"], body=body, marker=cited.marker(best, shown=body))]


def tail(ctx: TurnContext, plan: Plan, results: Results, cited: Cited, *, tool_notes: list[Note] = (),
         caveats: list[Any] = (), max_caveat_passages: int = 2) -> list:
    """Assumptions (the plan's, then the tools'), caveats (tool warnings + the best guidance sentence per topic), the question."""
    blocks: list = concept_section(ctx, results, cited) if ctx.frame.value not in ("guidance",) else []
    assumptions = list(plan.defaults.assumptions) + [n for n in tool_notes if n not in plan.defaults.assumptions]
    if assumptions:
        blocks.append(Bullets(Note.of(AnswerCode.assumptions), assumptions[:7]))
    items: list[Any] = list(caveats)
    # catalog cards (gpu:…, instances:…) restate the tool results the answer already shows: guidance only
    # … and none written for another model size ("Fine-tuning a 7B LLM" quoted about a 32B model) or kind
    guides = [p for p in results.passages() if ":" not in p["doc_id"] and written_for(p, ctx.workload_params, ctx.workload_kind)]
    mode = next((c.args["mode"] for c in plan.calls if c.args.get("mode")), None)  # the workload's, as planned
    for p in guides[:max_caveat_passages]:
        sentence = best_sentence(p, ctx.question, mode)
        if sentence:
            items.append(f"{sentence} [{cited.marker(p)}]")
    if items:
        blocks.append(Bullets(Note.of(AnswerCode.caveats), items[:6]))
    if plan.defaults.question is not None:
        blocks.append(Para([plan.defaults.question]))
    return blocks
