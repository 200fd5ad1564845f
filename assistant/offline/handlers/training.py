"""How long training takes, and how many GPUs finish it by a deadline."""

from __future__ import annotations

from typing import Any

from assistant.offline.blocks import Composition, Lead, Para
from assistant.offline.context import TurnContext
from assistant.offline.handlers.base import AnswerCode, Cited, Env, Outcome, Plan, Results, search, tail
from assistant.offline.workload import (
    DEFAULT_FINETUNE_TOKENS,
    DEFAULT_TRAIN_GPU,
    AskCode,
    AssumeCode,
    deadline_hours,
    model_args,
    precision_arg,
)
from assistant.understand.slots import Frame
from tools.messages.format import Formatter
from tools.notes import Note, NoteCode

TIME_TOPIC = ("training throughput GPU utilization data loading bottleneck", "训练速度 GPU利用率 数据加载 瓶颈")
CLUSTER_TOPIC = ("large model pretraining multi-node InfiniBand NVLink cluster", "大模型预训练 多机多卡 InfiniBand NVLink")


class TimeCode(NoteCode):
    lead = "time.lead"
    flops = "time.flops"
    deadline_lead = "time.deadline_lead"
    deadline_ok = "time.deadline_ok"


def _instance_gpu(ctx: TurnContext, env: Env) -> tuple[str, int] | None:
    """The GPU and count of the instance the user named ('train it on a p4de.24xlarge')."""
    if not ctx.has("instance"):
        return None
    provider, _, name = ctx.get("instance").partition("/")
    for inst in env.catalog.instances:
        if inst.provider == provider and inst.instance == name and inst.gpu_count >= 1:
            return inst.gpu, int(inst.gpu_count)
    return None


def time_lead(t: Outcome, env: Env) -> Note:
    """How long the estimate says training takes, on how many GPUs, at what utilisation (the time answer's lead)."""
    r = t.result
    return Note.of(TimeCode.lead, model=env.model_name(r["model"]), mode=t.args.get("mode"), gpus=r["gpus"], gpu=r["gpu"],
                   hours=r["hours"], days=r["days"], gpu_hours=r["gpu_hours"], mfu=r["mfu"])


def train_args(ctx: TurnContext, plan: Plan, env: Env | None = None) -> dict[str, Any]:
    d = plan.defaults
    args = model_args(ctx, d)
    mode = ctx.mode
    if mode == "finetune":
        d.assume(Note.of(AssumeCode.mode_finetune, mode="lora"), Note.of(AskCode.mode))
        mode = "lora"
    elif mode in (None, "inference"):
        mode = "full"
        d.assume(Note.of(AssumeCode.mode_default, mode="full"))
    args["mode"] = mode
    precision = precision_arg(ctx, d, mode)
    if precision:
        args["precision"] = precision
    from_instance = _instance_gpu(ctx, env) if env is not None else None
    if ctx.gpu:
        args["gpu"] = ctx.gpu
    elif from_instance:
        args["gpu"], args["gpus"] = from_instance
    else:
        args["gpu"] = DEFAULT_TRAIN_GPU
        d.assume(Note.of(AssumeCode.gpu, gpu=DEFAULT_TRAIN_GPU), Note.of(AskCode.gpu))
    if ctx.has("gpu_count"):
        args["gpus"] = int(ctx.get("gpu_count"))
    if ctx.has("tokens"):
        args["tokens"] = float(ctx.get("tokens"))
    else:
        args["tokens"] = DEFAULT_FINETUNE_TOKENS
        d.assume(Note.of(AssumeCode.tokens, tokens=DEFAULT_FINETUNE_TOKENS), Note.of(AskCode.tokens))
    if ctx.has("epochs"):
        args["epochs"] = float(ctx.get("epochs"))
    return args


class TrainTimeHandler:
    frame = Frame.train_time

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        args = train_args(ctx, plan, env)
        if "gpus" not in args:
            args["gpus"] = 1
            plan.defaults.assume(Note.of(AssumeCode.gpus, gpus=1))
        plan.call("estimate_train_time", "time", **args)
        if ctx.budget or ctx.has("billing") or ctx.has("providers") or ctx.has("instance"):
            from assistant.offline.handlers.recommend import recommend_plan

            recommend_plan(ctx, plan)
        en, zh = CLUSTER_TOPIC if args["tokens"] >= 1e10 else TIME_TOPIC
        search(plan, zh if ctx.lang == "zh" else en, ctx.lang, key="guide_time")
        return plan

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        out = Composition()
        t = results.get("time")
        if t is None or t.error:
            out.add(Para([t.error_note or Note.of(AnswerCode.tool_error, error=t.error)] if t else []))
            return out
        r = t.result
        out.add(Lead([time_lead(t, env)]))
        out.add(Para([Note.of(TimeCode.flops, flops=r["flops"], tokens_text=Formatter(ctx.lang).big(t.args["tokens"] * t.args.get("epochs", 1)))]))
        if results.get("rec"):
            from assistant.offline.handlers.recommend import compose_recommendation

            rec = compose_recommendation(ctx, plan, results, cited, env)
            out.blocks.extend(rec.blocks)
            return out
        notes = [Note.model_validate(a) for a in r.get("assumptions", [])[:3]]
        out.add(*tail(ctx, plan, results, cited, tool_notes=notes))
        return out


class DeadlineHandler:
    frame = Frame.deadline

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        args = train_args(ctx, plan, env)
        hours = deadline_hours(ctx, plan.defaults, env.today)
        if hours:
            args["deadline_hours"] = hours
        if "gpus" not in args:
            args["gpus"] = 1
        plan.call("estimate_train_time", "time", **args)
        en, zh = CLUSTER_TOPIC
        search(plan, zh if ctx.lang == "zh" else en, ctx.lang, key="guide_time")
        return plan

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        out = Composition()
        t = results.get("time")
        if t is None or t.error:
            out.add(Para([t.error_note or Note.of(AnswerCode.tool_error, error=t.error)] if t else []))
            return out
        r = t.result
        deadline = t.args.get("deadline_hours")
        needed = r.get("gpus_for_deadline")
        at = r.get("at_deadline") or {}
        if deadline and needed and needed > r["gpus"]:
            out.add(Lead([Note.of(TimeCode.deadline_lead, needed=needed, gpu=r["gpu"], deadline_hours=deadline,
                                  hours_needed=at.get("hours", r["hours"] * r["gpus"] / needed))]))
        elif deadline:
            out.add(Lead([Note.of(TimeCode.deadline_ok, gpus=r["gpus"], gpu=r["gpu"], deadline_hours=deadline, hours=r["hours"])]))
        out.add(Para([time_lead(t, env)]))
        notes = [Note.model_validate(a) for a in r.get("assumptions", [])[:3]]
        out.add(*tail(ctx, plan, results, cited, tool_notes=notes))
        return out
