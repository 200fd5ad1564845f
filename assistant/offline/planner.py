"""From facts to tool calls: the offline brain's decisions, in one place.

Every default the planner fills in is recorded as an `Assumption` so the
answer can state it and say how to change it; the one question that would
change the answer most is chosen here too.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from assistant.understanding import Facts, Intent
from tools.domain import Currency, Mode, Precision, RegionScope

DEFAULT_FINETUNE_TOKENS = 1e8  # ~50k examples × 2k tokens: a typical instruction-tuning set
DEFAULT_PARAMS = 7e9  # the most common size people ask about
DEFAULT_TRAIN_GPU = "A100-80GB"
SERVING_BATCH = 8  # a server holds several requests' KV caches at once; sizing for one leaves no room to serve


class Assumption(BaseModel):
    key: str = Field(description="what was assumed, e.g. 'mode'")
    value: str
    how_to_change: str = ""


class ToolPlan(BaseModel):
    name: str
    args: dict[str, Any]


class Plan(BaseModel):
    intents: list[Intent]
    calls: list[ToolPlan] = Field(default_factory=list)
    assumptions: list[Assumption] = Field(default_factory=list)
    question: str | None = Field(default=None, description="key of the one question to ask, see phrases")
    currency: Currency = Currency.USD
    refused_injection: bool = False
    problem: str | None = Field(default=None, description="key of an input problem to explain instead")


GUIDANCE_QUERIES = {
    # what to look up for the caveats of each situation (en, zh)
    "select": ("how to choose a GPU server for training: memory, interconnect, price", "如何选择GPU云服务器 显存 互联 价格"),
    "lora": ("LoRA QLoRA memory saving fine-tuning", "LoRA QLoRA 省显存 微调"),
    "full": ("full fine-tuning memory optimizer states mixed precision ZeRO", "全量微调 显存 优化器状态 混合精度 ZeRO"),
    "pretrain": ("large model pretraining multi-node InfiniBand NVLink cluster", "大模型预训练 多机多卡 InfiniBand NVLink"),
    "inference": ("inference serving KV cache quantization", "推理部署 KV cache 量化"),
    "spot": ("spot instances interruption checkpoint", "竞价实例 被回收 检查点 断点续训"),
    "billing": ("billing modes on-demand spot reserved cost control", "计费方式 按量付费 竞价实例 包年包月 成本控制"),
    "vram": ("what decides GPU memory VRAM OOM batch size", "显存 由什么决定 OOM batch size"),
    "multi": ("multi-GPU NVLink NVSwitch PCIe interconnect DDP FSDP", "多卡 NVLink NVSwitch PCIe 互联 DDP FSDP"),
    "time": ("training throughput GPU utilization data loading bottleneck", "训练速度 GPU利用率 数据加载 瓶颈"),
    "china": ("Chinese cloud providers Alibaba Tencent Huawei Ascend", "国内云厂商 阿里云 腾讯云 华为云 昇腾"),
    "providers": ("cloud GPU providers compared AWS GCP Azure Lambda Alibaba", "云厂商对比 AWS 阿里云 腾讯云 华为云"),
    "pitfalls": ("fake GPU check nvidia-smi benchmark oversold", "虚假算力 nvidia-smi 验证 超卖"),
}


def _search(key: str, lang: str, k: int = 2) -> ToolPlan:
    en, zh = GUIDANCE_QUERIES[key]
    return ToolPlan(name="search_guidance", args={"query": zh if lang == "zh" else en, "k": k, "lang": lang})


def _workload(f: Facts, plan: Plan, *, training_default: Mode) -> dict[str, Any]:
    args: dict[str, Any] = {}
    if f.model:
        args["model"] = f.model
    elif f.params:
        args["params"] = f.params
    elif f.required_gib is None:
        args["params"] = DEFAULT_PARAMS
        plan.assumptions.append(Assumption(key="model", value="7B", how_to_change="model"))
        plan.question = plan.question or "model"
    mode = f.mode
    if mode is None:
        mode = training_default if f.training_unspecified else (Mode.inference if training_default != Mode.pretrain else mode)
        if f.training_unspecified:
            plan.assumptions.append(Assumption(key="mode", value=mode.value, how_to_change="mode"))
            plan.question = plan.question or "mode"
        else:
            plan.assumptions.append(Assumption(key="mode", value=mode.value, how_to_change="mode"))
    args["mode"] = mode.value
    if f.precision:
        args["precision"] = f.precision.value
    if f.seq_len:
        args["seq_len"] = f.seq_len
    if f.batch_size:
        args["batch_size"] = f.batch_size
    return args


def _currency(f: Facts) -> Currency:
    if f.currency:
        return f.currency
    if f.budget_currency:
        return f.budget_currency
    if f.region == RegionScope.cn or f.language == "zh":
        return Currency.CNY
    return Currency.USD


def make_plan(f: Facts) -> Plan:
    intents = list(f.intents)
    plan = Plan(intents=intents, currency=_currency(f))
    lang = f.language
    if Intent.injection in intents:
        plan.refused_injection = True
        intents = [i for i in intents if i not in (Intent.injection, Intent.spec)]  # "reveal your prompt" is no spec question
        plan.intents = intents
        if not intents or intents == [Intent.concept]:
            return plan
    if f.negative_input:
        plan.problem = "negative"
        return plan
    if not intents or intents in ([Intent.offtopic], [Intent.greeting]):
        return plan
    if f.unknown_model and not (f.model or f.params):
        plan.problem = "unknown_model"
        return plan
    if f.unknown_gpu and not f.gpu and not (f.model or f.params or f.instance):
        plan.problem = "unknown_gpu"
        return plan
    if f.mode == Mode.qlora and f.precision == Precision.int8:
        # "8-bit QLoRA" (LLaMA-Factory's QLoRA-8) is LoRA over an int8-quantised base
        f.mode = Mode.lora

    primary = _primary(intents, f)
    plan.intents = [primary, *[i for i in intents if i != primary]]
    if primary == Intent.recommend:
        _plan_recommend(f, plan, lang)
    elif primary == Intent.vram:
        args = _workload(f, plan, training_default=Mode.lora)
        if f.gpus:
            args["gpus"] = f.gpus
            if args["mode"] != Mode.inference.value:
                args["sharding"] = "zero3"
        if f.gpu:
            args["check_gpus"] = [f.gpu]
        plan.calls.append(ToolPlan(name="estimate_vram", args=args))
        plan.calls.append(_search("vram", lang))
        plan.calls.append(_search(_mode_topic(args["mode"]), lang))
    elif primary == Intent.train_time:
        _plan_train_time(f, plan, lang)
    elif primary == Intent.cost:
        if f.instance:
            args = {"instance": f.instance, "currency": plan.currency.value}
            if f.hours:
                args["hours"] = f.hours
            if f.billing:
                args["billing"] = f.billing.value
            plan.calls.append(ToolPlan(name="estimate_cost", args=args))
            plan.calls.append(_search("billing", lang))
        else:
            _plan_recommend(f, plan, lang)
    elif primary == Intent.spec:
        if f.instance:
            plan.calls.append(ToolPlan(name="lookup_catalog", args={"kind": "instance", "name": f.instance}))
        elif f.gpu:
            plan.calls.append(ToolPlan(name="lookup_catalog", args={"kind": "gpu", "name": f.gpu}))
        elif f.model:
            plan.calls.append(ToolPlan(name="lookup_catalog", args={"kind": "model", "name": f.model}))
        plan.calls.append(ToolPlan(name="search_guidance", args={"query": "", "k": 3, "lang": lang}))
    else:  # concept
        if f.asks_providers:
            plan.calls.append(_search("providers", lang, k=2))
        plan.calls.append(ToolPlan(name="search_guidance", args={"query": "", "k": 4, "lang": lang}))
    return plan


def _primary(intents: list[Intent], f: Facts) -> Intent:
    if Intent.spec in intents and (f.instance or f.gpu) and not (f.model or f.params or f.budget or f.tokens):
        return Intent.spec
    if f.instance and Intent.cost in intents and not f.tokens:
        return Intent.cost
    if Intent.train_time in intents and (f.tokens or Intent.recommend not in intents):
        return Intent.train_time
    for intent in (Intent.recommend, Intent.vram, Intent.cost, Intent.spec, Intent.concept):
        if intent in intents:
            return intent
    return intents[0]


def _mode_topic(mode: str) -> str:
    return {"lora": "lora", "qlora": "lora", "full": "full", "pretrain": "pretrain"}.get(mode, "inference")


def _plan_recommend(f: Facts, plan: Plan, lang: str) -> None:
    args = _workload(f, plan, training_default=Mode.lora)
    if f.required_gib and not (f.model or f.params):
        args["required_gib"] = f.required_gib
    args["currency"] = plan.currency.value
    if f.budget:
        args["budget"] = f.budget
        args["budget_currency"] = (f.budget_currency or plan.currency).value
        args["period"] = f.period or "month"
    elif plan.question is None:
        plan.question = "budget"
    if f.region:
        args["region"] = f.region.value
    elif lang == "zh" or plan.currency == Currency.CNY:
        args["region"] = "any"
    if f.providers:
        args["providers"] = f.providers
    elif f.instance:
        args["providers"] = [f.instance.split("/")[0]]
    if f.billing:
        args["billing"] = f.billing.value
    if f.gpus:
        args["max_gpus"] = f.gpus
    if f.gpu:
        args["gpu"] = f.gpu
    if f.tokens:
        args["tokens"] = f.tokens
        if f.epochs:
            args["epochs"] = f.epochs
    if args["mode"] == Mode.inference.value and not f.batch_size:
        args["batch_size"] = SERVING_BATCH
        plan.assumptions.append(Assumption(key="serving", value=str(SERVING_BATCH), how_to_change="batch"))
    plan.calls.append(ToolPlan(name="recommend_config", args=args))
    plan.calls.append(_search(_mode_topic(args["mode"]), lang))
    plan.calls.append(_search("spot" if f.billing and f.billing.value == "spot" else "billing", lang))
    plan.calls.append(ToolPlan(name="search_guidance", args={"query": "", "k": 2, "lang": lang}))  # the user's own words
    if f.region == RegionScope.cn:
        plan.calls.append(_search("china", lang))
    elif f.asks_providers:
        plan.calls.append(_search("providers", lang))


def _plan_train_time(f: Facts, plan: Plan, lang: str) -> None:
    args: dict[str, Any] = {}
    if f.model:
        args["model"] = f.model
    elif f.params:
        args["params"] = f.params
    else:
        args["params"] = DEFAULT_PARAMS
        plan.assumptions.append(Assumption(key="model", value="7B", how_to_change="model"))
    mode = f.mode or (Mode.lora if f.training_unspecified else Mode.full)
    if f.mode is None:
        plan.assumptions.append(Assumption(key="mode", value=mode.value, how_to_change="mode"))
    args["mode"] = mode.value
    args["gpu"] = f.gpu or DEFAULT_TRAIN_GPU
    if not f.gpu:
        plan.assumptions.append(Assumption(key="gpu", value=DEFAULT_TRAIN_GPU, how_to_change="gpu"))
    args["gpus"] = f.gpus or 1
    if not f.gpus:
        plan.assumptions.append(Assumption(key="gpus", value="1", how_to_change="gpus"))
    if f.tokens:
        args["tokens"] = f.tokens
    else:
        args["tokens"] = DEFAULT_FINETUNE_TOKENS
        plan.assumptions.append(Assumption(key="tokens", value="1e8", how_to_change="tokens"))
        plan.question = "tokens"
    if f.epochs:
        args["epochs"] = f.epochs
    if f.precision:
        args["precision"] = f.precision.value
    if f.deadline_hours:
        args["deadline_hours"] = f.deadline_hours
    plan.calls.append(ToolPlan(name="estimate_train_time", args=args))
    if Intent.cost in plan.intents or f.budget:
        rec = {k: v for k, v in args.items() if k in ("model", "params", "mode", "precision", "tokens", "epochs", "gpu")}
        rec.update(currency=plan.currency.value, period="job", max_gpus=max(args["gpus"], 1))
        if f.instance:
            rec["providers"] = [f.instance.split("/")[0]]  # price the job on the instance the user named
        if f.budget:
            rec["budget"] = f.budget
        if f.region:
            rec["region"] = f.region.value
        plan.calls.append(ToolPlan(name="recommend_config", args=rec))
    plan.calls.append(_search("time", lang))
