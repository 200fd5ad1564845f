"""How long training takes, and how many GPUs finish it by a deadline."""

from __future__ import annotations

from typing import Any

from assistant.offline.blocks import Bullets, Composition, Lead, Para
from assistant.offline.context import TurnContext
from assistant.offline.handlers.base import AnswerCode, Cited, Env, Outcome, Plan, Results, search, tail
from assistant.offline.handlers.fit_notes import change_note, target_label, target_line, verdict
from assistant.offline.handlers.rental import compose_recommendation, recommend_plan
from assistant.offline.workload import (
    DEFAULT_FINETUNE_TOKENS,
    DEFAULT_TRAIN_GPU,
    AskCode,
    WORKLOAD_KEYS,
    AssumeCode,
    deadline_hours,
    model_args,
    precision_arg,
)
from assistant.understand.slots import Frame
from tools.messages.format import Formatter
from tools.notes import Change, ChangeKind, Note, NoteCode

TIME_TOPIC = ("training throughput GPU utilization data loading bottleneck", "训练速度 GPU利用率 数据加载 瓶颈")
CLUSTER_TOPIC = ("large model pretraining multi-node InfiniBand NVLink cluster", "大模型预训练 多机多卡 InfiniBand NVLink")


class TimeCode(NoteCode):
    lead = "time.lead"
    flops = "time.flops"
    deadline_lead = "time.deadline_lead"
    deadline_ok = "time.deadline_ok"
    deadline_pick = "time.deadline_pick"  # hours, deadline_hours: the rental pick finishes within the limit
    as_stated = "time.as_stated"  # the time below is for the job as stated, which the named hardware does not hold
    with_change = "time.with_change"  # the time below is for the job with the cheapest change that makes it fit


# The cheapest changes a time estimate can take, and the argument each sets: a context, batch or checkpointing change
# would need a time model of its own (the estimate's 6·N·D does not see them), so those are not timed.
TIMED_CHANGES = {ChangeKind.set_mode: "mode", ChangeKind.set_gpus: "gpus"}


def changed_time_args(results: Results) -> dict[str, Any] | None:
    """The first GPU's time arguments with the cheapest change applied, where nothing named holds the job as
    stated and that change is one a time estimate takes; else None."""
    fit, time = results.get("fit"), results.get("time")
    if fit is None or time is None or fit.error or time.error:
        return None
    targets = (fit.result.get("fit") or {}).get("targets") or []
    if not targets or any(t.get("fits") for t in targets) or not targets[0].get("cheapest_change"):
        return None
    change = Change.model_validate(targets[0]["cheapest_change"]["change"])
    arg = TIMED_CHANGES.get(change.kind)
    if arg is None or change.value is None:
        return None
    args = {**time.args, arg: int(change.value) if arg == "gpus" else change.value}
    if change.kind == ChangeKind.set_mode and change.value == "qlora":
        args.pop("precision", None)  # tools.fit tries QLoRA with no precision (a 4-bit base, 16-bit compute), so is it timed
    return args


TIMED_GPUS = 3  # "on a 4090 or an A100 or an H100?": each named GPU gets its time (and its fit), in the order named


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


def train_args(ctx: TurnContext, plan: Plan, env: Env | None = None, *, assume_gpu: bool = True) -> dict[str, Any]:
    """The time estimate's arguments for the state. ``assume_gpu=False``: with no GPU named the default GPU is still
    timed, but unstated — the answer leads with a rental pick and never shows the default's figures."""
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
        if assume_gpu:
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


