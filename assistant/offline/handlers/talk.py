"""Guidance (whole sections from the documents), chit-chat and out-of-scope turns."""

from __future__ import annotations

from assistant.offline.blocks import Composition, Lead, Para, Section
from assistant.offline.context import TurnContext
from assistant.offline.guidance import relevance
from assistant.offline.handlers.base import AnswerCode, Cited, Env, Plan, Results
from assistant.offline.handlers.memory import FeasibilityHandler
from assistant.offline.sections import first_sentence, whole_section
from assistant.understand.slots import Frame
from tools.notes import Note, NoteCode

SECTIONS_SHOWN = 2


class ChatCode(NoteCode):
    greeting = "chat.greeting"
    thanks = "chat.thanks"
    out_of_scope = "chat.out_of_scope"


class GuidanceHandler:
    frame = Frame.guidance

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        plan.call("search_guidance", "guide", query=ctx.question[:400] or "GPU server", k=4, lang=ctx.lang)
        if _setup_stated(ctx):
            # "3090 24G, llama-7b LoRA, OOM — what am I doing wrong?": the why comes from guidance, and the
            # estimate for their setup says whether the memory should have been enough
            setup = FeasibilityHandler().estimate_plan(ctx, env)
            plan.calls += setup.calls
            plan.defaults = setup.defaults
            plan.data["setup"] = setup.data
        return plan

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        out = Composition()
        passages = [p for p in results.passages() if ":" not in p["doc_id"]] or results.passages()
        if not passages:
            out.add(Para([Note.of(AnswerCode.guidance_none)]))
            return out
        # the best one or two sections, whole; the second only when it is about the question too
        shown = passages[:1] + [p for p in passages[1:3] if relevance(p, ctx.question) >= max(2, relevance(passages[0], ctx.question) // 2)][: SECTIONS_SHOWN - 1]
        direct = None
        for p in shown:
            body = whole_section(p)
            if direct is None:
                direct = first_sentence(body)
            out.add(Section(title=p["section"].split(">")[-1].strip() or p["title"], body=body, marker=cited.marker(p, shown=body)))
        if direct:
            out.blocks.insert(0, Lead([f"**{direct}**"]))
        if "setup" in plan.data and results.get("main") is not None and not results.get("main").error:
            setup_plan = Plan(calls=plan.calls, defaults=plan.defaults, data=plan.data["setup"])
            numbers = FeasibilityHandler().compose(ctx, setup_plan, results, cited, env)
            out.add(Para([Note.of(GuideCode.your_setup)]))
            # the estimate's lead becomes a paragraph: the guidance's direct answer stays the first sentence
            out.add(*[Para(b.items) if isinstance(b, Lead) else b for b in numbers.blocks])
        return out


class GuideCode(NoteCode):
    your_setup = "guide.your_setup"


def _setup_stated(ctx: TurnContext) -> bool:
    """This turn states a workload (model or size) and the hardware it ran on: a troubleshooting question."""
    stated = set(ctx.stated)
    return bool(stated & {"model", "params", "model_name"}) and bool(stated & {"gpus", "available_gib", "instance"})


class ChitchatHandler:
    frame = Frame.chitchat

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        return Plan()

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        thanks = any(w in ctx.question.lower() for w in ("thank", "thx", "谢", "感谢", "cheers"))
        return Composition([Para([Note.of(ChatCode.thanks if thanks else ChatCode.greeting)])])


class OutOfScopeHandler:
    frame = Frame.out_of_scope

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        return Plan()

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        return Composition([Para([Note.of(ChatCode.out_of_scope)])])
