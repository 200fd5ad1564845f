"""The whole offline answer: notices first, then the handler's answer, then the sources; rendered in the turn's language."""

from __future__ import annotations

from assistant.offline.blocks import Composition, Para, render
from assistant.offline.context import TurnContext
from assistant.offline.handlers import Cited, Env, Plan, Results
from assistant.understand.slots import Frame
from tools.messages.format import provider_names
from tools.notes import Note

NEEDS_MODEL = {Frame.memory, Frame.feasibility, Frame.train_time, Frame.deadline, Frame.serving}


def compose_answer(handler, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> str:
    out = Composition()
    if ctx.problems:
        out.add(Para(list(ctx.problems) + list(ctx.notices)))
        return render(out.blocks, ctx.lang)
    if ctx.unknown_model and not ctx.has_workload and ctx.frame in NEEDS_MODEL:
        out.add(Para([Note.of("input.unknown_model", name=ctx.unknown_model, suggestions=ctx.model_suggestions)]))
        return render(out.blocks, ctx.lang)
    if ctx.unknown_gpu and not ctx.gpus and ctx.frame in (Frame.spec, Frame.comparison):
        out.add(Para([Note.of("input.unknown_gpu", name=ctx.unknown_gpu, suggestions=ctx.gpu_suggestions)]))
        return render(out.blocks, ctx.lang)
    body = handler.compose(ctx, plan, results, cited, env)
    out.blocks.extend(body.blocks)
    if ctx.notices:  # said right after the direct answer: the first sentence answers the question
        out.blocks.insert(min(1, len(out.blocks)), Para(list(ctx.notices)))
    out.add(cited.block())
    with provider_names(env.display_names()):  # tool notes name providers by key: the reader gets their names
        return render(out.blocks, ctx.lang)
