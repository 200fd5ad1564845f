"""Memory ("how much VRAM?") and feasibility ("does it fit on my 24 GB / 4× 4090?") answers.

Both call `estimate_vram`. A feasibility question passes its hardware as fit
targets, so the tool also returns, for each target it misses, the cheapest
change that makes the job fit. The first sentence answers the question: the
figure, or yes/no with the margin.
"""

from __future__ import annotations

from typing import Any

from assistant.offline.blocks import Bullets, Composition, Lead, Para
from assistant.offline.context import TurnContext
from assistant.offline.handlers.extras import extra_blocks, plan_extras
from assistant.offline.handlers.base import AnswerCode, Cited, Env, Plan, Results, search, tail
from assistant.offline.workload import Defaults, workload_args
from assistant.understand.slots import Frame
from assistant.offline.handlers.fit_notes import (
    TOPIC,
    FeasCode,
    breakdown_note,
    change_note,
    target_label,
    target_line,
    verdict,
)
from tools.messages import render_change
from tools.notes import Change, Note, NoteCode

SHARDED_COUNTS = [2, 4, 8]


class MemoryCode(NoteCode):
    lead = "memory.lead"
    fits_on = "memory.fits_on"
    too_small = "memory.too_small"
    fits_none = "memory.fits_none"
    gpu_fit = "memory.gpu_fit"
    gpu_nofit = "memory.gpu_nofit"
    sharded = "memory.sharded"


def _vram_args(ctx: TurnContext, d: Defaults) -> dict[str, Any]:
    args = workload_args(ctx, d, training=ctx.training)
    return args


def _topic_search(plan: Plan, ctx: TurnContext, mode: str) -> None:
    en, zh = TOPIC.get(mode, TOPIC["inference"])
    search(plan, zh if ctx.lang == "zh" else en, ctx.lang, k=2, key="guide_mode")
    search(plan, ctx.question[:300] or en, ctx.lang, k=2, key="guide_q")


class MemoryHandler:
    frame = Frame.memory

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        args = _vram_args(ctx, plan.defaults)
        if ctx.gpus:
            args["check_gpus"] = ctx.gpus
        targets = _targets(ctx)
        if targets:
            args["fit_targets"] = targets
        if ctx.has("gpu_count") and ctx.get("gpu_count") > 1 and not targets:
            args["gpus"] = int(ctx.get("gpu_count"))
            if args["mode"] != "inference":
                args["sharding"] = "zero3"
        else:
            args["also_gpus"] = SHARDED_COUNTS
        plan.call("estimate_vram", "main", **args)
        plan_extras(ctx, plan)
        _topic_search(plan, ctx, args["mode"])
        return plan

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        out = Composition()
        main = results.get("main")
        if main is None or main.error:
            out.add(Para([main.error_note or Note.of(AnswerCode.tool_error, error=main.error)] if main else []))
            return out
        v = main.result
        out.add(Lead([Note.of(MemoryCode.lead, model=env.model_name(v["model"]), mode=v["mode"], precision=v["precision"],
                              per_gpu_gib=v["per_gpu_gib"], total_gib=v["total_gib"], gpus=v["gpus"],
                              seq_len=main.args.get("seq_len") if ctx.sources.get("seq_len") in ("user", "pasted") else None)]))
        fits = [Note.of(MemoryCode.gpu_fit, gpu=d["gpu"], usable_gib=d["usable_gib"], headroom_gib=d["headroom_gib"])
                for d in v.get("fit_details", []) if d["fits"]]
        nofit = [Note.of(MemoryCode.gpu_nofit, gpu=d["gpu"], usable_gib=d["usable_gib"]) for d in v.get("fit_details", []) if not d["fits"]]
        if fits:
            out.add(Para([Note.of(MemoryCode.fits_on, gpus=fits)] + ([Note.of(MemoryCode.too_small, gpus=nofit)] if nofit else [])))
        elif v.get("fit_details"):
            items = [Note.of(MemoryCode.sharded, gpus=l["gpus"], layout=l["layout"], per_gpu_gib=l["per_gpu_gib"]) for l in v.get("layouts", [])]
            out.add(Para([Note.of(MemoryCode.fits_none)]), Bullets(None, items) if items else None)
        report = (v.get("fit") or {}).get("targets") or []
        for t in report:
            items = [verdict(t, env.model_name(v["model"]), v["mode"])]
            change = t.get("cheapest_change")
            if not t["fits"] and change:
                items.append(change_note(change, ctx.lang))
            out.add(Para(items))
        note = breakdown_note(v, ctx.lang)
        if note:
            out.add(Para([note]))
        extra, extra_notes = extra_blocks(ctx, plan, results, cited, env)
        out.add(*extra)
        out.add(*tail(ctx, plan, results, cited, tool_notes=[_note(a) for a in v.get("assumptions", [])[:4]] + extra_notes))
        return out