def _timed_blocks(ctx: TurnContext, results: Results, env: Env) -> tuple[list, Outcome | None]:
    """The time on each named GPU that holds the job, the verdict (and its cheapest change) on each that does not.
    The lead is the first GPU's time where it fits; where nothing named fits, the verdict comes first. Also returns
    the time the answer leads with: its assumptions (MFU, precision) are the ones the answer states."""
    fit = results.get("fit")
    verdicts = {t["target"].get("gpu"): t for t in ((fit.result.get("fit") or {}).get("targets") or [])} if fit and not fit.error else {}
    times = [o for o in (results.get(k) for k in ["time", *(f"time{n}" for n in range(2, TIMED_GPUS + 1))]) if o and not o.error]
    fits = [o for o in times if verdicts.get(o.args.get("gpu"), {}).get("fits", True)]
    lead_time = fits[0] if fits else None
    lines: list = []
    for o in times:
        v = verdicts.get(o.args.get("gpu"))
        if v is not None:
            lines.append(target_line(v))  # "can I … and how long?": the fit, yes or no, on each GPU named
            if not v["fits"] and v.get("cheapest_change"):
                lines.append(change_note(v["cheapest_change"], ctx.lang, on=target_label(v) if len(times) > 1 else None))
        if o is not lead_time and (v is None or v["fits"]):
            lines.append(time_lead(o, env))
    if fits:
        blocks: list = [Lead([time_lead(fits[0], env)])]
    else:  # nothing named holds it: say so first, then what the job as stated would take
        first = verdicts.get(times[0].args.get("gpu")) if times else None
        lead = [verdict(first, env.model_name(fit.result["model"]), fit.result["mode"])] if first else []
        if first and first.get("cheapest_change"):
            lead.append(change_note(first["cheapest_change"], ctx.lang))
        lines = lines[1 + bool(first and first.get("cheapest_change")):] if first else lines  # said in the lead
        blocks = [Lead(lead)] if lead else []
        changed = results.get("time_change")
        if first and changed is not None and not changed.error:
            blocks.append(Para([Note.of(TimeCode.with_change), time_lead(changed, env)]))
        if times:
            blocks.append(Para([Note.of(TimeCode.as_stated), time_lead(times[0], env)] if first else [time_lead(times[0], env)]))
    for key in (f"time{n}" for n in range(2, TIMED_GPUS + 1)):  # a GPU named but not timed says why
        failed = results.get(key)
        if failed is not None and failed.error:
            v = verdicts.get(failed.args.get("gpu"))
            lines.extend([target_line(v)] if v is not None else [])
            lines.append(failed.error_note or Note.of(AnswerCode.tool_error, error=failed.error))
    if lines:
        blocks.append(Bullets(None, lines))
    return blocks, (fits[0] if fits else (times[0] if times else None))


class TrainTimeHandler:
    frame = Frame.train_time

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        args = train_args(ctx, plan, env)
        if "gpus" not in args:
            args["gpus"] = 1
            plan.defaults.assume(Note.of(AssumeCode.gpus, gpus=1))
        plan.call("estimate_train_time", "time", **args)
        for n, gpu in enumerate(ctx.gpus[1:TIMED_GPUS], 2):
            plan.call("estimate_train_time", f"time{n}", **{**args, "gpu": gpu})
        if ctx.gpus:
            # a time on hardware that cannot hold the job is no answer: the same workload, checked on each named GPU
            fit = {k: args[k] for k in WORKLOAD_KEYS if k in args}
            fit.update({slot: int(ctx.get(slot)) for slot in ("seq_len", "batch_size", "lora_rank") if ctx.has(slot)})
            fit["fit_targets"] = [{"gpu": gpu, "count": int(args["gpus"])} for gpu in ctx.gpus[:TIMED_GPUS]]
            plan.call("estimate_vram", "fit", **fit)
        if ctx.budget or ctx.has("billing") or ctx.has("providers") or ctx.has("instance"):
            recommend_plan(ctx, plan, job_tokens=args["tokens"])
        en, zh = CLUSTER_TOPIC if args["tokens"] >= 1e10 else TIME_TOPIC
        search(plan, zh if ctx.lang == "zh" else en, ctx.lang, key="guide_time")
        return plan

    def follow_up(self, ctx: TurnContext, plan: Plan, results: Results, env: Env) -> None:
        """Nothing named holds the job: the time of the change that makes it fit, on the same hardware."""
        args = changed_time_args(results)
        if args is not None:
            plan.call("estimate_train_time", "time_change", **args)

    def compose(self, ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env) -> Composition:
        out = Composition()
        t = results.get("time")
        if t is None or t.error:
            out.add(Para([t.error_note or Note.of(AnswerCode.tool_error, error=t.error)] if t else []))
            return out
        blocks, led = _timed_blocks(ctx, results, env)
        r = (led or t).result  # the FLOPs and the assumptions of the time the answer leads with
        out.add(*blocks)
        out.add(Para([Note.of(TimeCode.flops, flops=r["flops"], tokens_text=Formatter(ctx.lang).big(t.args["tokens"] * t.args.get("epochs", 1)))]))
        if results.get("rec"):
            rec = compose_recommendation(ctx, plan, results, cited, env)
            out.blocks.extend(rec.blocks)
            return out
        notes = [Note.model_validate(a) for a in r.get("assumptions", [])[:3]]
        out.add(*tail(ctx, plan, results, cited, tool_notes=notes))
        return out


