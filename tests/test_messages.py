"""The message catalog against what the calculators really say.

`RUNS` is a table of calculator calls over the built-in catalog (plus a few inline
records for what the catalog lacks on purpose): inference, LoRA, QLoRA, full,
pretraining across nodes, CNY and USD budgets, region cn, spot, an impossible
job that triggers suggestions, a vGPU slice, a thin host, PCIe-only training,
cost views and the errors users can cause. Every note, breakdown component and
change in their results is collected once per session; the tests then check
that every code of every code enum exists in both languages and is reached by
some run, that each collected note renders, that Chinese renderings contain no
English words beyond names and a short list of terms, that chat renderings name
no CLI flag, and that every number a rendering shows is one of its note's params.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import Any, Callable

import pytest
from pydantic import BaseModel, ValidationError

from tools.domain import (
    GPU,
    Billing,
    Currency,
    Instance,
    Mode,
    ModelSpec,
    Offload,
    Precision,
    Price,
    PriceGrade,
    Region,
    Sharding,
)
from tools.errors import error_note
from tools.messages import has_code, render, render_change, render_component, render_suggestion
from tools.messages.catalog import _table
from tools.messages.format import fill
from tools.notes import Change, ChangeKind, Note, NoteCode, Suggestion
from tools.schemas import (
    CostRequest,
    ExchangeRate,
    FxSource,
    MemoryPart,
    RecommendRequest,
    TrainTimeRequest,
    VramRequest,
)
from tools.vram_codes import Component, FormulaCode

# importing the calculators registers every code enum (NoteCode subclasses)
import tools.cost as cost  # noqa: E402
import tools.recommend as recommend_mod  # noqa: E402
import tools.train_time as train_time  # noqa: E402
import tools.vram as vram  # noqa: E402
from tools.vram_shape import model_from_params  # noqa: E402

BUILTIN_FX = ExchangeRate(usd_cny=7.1, as_of=dt.date(2025, 11, 28), source="x", source_code=FxSource.builtin)
CITED_FX = ExchangeRate(usd_cny=7.2, as_of=dt.date(2026, 1, 5), source="PBOC 2026-01-05")


def code_enums() -> list[type[NoteCode]]:
    """Every NoteCode enum of tools/ (each module imported once, so none is missed)."""
    import importlib
    import pkgutil

    import tools

    for m in pkgutil.iter_modules(tools.__path__):
        importlib.import_module(f"tools.{m.name}")
    found, todo = [], list(NoteCode.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return sorted(found, key=lambda c: c.__name__)


# the enums of the calculators this table of runs covers (serving and price age have their own tests)
from tools.errors import ErrorCode  # noqa: E402
from tools.mfu import MfuCode  # noqa: E402
from tools.recommend_codes import RecommendCode  # noqa: E402
from tools.schemas import FxCode  # noqa: E402
from tools.vram_codes import VramCode  # noqa: E402

RUN_ENUMS = (VramCode, FormulaCode, train_time.TimeCode, MfuCode, cost.CostCode, RecommendCode, ErrorCode, FxCode)


# ------------------------------------------------------------------ inline records for what the catalog lacks


def _price(amount: float, billing: Billing = Billing.on_demand, currency: Currency = Currency.USD) -> Price:
    return Price(billing=billing, amount=amount, currency=currency, source="inline test", grade=PriceGrade.official,
                 as_of=dt.date(2026, 7, 20))


def _inline_catalog():
    from tools.catalog import Catalog

    h100 = GPU(key="H100", name="H100 SXM", vendor="NVIDIA", architecture="Hopper", form_factor="SXM", memory_gb=80,
               usable_memory_gib=79.3, bf16_tflops=989, bf16_supported=True, fp8_supported=True, nvlink=True,
               source="inline")
    no_peak = GPU(key="X1", name="X1", vendor="NVIDIA", architecture="Ampere", form_factor="PCIe", memory_gb=48,
                  usable_memory_gib=44.5, bf16_supported=True, fp8_supported=False, nvlink=False, source="inline")
    regions = {"us": Region(name="us-east-1"), "cn": Region(name="cn-north-1", china_mainland=True)}
    instances = [
        # every billing mode, for the cost views
        Instance(provider="p", instance="full.8x", gpu="H100", gpu_count=8, vcpus=192, ram_gib=2048, nvlink=True,
                 infiniband=True, region=regions["us"], source="inline",
                 prices=[_price(98.32), _price(39.3, Billing.spot), _price(52_000.0, Billing.monthly),
                         Price(billing=Billing.yearly, amount=480_000.0, currency=Currency.USD, per="year",
                               source="inline test", grade=PriceGrade.marketplace)]),
        # thin: 9 vCPU and 48 GB per GPU (marked); severe: 4 vCPU per GPU (rejected)
        Instance(provider="p", instance="thin.8x", gpu="H100", gpu_count=8, vcpus=72, ram_gib=360, nvlink=True,
                 region=regions["us"], prices=[_price(30.0), _price(12.0, Billing.spot)], source="inline"),
        Instance(provider="p", instance="starved.8x", gpu="H100", gpu_count=8, vcpus=32, ram_gib=2048, nvlink=True,
                 region=regions["us"], prices=[_price(20.0)], source="inline"),
        # no sourced peak: the time estimate fails, the option stays with a warning
        Instance(provider="p", instance="x1.1x", gpu="X1", gpu_count=1, vcpus=32, ram_gib=256,
                 region=regions["us"], prices=[_price(1.0)], source="inline"),
        # an accelerator the GPU catalog lacks, and an unpriced instance
        Instance(provider="p", instance="mystery.1x", gpu="TPU-v9", gpu_count=1, region=regions["us"], source="inline"),
        Instance(provider="q", instance="dark.1x", gpu="H100", gpu_count=1, vcpus=32, ram_gib=256,
                 region=regions["cn"], source="inline"),
    ]
    return Catalog(gpus={g.key: g for g in (h100, no_peak)}, models={}, providers={}, instances=instances)


def _no_shape_model() -> ModelSpec:
    return ModelSpec(key="bare-7b", name="Bare-7B", family="bare", params=7e9, source="inline")


def _short_model() -> ModelSpec:
    return ModelSpec(key="short-1b", name="Short-1B", family="s", params=1.1e9, num_layers=22, hidden_size=2048,
                     num_attention_heads=32, num_kv_heads=4, intermediate_size=5632, vocab_size=32000, max_context=512,
                     attention="gqa", source="inline")


# ------------------------------------------------------------------ the runs


@dataclass
class Env:
    catalog: Any
    inline: Any
    fx: ExchangeRate

    def model(self, name: str) -> ModelSpec:
        return self.catalog.model(name)

    def gpus(self, *names: str) -> list[GPU]:
        return [self.catalog.gpu(n) for n in names]


def _vram(model: str | Callable, **kw) -> Callable[[Env], Any]:
    def run(env: Env):
        m = model(env) if callable(model) else env.model(model)
        return vram.estimate_vram(m, VramRequest(**kw), env.gpus("A100-80GB", "RTX-4090"))

    return run


def _time(model: str, gpu: str, **kw) -> Callable[[Env], Any]:
    def run(env: Env):
        return train_time.estimate_train_time(env.model(model), env.catalog.gpu(gpu), TrainTimeRequest(**kw))

    return run


def _cost(instance: str, fx: ExchangeRate = BUILTIN_FX, **kw) -> Callable[[Env], Any]:
    def run(env: Env):
        return cost.estimate_cost(env.inline.instances_named(instance)[0], CostRequest(**kw), fx)

    return run


def _rec(model: str | None, catalog: str = "catalog", fx: ExchangeRate = BUILTIN_FX, **kw) -> Callable[[Env], Any]:
    def run(env: Env):
        cat = getattr(env, catalog)
        m = None if model is None else (model_from_params(float(model[1:])) if model.startswith("=") else env.model(model))
        return recommend_mod.recommend(cat, m, RecommendRequest(**kw), fx)

    return run


def _job_note(env: Env):
    est = train_time.estimate_train_time(env.model("llama-2-7b"), env.catalog.gpu("A100-40GB"),
                                         TrainTimeRequest(mode=Mode.lora, tokens=1e9, gpus=8))
    return cost.job_note("Llama-2-7B", Mode.lora, 1e9, 1, 8, est)


def _raises(call: Callable[[Env], Any]) -> Callable[[Env], Any]:
    """The error's note (an InputError's own, or the one inside a ValidationError)."""

    def run(env: Env):
        try:
            call(env)
        except (ValueError, ValidationError) as err:
            note = error_note(err)
            assert note is not None, f"{type(err).__name__} without a note: {err}"
            return note
        raise AssertionError("expected an error")

    return run


LORA = VramRequest(mode=Mode.lora)
RUNS: dict[str, Callable[[Env], Any]] = {
    # ---- memory
    "inference, defaults (MHA KV cache)": _vram("llama-2-7b"),
    "inference int4 on 4 GPUs, sharding ignored": _vram("llama-2-13b", precision="int4", gpus=4, sharding="zero3"),
    "inference int8": _vram("llama-2-7b", precision="int8", batch_size=4, seq_len=1024),
    "MoE inference": _vram("mixtral-8x7b"),
    "MLA inference": _vram("deepseek-v2-lite", precision="fp8"),
    "sliding window": _vram("mistral-7b", seq_len=8192),
    "MQA": _vram("starcoder"),
    "encoder inference": _vram("bert-base"),
    "encoder fine-tune": _vram("bert-base", mode="full"),
    "profiled model, inference": _vram("sdxl"),
    "profiled model with a measured inference working set": _vram("whisper-large-v3", precision="fp16"),
    "profiled model, training": _vram("sdxl", mode="full"),
    "vision transformer, checkpointed training": _vram("vit-b-16", mode="full", checkpointing="full"),
    "vision transformer with a model EMA": _vram("vit-b-16", mode="full", precision="fp16", autocast=True,
                                                 flash_attention=False, model_ema=True),
    "vision transformer inference": _vram("vit-b-16", mode="inference", batch_size=64),
    "vision transformer with a segmentation head's per-pixel loss (SETR: 4 losses)": _vram(
        "vit-l-16", mode="full", precision="fp32", optimizer="sgd", flash_attention=False, dense_classes=150,
        dense_label_pixels=512 * 512, dense_loss_heads=4),
    "an encoder's masked-LM head, output kept through backward (milabench BERT)": _vram(
        "bert-base", mode="pretrain", precision="fp16", autocast=True, batch_size=16, seq_len=512,
        checkpointing="none", output_kept=True),
    "a segmentation head at inference, not counted": _vram("vit-b-16", mode="inference", dense_classes=150,
                                                           dense_label_pixels=512 * 512),
    "vision transformer, selective checkpointing, an EMA ignored": _vram("vit-b-16", mode="lora", checkpointing="selective",
                                                                         model_ema=True),
    "shape missing in the catalog": _vram(lambda env: _no_shape_model()),
    "shape from a bare count": _vram(lambda env: model_from_params(13e9)),
    "context over the model's": _vram("llama-2-7b", seq_len=8192),
    "short-context model": _vram(lambda env: _short_model(), mode="lora"),
    "LoRA defaults": _vram("llama-2-13b", mode="lora"),
    "LoRA pure bf16, attention only": _vram("llama-2-13b", mode="lora", master_weights="none", lora_targets="attention"),
    "QLoRA through PEFT's kbit prepare, HF autocast": _vram("llama-2-7b", mode="qlora", kbit_prepare=True, autocast=True),
    "full pure bf16, HF autocast, foreach AdamW": _vram("llama-2-7b", mode="full", master_weights="none", autocast=True,
                                                       foreach_step=True),
    "QLoRA": _vram("qwen2.5-7b", mode="qlora"),
    "bitsandbytes 4-bit inference, load_in_4bit defaults": _vram("llama-2-7b", precision="nf4", bnb_double_quant=False, bnb_compute_fp32=True),
    "QLoRA through TRL's SFTTrainer (bf16 recast)": _vram("llama-2-7b", mode="qlora", kbit_prepare=True, autocast=True, kbit_recast_bf16=True),
    "full fine-tune, gradients freed after each step": _vram("llama-2-7b", mode="full", master_weights="none", foreach_step=True, grads_to_none=True),
    "Megatron-LM fp16 (16-bit model, fp32 masters in the optimizer), vocab-parallel loss": _vram(
        "gpt2", mode="pretrain", precision="fp16", gpus=8, tp=2, sharding="ddp", autocast=False, vocab_parallel_loss=True),
    "Megatron-LM fp16 since 2021-07: fp32 main gradients made at the step": _vram(
        "gpt2", mode="pretrain", precision="fp16", gpus=4, sharding="ddp", autocast=False, main_grads_at_step=True,
        checkpointing="full", batch_size=1, seq_len=128),
    "Megatron-LM bf16 (fp32 gradient buffer)": _vram(
        "gpt2", mode="pretrain", precision="bf16", gpus=2, sharding="ddp", autocast=False),
    "fairseq FSDP with CPU offload on one GPU (fairscale: gradients to the CPU per unit)": _vram(
        "llama-2-7b", mode="pretrain", precision="fp16", sharding="fsdp", offload="cpu", autocast=False,
        fsdp_grads_to_cpu_per_unit=True),
    "torchtitan op-level selective AC": _vram("llama-3.1-8b", mode="pretrain", gpus=8, sharding="fsdp", checkpointing="selective", ac_option="op"),
    "torchtitan layer-level selective AC": _vram("llama-3.1-8b", mode="pretrain", gpus=8, sharding="fsdp", checkpointing="selective", ac_option=2),
    "full fp32": _vram("llama-2-7b", mode="full", precision="fp32", optimizer="sgd", checkpointing="none"),
    "full pure bf16, SGD": _vram("llama-2-7b", mode="full", master_weights="none", optimizer="sgd"),
    "full ZeRO-2 (DeepSpeed layout), 8-bit Adam": _vram("llama-2-7b", mode="full", gpus=8, sharding="zero2",
                                                        optimizer="adamw8bit", chunked_loss=True),
    "full fp8, Adafactor": _vram("llama-2-7b", mode="full", precision="fp8", optimizer="adafactor"),
    "full DDP": _vram("llama-2-7b", mode="full", gpus=4, checkpointing="selective"),
    "full ZeRO-3 + CPU offload": _vram("llama-2-13b", mode="full", gpus=4, sharding="zero3", offload="cpu"),
    "encoder-decoder under ZeRO-3 (eager-only T5)": _vram("flan-t5-xxl", mode="full", gpus=8, sharding="zero3"),
    "full FSDP + CPU offload, short sequence": _vram("llama-2-13b", mode="full", gpus=2, sharding="fsdp", offload="cpu",
                                                      seq_len=128),
    "QLoRA + FSDP + CPU offload": _vram("llama-2-70b", mode="qlora", gpus=2, sharding="fsdp", offload="cpu"),
    "full ZeRO-2 + CPU offload": _vram("llama-2-13b", mode="full", gpus=4, sharding="zero2", offload="cpu"),
    "pretrain tp × pp, eager attention": _vram("llama-2-13b", mode="pretrain", gpus=8, tp=2, pp=2, sharding="zero1",
                                               flash_attention=False, checkpointing="none"),
    # ---- training time
    "time: full on A100": _time("llama-2-7b", "A100-80GB", tokens=1e9, gpus=8, checkpointing="full"),
    "time: LoRA, epochs": _time("llama-2-7b", "H100", mode="lora", tokens=1e8, epochs=3),
    "time: LoRA recompute, MoE": _time("mixtral-8x7b", "H100", mode="lora", tokens=1e8, checkpointing="full"),
    "time: QLoRA nf4, deadline": _time("llama-2-13b", "A100-80GB", mode="qlora", precision="nf4", tokens=1e9,
                                      deadline_hours=24),
    "time: given MFU": _time("llama-2-7b", "A100-80GB", tokens=1e9, mfu=0.4),
    "time: V100 beyond a node": _time("llama-2-7b", "V100-32GB", tokens=1e9, gpus=16),
    "time: PCIe multi-GPU": _time("llama-2-7b", "L40S", tokens=1e9, gpus=4),
    "time: consumer": _time("llama-2-7b", "RTX-4090", mode="lora", tokens=1e8),
    "time: other vendor": _time("llama-2-7b", "MI300X", tokens=1e9, gpus=8),
    "cost: job note (CLI)": _job_note,
    # ---- cost
    "cost: a month, every mode": _cost("p/full.8x"),
    "cost: hours given, whole terms, two nodes": _cost("p/full.8x", hours=100, instances=2),
    "cost: schedule, CNY (converted, cited rate)": _cost("p/full.8x", fx=CITED_FX, hours_per_day=8, days=20,
                                                        currency="CNY"),
    "cost: days round the clock": _cost("p/full.8x", days=3),
    "cost: spot never finishes": _cost("p/full.8x", hours=100, billing="spot", spot_interruptions_per_day=30,
                                       checkpoint_interval_hours=4),
    "cost: unpriced instance": _cost("q/dark.1x", hours=10),
    # ---- recommender
    "rec: 13B LoRA under ¥20k/month with a job": _rec("llama-13b", vram=LORA, budget=20000, currency="CNY", tokens=1e9),
    "rec: USD budget outside China, converted": _rec("llama-2-7b", vram=LORA, budget=3000, currency="CNY",
                                                     region="intl", tokens=1e9),
    "rec: region cn, default currency": _rec(None, required_gib=30, region="cn"),
    "rec: region cn, export-restricted fleet": _rec("qwen2.5-14b", vram=VramRequest(mode=Mode.full), region="cn", max_gpus=8),
    "rec: spot job": _rec("llama-2-7b", vram=LORA, billing="spot", tokens=1e9),
    "rec: a time limit one machine misses (clusters, too-slow near-misses)": _rec(
        "=1.3e9", vram=VramRequest(mode=Mode.full), tokens=20e9, period="job", deadline_hours=12, max_gpus=64),
    "rec: a time limit and GPUs without a sourced peak (untimed near-misses)": _rec(
        "=70e9", vram=VramRequest(mode=Mode.full), tokens=2e12, period="job", deadline_hours=12, max_gpus=64, top_k=50),
    "rec: a time limit without tokens": _raises(_rec("llama-2-7b", vram=LORA, deadline_hours=12)),
    "rec: impossible job (suggestions)": _rec("=70e9", vram=VramRequest(mode=Mode.full), budget=500, currency="USD"),
    "rec: impossible everywhere": _rec(None, required_gib=1e6, region="cn", providers=[], gpu=None),
    "rec: only a cluster holds it": _rec("=180e9", vram=VramRequest(mode=Mode.full), max_gpus=64),
    "rec: inference across nodes": _rec("=900e9", vram=VramRequest(mode=Mode.inference), max_gpus=32),
    "rec: a raw need replicated": _rec(None, required_gib=12, max_gpus=8, top_k=20),
    "rec: user layout": _rec("llama-2-13b", vram=VramRequest(mode=Mode.full, gpus=8, sharding=Sharding.zero3)),
    "rec: bf16 requested": _rec("llama-2-7b", vram=VramRequest(mode=Mode.lora, precision=Precision.bf16)),
    "rec: fp8 requested": _rec("llama-2-7b", vram=VramRequest(mode=Mode.lora, precision=Precision.fp8)),
    "rec: PCIe-only training": _rec("llama-2-13b", vram=VramRequest(mode=Mode.full), gpu="L40S", max_gpus=8),
    "rec: PCIe rejected beside NVLink": _rec("llama-2-13b", vram=VramRequest(mode=Mode.full), max_gpus=8, top_k=10),
    "rec: vGPU slice": _rec(None, required_gib=2, gpu="L4"),
    "rec: filters that exclude everything": _rec("=70e9", vram=VramRequest(mode=Mode.full), providers=["lambda"],
                                                 gpu="T4", billing="yearly", region="cn", max_gpus=2),
    "rec: inline: thin host, no peak, unknown GPU, unpriced": _rec(
        "llama-2-7b", catalog="inline", vram=VramRequest(mode=Mode.lora, gpus=4, batch_size=4, checkpointing="none"),
        tokens=1e9, period="hour", budget=100, currency="USD"),
    "rec: inline: only an unpriced machine, after a change": _rec("llama-2-13b", catalog="inline",
                                                                   vram=VramRequest(mode=Mode.full), region="cn", max_gpus=1),
    "rec: tokens for inference": _rec("llama-2-7b", tokens=1e9),
    "rec: layout refused": _rec("llama-2-7b", vram=VramRequest(mode=Mode.inference, offload=Offload.cpu, sharding="zero3")),
    # ---- errors users can cause
    "error: unknown model": _raises(lambda env: env.catalog.model("lama-13")),
    "error: unknown GPU": _raises(lambda env: env.catalog.gpu("H1OO")),
    "error: unknown provider": _raises(lambda env: env.catalog.provider("awz")),
    "error: unknown instance": _raises(lambda env: env.catalog.instances_named("aws/p4d.24xlargee")),
    "error: QLoRA precision": _raises(lambda env: VramRequest(mode="qlora", precision="fp16")),
    "error: a field that qualifies another one": _raises(lambda env: VramRequest(mode="qlora", kbit_recast_bf16=True)),
    "error: tp × pp over GPUs": _raises(lambda env: VramRequest(gpus=2, tp=4)),
    "error: GPUs not a multiple": _raises(lambda env: vram.estimate_vram(env.model("llama-2-7b"), VramRequest(gpus=6, tp=4))),
    "error: full in 4 bits": _raises(lambda env: vram.estimate_vram(env.model("llama-2-7b"), VramRequest(mode="full", precision="int4"))),
    "error: offload for inference": _raises(lambda env: vram.estimate_vram(env.model("llama-2-7b"), VramRequest(offload="cpu", sharding="zero3"))),
    "error: offload unsharded": _raises(lambda env: vram.estimate_vram(env.model("llama-2-7b"), VramRequest(mode="full", offload="cpu"))),
    "error: no sourced peak": _raises(lambda env: train_time.estimate_train_time(
        env.model("llama-2-7b"), env.catalog.gpu("A10G"), TrainTimeRequest(tokens=1e9))),
    "error: deadline not positive": _raises(lambda env: train_time.gpus_for_deadline(
        env.model("llama-2-7b"), env.catalog.gpu("H100"), TrainTimeRequest(tokens=1e9), -1.0)),
    "error: deadline too close": _raises(lambda env: train_time.estimate_train_time(
        env.model("llama-2-7b"), env.catalog.gpu("H100"), TrainTimeRequest(tokens=1e12, deadline_hours=1e-6))),
    "error: no workload": _raises(lambda env: recommend_mod.recommend(env.catalog, None, RecommendRequest(), BUILTIN_FX)),
    "error: job budget without tokens": _raises(lambda env: recommend_mod.recommend(
        env.catalog, env.model("llama-2-7b"), RecommendRequest(vram=LORA, period="job", budget=100), BUILTIN_FX)),
    "error: job budget for inference": _raises(lambda env: recommend_mod.recommend(
        env.catalog, env.model("llama-2-7b"), RecommendRequest(period="job", budget=100, tokens=1e9), BUILTIN_FX)),
    "error: parameter count": _raises(lambda env: model_from_params(-1)),
}


@dataclass
class Collected:
    notes: list[Note]
    components: set[tuple[Component, str | None]]
    changes: list[Change]
    suggestions: list[Suggestion]
    by_run: dict[str, list[Note]]


def _walk(obj: Any, c: Collected, run: str) -> None:
    if isinstance(obj, Note):
        c.notes.append(obj)
        c.by_run[run].append(obj)
        for v in obj.params.values():
            _walk(v, c, run)
    elif isinstance(obj, Suggestion):
        c.suggestions.append(obj)
        _walk(obj.change, c, run)
        _walk(obj.outcome, c, run)
    elif isinstance(obj, Change):
        c.changes.append(obj)
    elif isinstance(obj, MemoryPart):
        c.components.add((obj.component, obj.precision))
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            _walk(getattr(obj, name), c, run)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _walk(v, c, run)
    elif isinstance(obj, dict):
        for v in obj.values():
            _walk(v, c, run)


@pytest.fixture(scope="module")
def collected() -> Collected:
    from knowledge.catalog import load_catalog
    from knowledge.settings import Settings

    env = Env(catalog=load_catalog(Settings.load()), inline=_inline_catalog(), fx=BUILTIN_FX)
    c = Collected([], set(), [], [], {})
    for name, run in RUNS.items():
        c.by_run[name] = []
        _walk(run(env), c, name)
    return c


def _unique(notes: list[Note]) -> list[Note]:
    return list(dict.fromkeys(notes))


# ------------------------------------------------------------------ every code, both languages


def test_the_code_enums_are_found():
    names = {e.__name__ for e in code_enums()}
    assert {"VramCode", "FormulaCode", "TimeCode", "MfuCode", "CostCode", "RecommendCode", "ErrorCode", "FxCode"} <= names


@pytest.mark.parametrize("enum", code_enums(), ids=lambda e: e.__name__)
def test_every_code_has_an_english_and_a_chinese_template(enum):
    table = _table()
    for member in enum:
        assert has_code(member.value), f"{enum.__name__}.{member.name} ({member.value}) has no message"
        en, zh = table[member.value]
        assert en and zh, member.value


@pytest.mark.parametrize("kind", list(ChangeKind), ids=lambda k: k.value)
def test_every_change_kind_has_advice_and_flags(kind):
    for code in (f"change.{kind.value}", f"change.{kind.value}.cli"):
        assert has_code(code), code
    assert not re.search(r"--[a-z]", render_change(Change(kind=kind, value=8), "en", "chat"))
    assert render_change(Change(kind=kind, value=8), "en", "cli").startswith(("--", "(no --"))


@pytest.mark.parametrize("component", list(Component), ids=lambda c: c.value)
def test_every_component_has_both_labels(component):
    en, zh = render_component(component, "bf16", "en"), render_component(component, "bf16", "zh")
    assert en and zh and en != zh or component in (Component.kv_cache,), (en, zh)
    assert "bf16" in en and "bf16" in zh


# the tables of the calculators above (tools/messages/<domain>.py); other domains test their own
RUN_TABLES = ("changes", "common", "cost", "errors", "recommend", "train_time", "vram")


@pytest.mark.parametrize("domain", RUN_TABLES)
def test_no_table_entry_is_an_orphan(domain):
    """Every entry belongs to a code enum, a component, a change, a term or a CLI form."""
    import importlib

    known = {m.value for e in code_enums() for m in e}
    known |= {f"component.{c.value}" for c in Component}
    known |= {f"change.{k.value}" for k in ChangeKind}
    known |= {"price.as_of"}  # a date as the surfaces print it
    table = importlib.import_module(f"tools.messages.{domain}").MESSAGES
    orphans = [c for c in table if not c.startswith("term.") and c.removesuffix(".cli") not in known]
    assert orphans == []


# ------------------------------------------------------------------ the runs reach every code


def test_every_code_is_reached_by_a_run(collected):
    reached = {n.code for n in collected.notes}
    missing = [m.value for e in RUN_ENUMS for m in e if m.value not in reached]
    assert missing == [], "add a run to RUNS that produces these codes: " + ", ".join(missing)


def test_every_component_is_reached_by_a_run(collected):
    assert {c for c, _ in collected.components} == set(Component)


def test_suggestions_carry_changes_and_outcomes(collected):
    kinds = {s.change.kind for s in collected.suggestions if s.change}
    assert {ChangeKind.raise_budget, ChangeKind.set_mode} <= kinds
    tried = {k for s in collected.suggestions if s.change is None for k in s.outcome.params["tried"]}
    assert {"set_max_gpus", "widen_region", "drop_providers", "drop_gpu_filter", "drop_billing"} <= tried


# ------------------------------------------------------------------ rendering


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("surface", ["chat", "cli"])
def test_every_collected_note_renders(collected, lang, surface):
    for note in _unique(collected.notes):
        text = render(note, lang, surface)
        assert text.strip() and "{" not in text and "None" not in text, (note, text)
    for s in collected.suggestions:
        assert render_suggestion(s, lang, surface).strip()
    for component, precision in collected.components:
        assert render_component(component, precision, lang)


def test_chat_renderings_name_no_cli_flag(collected):
    flag = re.compile(r"(?<![\w-])--[a-z]")
    for note in _unique(collected.notes):
        for lang in ("en", "zh"):
            assert not flag.search(render(note, lang)), (note.code, render(note, lang))
    for s in collected.suggestions:
        for lang in ("en", "zh"):
            assert not flag.search(render_suggestion(s, lang)), render_suggestion(s, lang)


def test_cli_suggestions_are_flags(collected):
    lines = [render_suggestion(s, "en", "cli") for s in collected.suggestions if s.change]
    assert lines and all(line.startswith(("--", "(no --")) for line in lines), lines


# ------------------------------------------------------------------ Chinese stays Chinese

# Established names and terms a Chinese engineer reads as they are (issue 10): methods, products,
# libraries, units, precisions, paper authors. Names that are params (GPU, model, instance, region)
# are removed per note before counting. Keep this list short: a word belongs here only if a
# Chinese sentence would write it in Latin letters too.
ALLOWED_PHRASES = ("all-reduce", "batch size", "LM head", "Transformer Engine", "et al.")
ALLOWED_LATIN = {
    # methods and parallelism
    "lora", "qlora", "zero", "offload", "fsdp", "ddp", "moe", "mla", "gqa", "mha", "mqa", "rope", "mfu", "flashattention",
    "dropout", "autocast", "rank", "tp", "pp", "nd", "lm", "head", "logits", "loss", "batch", "token", "epoch", "kv",
    "cache", "micro",
    # precisions and units
    "bf16", "fp16", "fp32", "fp8", "int8", "int4", "nf4", "bit", "gib", "gb", "gbps", "tflops", "vcpu", "cpu", "gpu",
    # hardware and links
    "nvlink", "pcie", "infiniband", "rdma", "cuda", "vgpu", "nvidia", "bf", "fp", "sxm",
    # software and papers
    "pytorch", "torch", "amp", "hf", "trainer", "peft", "deepspeed", "megatron", "fairscale", "llama", "mlp", "swiglu", "mlm",
    "bitsandbytes", "gptq", "awq", "adamw", "adafactor", "sgd", "torchtune", "litgpt", "unsloth", "vllm", "korthikanti",
    "shoeybi", "raschka", "arxiv", "logit", "usd", "cny", "transformer",
}
_IDENT = re.compile(r"\S*[_=]\S*")  # identifiers and settings (gradient_checkpointing=True, GPU_ADVISOR_USD_CNY)


def english_words(text: str, names: set[str]) -> list[str]:
    for name in sorted(names | set(ALLOWED_PHRASES), key=len, reverse=True):
        text = text.replace(name, " ")
    text = _IDENT.sub(" ", text)
    words = re.findall(r"(?<![0-9A-Za-z])[A-Za-z][A-Za-z0-9]*", text)
    return [w for w in words if len(w.rstrip("0123456789")) > 1 and w.lower() not in ALLOWED_LATIN]


def _names(note: Note) -> set[str]:
    out = set()
    for v in note.params.values():
        if isinstance(v, str) and not has_code(f"term.billing.{v}"):
            out.add(v)
        elif isinstance(v, list):
            out |= {x for x in v if isinstance(x, str)}
        elif isinstance(v, Note):
            out |= _names(v)
    return out


def test_chinese_renderings_have_no_english_words(collected):
    leftovers = {}
    for note in _unique(collected.notes):
        for surface in ("chat", "cli"):
            # on the CLI a flag and its value are syntax, not words
            words = english_words(re.sub(r"--[a-z-]+(?: [a-z0-9/._-]+)?", " ", render(note, "zh", surface)), _names(note))
            if words:
                leftovers[note.code] = words
    for s in collected.suggestions:
        words = english_words(render_suggestion(s, "zh"), _names(s.outcome))
        if words:
            leftovers[s.outcome.code] = words
    for component, precision in collected.components:
        words = english_words(render_component(component, precision, "zh"), {precision or ""} - {""})
        if words:
            leftovers[component.value] = words
    assert leftovers == {}


def test_the_english_word_counter_counts():
    assert english_words("每卡需要 20 GiB，within budget", set()) == ["within", "budget"]
    assert english_words("在 p4d.24xlarge 上用 LoRA", {"p4d.24xlarge"}) == []


# ------------------------------------------------------------------ numbers come from the params

_NOT_CLAIMS = {m.value for m in FormulaCode}  # formulas are math (2·s·b·h), shown by the CLI, never in chat


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_number_a_rendering_shows_is_a_param(collected, lang):
    """The verifier must be able to back a rendered note by its own params: templates add no figures."""
    from assistant.verifier import Evidence, unbacked, verify_numbers

    bad = {}
    for note in _unique(collected.notes):
        if note.code in _NOT_CLAIMS:
            continue
        text = render(note, lang)
        evidence = Evidence(tool_results={"note": note.model_dump(mode="json")})
        missing = unbacked(verify_numbers(text, evidence))
        if missing:
            bad[note.code] = (text, [c.text for c in missing])
    assert bad == {}


# ------------------------------------------------------------------ the JSON form


def test_json_with_a_language_carries_text_everywhere(collected):
    note = next(n for n in collected.notes if n.code == "reject.fit")
    data = note.model_dump(mode="json", context={"lang": "zh"})
    assert set(data) == {"code", "params", "text"} and data["text"] == render(note, "zh")
    assert data["params"]["layout"]["text"] == render(note.params["layout"], "zh")  # nested notes too
    assert "text" not in note.model_dump(mode="json")  # no language, no text
    change = Change(kind=ChangeKind.set_mode, value="qlora").model_dump(mode="json", context={"lang": "en"})
    assert change["flags"] == "--mode qlora" and "--" not in change["text"]


def test_a_note_round_trips_through_json(collected):
    for note in _unique(collected.notes)[:200]:
        assert Note.model_validate(note.model_dump(mode="json")) == note
        assert render(note.model_dump(mode="json"), "zh") == render(note, "zh")
        # the --json form, with text everywhere, renders the same
        assert render(note.model_dump(mode="json", context={"lang": "en"}), "zh") == render(note, "zh")
    for s in collected.suggestions:
        assert render_suggestion(s.model_dump(mode="json", context={"lang": "zh"}), "en", "cli") == render_suggestion(s, "en", "cli")


def test_money_and_dates_per_language():
    note = Note.of("option.within_budget", cost=15234.0, budget=20000.0, currency="CNY", period="month")
    assert render(note, "zh") == "在预算内：¥15,234/月 ≤ ¥20,000"  # a comparison keeps its digits
    assert render(Note.of("suggest.option", provider="p", instance="i", nodes=1, gpu_count=1, gpu="H100", needed_gib=70.0,
                          cost=15234.0, currency="CNY", period="month"), "zh") == "p/i（1 × H100，每卡 70.0 GiB），¥1.52万/月"
    assert render(note, "en") == "within budget: ¥15,234/month ≤ ¥20,000"
    assert render(Note.of("price.as_of", as_of="2026-07-20"), "zh") == "2026-07-20 数据"
    assert render(Note.of("price.as_of", as_of=None), "en") == "date unknown"


@pytest.mark.parametrize(
    "value, en, zh",
    [
        ("2026-07-20", "2026-07-20", "2026-07-20"),  # a day, as the source gives it
        ("2026-10", "2026-10", "2026-10"),  # a month-level date
        (None, "date unknown", "日期未知"),  # the source gives no date: said, never left blank
        ("", "date unknown", "日期未知"),
    ],
)
def test_date_or_unknown(value, en, zh):
    from tools.messages import formatter

    assert (formatter("en").date_or_unknown(value), formatter("zh").date_or_unknown(value)) == (en, zh)


# where the words for a missing date may still be written out, and why
DATE_UNKNOWN_KNOWN = {
    "tools/messages/format.py": "Formatter.date_or_unknown: the one place",
    "tools/domain.py": "Price.age_text, a short English label the catalog's own tests read (test_notes_no_sentences)",
}


def test_the_words_for_a_missing_date_are_written_once():
    """Regression: 'date unknown' / '日期未知' were spelled out in each handler; they come from Formatter.date_or_unknown."""
    import ast
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[1]
    found = []
    for top in ("tools", "assistant", "ui"):
        for path in sorted((root / top).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                          if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                          and n.body and isinstance(n.body[0], ast.Expr)}
            for node in ast.walk(tree):
                if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                        and ("date unknown" in node.value or "日期未知" in node.value)):
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
    assert sorted({f.split(":")[0] for f in found}) == sorted(DATE_UNKNOWN_KNOWN), found


@pytest.mark.parametrize(
    "n, one, many, en",
    [
        (1, "replica", None, "1 replica"),
        (1.0, "replica", None, "1 replica"),  # gpu counts arrive as floats
        (2, "replica", None, "2 replicas"),
        (0, "option", None, "0 options"),  # zero takes the plural
        (1, "near-miss", "near-misses", "1 near-miss"),
        (3, "near-miss", "near-misses", "3 near-misses"),
        (1_200, "passage", None, "1,200 passages"),
    ],
)
def test_english_counts_take_their_plural(n, one, many, en):
    from tools.messages import formatter

    assert formatter("en").count(n, one, many) == en
    spec = f"{{n:count:{one}" + (f":{many}" if many else "") + "}"  # the template form: {n:count:replica}
    assert fill(spec, {"n": n}, "en") == en


def test_chinese_counts_have_no_plural():
    from tools.messages import formatter

    assert [formatter("zh").count(n, "个副本") for n in (1, 2)] == ["1 个副本", "2 个副本"]


@pytest.mark.parametrize(
    "params, en, zh",
    [
        # Regression: "2 GPUs: 1 replica(s) × TP 2"
        (dict(copies=1, gpus=2, tp=2, pp=1, nodes=1, replicas=1), "2 GPUs: 1 replica × TP 2", "2 张卡：1 个副本 × TP 2"),
        (dict(copies=1, gpus=4, tp=2, pp=1, nodes=1, replicas=2), "4 GPUs: 2 replicas × TP 2", "4 张卡：2 个副本 × TP 2"),
        (dict(copies=2, gpus=16, tp=8, pp=2, nodes=2, replicas=1), "2 copies × 16 GPUs: 1 replica × TP 8 × PP 2 over 2 machines",
         "2 份 × 16 张卡：1 个副本 × TP 8 × PP 2，2 台机器"),
        (dict(copies=1, gpus=8, tp=4, pp=2, nodes=1, replicas=1), "8 GPUs: 1 replica × TP 4 × PP 2 over 1 machine",
         "8 张卡：1 个副本 × TP 4 × PP 2，1 台机器"),
    ],
)
def test_a_serving_layout_counts_its_replicas(params, en, zh):
    note = Note.of("serve_rec.layout", **params)
    assert (render(note, "en"), render(note, "zh")) == (en, zh)


# message tables that still write a plural as "(s)", and why (each a change named in a helper report)
PLURAL_S_KNOWN = {
}


def test_no_message_writes_a_plural_as_s_in_brackets():
    """Regression: '1 replica(s)', '2 passage(s)'; English counts use Formatter.count ({n:count:replica})."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[1]
    found = {str(path.relative_to(root)) for path in sorted((root / "tools" / "messages").glob("*.py"))
             if re.search(r"[a-z]\((?:s|es)\)", path.read_text(encoding="utf-8"))}
    assert found == set(PLURAL_S_KNOWN)