def _targets(ctx: TurnContext) -> list[dict[str, Any]]:
    count = int(ctx.get("gpu_count") or 1)
    targets: list[dict[str, Any]] = [{"gpu": gpu, "count": count} for gpu in ctx.gpus]
    if not targets and ctx.has("available_gib"):
        targets.append({"available_gib": float(ctx.get("available_gib")), "count": count})
    return targets


class FeasibilityHandler:
    frame = Frame.feasibility

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = self.estimate_plan(ctx, env)
        plan_extras(ctx, plan)
        _topic_search(plan, ctx, plan.calls[0].args["mode"])
        return plan

    def estimate_plan(self, ctx: TurnContext, env: Env) -> Plan:
        """Only the estimate (key ``main``) with its defaults and data, no searches: for an answer that brings
        its own passages and composes this one's verdict under them (the guidance answer's "your setup")."""
        plan = Plan()
        args = _vram_args(ctx, plan.defaults)
        targets = _targets(ctx)
        if targets:
            args["fit_targets"] = targets
        else:
            args["also_gpus"] = SHARDED_COUNTS
        plan.call("estimate_vram", "main", **args)
        plan.data["targets"] = bool(targets)
        return plan

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        if not plan.data.get("targets"):
            return MemoryHandler().compose(ctx, plan, results, cited, env)
        out = Composition()
        main = results.get("main")
        if main is None or main.error:
            out.add(Para([main.error_note or Note.of(AnswerCode.tool_error, error=main.error)] if main else []))
            return out
        v = main.result
        report = v.get("fit") or {}
        targets = report.get("targets") or []
        model = env.model_name(v["model"])
        lead: list = []
        if len(targets) == 1:
            t = targets[0]
            lead.append(verdict(t, model, v["mode"]))
            change = t.get("cheapest_change")
            if not t["fits"] and change:
                lead.append(change_note(change, ctx.lang))
            elif not t["fits"]:
                lead.append(Note.of(FeasCode.nothing))
            out.add(Lead(lead))
            others = [c for c in t.get("changes", []) if c["fits"] and c is not change and c != change]
            if others:
                out.add(Para([Note.of(FeasCode.other_changes, changes=[
                    Note.of(FeasCode.change_item, change=render_change(Change.model_validate(c["change"]), ctx.lang), needed_gib=c["per_gpu_gib"])
                    for c in others[:3]])]))
        else:
            fit = [target_label(t) for t in targets if t["fits"]]
            nofit = [target_label(t) for t in targets if not t["fits"]]
            if fit and nofit:
                out.add(Lead([Note.of(FeasCode.some, fit=fit, nofit=nofit)]))
            else:
                out.add(Lead([verdict(targets[0], model, v["mode"])]))
            items = []
            for t in targets:
                items.append(target_line(t))
                change = t.get("cheapest_change")
                if not t["fits"] and change:
                    items.append(change_note(change, ctx.lang, on=target_label(t)))
            out.add(Bullets(None, items))
        shown = (targets[0].get("estimate") if len(targets) == 1 else None) or v
        note = breakdown_note(shown, ctx.lang)
        if note:
            out.add(Para([note]))
        extra, extra_notes = extra_blocks(ctx, plan, results, cited, env)
        out.add(*extra)
        out.add(*tail(ctx, plan, results, cited, tool_notes=[_note(a) for a in v.get("assumptions", [])[:4]] + extra_notes))
        return out


def _note(raw: Any) -> Note:
    return raw if isinstance(raw, Note) else Note.model_validate(raw)