UNSIZED_DEADLINE_HOURS = 12.0  # "overnight", "by the morning", "明早": a limit with no length, stated as assumed


class DeadlineHandler:
    """How many of a named GPU finish by the limit; with no hardware named, what to rent that does (the cheapest
    whole job among the options fast enough, from the recommender), the default GPU's count not shown."""

    frame = Frame.deadline

    def plan(self, ctx: TurnContext, env: Env) -> Plan:
        plan = Plan()
        renting = not (ctx.gpu or ctx.has("instance"))
        args = train_args(ctx, plan, env, assume_gpu=not renting)
        hours = deadline_hours(ctx, plan.defaults, env.now())
        if not hours:
            hours = UNSIZED_DEADLINE_HOURS
            plan.defaults.assume(Note.of(AssumeCode.deadline_unsized, hours=hours), Note.of(AskCode.deadline))
        args["deadline_hours"] = hours
        if "gpus" not in args:
            args["gpus"] = 1
        plan.call("estimate_train_time", "time", **args)
        if renting or ctx.budget or ctx.has("billing") or ctx.has("providers"):
            workload = {k: args[k] for k in WORKLOAD_KEYS if k in args}
            recommend_plan(ctx, plan, workload=workload, deadline_hours=hours, searches=False,
                           hardware=not renting)
            plan.data["renting"] = renting
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
        rec = results.get("rec")
        if plan.data.get("renting") and rec is not None and not rec.error and rec.result.get("options"):
            return self._compose_pick(ctx, plan, results, cited, env, deadline)
        if plan.data.get("renting"):  # nothing to rent meets the limit: the count below is on the default GPU, said so
            plan.defaults.assume(Note.of(AssumeCode.gpu, gpu=r["gpu"]))
        needed = r.get("gpus_for_deadline")
        at = r.get("at_deadline") or {}
        if deadline and needed and needed > r["gpus"]:
            out.add(Lead([Note.of(TimeCode.deadline_lead, needed=needed, gpu=r["gpu"], deadline_hours=deadline,
                                  hours_needed=at.get("hours", r["hours"] * r["gpus"] / needed))]))
        elif deadline:
            out.add(Lead([Note.of(TimeCode.deadline_ok, gpus=r["gpus"], gpu=r["gpu"], deadline_hours=deadline, hours=r["hours"])]))
        out.add(Para([time_lead(t, env)]))
        if rec is not None:
            out.blocks.extend(compose_recommendation(ctx, plan, results, cited, env).blocks)
            return out
        notes = [Note.model_validate(a) for a in r.get("assumptions", [])[:3]]
        out.add(*tail(ctx, plan, results, cited, tool_notes=notes))
        return out

    @staticmethod
    def _compose_pick(ctx: TurnContext, plan: Plan, results: Results, cited: Cited, env: Env,
                      deadline: float) -> Composition:
        """The recommender's pick leads, with the time it takes against the limit; then its table and tail."""
        options = results.get("rec").result["options"]
        top = next((o for o in options if o.get("price_per_hour") is not None), options[0])
        extra = [Note.of(TimeCode.deadline_pick, hours=top["job_hours"], deadline_hours=deadline)] if top.get("job_hours") else []
        out = compose_recommendation(ctx, plan, results, cited, env, lead_extra=extra)
        t = results.get("time")
        out.blocks.insert(1, Para([Note.of(TimeCode.flops, flops=t.result["flops"],
                                           tokens_text=Formatter(ctx.lang).big(t.args["tokens"] * t.args.get("epochs", 1)))]))
        return out