def test_the_rate_names_its_source_per_language():
    assert render(BUILTIN_FX.note(), "zh").startswith("1 美元 = 7.1 元（内置默认值")
    assert render(CITED_FX.note(), "en") == "1 USD = 7.2 CNY (PBOC 2026-01-05, 2026-01-05)"
    assert BUILTIN_FX.text == render(BUILTIN_FX.note(), "en")


def test_an_unknown_code_is_a_bug_that_names_itself():
    with pytest.raises(KeyError, match="no message for note code 'nope.nothing'"):
        render(Note(code="nope.nothing"), "en")


def test_notes_are_hashable_and_compare_by_value():
    a = Note.of("host.thin", vcpu_per_gpu=9, min_vcpu=16, ram_gb_per_gpu=None, min_ram_gb=64)
    b = Note.of("host.thin", vcpu_per_gpu=9, min_vcpu=16, ram_gb_per_gpu=None, min_ram_gb=64)
    assert a == b and len({a, b}) == 1 and math.isfinite(hash(a))


def test_every_slot_has_a_name_in_both_languages():
    """Regression: "从粘贴的文档里读取了：…、traffic" — a slot added without its name in the message catalog."""
    from assistant.understand.slots import SlotUpdate
    from assistant.understand.state import CONTROL_FIELDS
    from tools.messages.advisor import SLOT_EN, SLOT_ZH

    slots = [n for n in SlotUpdate.model_fields if n not in CONTROL_FIELDS]
    assert [n for n in slots if n not in SLOT_EN] == [] and [n for n in slots if n not in SLOT_ZH] == []


@pytest.mark.parametrize("hours, en, zh", [
    (0.42, "25 min", "25 分钟"),  # a sub-hour job in minutes, not '0.4 h (0.0 days)'
    (0.001, "3.6 s", "3.6 秒"),  # never '0 min', and no rounded-up '1 min' that nothing backs
    (5.8, "5.8 h", "5.8 小时"),  # under a day: no days beside it
    (62.3, "62.3 h (2.6 days)", "62.3 小时（2.6 天）"),
])
def test_a_job_duration_reads_in_minutes_hours_or_days(hours, en, zh):
    from assistant.verifier import Evidence, unbacked, verify_numbers
    from tools.messages.format import Formatter

    assert Formatter("en").hours_days(hours) == en and Formatter("zh").hours_days(hours) == zh
    from assistant.offline.handlers.rental import RecCode

    note = Note.of(RecCode.job, hours=hours, cost=10.0, currency="USD")
    for lang in ("en", "zh"):
        # the verifier backs the minutes and days by the hours param (a time converts by its unit)
        text = render(note, lang)
        assert unbacked(verify_numbers(text, Evidence(tool_results={"note": note.model_dump(mode="json")}))) == [], text
